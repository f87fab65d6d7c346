/* Diagnostics on stderr, prefixed with the program name; stdout stays for tables. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/util.h"

static int level = 1;

void log_set_level(int l) { level = l; }
int log_level(void) { return level; }

static void emit(int min, const char *tag, const char *fmt, va_list ap)
{
	if (level < min)
		return;
	fprintf(stderr, "reaim: %s", tag);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
