/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The walk of a point's add-ons: their befores in order, the engine's moments to each, their afters
 * in reverse and their stores in order. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "run/addon.h"
#include "run/runner.h"
#include "util/util.h"

/* An engine moment: first each add-on's early part, the last begun first, so an add-on hears it ahead
 * of those it was begun after (a load marks its window at the tasks' own moment; counters close
 * before the cgroup they count is removed); then each one's during, in order. */
static void moment(void *arg, enum engine_event ev)
{
	struct addon_walk *w = arg;
	for (size_t i = w->begun; i-- > 0;)
		if (w->table[i]->early)
			w->table[i]->early(w->point, w->state[i], ev);
	for (size_t i = 0; i < w->begun; i++)
		if (w->table[i]->during)
			w->table[i]->during(w->point, w->state[i], ev);
}

void addon_walk_init(struct addon_walk *w, const struct point_addon *const *table, size_t n, struct addon_point *p)
{
	*w = (struct addon_walk){.table = table, .n = n, .point = p, .hook = {.fn = moment, .arg = w}};
	w->state = xcalloc(n + 1, sizeof(*w->state));
	for (size_t i = 0; i < n; i++)
		w->state[i] = table[i]->state_size ? xcalloc(1, table[i]->state_size) : NULL;
}

int addon_walk_before(struct addon_walk *w, char *err, size_t errlen)
{
	w->point->pt->hook = &w->hook;
	w->point->ran = 0;
	for (; w->begun < w->n; w->begun++) {
		const struct point_addon *a = w->table[w->begun];
		if (a->before && a->before(w->point, w->state[w->begun], err, errlen) < 0)
			return -1;
	}
	w->point->ran = 1;
	return 0;
}

void addon_walk_after(struct addon_walk *w)
{
	for (size_t i = w->begun; i-- > 0;)
		if (w->table[i]->after)
			w->table[i]->after(w->point, w->state[i]);
}

void addon_walk_store(struct addon_walk *w)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->table[i]->store)
			w->table[i]->store(w->point, w->state[i]);
}

void addon_walk_free(struct addon_walk *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->state[i]);
	free(w->state);
	w->state = NULL;
}

void addon_run_failed(struct addon_point *p, const char *what, const char *why)
{
	struct runner *rn = p->rn;
	rn->failed = 1;
	if (!rn->first_failure[0])
		set_err(rn->first_failure, sizeof(rn->first_failure), "%s%s", what, why);
}
