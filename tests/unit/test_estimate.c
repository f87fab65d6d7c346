/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the store's lookups for reports: a run's workloads, and stored point times for the
 * plan's estimate (which run is chosen, what is left out). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "tap.h"
#include "testdb.h"
#include "util/util.h"

static char dir[] = "/tmp/reaim-estimate-XXXXXX";

/* A run of workfile `wf` with J = 10 and P = per_task: one point per task count listed, of
 * real time tasks x base seconds plus 1 s around it. */
static int64_t add_run(struct store *st, const char *label, const char *mode, const char *wf, int64_t per_task,
		       int osync, const int *tasks, size_t n, double base, int valid)
{
	struct store_run r = {.uuid = label, .label = label, .suite_name = "s", .suite_text = "",
			      .command_line = "reaim", .version = "0", .mode = mode, .seed = 1};
	int64_t run = 0, wl = 0;
	store_run_begin(st, &r, NULL, &run);
	struct store_workload w = {.name = wf, .workfile_name = wf, .workfile_text = ""};
	test_db_workload(st, run, &w, &wl, "jobs_per_task=10 repeat=2 threshold=1.5");
	for (size_t i = 0; i < n; i++) {
		struct store_point p = {.run_id = run, .workload_id = wl, .osync = osync, .tasks = tasks[i],
					.valid = valid, .jobs_per_task = per_task, .real_s = base * tasks[i],
					.overhead_s = 1.0};
		store_point_add(st, &p, NULL, 0, NULL, 0);
	}
	return run;
}

/* The estimate for workfile dbase at P = 20, O_SYNC on, J = jobs, of the n task counts listed. */
static int estimate(struct store *st, int64_t jobs, const int *tasks, size_t n, struct store_estimate *e)
{
	const struct store_estimate_ask ask = {.workfile_name = "dbase",
					       .jobs_per_task = jobs,
					       .per_task = 20,
					       .osync = 1,
					       .tasks = tasks,
					       .ntasks = n};
	return store_estimate(st, &ask, e);
}

/* The run that measured most of the asked task counts, and its times; the newest of equal coverage. */
static void estimates(struct store *st, int64_t a)
{
	static const int t12[] = {1, 2}, ask[] = {1, 2, 4};
	struct store_estimate e;
	ok(estimate(st, 10, ask, 3, &e) == 0, "estimate looked up");
	is_int(e.run_id, a, "the run that measured most of the task counts");
	is_int(e.matched, 2, "two of three task counts");
	is_str(e.label, "a", "its label");
	ok(e.started[0] != '\0', "its start time");
	is_near(e.seconds[0], 3.0, 1e-9, "1 task: real 2 s + 1 s around it");
	is_near(e.seconds[1], 5.0, 1e-9, "2 tasks: real 4 s + 1 s");
	is_near(e.seconds[2], -1, 0, "4 tasks: none stored");
	store_estimate_free(&e);

	int64_t c = add_run(st, "c", "peak", "dbase", 20, 1, t12, 2, 1.0, 1);
	ok(estimate(st, 10, ask, 3, &e) == 0 && e.run_id == c, "the newest of equal coverage");
	store_estimate_free(&e);
	ok(estimate(st, 11, ask, 3, &e) == 0 && e.run_id == 0 && e.matched == 0,
	   "another nominal jobs per task: nothing");
	store_estimate_free(&e);
	static const int dup[] = {2, 2};
	ok(estimate(st, 10, dup, 2, &e) == 0 && e.matched == 2 && e.seconds[1] == 3.0,
	   "a task count asked twice is found twice");
	store_estimate_free(&e);
}

static void workloads(struct store *st, int64_t a)
{
	struct store_workload_row *w;
	size_t n;
	ok(store_get_workloads(st, a, &w, &n) == 0 && n == 1, "a run's workloads");
	ok(strcmp(w[0].name, "dbase") == 0 && strcmp(w[0].workfile_name, "dbase") == 0 && w[0].repeat == 2 &&
	   w[0].threshold == 1.5, "name, workfile, and from the option rows the rounds and threshold");
	free(w);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	char *db = xasprintf("%s/e.db", dir), err[512];
	struct store *st;
	ok(store_open(db, &st, err, sizeof(err)) == 0, "a database");
	static const int t12[] = {1, 2}, t1[] = {1};
	int64_t a = add_run(st, "a", "sweep", "dbase", 20, 1, t12, 2, 2.0, 1);
	add_run(st, "b", "sweep", "dbase", 20, 1, t1, 1, 3.0, 1);	 /* newer, fewer task counts */
	add_run(st, "single", "single", "dbase", 20, 1, t12, 2, 9.0, 1); /* single mode: not a load point */
	add_run(st, "off", "sweep", "dbase", 20, 0, t12, 2, 9.0, 1);	 /* other O_SYNC setting */
	add_run(st, "p21", "sweep", "dbase", 21, 1, t12, 2, 9.0, 1);	 /* other P: the workfile changed */
	add_run(st, "bad", "sweep", "dbase", 20, 1, t12, 2, 9.0, 0);	 /* invalid points */
	add_run(st, "other", "sweep", "fserver", 20, 1, t12, 2, 9.0, 1); /* another workfile */
	tap_case(estimates, st, a);
	tap_case(workloads, st, a);
	store_close(st);

	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ok(system(cmd) == 0, "clean up");
	free(db);
	return done_testing();
}
