/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's own cgroups: each load point's tasks in a cgroup of their own under a run cgroup, for
 * exact CPU, the tasks' own I/O, memory peak and pressure stalls, and a kill that spares no descendant. */
#ifndef REAIM_MEASURE_CGROUP_H
#define REAIM_MEASURE_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Where the figures come from. */
enum cgroup_layout {
	CGROUP_NONE,   /* no cgroup2 mount: nothing here works, fall back to wait4 */
	CGROUP_V2,     /* everything from the unified hierarchy */
	CGROUP_HYBRID, /* cgroup2 without controllers beside v1 hierarchies (blkio, memory) */
};

/* Which figures a point provides (bits of cgroup_stats.have). */
enum {
	CGROUP_HAVE_CPU = 1u << 0,     /* cpu.stat: always, when there is a point cgroup */
	CGROUP_HAVE_IO = 1u << 1,      /* io.stat (v2) or blkio.throttle.* (v1) */
	CGROUP_HAVE_MEM = 1u << 2,     /* memory.peak (v2) or memory.max_usage_in_bytes (v1) */
	CGROUP_HAVE_PSI_CPU = 1u << 3, /* cpu.pressure */
	CGROUP_HAVE_PSI_IO = 1u << 4,
	CGROUP_HAVE_PSI_MEM = 1u << 5,
};
enum cgroup_psi_kind { CGROUP_PSI_CPU, CGROUP_PSI_IO, CGROUP_PSI_MEM, CGROUP_PSI_N };

/* How a point's cgroup can confine its tasks to CPUs (--cpus), beside their affinity. */
enum cgroup_cpuset {
	CGROUP_CPUSET_NONE, /* no cpuset controller to be had: affinity alone */
	CGROUP_CPUSET_V2,   /* cpuset.cpus of the point's cgroup2 cgroup (the parent passes cpuset down) */
	CGROUP_CPUSET_V1,   /* a v1 cpuset twin of the point (hybrid machines) */
};

/* ---- pure parsers (text in, 0 or -1) ---- */

/* (/proc/self/mountinfo and /proc/self/cgroup are read by util's cgroup_mount_parse and
 * cgroup_self_parse, shared with the limits checked before a run.) */

struct cgroup_cpu {
	unsigned long long usage_usec, user_usec, system_usec;
};
int cgroup_parse_cpu_stat(const char *text, struct cgroup_cpu *out);

/* One device's I/O; major:minor name the whole disk (the kernel counts per disk, not per partition). */
#define CGROUP_MAX_DEVS 32
struct cgroup_io_dev {
	unsigned major, minor;
	unsigned long long rbytes, wbytes, rios, wios;
};
/* v2 io.stat: "MAJ:MIN rbytes=.. wbytes=.. rios=.. wios=.. dbytes=.. dios=..". -1 past max devices. */
int cgroup_parse_io_stat(const char *text, struct cgroup_io_dev *devs, size_t max, size_t *n);
/* v1 blkio.throttle.io_service_bytes and .io_serviced: "MAJ:MIN Read N" ... lines, "Total N" at the end. */
int cgroup_parse_blkio(const char *bytes_text, const char *ios_text, struct cgroup_io_dev *devs, size_t max,
		       size_t *n);

/* cpu/io/memory.pressure: the cumulative stall time "total=" of the some and full lines, microseconds. */
struct cgroup_psi {
	unsigned long long some_usec, full_usec;
	int has_full; /* the root cgroup's cpu.pressure had no full line before Linux 5.13 */
};
int cgroup_parse_pressure(const char *text, struct cgroup_psi *out);
/* A file holding one number (memory.peak, memory.max_usage_in_bytes). */
int cgroup_parse_u64(const char *text, unsigned long long *v);
/* Whether a cgroup.controllers (or subtree_control) text lists the controller NAME. */
int cgroup_controller_listed(const char *controllers, const char *name);

/* ---- readings and the figures between two of them ---- */

struct cgroup_stats {
	unsigned have; /* CGROUP_HAVE_* */
	uint64_t t_ns; /* CLOCK_MONOTONIC of the reading */
	struct cgroup_cpu cpu;
	size_t ndevs;
	struct cgroup_io_dev io[CGROUP_MAX_DEVS];
	unsigned long long mem_peak_bytes; /* since the point cgroup was made: a peak, not a counter */
	struct cgroup_psi psi[CGROUP_PSI_N];
};
struct cgroup_figures {
	unsigned have;
	double cpu_s, user_s, sys_s;
	double read_bytes, write_bytes, read_ios, write_ios; /* over every device */
	double mem_peak_bytes;
	/* stall time as % of the wall time between the readings; NaN where not available */
	double psi_some_pct[CGROUP_PSI_N], psi_full_pct[CGROUP_PSI_N];
};
/* b minus a (a NULL: since the cgroup was made, when every counter was 0). Counters that step back
 * count 0. wall_s is the time the stall shares are of; 0 takes it from the readings' t_ns (needs a). */
void cgroup_figures_between(const struct cgroup_stats *a, const struct cgroup_stats *b, double wall_s,
			    struct cgroup_figures *out);
/* One disk's I/O in a reading (zeros if it did none); 0 if found, -1 if not listed. */
int cgroup_io_of(const struct cgroup_stats *s, unsigned major, unsigned minor, struct cgroup_io_dev *out);
/* The whole disk holding a block device (a partition's parent, from /sys/dev/block); itself if a disk. */
int cgroup_disk_of(unsigned major, unsigned minor, unsigned *dmajor, unsigned *dminor);

/* ---- the run and its points ---- */

/* What cgroup_run_config.stale says of a name. */
enum cgroup_run_state {
	CGROUP_RUN_ALIVE = 0,    /* a live run's, or not a run cgroup at all: left alone */
	CGROUP_RUN_DEAD = 1,     /* its run is gone (its mark of death is there): removed everywhere */
	CGROUP_RUN_UNMARKED = 2, /* a run cgroup's name with no mark either way: removed from v1 only
				  * where no v2 cgroup of the name exists, which no live run lacks */
};

struct cgroup_run_config {
	const char *name;    /* the run cgroup's name, unique per process: "reaim-<pid>" */
	const char *parent;  /* a cgroup2 directory to create it in (a delegated one); NULL: this process's cgroup */
	const dev_t *disks;  /* the run's disks (whole disks); on hybrid, blkio counts only where a limit is set */
	size_t ndisks;
	int no_kill_file;    /* act as if cgroup.kill were missing (kernels before 5.14); for tests */
	int no_cpuset;       /* make no cpuset (points confined by affinity alone); for tests */
	/* Whether a sibling of the run cgroup (in v2 and the v1 twins) with this name was left by a run
	 * whose process is gone (enum cgroup_run_state): such ones are killed and removed first. Asked
	 * once per name, with no effect of its own. NULL: none is. */
	int (*stale)(const char *name);
	/* Called once for each such run whose cgroups are all gone, in every hierarchy: what marked it
	 * dead (its lock file) may go now. NULL: nothing to do. */
	void (*swept)(const char *name);
};
struct cgroup_run;
struct cgroup_point;

/* One hierarchy's parent directory for the sweep: dir NULL is skipped. */
struct cgroup_sweep_base {
	const char *dir;
	int v2;
};
/* Kill and remove under each base (v2 first: its kill ends the processes; then the v1 ones, whose
 * directories only go) the run cgroups cfg->stale says were left by runs that died, then call
 * cfg->swept for each that is gone everywhere; how many were removed from v2. */
int cgroup_sweep(const struct cgroup_run_config *cfg, const struct cgroup_sweep_base *bases, size_t nbases);

/* Make the run cgroup (and on hybrid its v1 blkio and memory twins). -1 with the reason in err, to be
 * said once: no cgroup2, not writable (needs root or a delegated cgroup), ... The caller then falls back. */
int cgroup_run_open(const struct cgroup_run_config *cfg, struct cgroup_run **out, char *err, size_t errlen);
enum cgroup_layout cgroup_run_layout(const struct cgroup_run *r);
/* CGROUP_HAVE_* its points will provide. */
unsigned cgroup_run_have(const struct cgroup_run *r);
/* One line saying which figures it gives, how, and why any is missing, "(CPU, I/O, ...); ...": facts
 * of the machine, the same for every run on it (no cgroup's path or name, no swept count). */
const char *cgroup_run_traits(const struct cgroup_run *r);
/* The run cgroup's directory in the cgroup2 hierarchy. */
const char *cgroup_run_dir(const struct cgroup_run *r);
/* Whether its points can be confined to CPUs by a cpuset (cgroup_point_cpus), and which. */
enum cgroup_cpuset cgroup_run_cpuset(const struct cgroup_run *r);
/* That said in a line, with the reason when there is none: "cpuset (cgroup v2 cpuset.cpus)",
 * "affinity only: ...". A fact of the machine (no path of this run). */
const char *cgroup_run_cpuset_text(const struct cgroup_run *r);
/* How many cgroups that runs which died left behind were killed and removed as it opened. */
int cgroup_run_swept(const struct cgroup_run *r);
/* Remove the run cgroups (every point destroyed first) and free; 0, or -1 with a reason (still freed). */
int cgroup_run_close(struct cgroup_run *r, char *err, size_t errlen);

/* A point's cgroups, named e.g. "point-3". 0, or -1 with a reason. */
int cgroup_point_create(struct cgroup_run *r, const char *name, struct cgroup_point **out, char *err, size_t errlen);
/* A cgroup for processes beside the points (a point hook), in cgroup2 only (none of the v1 twins that
 * measure): the cgroup_point_* calls below apply to it. 0, or -1 with a reason. */
int cgroup_side_create(const struct cgroup_run *r, const char *name, struct cgroup_point **out, char *err,
		       size_t errlen);
/* Confine the point to the CPUs cpus[0..n) through the run's cpuset (its cgroup2 cpuset.cpus, or a
 * v1 cpuset twin made now, which cgroup_point_attach then joins too), before any process enters it:
 * no process inside can widen its affinity beyond them. 0, or -1 with a reason (the point is as
 * it was). */
int cgroup_point_cpus(struct cgroup_point *p, const int *cpus, size_t n, char *err, size_t errlen);
/* Move a process (0: the caller) into the point. Async-signal-safe (open, write, close on paths made
 * beforehand), so a forked task can move itself before it runs anything. 0 or -1 with errno. */
int cgroup_point_attach(const struct cgroup_point *p, pid_t pid);
/* Move the calling process (all its threads) back to the cgroups it was in when the run opened. A parent
 * that forks a point's tasks from inside the point (cgroup_point_attach(p, 0), fork..., then this) costs
 * two moves per point instead of one per task. 0, or -1 with errno. */
int cgroup_run_leave(const struct cgroup_run *r);
/* After cgroup_run_leave from a point confined by cgroup_point_cpus: back to the v1 cpuset the process
 * was in (apart, as only such points join one: a move costs the lock every fork waits for). 0, or -1
 * with errno. */
int cgroup_run_leave_cpuset(const struct cgroup_run *r);
/* The same two moves for another process of ours (the forker, which forks the tasks from inside the point). */
int cgroup_run_send_home(const struct cgroup_run *r, pid_t pid);
int cgroup_run_send_home_cpuset(const struct cgroup_run *r, pid_t pid);
/* Read every figure the run provides; 0, or -1 with errno if cpu.stat cannot be read. */
int cgroup_point_read(const struct cgroup_point *p, struct cgroup_stats *out);
/* Processes in the point now (zombies are not: they left at exit); -1 with errno. */
int cgroup_point_count(const struct cgroup_point *p);
/* SIGKILL every process in the point, descendants included: cgroup.kill, else cgroup.procs in a loop
 * until it stays empty (bounded; each pid pinned with a pidfd and killed only if listed still). 0, or -1 with errno. The caller still reaps its children. */
int cgroup_point_kill(const struct cgroup_point *p);
/* Remove the point's cgroups, waiting up to a second for the last processes to leave; frees p.
 * 0, or -1 with a reason (p is freed either way). */
int cgroup_point_destroy(struct cgroup_point *p, char *err, size_t errlen);
/* The point's cgroup2 directory. */
const char *cgroup_point_path(const struct cgroup_point *p);

/* Make the caller a child subreaper: orphaned descendants are reparented to it, not to init, so it
 * can reap them and none is left as a zombie of the run. 0 or -1 with errno. */
int cgroup_set_subreaper(void);

#endif
