/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parent side of a load point: fork, ready/go barrier, reap with wait4, time limits,
 * stop signals, and the raw figures. Only the main thread forks. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/internal.h"
#include "util/util.h"

/* The engine's only mutable state: the signal fd and the stop signal seen. */
static int signal_fd = -1;
static volatile sig_atomic_t stop_signal;

/* Undo what the caller's dispositions, mask and umask would change in a run. A SIGCHLD the
 * caller ignored makes the kernel reap the tasks itself, so every point would wait for
 * children it can never reap until its time limit; a shell starts background jobs with SIGINT
 * ignored, and an ignored signal is dropped before signalfd can see it; a blocked signal would
 * be inherited by every task. Kept: SIGHUP ignored (nohup), SIGPIPE and SIGXFSZ (main ignores
 * them on purpose), and the job-control stops, which are the caller's terminal business. */
static void reset_inherited(void)
{
	for (int sig = 1; sig < SIGRTMIN; sig++) {
		struct sigaction old;
		if (sig == SIGKILL || sig == SIGSTOP || sig == SIGPIPE || sig == SIGXFSZ || sig == SIGTSTP ||
		    sig == SIGTTIN || sig == SIGTTOU || sigaction(sig, NULL, &old) < 0)
			continue;
		if (old.sa_handler == SIG_IGN && sig != SIGHUP)
			signal(sig, SIG_DFL);
	}
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* the owner's own bits must stay: scratch dirs are 0700 and task files 0600 */
	mode_t mask = umask(0);
	umask(mask & 077);
}

/* Every signal whose default action ends the process stops a run as SIGINT does (exit 3, nothing
 * left behind), read from the signal fd. Not here: SIGKILL and SIGSTOP (they cannot be caught),
 * SIGPIPE and SIGXFSZ (ignored on purpose: a closed reader, a full file are reported as errors), the
 * real-time signals glibc keeps for its threads (below SIGRTMIN). The faults (SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT) only when no handler is installed (a sanitizer's): sent
 * by kill they stop the run; raised by a real fault or abort() the kernel still delivers them. */
static const int stop_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO,
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};
static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT};

void engine_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaddset(set, stop_signals[i]);
	for (size_t i = 0; i < ARRAY_SIZE(fault_signals); i++) {
		struct sigaction old;
		if (sigaction(fault_signals[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
		    old.sa_handler == SIG_DFL)
			sigaddset(set, fault_signals[i]);
	}
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

int engine_init(void)
{
	reset_inherited();
	sigset_t set;
	engine_stop_signals(&set);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -1;
	signal_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return signal_fd < 0 ? -1 : 0;
}

int engine_interrupted(void) { return stop_signal; }

/* Drain the signal fd; 1 if a child changed state. */
static int read_signals(void)
{
	struct signalfd_siginfo si;
	int child = 0;
	while (read(signal_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			child = 1;
		else if (!stop_signal)
			stop_signal = (sig_atomic_t)si.ssi_signo;
	}
	return child;
}

void engine_poll_signals(void)
{
	if (signal_fd >= 0)
		read_signals();
}

/* ---- the point ---- */

struct pid_index {
	pid_t pid;
	unsigned index;
};

struct point_state {
	struct task_slot *slots;  /* the tasks' pids are in their slots */
	struct pid_index *pids;   /* made and sorted by pid after forking, for lookups while reaping */
	size_t started, alive;
	int leaving;              /* all tasks may exit (or were killed): reap them by pid, in fork order */
	int by_forker;            /* the forker forked them: it reaps them and reports their exits */
	int told_leave;           /* the forker was told to reap in fork order */
	size_t next_reap;         /* the first task of that order not reaped yet */
	int *exit_status;
	int *reaped;
	struct rusage usage;
	long long oom_kills;      /* the kernel's OOM kill count when the point began, -1 unknown */
};

/* The kernel's count of OOM kills (/proc/vmstat oom_kill, Linux 4.13+), or -1. */
static long long oom_kills(void)
{
	char *text = read_text_file("/proc/vmstat", 1 << 16);
	const char *k = text ? strstr(text, "\noom_kill ") : NULL;
	long long n = k ? strtoll(k + 10, NULL, 10) : -1;
	free(text);
	return n;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct pid_index *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void add_rusage(struct rusage *sum, const struct rusage *r)
{
	sum->ru_utime.tv_sec += r->ru_utime.tv_sec;
	sum->ru_utime.tv_usec += r->ru_utime.tv_usec;
	sum->ru_stime.tv_sec += r->ru_stime.tv_sec;
	sum->ru_stime.tv_usec += r->ru_stime.tv_usec;
}

static double tv_s(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

static double self_cpu_s(void)
{
	struct rusage r;
	return getrusage(RUSAGE_SELF, &r) == 0 ? tv_s(r.ru_utime) + tv_s(r.ru_stime) : 0;
}

static void reaped(struct point_state *st, size_t i, int status, const struct rusage *ru)
{
	st->reaped[i] = 1;
	st->exit_status[i] = status;
	add_rusage(&st->usage, ru);
	st->alive--;
}

static void forker_reaped(void *arg, const struct forker_exit *e)
{
	struct point_state *st = arg;
	struct rusage ru = {.ru_utime = {e->utime_us / 1000000, e->utime_us % 1000000},
			    .ru_stime = {e->stime_us / 1000000, e->stime_us % 1000000}};
	if (e->index < st->started && !st->reaped[e->index])
		reaped(st, e->index, e->status, &ru);
}

/* The exits the forker reported (all of them, with block); if it is gone, so are its tasks. */
static void reap_reports(struct point_state *st, int block)
{
	if (st->leaving && !st->told_leave) {
		forker_leave();
		st->told_leave = 1;
	}
	while (st->alive > 0) {
		int n = forker_read_exits(block, forker_reaped, st);
		if (n < 0) {
			struct rusage none = {0};
			for (size_t i = 0; i < st->started; i++)
				if (!st->reaped[i])
					reaped(st, i, SIGKILL, &none);
		}
		if (n == 0 && !block)
			return;
	}
}

/* Reap every task that has exited; wait4 gives each one's own CPU time. wait4(-1) walks every
 * child for each one it returns, quadratic at 10,000 tasks, so once the tasks may leave (or are
 * killed) they are reaped by pid in fork order, the kernel's direct lookup: a task not yet gone
 * stops the walk until the next SIGCHLD, and the zombies behind it are then taken in one pass. */
static void reap(struct point_state *st, int block, int in_order)
{
	if (st->by_forker) {
		reap_reports(st, block);
		return;
	}
	while (st->alive > 0) {
		int status;
		struct rusage ru;
		size_t i = st->next_reap;
		if (in_order && st->reaped[i]) {
			st->next_reap++;
			continue;
		}
		pid_t pid = wait4(in_order ? st->slots[i].pid : -1, &status, block ? 0 : WNOHANG, &ru);
		if (pid <= 0) {
			if (pid < 0 && errno == EINTR)
				continue;
			return;
		}
		if (!in_order) {
			struct pid_index key = {.pid = pid};
			struct pid_index *hit = bsearch(&key, st->pids, st->started, sizeof(key), cmp_pid);
			if (!hit || st->reaped[hit->index])
				continue;
			i = hit->index;
		}
		reaped(st, i, status, &ru);
	}
}

/* Kill every task with everything it started (its process group: fork_test's children, the
 * shell scripts and their commands), so nothing outlives the point. Only a task not yet reaped is
 * signalled: the engine alone reaps its tasks (a wait for any child elsewhere comes only once the
 * point is reaped), so an unreaped task still holds its pid, and the group it leads is its own. */
static void kill_all(struct point_state *st)
{
	/* a task that has not made its group yet is killed alone: it has started nothing */
	for (size_t i = 0; i < st->started; i++)
		if (!st->reaped[i] && kill(-st->slots[i].pid, SIGKILL) < 0)
			kill(st->slots[i].pid, SIGKILL);
}

/* Wait for children (or a signal) up to deadline_ns; returns 0 on timeout. */
static int wait_events(struct point_state *st, int extra_fd, uint64_t deadline_ns)
{
	uint64_t now = clock_now_ns();
	if (now >= deadline_ns)
		return 0;
	struct pollfd p[3] = {{.fd = signal_fd, .events = POLLIN}, {.fd = st->by_forker ? forker_fd() : -1, .events = POLLIN},
			      {.fd = extra_fd, .events = POLLIN}};
	uint64_t left_ms = (deadline_ns - now) / 1000000 + 1;
	int n = poll(p, 3, left_ms > 60000 ? 60000 : (int)left_ms);
	if (n < 0 && errno != EINTR)
		return -1;
	int child = read_signals();
	if (child && st->by_forker) /* an orphan of the tasks, adopted by reaim as their subreaper, died */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	if ((child && !st->by_forker) || (n > 0 && p[1].revents))
		reap(st, 0, st->leaving);
	return n == 0 && clock_now_ns() >= deadline_ns ? 0 : 1;
}

static void hook(const struct engine_point *pt, enum engine_event ev)
{
	if (pt->hook)
		pt->hook->fn(pt->hook->arg, ev);
}

/* Why task i of the point failed, from its slot, its failure record and its exit status. */
static void slot_reason(const struct engine_point *pt, const struct point_shm *shm, const struct point_state *st,
			unsigned i, char *out, size_t len)
{
	const struct task_slot *slot = &shm->slots[i];
	const struct task_failure *why = &shm->failures[i];
	int status = st->exit_status[i];
	long long oom = st->oom_kills >= 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? oom_kills() : -1;
	if (oom > st->oom_kills) {
		snprintf(out, len, "task %u killed by SIGKILL after %u jobs, by the OOM killer (oom_kill in "
			 "/proc/vmstat went from %lld to %lld; lower the task count or the file size)", i,
			 slot->jobs_done, st->oom_kills, oom);
		return;
	}
	if (slot->state == SLOT_FAILED) {
		const char *test = slot->fail_test >= 0 ? pt->wf->entries[slot->fail_test].test->name
							: "set-up";
		if (slot->fail_errno)
			snprintf(out, len, "task %u: %s failed: %s: %s (errno %d)", i, test, why->why,
				 strerror(slot->fail_errno), slot->fail_errno);
		else
			snprintf(out, len, "task %u: %s failed: %s", i, test, why->why);
	} else if (WIFSIGNALED(status)) {
		snprintf(out, len, "task %u killed by signal %d (%s) after %u jobs", i, WTERMSIG(status),
			 strsignal(WTERMSIG(status)), slot->jobs_done);
	} else {
		snprintf(out, len, "task %u exited with status %d after %u jobs", i,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, slot->jobs_done);
	}
}

static void invalidate(struct engine_result *res, const char *fmt, const char *what)
{
	if (!res->valid)
		return; /* keep the first reason: later ones are usually its consequences */
	res->valid = 0;
	snprintf(res->reason, sizeof(res->reason), fmt, what);
}

/* Turn what the tasks left in shared memory into the point's figures. */
static void collect(const struct engine_point *pt, struct point_shm *shm, struct point_state *st,
		    uint64_t release_ns, struct engine_result *res)
{
	size_t n = (size_t)pt->tasks;
	double *task_s = xcalloc(n, sizeof(double));
	uint64_t last = release_ns, first_start = UINT64_MAX, last_start = 0, window_cpu_ns = 0;
	char why[sizeof(res->reason)];
	for (unsigned i = 0; i < n; i++) {
		const struct task_slot *slot = &shm->slots[i];
		int ok = slot->state == SLOT_DONE && WIFEXITED(st->exit_status[i]) &&
			 WEXITSTATUS(st->exit_status[i]) == 0 && slot->jobs_done == res->jobs_per_task;
		if (!ok) {
			slot_reason(pt, shm, st, i, why, sizeof(why));
			invalidate(res, "%s", why);
			continue;
		}
		task_s[i] = (double)(slot->finish_ns - release_ns) / 1e9;
		if (slot->cpu_finish_ns > slot->cpu_start_ns)
			window_cpu_ns += slot->cpu_finish_ns - slot->cpu_start_ns;
		for (size_t e = 0; shm->perf && e < PERFCTR_MAX; e++)
			perfctr_sum(&res->perf[e], &shm->perf[i * PERFCTR_MAX + e]);
		res->perf_counted |= shm->perf != NULL;
		last = slot->finish_ns > last ? slot->finish_ns : last;
		first_start = slot->start_ns < first_start ? slot->start_ns : first_start;
		last_start = slot->start_ns > last_start ? slot->start_ns : last_start;
	}
	res->real_s = (double)(last - release_ns) / 1e9;
	res->release_skew_s = last_start >= release_ns ? (double)(last_start - release_ns) / 1e9 : 0;
	measure_spread(task_s, n, &res->spread);
	free(task_s);
	res->user_s = tv_s(st->usage.ru_utime);
	res->sys_s = tv_s(st->usage.ru_stime);
	res->window_cpu_s = (double)window_cpu_ns / 1e9;
	for (size_t t = 0; t < pt->wf->count; t++) {
		const struct shared_stats *s = &shm->stats[t];
		struct engine_test_stats *o = &res->tests[t];
		*o = (struct engine_test_stats){s->count, s->total_ns, s->min_ns, s->max_ns, 0, 0, 0, s->over_2s};
		o->p50_ns = hist_quantile(s->hist, s->count, 0.50, s->min_ns, s->max_ns);
		o->p90_ns = hist_quantile(s->hist, s->count, 0.90, s->min_ns, s->max_ns);
		o->p99_ns = hist_quantile(s->hist, s->count, 0.99, s->min_ns, s->max_ns);
	}
}

static int fork_failed(const struct engine_point *pt, unsigned i, int err, struct engine_result *res)
{
	char msg[200];
	snprintf(msg, sizeof(msg), "fork of task %u of %d failed: %s (check ulimit -u and kernel.pid_max)", i, pt->tasks,
		 strerror(err));
	invalidate(res, "%s", msg);
	res->fatal = 1;
	return -1;
}

/* Fork the tasks (or have the forker fork them); on a fork failure the point is stopped and the run
 * cannot go on. Between
 * two forks the parent writes only its stack and the shared mapping: any other page it wrote
 * would be copied once per fork, as every task forked so far still shares it. */
static int start_tasks(const struct engine_point *pt, struct task_args *proto, struct point_state *st,
		       struct engine_result *res)
{
	fflush(NULL);
	if (st->by_forker) {
		int err;
		if (forker_fork(proto, &st->started, &err) == 0) {
			st->alive = st->started;
			if (st->started == (size_t)pt->tasks)
				return 0;
			return fork_failed(pt, (unsigned)st->started, err, res);
		}
		st->by_forker = 0; /* it is gone, with nothing forked: reaim forks this point itself */
	}
	for (unsigned i = 0; i < (unsigned)pt->tasks; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return fork_failed(pt, i, errno, res);
		if (pid == 0) {
			struct task_args a = *proto;
			a.index = i;
			task_main(&a);
		}
		st->slots[i].pid = pid;
		st->started++;
		st->alive++;
	}
	return 0;
}

/* The index wait4's pids are looked up in, and the per-task reaping state: made after the
 * forks, so no task shares their pages. */
static void index_tasks(struct point_state *st)
{
	size_t n = st->started ? st->started : 1;
	st->pids = xcalloc(n, sizeof(struct pid_index));
	st->exit_status = xcalloc(n, sizeof(int));
	st->reaped = xcalloc(n, sizeof(int));
	for (size_t i = 0; i < st->started; i++)
		st->pids[i] = (struct pid_index){st->slots[i].pid, (unsigned)i};
	qsort(st->pids, st->started, sizeof(*st->pids), cmp_pid);
}

/* Tasks count themselves ready and done on eventfds the parent polls with the signal fd
 * (an eventfd write takes no sleeping lock, so a thousand tasks do not queue on it). */
static int open_counters(int *ready_fd, int *done_fd, struct engine_result *res)
{
	*ready_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	*done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (*ready_fd >= 0 && *done_fd >= 0)
		return 0;
	snprintf(res->reason, sizeof(res->reason), "eventfd: %s", strerror(errno));
	if (*ready_fd >= 0)
		close(*ready_fd);
	if (*done_fd >= 0)
		close(*done_fd);
	return -1;
}

/* Empty an eventfd the last task wrote; the count itself lives in shared memory. */
static void drain(int fd)
{
	uint64_t v;
	while (read(fd, &v, sizeof(v)) == (ssize_t)sizeof(v))
		;
}

/* Why the first task that died before the release died: its own failure (the call and errno),
 * or its signal. */
static void died_before_ready(const struct engine_point *pt, const struct point_shm *shm,
			      const struct point_state *st, struct engine_result *res)
{
	char why[sizeof(res->reason) - 40], msg[sizeof(res->reason)];
	snprintf(msg, sizeof(msg), "%s", "a task died before it was ready");
	for (size_t k = 0; k < st->started; k++) {
		unsigned i = st->pids[k].index;
		if (!st->reaped[i])
			continue;
		slot_reason(pt, shm, st, i, why, sizeof(why));
		snprintf(msg, sizeof(msg), "a task died before it was ready: %s", why);
		break;
	}
	invalidate(res, "%s", msg);
}

/* Wait until every task has counted itself ready. The eventfd is drained before the count
 * is read: the last task writes it after counting in, so either its count is in what we read
 * or its write lands after the drain and wakes the poll. (Read first, drain second, and a
 * write between the two is swallowed: the poll then sleeps to the start-up deadline.) */
static int wait_ready(const struct engine_point *pt, struct point_state *st, int ready_fd,
		      const struct point_shm *shm, struct engine_result *res)
{
	const struct point_gates *gates = shm->gates;
	double limit = pt->ready_timeout_s > 0 ? pt->ready_timeout_s : 30 + pt->tasks / 100.0;
	uint64_t deadline = clock_now_ns() + (uint64_t)(limit * 1e9);
	for (;;) {
		drain(ready_fd);
		uint32_t ready = __atomic_load_n(&gates->ready, __ATOMIC_ACQUIRE);
		if (ready >= (uint32_t)pt->tasks)
			return 0;
		if (engine_test_hook)
			engine_test_hook(ENGINE_HOOK_PARENT_CHECKED, ready);
		if (stop_signal)
			return -1;
		if (st->alive < st->started) {
			died_before_ready(pt, shm, st, res);
			return -1;
		}
		if (wait_events(st, ready_fd, deadline) == 0) {
			invalidate(res, "%s", "tasks not ready within the start-up timeout");
			return -1;
		}
	}
}

/* Wait for the tasks to finish; once each has finished or died, let them all exit. */
static int run_released(const struct engine_point *pt, struct point_state *st, int done_fd,
			struct point_gates *gates, uint64_t release_ns, struct engine_result *res)
{
	double limit = pt->timeout_s > 0 ? pt->timeout_s : 600;
	uint64_t deadline = release_ns + (uint64_t)(limit * 1e9);
	while (st->alive > 0 && !stop_signal) {
		drain(done_fd);
		uint32_t dead = (uint32_t)(st->started - st->alive);
		__atomic_store_n(&gates->dead, dead, __ATOMIC_SEQ_CST);
		size_t done = __atomic_load_n(&gates->done, __ATOMIC_SEQ_CST);
		if (!gates->leave && done + dead >= st->started) {
			hook(pt, ENGINE_FINISHED);
			gate_open(&gates->leave);
			st->leaving = 1;
		}
		int r = wait_events(st, gates->leave ? -1 : done_fd, deadline);
		if (r == 0) {
			char msg[120];
			snprintf(msg, sizeof(msg), "point timed out after %g s with %zu tasks still running",
				 limit, st->alive);
			invalidate(res, "%s", msg);
			return -1;
		}
		if (r < 0)
			return -1;
	}
	return stop_signal ? -1 : 0;
}

/* Far beyond the norm: 2 s + 2 ms a task, 10 to 50 times what starting or ending a point
 * takes on an idle machine, so only a stall (a lost wake-up, a machine swapping) trips it. */
static double phase_norm_s(int tasks) { return 2.0 + 0.002 * tasks; }

int engine_overhead_check(const struct engine_phases *ph, int tasks, char *note, size_t len)
{
	double norm = phase_norm_s(tasks);
	const char *what = NULL;
	double took = 0;
	if (ph->start_s > norm) {
		what = "from the first fork to the release (forks, the tasks' set-up, the ready barrier)";
		took = ph->start_s;
	} else if (ph->finish_s > norm) {
		what = "from the last task's finish to the last exit reaped";
		took = ph->finish_s;
	}
	if (!what)
		return 0;
	snprintf(note, len, "%.2f s %s, beyond %.1f s, the most %d tasks should take", took, what, norm,
		 tasks);
	return 1;
}

void engine_result_free(struct engine_result *res)
{
	free(res->tests);
	res->tests = NULL;
	free(res->series);
	res->series = NULL;
}

static size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

/* Once every task is ready, commit what their set-up wrote (scratch dirs, disk_src's trees)
 * to the disk: otherwise the first fsync of a measured job pays for the journal commit of
 * all of it, a stall that differs from point to point. */
static void settle(const struct engine_point *pt, const struct task_args *proto)
{
	if (!(workfile_flags(pt->wf) & TF_DISK))
		return;
	for (size_t d = 0; d < proto->nsources; d++) {
		int fd = open(proto->point_dirs[d], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || syncfs(fd) < 0)
			log_warn("syncfs %s: %s", proto->point_dirs[d], strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

/* The shared mapping's layout for n tasks; made whole now (MAP_POPULATE), so a task's first
 * touch maps pages that exist instead of allocating them, and neighbours come with it. */
static int map_point(size_t n, size_t ntests, int perf, struct point_shm *shm)
{
	size_t stats_at = sizeof(struct point_gates);
	size_t slots_at = round_up(stats_at + ntests * sizeof(struct shared_stats), 64);
	size_t failures_at = slots_at + n * sizeof(struct task_slot);
	size_t perf_at = round_up(failures_at + n * sizeof(struct task_failure), 64);
	shm->len = perf_at + (perf ? n * PERFCTR_MAX * sizeof(struct perfctr_count) : 0);
	/* a memfd rather than an anonymous mapping, so the forker can map it too */
	shm->fd = memfd_create("reaim-point", MFD_CLOEXEC);
	if (shm->fd < 0 || ftruncate(shm->fd, (off_t)shm->len) < 0) {
		if (shm->fd >= 0)
			close(shm->fd);
		return -1;
	}
	char *map = mmap(NULL, shm->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, shm->fd, 0);
	if (map == MAP_FAILED) {
		close(shm->fd);
		return -1;
	}
	shm->gates = (struct point_gates *)map;
	shm->stats = (struct shared_stats *)(map + stats_at);
	shm->slots = (struct task_slot *)(map + slots_at);
	shm->failures = (struct task_failure *)(map + failures_at);
	shm->perf = perf ? (struct perfctr_count *)(void *)(map + perf_at) : NULL;
	shm->gates->tasks = (uint32_t)n;
	return 0;
}

/* Every task's private memory: one reservation the parent never writes (see task_memory). */
static int map_task_memory(size_t jobs, size_t ntests, struct task_memory *m)
{
	long page = sysconf(_SC_PAGESIZE);
	m->jobs = jobs;
	m->bucket_offset = round_up(jobs * sizeof(uint16_t), 64);
	m->stats_offset = round_up(m->bucket_offset + jobs * sizeof(job_bucket), 64);
	m->len = round_up(m->stats_offset + ntests * sizeof(struct local_stats), page > 0 ? (size_t)page : 4096);
	m->base = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return m->base == MAP_FAILED ? -1 : 0;
}

/* Every task is ready: settle the disks, start the sampler, release the tasks together and run the
 * point to its end. 0, or -1 when its tasks must be killed; *release_ns is the release. */
static int release_point(const struct engine_point *pt, const struct task_args *proto, struct point_state *st,
			 uint64_t *release_ns, double *settle_s, struct engine_result *res)
{
	uint64_t settle_ns = clock_now_ns();
	settle(pt, proto);
	*settle_s = (double)(clock_now_ns() - settle_ns) / 1e9; /* I/O, like the set-up */
	struct sampler *smp = NULL;
	char serr[160];
	if (pt->sampler && sampler_start(pt->sampler, &smp, serr, sizeof(serr)) < 0)
		log_warn("system sampling is off for this point: %s", serr);
	hook(pt, ENGINE_RELEASE);
	*release_ns = clock_now_ns();
	gate_open(&proto->shm.gates->go);
	hook(pt, ENGINE_RELEASED);
	int rc = run_released(pt, st, proto->done_fd, proto->shm.gates, *release_ns, res);
	if (smp) {
		sampler_stop(smp, &res->sys, &res->series, &res->nseries);
		res->sampled = 1;
	}
	return rc;
}

/* Kill the tasks when the point failed (rc < 0), reap every one, and remove the SysV objects a
 * killed task held under its key (Ctrl-C inside semget): nothing of the point may outlive it. */
static void end_tasks(const struct engine_point *pt, const struct task_args *proto, struct point_state *st, int rc)
{
	if (rc < 0) {
		kill_all(st);
		hook(pt, ENGINE_KILL);
	}
	uint64_t reap_start = clock_now_ns();
	st->leaving = 1;
	reap(st, 1, 1);
	log_debug("%d tasks: last exit reaped %.1f ms after the run loop ended", pt->tasks,
		  (double)(clock_now_ns() - reap_start) / 1e6);
	for (size_t i = 0; i < st->started; i++)
		if (__atomic_load_n(&proto->shm.slots[i].ipc_busy, __ATOMIC_SEQ_CST) && proto->ipc_key)
			sysv_remove_key(proto->ipc_key + (int32_t)i);
	hook(pt, ENGINE_REAPED);
}

int engine_fork_point(const struct engine_point *pt, struct task_args *proto, struct engine_result *res)
{
	size_t n = (size_t)pt->tasks;
	struct point_shm shm;
	struct task_memory mem;
	if (map_point(n, pt->wf->count, pt->perf != NULL, &shm) < 0) {
		snprintf(res->reason, sizeof(res->reason), "mmap of %zu bytes: %s", shm.len, strerror(errno));
		return -1;
	}
	if (map_task_memory(res->jobs_per_task, pt->wf->count, &mem) < 0) {
		snprintf(res->reason, sizeof(res->reason), "mmap of %zu bytes: %s", mem.len, strerror(errno));
		munmap(shm.gates, shm.len);
		close(shm.fd);
		return -1;
	}
	int ready_fd, done_fd;
	if (open_counters(&ready_fd, &done_fd, res) < 0) {
		munmap(shm.gates, shm.len);
		close(shm.fd);
		munmap(mem.base, mem.len);
		return -1;
	}
	struct point_state st = {.slots = shm.slots, .oom_kills = oom_kills(), };
	proto->shm = shm;
	proto->mem = mem;
	proto->ready_fd = ready_fd;
	proto->done_fd = done_fd;
	proto->parent = getpid();
	st.by_forker = forker_choose(proto, pt->tasks);
	/* the SIGCHLDs of the last point's tasks, reaped without reading them, would wake the
	 * first poll of this one for nothing */
	read_signals();
	uint64_t setup_start = clock_now_ns();

	hook(pt, ENGINE_FORKING);
	double cpu0 = self_cpu_s();
	int rc = start_tasks(pt, proto, &st, res);
	/* what forking cost the process that forked: the forker's CPU, or ours */
	double fork_cpu_s = st.by_forker ? engine_forking_cpu_s() : self_cpu_s() - cpu0;
	hook(pt, ENGINE_FORKED);
	close(shm.fd);
	uint64_t forked_ns = clock_now_ns();
	index_tasks(&st);
	uint64_t release_ns = 0;
	double settle_s = 0;
	if (rc == 0 && wait_ready(pt, &st, ready_fd, &shm, res) == 0) {
		log_debug("%d tasks: forked in %.1f ms by %s, %.0f us of its CPU a fork", pt->tasks,
			  (double)(forked_ns - setup_start) / 1e6, st.by_forker ? "the forker" : "reaim",
			  fork_cpu_s * 1e6 / (double)(st.started ? st.started : 1));
		rc = release_point(pt, proto, &st, &release_ns, &settle_s, res);
	} else {
		rc = -1;
	}
	close(ready_fd);
	close(done_fd);
	end_tasks(pt, proto, &st, rc);
	if (stop_signal)
		invalidate(res, "interrupted by signal %s", strsignal(stop_signal));
	if (release_ns)
		collect(pt, &shm, &st, release_ns, res);
	else if (res->valid)
		invalidate(res, "%s", "the tasks were never released");
	uint64_t end_ns = clock_now_ns();
	res->phases.start_s = (double)((release_ns ? release_ns : end_ns) - setup_start) / 1e9 - settle_s;
	res->phases.setup_s += settle_s;
	res->phases.finish_s = release_ns ? (double)(end_ns - release_ns) / 1e9 - res->real_s : 0;
	free(st.pids);
	free(st.exit_status);
	free(st.reaped);
	munmap(shm.gates, shm.len);
	munmap(mem.base, mem.len);
	return 0;
}
