/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System sampler: a thread that reads system-wide CPU, disk and VM counters at a fixed interval
 * while a load point runs. */
#ifndef REAIM_MEASURE_SAMPLER_H
#define REAIM_MEASURE_SAMPLER_H

#include <stddef.h>

#include "measure/procstat.h"

/* The series holds one hour at the interval (at most this many entries); past that it is
 * decimated: adjacent pairs are merged and the interval doubles, so it always covers the run. */
#define SAMPLER_SERIES_MAX 65536

struct sampler_config {
	double interval_s;            /* e.g. 0.1; 0 means 0.1; 0.001 .. 3600 */
	const char *const *devices;   /* block device names as in /proc/diskstats, e.g. "vda", "sda1" */
	size_t ndevices;              /* at most SAMPLER_MAX_DEVICES; a disk and its partition would count twice */
	const char *proc_root;        /* NULL for "/proc"; tests point it at a directory of fixtures */
	size_t series_max;            /* 0 (or more) for SAMPLER_SERIES_MAX; tests use a few to see decimation */
};

struct sys_sample {                   /* one interval */
	double t_s;                   /* end of the interval, seconds since sampler_start */
	double dt_s;                  /* length of the interval */
	double user_pct, nice_pct, sys_pct, iowait_pct, irq_pct, softirq_pct, steal_pct, idle_pct; /* of all CPUs */
	double read_kbs, write_kbs, read_iops, write_iops, util_pct; /* summed over the devices; util = busy time share (max over devices) */
	double ctxt_per_s, forks_per_s, pgfault_per_s, pgmajfault_per_s, swap_in_per_s, swap_out_per_s;
};

struct sys_summary {                  /* over the whole sampled period (first to last reading, not a mean of means) */
	struct sys_sample avg;        /* t_s = period length */
	size_t nsamples;              /* readings taken after the baseline (the series may hold fewer, merged) */
	size_t errors;                /* readings that failed and were skipped (the next interval spans the gap) */
	double sampler_cpu_pct;       /* the sampler thread's own CPU time / wall time, percent of one CPU; -1 if unknown */
	/* outside load over the same period: see sampler_outside_cpu_pct */
	double busy_cpu_s;            /* machine busy CPU time: user nice system irq softirq, all CPUs */
	double steal_pct;             /* steal time, % of all CPU time of the machine (= avg.steal_pct) */
	unsigned ncpus;               /* CPUs in /proc/stat; 0 if it lists none */
};

struct sampler;

/* Start the thread; 0, or -1 with a reason in err. Reads a first baseline before returning. */
int sampler_start(const struct sampler_config *cfg, struct sampler **out, char *err, size_t errlen);
/* Stop and join the thread (returns promptly, not after the interval), take a final reading, fill the
 * summary and hand over the time series (caller frees *series with free()). sum, series and n may be NULL. */
void sampler_stop(struct sampler *s, struct sys_summary *sum, struct sys_sample **series, size_t *n);
/* The CPU used by everything but the run, as % of the machine (CPUs x the sampled period), given the
 * run's own CPU seconds over that period (cgroup cpu.stat, else wait4 plus reaim's own); NaN if unknown. */
double sampler_outside_cpu_pct(const struct sys_summary *sum, double own_cpu_s);
/* The block device holding dir, as named in /proc/diskstats ("vda", "sda1", "nvme0n1p2"); -1 if none (tmpfs). */
int sampler_device_of(const char *dir, char *name, size_t len);

/* The interval figures between two readings dt seconds apart (util: io_ticks delta / dt, max over devices;
 * from io_ticks_max_ms when the counters carry no per-device breakdown). out->t_s = out->dt_s = dt. */
void sampler_delta(const struct sys_counters *a, const struct sys_counters *b, double dt, struct sys_sample *out);

#endif
