/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Diagnostics on stderr, prefixed with the program name; stdout stays for tables. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

static int level = 1;

/* Messages held while a table is being printed to the place stderr also goes (log_hold). */
static struct {
	FILE *f;
	char *buf;
	size_t len;
	pid_t pid; /* a forked task says its own messages at once */
	int exit_hook;
} held;

void log_set_level(int l) { level = l; }
int log_level(void) { return level; }

/* The width a wrapped message keeps to: the first screen of a run is read on a terminal. */
#define LOG_WRAP_WIDTH 100

/* A message may quote user text (a label, a path, a line of a file): it is escaped, so no
 * byte of it can drive the terminal. */
static void emit(int min, int now, int wrap, const char *tag, const char *fmt, va_list ap)
{
	if (level < min)
		return;
	char *msg = NULL, *line = NULL;
	size_t len = 0;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	/* the whole line in one write: stderr is unbuffered, and a reader (a test, a log collector,
	 * the tasks writing to the same stderr) must never see half a message */
	char *plain = NULL;
	size_t plain_len = 0;
	FILE *m = open_memstream(wrap ? &plain : &line, wrap ? &plain_len : &len);
	if (m) {
		fprintf(m, "reaim: %s", tag);
		fput_text(m, msg ? msg : fmt, 0);
	}
	if (m && wrap) { /* the escaped text as a whole, then broken into lines */
		m = fclose(m) == 0 ? open_memstream(&line, &len) : NULL;
		if (m)
			text_wrap(m, plain, "  ", LOG_WRAP_WIDTH, LOG_WRAP_WIDTH / 2);
	}
	free(plain);
	if (m)
		fputc('\n', m);
	if (m && fclose(m) == 0)
		fwrite(line, 1, len, held.f && !now && getpid() == held.pid ? held.f : stderr);
	else
		fprintf(stderr, "reaim: %s%s\n", tag, fmt); /* out of memory: the bare format still says what */
	free(line);
	free(msg);
}

#define LOG_FN(name, min, now, wrap, tag)             \
	void name(const char *fmt, ...)               \
	{                                             \
		va_list ap;                           \
		va_start(ap, fmt);                    \
		emit(min, now, wrap, tag, fmt, ap);   \
		va_end(ap);                           \
	}

LOG_FN(log_error, 0, 0, 0, "error: ")
LOG_FN(log_warn, 1, 0, 0, "warning: ")
LOG_FN(log_warn_now, 1, 1, 0, "warning: ")
LOG_FN(log_warn_wrapped, 1, 0, 1, "warning: ")
LOG_FN(log_info, 1, 0, 0, "")
LOG_FN(log_info_wrapped, 1, 0, 1, "")
LOG_FN(log_debug, 2, 0, 0, "")

/* stdout and stderr reach the same terminal, pipe or file: a message would land between rows. */
static int stdio_shared(void)
{
	struct stat a, b;
	if (fstat(1, &a) < 0 || fstat(2, &b) < 0)
		return 0;
	if (S_ISCHR(a.st_mode) && S_ISCHR(b.st_mode))
		return a.st_rdev == b.st_rdev;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void release_at_exit(void)
{
	log_release();
}

void log_hold(void)
{
	if (held.f || !stdio_shared())
		return;
	held.f = open_memstream(&held.buf, &held.len);
	held.pid = getpid();
	if (held.f && !held.exit_hook)
		held.exit_hook = atexit(release_at_exit) == 0;
}

void log_release(void)
{
	if (!held.f || getpid() != held.pid)
		return;
	int ok = fclose(held.f) == 0;
	held.f = NULL;
	fflush(stdout); /* the table first, then what was said while it was printed */
	if (ok && held.len)
		fwrite(held.buf, 1, held.len, stderr);
	free(held.buf);
	held.buf = NULL;
	held.len = 0;
}

/* A broken invariant (BUG, BUG_ON): what was held is said first, then the bug in one write that
 * needs no allocation, and the program aborts (a core for the post-mortem where one is kept). */
_Noreturn void bug_at(const char *file, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	log_release();
	fflush(stdout);
	int n = snprintf(msg, sizeof(msg), "reaim: BUG at %s:%d: ", file, line);
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	int m = vsnprintf(msg + n, sizeof(msg) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	size_t len = m < 0 ? (size_t)n : strnlen(msg, sizeof(msg) - 1);
	msg[len++] = '\n';
	ssize_t w = write(STDERR_FILENO, msg, len); /* on a failure there is nowhere left to say it */
	(void)w;
	abort();
}
