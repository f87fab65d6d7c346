/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run from a resolved plan to stored points: the checks before the first fork, the store, then
 * per workload the points in mode order, shown through a run view. */
#ifndef REAIM_RUN_RUN_H
#define REAIM_RUN_RUN_H

#include <stdint.h>

#include "config/cfg.h"
#include "run/view.h"

/* What a run command hands over with the plan: the database (--db, NULL for the default), -v,
 * the quiet check before the first point, the command line stored with the run, the uuid of the
 * run it repeats (NULL for a new run), and the view that shows it. */
struct run_request {
	const char *db;
	int verbose;
	int no_quiet_check, require_quiet;
	const char *command_line;
	const char *rerun_of;
	const struct run_view *view;
};

/* How a run ended; the command turns it into an exit code. */
enum run_status {
	RUN_OK,           /* every point valid and stored */
	RUN_REFUSED,      /* the plan cannot run here (preflight): nothing forked or stored */
	RUN_FAILED,       /* a point failed or is not trustworthy, or the database could not be used */
	RUN_INTERRUPTED,  /* a stop signal */
};

/* Whether this process has begun a run in a database (so it is stored, whatever came of it). */
int run_stored_one(void);
/* Check the plan's schedule can run here, then run, store and show it. *run_id: the run stored (0: none). */
enum run_status run_plan(const struct schedule *s, const struct run_request *rq, int64_t *run_id);

/* Refuse a schedule that cannot run here, before anything is forked or stored (preflight.c). */
int preflight(const struct schedule *s);

#endif
