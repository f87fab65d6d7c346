/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs real load points through the engine: every registered test in a 1-task point, the
 * figures of a small multi-task point, points spoiled by failing, crashing and hanging tasks,
 * what a task inherits, scratch liveness by its lock, and SysV objects a killed task held. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config/cfg.h"
#include "engine/engine.h"
#include "engine/internal.h"
#include "tap.h"
#include "testpoint.h"
#include "util/util.h"

static enum test_status quick_ok(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	test_keep(ctx->task_index);
	return TEST_OK;
}
static enum test_status always_fails(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	return test_fail(ctx, ENOSPC, "writing %s", "f");
}
static enum test_status crashes(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	if (ctx->task_index == 1)
		raise(SIGSEGV);
	return TEST_OK;
}
/* Task 1 dies at once while the others are still working: they must still be let go. */
static enum test_status crashes_early(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	if (ctx->task_index == 1)
		raise(SIGKILL);
	usleep(50000);
	return TEST_OK;
}

/* A task that starts a child of its own and hangs: the child must die with the task. */
static pid_t *grandchild; /* shared with the tasks */

static enum test_status spawns_and_hangs(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	(void)ctx;
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	*grandchild = pid;
	pause();
	return TEST_OK;
}

/* Gone, or a zombie waiting for init: either way no longer running. */
static int not_running(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 100; i++) {
		char *stat = read_text_file(path, 4096);
		char *state = stat ? strrchr(stat, ')') : NULL;
		int done = !stat || (state && state[2] == 'Z');
		free(stat);
		if (done)
			return 1;
		usleep(10000);
	}
	return 0;
}

/* --pin: each task notes the one CPU its affinity allows (-1 when it allows several). */
static int *pinned_to; /* shared with the tasks */

static enum test_status notes_cpu(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	cpu_set_t set;
	int cpu = -1;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) == 1)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				cpu = c;
	pinned_to[ctx->task_index] = cpu;
	return TEST_OK;
}

static enum test_status hangs(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	(void)ctx;
	pause();
	return TEST_OK;
}

/* What a task must not inherit from the caller: its working directory is its own (or /),
 * files private, no core, no blocked signal, default dispositions. */
static enum test_status checks_inherited(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	char cwd[4096];
	if (!getcwd(cwd, sizeof(cwd)))
		return test_fail(ctx, errno, "getcwd");
	if (strcmp(cwd, ctx->scratch ? ctx->scratch : "/") != 0)
		return test_fail(ctx, 0, "working in %s, not %s", cwd, ctx->scratch ? ctx->scratch : "/");
	mode_t mask = umask(077);
	if (mask != 077)
		return test_fail(ctx, 0, "umask %03o", (unsigned)mask);
	struct rlimit core;
	if (getrlimit(RLIMIT_CORE, &core) < 0 || core.rlim_cur != 0)
		return test_fail(ctx, 0, "core size limit %llu", (unsigned long long)core.rlim_cur);
	sigset_t mask_now;
	sigprocmask(SIG_SETMASK, NULL, &mask_now);
	for (int sig = 1; sig < SIGRTMIN; sig++)
		if (sigismember(&mask_now, sig))
			return test_fail(ctx, 0, "signal %d blocked", sig);
	struct sigaction sa;
	if (sigaction(SIGCHLD, NULL, &sa) < 0 || sa.sa_handler == SIG_IGN || sigaction(SIGTERM, NULL, &sa) < 0 ||
	    sa.sa_handler == SIG_IGN)
		return test_fail(ctx, 0, "SIGCHLD or SIGTERM ignored");
	return TEST_OK;
}

/* Task 0 holds a semaphore set under its key and is killed before removing it (as Ctrl-C inside
 * semget would): the engine must remove it. */
static enum test_status dies_holding_sem(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	if (!ctx->ipc_busy || !ctx->ipc_key)
		return test_fail(ctx, 0, "no SysV key given to the task");
	__atomic_store_n(ctx->ipc_busy, 1, __ATOMIC_SEQ_CST);
	if (semget(ctx->ipc_key, 1, IPC_CREAT | IPC_EXCL | 0600) < 0)
		return test_fail(ctx, errno, "semget");
	raise(SIGKILL);
	return TEST_OK;
}

/* Burns 20 ms of CPU: what the window must count. */
static enum test_status spins(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	struct timespec t0, t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000ll + (t.tv_nsec - t0.tv_nsec) < 20000000ll);
	test_keep(ctx->task_index);
	return TEST_OK;
}

static const struct test_def fake[] = {
	{"quick_ok", quick_ok, 1, "calls", "returns at once", 0, 0, NULL},
	{"always_fails", always_fails, 1, "calls", "fails with ENOSPC", 0, 0, NULL},
	{"crashes", crashes, 1, "calls", "task 1 dies of SIGSEGV", 0, 0, NULL},
	{"hangs", hangs, 1, "calls", "never returns", 0, 0, NULL},
	{"crashes_early", crashes_early, 1, "calls", "task 1 is killed before the others finish", 0, 0, NULL},
	{"spawns_and_hangs", spawns_and_hangs, 1, "calls", "starts a child, then never returns", 0, 0, NULL},
	{"checks_inherited", checks_inherited, 1, "calls", "fails on inherited state", 0, 0, NULL},
	{"checks_inherited_dir", checks_inherited, 1, "calls", "the same with a scratch dir", TF_SCRATCH, 0, NULL},
	{"dies_holding_sem", dies_holding_sem, 1, "calls", "killed while holding a semaphore set", 0, 0, NULL},
	{"needs_scratch", quick_ok, 1, "calls", "returns at once, in a scratch dir", TF_SCRATCH, 0, NULL},
	{"notes_cpu", notes_cpu, 1, "calls", "notes the CPU the task is bound to", 0, 0, NULL},
	{"spins", spins, 1, "calls", "burns 20 ms of CPU", 0, 0, NULL},
};

static struct run_opts opts;
static struct engine_scratch scratch;

static void one_test_workfile(struct workfile *wf, const struct test_def *t)
{
	static struct wf_entry e;
	memset(wf, 0, sizeof(*wf));
	e = (struct wf_entry){t, 1, 1};
	wf->entries = &e;
	wf->count = 1;
}

static int run(const struct test_def *t, int tasks, long long jobs, double timeout, struct engine_result *res)
{
	struct workfile wf;
	one_test_workfile(&wf, t);
	opts.jobs_per_task = jobs;
	struct engine_point pt = {.wf = &wf, .opts = &opts, .tasks = tasks, .osync = 1, .seed = 1,
				  .timeout_s = timeout};
	point_facts(&pt);
	return engine_run_point(&pt, &scratch, res);
}

/* The events of a point as letters: F(orking) f(orked) R(elease) r(eleased) D(one: finished) K(ill) E(nd: reaped). */
static void note_event(void *arg, enum engine_event ev)
{
	static const char letter[] = {[ENGINE_FORKING] = 'F', [ENGINE_FORKED] = 'f', [ENGINE_RELEASE] = 'R',
				      [ENGINE_RELEASED] = 'r', [ENGINE_FINISHED] = 'D', [ENGINE_KILL] = 'K',
				      [ENGINE_REAPED] = 'E'};
	char *seen = arg;
	size_t n = strlen(seen);
	if (n + 1 < 16)
		seen[n] = letter[ev];
}

static void event_order(const struct test_def *ok_test, const struct test_def *hung)
{
	struct workfile wf;
	char seen[16] = "";
	struct engine_hook h = {note_event, seen};
	one_test_workfile(&wf, ok_test);
	opts.jobs_per_task = 2;
	struct engine_point pt = {.wf = &wf, .opts = &opts, .tasks = 2, .osync = 1, .seed = 1, .timeout_s = 30, .hook = &h};
	point_facts(&pt);
	struct engine_result res;
	engine_run_point(&pt, &scratch, &res);
	is_str(seen, "FfRrDE", "events: forking, forked, release, released, finished, reaped");
	engine_result_free(&res);
	memset(seen, 0, sizeof(seen));
	one_test_workfile(&wf, hung);
	opts.jobs_per_task = 1;
	point_facts(&pt);
	pt.timeout_s = 0.5;
	engine_run_point(&pt, &scratch, &res);
	is_str(seen, "FfRrKE", "events of a point killed at its time limit: no finished");
	engine_result_free(&res);
}

static int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
		     strcmp(e->d_name, ".reaim-scratch") != 0; /* the root's own marker */
	if (d)
		closedir(d);
	return d && n == 0;
}

/* Default options with one job a task and dir as the only disk dir. */
static void one_dir_opts(struct run_opts *o, const char *dir)
{
	run_opts_defaults(o);
	o->jobs_per_task = 1;
	str_list_free(&o->dirs);
	o->dirs.v = xcalloc(2, sizeof(char *));
	o->dirs.v[0] = xstrdup(dir);
	o->dirs.count = 1;
}

/* Fork failing in the middle of a point (EAGAIN from RLIMIT_NPROC): the point stops at
 * once, invalid and fatal, the tasks already started are killed and reaped. Root ignores
 * RLIMIT_NPROC, so this runs in a child that drops to an unprivileged user. */
static void fork_failure(void)
{
	if (geteuid() != 0) {
		skip("fork failure mid-point", "needs root to drop to an unprivileged user");
		return;
	}
	char dir[] = "/tmp/reaim-nproc-XXXXXX";
	if (!mkdtemp(dir) || chmod(dir, 0777) < 0) {
		ok(0, "fork failure: temp dir");
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit rl = {10, 10};
		if (setgid(65534) < 0 || setuid(65534) < 0 || setrlimit(RLIMIT_NPROC, &rl) < 0)
			_exit(10);
		struct run_opts o;
		struct engine_scratch sc;
		char err[256];
		one_dir_opts(&o, dir);
		if (engine_scratch_create(&o.dirs, &sc, err, sizeof(err)) < 0)
			_exit(11);
		struct workfile wf;
		one_test_workfile(&wf, &fake[0]);
		struct engine_point pt = {.wf = &wf, .opts = &o, .tasks = 100, .osync = 1, .seed = 1, .timeout_s = 30};
		point_facts(&pt);
		struct engine_result res;
		uint64_t t0 = clock_now_ns();
		engine_run_point(&pt, &sc, &res);
		int good = !res.valid && res.fatal && strstr(res.reason, "fork of task") != NULL &&
			   clock_now_ns() - t0 < 5000000000ull;
		engine_scratch_destroy(&sc);
		_exit(good ? 0 : 12);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "fork fails mid-point: invalid, fatal, reason given, ended at once");
	ok(dir_is_empty(dir), "fork failure: no scratch left");
	rmdir(dir);
}

/* A semaphore set with this key exists. */
static int sem_exists(int32_t key) { return semget(key, 0, 0) >= 0; }

/* Scratch liveness is the marker's lock, not a process name or pid: a live run's root
 * survives a sweep; a root whose lock nobody holds is removed, with the SysV objects its
 * tasks left under the run's keys. */
static void sweep_by_lock(const char *base)
{
	struct str_list dirs = {0};
	dirs.v = xcalloc(1, sizeof(char *));
	dirs.v[0] = xstrdup(base);
	dirs.count = 1;
	struct engine_scratch live, dead;
	char err[256];
	ok(engine_scratch_create(&dirs, &live, err, sizeof(err)) == 0 &&
	   engine_scratch_create(&dirs, &dead, err, sizeof(err)) == 0, "two scratch roots");
	ok(live.roots[0][0] == '/' && live.locks[0] >= 0, "the root is absolute and its marker locked");
	ok(live.ipc_key != 0 && !sem_exists(live.ipc_key), "a SysV key base no object uses");
	/* the dead run: its lock released without removing anything, as a SIGKILL leaves it */
	close(dead.locks[0]);
	dead.locks[0] = -1;
	int semid = semget(dead.ipc_key + 3, 1, IPC_CREAT | IPC_EXCL | 0600);
	ok(semid >= 0, "a semaphore set under the dead run's key");
	/* sweep from another process, as a later run would */
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		engine_scratch_sweep(&dirs);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	struct stat st;
	ok(stat(live.roots[0], &st) == 0, "a live run's scratch survives another run's sweep");
	ok(stat(dead.roots[0], &st) < 0 && errno == ENOENT, "a dead run's scratch is swept");
	ok(!sem_exists(dead.ipc_key + 3), "with the semaphore set its task left");
	if (semid >= 0 && sem_exists(dead.ipc_key + 3))
		semctl(semid, 0, IPC_RMID);
	engine_scratch_destroy(&dead);
	engine_scratch_destroy(&live);
	str_list_free(&dirs);
}

/* A task that dies in its set-up says why: here mkdir fails on a filesystem out of inodes
 * (a tmpfs with few, in a private mount namespace; root only). */
static void died_before_ready(void)
{
	if (geteuid() != 0) {
		skip("a task dying before it is ready says why", "needs root for a private tmpfs");
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		char dir[] = "/tmp/reaim-inodes-XXXXXX";
		if (!mkdtemp(dir))
			_exit(10);
		int rc = 20;
		if (unshare(CLONE_NEWNS) == 0 && mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
		    mount("none", dir, "tmpfs", 0, "size=1m,nr_inodes=12") == 0) {
			struct run_opts o;
			struct engine_scratch sc;
			char err[256];
			one_dir_opts(&o, dir);
			rc = 11;
			if (engine_scratch_create(&o.dirs, &sc, err, sizeof(err)) == 0) {
				struct workfile wf;
				one_test_workfile(&wf, &fake[9]);
				struct engine_point pt = {.wf = &wf, .opts = &o, .tasks = 20, .osync = 1, .seed = 1,
							  .timeout_s = 30};
				point_facts(&pt);
				struct engine_result res;
				engine_run_point(&pt, &sc, &res);
				printf("# %s\n", res.reason);
				fflush(stdout);
				rc = !res.valid && strstr(res.reason, "a task died before it was ready: task ") &&
					     strstr(res.reason, "out of inodes") && strstr(res.reason, "(errno 28)")
					 ? 0
					 : 12;
				engine_result_free(&res);
				engine_scratch_destroy(&sc);
			}
			run_opts_free(&o);
			umount(dir);
		}
		rmdir(dir);
		_exit(rc);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 20)
		skip("a task dying before it is ready says why", "cannot mount a private tmpfs here");
	else
		ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		   "a task dying before it is ready says why: the call, out of inodes, errno");
}

/* The ready barrier's worst interleaving: the last task counts in and wakes the parent after
 * the parent has read the count and before it sleeps. race[0]: the parent has read the count;
 * race[1]: the last task has counted in. */
static uint32_t *race; /* shared with the task */

static void late_last_task(enum engine_hook_at at, unsigned value)
{
	(void)value;
	switch (at) {
	case ENGINE_HOOK_TASK_COUNTING_IN:
		gate_wait(&race[0]);
		break;
	case ENGINE_HOOK_TASK_COUNTED_IN:
		gate_open(&race[1]);
		break;
	case ENGINE_HOOK_PARENT_CHECKED:
		if (!__atomic_load_n(&race[0], __ATOMIC_ACQUIRE)) {
			gate_open(&race[0]);
			gate_wait(&race[1]);
		}
		break;
	}
}

static void lost_wakeup(void)
{
	race = mmap(NULL, 2 * sizeof(uint32_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (race == MAP_FAILED) {
		ok(0, "lost wake-up: mmap");
		return;
	}
	struct workfile wf;
	one_test_workfile(&wf, &fake[0]);
	opts.jobs_per_task = 1;
	/* the start-up limit only bounds how long the old protocol's failure takes to show */
	struct engine_point pt = {.wf = &wf, .opts = &opts, .tasks = 1, .osync = 1, .seed = 1,
				  .timeout_s = 60, .ready_timeout_s = 10};
	point_facts(&pt);
	struct engine_result res;
	engine_test_hook = late_last_task;
	engine_run_point(&pt, &scratch, &res);
	engine_test_hook = NULL;
	ok(race[0] && race[1], "lost wake-up: the last task counted in between the parent's read and its sleep");
	ok(res.valid, "and the point was released at once, not left to the start-up limit");
	if (!res.valid)
		printf("# %s\n", res.reason);
	ok(!res.overhead_warning, "no overhead warning");
	engine_result_free(&res);
	munmap(race, 2 * sizeof(uint32_t));
}

/* --pin binds task i to the i-th allowed CPU, round robin; without it tasks are free. */
static void pinning(void)
{
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
		ok(0, "pin: sched_getaffinity");
		return;
	}
	int cpus[CPU_SETSIZE], ncpus = 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			cpus[ncpus++] = c;
	int tasks = ncpus + 1; /* one more than CPUs: the round robin wraps */
	pinned_to = mmap(NULL, (size_t)tasks * sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct engine_result res;
	opts.pin = 1;
	run(&fake[10], tasks, 1, 60, &res);
	opts.pin = 0;
	int good = res.valid;
	for (int i = 0; i < tasks; i++)
		good &= pinned_to[i] == cpus[i % ncpus];
	ok(good, "pin: task i runs on the i-th allowed CPU, wrapping round");
	engine_result_free(&res);
	run(&fake[10], 2, 1, 60, &res);
	ok(res.valid && (ncpus == 1 || (pinned_to[0] == -1 && pinned_to[1] == -1)), "no pin: tasks are not bound");
	engine_result_free(&res);
	munmap(pinned_to, (size_t)tasks * sizeof(int));
}

/* Tasks asked to count perf events sum them into the point (each task's own, from the release to
 * its finish). */
static void task_counters(void)
{
	int errs[PERFCTR_MAX];
	struct perfctr_task perf = {.mask = perfctr_probe(PERFCTR_ALL, -1, errs)};
	struct workfile wf;
	one_test_workfile(&wf, &fake[0]);
	opts.jobs_per_task = 20;
	struct engine_point pt = {.wf = &wf, .opts = &opts, .tasks = 3, .osync = 1, .seed = 1, .timeout_s = 60,
				  .perf = perf.mask ? &perf : NULL};
	point_facts(&pt);
	struct engine_result res;
	engine_run_point(&pt, &scratch, &res);
	ok(res.valid, "a point whose tasks count perf events");
	if (!perf.mask) {
		skip("the tasks' own perf counters", "perf_event_open refused every event");
	} else {
		ok(res.perf_counted && res.perf[0].readings == 3 && res.perf[0].value > 0,
		   "the tasks' own perf counters: task-clock read in each of 3 tasks");
		printf("# task-clock %.0f ns over 3 tasks\n", res.perf[0].value);
	}
	engine_result_free(&res);
	pt.perf = NULL;
	engine_run_point(&pt, &scratch, &res);
	ok(res.valid && !res.perf_counted, "no perf counters unless asked");
	engine_result_free(&res);
}

/* The overhead warning trips on a stalled start or finish, not on a slow flush. */
static void overhead_norm(void)
{
	char note[200];
	struct engine_phases ph = {.setup_s = 0.01, .start_s = 0.3, .finish_s = 0.1, .cleanup_s = 0.01};
	ok(!engine_overhead_check(&ph, 1000, note, sizeof(note)), "overhead: 1000 tasks in 0.4 s is normal");
	ph.start_s = 30.06;
	ok(engine_overhead_check(&ph, 90, note, sizeof(note)) && strstr(note, "30.06 s from the first fork"),
	   "overhead: a 30 s start of 90 tasks is flagged");
	printf("# %s\n", note);
	ph.start_s = 8;
	ok(!engine_overhead_check(&ph, 10000, note, sizeof(note)), "overhead: 10,000 tasks may take 8 s to start");
	ph.finish_s = 25;
	ok(engine_overhead_check(&ph, 10000, note, sizeof(note)) && strstr(note, "last exit reaped"),
	   "overhead: 25 s to reap 10,000 tasks is flagged");
	ph = (struct engine_phases){.setup_s = 40, .start_s = 0.1, .finish_s = 0.1, .cleanup_s = 60};
	ok(!engine_overhead_check(&ph, 4, note, sizeof(note)), "overhead: slow scratch I/O is not flagged");
}

/* How many children a process has now (/proc/PID/task/PID/children), -1 unknown. */
static int children_of(pid_t pid)
{
	char path[64], buf[65536];
	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	int count = 0;
	for (char *tok = strtok(buf, " \n"); tok; tok = strtok(NULL, " \n"))
		count++;
	return count;
}

struct family {
	int ours, forkers;        /* children of reaim, of the forker, at the finish */
};

static void count_family(void *arg, enum engine_event ev)
{
	struct family *f = arg;
	if (ev != ENGINE_FINISHED)
		return;
	f->ours = children_of(getpid());
	f->forkers = engine_forking_pid() > 0 ? children_of(engine_forking_pid()) : 0;
}

/* The forker forks the tasks of a real test's point: they are its children, not ours, and the point
 * is measured and ended as any; a task's crash is reported with its signal; stopped, reaim forks. */
static void forker_points(void)
{
	ok(engine_forker_start() == 0 && engine_forker_alive(), "the forker starts (reaim-forker found)");
	struct workfile wf;
	struct family fam = {-1, -1};
	struct engine_hook h = {count_family, &fam};
	one_test_workfile(&wf, test_find("add_int"));
	opts.jobs_per_task = 3;
	struct engine_point pt = {.wf = &wf, .opts = &opts, .tasks = 5, .osync = 1, .seed = 1, .timeout_s = 60, .hook = &h};
	point_facts(&pt);
	struct engine_result res;
	engine_run_point(&pt, &scratch, &res);
	ok(res.valid && res.tests[0].count == 15 && res.real_s > 0, "a point of 5 tasks forked by the forker: valid, every job counted");
	ok(engine_forking_pid() > 0 && fam.ours == 1 && fam.forkers == 5, "its tasks are the forker's children, the forker ours alone");
	printf("# children: reaim %d, the forker %d; %s\n", fam.ours, fam.forkers, res.valid ? "" : res.reason);
	ok(res.user_s + res.sys_s > 0, "the tasks' CPU time comes back from the forker");
	engine_result_free(&res);
	one_test_workfile(&wf, test_find("add_int"));
	opts.jobs_per_task = 2000000; /* seconds of work: killed at the time limit */
	point_facts(&pt);
	pt.hook = NULL;
	pt.timeout_s = 0.5;
	uint64_t t0 = clock_now_ns();
	engine_run_point(&pt, &scratch, &res);
	ok(!res.valid && strstr(res.reason, "timed out") && clock_now_ns() - t0 < 10000000000ull,
	   "a point of the forker's tasks killed at its time limit ends at once");
	ok(children_of(engine_forking_pid()) == 0, "and the forker has reaped them all");
	engine_result_free(&res);
	pid_t forker = engine_forking_pid();
	engine_forker_stop();
	ok(!engine_forker_alive() && kill(forker, 0) < 0, "the forker is stopped and reaped");
	opts.jobs_per_task = 2;
	point_facts(&pt);
	pt.timeout_s = 60;
	engine_run_point(&pt, &scratch, &res);
	ok(res.valid && engine_forking_pid() == 0, "without it reaim forks the tasks itself");
	engine_result_free(&res);
}

int main(void)
{
	char base[] = "/var/tmp/reaim-engine-XXXXXX";
	/* what a caller may leave behind: the engine must undo what would break a point (an
	 * ignored SIGCHLD made every point wait for its time limit) */
	signal(SIGCHLD, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	sigset_t blocked;
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGUSR2);
	sigaddset(&blocked, SIGALRM);
	sigprocmask(SIG_BLOCK, &blocked, NULL);
	umask(0777);
	if (!mkdtemp(base) || engine_init() < 0)
		return 1;
	char err[256];
	run_opts_defaults(&opts);
	opts.filesize_kib = 64;
	opts.poolsize_kib = 0;
	opts.dirs.v = xcalloc(1, sizeof(char *));
	opts.dirs.v[0] = xstrdup(base);
	opts.dirs.count = 1;
	ok(engine_scratch_create(&opts.dirs, &scratch, err, sizeof(err)) == 0, "scratch root created");
	ok(scratch.exec_helper && scratch.script_dir, "exec helper and scripts found");

	/* every test of the catalog succeeds once in a 1-task point */
	const struct test_def *t;
	struct engine_result res;
	for (size_t i = 0; (t = test_at(i)) != NULL; i++) {
		char what[400];
		run(t, 1, 1, 120, &res);
		snprintf(what, sizeof(what), "%s runs in a 1-task point%s%s", t->name, res.valid ? "" : ": ",
			 res.valid ? "" : res.reason);
		ok(res.valid && res.tests[0].count == 1, what);
		engine_result_free(&res);
	}

	tap_case(task_counters);

	ok(run(&fake[0], 8, 50, 60, &res) == 0 && res.valid, "8 tasks x 50 trivial jobs");
	is_int(res.jobs_per_task, 50, "P = 50");
	is_int(res.tests[0].count, 400, "every job counted once");
	ok(res.real_s > 0 && res.real_s < 10, "real time measured");
	ok(res.spread.max >= res.spread.min && res.spread.max <= res.real_s + 1e-9, "task times within real time");
	ok(res.release_skew_s >= 0 && res.release_skew_s < 5, "release skew recorded");
	engine_result_free(&res);

	/* the CPU over the measured window: every job's, none of the set-up's */
	ok(run(&fake[11], 2, 3, 60, &res) == 0 && res.valid, "2 tasks x 3 jobs of 20 ms CPU");
	ok(res.window_cpu_s >= 0.119 && res.window_cpu_s <= res.user_s + res.sys_s + 1e-6,
	   "the window's CPU holds every job's and no more than the tasks' lives");
	printf("# window %.4f s, lives %.4f s\n", res.window_cpu_s, res.user_s + res.sys_s);
	engine_result_free(&res);
	/* disk_src builds its tree of a few hundred entries before the release, removes it after */
	ok(run(test_find("disk_src"), 1, 1, 60, &res) == 0 && res.valid, "disk_src, 1 task, 1 job");
	ok(res.window_cpu_s < (res.user_s + res.sys_s) / 3,
	   "its set-up and clean-up count in the tasks' lives, not in the window's CPU");
	printf("# real %.5f s, window CPU %.5f s, lives %.5f s\n", res.real_s, res.window_cpu_s, res.user_s + res.sys_s);
	engine_result_free(&res);

	run(&fake[1], 2, 3, 60, &res);
	ok(!res.valid, "a failing job invalidates the point");
	ok(strstr(res.reason, "always_fails failed: writing f: No space left on device") != NULL, "reason names test and errno");
	printf("# %s\n", res.reason);
	engine_result_free(&res);

	run(&fake[2], 3, 2, 60, &res);
	/* any signal; under ASan its handler reports the SIGSEGV and exits 1 */
	ok(!res.valid && (strstr(res.reason, "task 1 killed by signal") || strstr(res.reason, "task 1 exited with status 1")),
	   "a crashed task invalidates the point");
	printf("# %s\n", res.reason);
	engine_result_free(&res);

	uint64_t t1 = clock_now_ns();
	run(&fake[4], 4, 3, 30, &res);
	ok(!res.valid && strstr(res.reason, "task 1 killed by signal 9") != NULL,
	   "a task killed while the others work: point invalid");
	ok(clock_now_ns() - t1 < 5000000000ull, "and the others are released at once, not at the time limit");
	engine_result_free(&res);

	grandchild = mmap(NULL, sizeof(pid_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	*grandchild = 0;
	run(&fake[5], 1, 1, 1, &res);
	ok(!res.valid && *grandchild > 0 && not_running(*grandchild),
	   "a task's own child is killed with it (its process group)");
	engine_result_free(&res);

	uint64_t t0 = clock_now_ns();
	run(&fake[3], 2, 1, 1, &res);
	ok(!res.valid && strstr(res.reason, "timed out") != NULL, "a hung task is killed at the time limit");
	ok(clock_now_ns() - t0 < 5000000000ull, "and the point ends promptly");
	engine_result_free(&res);

	/* the tasks' environment, with and without a scratch dir; the caller's SIGCHLD ignored above */
	t0 = clock_now_ns();
	run(&fake[6], 2, 2, 20, &res);
	ok(res.valid, "a task works in /, umask 077, no core, no blocked or ignored signal");
	if (!res.valid)
		printf("# %s\n", res.reason);
	ok(clock_now_ns() - t0 < 5000000000ull, "with SIGCHLD ignored by the caller, the point ends at once");
	engine_result_free(&res);
	run(&fake[7], 2, 2, 20, &res);
	ok(res.valid, "a task with a scratch dir works in it");
	if (!res.valid)
		printf("# %s\n", res.reason);
	engine_result_free(&res);

	run(&fake[8], 2, 1, 20, &res);
	ok(!res.valid && strstr(res.reason, "killed by signal 9") != NULL, "a task killed holding a semaphore set");
	ok(!sem_exists(scratch.ipc_key) && !sem_exists(scratch.ipc_key + 1), "the set is removed after the point");
	engine_result_free(&res);

	tap_case(event_order, &fake[0], &fake[3]);
	tap_case(sweep_by_lock, base);
	tap_case(died_before_ready);

	tap_case(lost_wakeup);
	tap_case(overhead_norm);
	tap_case(pinning);
	tap_case(fork_failure);
	tap_case(forker_points);
	ok(dir_is_empty(scratch.roots[0]), "no scratch left behind after the points (the root holds only its marker)");
	engine_scratch_destroy(&scratch);
	ok(rmdir(base) == 0, "scratch root removed");
	run_opts_free(&opts);
	return done_testing();
}
