/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Diagnostics on stderr, prefixed with the program name; stdout stays for tables. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/util.h"

static int level = 1;

void log_set_level(int l) { level = l; }
int log_level(void) { return level; }

/* A message may quote user text (a label, a path, a line of a file): it is escaped, so no
 * byte of it can drive the terminal. */
static void emit(int min, const char *tag, const char *fmt, va_list ap)
{
	if (level < min)
		return;
	char *msg = NULL, *line = NULL;
	size_t len = 0;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	/* the whole line in one write: stderr is unbuffered, and a reader (a test, a log collector,
	 * the tasks writing to the same stderr) must never see half a message */
	FILE *m = open_memstream(&line, &len);
	if (m) {
		fprintf(m, "reaim: %s", tag);
		fput_text(m, msg ? msg : fmt, 0);
		fputc('\n', m);
	}
	if (m && fclose(m) == 0)
		fwrite(line, 1, len, stderr);
	else
		fprintf(stderr, "reaim: %s%s\n", tag, fmt); /* out of memory: the bare format still says what */
	free(line);
	free(msg);
}

void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || errlen == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

#define LOG_FN(name, min, tag)                 \
	void name(const char *fmt, ...)        \
	{                                      \
		va_list ap;                    \
		va_start(ap, fmt);             \
		emit(min, tag, fmt, ap);       \
		va_end(ap);                    \
	}

LOG_FN(log_error, 0, "error: ")
LOG_FN(log_warn, 1, "warning: ")
LOG_FN(log_info, 1, "")
LOG_FN(log_debug, 2, "")
