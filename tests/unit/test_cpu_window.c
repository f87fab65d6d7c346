/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Compare's CPU is the tasks' CPU over the measured window, as reaim's table shows it, where every
 * point compared has it; one run stored before the window was makes it the whole-life figure on
 * both sides, and the JSON and the legend say which. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpmodel.h"
#include "report/report.h"
#include "store/store.h"
#include "tap.h"
#include "testdb.h"

static struct store *st;

/* A run of 2 tasks, three repeats: whole-life CPU `life` and window CPU `window` (NaN: not stored). */
static int64_t fake_run(const char *label, double life, double window)
{
	int64_t wl, id = test_db_run(st, label);
	struct store_workload w = {.name = "compute", .workfile_name = "compute", .workfile_text = ""};
	test_db_workload(st, id, &w, &wl, "jobs_per_task=10 repeat=3");
	for (int k = 0; k < 3; k++) {
		double jpm = 1000 + 10 * k;
		struct store_point p = {.run_id = id, .workload_id = wl, .osync = 1, .tasks = 2, .repeat = k, .valid = 1,
					.jobs_per_task = 10, .jobs_per_min = jpm, .real_s = 1200.0 / jpm,
					.user_s = life / 2, .sys_s = life / 2, .cpu_s = life + 0.01 * k,
					.window_cpu_s = window + 0.01 * k};
		store_point_add(st, &p, NULL, 0, NULL, 0);
	}
	return id;
}

/* The CPU change of b against a, whether compare used the window, and whether it judged the change
 * significant (its own test, Welch on the three repeats a side). */
static double cpu_pct_of(const int64_t *a, const int64_t *b, int *window, int *significant)
{
	struct compare_group g[] = {{a, 1}, {b, 1}};
	struct compare_options co = {.alpha = 0.05};
	struct compare_model m;
	double pct = NAN;
	*significant = -1;
	if (compare_model_build(st, g, 2, &co, &m) == 0 && m.npanels && m.panels[0].ncells) {
		const struct compare_cell *c = &m.panels[0].cells[0];
		pct = c->cpu_pct;
		if (c->cpu_judged)
			*significant = c->cpu_significant;
	}
	*window = m.cpu_window;
	compare_model_free(&m);
	return pct;
}

/* The four runs the cases compare. */
struct runs {
	int64_t a, b, old, same;
};

/* The CPU change the model takes: the window's where both runs have it, else the whole lives. */
static void model(struct runs *r)
{
	int64_t a = r->a, b = r->b, old = r->old, same = r->same;
	int window, significant;
	double pct = cpu_pct_of(&a, &b, &window, &significant);
	ok(window, "both runs have the window's CPU: compare uses it");
	ok(fabs(pct - 49.5) < 0.6, "CPU change is the window's (+50 %), not the whole life's (0 %)");
	ok(significant == 1, "and judged: significant, by its own test");
	pct = cpu_pct_of(&a, &old, &window, &significant);
	ok(!window, "a run without the window's CPU: the whole life on both sides");
	ok(fabs(pct - 50) < 0.6, "CPU change is the whole life's (4 s against 6 s)");
	ok(significant == 1, "judged on the whole lives too");
	pct = cpu_pct_of(&a, &same, &window, &significant);
	ok(fabs(pct) < 1e-9 && significant == 0, "the same CPU on both sides: judged, not significant");
}

/* The JSON names the measure and its verdict; the table's legend says which; no pointer to --counters
 * where nothing moved. */
static void outputs(struct runs *r)
{
	int64_t a = r->a, b = r->b, old = r->old, same = r->same;
	struct compare_group g[] = {{&a, 1}, {&b, 1}};
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct compare_options co = {.format = "json", .alpha = 0.05};
	struct compare_result res;
	report_compare(f, st, g, 2, &co, &res);
	fclose(f);
	ok(out && strstr(out, "\"cpu\": \"window\""), "JSON names the CPU measure: window");
	ok(out && strstr(out, "\"cpu_significant\": true") && strstr(out, "\"cpu_p_adj\": "),
	   "JSON: the CPU change's adjusted p and verdict");
	free(out);
	g[1].runs = &old;
	f = open_memstream(&out, &len);
	co.format = NULL;
	co.verbose = 1; /* the legend of every column */
	report_compare(f, st, g, 2, &co, &res);
	fclose(f);
	for (char *c = out; c && *c; c++)
		*c = *c == '\n' ? ' ' : *c; /* the legend wraps where it must */
	ok(out && strstr(out, "over their whole life, set-up and tear-down included"), "the table's legend says whole life");
	ok(out && strstr(out, " +49.9%* "), "the table marks a significant CPU change (+49.9 %, whole lives)");
	free(out);
	g[1].runs = &same;
	f = open_memstream(&out, &len);
	report_compare(f, st, g, 2, &co, &res);
	fclose(f);
	ok(out && strstr(out, "within the noise") && !strstr(out, "What moved with it"),
	   "nothing significant: no pointer to --counters");
	free(out);
}

int main(void)
{
	struct test_db db;
	if (test_db_open(&db) < 0)
		return 1;
	st = db.st;
	/* the same whole-life CPU; the window's CPU half again as much on B */
	struct runs r = {fake_run("a", 4.0, 1.0), fake_run("b", 4.0, 1.5), fake_run("old", 6.0, NAN),
			 fake_run("same", 4.0, 1.0)};
	tap_case(model, &r);
	tap_case(outputs, &r);
	test_db_remove(&db);
	return done_testing();
}
