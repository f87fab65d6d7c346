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
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	fprintf(stderr, "reaim: %s", tag);
	fput_text(stderr, msg ? msg : fmt, 0);
	fputc('\n', stderr);
	free(msg);
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
