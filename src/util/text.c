/* SPDX-License-Identifier: GPL-2.0-or-later */
/* User text (labels, names, reasons) on its way in and out: UTF-8 validation, escaping so that
 * no byte of a stored label can move a terminal's cursor or change its state, and a reason into
 * a caller's error buffer. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

size_t utf8_seq_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		return (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (p[0] >= 0xe0 && p[0] <= 0xef) {
		if ((p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
			return 0;
		if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f)) /* overlong, surrogate */
			return 0;
		return 3;
	}
	if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		if ((p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80 || (p[3] & 0xc0) != 0x80)
			return 0;
		if ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f)) /* overlong, > U+10FFFF */
			return 0;
		return 4;
	}
	return 0;
}

/* C0 controls, DEL, and the C1 controls (U+0080..U+009F, which some terminals obey). */
static int is_control(const unsigned char *p, size_t len)
{
	return (len == 1 && (p[0] < 0x20 || p[0] == 0x7f)) || (len == 2 && p[0] == 0xc2 && p[1] < 0xa0);
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

int text_check(const char *s, char *err, size_t errlen)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t len = utf8_seq_len(p);
		if (len == 0) {
			set_err(err, errlen, "not valid UTF-8");
			return -1;
		}
		if (is_control(p, len)) {
			set_err(err, errlen, "contains a control character");
			return -1;
		}
		p += len;
	}
	return 0;
}

char *text_escape(const char *s)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t len = utf8_seq_len(p);
		if (len == 0) {
			strbuf_addf(&sb, "\\x%02x", *p++);
		} else if (is_control(p, len)) {
			unsigned code = len == 1 ? p[0] : p[1];
			if (code == '\n')
				strbuf_add(&sb, "\\n", 2);
			else if (code == '\t')
				strbuf_add(&sb, "\\t", 2);
			else if (code == '\r')
				strbuf_add(&sb, "\\r", 2);
			else
				strbuf_addf(&sb, len == 1 ? "\\x%02x" : "\\u%04x", code);
			p += len;
		} else {
			strbuf_add(&sb, (const char *)p, len);
			p += len;
		}
	}
	return sb.buf;
}

void fput_text(FILE *f, const char *s, int width)
{
	char *safe = text_escape(s);
	/* width counts characters, not bytes, so UTF-8 labels line up like ASCII ones */
	int chars = 0;
	for (const unsigned char *p = (const unsigned char *)safe; *p; p++)
		chars += (*p & 0xc0) != 0x80;
	fputs(safe, f);
	for (; chars < width; chars++)
		fputc(' ', f);
	free(safe);
}

void text_copy(char *dst, size_t len, const char *src)
{
	char *safe = text_escape(src);
	size_t n = strlen(safe);
	if (n >= len) {
		n = len - 1;
		while (n > 0 && ((unsigned char)safe[n] & 0xc0) == 0x80)
			n--; /* never cut a character in two */
	}
	memcpy(dst, safe, n);
	dst[n] = '\0';
	free(safe);
}

void text_wrap(FILE *f, const char *text, const char *indent, size_t width, size_t keep)
{
	size_t col = 0, ind = strlen(indent);
	for (const char *s = text + strspn(text, " "); *s; s += strspn(s, " ")) {
		size_t w = strcspn(s, " ");
		if (col > keep && width && col + 1 + w > width) {
			fprintf(f, "\n%s", indent);
			col = ind;
		} else if (col > 0) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, w, f);
		col += w;
		s += w;
	}
}
