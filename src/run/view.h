/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How a run shows itself while it goes: the callbacks through which the live table, the progress
 * line or classic's re-aim-7 rows are printed. The run itself prints nothing to stdout. */
#ifndef REAIM_RUN_VIEW_H
#define REAIM_RUN_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "config/cfg.h"
#include "store/store.h"

/* Every callback may be NULL. Points are shown only once they are stored, so a view never shows a
 * point the database lacks. */
struct run_view {
	void *arg;
	/* the run is stored as run_id and about planned points will be measured */
	void (*run_begin)(void *arg, int64_t run_id, size_t planned);
	void (*block_begin)(void *arg, const struct block_plan *b);
	/* a point starts: its place in the run (index from 1) and its round of rounds */
	void (*point_begin)(void *arg, const struct block_plan *b, int tasks, size_t index, int round, int rounds);
	/* the point's tasks are done; it is about to be stored */
	void (*point_end)(void *arg);
	void (*point_stored)(void *arg, const struct block_plan *b, const struct store_point *p);
	/* the block's points in the order they ran; finished is 0 when the run stopped inside it */
	void (*block_end)(void *arg, const struct block_plan *b, const struct store_point *pts, size_t n, int finished);
	/* single-user mode: a heading per workfile, then a row per test from the point that measured it */
	void (*single_begin)(void *arg, const char *workfile, int osync, long long file_kib);
	void (*single_row)(void *arg, const struct store_point *p);
	void (*run_end)(void *arg);
};

#endif
