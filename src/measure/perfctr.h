/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf_event_open counters of a point's tasks: software events always, hardware ones where there
 * is a PMU; counted for the point's cgroup (one counter per CPU) or inherited from each task, read
 * with their enabled and running times and scaled when the kernel multiplexed them. */
#ifndef REAIM_MEASURE_PERFCTR_H
#define REAIM_MEASURE_PERFCTR_H

#include <stddef.h>
#include <stdint.h>

/* The events, in table order (perfctr.c); a mask has bit i for event i. */
#define PERFCTR_MAX 11
struct perfctr_event {
	const char *name;   /* as perf stat names it: "task-clock", "context-switches", "cycles" */
	uint32_t type;      /* PERF_TYPE_SOFTWARE or PERF_TYPE_HARDWARE */
	uint64_t config;
	const char *unit;   /* "ns" for task-clock, else "events" */
	int hardware;       /* needs a PMU */
};
extern const struct perfctr_event perfctr_events[PERFCTR_MAX];
#define PERFCTR_ALL ((1u << PERFCTR_MAX) - 1)

/* One event's count over a window, summed over CPUs or tasks, each reading scaled on its own. */
struct perfctr_count {
	double value;        /* sum of value x enabled / running (as read when running == enabled) */
	uint64_t enabled_ns; /* sum of the time each reading was enabled */
	uint64_t running_ns; /* and actually on the PMU (less when multiplexed) */
	uint32_t readings;   /* how many were added */
};
/* Add one raw reading (value, time enabled, time running): a reading that never ran adds its time
 * but no value (it cannot be estimated). */
void perfctr_add(struct perfctr_count *c, uint64_t value, uint64_t enabled_ns, uint64_t running_ns);
/* The share of the enabled time the counter ran, %: 100 unless multiplexed; NaN with nothing read. */
double perfctr_running_pct(const struct perfctr_count *c);
/* a + b, field by field (tasks' counts into the point's). */
void perfctr_sum(struct perfctr_count *a, const struct perfctr_count *b);

/* Which events of mask can be opened, in cgroup mode on cgroup_fd (a cgroup directory, on CPU 0) or
 * inherited by the calling task (cgroup_fd -1); errs[i] gets the errno of each that cannot (0 when
 * it can). Returns the mask of those that opened. */
unsigned perfctr_probe(unsigned mask, int cgroup_fd, int errs[PERFCTR_MAX]);
/* "cycles, instructions: No such file or directory (no PMU); ..." for the events of tried that
 * failed, grouped by errno, with a hint for the usual ones (perf_event_paranoid, seccomp). */
void perfctr_describe_failures(unsigned tried, const int errs[PERFCTR_MAX], char *buf, size_t len);

/* ---- inherited by each task: opened in the task before the release, counting its children too ---- */
struct perfctr_task {
	unsigned mask;       /* the events the task opens */
};
/* In the task: open the events disabled (inherit, so its children count); fds[i] -1 for one that
 * failed. Returns the mask opened. Async-signal-safe (syscalls only). */
unsigned perfctr_task_open(const struct perfctr_task *t, int fds[PERFCTR_MAX]);
/* Start and stop every counter the task opened (one prctl each, not one ioctl per counter). */
void perfctr_task_enable(void);
void perfctr_task_disable(void);
/* Read and close the task's counters into out (zeroed first; an event not opened stays empty). */
void perfctr_task_read(unsigned opened, int fds[PERFCTR_MAX], struct perfctr_count out[PERFCTR_MAX]);

/* ---- the point's cgroup: one counter per online CPU and event ---- */
struct perfctr_cgroup;
/* Open the events of mask for the cgroup directory, disabled, on every online CPU; -1 with a reason
 * (the first failure) when one cannot be opened, or when they would take more than half of the
 * file descriptors left. */
int perfctr_cgroup_open(const char *cgroup_dir, unsigned mask, struct perfctr_cgroup **out, char *err, size_t errlen);
int perfctr_cgroup_enable(struct perfctr_cgroup *g);
/* Read every counter (they keep counting), summed over CPUs into out (zeroed first). */
void perfctr_cgroup_read(struct perfctr_cgroup *g, struct perfctr_count out[PERFCTR_MAX]);
void perfctr_cgroup_close(struct perfctr_cgroup *g);

#endif
