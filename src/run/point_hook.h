/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --point-hook: a command that runs over exactly one point, from just after its release to its last
 * task's finish (perf record -a, trace-cmd, bpftrace), in an output directory kept beside the run. */
#ifndef REAIM_RUN_POINT_HOOK_H
#define REAIM_RUN_POINT_HOOK_H

#include <stddef.h>
#include <stdint.h>

#include "config/cfg.h"

/* How long the hook has, after SIGINT, to end by itself before all of it is killed. */
#define POINT_HOOK_STOP_S 10.0
/* The same when the run is being interrupted: the point is lost anyway, the user waits. */
#define POINT_HOOK_STOP_INTERRUPTED_S 1.0

/* Whether the workload's points at this task count run its hook. */
int point_hook_wanted(const struct run_opts *o, int tasks);
/* Before the run: -1 (why names the workload and the count) when --point-hook-tasks names a task
 * count no point of the workload's schedule can have, so its hook would never run. */
int point_hook_check(const struct schedule_workload *sw, char *err, size_t errlen);
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
int point_hook_dir(const struct point_hook_where *at, char *dir, size_t len, int *dirfd, char *err, size_t errlen);

#endif
