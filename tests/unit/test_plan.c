/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the classic job-count rounding, reproducible job orders, per-task file sizes and the
 * number of points a plan will measure. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"
#include "tap.h"

/* Every load at once, cache among them: no_load first and each once, within LOADS_MAX. */
static void every_load(void)
{
	char *items[] = {"cache,mem,tar", "list,read,io,process,cache,no_load"};
	struct run_opts o = {0};
	o.loads.v = items;
	o.loads.count = 2;
	const char *names[LOADS_MAX];
	size_t n = plan_loads(&o, names);
	is_int((long long)n, 1 + 7, "every load: no_load and the seven others, each once");
	ok(n > 1 && strcmp(names[0], "no_load") == 0 && strcmp(names[1], "cache") == 0,
	   "every load: no_load first, then in the order given");
}

/* The classic rounding of a mix's weights to jobs, and each task's shuffled job list. */
static void jobs(struct workfile *wf)
{
	struct errlist errs = {0};
	ok(workfile_parse("mix", "10 add_int\n20 add_long\n30 sieve\n1 fork_test\n", wf, &errs) == 0, "mix parses");
	/* H = 61, J = 100: 16.4 -> 16, 32.8 -> 33, 49.2 -> 49, 1.6 -> 2 */
	is_int(plan_jobs_per_task(wf, 100), 100, "P = 16 + 33 + 49 + 2");
	/* J = 1: every listed test still runs once */
	is_int(plan_jobs_per_task(wf, 1), 4, "at least one job per listed test");

	struct job_list a, b, c;
	plan_job_list(wf, 100, 42, 0, &a);
	plan_job_list(wf, 100, 42, 0, &b);
	plan_job_list(wf, 100, 42, 1, &c);
	is_int(a.count, 100, "job list has P entries");
	ok(memcmp(a.test, b.test, a.count * sizeof(*a.test)) == 0, "same seed and task: same order");
	ok(memcmp(a.test, c.test, a.count * sizeof(*a.test)) != 0, "another task: another order");
	int counts[4] = {0};
	for (size_t i = 0; i < a.count; i++)
		counts[a.test[i]]++;
	ok(counts[0] == 16 && counts[1] == 33 && counts[2] == 49 && counts[3] == 2, "per-test counts kept");
	int sorted = 1;
	for (size_t i = 1; i < a.count; i++)
		sorted &= a.test[i] >= a.test[i - 1];
	ok(!sorted, "order is shuffled");
	job_list_free(&a);
	job_list_free(&b);
	job_list_free(&c);
	errlist_free(&errs);
}

static void file_sizes(void)
{
	struct run_opts o;
	run_opts_defaults(&o);
	o.filesize_kib = 10;
	o.poolsize_kib = 1024;
	is_int(plan_file_kib(&o, 1), 1034, "n = FILESIZE + POOLSIZE/1");
	is_int(plan_file_kib(&o, 8), 138, "n = 10 + 1024/8");
	is_int(plan_file_kib(&o, 100), 20, "n = 10 + 1024/100 (integer KiB)");
	o.poolsize_kib = 0;
	is_int(plan_file_kib(&o, 64), 10, "POOLSIZE 0: n = FILESIZE");
	run_opts_free(&o);
}

/* Points: a sweep is exact; crossover and quick at most (they stop growing at the threshold); peak
 * and single cannot say. */
static void points(void)
{
	struct workload wl[2] = {0};
	struct plan p = {.wl = wl, .nwl = 1};
	char why[256];
	size_t np, least, most;
	for (size_t i = 0; i < 2; i++)
		run_opts_defaults(&wl[i].opts);
	option_set(&wl[0].opts, option_find("tasks"), "1,2,4", why, sizeof(why));
	option_set(&wl[0].opts, option_find("repeat"), "3", why, sizeof(why));
	is_int(plan_max_tasks(&wl[0].opts), 4, "a sweep reaches its largest listed count");
	ok(plan_points(&p, &np) == PLAN_EXACT && np == 9, "sweep: 3 task counts x 3 rounds, exactly");
	option_set(&wl[0].opts, option_find("osync"), "both", why, sizeof(why));
	ok(plan_points(&p, &np) == PLAN_EXACT && np == 18, "osync both doubles them");
	option_set(&wl[0].opts, option_find("mode"), "crossover", why, sizeof(why));
	option_set(&wl[0].opts, option_find("max_tasks"), "32", why, sizeof(why));
	plan_points_range(&wl[0].opts, &least, &most);
	ok(least == 9 && most == 9 + 3 * 3, "crossover: 4 doubles to 8, 16, 32 (3 more task counts x 3 rounds)");
	is_int(plan_max_tasks(&wl[0].opts), 32, "a growing mode may reach --max-tasks");
	ok(plan_points(&p, &np) == PLAN_AT_MOST && np == 36, "crossover: at most, both O_SYNC settings");
	option_set(&wl[0].opts, option_find("max_tasks"), "100000", why, sizeof(why));
	option_set(&wl[0].opts, option_find("repeat"), "10", why, sizeof(why));
	plan_points_range(&wl[0].opts, &least, &most);
	ok(least == 30 && most == 30 + PLAN_GROW_POINTS, "growth is capped as the runner caps it");
	option_set(&wl[1].opts, option_find("mode"), "peak", why, sizeof(why));
	p.nwl = 2;
	ok(plan_points(&p, &np) == PLAN_UNKNOWN, "a peak search cannot say");
	option_set(&wl[1].opts, option_find("mode"), "single", why, sizeof(why));
	ok(plan_points(&p, &np) == PLAN_UNKNOWN, "nor single mode (calibration points)");
	is_int(plan_max_tasks(&wl[1].opts), 1, "single mode runs one task");
	for (size_t i = 0; i < 2; i++)
		run_opts_free(&wl[i].opts);
}

int main(void)
{
	struct workfile wf = {0};
	tap_case(every_load);
	tap_case(jobs, &wf);
	tap_case(file_sizes);
	tap_case(points);
	workfile_free(&wf);
	return done_testing();
}
