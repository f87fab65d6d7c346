/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parent and the tasks of a point share: the layout of the shared mapping. */
#ifndef REAIM_ENGINE_INTERNAL_H
#define REAIM_ENGINE_INTERNAL_H

#include <sched.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/engine.h"
#include "measure/measure.h"

enum slot_state { SLOT_INIT = 0, SLOT_DONE = 1, SLOT_FAILED = 2 };

/* One per task, written only by that task (pid by the parent). A cache line each, so a
 * task counting its jobs never shares a line with another task's. */
struct task_slot {
	int state;
	uint32_t jobs_done;
	uint64_t start_ns, finish_ns;
	uint64_t cpu_start_ns, cpu_finish_ns; /* the task's CPU time (its own and its reaped children's) at both */
	int fail_test;            /* workfile entry index, -1 for set-up */
	int fail_errno;
	uint32_t ipc_busy;        /* nonzero while a test may hold SysV objects under the task's key */
	pid_t pid;                /* set by the parent: shared memory, so forking copies nothing */
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct task_slot) == 64, "a task's slot is one cache line");

/* What a task that failed was doing; apart from the slots, so only a failure touches it. */
struct task_failure {
	char why[160];
};

/* One per test of the mix, merged into atomically by each task as it finishes. */
struct shared_stats {
	uint64_t count, total_ns, min_ns, max_ns, over_2s;
	uint32_t hist[HIST_BUCKETS];
};

/* Barriers the parent opens for every task at once. A futex word, not a pipe: a pipe's
 * readers all queue on one mutex when it closes, which serialises the release. */
struct __attribute__((aligned(64))) point_gates {
	uint32_t go;              /* 1: start the jobs */
	uint32_t leave;           /* 1: every task has finished; clean up and exit */
	uint32_t tasks;           /* N */
	uint32_t ready, done;     /* tasks counted in; the N-th one wakes the parent */
	uint32_t dead;            /* tasks the parent reaped early: they never count themselves done */
};
void gate_open(uint32_t *gate);
void gate_wait(uint32_t *gate);

/* The shared mapping: gates and statistics first, so every task finds them in the same
 * few pages, then the slots and the failure notes. */
struct point_shm {
	struct point_gates *gates;
	struct shared_stats *stats;
	struct task_slot *slots;
	struct task_failure *failures;
	struct perfctr_count *perf; /* PERFCTR_MAX per task when the tasks count perf events, else NULL */
	size_t len;
	int fd;                   /* the memfd it maps, handed to the forker; -1 once closed */
};

/* A task's own figures of one test; its histogram is kept as each job's bucket instead. */
struct local_stats {
	uint64_t count, total_ns, min_ns, max_ns, over_2s;
};
/* Each job's histogram bucket, not a private histogram per test: P entries of 2 bytes instead of
 * 9 KB per test of the mix in every task. */
typedef uint16_t job_bucket;
_Static_assert(HIST_BUCKETS - 1 <= UINT16_MAX, "a job's bucket fits a job_bucket");

/* A task's private working memory (its job list, each job's bucket, its statistics), carved
 * from a mapping the parent makes for the point and never touches: a task's first write there
 * gets a zeroed page, not a copy of the parent's, and no malloc runs between fork and exit. */
struct task_memory {
	void *base;
	size_t len;               /* per task: the whole of it, each task has its own copy */
	size_t jobs;              /* P: the job list's length (uint16_t each) */
	size_t bucket_offset;     /* P job_buckets follow the job list */
	size_t stats_offset;      /* then a struct local_stats per test of the mix */
};

/* Everything a task needs, prepared by the parent before fork. */
struct task_args {
	const struct engine_point *pt;
	struct point_shm shm;     /* a copy: the mapping itself is shared */
	struct task_memory mem;
	unsigned index;
	const char *const *point_dirs; /* the point's dir per disk dir; a task's is <dir>/t<index> */
	const char *const *sources; /* shared source file per disk dir */
	size_t nsources;          /* disk dirs: both arrays' length */
	long long file_kib;
	size_t dio_align;
	const char *exec_helper, *script_dir;
	int32_t ipc_key;          /* the run's SysV key base; the task's key is ipc_key + index */
	pid_t parent;
	const int *cpus;          /* --pin: task i runs on cpus[i % ncpus]; NULL: not pinned */
	size_t ncpus;
	const cpu_set_t *confine; /* --cpus without --pin: the set every task keeps to; NULL: not confined */
	int ready_fd;             /* eventfd the last task to be ready writes, then all wait for go */
	int done_fd;              /* eventfd the last task to finish writes, then all wait for leave */
};

__attribute__((noreturn)) void task_main(const struct task_args *a);

/* Fork, release, reap and collect one point whose scratch is ready. */
int engine_fork_point(const struct engine_point *pt, struct task_args *proto, struct engine_result *res);

/* The forker (forker.c). forker_choose: 1 when the forker forks the tasks of proto's point (it runs and
 * the request fits a message), and engine_forking_pid says so from then on; forker_fd: the socket its
 * exits come on, -1 when reaim forks the point itself. */
int forker_choose(const struct task_args *proto, int tasks);
int forker_fd(void);
/* Ask the forker for the tasks of proto's point; 0 with how many started (and the errno of the fork that
 * failed, if one did), their pids in their slots; -1 when the forker is gone (reaim forks from then on). */
int forker_fork(const struct task_args *proto, size_t *started, int *fork_err);
/* Tell the forker the tasks may all exit: it reaps them by pid in fork order from now on. */
void forker_leave(void);
/* One exit of a task the forker forked: its index in the point, wait status and CPU time. */
struct forker_exit {
	uint32_t index;
	int32_t status;
	int64_t utime_us, stime_us;
};
/* Read one message of exits (waiting for it with block), fn called for each; how many, 0 if none came,
 * -1 when the forker is gone. */
int forker_read_exits(int block, void (*fn)(void *arg, const struct forker_exit *e), void *arg);

#endif
