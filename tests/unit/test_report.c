/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the tables a run prints and `show` reprints (rows, rounds, crossover, peak, the Max
 * line of the means, single-user rows) and the plan with its time estimate. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/noise.h"
#include "config/cfg.h"
#include "report/report.h"
#include "store/store.h"
#include "tap.h"
#include "testdb.h"
#include "util/util.h"

/* A valid point: Jobs/Min and Jobs/Min per task as given, one second of real time; 0.75 s of CPU
 * over the tasks' lives, 0.5 s of it in the measured window (what the table shows). */
static struct store_point pt(int tasks, int repeat, double jpm)
{
	struct store_point p = {.tasks = tasks, .repeat = repeat, .valid = 1, .jobs_per_min = jpm,
				.jobs_per_min_task = jpm / tasks, .real_s = 1.0, .user_s = 0.25, .sys_s = 0.5,
				.cpu_s = 0.75, .window_cpu_s = 0.5, .jobs_per_task = 60, .file_kib = 64};
	snprintf(p.workload, sizeof(p.workload), "mix");
	return p;
}

/* The whole block as text: heading, a row per point, the closing lines. */
static char *block_text(const struct report_block *b, const struct store_point *pts, size_t n, int finished)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort();
	report_block_begin(f, b);
	for (size_t i = 0; i < n; i++)
		report_block_row(f, b, &pts[i]);
	report_block_end(f, b, pts, n, finished);
	fclose(f);
	return text;
}

static void one_round(void)
{
	struct report_block b = {.plan = {.workload = "mix", .osync = 1, .mode = MODE_SWEEP, .rounds = 1}};
	struct store_point pts[] = {pt(1, 0, 100), pt(2, 0, 300), pt(4, 0, 250)};
	char *t = block_text(&b, pts, ARRAY_SIZE(pts), 1);
	is_str(t,
	       "\nWorkload mix, O_SYNC on\nTasks\tJobs/Min\tReal\tCPU\n1\t100.0\t\t1.00\t0.50\n"
	       "2\t300.0\t\t1.00\t0.50\n4\t250.0\t\t1.00\t0.50\nMax Jobs per Minute 300.0 at 2 tasks\n",
	       "one round: the classic four columns and Max line, nothing more");
	free(t);
	/* a point stored before the window was measured (NULL, read as NaN) shows what its run printed */
	pts[1].window_cpu_s = NAN;
	t = block_text(&b, pts, ARRAY_SIZE(pts), 1);
	ok(strstr(t, "\n1\t100.0\t\t1.00\t0.50\n2\t300.0\t\t1.00\t0.75\n") != NULL,
	   "CPU: the measured window, or the tasks' whole lives for a point stored without it");
	free(t);
}

static void rounds(void)
{
	struct report_block b = {.plan = {.workload = "mix", .osync = 0, .mode = MODE_SWEEP, .rounds = 3}};
	/* the best single point (300 at 1 task) is not the best mean (200 at 2 tasks) */
	struct store_point pts[] = {pt(1, 0, 100), pt(2, 0, 200), pt(1, 1, 300),
				    pt(2, 1, 190), pt(1, 2, 110), pt(2, 2, 210)};
	char *t = block_text(&b, pts, ARRAY_SIZE(pts), 1);
	ok(strstr(t, "Tasks\tJobs/Min\tReal\tCPU\tRound\n") != NULL, "rounds: a Round column");
	ok(strstr(t, "\n1\t300.0\t\t1.00\t0.50\t2/3\n") != NULL, "a row says its round");
	ok(strstr(t, "Max Jobs per Minute 200.0 at 2 tasks (mean of 3 rounds, ±12.4% at 95%)\n") != NULL,
	   "the Max line is the best mean, and says so");
	ok(strstr(t, "Means over the valid rounds:\n") != NULL, "means table titled");
	ok(strstr(t, "\n1\t170.0\t\t") != NULL && strstr(t, "\t3/3\t1.00\t0.50\n") != NULL, "mean, rounds, real, cpu");
	/* 200, 190, 210: CV 5 %, t(0.975, 2) = 4.3027, 4.3027 x 5 / sqrt(3) = 12.42 %; 100, 300, 110: 164.7 % */
	ok(strstr(t, "\n2\t200.0\t\t5.0\t12.4\t190.0\t210.0\t3/3\t") != NULL, "the 95 % interval of the mean");
	ok(strstr(t, "\n1\t170.0\t\t66.3\t164.7\t100.0\t300.0\t") != NULL, "... a wide one too");
	free(t);

	/* made with --precision over 2 looks: the interval at 0.05 / 2 each, t(0.9875, 2) = 6.2054:
	 * 6.2054 x 5 / sqrt(3) = 17.9 %, so the interval where the rounds stopped still covers with 95 % */
	struct report_block bp = b;
	bp.plan.precision = 50;
	bp.plan.looks = 2;
	t = block_text(&bp, pts, ARRAY_SIZE(pts), 1);
	ok(strstr(t, "\n2\t200.0\t\t5.0\t17.9\t190.0\t210.0\t3/3\t") != NULL, "--precision: the interval over its looks");
	ok(strstr(t, "(mean of 3 rounds, \xc2\xb1" "17.9% at 95%)") != NULL, "the Max line's too");
	ok(strstr(t, "holds over its 2 looks (each at 97.5%)") != NULL, "and the table says so");
	free(t);

	/* an invalid round is listed with its reason and left out of the mean */
	pts[3].valid = 0;
	snprintf(pts[3].reason, sizeof(pts[3].reason), "task 1 killed by signal 9");
	t = block_text(&b, pts, ARRAY_SIZE(pts), 1);
	ok(strstr(t, "\n2\tINVALID\t\t1.00\t0.5\t2/3\ttask 1 killed by signal 9\n") != NULL,
	   "invalid row: round, reason");
	ok(strstr(t, "Max Jobs per Minute 205.0 at 2 tasks (mean of 2 of 3 rounds, ±31.0% at 95%)\n") != NULL,
	   "the Max line counts the valid rounds");
	ok(strstr(t, "\t2/3\t1.00\t0.50\n") != NULL, "means table: 2 of 3 rounds valid");
	/* 200, 210: CV 3.45 %, t(0.975, 1) = 12.706: 12.706 x 3.45 / sqrt(2) = 31.0 % */
	ok(strstr(t, "\n2\t205.0\t\t3.4\t31.0\t") != NULL, "the interval of 2 valid rounds");
	free(t);

	for (size_t i = 0; i < ARRAY_SIZE(pts); i++)
		pts[i].valid = 0;
	t = block_text(&b, pts, ARRAY_SIZE(pts), 1);
	ok(strstr(t, "Max Jobs per Minute: no valid point\n") != NULL && !strstr(t, "Means"), "no valid point");
	free(t);
}

static void crossover(void)
{
	struct report_block b = {
		.plan = {.workload = "mix", .osync = 1, .mode = MODE_CROSSOVER, .rounds = 2, .threshold = 50}};
	/* per task at 4 tasks: 160/4 = 40 and 200/4 = 50, mean 45 < 50 */
	struct store_point pts[] = {pt(2, 0, 240), pt(2, 1, 260), pt(4, 0, 160), pt(4, 1, 200)};
	char *t = block_text(&b, pts, ARRAY_SIZE(pts), 1);
	ok(strstr(t, "Crossover: mean Jobs/Min per task 45.00 over 2 rounds fell below 50 at 4 tasks\n") != NULL,
	   "crossover line: the mean of the last task count's rounds");
	free(t);
	pts[3].jobs_per_min_task = 70; /* mean 55: above the threshold */
	t = block_text(&b, pts, ARRAY_SIZE(pts), 1);
	ok(!strstr(t, "Crossover"), "no crossover line while the mean stays above the threshold");
	free(t);
	b.plan.rounds = 1;
	b.plan.mode = MODE_QUICK;
	b.plan.threshold = 60;
	struct store_point one[] = {pt(1, 0, 100), pt(2, 0, 100)};
	t = block_text(&b, one, ARRAY_SIZE(one), 1);
	ok(strstr(t, "Crossover: Jobs/Min per task 50.00 fell below 60 at 2 tasks\n") != NULL,
	   "one round: classic line");
	free(t);
	b.plan.mode = MODE_SWEEP;
	t = block_text(&b, one, ARRAY_SIZE(one), 1);
	ok(!strstr(t, "Crossover"), "a sweep has no crossover line");
	free(t);
}

static void peak(void)
{
	struct report_block b = {.plan = {.workload = "mix", .osync = 1, .mode = MODE_PEAK, .rounds = 2}};
	/* measured in search order: 1, 2, 4, 8, then 3 */
	struct store_point pts[] = {pt(1, 0, 100), pt(1, 1, 100), pt(2, 0, 190), pt(2, 1, 210), pt(4, 0, 150),
				    pt(4, 1, 150), pt(8, 0, 90),  pt(8, 1, 110), pt(3, 0, 180), pt(3, 1, 180)};
	char *t = block_text(&b, pts, ARRAY_SIZE(pts), 1);
	ok(strstr(t, "Peak: 200.0 Jobs/Min at 2 tasks (mean of 2 rounds, cv 7.1%), found with 5 task counts "
		     "from 1 to 8\n") != NULL, "peak line from the points");
	ok(strstr(t, "\n8\t110.0\t\t1.00\t0.50\t2/2\n3\t180.0") != NULL, "rows in the order they ran");
	free(t);
	t = block_text(&b, pts, ARRAY_SIZE(pts), 0);
	ok(!strstr(t, "Peak:") && strstr(t, "Max Jobs per Minute 200.0 at 2 tasks"), "a stopped search claims no peak");
	free(t);
}

static void single(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort();
	struct store_point a = pt(1, 3, 0), d = pt(1, 2, 0);
	snprintf(a.workload, sizeof(a.workload), "add_int");
	snprintf(d.workload, sizeof(d.workload), "disk_wrt");
	a.jobs_per_task = 500;
	a.real_s = 2.0;
	d.jobs_per_task = 100;
	d.real_s = 0.5;
	d.file_kib = 16;
	report_single_begin(f, "mix", 0, 16);
	report_single_row(f, &a);
	report_single_row(f, &d);
	fclose(f);
	ok(strstr(text, "Single-user (AIM9) mode, workfile mix, O_SYNC off, file 16 KiB\n") != NULL, "single heading");
	ok(strstr(text, "add_int                  500      2.00        250.0") != NULL, "calls, seconds, calls/s");
	ok(strstr(text, "(3200 KiB/s)") != NULL, "a sized test's throughput: 200 calls/s x 16 KiB");
	free(text);
}

/* What --dry-run prints of a plan, with estimates from st (NULL: no database). */
static char *plan_text(const struct plan *pl, struct store *st)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort();
	struct schedule s;
	schedule_make(pl, &s);
	report_plan(f, &s, st);
	schedule_free(&s);
	fclose(f);
	return text;
}

/* The plan: every option from the table, the points and an estimate from stored runs. */
static void plan(void)
{
	struct test_db db;
	if (test_db_open(&db) < 0)
		abort();
	struct store *st = db.st;
	struct store_run r = {.uuid = "u1", .label = "k1", .suite_name = "mix", .suite_text = "",
			      .command_line = "reaim", .version = "0", .mode = "sweep", .seed = 1};
	int64_t run, wl;
	store_run_begin(st, &r, NULL, &run);
	struct store_workload w = {.name = "mix", .workfile_name = "mix", .workfile_text = ""};
	test_db_workload(st, run, &w, &wl, "jobs_per_task=10 repeat=1");
	for (int t = 1; t <= 2; t++) {
		struct store_point p = pt(t, 0, 100);
		p.run_id = run;
		p.workload_id = wl;
		p.osync = 1;
		p.jobs_per_task = 10; /* P of the mix below at J = 10: 5 + 5 */
		p.real_s = 10.0 * t;
		p.overhead_s = 0.5;
		store_point_add(st, &p, NULL, 0, NULL, 0);
	}

	struct plan pl = {.suite_name = "mix"};
	struct workload wk = {.name = "mix"};
	struct errlist errs = {0};
	ok(workfile_parse("mix", "10 add_int\n10 sieve\n", &wk.wf, &errs) == 0, "a mix");
	run_opts_defaults(&wk.opts);
	char why[256];
	option_set(&wk.opts, option_find("jobs_per_task"), "10", why, sizeof(why));
	option_set(&wk.opts, option_find("tasks"), "1,2", why, sizeof(why));
	option_set(&wk.opts, option_find("repeat"), "2", why, sizeof(why));
	pl.wl = &wk;
	pl.nwl = 1;
	char *text = plan_text(&pl, st);
	int every = 1;
	for (size_t i = 0; i < option_count; i++) {
		char *line = xasprintf("\n  %-16s ", option_table[i].key);
		every &= strstr(text, line) != NULL;
		free(line);
	}
	ok(every, "a line per option of the table");
	ok(strstr(text, "jobs per task P = 10") != NULL, "P");
	ok(strstr(text, "Points: 4 (2 task counts x 2 rounds x 1 O_SYNC setting)") != NULL, "number of points");
	/* 2 rounds x (10.5 + 20.5) s */
	ok(strstr(text, "Estimate, O_SYNC on: 1m02s, from run 1 (label k1, ") != NULL, "estimate from the stored run");
	free(text);

	/* 3 warm-up points at the first task count: 62 + 3 x 10.5 = 93.5 s */
	option_set(&wk.opts, option_find("warmup"), "3", why, sizeof(why));
	text = plan_text(&pl, st);
	ok(strstr(text, "Estimate, O_SYNC on: 1m33s with the warm-up, from run 1") != NULL, "the estimate counts the warm-up");
	free(text);
	option_set(&wk.opts, option_find("warmup"), "0", why, sizeof(why));

	option_set(&wk.opts, option_find("tasks"), "1,2,8", why, sizeof(why));
	option_set(&wk.opts, option_find("osync"), "both", why, sizeof(why));
	text = plan_text(&pl, st);
	ok(strstr(text, "Estimate, O_SYNC on: at least 1m02s, from run 1 (label k1, ") != NULL &&
	   strstr(text, "which has no point at 8 tasks") != NULL, "a partial estimate says what is missing");
	ok(strstr(text, "Estimate, O_SYNC off: none (no stored run of workfile mix with 10 jobs per task") != NULL,
	   "no stored run: no estimate");
	free(text);

	option_set(&wk.opts, option_find("jobs_per_task"), "11", why, sizeof(why));
	text = plan_text(&pl, NULL);
	ok(strstr(text, "Estimate, O_SYNC on: none (no results database)") != NULL, "no database: no estimate");
	free(text);

	workfile_free(&wk.wf);
	run_opts_free(&wk.opts);
	errlist_free(&errs);
	test_db_remove(&db);
}

/* A noisy point: its row names the noise with the figure; the block counts such points and names the
 * noisiest; the helpers compare uses answer the same. */
static void noisy(void)
{
	struct report_block b = {.plan = {.workload = "mix", .osync = 1, .mode = MODE_SWEEP, .rounds = 1}};
	struct store_point pts[] = {pt(1, 0, 100), pt(2, 0, 300), pt(4, 0, 250), pt(8, 0, 200)};
	for (size_t i = 0; i < ARRAY_SIZE(pts); i++)
		pts[i].outside_cpu_pct = pts[i].steal_pct = 0;
	pts[1].noisy = 1;
	pts[1].outside_cpu_pct = 23.4;
	snprintf(pts[1].noise, sizeof(pts[1].noise), "outside load 23.4 %% of the machine");
	pts[2].noisy = 1;
	pts[2].steal_pct = 31;
	snprintf(pts[2].noise, sizeof(pts[2].noise), "steal 31.0 %% of CPU time");
	pts[3].valid = 0; /* an invalid point is not counted, noisy or not */
	pts[3].noisy = 1;
	pts[3].outside_cpu_pct = 90;
	snprintf(pts[3].reason, sizeof(pts[3].reason), "task 0 killed");
	snprintf(pts[3].noise, sizeof(pts[3].noise), "outside load 90.0 %% of the machine");
	char *t = block_text(&b, pts, ARRAY_SIZE(pts), 1);
	is_str(t,
	       "\nWorkload mix, O_SYNC on\nTasks\tJobs/Min\tReal\tCPU\n1\t100.0\t\t1.00\t0.50\n"
	       "2\t300.0\t\t1.00\t0.50\tnoisy: outside load 23.4 % of the machine\n"
	       "4\t250.0\t\t1.00\t0.50\tnoisy: steal 31.0 % of CPU time\n8\tINVALID\t\t1.00\t0.5\ttask 0 killed\n"
	       "Max Jobs per Minute 300.0 at 2 tasks\n"
	       "Noisy: 2 of 3 valid points measured in outside load or steal, the worst steal 31.0 % of CPU time\n",
	       "noisy rows say so with the figure; the block names the worst");
	free(t);
	ok(noise_of_point(&pts[0]) == NULL, "a quiet point has no noise");
	is_str(noise_of_point(&pts[1]), "outside load 23.4 % of the machine", "a noisy point's reason");
	char why[STORE_TEXT_LEN];
	is_int((int)noise_count_points(pts, ARRAY_SIZE(pts), 0, why, sizeof(why)), 2, "two valid noisy points");
	is_str(why, "steal 31.0 % of CPU time", "... the noisiest named");
	is_int((int)noise_count_points(pts, ARRAY_SIZE(pts), 2, why, sizeof(why)), 1, "at 2 tasks: one");
	is_str(why, "outside load 23.4 % of the machine", "... its reason");
	is_int((int)noise_count_points(pts, ARRAY_SIZE(pts), 1, why, sizeof(why)), 0, "at 1 task: none");
	is_str(why, "", "... no reason");
	pts[0].noisy = 1; /* stored noisy without a reason text */
	ok(noise_of_point(&pts[0]) && strstr(noise_of_point(&pts[0]), "noise limit"), "a reason even then");
}

/* Whether every line of t from the header (the line after the heading) on ends each column where the
 * header's name of it ends: the -v table's columns line up whatever the widths of the values. */
static int columns_line_up(const char *t, size_t ncols)
{
	const char *head = strchr(t + 1, '\n') + 1, *line = head;
	size_t ends[32], k = 0, hlen = strcspn(head, "\n");
	for (size_t i = 1; i <= hlen && k < 32; i++)
		if (head[i - 1] != ' ' && (i == hlen || head[i] == ' '))
			ends[k++] = i;
	if (k != ncols)
		return 0;
	for (line = head + hlen + 1; *line && line[0] != '\n' && line[0] != 'M'; line += strcspn(line, "\n") + 1) {
		size_t len = strcspn(line, "\n");
		for (size_t c = 0; c < k; c++)
			if (ends[c] > len || line[ends[c] - 1] == ' ' || (ends[c] < len && line[ends[c]] != ' '))
				return 0;
	}
	return 1;
}

static void verbose_columns(void)
{
	struct report_block b = {.plan = {.workload = "mix", .osync = -1, .mode = MODE_SWEEP, .rounds = 100},
				 .verbose = 1};
	struct store_point pts[] = {pt(1, 0, 100), pt(1024, 99, 999999999.9), pt(2, 1, 5), pt(8, 2, 60)};
	pts[1].real_s = 0.000123, pts[1].jobs_per_min_task = 99999999.99, pts[1].window_cpu_s = 99999.99;
	pts[1].user_s = 999999.9, pts[1].sys_s = 999999.9, pts[1].max_task_s = 99999.99, pts[1].osync = 1;
	pts[2].real_s = 99999.99, pts[2].std_dev_pct = 100, pts[2].jti = 100;
	pts[3].valid = 0;
	snprintf(pts[3].reason, sizeof(pts[3].reason), "task 3 died");
	char *t = block_text(&b, pts, ARRAY_SIZE(pts), 1);
	ok(columns_line_up(t, 13), "-v: every row's columns end where the header's do, the widest values too");
	ok(strstr(t, "\n Tasks     Jobs/Min       Real       CPU    Round O_SYNC     JPM/Task  JTI StdDev%") != NULL,
	   "-v: the header, right-aligned");
	ok(strstr(t, "  task 3 died\n") != NULL, "-v: why a point is invalid, after the columns");
	free(t);
	b.verbose = 0;
	t = block_text(&b, pts, 1, 1);
	ok(strstr(t, "Tasks\tJobs/Min\tReal\tCPU\tRound\tO_SYNC\n1\t100.0\t\t1.00\t0.50\t1/100\toff\n") != NULL,
	   "the plain table stays tab-separated");
	free(t);
}

int main(void)
{
	tap_case(one_round);
	tap_case(verbose_columns);
	tap_case(noisy);
	tap_case(rounds);
	tap_case(crossover);
	tap_case(peak);
	tap_case(single);
	tap_case(plan);
	return done_testing();
}
