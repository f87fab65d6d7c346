/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the figure tables against the schema and through every path a figure takes: insert,
 * read, merge, the JSON export and the plot metrics. A row added without its migration, or a
 * column added without its row, fails here. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "store/internal.h"
#include "store/store.h"
#include "tap.h"
#include "util/util.h"

static char dir[] = "/tmp/reaim-figures-XXXXXX";

/* Columns of each table that are keys, not figures. */
static const char *const point_keys[] = {"id", "run_id", "workload_id", NULL};
static const char *const test_keys[] = {"point_id", "test", NULL};
static const char *const sample_keys[] = {"point_id", NULL};

static int listed(const char *const *names, const char *name)
{
	for (; *names; names++)
		if (strcmp(*names, name) == 0)
			return 1;
	return 0;
}

/* Every column of the SQL table is a key or a row of t with the row's type, and every row has
 * its column. */
static void matches_schema(sqlite3 *db, const struct store_figure_table *t, const char *const *keys)
{
	char sql[128], what[160];
	snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", t->table);
	sqlite3_stmt *s;
	size_t found = 0;
	int all_known = 1, types_ok = 1;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		ok(0, "table_info");
		return;
	}
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 1);
		const char *type = (const char *)sqlite3_column_text(s, 2);
		const struct store_figure *f = store_figure_find(t, name);
		if (f) {
			found++;
			if (strcmp(type, store_figure_sql_type(f)) != 0) {
				printf("#   %s.%s is %s, the row says %s\n", t->table, name, type,
				       store_figure_sql_type(f));
				types_ok = 0;
			}
		} else if (!listed(keys, name)) {
			printf("#   %s.%s has no row in store/figures.h\n", t->table, name);
			all_known = 0;
		}
	}
	sqlite3_finalize(s);
	snprintf(what, sizeof(what), "every column of %s is a key or a figure", t->table);
	ok(all_known, what);
	snprintf(what, sizeof(what), "every figure of %s has its column (%zu of %zu)", t->table, found, t->count);
	ok(found == t->count, what);
	snprintf(what, sizeof(what), "%s: declared types match the rows", t->table);
	ok(types_ok, what);
}

/* A distinct value for figure i of a row, by type, so a value landing in the wrong column shows. */
static void fill(const struct store_figure_table *t, void *row, int salt)
{
	for (size_t i = 0; i < t->count; i++) {
		const struct store_figure *f = &t->fig[i];
		char *at = (char *)row + f->offset;
		int iv = (int)i + 3 + salt;
		int64_t lv = 10000000000LL + (int64_t)i + salt;
		double dv = (double)i + 0.125 + salt;
		switch (f->type) {
		case STORE_FIG_INT: memcpy(at, &iv, sizeof(iv)); break;
		case STORE_FIG_BOOL: iv = 1; memcpy(at, &iv, sizeof(iv)); break;
		case STORE_FIG_I64: memcpy(at, &lv, sizeof(lv)); break;
		case STORE_FIG_REAL: memcpy(at, &dv, sizeof(dv)); break;
		case STORE_FIG_TEXT: snprintf(at, f->size, "%s \"%d\"\t\xc3\xa9", f->name, salt); break;
		}
	}
}

/* Whether every figure of row a equals that of b; names the ones that differ. */
static int same_figures(const struct store_figure_table *t, const void *a, const void *b, const char *what)
{
	int same = 1;
	for (size_t i = 0; i < t->count; i++) {
		const struct store_figure *f = &t->fig[i];
		const char *x = (const char *)a + f->offset, *y = (const char *)b + f->offset;
		int eq = f->type == STORE_FIG_TEXT ? strcmp(x, y) == 0 : memcmp(x, y, f->size) == 0;
		if (f->type == STORE_FIG_REAL && isnan(store_figure_double(f, a)))
			eq = isnan(store_figure_double(f, b));
		if (!eq) {
			printf("#   %s: %s.%s differs\n", what, t->table, f->name);
			same = 0;
		}
	}
	return same;
}

static int64_t add_run(struct store *st, const char *uuid, int64_t *wl)
{
	struct store_run r = {.uuid = uuid, .label = uuid, .suite_name = "s", .suite_text = "",
			      .command_line = "reaim", .version = "0", .mode = "sweep", .seed = 1,
			      .kernel_config = "CONFIG_HZ=250\n# CONFIG_KASAN is not set\n"};
	struct store_option opts[] = {{.key = "dirs", .item = 0, .value = "/a"},
				      {.key = "dirs", .item = 1, .value = "/b:c"},
				      {.key = "label", .item = -1, .value = "6.1 \"x\""}};
	struct store_workload w = {.name = "dbase",
				   .workfile_name = "dbase",
				   .workfile_text = "1 add_int\n",
				   .options = opts,
				   .noptions = ARRAY_SIZE(opts)};
	int64_t id = 0;
	if (store_run_begin(st, &r, NULL, &id) < 0 || store_workload_add(st, id, &w, wl) < 0)
		return 0;
	return id;
}

/* The point, tests and samples written; also a second point, not sampled, with a NaN figure. */
static struct store_point point;
static struct store_test tests[2];
static struct store_sample samples[3];
/* a /proc counter (no running share) and a multiplexed perf counter */
static const struct store_counter counters[2] = {
	{.source = "perf", .name = "context-switches", .unit = "events", .value = 1234.5, .running_pct = 62.5},
	{.source = "vmstat", .name = "pgfault", .unit = "events", .value = -7, .running_pct = NAN},
};

static int store_all(struct store *st, int64_t run, int64_t wl)
{
	fill(&store_point_table, &point, 0);
	point.run_id = run;
	point.workload_id = wl;
	point.sampled = 1;
	for (int i = 0; i < 2; i++) {
		fill(&store_test_table, &tests[i], 10 * i);
		snprintf(tests[i].name, sizeof(tests[i].name), "test%d", i);
	}
	for (int i = 0; i < 3; i++)
		fill(&store_sample_table, &samples[i], 100 * i);
	struct store_point bare = point;
	bare.sampled = 0;
	bare.jobs_per_min = NAN;
	bare.tasks = point.tasks + 1;
	const struct store_point_rows rows = {.tests = tests,
					      .ntests = 2,
					      .samples = samples,
					      .nsamples = 3,
					      .counters = counters,
					      .ncounters = ARRAY_SIZE(counters)};
	if (store_point_add_counted(st, &point, &rows) < 0)
		return -1;
	return store_point_add(st, &bare, NULL, 0, NULL, 0);
}

/* Read run `run` of st back and compare it with what store_all wrote. */
static void read_back(struct store *st, int64_t run, const char *where)
{
	char what[160];
	struct store_point *pts;
	size_t n;
	snprintf(what, sizeof(what), "%s: both points read", where);
	if (store_get_points(st, run, &pts, &n) < 0 || n != 2) {
		ok(0, what);
		return;
	}
	ok(1, what);
	snprintf(what, sizeof(what), "%s: every point figure round-trips", where);
	ok(same_figures(&store_point_table, &point, &pts[0], where) && pts[0].sampled, what);
	int nan_system = 1;
	for (size_t i = 0; i < store_point_table.count; i++)
		if (store_point_table.fig[i].group == STORE_FIG_SYSTEM)
			nan_system &= isnan(store_figure_double(&store_point_table.fig[i], &pts[1]));
	snprintf(what, sizeof(what), "%s: a point without the sampler reads back unsampled, its SYSTEM figures NaN",
		 where);
	ok(!pts[1].sampled && nan_system, what);
	snprintf(what, sizeof(what), "%s: a NaN figure is stored as NULL and read back as NaN", where);
	ok(isnan(pts[1].jobs_per_min), what);
	struct store_test *t;
	snprintf(what, sizeof(what), "%s: every per-test figure round-trips", where);
	ok(store_get_tests(st, pts[0].id, &t, &n) == 0 && n == 2 && strcmp(t[1].name, "test1") == 0 &&
		   same_figures(&store_test_table, &tests[0], &t[0], where) &&
		   same_figures(&store_test_table, &tests[1], &t[1], where),
	   what);
	free(t);
	struct store_sample *x;
	snprintf(what, sizeof(what), "%s: every sample figure round-trips, in time order", where);
	ok(store_get_samples(st, pts[0].id, &x, &n) == 0 && n == 3 &&
		   same_figures(&store_sample_table, &samples[0], &x[0], where) &&
		   same_figures(&store_sample_table, &samples[2], &x[2], where),
	   what);
	free(x);
	struct store_counter *c;
	snprintf(what, sizeof(what), "%s: every counter round-trips (a NULL running share as NaN), by source", where);
	ok(store_get_counters(st, pts[0].id, &c, &n) == 0 && n == 2 && strcmp(c[0].source, "perf") == 0 &&
		   strcmp(c[0].name, "context-switches") == 0 && c[0].value == 1234.5 && c[0].running_pct == 62.5 &&
		   strcmp(c[0].unit, "events") == 0 && strcmp(c[1].name, "pgfault") == 0 && c[1].value == -7 &&
		   isnan(c[1].running_pct),
	   what);
	free(c);
	snprintf(what, sizeof(what), "%s: a point stored without counters has none", where);
	ok(store_get_counters(st, pts[1].id, &c, &n) == 0 && n == 0, what);
	free(c);
	struct store_option *o;
	snprintf(what, sizeof(what), "%s: workload options read back by key and item", where);
	ok(store_get_workload_options(st, run, &o, &n) == 0 && n == 3 && strcmp(o[0].key, "dirs") == 0 &&
		   o[0].item == 0 && strcmp(o[1].value, "/b:c") == 0 && o[2].item == -1 &&
		   strcmp(o[2].value, "6.1 \"x\"") == 0 && strcmp(o[2].workload, "dbase") == 0,
	   what);
	store_options_free(o, n);
	free(pts);
}

/* The JSON export names every figure of every table. */
static void export_keys(struct store *st, int64_t run)
{
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ok(f && report_export(f, st, run, "json", NULL, err, sizeof(err)) == 0, "JSON export written");
	if (f)
		fclose(f);
	const struct store_figure_table *tables[] = {&store_point_table, &store_test_table, &store_sample_table};
	int all = 1;
	for (size_t k = 0; k < ARRAY_SIZE(tables); k++)
		for (size_t i = 0; i < tables[k]->count; i++) {
			char key[64];
			snprintf(key, sizeof(key), "\"%s\": ", tables[k]->fig[i].name);
			if (!buf || !strstr(buf, key)) {
				printf("#   %s.%s missing from the JSON export\n", tables[k]->table,
				       tables[k]->fig[i].name);
				all = 0;
			}
		}
	ok(all, "the JSON export has every figure");
	ok(buf && strstr(buf, "\"dirs\": [\"/a\", \"/b:c\"]") && strstr(buf, "\"label\": \"6.1 \\\"x\\\"\""),
	   "the JSON export has each workload's options, a list as an array");
	ok(buf && strstr(buf, "\"jobs_per_min\": null"), "a NaN figure is null in JSON");
	ok(buf && strstr(buf, "\"counters\": [{\"source\": \"perf\", \"name\": \"context-switches\", \"value\": "
			      "1234.5, \"unit\": \"events\", \"running_pct\": 62.5}"),
	   "the JSON export has the point's counters");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ok(f && report_export(f, st, run, "counters", NULL, err, sizeof(err)) == 0, "counters CSV written");
	if (f)
		fclose(f);
	ok(buf && strstr(buf, ",\"vmstat\",\"pgfault\",-7,\"events\",\n"), "a counter's CSV line, no running share");
	free(buf);
}

/* The plot metrics are exactly the PLOT rows, with their labels. */
static void metrics(void)
{
	size_t plottable = 0, n = 0;
	int listed_ok = 1;
	for (size_t i = 0; i < store_point_table.count; i++)
		plottable += store_point_table.fig[i].plot;
	for (const struct metric *m = metric_list(); m->name; m++, n++) {
		const struct store_figure *f = store_figure_find(&store_point_table, m->name);
		listed_ok &= f && f->plot && f->type == STORE_FIG_REAL && f->offset == m->offset &&
			     strcmp(f->label, m->label) == 0 && m->sampled == (f->group == STORE_FIG_SYSTEM);
	}
	ok(n == plottable && listed_ok, "plot metrics are the PLOT rows of the point table");
	ok(metric_find("jobs_per_min") == metric_list(), "Jobs/Min is the first (the default) metric");
	int timeline_ok = 1;
	for (size_t i = 0; i < store_sample_table.count; i++)
		if (store_sample_table.fig[i].plot)
			timeline_ok &= metric_find(store_sample_table.fig[i].name) != NULL;
	ok(timeline_ok, "every sample figure a timeline draws is also a point metric (its label)");
}

static void table_rules(void)
{
	const struct store_figure_table *tables[] = {&store_point_table, &store_test_table, &store_sample_table};
	int unique = 1, described = 1, formats = 1;
	for (size_t k = 0; k < ARRAY_SIZE(tables); k++)
		for (size_t i = 0; i < tables[k]->count; i++) {
			const struct store_figure *f = &tables[k]->fig[i];
			for (size_t j = 0; j < i; j++)
				unique &= strcmp(f->name, tables[k]->fig[j].name) != 0;
			described &= f->label[0] != '\0' && f->unit != NULL;
			formats &= (f->type == STORE_FIG_REAL) == (f->fmt[0] == '%');
			formats &= !f->plot || f->type == STORE_FIG_REAL;
		}
	ok(unique, "figure names are unique in each table");
	ok(described, "every figure has a label and a unit");
	ok(formats, "REAL figures, and only they, have an export format; only they are plottable");
	int shared = 1;
	for (size_t i = 0; i < store_sample_table.count; i++) {
		const struct store_figure *s = &store_sample_table.fig[i];
		const struct store_figure *p = store_figure_find(&store_point_table, s->name);
		shared &= !p || (p->group == STORE_FIG_SYSTEM && p->type == s->type);
	}
	ok(shared, "a sample figure named like a point figure is a SYSTEM figure of the same type");
	struct store_sample avg;
	struct store_point p;
	memset(&p, 0, sizeof(p));
	fill(&store_sample_table, &avg, 7);
	store_point_from_sample(&p, &avg);
	ok(p.user_pct == avg.user_pct && p.ctxt_per_s == avg.ctxt_per_s && p.real_s == 0 && p.read_iops == 0,
	   "the shared figures are copied from an average sample, no others");
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	char *db = xasprintf("%s/a.db", dir), *other = xasprintf("%s/b.db", dir);
	char err[512];
	struct store *st;
	ok(store_open(other, &st, err, sizeof(err)) == 0, "a database to merge from");
	int64_t wl, run = add_run(st, "run-1", &wl);
	ok(run > 0, "run and workload with options");
	ok(store_all(st, run, wl) == 0, "a sampled point with tests and samples, and a bare point");
	tap_case(read_back, st, run, "stored");
	tap_case(export_keys, st, run);
	ok(store_run_finish(st, run, "complete", NULL) == 0, "finished (merge leaves running runs)");
	store_close(st);

	ok(store_open(db, &st, err, sizeof(err)) == 0, "a second database");
	int64_t wl0, first = add_run(st, "run-0", &wl0); /* so merged ids differ from the source's */
	size_t copied, skipped;
	ok(first > 0 && store_merge(st, other, &copied, &skipped) == 0 && copied == 1, "merged");
	int64_t merged;
	ok(store_resolve_run(st, "run-1", &merged) == 0 && merged != run, "the merged run has a new id");
	tap_case(read_back, st, merged, "merged");
	char *config;
	ok(store_get_kernel_config(st, merged, &config) == 0 && config &&
	   strcmp(config, "CONFIG_HZ=250\n# CONFIG_KASAN is not set\n") == 0, "merged: the run's kernel config too");
	free(config);
	tap_case(matches_schema, st->db, &store_point_table, point_keys);
	tap_case(matches_schema, st->db, &store_test_table, test_keys);
	tap_case(matches_schema, st->db, &store_sample_table, sample_keys);
	store_close(st);

	tap_case(metrics);
	tap_case(table_rules);

	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ok(system(cmd) == 0, "clean up");
	free(db);
	free(other);
	return done_testing();
}
