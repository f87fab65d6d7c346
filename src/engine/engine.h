/* The run engine: forks the tasks of one load point, releases them together, reaps them
 * and turns what they left in shared memory into the point's raw figures. */
#ifndef REAIM_ENGINE_H
#define REAIM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "config/cfg.h"
#include "measure/measure.h"
#include "measure/sampler.h"

/* Per-test figures of one point, over all tasks. */
struct engine_test_stats {
	uint64_t count;
	uint64_t total_ns, min_ns, max_ns;
	uint64_t p50_ns, p90_ns, p99_ns;
	uint64_t over_2s;
};

/* Moments of a point the caller may act on (the run's cgroups): they come in this order, FORKED always
 * after FORKING, RELEASE only when every task got ready, KILL only when the tasks are stopped early. */
enum engine_event {
	ENGINE_FORKING, /* before the first fork: tasks inherit the cgroup the parent is in now */
	ENGINE_FORKED,  /* after the last fork (or a failed one) */
	ENGINE_RELEASE, /* every task ready, just before the release */
	ENGINE_KILL,    /* the tasks are being killed: a stop signal, a time limit, a failed start */
	ENGINE_REAPED,  /* every task reaped: the point is over */
};
struct engine_hook {
	void (*fn)(void *arg, enum engine_event ev);
	void *arg;
};

struct engine_point {
	const struct workfile *wf;
	const struct run_opts *opts;
	int tasks;
	int osync;                /* 0 or 1 for this point */
	uint64_t seed;
	double timeout_s;
	const struct sampler_config *sampler; /* NULL: no system sampling */
	const struct engine_hook *hook;        /* NULL: none */
};

struct engine_result {
	int valid;
	int fatal;                /* the run cannot go on (fork failed, scratch unusable) */
	char reason[320];
	size_t jobs_per_task;     /* P */
	double real_s, user_s, sys_s;
	double release_skew_s, point_overhead_s;
	struct spread spread;     /* of task completion times, seconds */
	struct engine_test_stats *tests; /* one per workfile entry */
	int sampled;              /* the system figures below are set */
	struct sys_summary sys;
	struct sys_sample *series;
	size_t nseries;
};

/* Block the signals the engine waits on; call before any thread is created. */
int engine_init(void);
/* Nonzero once SIGINT, SIGTERM or SIGHUP arrived; the signal number. */
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

/* Run one point; 0 when it ran (valid or not), -1 on a set-up error (reason set). */
int engine_run_point(const struct engine_point *pt, const struct engine_scratch *s,
		     struct engine_result *res);
void engine_result_free(struct engine_result *res);

#endif
