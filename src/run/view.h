/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How a run shows itself while it goes: the callbacks through which the live table, the progress
 * line or classic's re-aim-7 rows are printed. The run itself prints nothing to stdout. */
#ifndef REAIM_RUN_VIEW_H
#define REAIM_RUN_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* A block of points: one workload and O_SYNC setting, as the plan describes it. */
struct run_block {
	const char *workload;
	int osync;                /* -1: on and off interleaved (a sweep made with --osync both) */
	int mode;                 /* enum run_mode */
	int rounds;               /* repeats asked for */
	double threshold;         /* Jobs/Min per task that ends crossover and quick modes */
	int variants;             /* the points carry variants */
	double precision;         /* --precision asked (0: not) */
	int looks;                /* the looks its stopping rule takes (1 without --precision) */
};

/* Every callback may be NULL. Points are shown only once they are stored, so a view never shows a
 * point the database lacks. */
struct run_view {
	void *arg;
	/* the run is stored as run_id and about planned points will be measured */
	void (*run_begin)(void *arg, int64_t run_id, size_t planned);
	void (*block_begin)(void *arg, const struct run_block *b);
	/* a point starts: its place in the run (index from 1) and its round of rounds */
	void (*point_begin)(void *arg, const struct run_block *b, int tasks, size_t index, int round, int rounds);
	/* the point's tasks are done; it is about to be stored */
	void (*point_end)(void *arg);
	void (*point_stored)(void *arg, const struct run_block *b, const struct store_point *p);
	/* the block's points in the order they ran; finished is 0 when the run stopped inside it */
	void (*block_end)(void *arg, const struct run_block *b, const struct store_point *pts, size_t n, int finished);
	/* single-user mode: a heading per workfile, then a row per test from the point that measured it */
	void (*single_begin)(void *arg, const char *workfile, int osync, long long file_kib);
	void (*single_row)(void *arg, const struct store_point *p);
	void (*run_end)(void *arg);
};

#endif
