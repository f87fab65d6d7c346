/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allocation wrappers: out of memory is not a condition reaim can report around. */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void *check(void *p)
{
	if (!p) {
		fputs("reaim: error: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n) { return check(malloc(n ? n : 1)); }
void *xcalloc(size_t n, size_t size) { return check(calloc(n ? n : 1, size ? size : 1)); }
void *xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1)); }
char *xstrdup(const char *s) { return check(strdup(s)); }

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s = NULL;
	return check(vasprintf(&s, fmt, ap) < 0 ? NULL : s);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		sb->cap = (sb->len + n + 1) * 2;
		sb->buf = xrealloc(sb->buf, sb->cap);
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	int r = vasprintf(&s, fmt, ap);
	va_end(ap);
	check(r < 0 ? NULL : s);
	strbuf_add(sb, s, (size_t)r);
	free(s);
}

void strbuf_add_shell_word(struct strbuf *sb, const char *word)
{
	int plain = *word != '\0';
	for (const char *s = word; *s; s++)
		plain &= isalnum((unsigned char)*s) || strchr("._,:/=+@%-", *s) != NULL;
	if (plain) {
		strbuf_add(sb, word, strlen(word));
		return;
	}
	strbuf_add(sb, "'", 1);
	for (const char *s = word; *s; s++) {
		if (*s == '\'')
			strbuf_add(sb, "'\\''", 4);
		else
			strbuf_add(sb, s, 1);
	}
	strbuf_add(sb, "'", 1);
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}
