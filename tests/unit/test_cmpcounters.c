/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks `compare --counters` on stored runs made up for it: a CPU hog beside side B costs it Jobs/Min
 * and raises context-switches and cpu-migrations per job, which are listed as moved, first, with the
 * same test and interval as verdict.c gives on the same per-job samples; an unmoved counter is not
 * listed, one that fell comes after; runs without counters say so; variants are paired by round; and
 * every format is written. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpcounters.h"
#include "analysis/cmpmodel.h"
#include "analysis/verdict.h"
#include "report/report.h"
#include "store/store.h"
#include "tap.h"
#include "testdb.h"
#include "util/util.h"

static struct store *st;

#define TASKS 4
#define JOBS 10 /* per task: a point is 40 jobs */

/* One point's counters: perf context-switches and cpu-migrations, vmstat pgfault, softirqs TIMER. */
struct fc {
	double cs, mig, pgfault, timer;
};

static int64_t fake_run(const char *label, const double *jpm, const struct fc *c, size_t n, const char *variant_a,
			const char *variant_b)
{
	int64_t wl, id = test_db_run(st, label);
	struct store_workload w = {.name = "compute", .workfile_name = "compute", .workfile_text = ""};
	test_db_workload(st, id, &w, &wl, "jobs_per_task=%lld repeat=%lld", (long long)JOBS, (long long)((int64_t)n));
	for (size_t i = 0; i < n; i++) {
		struct store_point p = {.run_id = id, .workload_id = wl, .osync = 1, .tasks = TASKS,
					.repeat = variant_a ? (int)(i / 2) : (int)i, .valid = 1, .jobs_per_task = JOBS,
					.jobs_per_min = jpm[i], .real_s = 2400.0 / jpm[i], .cpu_s = 1};
		if (variant_a)
			snprintf(p.variant, sizeof(p.variant), "%s", i % 2 ? variant_b : variant_a);
		struct store_counter k[] = {
			{.source = "perf", .name = "context-switches", .unit = "events", .value = c[i].cs, .running_pct = 100},
			{.source = "perf", .name = "cpu-migrations", .unit = "events", .value = c[i].mig, .running_pct = 100},
			{.source = "vmstat", .name = "pgfault", .unit = "events", .value = c[i].pgfault, .running_pct = NAN},
			{.source = "softirqs", .name = "TIMER", .unit = "softirqs", .value = c[i].timer, .running_pct = NAN},
		};
		store_point_add_counted(
			st, &p,
			&(const struct store_point_rows){.counters = k, .ncounters = c[i].cs < 0 ? 0 : ARRAY_SIZE(k)});
	}
	return id;
}

/* A side: three runs of three rounds each. */
static void side(const char *label, int hog, int64_t ids[3])
{
	for (int r = 0; r < 3; r++) {
		double jpm[3];
		struct fc c[3];
		for (int i = 0; i < 3; i++) {
			double wobble = (double)((r * 3 + i) % 4) - 1.5; /* run to run noise: -1.5 .. +1.5 */
			jpm[i] = (hog ? 6000 : 10000) + 40 * wobble;
			c[i] = (struct fc){.cs = (hog ? 3000 : 1000) + 20 * wobble,
					   .mig = (hog ? 400 : 40) + 4 * wobble,
					   .pgfault = 8000 + 300 * wobble * (hog ? -1 : 1), /* the same on both sides */
					   .timer = (hog ? 200 : 400) + 4 * wobble};
		}
		char l[32];
		snprintf(l, sizeof(l), "%s", label);
		ids[r] = fake_run(l, jpm, c, 3, NULL, NULL);
	}
}

static const struct counter_change *find(const struct counter_model *cm, const char *name, size_t *at)
{
	for (size_t i = 0; i < cm->nmoved; i++)
		if (strcmp(cm->moved[i].name, name) == 0) {
			if (at)
				*at = i;
			return &cm->moved[i];
		}
	return NULL;
}

static char *written_at(const struct compare_group *g, size_t n, const char *format, double alpha)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct compare_options o = {.format = format, .alpha = alpha};
	ok(report_compare_counters(f, st, g, n, &o) == 0, format);
	fclose(f);
	return buf;
}

static char *written(const struct compare_group *g, size_t n, const char *format)
{
	return written_at(g, n, format, 0.05);
}

static void groups(void)
{
	int64_t a[3], b[3];
	side("quiet", 0, a);
	side("hog", 1, b);
	struct compare_group g[2] = {{a, 3}, {b, 3}};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	struct counter_model cm;
	ok(compare_model_build(st, g, 2, &o, &m) == 0 && m.npanels == 1, "the compare model: one panel");
	ok(counter_model_build(st, &m, &cm) == 0, "the counters judged");
	is_int(cm.cells_with_counters, 1, "one cell has counters on both sides");
	is_int(cm.tested, 4, "four counters tested in it");
	size_t at_cs = 99, at_mig = 99, at_timer = 99;
	const struct counter_change *cs = find(&cm, "context-switches", &at_cs);
	const struct counter_change *mig = find(&cm, "cpu-migrations", &at_mig);
	const struct counter_change *timer = find(&cm, "TIMER", &at_timer);
	ok(cs && mig, "context-switches and cpu-migrations per job moved with the hog");
	ok(!find(&cm, "pgfault", NULL), "pgfault per job did not move: not listed");
	ok(cs && cs->explains && mig->explains && at_cs < 2 && at_mig < 2,
	   "both rose as Jobs/Min fell: listed first");
	ok(mig && cs && at_mig < at_cs, "ranked by the size of the change: migrations (+900%) before switches (+200%)");
	ok(timer && !timer->explains && at_timer == 2, "TIMER fell with Jobs/Min: listed after them");
	if (cs) {
		is_near(cs->jpm_change_pct, m.panels[0].cells[0].v.change_pct, 1e-12, "the cell's Jobs/Min change beside it");
		/* the same verdict as verdict.c on the runs' per-job means */
		double va[3], vb[3];
		for (int r = 0; r < 3; r++) {
			double sa = 0, sb = 0;
			for (int i = 0; i < 3; i++) {
				double w = (double)((r * 3 + i) % 4) - 1.5;
				sa += (1000 + 20 * w) / 40;
				sb += (3000 + 20 * w) / 40;
			}
			va[r] = sa / 3;
			vb[r] = sb / 3;
		}
		is_near(cs->v.mean_a, (va[0] + va[1] + va[2]) / 3, 1e-9, "the base's mean per job: about 1000 switches / 40 jobs");
		is_near(cs->v.mean_b, (vb[0] + vb[1] + vb[2]) / 3, 1e-9, "the other's: about 3000 / 40");
		struct verdict v;
		verdict_welch_samples(va, 3, vb, 3, 0.05, VERDICT_POWER, &v);
		ok(cs->v.na == 3 && cs->v.nb == 3 && !cs->v.paired, "Welch's test on 3 run means a side, as Jobs/Min");
		is_near(cs->v.p, v.p, 1e-15, "its p is verdict_welch_samples'");
		is_near(cs->v.ci_low_pct, v.ci_low_pct, 1e-12, "and its interval");
		ok(cs->p_adj >= cs->v.p && cs->p_adj < 0.05, "adjusted over the tests, still below alpha");
	}
	counter_model_free(&cm);
	compare_model_free(&m);

	char *t = written(g, 2, "table");
	ok(t && strstr(t, "Workload compute, O_SYNC on, 4 tasks: B against A, Jobs/Min -40.0%") &&
		   strstr(t, "> perf cpu-migrations, events per job\n      0.9833 -> 9.983, +915.3% [+862.7%, +973.9%],\n"
			     "      p 5e-10, p adj 1.5e-09, n 2\n"),
	   "table: the cell with its Jobs/Min change, the counters marked as moving against it");
	size_t longest = 0;
	for (const char *p = t; p && *p;) {
		size_t l = strcspn(p, "\n");
		longest = l > longest ? l : longest;
		p += l + (p[l] == '\n');
	}
	ok(longest <= 80, "table within 80 columns");
	free(t);
	t = written(g, 2, "csv");
	ok(t && strncmp(t, "workload,osync,variant,side,tasks,jobs_per_min_change_pct,source,name,", 70) == 0 &&
		   strstr(t, "\"compute\",on,\"\",B,4,-40.0267,\"perf\",\"cpu-migrations\",\"events\",0.983333,9.98333,915.254,"),
	   "csv: a row per moved counter");
	free(t);
	t = written(g, 2, "json");
	ok(t && strstr(t, "\"counters_tested\": 4") && strstr(t, "\"name\": \"context-switches\"") &&
		   strstr(t, "\"against_jobs_per_min\": true"),
	   "json: the moved counters with their fields");
	free(t);
	t = written(g, 2, "markdown");
	ok(t && strstr(t, "### Workload compute") && strstr(t, "| perf context-switches | events per job |"), "markdown: a table");
	free(t);
	/* the intervals are at 1 - alpha, and the headings say so */
	t = written_at(g, 2, "table", 0.1);
	ok(t && strstr(t, "change [90% interval], p, p adj, n") && !strstr(t, "95%"), "table at --alpha 0.1: 90% intervals");
	free(t);
	t = written_at(g, 2, "markdown", 0.1);
	ok(t && strstr(t, "| change [90% interval] | p | p adj | n |"), "markdown at --alpha 0.1: 90% intervals");
	free(t);

	/* runs with no counters stored: said, nothing listed */
	double jpm[2] = {100, 101};
	struct fc none[2] = {{.cs = -1}, {.cs = -1}};
	int64_t x = fake_run("bare1", jpm, none, 2, NULL, NULL), y = fake_run("bare2", jpm, none, 2, NULL, NULL);
	struct compare_group bare[2] = {{&x, 1}, {&y, 1}};
	t = written(bare, 2, "table");
	ok(t && strstr(t, "No cell compared has counters on both sides"), "runs without counters: said so");
	free(t);
}

/* One run's variants, paired round by round. */
static void variants(void)
{
	double jpm[8];
	struct fc c[8];
	for (int i = 0; i < 8; i++) {
		int b = i % 2, round = i / 2;
		jpm[i] = b ? 7000 + 13 * round : 10000 + 11 * round;
		c[i] = (struct fc){.cs = b ? 2000 + 7 * round * round : 1000 + 5 * round, .mig = 10 + round,
				   .pgfault = 500 + 3 * round, .timer = 50 + round};
	}
	int64_t id = fake_run("variants", jpm, c, 8, "base", "hog");
	struct compare_group g = {&id, 1};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	struct counter_model cm;
	ok(compare_model_build(st, &g, 1, &o, &m) == 0 && m.kind == COMPARE_VARIANTS, "a run's variants");
	ok(counter_model_build(st, &m, &cm) == 0, "their counters judged");
	const struct counter_change *cs = find(&cm, "context-switches", NULL);
	ok(cs && cs->v.paired && cs->v.na == 4 && cs->explains, "context-switches: paired over 4 rounds, against Jobs/Min");
	ok(!find(&cm, "cpu-migrations", NULL), "migrations the same in every pair: not listed");
	counter_model_free(&cm);
	compare_model_free(&m);
}

/* The point's own figures beside the counters: the sampler's iowait share (as it is, not per job) and
 * the tasks' CPU per job, from a run's variants with samples; no sampler rows where nothing sampled. */
static void point_figures(void)
{
	int64_t wl, id = test_db_run(st, "figures");
	struct store_workload w = {.name = "disk", .workfile_name = "disk", .workfile_text = ""};
	test_db_workload(st, id, &w, &wl, "jobs_per_task=%lld repeat=4", (long long)JOBS);
	for (int i = 0; i < 8; i++) {
		int b = i % 2, round = i / 2;
		double jpm = b ? 6000 + 17 * round : 9000 + 11 * round;
		struct store_point p = {.run_id = id, .workload_id = wl, .osync = 1, .tasks = TASKS, .repeat = round,
					.valid = 1, .jobs_per_task = JOBS, .jobs_per_min = jpm, .real_s = 2400.0 / jpm,
					.cpu_s = 2, .window_cpu_s = b ? 1.2 + 0.01 * round * round : 0.8 + 0.01 * round,
					.sampled = 1, .user_pct = 20 + round, .sys_pct = 10 + round % 2,
					.iowait_pct = b ? 30 + round * round : 5 + round, .idle_pct = 50 - round,
					.util_pct = 60 + round, .outside_cpu_pct = 1 + 0.1 * round,
					.psi_io_some_pct = b ? 40 + round : 10 + round * round};
		snprintf(p.variant, sizeof(p.variant), "%s", b ? "bfq" : "none");
		struct store_counter k = {.source = "vmstat", .name = "pgfault", .unit = "events", .value = 100 + round,
					  .running_pct = NAN};
		store_point_add_counted(st, &p, &(const struct store_point_rows){.counters = &k, .ncounters = 1});
	}
	struct compare_group g = {&id, 1};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	struct counter_model cm;
	ok(compare_model_build(st, &g, 1, &o, &m) == 0 && counter_model_build(st, &m, &cm) == 0,
	   "a sampled run's variants judged");
	const struct counter_change *io = find(&cm, "iowait", NULL), *cpu = find(&cm, "cpu", NULL);
	ok(io && strcmp(io->source, "sampler") == 0 && !io->per_job && io->explains,
	   "sampler iowait rose where Jobs/Min fell: listed, as a share, against Jobs/Min");
	ok(io && fabs(io->v.mean_a - 6.5) < 1e-9 && fabs(io->v.mean_b - 33.5) < 1e-9,
	   "its means are the shares themselves (6.5 % and 33.5 %), not per job");
	ok(cpu && strcmp(cpu->source, "tasks") == 0 && cpu->per_job && cpu->explains &&
	   fabs(cpu->v.mean_a - (0.8 + 0.015) / (TASKS * JOBS)) < 1e-12,
	   "the tasks' CPU over the window, per job, rose with it");
	const struct counter_change *psi = find(&cm, "io some", NULL);
	ok(psi && strcmp(psi->source, "pressure") == 0 && !psi->per_job && psi->explains,
	   "the point cgroup's I/O pressure rose with it: listed as it is");
	ok(!find(&cm, "user", NULL) && !find(&cm, "pgfault", NULL), "a share the same in every pair is not listed");
	char *t = written(&g, 1, "csv");
	ok(t && strstr(t, ",against_jobs_per_min,scaled,per_job,judged,absolute,diff,") && strstr(t, "\"sampler\",\"iowait\""),
	   "csv: the sampler's row, and whether each row is per job");
	free(t);
	t = written(&g, 1, "table");
	ok(t && strstr(t, "sampler iowait, % of the CPUs\n") && strstr(t, "tasks cpu, s per job\n"),
	   "table: a share's unit as it is, a count's per job");
	free(t);
	counter_model_free(&cm);
	compare_model_free(&m);
}

/* ---- points made to order: the compare model's selection, constant and zero-base counters, power ---- */

/* One point: its Jobs/Min, context-switches, the cgroup's throttling (thr_nr < 0: not stored), the point
 * cgroup's CPU pressure and the outside load (NaN: not measured), its round and arm, and noise. */
struct fpt {
	double jpm, cs, thr_nr, thr_us, psi, load;
	int round, arm, noisy;
};

static int64_t fake_points(const char *label, const struct fpt *pt, size_t n, const struct store_option *opts,
			   size_t nopts)
{
	int64_t wl, id = test_db_run(st, label);
	struct store_workload w = {
		.name = "compute", .workfile_name = "compute", .workfile_text = "", .options = opts, .noptions = nopts};
	test_db_workload(st, id, &w, &wl, "jobs_per_task=%lld repeat=3", (long long)JOBS);
	for (size_t i = 0; i < n; i++) {
		struct store_point p = {.run_id = id, .workload_id = wl, .osync = 1, .tasks = TASKS, .repeat = pt[i].round,
					.valid = 1, .jobs_per_task = JOBS, .jobs_per_min = pt[i].jpm,
					.real_s = 2400.0 / pt[i].jpm, .cpu_s = 1, .window_cpu_s = NAN,
					.psi_cpu_some_pct = pt[i].psi, .psi_io_some_pct = NAN, .psi_mem_some_pct = NAN,
					.io_read_bytes = NAN, .io_write_bytes = NAN};
		if (pt[i].arm >= 0)
			snprintf(p.variant, sizeof(p.variant), "%s", pt[i].arm ? "capped" : "free");
		if (isfinite(pt[i].load)) {
			p.sampled = 1;
			p.outside_cpu_pct = pt[i].load;
			p.others_demand_pct = pt[i].load;
			p.steal_pct = 0;
		}
		if (pt[i].noisy) {
			p.noisy = 1;
			snprintf(p.noise, sizeof(p.noise), "outside load 61.0 %% of the machine");
		}
		struct store_counter k[] = {
			{.source = "perf", .name = "context-switches", .unit = "events", .value = pt[i].cs, .running_pct = 100},
			{.source = "cgroup", .name = "nr_throttled", .unit = "periods", .value = pt[i].thr_nr, .running_pct = NAN},
			{.source = "cgroup", .name = "throttled_usec", .unit = "us", .value = pt[i].thr_us, .running_pct = NAN},
		};
		store_point_add_counted(st, &p,
					&(const struct store_point_rows){
						.counters = k, .ncounters = pt[i].thr_nr < 0 ? 1 : ARRAY_SIZE(k)});
	}
	return id;
}

static const struct counter_cell *only_cell(const struct counter_model *cm)
{
	return cm->ncells == 1 ? &cm->cells[0] : NULL;
}

/* --exclude-noisy: the counters are judged on the points compare judges Jobs/Min on, not on every valid one. */
static void one_selection_noisy(void)
{
	int64_t a[3], b[3];
	for (int r = 0; r < 3; r++) {
		struct fpt pa[3], pb[3];
		for (int i = 0; i < 3; i++) {
			double w = (double)((r * 3 + i) % 4) - 1.5;
			pa[i] = (struct fpt){.jpm = 10000 + 40 * w, .cs = 1000 + 20 * w, .thr_nr = -1, .psi = NAN,
					     .load = NAN, .round = i, .arm = -1};
			/* B: the same, but each run's last point was measured in noise, with 9 times the switches */
			pb[i] = pa[i];
			pb[i].jpm = 9000 + 40 * w;
			pb[i].noisy = i == 2;
			pb[i].cs = i == 2 ? 9000 : 1000 - 20 * w;
		}
		a[r] = fake_points("quiet-a", pa, 3, NULL, 0);
		b[r] = fake_points("noisy-b", pb, 3, NULL, 0);
	}
	struct compare_group g[2] = {{a, 3}, {b, 3}};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	struct counter_model cm;
	ok(compare_model_build(st, g, 2, &o, &m) == 0 && counter_model_build(st, &m, &cm) == 0, "noisy points kept");
	const struct counter_change *cs = find(&cm, "context-switches", NULL);
	ok(cs && cs->v.mean_b > cs->v.mean_a * 3, "without --exclude-noisy the noisy points' switches count");
	counter_model_free(&cm);
	compare_model_free(&m);
	o.exclude_noisy = 1;
	ok(compare_model_build(st, g, 2, &o, &m) == 0 && counter_model_build(st, &m, &cm) == 0, "--exclude-noisy");
	cs = find(&cm, "context-switches", NULL);
	ok(!cs, "with --exclude-noisy they are left out, as compare leaves them out of Jobs/Min: nothing moved");
	const struct counter_cell *cell = only_cell(&cm);
	ok(cell && cell->na == 3 && cell->nb == 3 && cell->nmoved == 0, "the cell: 3 run means a side, nothing moved");
	counter_model_free(&cm);
	compare_model_free(&m);
}

/* --precision: the counters' p values carry the cell's looks, as Jobs/Min's do. */
static void one_selection_looks(void)
{
	struct fpt pt[8];
	double va[4], vb[4];
	for (int i = 0; i < 8; i++) {
		int arm = i % 2, round = i / 2;
		pt[i] = (struct fpt){.jpm = arm ? 7000 + 13 * round : 10000 + 11 * round,
				     .cs = arm ? 2000 + 7 * round * round : 1000 + 5 * round, .thr_nr = -1, .psi = NAN,
				     .load = NAN, .round = round, .arm = arm};
		(arm ? vb : va)[round] = pt[i].cs / (TASKS * JOBS);
	}
	const struct store_option opts[] = {{.key = "precision", .item = -1, .value = "2"},
					    {.key = "max_repeat", .item = -1, .value = "8"}};
	int64_t id = fake_points("looks", pt, 8, opts, ARRAY_SIZE(opts));
	struct compare_group g = {&id, 1};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	struct counter_model cm;
	ok(compare_model_build(st, &g, 1, &o, &m) == 0 && counter_model_build(st, &m, &cm) == 0, "a --precision run");
	size_t looks = m.npanels ? m.panels[0].cells[0].looks : 0;
	ok(looks == 6, "its cell could have stopped at 6 looks (rounds 3 to 8)");
	const struct counter_change *cs = find(&cm, "context-switches", NULL);
	struct verdict v;
	verdict_paired_looks(va, vb, 4, 0.05, VERDICT_POWER, 6, &v);
	ok(cs && cs->v.paired && fabs(cs->v.p - v.p) < 1e-15 * (1 + v.p) && fabs(cs->v.diff_low - v.diff_low) < 1e-9,
	   "the counter's p is the paired test's over the same 6 looks (p times 6, interval at alpha / 6)");
	counter_model_free(&cm);
	compare_model_free(&m);
}

/* Both paired differences exactly the same: no p of 0, a constant row outside the family. */
static void constant(void)
{
	struct fpt pt[4];
	for (int i = 0; i < 4; i++) {
		int arm = i % 2, round = i / 2;
		pt[i] = (struct fpt){.jpm = arm ? 9000 + 50 * round : 10000 - 30 * round,
				     .cs = 1000 + 300 * round + (arm ? 8112 * TASKS * JOBS : 0), .thr_nr = -1,
				     .psi = NAN, .load = NAN, .round = round, .arm = arm};
	}
	int64_t id = fake_points("constant", pt, 4, NULL, 0);
	struct compare_group g = {&id, 1};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	struct counter_model cm;
	ok(compare_model_build(st, &g, 1, &o, &m) == 0 && counter_model_build(st, &m, &cm) == 0, "2 rounds of variants");
	const struct counter_change *cs = find(&cm, "context-switches", NULL);
	ok(cs && cs->kind == COUNTER_CONSTANT && isnan(cs->p_adj) && isnan(cs->n_to_show) && fabs(cs->v.diff - 8112) < 1e-9,
	   "every pair 8112 more per job: listed as constant, an exact difference with no p");
	is_int(cm.tested, 0, "and not in the family of tests");
	char *t = written(&g, 1, "table");
	ok(t && strstr(t, "exactly (constant)") && !strstr(t, "p adj 0"), "table: said constant, no p adj 0");
	free(t);
	t = written(&g, 1, "json");
	ok(t && strstr(t, "\"judged\": \"constant\"") && strstr(t, "\"p\": null, \"p_adj\": null"), "json: constant, p null");
	free(t);
	counter_model_free(&cm);
	compare_model_free(&m);
}

/* Whether n is the least samples a side at which the MDE at alpha falls below the change (Welch). */
static int least_n(double n, double var_a, double var_b, double base, double effect, double alpha)
{
	double mde[2];
	for (int k = 0; k < 2; k++) {
		double at = n - k, s = var_a + var_b;
		double df = s * s * (at - 1) / (var_a * var_a + var_b * var_b);
		mde[k] = at < 2 ? INFINITY : verdict_mde_pct(sqrt(s / at), base, df, alpha, VERDICT_POWER);
	}
	return mde[0] < effect && !(mde[1] < effect);
}

static double var_of(const double *v, size_t n)
{
	double m = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		m += v[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return ss / (double)(n - 1);
}

/* A CPU cap on B: throttling 0 on A (never judged before: a base of 0), the sides' machine always shown,
 * the throttling ranked first, and the samples a side each move needs. */
static void cap(void)
{
	int64_t a[3], b[3];
	double us_b[3], cs_a[3], cs_b[3];
	for (int r = 0; r < 3; r++) {
		struct fpt pa = {.jpm = 10000 + 30 * r, .cs = 1000 + 10 * r * r, .thr_nr = 0, .thr_us = 0, .psi = 59 + r % 2,
				 .load = 40 + 5 * r, .round = 0, .arm = -1};
		struct fpt pb = {.jpm = 4000 + 25 * r, .cs = 1200 + 9 * r, .thr_nr = 200 + 7 * r,
				 .thr_us = 1.5e6 + 1e5 * r * r, .psi = 74 - r % 2, .load = 42 + 4 * r, .round = 0, .arm = -1};
		us_b[r] = pb.thr_us / (TASKS * JOBS);
		cs_a[r] = pa.cs / (TASKS * JOBS);
		cs_b[r] = pb.cs / (TASKS * JOBS);
		a[r] = fake_points("free", &pa, 1, NULL, 0);
		b[r] = fake_points("capped", &pb, 1, NULL, 0);
	}
	struct compare_group g[2] = {{a, 3}, {b, 3}};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	struct counter_model cm;
	ok(compare_model_build(st, g, 2, &o, &m) == 0 && counter_model_build(st, &m, &cm) == 0, "a capped side");
	size_t at_us = 99, at_cs = 99;
	const struct counter_change *us = find(&cm, "throttled_usec", &at_us), *cs = find(&cm, "context-switches", &at_cs);
	ok(us && us->absolute && us->kind == COUNTER_TESTED && us->v.mean_a == 0 && isnan(us->v.change_pct),
	   "throttled_usec, 0 on the base: judged by its change per job, no %");
	struct verdict v;
	double zeros[3] = {0, 0, 0};
	double shifted_a[3], shifted_b[3];
	for (int i = 0; i < 3; i++) {
		shifted_a[i] = zeros[i] + 1e6;
		shifted_b[i] = us_b[i] + 1e6;
	}
	verdict_welch_samples(shifted_a, 3, shifted_b, 3, 0.05, VERDICT_POWER, &v);
	ok(us && fabs(us->v.diff - (us_b[0] + us_b[1] + us_b[2]) / 3) < 1e-6 && fabs(us->v.p - v.p) < 1e-12 &&
		   fabs(us->v.diff_low - v.diff_low) < 1e-6 && fabs(us->v.diff_high - v.diff_high) < 1e-6,
	   "its difference per job, t interval and p: Welch's on the values themselves");
	ok(us && us->explains && at_us < at_cs, "more throttling where Jobs/Min fell: ranked above the % changes");
	ok(us && us->machine && cs && !cs->machine && cm.tested_machine == 4 && cm.tested == 1,
	   "the machine's figures (throttling, CPU pressure, outside load; steal 0 on both sides) a family of their own");
	ok(us && us->n_to_show >= 2 && least_n(us->n_to_show, 0, var_of(us_b, 3), 1, 100 * fabs(us->v.diff),
					       0.05 / (double)cm.tested_machine),
	   "the samples a side that show it: the least n whose MDE at alpha / tests is below the change");
	ok(cs && cs->n_to_show >= 2 && isfinite(cs->n_to_show) &&
		   least_n(cs->n_to_show, var_of(cs_a, 3), var_of(cs_b, 3), cs->v.mean_a, fabs(cs->v.change_pct),
			   0.05 / (double)cm.tested),
	   "and of context-switches, from its % change");
	const struct counter_cell *cell = only_cell(&cm);
	ok(cell && cell->a.load.n == 3 && fabs(cell->a.load.mean - 45) < 1e-9 && fabs(cell->b.cpu_pressure_pct - (74 + 73 + 74) / 3.0) < 1e-9 &&
		   cell->a.nr_throttled == 0 && fabs(cell->b.throttled_s - (1.5 + 1.6 + 1.9) / 3) < 1e-9,
	   "each side's outside load, CPU pressure and throttling a point");
	char *t = written(g, 2, "table");
	ok(t && strstr(t, "  A: outside load 40-50 % (mean 45 %), CPU pressure 59 %, throttled 0 s in 0\n") &&
		   strstr(t, "> cgroup throttled_usec, us per job\n      0 -> 4.167e+04, +4.167e+04 [+2.874e+04, +5.459e+04]") &&
		   strstr(t, "from 0,\n      p "),
	   "table: the sides' machine, the throttling by its change per job");
	free(t);
	t = written(g, 2, "csv");
	ok(t && strstr(t, "\"cgroup\",\"throttled_usec\",\"us\",0,41666.7,,,,") && strstr(t, ",tested,1,41666.7,"),
	   "csv: the absolute row, no %, with its difference");
	free(t);
	t = written(g, 2, "json");
	ok(t && strstr(t, "\"cells\": [") && strstr(t, "\"cpu_pressure_pct\": 73.6667") &&
		   strstr(t, "\"absolute\": true") && strstr(t, "\"n_to_show\": "),
	   "json: the cells with each side's machine, the absolute row, n to show");
	free(t);
	counter_model_free(&cm);
	compare_model_free(&m);
}

/* Nothing moved: the sides' machine is still said. */
static void quiet_but_pressed(void)
{
	int64_t a[2], b[2];
	for (int r = 0; r < 2; r++) {
		struct fpt pa = {.jpm = 10000 + 300 * r, .cs = 1000 + 200 * r, .thr_nr = 0, .thr_us = 0, .psi = 50 + 18 * r,
				 .load = 36 + 18 * r, .round = 0, .arm = -1};
		struct fpt pb = {.jpm = 9900 + 300 * r, .cs = 1100 - 200 * r, .thr_nr = 0, .thr_us = 0, .psi = 64 + 20 * r,
				 .load = 51 + 27 * r, .round = 0, .arm = -1};
		a[r] = fake_points("pressed-a", &pa, 1, NULL, 0);
		b[r] = fake_points("pressed-b", &pb, 1, NULL, 0);
	}
	struct compare_group g[2] = {{a, 2}, {b, 2}};
	char *t = written(g, 2, "table");
	ok(t && strstr(t, "No counter moved significantly.") && strstr(t, "A: outside load 36-54 % (mean 45 %), CPU pressure 59 %") &&
		   strstr(t, "B: outside load 51-78 % (mean 64 %), CPU pressure 74 %") && strstr(t, "No counter moved here."),
	   "nothing moved, and the sides' load and CPU pressure are said all the same");
	free(t);
	t = written(g, 2, "markdown");
	ok(t && strstr(t, "- A: outside load 36-54 %"), "markdown too");
	free(t);
}

int main(void)
{
	struct test_db db;
	if (test_db_open(&db) < 0)
		return 1;
	st = db.st;
	tap_case(groups);
	tap_case(variants);
	tap_case(point_figures);
	tap_case(one_selection_noisy);
	tap_case(one_selection_looks);
	tap_case(constant);
	tap_case(cap);
	tap_case(quiet_but_pressed);
	test_db_remove(&db);
	return done_testing();
}
