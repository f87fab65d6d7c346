/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the accounting of a point: outside load and noise from sampler figures worked by hand (with
 * wait4 alone), and, where cgroups are writable, real points through the engine: cgroup CPU against
 * wait4, and a grandchild that left the task's session and ignores SIGTERM killed and reaped at the
 * end of the point and on a stop. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/accounting.h"
#include "config/cfg.h"
#include "engine/engine.h"
#include "tap.h"
#include "testpoint.h"
#include "util/util.h"

/* ---- figures by hand ---- */

static void by_hand(void)
{
	/* 2 CPUs for 2 s: 3 CPU-seconds busy, the run's own 1 s (wait4): outside (3 - 1) / 4 = 50 % */
	struct engine_result r = {.valid = 1, .user_s = 0.75, .sys_s = 0.25, .sampled = 1};
	r.sys.avg.t_s = 2;
	r.sys.busy_cpu_s = 3;
	r.sys.ncpus = 2;
	r.sys.steal_pct = 1.5;
	r.sys.avg.read_kbs = 100;
	struct store_point p;
	memset(&p, 0, sizeof(p));
	accounting_point(NULL, &r, 10, "by hand", &p);
	is_near(p.outside_cpu_pct, 50, 1e-9, "outside = (busy 3 - own 1) / (2 CPUs x 2 s) = 50 %");
	is_near(p.steal_pct, 1.5, 0, "steal from the sampler");
	ok(p.noisy, "50 % over a 10 % limit: noisy");
	is_str(p.noise, "outside load 50.0 % of the machine", "... with the figure");
	ok(isnan(p.cgroup_cpu_s) && isnan(p.mem_peak_bytes) && isnan(p.psi_io_some_pct) && isnan(p.io_read_bytes),
	   "no cgroup: its figures are unknown (NULL when stored)");
	ok(isnan(p.outside_read_bytes), "no own I/O known: others' I/O is not guessed");
	accounting_point(NULL, &r, 60, "by hand", &p);
	ok(!p.noisy && p.noise[0] == '\0', "under a 60 % limit: not noisy");
	r.sys.steal_pct = 70;
	accounting_point(NULL, &r, 60, "by hand", &p);
	is_str(p.noise, "steal 70.0 % of CPU time", "steal over the limit is noise too");
	r.sampled = 0;
	accounting_point(NULL, &r, 10, "by hand", &p);
	ok(isnan(p.outside_cpu_pct) && isnan(p.steal_pct) && !p.noisy, "not sampled: no outside figures, no verdict");
}

/* ---- live points ---- */

/* Pids the tasks report back; shared with them. */
static pid_t *left_behind;

static void burn(double sec)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 20000; i++)
			x += (unsigned long)i ^ x;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < sec);
}

static enum test_status burns(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	(void)ctx;
	burn(0.05);
	return TEST_OK;
}

/* Leaves a process behind in a session of its own that ignores SIGTERM (once per task), then works. */
static enum test_status leaves_one(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	static int done;
	if (!done) {
		done = 1;
		pid_t pid = fork();
		if (pid == 0) {
			setsid();
			signal(SIGTERM, SIG_IGN);
			if (fork() == 0) /* its own child, orphaned on the subreaper when it dies */
				for (;;)
					pause();
			for (;;)
				pause();
		}
		left_behind[ctx->task_index] = pid;
	}
	burn(0.02);
	return TEST_OK;
}

static enum test_status leaves_one_and_hangs(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	leaves_one(ctx, self);
	pause();
	return TEST_OK;
}

static const struct test_def fake[] = {
	{"burns", burns, 1, "calls", "50 ms of CPU", 0, 0, NULL},
	{"leaves_one", leaves_one, 1, "calls", "leaves a process in a session of its own", 0, 0, NULL},
	{"leaves_one_and_hangs", leaves_one_and_hangs, 1, "calls", "leaves a process, then never returns", 0, 0, NULL},
};

/* Gone and reaped: neither running nor a zombie waiting for anyone. */
static int gone(pid_t pid)
{
	for (int i = 0; i < 200; i++) {
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return 1;
		usleep(5000);
	}
	return 0;
}

static int run(struct accounting *a, struct run_opts *o, struct engine_scratch *sc, const struct test_def *t, int tasks,
	       long long jobs, double timeout, struct engine_result *res, struct store_point *p)
{
	static struct wf_entry e;
	struct workfile wf = {.entries = &e, .count = 1};
	e = (struct wf_entry){t, 1, 1};
	o->jobs_per_task = jobs;
	struct sampler_config smp = {.interval_s = 0.05};
	struct engine_point pt = {.wf = &wf, .opts = o, .tasks = tasks, .osync = 1, .seed = 1, .timeout_s = timeout,
				  .sampler = &smp, .hook = accounting_hook(a)};
	point_facts(&pt);
	int rc = engine_run_point(&pt, sc, res);
	memset(p, 0, sizeof(*p));
	accounting_point(a, res, 10, t->name, p);
	return rc;
}

static void live(void)
{
	char base[] = "/var/tmp/reaim-acct-XXXXXX", err[256];
	if (!mkdtemp(base) || engine_init() < 0) {
		skip("live points", "no scratch dir or signal set-up");
		return;
	}
	struct run_opts o;
	run_opts_defaults(&o);
	o.filesize_kib = 64;
	o.poolsize_kib = 0;
	o.dirs.v = xcalloc(1, sizeof(char *));
	o.dirs.v[0] = xstrdup(base);
	o.dirs.count = 1;
	struct workload wl = {.opts = o};
	struct plan plan = {.wl = &wl, .nwl = 1};
	struct accounting *a = accounting_open(&plan);
	printf("# accounting: %s\n", accounting_describe(a));
	if (strncmp(accounting_describe(a), "cgroup v2", 9) != 0) {
		skip("live points", accounting_describe(a));
		accounting_close(a);
		run_opts_free(&o);
		rmdir(base);
		return;
	}
	ok(strstr(accounting_kind(a), "/reaim-") == NULL && strstr(accounting_kind(a), "cgroup v2 (") != NULL,
	   "the stored accounting fact names no run cgroup");
	printf("# fact: %s\n", accounting_kind(a));
	struct engine_scratch sc;
	if (engine_scratch_create(&o.dirs, &sc, err, sizeof(err)) < 0) {
		ok(0, "scratch created");
		accounting_close(a);
		return;
	}
	left_behind = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (left_behind == MAP_FAILED)
		abort();

	struct engine_result res;
	struct store_point p;
	run(a, &o, &sc, &fake[0], 2, 6, 120, &res, &p);
	double w4 = res.user_s + res.sys_s;
	printf("# cgroup CPU %.4f s, wait4 %.4f s, outside %.1f %%, cpu pressure some %.1f %%\n", p.cgroup_cpu_s, w4,
	       p.outside_cpu_pct, p.psi_cpu_some_pct);
	ok(res.valid && w4 >= 0.6, "a CPU-bound point ran (2 tasks x 6 x 50 ms)");
	ok(fabs(p.cgroup_cpu_s - w4) <= 0.02 * w4, "cgroup CPU agrees with wait4 within 2 %");
	ok(p.psi_cpu_some_pct >= 0 && p.psi_cpu_some_pct <= 100, "CPU pressure is a share");
	ok(p.outside_cpu_pct >= 0 && p.outside_cpu_pct <= 100, "the outside share is a share");
	engine_result_free(&res);

	run(a, &o, &sc, &fake[1], 2, 3, 120, &res, &p);
	ok(res.valid, "a point whose tasks leave a process behind");
	ok(left_behind[0] > 0 && gone(left_behind[0]) && left_behind[1] > 0 && gone(left_behind[1]),
	   "the end of the point killed them and reaped them (no zombie)");
	engine_result_free(&res);

	left_behind[0] = left_behind[1] = 0;
	run(a, &o, &sc, &fake[2], 2, 1, 0.5, &res, &p);
	ok(!res.valid, "a point stopped by its time limit");
	ok(left_behind[0] > 0 && gone(left_behind[0]) && left_behind[1] > 0 && gone(left_behind[1]),
	   "the kill of a stopped point spares no descendant");
	engine_result_free(&res);
	is_int(waitpid(-1, NULL, WNOHANG), -1, "no child of ours is left, zombie or not");

	engine_scratch_destroy(&sc);
	accounting_close(a);
	run_opts_free(&o);
	rmdir(base);
	munmap(left_behind, 4096);
}

int main(void)
{
	tap_case(by_hand);
	ok(accounting_quiet_check(0.1, 100, 1) == 0, "a 100 % limit is never passed by the quiet check");
	tap_case(live);
	return done_testing();
}
