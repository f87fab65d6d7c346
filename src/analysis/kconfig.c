/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Compares two kernel configs option by option, for compare and the report to say what differs. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/kconfig.h"
#include "util/util.h"

struct option {
	const char *name, *value; /* into the text; not NUL-ended: their lengths below */
	size_t nlen, vlen;
};

static int by_name(const void *x, const void *y)
{
	const struct option *a = x, *b = y;
	size_t n = a->nlen < b->nlen ? a->nlen : b->nlen;
	int c = memcmp(a->name, b->name, n);
	return c ? c : (a->nlen > b->nlen) - (a->nlen < b->nlen);
}

/* The options a config sets or says are not set (value "n"), sorted by name. */
static struct option *parse(const char *text, size_t *n)
{
	struct option *v = NULL;
	size_t count = 0, cap = 0;
	for (const char *line = text; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		struct option o = {0};
		const char *eq = memchr(line, '=', len);
		static const char unset_tail[] = " is not set";
		if (strncmp(line, "CONFIG_", 7) == 0 && eq) {
			o = (struct option){line, eq + 1, (size_t)(eq - line), len - (size_t)(eq - line) - 1};
		} else if (strncmp(line, "# CONFIG_", 9) == 0 && len > 2 + sizeof(unset_tail) - 1 &&
			   memcmp(line + len - (sizeof(unset_tail) - 1), unset_tail, sizeof(unset_tail) - 1) == 0) {
			o = (struct option){line + 2, "n", len - 2 - (sizeof(unset_tail) - 1), 1};
		}
		if (o.name) {
			if (count == cap)
				v = xrealloc(v, (cap = cap ? 2 * cap : 256) * sizeof(*v));
			v[count++] = o;
		}
		line = eol ? eol + 1 : NULL;
	}
	if (count)
		qsort(v, count, sizeof(*v), by_name);
	*n = count;
	return v;
}

static char *value_of(const struct option *o)
{
	return o ? xasprintf("%.*s", (int)o->vlen, o->value) : xstrdup("n");
}

size_t kconfig_diff(const char *a, const char *b, struct kconfig_change **out)
{
	size_t na, nb, i = 0, j = 0, n = 0;
	struct option *oa = parse(a, &na), *ob = parse(b, &nb);
	struct kconfig_change *c = NULL;
	while (i < na || j < nb) {
		int cmp = i == na ? 1 : j == nb ? -1 : by_name(&oa[i], &ob[j]);
		const struct option *x = cmp <= 0 ? &oa[i] : NULL, *y = cmp >= 0 ? &ob[j] : NULL;
		const struct option *named = x ? x : y;
		/* "not set" and absent both leave the option off */
		const char *xv = x ? x->value : "n", *yv = y ? y->value : "n";
		size_t xl = x ? x->vlen : 1, yl = y ? y->vlen : 1;
		if (xl != yl || memcmp(xv, yv, xl) != 0) {
			c = xrealloc(c, (n + 1) * sizeof(*c));
			c[n++] = (struct kconfig_change){xasprintf("%.*s", (int)named->nlen, named->name), value_of(x),
							 value_of(y)};
		}
		i += x != NULL;
		j += y != NULL;
	}
	free(oa);
	free(ob);
	*out = c;
	return n;
}

void kconfig_changes_free(struct kconfig_change *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].name);
		free(c[i].a);
		free(c[i].b);
	}
	free(c);
}
