/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Outside load: the machine's CPU time that was not the run's, steal time, and a quiet check that
 * names the processes keeping a machine busy before a run starts. */
#ifndef REAIM_MEASURE_LOAD_H
#define REAIM_MEASURE_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "measure/sampler.h"

/* The CPU time of the whole machine between two /proc/stat readings. */
struct load_share {
	double busy_cpu_s;  /* user + nice + system + irq + softirq over all CPUs (guest time is inside user) */
	double steal_cpu_s; /* time the hypervisor gave our virtual CPUs' slots to someone else */
	double total_cpu_s; /* every state, all CPUs: about ncpus x wall */
	double busy_pct, steal_pct; /* of total_cpu_s */
	unsigned ncpus;     /* cpuN lines of the later reading; 0 if it had none */
};
/* Read and parse proc_root/stat (NULL root: "/proc"); 0, or -1 with a reason in err. */
int load_read_stat(const char *proc_root, struct sys_counters *c, char *err, size_t errlen);
/* hz is the kernel's USER_HZ (sysconf(_SC_CLK_TCK)). Counters that step back count as 0. */
void load_between(const struct sys_counters *a, const struct sys_counters *b, double hz, struct load_share *out);

/* (busy_cpu_s - own_cpu_s) as % of ncpus x wall_s, clamped to 0..100: the share of the machine used
 * by everything but the run. NaN when ncpus or wall_s is 0 or an input is not finite. */
double load_outside_cpu_pct(double busy_cpu_s, double own_cpu_s, unsigned ncpus, double wall_s);

/* The resolution of an outside share measured from /proc/stat over wall_s seconds, in % of the machine:
 * every CPU's busy time may be off by a tick at each end of the period (hz is USER_HZ). */
double load_resolution_pct(double hz, double wall_s);
/* The reason of a point stored as noisy before its reason was (schema before the noise column). */
#define LOAD_NOISE_UNSAID "outside load or steal over the noise limit"
/* Whether a point was measured in noise: its outside share or its steal passes limit_pct by more than
 * the resolution (a short point cannot tell 12 % from 10 %). Returns 1 and says why in reason, e.g.
 * "outside load 23.4 % of the machine" or "steal 11.0 % of CPU time" (both joined by "; "); 0 when it
 * was not, or cannot be judged (a figure NaN counts as not passing). */
int load_noise(double outside_pct, double steal_pct, double limit_pct, double resolution_pct, char *reason,
	       size_t reasonlen);

/* A process's CPU counters from /proc/PID/stat. */
#define LOAD_COMM_MAX 64 /* a workqueue worker's name with its description ("kworker/0:1H-kblockd") */
struct load_pid {
	long pid;
	char comm[LOAD_COMM_MAX];
	unsigned long long cpu_ticks;  /* utime + stime, clock ticks; not the reaped children's */
	unsigned long long start_ticks; /* starttime: tells a reused pid from the process seen before */
};
/* The text of /proc/PID/stat (the name may hold blanks and parentheses); 0 or -1. */
int load_parse_pid_stat(const char *text, struct load_pid *out);

/* Everything the quiet check reads at one moment. */
struct load_snapshot {
	struct sys_counters stat;
	uint64_t t_ns;          /* CLOCK_MONOTONIC when taken */
	struct load_pid *procs; /* sorted by pid */
	size_t nprocs;
};
/* Read proc_root/stat and every proc_root/PID/stat (NULL root: "/proc"); processes that exit while
 * being read are skipped. 0, or -1 with a reason in err. */
int load_snapshot_take(const char *proc_root, struct load_snapshot *s, char *err, size_t errlen);
void load_snapshot_free(struct load_snapshot *s);

/* CPU used between two snapshots by the processes of one name (a build's cc1 are one load). */
struct load_proc {
	char comm[LOAD_COMM_MAX];
	long pid;          /* its busiest process */
	unsigned nprocs;   /* processes of that name that used CPU */
	double cpu_pct;    /* % of one CPU over the interval (200 = two CPUs' worth) */
};
/* Up to max names, busiest first, leaving out self_pid and names that used no CPU; returns how many.
 * A process present only in b (or with a new start time) is charged all its CPU: it began in between. */
size_t load_proc_usage(const struct load_snapshot *a, const struct load_snapshot *b, double hz, long self_pid,
		       struct load_proc *out, size_t max);

/* The quiet check's finding. */
#define LOAD_TOP_MAX 5
struct load_quiet {
	double wall_s;
	double busy_pct, steal_pct; /* of the machine (all CPUs) */
	unsigned ncpus;
	size_t ntop;
	struct load_proc top[LOAD_TOP_MAX];
};
void load_quiet_between(const struct load_snapshot *a, const struct load_snapshot *b, double hz, long self_pid,
			struct load_quiet *out);
/* Take a snapshot, sleep seconds (e.g. 1), take another, and judge; the calling process is left out.
 * 0, or -1 with a reason in err. */
int load_quiet_check(const char *proc_root, double seconds, struct load_quiet *out, char *err, size_t errlen);
/* One line for a warning: "busy 83.0% of 2 CPUs, steal 0.0%: cc1 (3 processes) 120% of a CPU, ...". */
void load_quiet_describe(const struct load_quiet *q, char *buf, size_t len);

#endif
