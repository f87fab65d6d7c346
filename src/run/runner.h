/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Driving the engine for one workload: a point at a time (stored as it completes), in sweep,
 * crossover, peak and single-user order, each shown through the run's view once stored. */
#ifndef REAIM_RUN_RUNNER_H
#define REAIM_RUN_RUNNER_H

#include <stddef.h>
#include <stdint.h>

#include "config/cfg.h"
#include "engine/engine.h"
#include "run/view.h"
#include "store/store.h"

struct accounting;
struct counters;

/* Everything a run carries from point to point. */
struct runner {
	struct store *st;
	const struct run_view *view;
	const char *db;           /* the database's path: point hooks keep their output beside it */
	struct accounting *acct;  /* the points' cgroups and outside load (accounting.h); NULL: none */
	struct counters *counters; /* the kernel's counters per point (run/counters.h); NULL: none */
	int64_t run_id;
	size_t point_index;
	int verbose;
	int failed, fatal;
	char first_failure[320];
	double last_real_s;
	int *cpus;                /* --cpus: the CPUs the current block's tasks are confined to (confine.c);
				   * NULL: all */
	size_t ncpus;
};

/* Nonzero when the run must stop: a fatal error or a stop signal. */
int runner_stop_now(const struct runner *rn);
/* Store a workload's row (its options and workfile text). */
int runner_store_workload(struct runner *rn, const struct workload *wl, int64_t *wl_id);
/* Every point of one block of the schedule (a workload, O_SYNC setting and CPU count), by its mode
 * (sweep, crossover, quick, peak). */
void runner_block(struct runner *rn, const struct schedule_block *sb, int64_t wl_id, const struct engine_scratch *scratch);
/* Single-user mode: each test of the block's workload alone. */
void runner_single(struct runner *rn, const struct schedule_block *sb, const struct engine_scratch *scratch);

#endif
