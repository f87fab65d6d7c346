/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One database of groups of runs, judged by every output: compare's JSON, the report's verdict and
 * tables, and the plot's difference points must carry the same numbers, because each renders the one
 * comparison model. Three runs a side, whose newest runs alone would say something else. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/cmpmodel.h"
#include "report/html.h"
#include "report/plot.h"
#include "report/report.h"
#include "store/store.h"
#include "tap.h"
#include "testdb.h"
#include "util/util.h"

static struct store *st;

/* A run of workload dbase at 1, 2 and 4 tasks, two repeats each: Jobs/Min level * tasks, +-spread. */
static int64_t fake_run(const char *label, double level, double spread)
{
	int64_t wl, id = test_db_run(st, label);
	struct store_workload w = {.name = "dbase", .workfile_name = "dbase", .workfile_text = ""};
	test_db_workload(st, id, &w, &wl, "jobs_per_task=10 repeat=2");
	for (int t = 1; t <= 4; t *= 2)
		for (int k = 0; k < 2; k++) {
			double v = level * t + (k ? spread : -spread);
			struct store_point p = {.run_id = id, .workload_id = wl, .osync = 1, .tasks = t, .repeat = k,
						.valid = 1, .jobs_per_task = 10, .jobs_per_min = v, .real_s = 600.0 / v,
						.user_s = 1, .sys_s = 1, .cpu_s = 2,
						.window_cpu_s = 600.0 / v + 0.01 * k};
			struct store_test tt[] = {{.name = "big", .count = 10, .total_s = 6000.0 / v},
						  {.name = "small", .count = 10, .total_s = 0.5}};
			store_point_add(st, &p, tt, 2, NULL, 0);
		}
	return id;
}

/* ok() with a formatted description. */
#define okf(cond, ...)                                                                            \
	do {                                                                                       \
		char what_[160];                                                                   \
		snprintf(what_, sizeof(what_), __VA_ARGS__);                                       \
		tap_ok(!!(cond), __FILE__, __LINE__, what_);                                       \
	} while (0)

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int c;
	while ((c = fgetc(f)) != EOF)
		fputc(c, mem);
	fclose(f);
	fclose(mem);
	return buf;
}

/* The number after `key` in the text from `from` on, NaN when absent or null; *next past it. */
static double number_after(const char *from, const char *key, const char **next)
{
	const char *s = from ? strstr(from, key) : NULL;
	if (!s)
		return NAN;
	s += strlen(key);
	char *end;
	double v = strtod(s, &end);
	if (next)
		*next = end;
	return end == s ? NAN : v;
}

/* The JSON row of one task count, and its first byte. */
static const char *json_row(const char *json, int tasks)
{
	char key[32];
	snprintf(key, sizeof(key), "\"tasks\": %d,", tasks);
	return json ? strstr(json, key) : NULL;
}

/* The HTML table row of one task count of the first panel. */
static const char *html_row(const char *html, int tasks)
{
	char key[32];
	snprintf(key, sizeof(key), "<tr><td>%d</td>", tasks);
	const char *table = html ? strstr(html, "% interval</th>") : NULL;
	return table ? strstr(table, key) : NULL;
}

static const char *svg_point(const char *svg, int tasks)
{
	char key[32];
	snprintf(key, sizeof(key), "data-tasks=\"%d\"", tasks);
	return svg ? strstr(svg, key) : NULL;
}

/* A run made with --load io at 2 tasks, two rounds: no_load and io interleaved, io's units and CPU. */
static int64_t fake_load_run(void)
{
	int64_t wl, id = test_db_run(st, "loaded");
	struct store_workload w = {.name = "dbase", .workfile_name = "dbase", .workfile_text = ""};
	test_db_workload(st, id, &w, &wl, "jobs_per_task=10 repeat=2");
	for (int k = 0; k < 2; k++)
		for (int l = 0; l < 2; l++) {
			double v = l ? 800 + 10 * k : 1000 + 20 * k;
			struct store_point p = {.run_id = id, .workload_id = wl, .osync = 1, .tasks = 2, .repeat = k,
						.valid = 1, .jobs_per_task = 10, .jobs_per_min = v, .real_s = 600.0 / v,
						.user_s = 1, .sys_s = 1, .cpu_s = 2, .window_cpu_s = 600.0 / v,
						.load_units = l ? 300 + 40 * k : NAN, .load_cpu_pct = l ? 20 + 4 * k : NAN,
						.load_read_bytes = NAN, .load_write_bytes = NAN};
			snprintf(p.load, sizeof(p.load), "%s", l ? "io" : "no_load");
			struct store_test tt[] = {{.name = "big", .count = 10, .total_s = 6000.0 / v}};
			store_point_add(st, &p, tt, 1, NULL, 0);
		}
	return id;
}

/* A run's loads in compare's JSON, the report's cell table and the plot: the same contest figures,
 * and a curve per load. */
static void loads_views(const char *dir)
{
	int64_t r = fake_load_run();
	struct compare_group g[] = {{&r, 1}};
	char *json = NULL, *html = NULL, err[256], path[128];
	size_t len = 0;
	FILE *f = open_memstream(&json, &len);
	struct compare_options co = {.format = "json", .alpha = 0.05};
	struct compare_result res;
	is_int(report_compare(f, st, g, 1, &co, &res), 0, "loads: compare --format json of the run");
	fclose(f);
	f = open_memstream(&html, &len);
	struct html_options ho = {.alpha = 0.05};
	is_int(report_html(f, st, g, 1, &ho, err, sizeof(err)), 0, "loads: report of the run");
	fclose(f);
	snprintf(path, sizeof(path), "%s/loads.svg", dir);
	struct plot_request rq = {.groups = g, .ngroups = 1, .alpha = 0.05, .osync = -1, .out = path};
	is_int(report_plot(st, &rq, err, sizeof(err)), 0, "loads: plot of the run");
	char *svg = slurp(path);
	unlink(path);
	const char *jr = json_row(json, 2), *hr = html_row(html, 2);
	static const char *const keys[][2] = {{"\"time_ratio\": ", "data-time-ratio=\""},
					      {"\"loads_other\": ", "data-loads-b=\""},
					      {"\"lcpu_pct_other\": ", "data-lcpu-b=\""}};
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		double j = number_after(jr, keys[i][0], NULL), h = number_after(hr, keys[i][1], NULL);
		okf(isfinite(j) && fabs(h - j) < 1e-4 * fmax(1, fabs(j)), "loads: the report's %s is compare's (%g, %g)",
		    keys[i][1], h, j);
	}
	ok(fabs(number_after(jr, "\"loads_other\": ", NULL) - 320) < 1e-9, "loads: io's mean units, 320");
	ok(html && strstr(html, "<th>A Loads</th><th>A LCPU%</th><th>B Loads</th><th>B LCPU%</th>"),
	   "loads: the report's table has contest's columns");
	ok(svg && strstr(svg, "loaded (run 7, no_load)") && strstr(svg, "loaded (run 7, io)"),
	   "loads: the plot draws a curve per load");
	free(json);
	free(html);
	free(svg);
}

/* What each view of the one model renders, from the same groups of runs. */
struct views {
	char *json, *html, *svg;
};

/* Every view names each side by its group, with its runs. */
static void sides_named(const struct views *v)
{
	const char *json = v->json, *html = v->html, *svg = v->svg;
	ok(json && strstr(json, "\"runs\": [1, 2, 3]") && strstr(json, "\"runs\": [4, 5, 6]"),
	   "compare: every run of each group is a side's");
	ok(html && strstr(html, "A: old (runs 1, 2, 3)") && strstr(html, "B: new (runs 4, 5, 6)"),
	   "report: each side named by its group, with its runs");
	ok(html && strstr(html, "<title>reaim report: old vs new</title>"), "report: titled by the groups, once each");
	ok(svg && strstr(svg, "A: old (runs 1, 2, 3)") && strstr(svg, "B: new (runs 4, 5, 6)"),
	   "plot: a curve per group, named by it");
}

/* At each task count the report and the plot show compare's change, interval and adjusted p. */
static void same_numbers(const struct views *v)
{
	const char *json = v->json, *html = v->html, *svg = v->svg;
	for (int t = 1; t <= 4; t *= 2) {
		const char *jr = json_row(json, t), *hr = html_row(html, t), *sp = svg_point(svg, t);
		char what[64];
		snprintf(what, sizeof(what), "%d task%s: ", t, t == 1 ? "" : "s");
		double j_pct = number_after(jr, "\"pct\": ", NULL), j_lo = number_after(jr, "\"ci_low_pct\": ", NULL),
		       j_hi = number_after(jr, "\"ci_high_pct\": ", NULL), j_padj = number_after(jr, "\"p_adj\": ", NULL);
		double h_pct = number_after(hr, "data-pct=\"", NULL), h_lo = number_after(hr, "data-lo=\"", NULL),
		       h_hi = number_after(hr, "data-hi=\"", NULL), h_padj = number_after(hr, "data-p-adj=\"", NULL);
		double s_pct = number_after(sp, "data-pct=\"", NULL), s_lo = number_after(sp, "data-lo=\"", NULL),
		       s_hi = number_after(sp, "data-hi=\"", NULL);
		okf(isfinite(j_pct) && isfinite(j_lo) && isfinite(j_hi), "%scompare has the change and its interval", what);
		okf(fabs(h_pct - j_pct) < 1e-3 && fabs(h_lo - j_lo) < 1e-3 && fabs(h_hi - j_hi) < 1e-3,
		   "%sthe report's table: the same change and interval (%.4f [%.4f, %.4f])", what, h_pct, h_lo, h_hi);
		okf(fabs(h_padj - j_padj) < 1e-5 * fmax(1, j_padj), "%sthe report's table: the same adjusted p", what);
		double j_cpu = number_after(jr, "\"cpu_pct\": ", NULL), h_cpu = number_after(hr, "data-cpu-pct=\"", NULL);
		double j_cpu_padj = number_after(jr, "\"cpu_p_adj\": ", NULL),
		       h_cpu_padj = number_after(hr, "data-cpu-p-adj=\"", NULL);
		okf(isfinite(j_cpu) && fabs(h_cpu - j_cpu) < 1e-3 && fabs(h_cpu_padj - j_cpu_padj) < 1e-5 * fmax(1, j_cpu_padj),
		    "%sthe report's CPU change and its adjusted p are compare's (%.4f, %.4g)", what, j_cpu, j_cpu_padj);
		okf(fabs(s_pct - j_pct) < 1e-3 && fabs(s_lo - j_lo) < 1e-3 && fabs(s_hi - j_hi) < 1e-3,
		   "%sthe plot's difference point: the same change and interval", what);
	}
	const char *jbig = json ? strstr(json, "\"test\": \"big\"") : NULL;
	double j_share = number_after(jbig, "\"share_pct\": ", NULL);
	double h_share = number_after(html ? strstr(html, "<td class=\"l\">big</td>") : NULL, "data-share=\"", NULL);
	okf(isfinite(j_share) && fabs(h_share - j_share) < 1e-3,
	    "subtest big: the report's share is compare's, sign and all (%.4f, %.4f)", h_share, j_share);
}

/* The report's verdict is compare's one line, and nothing is marked as changed. */
static void same_verdict(const struct views *v)
{
	const char *json = v->json, *html = v->html;
	/* the one line: the JSON's summary is the report's verdict, word for word */
	const char *jl = json ? strstr(json, "\"line\": \"") : NULL;
	char line[512] = "";
	if (jl)
		sscanf(jl + strlen("\"line\": \""), "%511[^\"]", line);
	ok(line[0] && strstr(line, "B is within the noise of A at all 3 task counts (95 %, Holm"),
	   "compare's JSON: the panel's one line");
	ok(line[0] && html && strstr(html, line), "the report's verdict says the same line");
	int any_significant = json && strstr(json, "\"significant\": true") != NULL;
	ok(!any_significant, "compare: with every run, nothing is significant");
	ok(html && strstr(html, "<span class=\"badge unchanged\">no significant change</span>"),
	   "report: the same verdict, not the newest runs' regression");
	ok(html && !strstr(html, "class=\"down\"") && !strstr(html, "class=\"up\""), "report: no cell marked as changed");
}

int main(void)
{
	struct test_db db;
	if (test_db_open(&db) < 0)
		return 1;
	st = db.st;
	/* the newest run of each side alone: B 5 % below A; all three: B about 1 % below, within the noise */
	int64_t a[] = {fake_run("old", 1000, 5), fake_run("old", 1030, 5), fake_run("old", 1000, 5)};
	int64_t b[] = {fake_run("new", 1020, 5), fake_run("new", 1025, 5), fake_run("new", 950, 5)};
	struct compare_group g[] = {{a, 3}, {b, 3}};

	char *json = NULL, *html = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&json, &len);
	struct compare_options co = {.format = "json", .alpha = 0.05};
	struct compare_result res;
	is_int(report_compare(f, st, g, 2, &co, &res), 0, "compare --format json of two groups of three runs");
	fclose(f);
	f = open_memstream(&html, &len);
	struct html_options ho = {.alpha = 0.05};
	is_int(report_html(f, st, g, 2, &ho, err, sizeof(err)), 0, "report of the same groups");
	fclose(f);
	char path[128];
	snprintf(path, sizeof(path), "%s/p.svg", db.dir);
	struct plot_request rq = {.groups = g, .ngroups = 2, .alpha = 0.05, .osync = -1, .out = path, .diff = 1};
	is_int(report_plot(st, &rq, err, sizeof(err)), 0, "plot --diff of the same groups");
	char *svg = slurp(path);
	unlink(path);

	struct views v = {json, html, svg};
	tap_case(sides_named, &v);
	tap_case(same_numbers, &v);
	tap_case(same_verdict, &v);

	free(json);
	free(html);
	free(svg);
	tap_case(loads_views, db.dir);
	test_db_remove(&db);
	return done_testing();
}
