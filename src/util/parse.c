/* Number, size and time parsing shared by the command line and the config files. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
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

int parse_seconds(const char *s, double *out)
{
	char *end;
	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	if (*end == 's')
		end++;
	else if (*end == 'm')
		v *= 60, end++;
	else if (*end == 'h')
		v *= 3600, end++;
	if (*end)
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
