/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's accounting: each point's tasks in a cgroup of their own when reaim may make one (else wait4
 * alone), the point's figures from it and from the sampler (outside load, steal, noise), the clean-up
 * that leaves no process of a point behind, and the quiet check before a run. */
#ifndef REAIM_RUN_ACCOUNTING_H
#define REAIM_RUN_ACCOUNTING_H

#include "config/cfg.h"
#include "engine/engine.h"
#include "store/store.h"

struct accounting;
struct cgroup_point;

/* Set up the run's accounting for the disk dirs of the plan: make this process a child subreaper (so
 * orphans of the tasks are reparented to it and reaped) and, where it may, a run cgroup. Never fails:
 * without cgroups the figures come from wait4 and accounting_describe says why. */
struct accounting *accounting_open(const struct plan *p);
/* One line naming where the figures come from and why any is missing, to say once at the start. */
/* The same without what differs from run to run (the run cgroup's path): an environment fact. */
const char *accounting_kind(const struct accounting *a);
const char *accounting_describe(const struct accounting *a);
/* The run cgroup's cgroup2 directory (the point cgroups' parent); NULL without. */
const char *accounting_run_dir(const struct accounting *a);
/* --cpus: confine the points from now on to cpus[0..n) through a cpuset where the machine has one
 * (n 0: no more); the tasks confine their affinity besides, which is all there is without. */
void accounting_confine(struct accounting *a, const int *cpus, size_t n);
/* How --cpus confines a point's tasks here, an environment fact: "cpuset (cgroup v2 cpuset.cpus)",
 * "cpuset (cgroup v1 cpuset.cpus)" or "affinity only: WHY" (also after a cpuset that failed). */
const char *accounting_confinement(const struct accounting *a);
/* What the engine's moments do to the point's cgroup: through accounting_addon for a point, directly as
 * the engine_point.hook of a cache load's cold run. */
const struct engine_hook *accounting_hook(struct accounting *a);
/* The cgroup directory the point going on runs its tasks in (absolute), or NULL when it has none. */
const char *accounting_point_cgroup(const struct accounting *a);
/* A cgroup of its own, under the run cgroup, for a process that runs beside a point (a point hook):
 * named NAME-N, in cgroup2 only, so it is never charged to a point and cgroup_point_kill ends all it
 * holds. NULL with why set when the run has no cgroups (or may no longer make one); the caller
 * removes it with cgroup_point_destroy before accounting_close. */
struct cgroup_point *accounting_side_cgroup(struct accounting *a, const char *name, char *err, size_t errlen);
/* After a point: its cgroup figures, outside load, steal and noise (judged against noise_limit %) into p,
 * whose wait4 and sampler figures are already set. what names the point in warnings. a may be NULL. */
void accounting_point(struct accounting *a, const struct engine_result *r, double noise_limit, const char *what,
		      struct store_point *p);
/* Kill and reap what is left of the run, remove its cgroups and free; NULL is fine. */
void accounting_close(struct accounting *a);

/* The quiet check before a run: watch the machine for `seconds`; when more than limit_pct % of it is
 * busy or stolen, warn naming the load, or with require refuse: -1 (the reason is logged). */
int accounting_quiet_check(double seconds, double limit_pct, int require);

#endif
