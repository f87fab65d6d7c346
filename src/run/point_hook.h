/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --point-hook: a command that runs over exactly one point, from just after its release to its last
 * task's finish (perf record -a, trace-cmd, bpftrace), in an output directory kept beside the run. */
#ifndef REAIM_RUN_POINT_HOOK_H
#define REAIM_RUN_POINT_HOOK_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "engine/engine.h"
#include "store/figures.h"

struct accounting;

/* How long the hook has, after SIGINT, to end by itself before its process group is killed. */
#define POINT_HOOK_STOP_S 10.0

struct point_hook {
	struct engine_hook hook;        /* what the engine calls: the accounting's hook, then ours */
	const struct engine_hook *next; /* the accounting's, or NULL */
	const struct accounting *acct;  /* for the point's cgroup; NULL: none */
	const char *command;
	int tasks;
	char dir[STORE_TEXT_LEN];       /* its working directory (stored with the point, so no longer); its
					 * output goes to dir/hook.out */
	struct timespec release;        /* CLOCK_REALTIME just before the tasks were released */
	pid_t pid;                      /* 0: not started (or already stopped) */
	uint64_t started_ns;
	double stop_s;                  /* how long stopping it took (SIGINT to its end) */
	char end[STORE_TEXT_LEN];       /* how it ended, once stopped ("" before) */
};

/* Whether the workload's points at this task count run its hook. */
int point_hook_wanted(const struct run_opts *o, int tasks);
/* Whose hook output a directory holds: the run (by its database's path and id) and the point. */
struct point_hook_place {
	const char *db;
	int64_t run_id;
	const char *workload;
	int osync, tasks;
	int round;                 /* from 0 (its name says it from 1) */
	const char *variant;       /* NULL or "" without variants */
};
/* The directory a point's hook output goes to: DB's directory / reaim-run-RUN-hook / the point's name
 * (workload, O_SYNC, tasks, round and variant). Made (with its parent) on the way; -1 with why. */
int point_hook_dir(const struct point_hook_place *at, char *dir, size_t len, char *why, size_t whylen);
/* Ready a hook for one point; the engine point's hook is then &h->hook. */
void point_hook_init(struct point_hook *h, const char *command, int tasks, const char *dir,
		     const struct engine_hook *next, const struct accounting *acct);
/* After the point: stop it if it still runs (a point that never reached its end). */
void point_hook_finish(struct point_hook *h);

#endif
