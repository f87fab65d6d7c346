/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the output escaper byte by byte: JSON, CSV and XML of control characters, quotes,
 * invalid UTF-8 and numbers that are not finite. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/textout.h"
#include "tap.h"

enum kind { JSON, CSV, CSV_QUOTED, XML, XML_CUT3 };

/* What the writer of `kind` makes of s. */
static char *render(enum kind kind, const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	switch (kind) {
	case JSON: textout_json_string(f, s); break;
	case CSV: textout_csv_string(f, s, 0); break;
	case CSV_QUOTED: textout_csv_string(f, s, 1); break;
	case XML: textout_xml(f, s, SIZE_MAX, 0); break;
	case XML_CUT3: textout_xml(f, s, 3, 0); break;
	}
	fclose(f);
	return buf;
}

static void expect(enum kind kind, const char *in, const char *want, const char *what)
{
	char *got = render(kind, in);
	is_str(got, want, what);
	free(got);
}

static char *number(int json, const char *fmt, double v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (json)
		textout_json_number(f, fmt, v);
	else
		textout_csv_number(f, fmt, v);
	fclose(f);
	return buf;
}

static void expect_number(int json, const char *fmt, double v, const char *want, const char *what)
{
	char *got = number(json, fmt, v);
	is_str(got, want, what);
	free(got);
}

#define FFFD "\xef\xbf\xbd"

static void utf8(void)
{
	is_int(textout_utf8_len("a"), 1, "ASCII is one byte");
	is_int(textout_utf8_len("\xc3\xa9"), 2, "U+00E9 is two bytes");
	is_int(textout_utf8_len("\xe2\x82\xac"), 3, "U+20AC is three");
	is_int(textout_utf8_len("\xf0\x9f\x98\x80"), 4, "U+1F600 is four");
	is_int(textout_utf8_len("\xc0\xaf"), 0, "overlong '/' refused");
	is_int(textout_utf8_len("\xe0\x80\xaf"), 0, "three-byte overlong refused");
	is_int(textout_utf8_len("\xed\xa0\x80"), 0, "surrogate U+D800 refused");
	is_int(textout_utf8_len("\xf4\x90\x80\x80"), 0, "past U+10FFFF refused");
	is_int(textout_utf8_len("\xf5\x80\x80\x80"), 0, "lead byte F5 refused");
	is_int(textout_utf8_len("\x80"), 0, "stray continuation byte refused");
	is_int(textout_utf8_len("\xe2\x82"), 0, "sequence cut by the end of the string refused");
	is_int(textout_chars("a\xc3\xa9\xff" "b"), 4, "characters: an invalid byte counts as one");
}

static void json(void)
{
	expect(JSON, "plain", "\"plain\"", "JSON: plain text quoted");
	expect(JSON, "say \"hi\" \\ there", "\"say \\\"hi\\\" \\\\ there\"", "JSON: quote and backslash escaped");
	expect(JSON, "a\nb\tc\rd\be\ff", "\"a\\nb\\tc\\rd\\be\\ff\"", "JSON: short escapes");
	expect(JSON, "\x01\x1f\x7f", "\"\\u0001\\u001f\x7f\"", "JSON: other controls as \\u00XX, DEL as is");
	expect(JSON, "caf\xc3\xa9 \xe2\x82\xac", "\"caf\xc3\xa9 \xe2\x82\xac\"", "JSON: valid UTF-8 kept");
	expect(JSON, "a\xff" "b\xc3", "\"a" FFFD "b" FFFD "\"", "JSON: each invalid byte becomes U+FFFD");
	expect(JSON, "\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"", "JSON: a surrogate's bytes become U+FFFD each");
	expect(JSON, "", "\"\"", "JSON: empty string");
	expect_number(1, "%.17g", NAN, "null", "JSON: NaN is null");
	expect_number(1, "%.17g", INFINITY, "null", "JSON: infinity is null");
	expect_number(1, "%.17g", -INFINITY, "null", "JSON: minus infinity is null");
	expect_number(1, "%.17g", 0.1, "0.10000000000000001", "JSON: a finite number as its format says");
	expect_number(1, "%.4f", -2.5, "-2.5000", "JSON: a fixed format");
}

static void csv(void)
{
	expect(CSV, "plain", "plain", "CSV: plain text bare");
	expect(CSV_QUOTED, "plain", "\"plain\"", "CSV: quoted when asked");
	expect(CSV, "a,b", "\"a,b\"", "CSV: a comma makes a quoted field");
	expect(CSV, "say \"hi\"", "\"say \"\"hi\"\"\"", "CSV: quotes doubled inside quotes");
	expect(CSV, "two\nlines\r", "\"two\nlines\r\"", "CSV: line breaks kept inside quotes");
	expect(CSV, "tab\there", "\"tab\there\"", "CSV: a control character makes a quoted field");
	expect(CSV, "bad\xfe", "bad" FFFD, "CSV: an invalid byte becomes U+FFFD");
	expect(CSV_QUOTED, "", "\"\"", "CSV: an empty quoted field");
	expect_number(0, "%.2f", NAN, "", "CSV: NaN is an empty field");
	expect_number(0, "%.2f", -INFINITY, "", "CSV: infinity is an empty field");
	expect_number(0, "%.2f", 3.14159, "3.14", "CSV: a finite number as its format says");
}

static void xml(void)
{
	expect(XML, "<a & 'b' \"c\">", "&lt;a &amp; &#39;b&#39; &quot;c&quot;&gt;", "XML: the five entities");
	expect(XML, "a\x01\tb\x7f", "a  b ", "XML: control characters become spaces");
	expect(XML, "x\xc0y", "x" FFFD "y", "XML: an invalid byte becomes U+FFFD");
	expect(XML, "\xef\xbf\xbe", FFFD, "XML: U+FFFE, not an XML character, becomes U+FFFD");
	expect(XML, "\xef\xbf" "z", FFFD FFFD "z", "XML: a cut sequence's bytes become U+FFFD each");
	expect(XML, "\xe2\x82\xac", "\xe2\x82\xac", "XML: valid UTF-8 kept");
	expect(XML_CUT3, "ab\xc3\xa9" "cd", "ab\xc3\xa9&#8230;", "XML: cut after 3 characters, not bytes");
	expect(XML_CUT3, "abc", "abc", "XML: no ellipsis when it fits");
}

int main(void)
{
	tap_case(utf8);
	tap_case(json);
	tap_case(csv);
	tap_case(xml);
	return done_testing();
}
