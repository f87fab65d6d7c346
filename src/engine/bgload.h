/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Background loads beside a point (--load, as contest ran them): processes of our own doing one
 * kind of work over and over on the run's disk dirs, each counting its units of work. */
#ifndef REAIM_ENGINE_BGLOAD_H
#define REAIM_ENGINE_BGLOAD_H

#include <stddef.h>
#include <stdint.h>

/* The base every --load list has: no load at all. */
#define BGLOAD_NONE "no_load"
#define BGLOAD_NAME_MAX 16

/* One kind of load: its name, what one of its units is, and what it does. */
struct bgload_def {
	const char *name;
	const char *unit;
	const char *help;
	int workers;              /* processes doing the work (besides the leader) */
};
extern const struct bgload_def bgload_table[];
extern const size_t bgload_count;
/* The row of a load name (not no_load), or NULL. */
const struct bgload_def *bgload_find(const char *name);
/* "process, io, read, list, tar, mem": the names, for messages and help. */
const char *bgload_list_text(void);

/* How big a load's data may be: its file (io, read) or memory (mem), in MiB, from the machine
 * (/proc/meminfo's MemTotal, MemFree and MemAvailable, the free space of dir) and the cap
 * $REAIM_LOAD_MAX_MIB; -1 with the reason when it cannot run (no space, no memory). Pure but for
 * what it reads. */
long long bgload_size_mib(const struct bgload_def *d, const char *dir, char *err, size_t errlen);
/* The machine's room for a load, in KiB: /proc/meminfo's figures and the free space of the dir. */
struct bgload_room {
	long long mem_total_kib, mem_free_kib, mem_available_kib, disk_free_kib;
};
/* The same from given figures, for tests: what bgload_size_mib decides. */
long long bgload_size_from(const struct bgload_def *d, const struct bgload_room *room, long long cap_mib, char *err,
			   size_t errlen);

struct bgload;
/* What a stopped load did. */
struct bgload_result {
	double units;             /* its units of work over the window bgload_mark_* set (else its life) */
	double cpu_s;             /* its CPU over the window (cgroup cpu.stat), else over its life (wait4) */
	double wall_s;            /* the time cpu_s is over */
	double read_bytes, write_bytes; /* storage I/O of its whole life (/proc's io of its processes) */
	int window;               /* cpu_s is over the marked window (a cgroup), not its life */
};

/* Where a load runs and how long its start may take. */
struct bgload_setup {
	const char *dir;          /* its files go in a directory made here */
	const char *cgroup_dir;   /* NULL, or the cgroup directory its leader is forked in */
	double timeout_s;         /* how long to wait for it to say ready */
	int (*stop)(void);        /* NULL, or polled while waiting: a stop signal came */
};
/* Start a load: its leader forked (in the cgroup directory when one is given: made, and removed at
 * the stop), its files in the dir (made, and removed at the stop), its workers running once it says
 * ready. Waits up to the timeout, polling stop(); -1 with the reason (everything it started already
 * gone) when it could not start. */
int bgload_start(const struct bgload_def *d, const struct bgload_setup *at, struct bgload **out, char *err,
		 size_t errlen);
/* The window the units and the CPU are counted over: its start and its end (safe from a hook). */
void bgload_mark_start(struct bgload *l);
void bgload_mark_end(struct bgload *l);
/* Its processes runnable now (state R), for a demand window: the load is the run's, not others'. */
int bgload_runnable(const struct bgload *l);
/* Its CPU so far in seconds (its cgroup's cpu.stat); NaN without a cgroup. */
double bgload_cpu_s(const struct bgload *l);
/* Stop the load: SIGTERM to its leader (which ends its workers and reports), SIGKILL to its
 * process group and its cgroup after 5 s; reaped, its files and cgroup removed, freed. 0, or -1
 * with the reason (a load that died on its own before the end: the point is not trustworthy). */
int bgload_stop(struct bgload *l, struct bgload_result *r, char *err, size_t errlen);

#endif
