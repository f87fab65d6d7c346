/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --point-hook: a command that runs over exactly one point, from just after its release to its last
 * task's finish (perf record -a, trace-cmd, bpftrace), in an output directory kept beside the run. */
#ifndef REAIM_RUN_POINT_HOOK_H
#define REAIM_RUN_POINT_HOOK_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "engine/command.h"
#include "engine/engine.h"
#include "store/figures.h"

struct accounting;
struct cgroup_point;

/* How long the hook has, after SIGINT, to end by itself before all of it is killed. */
#define POINT_HOOK_STOP_S 10.0
/* The same when the run is being interrupted: the point is lost anyway, the user waits. */
#define POINT_HOOK_STOP_INTERRUPTED_S 1.0

struct point_hook {
	struct engine_hook hook;        /* what the engine calls: the accounting's hook, then ours */
	const struct engine_hook *next; /* the accounting's, or NULL */
	struct accounting *acct;        /* for the point's cgroup and the hook's own; NULL: none */
	const char *command;
	int tasks;
	char dir[STORE_TEXT_LEN];       /* its working directory, absolute (stored with the point, so no
					 * longer); its output goes to dir/hook.out */
	int dirfd;                      /* that directory, opened as it was made; -1 once closed */
	struct timespec release;        /* CLOCK_REALTIME just before the tasks were released */
	struct engine_child child;      /* the hook's first process; pid 0: not started (or stopped) */
	struct cgroup_point *cg;        /* the hook's own cgroup, NULL without: then its process group
					 * alone, and only while its first process is unreaped */
	uint64_t started_ns;
	double stop_s;                  /* how long stopping it took (SIGINT to its end) */
	int failed;                     /* it could not be started: end says why */
	char end[STORE_TEXT_LEN];       /* how it ended, once stopped ("" before) */
};

/* Whether the workload's points at this task count run its hook. */
int point_hook_wanted(const struct run_opts *o, int tasks);
/* Before the run: -1 (why names the workload and the count) when --point-hook-tasks names a task
 * count no point of the workload's schedule can have, so its hook would never run. */
int point_hook_check(const struct schedule_workload *sw, char *why, size_t whylen);
/* The point a hook directory is for. */
struct point_hook_where {
	const char *db;      /* the database's path as given (relative to the working directory or not) */
	int64_t run_id;
	const char *workload;
	int osync;
	int tasks;
	int round;           /* from 0 */
	const char *variant; /* NULL or "": none */
};
/* The directory a point's hook output goes to: DB's directory / DBNAME-run-RUN-hook (DBNAME: the
 * database's file name less ".db"; made 0755 if missing, refused if a symlink or not ours alone) /
 * the point's name (workload, O_SYNC, tasks, round and variant; ".2", ".3" ... added when that is
 * taken, so every point gets a new one). dir is absolute, *dirfd the directory opened. -1 with why. */
int point_hook_dir(const struct point_hook_where *at, char *dir, size_t len, int *dirfd, char *why, size_t whylen);
/* Ready a hook for one point (it takes dirfd); the engine point's hook is then &h->hook. */
void point_hook_init(struct point_hook *h, const char *command, int tasks, const char *dir, int dirfd,
		     const struct engine_hook *next, struct accounting *acct);
/* After the point: stop it if it still runs (a point that never reached its end), kill what is left
 * in its cgroup, reap it and remove the cgroup. */
void point_hook_finish(struct point_hook *h);

#endif
