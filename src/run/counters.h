/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's counters of each point over its measured window (the release to the last task
 * done): the system's from /proc, and the point's tasks' from perf_event_open, as rows to store. */
#ifndef REAIM_RUN_COUNTERS_H
#define REAIM_RUN_COUNTERS_H

#include <stddef.h>

#include "engine/engine.h"
#include "store/store.h"

struct accounting;
struct counters;
struct perfctr_task;

/* The run's counters; acct (may be NULL) is the run's accounting, whose point cgroups scope perf's
 * counts where it has them. Says once on stderr which perf events cannot be opened and why. Never
 * fails; proc_root NULL: "/proc". */
struct counters *counters_open(struct accounting *acct, const char *proc_root);
/* The perf events each task opens for itself (NULL when the point's cgroup counts them, or none can). */
const struct perfctr_task *counters_task_events(const struct counters *c);
/* After a point: its counters as rows (free()), their count in *n; none when the point was not
 * measured to its end. res gives the tasks' own perf counts. */
struct store_counter *counters_point(struct counters *c, const struct engine_result *res, size_t *n);
/* One line for the log: what is counted, and how. */
const char *counters_describe(const struct counters *c);
/* The perf events that cannot be opened on this machine, grouped by why ("no PMU: ..."); "" none. A
 * fact of the machine, for the run to say once. */
const char *counters_unopened(const struct counters *c);
void counters_close(struct counters *c);

#endif
