/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Number, size, time and word parsing shared by the command line, the config files and the
 * readers of kernel files. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int parse_long(const char *s, long long min, long long max, long long *out)
{
	char *end;
	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_kib(const char *s, long long *kib)
{
	char *end;
	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno)
		return -1;
	long long mult = 1;
	switch (tolower((unsigned char)*end)) {
	case '\0': break;
	case 'k': mult = 1; end++; break;
	case 'm': mult = 1024; end++; break;
	case 'g': mult = 1024 * 1024; end++; break;
	default: return -1;
	}
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end || v > (1LL << 40) / mult)
		return -1;
	*kib = v * mult;
	return 0;
}

/* strtod also takes "inf", "nan" and hex floats; a number here is plain decimal text:
 * [+-]digits[.digits][e[+-]digits]. Returns the length of that prefix, 0 if there is none. */
static size_t decimal_prefix(const char *s)
{
	size_t i = 0, digits = 0;
	if (s[i] == '+' || s[i] == '-')
		i++;
	for (; isdigit((unsigned char)s[i]); i++)
		digits++;
	if (s[i] == '.')
		for (i++; isdigit((unsigned char)s[i]); i++)
			digits++;
	if (!digits)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t e = i + 1;
		if (s[e] == '+' || s[e] == '-')
			e++;
		if (isdigit((unsigned char)s[e])) {
			while (isdigit((unsigned char)s[e]))
				e++;
			i = e;
		}
	}
	return i;
}

/* A finite decimal number at the start of s; *end is set after it. */
static int decimal_double(const char *s, double *out, const char **end)
{
	if (!s)
		return -1;
	size_t n = decimal_prefix(s);
	if (n == 0)
		return -1;
	char *stop;
	errno = 0;
	double v = strtod(s, &stop);
	if (errno == ERANGE || stop != s + n || !isfinite(v))
		return -1;
	*out = v;
	*end = s + n;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	const char *end;
	double v;
	if (decimal_double(s, &v, &end) < 0 || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_seconds(const char *s, double *out)
{
	const char *end;
	double v;
	if (decimal_double(s, &v, &end) < 0 || v < 0)
		return -1;
	if (end[0] == 'm' && end[1] == 's')
		v /= 1000, end += 2;
	else if (*end == 's')
		end++;
	else if (*end == 'm')
		v *= 60, end++;
	else if (*end == 'h')
		v *= 3600, end++;
	else if (*end == 'd')
		v *= 86400, end++;
	if (*end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xcalloc(lb + 1, sizeof(*row));
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t sub = diag + (a[i - 1] != b[j - 1]);
			size_t best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
			row[j] = sub < best ? sub : best;
			diag = up;
		}
	}
	size_t d = row[lb];
	free(row);
	return d;
}

long closest_name(const char *word, const char *const *names, size_t n)
{
	size_t len = strlen(word), limit = len / 3 > 2 ? len / 3 : 2, best_d = SIZE_MAX;
	long best = -1, prefixed = -1;
	int prefixes = 0;
	for (size_t i = 0; i < n; i++) {
		if (len && strncmp(names[i], word, len) == 0) {
			prefixes++;
			prefixed = (long)i;
		}
		size_t d = edit_distance(word, names[i]);
		if (d < best_d) {
			best_d = d;
			best = (long)i;
		}
	}
	if (prefixes == 1)
		return prefixed;
	return best_d <= limit && best_d < len ? best : -1;
}

char *next_word(char **p)
{
	char *s = *p;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return NULL;
	char *w = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

/* Hand-written rather than strtoull so the sampling thread stays clear of locale state. */
int next_u64(const char **pp, unsigned long long *v)
{
	const char *p = *pp;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return -1;
	unsigned long long x = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (x > (ULLONG_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*pp = p;
	*v = x;
	return 0;
}
