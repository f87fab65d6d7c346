/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the HTML report's parts on synthetic runs: the model's verdicts of known shifts, worded, HTML escaping of odd
 * bytes, a run's provenance read back, which curves a plot draws and against what, and the page. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/cmpmodel.h"
#include "config/cfg.h"
#include "report/html.h"
#include "report/plot.h"
#include "report/report.h"
#include "store/store.h"
#include "tap.h"
#include "testdb.h"
#include "util/util.h"

static struct store *st;

static char *html_of(const char *s, int keep_lines)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	html_text(f, s, keep_lines);
	fclose(f);
	return buf;
}

static void escaping(void)
{
	char *h = html_of("<a href=\"x\">&'", 0);
	is_str(h, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;", "markup characters escaped");
	free(h);
	h = html_of("a\001b\377c\xc3\xa9\xed\xa0\x80", 0);
	is_str(h, "a b\xef\xbf\xbd" "c\xc3\xa9\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
	       "a control as a space, a stray byte and a surrogate as U+FFFD; UTF-8 kept");
	free(h);
	h = html_of("l1\n\tl2", 1);
	is_str(h, "l1\n\tl2", "newlines and tabs kept for <pre>");
	free(h);
	h = html_of("l1\n", 0);
	is_str(h, "l1 ", "but not in a label");
	free(h);
}

/* A run of `workload` (O_SYNC on, and off when both) with Jobs/Min 1000 * tasks * factor, 3 repeats. */
static int64_t fake_run(const char *label, double factor, int both, const char *scheduler)
{
	struct store_run r = {.uuid = label, .label = label, .suite_name = "s", .suite_text = "tasks = \"1,2\";\n",
			      .command_line = "reaim -s s --label x", .version = "9.9", .mode = "sweep", .seed = 42};
	int64_t id, wl;
	store_run_begin(st, &r, NULL, &id);
	store_run_env(st, id, "kernel.release", label);
	store_run_env(st, id, "hostname", "box1");
	store_run_env(st, id, "dir0.scheduler", scheduler);
	struct store_workload w = {.name = "dbase", .workfile_name = "dbase", .workfile_text = "10 sieve\n"};
	test_db_workload(st, id, &w, &wl, "jobs_per_task=10 repeat=3 osync=%s", both ? "both" : "on");
	for (int osync = 1; osync >= (both ? 0 : 1); osync--)
		for (int t = 1; t <= 2; t++)
			for (int k = 0; k < 3; k++) {
				double v = 1000 * t * factor * (osync ? 1 : 1.5) + 5 * k;
				struct store_point p = {.run_id = id, .workload_id = wl, .osync = osync, .tasks = t,
							.repeat = k, .valid = 1, .jobs_per_task = 10, .jobs_per_min = v,
							.real_s = 600.0 / v, .user_s = 1, .sys_s = 1, .sampled = 1,
							.user_pct = 50, .sys_pct = 20, .iowait_pct = 5, .util_pct = 30};
				struct store_test tt = {.name = "sieve", .count = 10, .total_s = 1000.0 / v, .p99_s = 300.0 / v};
				store_point_add(st, &p, &tt, 1, NULL, 0);
			}
	return id;
}

/* The report's verdict is the comparison model's panel summary, worded. */
static void verdicts(int64_t a, int64_t b, int64_t same)
{
	struct compare_group g[] = {{&a, 1}, {&b, 1}};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	char text[256];
	is_int(compare_model_build(st, g, 2, &o, &m), 0, "the model of base against other");
	const struct compare_summary *v = m.npanels ? &m.panels[0].summary : NULL;
	ok(v && v->kind == COMPARE_WORSE, "other at 80 %: a regression");
	ok(v && v->worse == 2 && v->judged == 2, "at both task counts");
	if (v) {
		report_panel_line(&m, &m.panels[0], text, sizeof(text));
		ok(strncmp(text, "B is 19.9 % \xc2\xb1 ", 15) == 0 &&
			   strstr(text, "slower than A (95 %) at 2 of 2 task counts, Holm") != NULL,
		   "said in one line");
	}
	is_str(report_verdict_words(&m, COMPARE_WORSE), "regression", "named a regression");
	compare_model_free(&m);
	g[1] = (struct compare_group){&same, 1};
	is_int(compare_model_build(st, g, 2, &o, &m), 0, "the model of base against its twin");
	ok(m.npanels && m.panels[0].summary.kind == COMPARE_UNCHANGED, "the same figures: no significant change");
	compare_model_free(&m);
	compare_model_build(st, g, 2, &o, &m);
	m.panels[0].summary = (struct compare_summary){.kind = COMPARE_NO_DATA};
	report_panel_line(&m, &m.panels[0], text, sizeof(text));
	is_str(text, "B and A have no task count in common", "nothing in common said so");
	compare_model_free(&m);
}

static void run_info(int64_t id)
{
	struct store_run_info ri;
	is_int(store_get_run_info(st, id, &ri), 0, "store_get_run_info");
	is_str(ri.command_line, "reaim -s s --label x", "command line read back");
	is_int(ri.seed, 42, "seed");
	is_str(ri.version, "9.9", "version");
	is_str(ri.suite_text, "tasks = \"1,2\";\n", "suite text");
	is_int(ri.nworkloads, 1, "one workload");
	ok(ri.nworkloads && strcmp(ri.workloads[0].workfile_text, "10 sieve\n") == 0, "its workfile");
	store_run_info_free(&ri);
	struct store_option *o;
	size_t n;
	is_int(store_get_workload_options(st, id, &o, &n), 0, "its options read back");
	int osync = 0, jobs = 0;
	for (size_t i = 0; i < n; i++) {
		osync |= strcmp(o[i].key, "osync") == 0 && strcmp(o[i].value, "both") == 0;
		jobs |= strcmp(o[i].key, "jobs_per_task") == 0 && strcmp(o[i].value, "10") == 0;
	}
	ok(osync && jobs, "its options: osync both, jobs_per_task 10");
	store_options_free(o, n);
	ok(store_get_run_info(st, 9999, &ri) == -1, "no such run: -1");
}

static void plot_sets(int64_t a, int64_t b)
{
	const struct metric *m = metric_find("jobs_per_min");
	struct plot_set ps;
	char err[256];
	struct compare_group g[] = {{&a, 1}, {&b, 1}};
	struct compare_options co = {.alpha = 0.05};
	struct compare_model model;
	compare_model_build(st, g, 2, &co, &model);
	struct plot_query q = {.groups = g, .ngroups = 2, .model = &model, .osync = -1, .m = m};
	is_int(plot_set_load(st, &q, &ps, err, sizeof(err)), 0, "plot set of two runs");
	is_int(ps.n, 3, "the base's curve and both of the run made with O_SYNC both");
	ok(ps.n == 3 && strstr(ps.curves[1].label, "O_SYNC off") != NULL, "curves named by O_SYNC setting, off first");
	ok(ps.n == 3 && ps.base[0] == -1 && ps.base[1] == -1 && ps.base[2] == 0,
	   "the other run's O_SYNC on against the base's; its off curve has no partner");
	is_int(ps.nfooter, 2, "a footer line per run");
	ok(ps.nfooter && strstr(ps.footer[0], "kernel base-kernel, host box1") != NULL, "naming kernel and host");
	ok(ps.left_out == NULL, "nothing left out");
	ok(ps.n == 3 && ps.diffs[2].n == 2 && ps.diffs[1].pts == NULL, "the model's two cells are the differences");
	ok(ps.n == 3 && ps.diffs[2].n == 2 && fabs(ps.diffs[2].pts[0].pct - model.panels[0].cells[0].v.change_pct) < 1e-12 &&
		   ps.diffs[2].pts[0].lo == model.panels[0].cells[0].v.ci_low_pct,
	   "each the model's change and interval");
	plot_set_free(&ps);
	compare_model_free(&model);

	compare_model_build(st, g + 1, 1, &co, &model);
	q = (struct plot_query){.groups = g + 1, .ngroups = 1, .model = &model, .osync = -1, .m = m};
	is_int(plot_set_load(st, &q, &ps, err, sizeof(err)), 0, "plot set of one run made both ways");
	ok(ps.n == 2 && ps.base[0] == -1 && ps.base[1] == 0, "O_SYNC on against off (off, the base, first)");
	ok(strstr(ps.caption, "O_SYNC on against off") != NULL, "and the caption says so");
	plot_set_free(&ps);

	q.osync = 0;
	is_int(plot_set_load(st, &q, &ps, err, sizeof(err)), 0, "only O_SYNC off");
	ok(ps.n == 1 && ps.left_out && strstr(ps.left_out, "Not drawn: other-kernel (run 2) workload dbase O_SYNC on"),
	   "what was left out is said");
	plot_set_free(&ps);

	q.osync = -1;
	q.workload = "nosuch";
	ok(plot_set_load(st, &q, &ps, err, sizeof(err)) == -1 && strstr(err, "no run has nosuch"),
	   "an unknown workload is an error naming it");
	compare_model_free(&model);
}

static void page(int64_t a, int64_t b)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	struct compare_group g[] = {{&a, 1}, {&b, 1}};
	FILE *f = open_memstream(&buf, &len);
	int rc = report_html(f, st, g, 2, NULL, err, sizeof(err));
	fclose(f);
	is_int(rc, 0, "report_html of two runs");
	ok(buf && strncmp(buf, "<!DOCTYPE html>", 15) == 0, "an HTML5 page");
	ok(buf && strstr(buf, "<title>reaim report: base-kernel vs other-kernel</title>"), "titled by its runs");
	ok(buf && strstr(buf, "<span class=\"badge worse\">regression</span>"), "other-kernel at 80 %: a regression");
	ok(buf && strstr(buf, "-20.0 %"), "by 20 %");
	ok(buf && strstr(buf, "<svg xmlns") && !strstr(buf, "<?xml"), "the plot inline, without an XML declaration");
	ok(buf && strstr(buf, "The runs differ in <code>dir0.scheduler</code>, <code>kernel.release</code>"),
	   "the differing environment named");
	ok(buf && strstr(buf, "<dt>Seed</dt><dd>42</dd>"), "the seed");
	ok(buf && !strstr(buf, "<script"), "no script");
	free(buf);

	f = open_memstream(&buf, &len);
	struct html_options o = {.title = "one <run>"};
	rc = report_html(f, st, g + 1, 1, &o, err, sizeof(err));
	fclose(f);
	is_int(rc, 0, "report_html of one run");
	ok(buf && strstr(buf, "<h1>one &lt;run&gt;</h1>"), "the title given, escaped");
	ok(buf && strstr(buf, "O_SYNC on against off"), "its O_SYNC ratio");
	ok(buf && strstr(buf, "<td>0.667</td>"), "on/off = 1/1.5");
	free(buf);
	ok(report_html(stdout, st, g, 0, NULL, err, sizeof(err)) == -1, "no runs: -1");

	/* --metric: the verdicts, the tables and the plot judge the figure chosen, and the page names it */
	f = open_memstream(&buf, &len);
	struct html_options om = {.metric = "real_s"};
	rc = report_html(f, st, g, 2, &om, err, sizeof(err));
	fclose(f);
	is_int(rc, 0, "report_html --metric real_s");
	ok(buf && strstr(buf, "<h2 id=\"verdict\">Verdict: Real time (s)</h2>"), "--metric: the verdict names it");
	ok(buf && strstr(buf, "<th>A Real time (s)</th>") && !strstr(buf, "<th>A Jobs/Min</th>"),
	   "--metric: the tables are of it");
	ok(buf && strstr(buf, "Real time (s) by task count") && !strstr(buf, "Jobs/Min by task count"),
	   "--metric: the plot is of it");
	ok(buf && strstr(buf, "geometric mean of the Real time (s) ratios"), "--metric: the note says which ratios");
	ok(buf && strstr(buf, "<span class=\"badge worse\">regression</span>") && strstr(buf, "slower than A"),
	   "--metric: Real rose where Jobs/Min fell to 80 %: a regression of it too, worded as a time");
	free(buf);
}

/* A run's variants each have their own row of system figures: their means are not pooled. */
static void variant_rows(void)
{
	struct store_run r = {.uuid = "variants", .label = "ab", .suite_name = "s", .suite_text = "",
			      .command_line = "reaim", .version = "9.9", .mode = "sweep", .seed = 1};
	int64_t id, wl;
	store_run_begin(st, &r, NULL, &id);
	struct store_workload w = {.name = "disk", .workfile_name = "disk", .workfile_text = "10 disk_rr\n"};
	test_db_workload(st, id, &w, &wl, "jobs_per_task=10 repeat=2");
	for (int i = 0; i < 4; i++) {
		int b = i % 2;
		double v = b ? 500 + i : 1000 + i;
		struct store_point p = {.run_id = id, .workload_id = wl, .osync = 1, .tasks = 1, .repeat = i / 2,
					.valid = 1, .jobs_per_task = 10, .jobs_per_min = v, .real_s = 600.0 / v,
					.user_s = 1, .sys_s = 1, .sampled = 1, .user_pct = 10, .sys_pct = 10,
					.iowait_pct = b ? 60 : 20, .util_pct = 50};
		snprintf(p.variant, sizeof(p.variant), "%s", b ? "bfq" : "none");
		store_point_add(st, &p, NULL, 0, NULL, 0);
	}
	store_run_finish(st, id, "complete", NULL);
	char *buf = NULL, err[256];
	size_t len = 0;
	struct compare_group g = {&id, 1};
	FILE *f = open_memstream(&buf, &len);
	is_int(report_html(f, st, &g, 1, NULL, err, sizeof(err)), 0, "report_html of a run's variants");
	fclose(f);
	const char *none = buf ? strstr(buf, "</small>, variant none</td>") : NULL;
	const char *bfq = buf ? strstr(buf, "</small>, variant bfq</td>") : NULL;
	ok(none && bfq, "a system-figures row per variant");
	/* the columns: user, sys, iowait: each row's own iowait (20 and 60), not the pooled 40 */
	ok(none && strncmp(strstr(none, "<td>"), "<td>10.0</td><td>10.0</td><td>20.0</td>", 39) == 0,
	   "variant none's own iowait");
	ok(bfq && strncmp(strstr(bfq, "<td>"), "<td>10.0</td><td>10.0</td><td>60.0</td>", 39) == 0,
	   "variant bfq's own iowait");
	free(buf);
}

/* The page of one run, or NULL. */
static char *page_of(int64_t id)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	struct compare_group g = {&id, 1};
	FILE *f = open_memstream(&buf, &len);
	int rc = report_html(f, st, &g, 1, NULL, err, sizeof(err));
	fclose(f);
	if (rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* A run stored as the runner stores one: every option of the option table, each row's value as
 * option_format gives it, here with --warmup 2 and --pin on. */
static int64_t run_with_options(struct store_option **opts, size_t *nopts)
{
	struct store_run r = {.uuid = "opts", .label = "opts", .suite_name = "s", .suite_text = "",
			      .command_line = "reaim --warmup 2 --pin on", .version = "9.9", .mode = "sweep", .seed = 1};
	struct run_opts o;
	char why[256];
	run_opts_defaults(&o);
	/* the rows without a default too, so that every row is stored */
	static const char *const given[][2] = {
		{"warmup", "2"},	 {"pin", "on"},		{"variant", "a=true"}, {"variant", "b=false"},
		{"workfile", "disk"},	 {"filesize", "1M"},	{"poolsize", "2M"},    {"dirs", "/tmp"},
		{"label", "opts"},	 {"point_hook", "true"}, {"point_hook_tasks", "1"}, {"cpus", "1"},
		{"load", "io"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(given); i++)
		if (option_set(&o, option_find(given[i][0]), given[i][1], why, sizeof(why)) < 0)
			printf("# --%s %s: %s\n", given[i][0], given[i][1], why);
	*opts = NULL;
	*nopts = 0;
	for (size_t i = 0; i < option_count; i++) {
		struct str_list v;
		option_format(&o, &option_table[i], &v);
		*opts = xrealloc(*opts, (*nopts + v.count + 1) * sizeof(**opts));
		for (size_t k = 0; k < v.count; k++) {
			struct store_option *row = &(*opts)[(*nopts)++];
			memset(row, 0, sizeof(*row));
			snprintf(row->key, sizeof(row->key), "%s", option_table[i].key);
			row->item = option_table[i].type == OPT_STRLIST ? (int)k : -1;
			row->value = v.v[k];
		}
		free(v.v);
	}
	run_opts_free(&o);
	int64_t id, wl;
	store_run_begin(st, &r, NULL, &id);
	struct store_workload w = {.name = "disk",
				   .workfile_name = "disk",
				   .workfile_text = "10 disk_rr\n",
				   .options = *opts,
				   .noptions = *nopts};
	store_workload_add(st, id, &w, &wl);
	store_run_finish(st, id, "complete", NULL);
	return id;
}

/* "How each run was made" lists every option the run stored, by the option table's rows: a row added
 * to the table shows there with no other change. */
static void stored_options(void)
{
	struct store_option *opts;
	size_t nopts;
	int64_t id = run_with_options(&opts, &nopts);
	char *buf = page_of(id);
	const char *made = buf ? strstr(buf, "How each run was made") : NULL;
	ok(made != NULL, "the report of a run stored with every option");
	size_t listed = 0, stored = 0;
	for (size_t i = 0; made && i < nopts; i++) {
		if (i > 0 && strcmp(opts[i].key, opts[i - 1].key) == 0)
			continue;
		char flag[64];
		snprintf(flag, sizeof(flag), "<code>--%s</code>", opts[i].key);
		for (char *c = flag; *c; c++)
			*c = *c == '_' ? '-' : *c;
		stored++;
		if (strstr(made, flag))
			listed++;
		else
			printf("# not listed: %s\n", flag);
	}
	is_int(stored, option_count, "the run stored every row of the option table (a new one without a default: "
				     "give it a value above)");
	is_int(listed, stored, "every option it stored listed by its row");
	ok(made && strstr(made, "<code>--warmup</code></td><td class=\"l\">2</td>"), "--warmup 2 shown");
	ok(made && strstr(made, "<code>--pin</code></td><td class=\"l\">on</td>"), "--pin on shown");
	ok(made && strstr(made, "<code>--variant</code></td><td class=\"l\">a=true b=false</td>"),
	   "a list option's items on one line");
	const char *other = made ? strstr(made, "Options that do not change a point") : NULL;
	ok(other && strstr(other, "<code>--precision</code>") && strstr(other, "<code>--counters</code>") &&
		   !strstr(other, "<code>--pin</code>"),
	   "options that do not change a point listed apart, the others before them");
	ok(made && strstr(made, "title=\"bind task i to the i-th allowed CPU"), "each row with the table's help");
	free(buf);
	store_options_free(opts, nopts);
	/* a run stored before its workloads kept their options: the columns it kept, named as the table names them */
	int64_t a = fake_run("old-run", 1.0, 0, "none");
	buf = page_of(a);
	made = buf ? strstr(buf, "How each run was made") : NULL;
	ok(made && strstr(made, "<code>--jobs-per-task</code></td><td class=\"l\">10</td>") &&
		   strstr(made, "<code>--repeat</code></td><td class=\"l\">3</td>"),
	   "an older run's options from its workload's columns");
	free(buf);
}

int main(void)
{
	tap_case(escaping);
	struct test_db db;
	if (test_db_open(&db) < 0)
		return 1;
	st = db.st;
	int64_t a = fake_run("base-kernel", 1.0, 0, "mq-deadline"), b = fake_run("other-kernel", 0.8, 1, "bfq");
	int64_t same = fake_run("base-twin", 1.0, 0, "mq-deadline");
	tap_case(verdicts, a, b, same);
	tap_case(run_info, b);
	tap_case(plot_sets, a, b);
	tap_case(page, a, b);
	tap_case(variant_rows);
	tap_case(stored_options);
	test_db_remove(&db);
	return done_testing();
}
