/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Escaping for the machine-read outputs (JSON, CSV, SVG), and the word wrap of the text ones.
 *
 * Our own small escaper rather than SQLite's json_quote() or a library: json_quote() copies
 * invalid UTF-8 through and has no CSV or XML counterpart, many values written (compare's
 * changes, curve summaries) never pass through SQL, and the rules fit in a page that the unit
 * tests cover byte by byte. Invalid bytes become U+FFFD, so one odd byte in a label cannot
 * make a whole file unreadable. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */

size_t textout_utf8_len(const char *s)
{
	return utf8_seq_len((const unsigned char *)s); /* one decoder for every writer */
}

size_t textout_chars(const char *s)
{
	size_t n = 0;
	while (*s) {
		size_t len = textout_utf8_len(s);
		s += len ? len : 1;
		n++;
	}
	return n;
}

void textout_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t len = textout_utf8_len(s);
		if (len == 0) {
			fputs(replacement, f);
			s++;
			continue;
		}
		if (len > 1) {
			fwrite(s, 1, len, f);
			s += len;
			continue;
		}
		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (c < 0x20)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
		s++;
	}
	fputc('"', f);
}

void textout_json_number(FILE *f, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("null", f);
}

static int csv_needs_quotes(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p == ',' || *p == '"' || *p < 0x20 || *p == 0x7f)
			return 1;
	return 0;
}

void textout_csv_string(FILE *f, const char *s, int quote)
{
	int quoted = quote || csv_needs_quotes(s);
	if (quoted)
		fputc('"', f);
	while (*s) {
		size_t len = textout_utf8_len(s);
		if (len == 0) {
			fputs(replacement, f);
			s++;
			continue;
		}
		if (*s == '"')
			fputc('"', f);
		fwrite(s, 1, len, f);
		s += len;
	}
	if (quoted)
		fputc('"', f);
}

void textout_csv_number(FILE *f, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
}

void textout_xml(FILE *f, const char *s, size_t max, int keep_lines)
{
	for (size_t chars = 0; *s; chars++) {
		const unsigned char *p = (const unsigned char *)s;
		size_t len = textout_utf8_len(s);
		if (chars == max) {
			fputs("&#8230;", f);
			return;
		}
		if (len == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe) { /* U+FFFE, U+FFFF: not XML */
			fputs(replacement, f);
			s += 3;
			continue;
		}
		if (len != 1) {
			if (len)
				fwrite(s, 1, len, f);
			else
				fputs(replacement, f);
			s += len ? len : 1;
			continue;
		}
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break; /* HTML 4 has no &apos; */
		case '\n':
		case '\t': fputc(keep_lines ? *p : ' ', f); break;
		default: fputc(*p < 0x20 || *p == 0x7f ? ' ' : *p, f);
		}
		s++;
	}
}

void report_wrap(FILE *f, const char *text, const char *indent, size_t width)
{
	text_wrap(f, text, indent, width, 0);
	fputc('\n', f);
}

const char *textout_fig(char *buf, size_t len, double v, const char *fmt, ...)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return buf;
}
