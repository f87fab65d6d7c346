/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text that other programs parse: every string and number the JSON, CSV and SVG writers emit
 * goes through these, so any stored value (NaN, control characters, invalid UTF-8) stays valid. */
#ifndef REAIM_REPORT_TEXTOUT_H
#define REAIM_REPORT_TEXTOUT_H

#include <stddef.h>
#include <stdio.h>

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 when the bytes there are not one
 * (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short). */
size_t textout_utf8_len(const char *s);
/* Characters s shows as once written: each invalid byte counts as one (it becomes U+FFFD). */
size_t textout_chars(const char *s);

/* A JSON string, quoted: '"' and '\\' escaped, control characters as \n, \t or \u00XX, each
 * invalid byte as U+FFFD. */
void textout_json_string(FILE *f, const char *s);
/* A JSON number printed with fmt (one double), or null when v is NaN or infinite. */
void textout_json_number(FILE *f, const char *fmt, double v);

/* A CSV field (RFC 4180): quoted, with quotes doubled, when `quote` asks for it or it holds a
 * comma, a quote or any control character (line breaks included); each invalid byte as U+FFFD. */
void textout_csv_string(FILE *f, const char *s, int quote);
/* A CSV number printed with fmt, or an empty field when v is NaN or infinite. */
void textout_csv_number(FILE *f, const char *fmt, double v);

/* A figure for a human reader: v printed by fmt and what follows it (v among them) into buf, or
 * "-" when v is NaN or infinite (a merged or planted row), never "inf"; buf. */
const char *textout_fig(char *buf, size_t len, double v, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* XML or HTML text or attribute value: & < > " ' as entities; control characters (which XML 1.0
 * cannot carry, even escaped) as spaces, but newlines and tabs kept with keep_lines (for <pre>);
 * invalid bytes and U+FFFE/U+FFFF as U+FFFD. Cut after max characters with an ellipsis (SIZE_MAX:
 * never). */
void textout_xml(FILE *f, const char *s, size_t max, int keep_lines);

#endif
