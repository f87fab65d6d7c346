/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A point's add-ons behind one shape: what runs beside a point (its cgroup and figures, the kernel's
 * counters, --point-hook, --load, others' demand, the view's progress) registers what it does before
 * the point's tasks, at the engine's moments, after them and into the stored row; the walker calls
 * each over a table, in the table's order. */
#ifndef REAIM_RUN_ADDON_H
#define REAIM_RUN_ADDON_H

#include <stddef.h>
#include <stdint.h>

#include "config/cfg.h"
#include "engine/engine.h"
#include "store/store.h"

struct bgload;
struct runner;

/* Which point to run: its workload and block, its task count, round and arm. */
struct point_at {
	const struct workload *wl;
	int64_t wl_id;                 /* the workload's stored row */
	const struct block_plan *blk;
	const struct engine_scratch *scratch;
	const struct schedule_point *point; /* its task count and facts, from the plan's schedule */
	int repeat;                    /* the round, from 0 */
	int rounds;                    /* the most rounds of its task count, shown with each point */
	const char *variant;           /* "" without variants */
	const char *load;              /* the background load, NULL or no_load without --load */
	int osync;
};

/* The point the add-ons work beside: what they read, and what they fill as it goes. */
struct addon_point {
	struct runner *rn;
	const struct point_at *at;
	struct engine_point *pt;              /* before: the engine's point (its sampler set) */
	const char *const *devices;           /* the disks the sampler watches */
	size_t ndevices;
	struct bgload *load;                  /* the point's background load once begun, NULL: none */
	int ran;                              /* its tasks ran (every before succeeded) */
	struct engine_result *res;            /* after and store: the point's outcome */
	struct store_point *out;              /* store: its row, the runner's figures already in */
	struct store_point_rows *rows;        /* store: the rows kept with it */
};

/* What an add-on does beside a point; any may be NULL. state is the add-on's own for this point,
 * state_size bytes zeroed before its before (NULL when 0). */
struct point_addon {
	const char *name;             /* what it is, for a reader and a debugger */
	size_t state_size;
	/* before the tasks, in table order: 0, or -1 with why, and the point is not run (the add-ons
	 * begun before it are ended by the walk's after, as after a point; it cleans up its own) */
	int (*before)(struct addon_point *p, void *state, char *err, size_t errlen);
	/* at each of the engine's moments, in reverse table order, before any hears it in during:
	 * what must happen ahead of the add-ons before it in the table */
	void (*early)(struct addon_point *p, void *state, enum engine_event ev);
	/* at each of the engine's moments, in table order */
	void (*during)(struct addon_point *p, void *state, enum engine_event ev);
	/* after the tasks, the begun ones, in reverse table order: may make the point invalid */
	void (*after)(struct addon_point *p, void *state);
	/* into the stored row and its rows, every add-on, in table order (p->ran says if the tasks ran) */
	void (*store)(struct addon_point *p, void *state);
};

/* One point's walk over a table of add-ons. */
struct addon_walk {
	const struct point_addon *const *table;
	size_t n;
	size_t begun;                 /* how many befores succeeded */
	void **state;
	struct addon_point *point;
	struct engine_hook hook;      /* the engine's moments, to every add-on */
};

/* Ready a walk of table[0..n) beside p. */
void addon_walk_init(struct addon_walk *w, const struct point_addon *const *table, size_t n, struct addon_point *p);
/* Every add-on's before, in order, with the engine point's hook set to the walk's; 0, or -1 with why
 * (the first that failed, the ones begun before it ended) and p->ran 0. */
int addon_walk_before(struct addon_walk *w, char *err, size_t errlen);
/* The begun add-ons' after, in reverse order (p->res set). */
void addon_walk_after(struct addon_walk *w);
/* Every add-on's store, in order (p->out and p->rows set). */
void addon_walk_store(struct addon_walk *w);
/* Free the walk's states. */
void addon_walk_free(struct addon_walk *w);

/* The run fails (its first failure is what + why, if none is yet), and goes on. */
void addon_run_failed(struct addon_point *p, const char *what, const char *why);

/* The add-ons of a measured point, each in its module (the view's in point_addons.c). */
extern const struct point_addon confine_addon, accounting_addon, counters_addon, point_hook_addon, load_addon,
	others_addon;
/* Them in their order (point_addons.c). */
extern const struct point_addon *const point_addons[];
extern const size_t point_addons_count;
/* A point run and not stored, a warm-up: its CPUs and its cgroup alone (point_addons.c). */
extern const struct point_addon *const bare_point_addons[];
extern const size_t bare_point_addons_count;

#endif
