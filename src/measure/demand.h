/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Others' demand on the machine, measured where the run cannot move it: in a short window before a
 * point's tasks exist and one after they are gone, the threads of others that are runnable, the CPU
 * they use and the requests they keep in flight on the run's disks. During a point the CPU others
 * *get* is what the run leaves them (a slowed run leaves more), so only these windows may steer a
 * verdict. */
#ifndef REAIM_MEASURE_DEMAND_H
#define REAIM_MEASURE_DEMAND_H

#include <stddef.h>

#include "measure/procstat.h"

/* What one window saw. */
struct demand_window {
	double wall_s;          /* its length */
	size_t readings;        /* /proc/stat readings taken (the runnable count's samples) */
	double runnable;        /* mean runnable threads not the run's; NaN without procs_running */
	double busy_pct;        /* CPU used by others, % of the machine (0..100); NaN when the run's own is unknown */
	double steal_pct;       /* steal, % of all CPU time */
	double in_flight;       /* mean requests in flight on the run's disks; NaN without disks */
	double disk_busy_pct;   /* the busiest of the run's disks: % of the window it had a request; NaN without */
	unsigned ncpus;
};

/* What the run has running in a window (its background load; the reader is counted by the module). */
struct demand_own {
	int (*runnable)(void *arg);   /* its threads runnable now; NULL: none */
	double (*cpu_s)(void *arg);   /* its CPU so far, seconds (NaN: unknown); NULL: none */
	void *arg;
};

/* How to take a window. */
struct demand_probe {
	const char *proc_root;        /* NULL for "/proc" */
	double seconds;               /* its length (e.g. 0.1) */
	double every_s;               /* between readings (e.g. 0.005) */
	const char *const *devices;   /* the run's disks, as in /proc/diskstats */
	size_t ndevices;
	struct demand_own own;
};

/* Take one window: sleeps its length while reading. 0, or -1 with the reason in err. */
int demand_window_take(const struct demand_probe *p, struct demand_window *out, char *err, size_t errlen);

/* What a window added up between its first and last counters. */
struct demand_tally {
	double wall_s;
	size_t readings;
	double runnable_sum;   /* others' runnable threads, summed over the readings; NaN if one lacked it */
	double in_flight_sum;  /* the run's disks' requests in flight, summed over the readings */
	int have_disks;
	double own_cpu_s;      /* the run's CPU over the window */
};

/* The pure part, for tests: the window from its first and last counters and its tally (hz is
 * USER_HZ). */
void demand_from(const struct sys_counters *a, const struct sys_counters *b, double hz,
		 const struct demand_tally *t, struct demand_window *out);

/* Others' demand on the CPUs as % of the machine: their runnable threads over its CPUs, not capped
 * (three CPU-bound neighbours on two CPUs demand 150 %); NaN when unknown. */
double demand_pct(double runnable, unsigned ncpus);

/* The two windows of a point (before its release, after its end) as one figure: their mean where both
 * are measured, else the one that is. */
double demand_mean(double before, double after);

#endif
