/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The life of one task: prepare, report ready, wait for the release, run the job list,
 * merge its statistics into shared memory and exit. Runs in a forked child. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engine/internal.h"
#include "util/util.h"

/* Set by unit tests only, to force an interleaving of a task and the parent (engine.h). */
void (*engine_test_hook)(enum engine_hook_at at, unsigned value);

#define TWO_SECONDS_NS 2000000000ull


static void fail(const struct task_args *a, int test, int err, const char *why)
{
	struct task_slot *slot = &a->shm.slots[a->index];
	slot->fail_test = test;
	slot->fail_errno = err;
	snprintf(a->shm.failures[a->index].why, sizeof(a->shm.failures[a->index].why), "%s", why);
	__atomic_store_n(&slot->state, SLOT_FAILED, __ATOMIC_RELEASE);
}

static void atomic_min(uint64_t *p, uint64_t v)
{
	uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
	while ((cur == 0 || v < cur) &&
	       !__atomic_compare_exchange_n(p, &cur, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void atomic_max(uint64_t *p, uint64_t v)
{
	uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
	while (v > cur && !__atomic_compare_exchange_n(p, &cur, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void merge(struct shared_stats *dst, const struct local_stats *src)
{
	if (src->count == 0)
		return;
	__atomic_add_fetch(&dst->count, src->count, __ATOMIC_RELAXED);
	__atomic_add_fetch(&dst->total_ns, src->total_ns, __ATOMIC_RELAXED);
	__atomic_add_fetch(&dst->over_2s, src->over_2s, __ATOMIC_RELAXED);
	atomic_min(&dst->min_ns, src->min_ns);
	atomic_max(&dst->max_ns, src->max_ns);
}

/* The jobs' buckets into the shared histograms of their tests. */
static void merge_buckets(struct shared_stats *dst, const uint16_t *jobs, size_t njobs, const job_bucket *bucket)
{
	for (size_t j = 0; j < njobs; j++)
		__atomic_add_fetch(&dst[jobs[j]].hist[bucket[j]], 1, __ATOMIC_RELAXED);
}

/* The CPU time this task and the children it reaped have used so far, in ns (0 if unknown). */
static uint64_t cpu_used_ns(void)
{
	struct rusage self, children;
	if (getrusage(RUSAGE_SELF, &self) < 0 || getrusage(RUSAGE_CHILDREN, &children) < 0)
		return 0;
	const struct timeval *tv[] = {&self.ru_utime, &self.ru_stime, &children.ru_utime, &children.ru_stime};
	uint64_t ns = 0;
	for (size_t i = 0; i < sizeof(tv) / sizeof(tv[0]); i++)
		ns += (uint64_t)tv[i]->tv_sec * 1000000000ull + (uint64_t)tv[i]->tv_usec * 1000ull;
	return ns;
}

static void record(struct local_stats *s, uint64_t ns)
{
	s->count++;
	s->total_ns += ns;
	if (s->count == 1 || ns < s->min_ns)
		s->min_ns = ns ? ns : 1;
	if (ns > s->max_ns)
		s->max_ns = ns;
	if (ns > TWO_SECONDS_NS)
		s->over_2s++;
}

/* Sent to a task when its parent dies (PR_SET_PDEATHSIG): a signal no test uses. */
#define TASK_PARENT_GONE_SIGNAL SIGRTMIN

/* The task's parent died: take the whole process group along (a shell test's sh and the sleep it
 * waits for, a forked copy holding the run's lock files), so nothing outlives the run. */
static void parent_gone(int sig)
{
	(void)sig;
	kill(0, SIGKILL);
	_exit(128 + SIGKILL);
}

/* Die with the parent, and all our group with us; leave its signal set-up behind, and set
 * what the tests must not inherit from whoever started reaim: files private to the task
 * (umask), no core dumped unless asked for. 0, or -1 with the step that failed. */
static int detach_from_parent(const struct task_args *a, const char **step)
{
	sigset_t none;
	sigemptyset(&none);
	/* our own group first: the group the signal below kills must never be the caller's */
	int own_group = setpgid(0, 0) == 0 && getpgrp() == getpid();
	struct sigaction sa = {.sa_handler = parent_gone};
	sigfillset(&sa.sa_mask);
	*step = "prctl(PR_SET_PDEATHSIG)";
	if (own_group && sigaction(TASK_PARENT_GONE_SIGNAL, &sa, NULL) == 0) {
		if (prctl(PR_SET_PDEATHSIG, TASK_PARENT_GONE_SIGNAL) < 0)
			return -1;
	} else if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) {
		return -1;
	}
	*step = "the parent is gone";
	if (getppid() != a->parent) {
		errno = 0;
		return -1;
	}
	signal(SIGPIPE, SIG_DFL); /* the parent ignores these; scripts and pipes expect the defaults */
	signal(SIGXFSZ, SIG_DFL);
	umask(077);
	struct rlimit core;
	*step = "setting RLIMIT_CORE to 0";
	if (!a->pt->opts->task_cores && getrlimit(RLIMIT_CORE, &core) == 0 && core.rlim_cur != 0) {
		core.rlim_cur = 0;
		if (setrlimit(RLIMIT_CORE, &core) < 0)
			return -1;
	}
	*step = "sigprocmask";
	return sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Count this task in; only the one that completes the count (with the tasks the parent
 * reaped early, `gone`) wakes the parent, so a thousand tasks cost it one wake-up, not a
 * thousand context switches during the point. The parent publishes `gone` before it reads
 * the count, so one of the two always sees the total. */
static int count_in(uint32_t *counter, const uint32_t *gone, uint32_t n, int fd)
{
	static const uint64_t one = 1;
	uint32_t c = __atomic_add_fetch(counter, 1, __ATOMIC_SEQ_CST);
	if (c + (gone ? __atomic_load_n(gone, __ATOMIC_SEQ_CST) : 0) < n)
		return 0;
	return write(fd, &one, sizeof(one)) == (ssize_t)sizeof(one) ? 0 : -1;
}

void gate_open(uint32_t *gate)
{
	__atomic_store_n(gate, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, gate, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void gate_wait(uint32_t *gate)
{
	while (__atomic_load_n(gate, __ATOMIC_ACQUIRE) == 0)
		syscall(SYS_futex, gate, FUTEX_WAIT, 0, NULL, NULL, 0);
}

/* Leave the parent's session, die with it, and take the task's CPU (--pin) or the point's CPUs (--cpus);
 * exits on failure. */
static void task_settle(const struct task_args *a)
{
	const char *step;
	if (detach_from_parent(a, &step) < 0) {
		fail(a, -1, errno, step);
		_exit(2);
	}
	if (a->cpus) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(a->cpus[a->index % a->ncpus], &one);
		if (sched_setaffinity(0, sizeof(one), &one) < 0) {
			fail(a, -1, errno, "binding the task to its CPU (--pin)");
			_exit(1);
		}
	} else if (a->confine && sched_setaffinity(0, sizeof(*a->confine), a->confine) < 0) {
		fail(a, -1, errno, "confining the task to the point's CPUs (--cpus)");
		_exit(1);
	}
}

/* Make the task's scratch dir (task_dir "" when no test needs one) and work in it, or in /: a core,
 * or a file a test names relatively, never lands in the directory reaim was started from. */
static void task_enter_dir(const struct task_args *a, const char *point_dir, const char *task_dir)
{
	char msg[200];
	if (task_dir[0] && mkdir(task_dir, 0700) < 0) {
		int err = errno;
		struct statvfs vfs;
		int no_inodes = err == ENOSPC && statvfs(point_dir, &vfs) == 0 && vfs.f_files > 0 && vfs.f_favail == 0;
		snprintf(msg, sizeof(msg), "mkdir %s%s", task_dir, no_inodes ? " (the filesystem is out of inodes)" : "");
		fail(a, -1, err, msg);
		_exit(1);
	}
	if (chdir(task_dir[0] ? task_dir : "/") < 0) {
		snprintf(msg, sizeof(msg), "chdir %s", task_dir[0] ? task_dir : "/");
		fail(a, -1, errno, msg);
		if (task_dir[0])
			remove_tree(task_dir);
		_exit(1);
	}
}

/* The tests' context, with the scratch dir open and each family's set-up done; exits on failure. */
static void task_context(const struct task_args *a, const char *task_dir, struct test_ctx *ctx)
{
	const struct workfile *wf = a->pt->wf;
	char msg[200];
	*ctx = (struct test_ctx){
		.scratch = task_dir[0] ? task_dir : NULL,
		.scratch_fd = -1,
		.source = a->sources[a->index % a->nsources],
		.file_kib = a->file_kib,
		.osync = a->pt->osync,
		.sync_mode = (enum sync_mode)a->pt->opts->sync_mode,
		.dio_align = a->dio_align,
		.exec_helper = a->exec_helper,
		.script_dir = a->script_dir,
		.task_index = a->index,
		.rng = (uint64_t)a->pt->seed * 0x9e3779b97f4a7c15ull + a->index + 1,
		.ipc_key = a->ipc_key ? a->ipc_key + (int32_t)a->index : 0,
		.ipc_busy = &a->shm.slots[a->index].ipc_busy,
	};
	if (task_dir[0] && (ctx->scratch_fd = open(task_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		snprintf(msg, sizeof(msg), "open %s: %s", task_dir, strerror(errno));
		fail(a, -1, errno, msg);
		remove_tree(task_dir);
		_exit(1);
	}
	for (size_t t = 0; t < wf->count; t++) {
		const struct test_family *fam = test_family_struct_of(wf->entries[t].test);
		if (fam && fam->prepare && fam->prepare(ctx, wf->entries[t].test) != TEST_OK) {
			snprintf(msg, sizeof(msg), "preparing: %s", ctx->why);
			fail(a, (int)t, ctx->err, msg);
			if (task_dir[0])
				remove_tree(task_dir);
			_exit(1);
		}
	}
}

/* The job list, each job's bucket and the task's own statistics, in memory no one else wrote
 * (see task_memory). */
struct task_local {
	uint16_t *jobs;
	job_bucket *bucket;
	struct local_stats *stats;
};

/* Fault in now, not in the first microseconds after the release: our slot, the clock, the timing and
 * rusage code and the first page of each test's code (fork does not copy the page tables of the program
 * text, so each task would fault on them afresh). */
static void task_fault_in(const struct task_args *a, const struct task_local *m)
{
	const struct workfile *wf = a->pt->wf;
	struct task_slot *slot = &a->shm.slots[a->index];
	slot->start_ns = slot->finish_ns = clock_now_ns();
	slot->cpu_start_ns = slot->cpu_finish_ns = cpu_used_ns();
	for (size_t off = a->mem.bucket_offset; off < a->mem.len; off += 4096)
		((volatile char *)a->mem.base)[off] = 0; /* the buckets' and statistics' pages */
	((volatile char *)a->mem.base)[a->mem.len - 1] = 0;
	record(&m->stats[0], 1); /* the recording code, then undone */
	memset(&m->stats[0], 0, sizeof(m->stats[0]));
	for (size_t t = 0; t < wf->count; t++) {
		const volatile unsigned char *code = (const volatile unsigned char *)(uintptr_t)wf->entries[t].test->run;
		(void)*code;
		(void)*(volatile uint64_t *)&a->shm.stats[t].count; /* the shared statistics merge() writes */
	}
}

/* Say ready and wait for the release, then start the task's perf counters if it opened any; exits
 * when the parent gave up on the point. */
static void task_wait_release(const struct task_args *a, unsigned perf_opened)
{
	struct point_gates *g = a->shm.gates;
	if (engine_test_hook)
		engine_test_hook(ENGINE_HOOK_TASK_COUNTING_IN, a->index);
	if (count_in(&g->ready, NULL, g->tasks, a->ready_fd) < 0)
		_exit(2);
	if (engine_test_hook)
		engine_test_hook(ENGINE_HOOK_TASK_COUNTED_IN, a->index);
	gate_wait(&g->go);
	if (perf_opened)
		perfctr_task_enable();
	a->shm.slots[a->index].start_ns = clock_now_ns();
	a->shm.slots[a->index].cpu_start_ns = cpu_used_ns(); /* after the clock: the release skew is not lengthened */
	/* let the tasks woken after us start too before we take the CPU for our jobs */
	sched_yield();
}

/* Every job in order, each timed; 0, or 1 after the first that failed (recorded in the slot). */
static int task_run_jobs(const struct task_args *a, struct test_ctx *ctx, const struct task_local *m)
{
	const struct workfile *wf = a->pt->wf;
	struct task_slot *slot = &a->shm.slots[a->index];
	char msg[200];
	for (size_t j = 0; j < a->mem.jobs; j++) {
		unsigned t = m->jobs[j];
		uint64_t t0 = clock_now_ns();
		enum test_status r = wf->entries[t].test->run(ctx, wf->entries[t].test);
		uint64_t t1 = clock_now_ns();
		if (r != TEST_OK) {
			snprintf(msg, sizeof(msg), "%s%s", r == TEST_SKIP ? "skipped: " : "", ctx->why);
			fail(a, (int)t, ctx->err, msg);
			return 1;
		}
		record(&m->stats[t], t1 - t0);
		m->bucket[j] = (job_bucket)hist_bucket(t1 - t0);
		slot->jobs_done++;
	}
	return 0;
}

/* Hand the statistics over and stay until every task has finished: exiting now would charge our
 * clean-up and exit to the tasks still running or not yet started. */
static void task_hand_over(const struct task_args *a, const struct task_local *m)
{
	const struct workfile *wf = a->pt->wf;
	struct point_gates *g = a->shm.gates;
	for (size_t t = 0; t < wf->count; t++)
		merge(&a->shm.stats[t], &m->stats[t]);
	merge_buckets(a->shm.stats, m->jobs, a->mem.jobs, m->bucket);
	__atomic_store_n(&a->shm.slots[a->index].state, SLOT_DONE, __ATOMIC_RELEASE);
	if (count_in(&g->done, &g->dead, g->tasks, a->done_fd) < 0)
		_exit(2);
	gate_wait(&g->leave);
}

void task_main(const struct task_args *a)
{
	const struct workfile *wf = a->pt->wf;
	task_settle(a);
	/* mkdir is the dearest part of a task's set-up on ext4: only when a test needs it */
	int need_scratch = (workfile_flags(wf) & (TF_DISK | TF_SCRATCH)) != 0;
	const char *point_dir = a->point_dirs[a->index % a->nsources];
	char task_dir[need_scratch ? strlen(point_dir) + 16 : 1];
	task_dir[0] = '\0';
	if (need_scratch)
		snprintf(task_dir, sizeof(task_dir), "%s/t%u", point_dir, a->index);
	task_enter_dir(a, point_dir, task_dir);
	struct test_ctx ctx;
	task_context(a, task_dir, &ctx);
	const struct task_local m = {
		.jobs = a->mem.base,
		.bucket = (job_bucket *)((char *)a->mem.base + a->mem.bucket_offset),
		.stats = (struct local_stats *)((char *)a->mem.base + a->mem.stats_offset),
	};
	plan_job_list_fill(wf, a->pt->opts->jobs_per_task, (uint64_t)a->pt->seed, a->index, m.jobs, a->mem.jobs);
	task_fault_in(a, &m);
	/* counters of this task and the children its tests fork, from the release to its finish */
	int perf_fds[PERFCTR_MAX];
	unsigned perf_opened = a->shm.perf ? perfctr_task_open(a->pt->perf, perf_fds) : 0;
	task_wait_release(a, perf_opened);

	int status = task_run_jobs(a, &ctx, &m);
	a->shm.slots[a->index].finish_ns = clock_now_ns();
	a->shm.slots[a->index].cpu_finish_ns = cpu_used_ns();
	if (perf_opened) {
		perfctr_task_disable();
		perfctr_task_read(perf_opened, perf_fds, &a->shm.perf[(size_t)a->index * PERFCTR_MAX]);
	}
	if (status == 0)
		task_hand_over(a, &m);
	if (need_scratch)
		close(ctx.scratch_fd);
	if (need_scratch && remove_tree(task_dir) < 0 && status == 0) {
		char msg[200];
		snprintf(msg, sizeof(msg), "removing %s: %s", task_dir, strerror(errno));
		fail(a, -1, errno, msg);
		status = 1;
	}
	_exit(status);
}
