/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live table of a run: the report functions `reaim show` prints with, called as each point
 * is stored, so show prints what the run printed. */
#include "config.h"

#include <stdio.h>

#include "cmd/live_table.h"
#include "report/progress.h"
#include "util/util.h"

static void progress_begin(void *arg, int64_t run_id, size_t planned)
{
	(void)arg;
	(void)run_id;
	progress_start(log_level() > 0, planned);
}

static void progress_of_point(void *arg, const struct block_plan *b, int tasks, size_t index, int round, int rounds)
{
	(void)arg;
	progress_point(b->workload, b->osync, tasks, index, round, rounds);
}

static void progress_of_point_end(void *arg)
{
	(void)arg;
	progress_point_done();
}

static void progress_end(void *arg)
{
	(void)arg;
	progress_stop();
}

static void table_end(void *arg)
{
	progress_end(arg);
	log_release(); /* a single-user table ends with the run */
}

static void block_begin(void *arg, const struct block_plan *b)
{
	struct live_table *t = arg;
	t->rb = (struct report_block){.plan = *b, .verbose = t->verbose};
	report_block_begin(stdout, &t->rb);
	log_hold();
}

static void point_stored(void *arg, const struct block_plan *b, const struct store_point *p)
{
	struct live_table *t = arg;
	(void)b;
	report_block_row(stdout, &t->rb, p);
	fflush(stdout);
}

static void block_end(void *arg, const struct block_plan *b, const struct store_point *pts, size_t n, int finished)
{
	struct live_table *t = arg;
	(void)b;
	if (n == 0) { /* nothing of the block was stored: `show` has no block to end either */
		log_release();
		return;
	}
	report_block_end(stdout, &t->rb, pts, n, finished);
	log_release();
}

static void single_begin(void *arg, const char *workfile, int osync, long long file_kib)
{
	(void)arg;
	log_release();
	report_single_begin(stdout, workfile, osync, file_kib);
	log_hold();
}

static void single_row(void *arg, const struct store_point *p)
{
	(void)arg;
	report_single_row(stdout, p);
	fflush(stdout);
}

void live_table_progress(struct run_view *v)
{
	v->run_begin = progress_begin;
	v->point_begin = progress_of_point;
	v->point_end = progress_of_point_end;
	v->run_end = progress_end;
}

struct run_view live_table_view(struct live_table *t)
{
	struct run_view v = {.arg = t, .block_begin = block_begin, .point_stored = point_stored,
			     .block_end = block_end, .single_begin = single_begin, .single_row = single_row};
	live_table_progress(&v);
	v.run_end = table_end;
	return v;
}
