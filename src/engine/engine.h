/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run engine: forks the tasks of one load point, releases them together, reaps them
 * and turns what they left in shared memory into the point's raw figures. */
#ifndef REAIM_ENGINE_ENGINE_H
#define REAIM_ENGINE_ENGINE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config/cfg.h"
#include "measure/measure.h"
#include "measure/perfctr.h"
#include "measure/sampler.h"

/* Per-test figures of one point, over all tasks. */
struct engine_test_stats {
	uint64_t count;
	uint64_t total_ns, min_ns, max_ns;
	uint64_t p50_ns, p90_ns, p99_ns;
	uint64_t over_2s;
};

/* Moments of a point the caller may act on (the run's cgroups, a point hook): they come in this order,
 * FORKED always after FORKING, RELEASE and RELEASED only when every task got ready, FINISHED only when
 * every task finished or died by itself, KILL only when the tasks are stopped early. */
enum engine_event {
	ENGINE_FORKING,  /* before the first fork: tasks inherit the cgroup the parent is in now */
	ENGINE_FORKED,   /* after the last fork (or a failed one) */
	ENGINE_RELEASE,  /* every task ready, just before the release */
	ENGINE_RELEASED, /* just after the release: the tasks are running their jobs */
	ENGINE_FINISHED, /* every task finished (or died), before they are let go to exit and reaped */
	ENGINE_KILL,     /* the tasks are being killed: a stop signal, a time limit, a failed start */
	ENGINE_REAPED,   /* every task reaped: the point is over */
};
struct engine_hook {
	void (*fn)(void *arg, enum engine_event ev);
	void *arg;
};

struct engine_point {
	const struct workfile *wf;
	const struct run_opts *opts;
	int tasks;
	long long file_kib;       /* each task's file, and jobs_per_task (P): the point's facts from the */
	size_t jobs_per_task;     /* plan's schedule (struct schedule_point), which alone derives them */
	int osync;                /* 0 or 1 for this point */
	uint64_t seed;
	double timeout_s;
	double ready_timeout_s;   /* for every task to be ready; 0: 30 s + 10 ms a task */
	const struct sampler_config *sampler; /* NULL: no system sampling */
	const struct engine_hook *hook;        /* NULL: none */
	const struct perfctr_task *perf;       /* perf events each task counts for itself and its children,
						* from the release to its finish; NULL: none */
	const int *cpus;          /* --cpus: the CPUs every task is confined to (ncpus of them); NULL: all */
	size_t ncpus;
};

/* Where the wall time of a point outside its measured real time went, in seconds. */
struct engine_phases {
	double setup_s;           /* caches dropped, disk dirs flushed, point dirs, source file; syncfs at ready */
	double start_s;           /* first fork to the release less that syncfs: forks, set-up, ready */
	double finish_s;          /* last task finished to the last one reaped: exits, reaping */
	double cleanup_s;         /* scratch removal */
};

struct engine_result {
	int valid;
	int fatal;                /* the run cannot go on (fork failed, scratch unusable) */
	char reason[320];
	size_t jobs_per_task;     /* P */
	double real_s, user_s, sys_s; /* user_s, sys_s: the tasks' whole lives (wait4) */
	double window_cpu_s;      /* the finished tasks' CPU time from their release to their last job's end */
	double release_skew_s;
	double point_overhead_s;  /* the point's wall time, start of set-up to end of clean-up, less real_s */
	struct engine_phases phases;
	int overhead_warning;     /* a phase took far longer than its norm for this many tasks */
	char overhead_note[200];  /* which one and how long, when overhead_warning */
	struct spread spread;     /* of task completion times, seconds */
	struct engine_test_stats *tests; /* one per workfile entry */
	int sampled;              /* the system figures below are set */
	struct sys_summary sys;
	struct sys_sample *series;
	size_t nseries;
	int perf_counted;         /* perf below is set: the valid tasks' own counts summed */
	struct perfctr_count perf[PERFCTR_MAX];
};

/* The signals that stop a run: every one whose default action ends the process, but SIGKILL,
 * SIGSTOP, SIGPIPE and SIGXFSZ (and a fault signal a handler is installed for). */
void engine_stop_signals(sigset_t *set);
/* Block the stop signals and SIGCHLD, read from then on through a signal fd; call before any thread
 * is created. */
int engine_init(void);
/* Nonzero once a stop signal (SIGINT, SIGTERM, SIGQUIT, SIGUSR1, ...) arrived; the signal number. */
int engine_interrupted(void);
/* Poll for a pending stop signal without blocking (between points). */
void engine_poll_signals(void);

/* Per run: a scratch root in each disk dir (absolute), each holding a marker file the run
 * keeps locked (flock) while it lives, and the SysV IPC keys its tasks may use. */
struct engine_scratch {
	char **roots;
	int *locks;               /* per root: the locked marker's fd, -1 if the filesystem cannot lock */
	size_t count;
	char *exec_helper;
	char *script_dir;
	int32_t ipc_key;          /* task i uses key ipc_key + i; no object had one of them at the start */
};
int engine_scratch_create(const struct str_list *dirs, struct engine_scratch *s, char *err, size_t errlen);
void engine_scratch_destroy(struct engine_scratch *s);
/* Remove scratch roots left in dirs by reaim runs that died (killed with SIGKILL, or a crash),
 * with the SysV objects their tasks left: only dirs named like ours, owned by us, holding our
 * marker, whose lock we can take, so a live run (whatever its name or pid namespace) is never
 * touched. */
void engine_scratch_sweep(const struct str_list *dirs);

/* The forker: the reaim-forker program, started now, that forks every point's tasks from then on, so each
 * fork copies a small process rather than reaim with its libraries, database and threads. Call after
 * engine_init (it keeps the signals blocked as they are then); reaim forks the tasks itself when it cannot
 * be started (said at debug level). Stop it at the run's end. */
int engine_forker_start(void);
void engine_forker_stop(void);
/* Who forks the point now starting (for the ENGINE_FORKING hook): the forker's pid, or 0 for reaim itself;
 * and the CPU time the forker took to fork its tasks (after ENGINE_FORKED). */
pid_t engine_forking_pid(void);
/* 1 while the forker runs: a child of reaim that waitpid(-1) sees alive */
int engine_forker_alive(void);
double engine_forking_cpu_s(void);

/* Run one point; 0 when it ran (valid or not), -1 on a set-up error (reason set). */
int engine_run_point(const struct engine_point *pt, const struct engine_scratch *s,
		     struct engine_result *res);
void engine_result_free(struct engine_result *res);
/* 1 (and a note saying which) when a phase of the point's overhead is far beyond its norm
 * for this many tasks; the I/O of scratch set-up and clean-up has no norm and is not checked. */
int engine_overhead_check(const struct engine_phases *ph, int tasks, char *note, size_t len);

/* Test instrumentation, NULL in the program: called at the steps of the ready barrier where
 * the order of a task and the parent matters (in a task with its index, in the parent with
 * the count it read), so a test can force the interleavings that matter. */
enum engine_hook_at {
	ENGINE_HOOK_TASK_COUNTING_IN,  /* a task, before it counts itself ready */
	ENGINE_HOOK_TASK_COUNTED_IN,   /* a task, after it counted in (and woke the parent if last) */
	ENGINE_HOOK_PARENT_CHECKED,    /* the parent read the ready count and is about to sleep */
};
extern void (*engine_test_hook)(enum engine_hook_at at, unsigned value);

#endif
