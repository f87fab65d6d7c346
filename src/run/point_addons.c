/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The add-ons of a measured point in their order, and the view's: the point shown as it goes. */
#include "config.h"

#include "run/addon.h"
#include "run/runner.h"
#include "util/util.h"

/* The view shows the point from before its load starts (a cache load's cold run among it) until its
 * load has stopped. */
static int view_before(struct addon_point *p, void *state, char *err, size_t errlen)
{
	struct runner *rn = p->rn;
	const struct point_at *at = p->at;
	(void)state;
	(void)err;
	(void)errlen;
	struct block_plan shown = *at->blk; /* an interleaved block's point shows its own setting */
	shown.osync = at->osync;
	if (rn->view->point_begin)
		rn->view->point_begin(rn->view->arg, &shown, at->point->tasks, ++rn->point_index, at->repeat + 1,
				     at->rounds);
	return 0;
}

static void view_after(struct addon_point *p, void *state)
{
	(void)state;
	if (p->rn->view->point_end)
		p->rn->view->point_end(p->rn->view->arg);
}

static const struct point_addon view_addon = {.name = "view", .before = view_before, .after = view_after};

/* Their order: the block's CPUs, then the accounting's cgroup (the counters count in it), the
 * hook's dir and the view's start before the load's (so neither waits on it or on the cache load's
 * cold run), others' windows last before the tasks and first after them; each ends in reverse. */
const struct point_addon *const point_addons[] = {
	&confine_addon, &accounting_addon, &counters_addon, &point_hook_addon, &view_addon, &load_addon, &others_addon,
};
const size_t point_addons_count = ARRAY_SIZE(point_addons);

/* A point run and not stored (a warm-up): its CPUs, and its tasks in a point cgroup. */
const struct point_addon *const bare_point_addons[] = {&confine_addon, &accounting_addon};
const size_t bare_point_addons_count = ARRAY_SIZE(bare_point_addons);
