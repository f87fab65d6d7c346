/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading runs back for list, show, export and compare. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"
#include "util/util.h"

/* A text column, "" for NULL (a hand-edited or merged file): never "(null)", never a crash. */
static const char *text_or_empty(sqlite3_stmt *s, int col)
{
	const unsigned char *t = sqlite3_column_text(s, col);
	return t ? (const char *)t : "";
}

static void read_label(sqlite3_stmt *s, void *row)
{
	*(char **)row = xstrdup(text_or_empty(s, 0));
}

static void drop_label(sqlite3_stmt *s, void *row)
{
	(void)s;
	free(*(char **)row);
}

/* "no run matches": with the stored label nearest to what was typed, as commands and options
 * suggest theirs. */
static void no_match(struct store *st, const char *spec)
{
	struct store_rows r = {.size = sizeof(char *), .read = read_label, .drop = drop_label};
	long k = -1;
	if (store_query(st, "reading the labels", &r,
			"SELECT DISTINCT label FROM runs ORDER BY label", "") == 0) {
		/* the labels, and "last" (a run's place is typed as often as its label: `show lsat`) */
		r.v = xrealloc(r.v, (r.n + 1) * sizeof(char *));
		((char **)r.v)[r.n] = xstrdup("last");
		k = closest_name(spec, (const char *const *)r.v, r.n + 1);
		if (r.n == 0) /* with no run, no advice: 'last' names none */
			free(((char **)r.v)[0]);
		else
			r.n++;
	} else {
		r.n = 0, r.v = NULL;
	}
	if (r.n == 0) /* 'reaim list' would show nothing: no advice that cannot help */
		snprintf(st->err, sizeof(st->err), "no run matches '%s': %s holds no run yet", spec, st->path);
	else if (k >= 0)
		snprintf(st->err, sizeof(st->err), "no run matches '%s'; did you mean '%s'? ('reaim list' shows the runs)",
			 spec, ((char **)r.v)[k]);
	else
		snprintf(st->err, sizeof(st->err), "no run matches '%s' (try 'reaim list')", spec);
	for (size_t i = 0; i < r.n; i++)
		free(((char **)r.v)[i]);
	free(r.v);
}

/* "last" or "last~N": a run by its place, newest first (N in *back); else 0. */
static int by_place(const char *spec, long long *back)
{
	*back = 0;
	return strcmp(spec, "last") == 0 ||
	       (strncmp(spec, "last~", 5) == 0 && parse_long(spec + 5, 0, 1000000, back) == 0);
}

int store_resolve_run(struct store *st, const char *spec, int64_t *run_id)
{
	static const char what[] = "finding the run";
	struct store_rows r = {.size = sizeof(int64_t), .read = store_read_id};
	long long n;
	int rc;
	if (by_place(spec, &n))
		rc = store_query(st, what, &r,
				 "SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?", "i", (int64_t)n);
	else if (parse_long(spec, 1, INT64_MAX, &n) == 0)
		rc = store_query(st, what, &r, "SELECT id FROM runs WHERE id = ?",
				 "i", (int64_t)n);
	else
		rc = store_query(st, what, &r,
				 "SELECT id FROM runs WHERE label = ?1 OR uuid = ?1 ORDER BY id DESC LIMIT 1", "s",
				 spec);
	if (rc < 0)
		return -1;
	if (r.n == 0)
		no_match(st, spec);
	else
		*run_id = *(int64_t *)r.v;
	free(r.v);
	return r.n ? 0 : 1;
}

/* A run's id and whether it is still being measured. */
struct id_status {
	int64_t id;
	int running;
};

static void read_id_status(sqlite3_stmt *s, void *row)
{
	struct id_status *r = row;
	r->id = sqlite3_column_int64(s, 0);
	r->running = sqlite3_column_int(s, 1);
}

/* What LABEL:FILTER[:FILTER...] asks of a label's runs: NULL where it asks nothing. */
struct run_select {
	const char *suite, *workload, *mode, *host, *any; /* any: a suite or a workload of that name */
};

/* The filters after a label (text, cut in place), into sel; 1 with the reason in st->err for one it
 * does not know. */
static int parse_select(struct store *st, const char *spec, char *filters, struct run_select *sel)
{
	static const char *const keys[] = {"suite", "workload", "mode", "host"};
	memset(sel, 0, sizeof(*sel));
	char *save = NULL;
	for (char *f = strtok_r(filters, ":", &save); f; f = strtok_r(NULL, ":", &save)) {
		char *eq = strchr(f, '=');
		if (!eq) {
			sel->any = f;
			continue;
		}
		*eq = '\0';
		const char **slot[] = {&sel->suite, &sel->workload, &sel->mode, &sel->host};
		size_t k = 0;
		while (k < ARRAY_SIZE(keys) && strcmp(keys[k], f) != 0)
			k++;
		if (k == ARRAY_SIZE(keys)) {
			snprintf(st->err, sizeof(st->err), "'%s': no filter '%s' (a run is chosen by LABEL:NAME, a suite or "
				 "workload, or LABEL:KEY=VALUE with suite, workload, mode or host)", spec, f);
			return 1;
		}
		*slot[k] = eq + 1;
	}
	return 0;
}

/* The runs of a label that pass sel, oldest first. */
static int select_runs(struct store *st, const char *label, const struct run_select *sel, struct store_rows *r)
{
	*r = (struct store_rows){.size = sizeof(struct id_status), .read = read_id_status};
	return store_query(st, "finding the runs", r,
			   "SELECT id, status = 'running' FROM runs r WHERE label = ?1"
			   " AND (?2 IS NULL OR suite_name = ?2) AND (?3 IS NULL OR mode = ?3)"
			   " AND (?4 IS NULL OR EXISTS (SELECT 1 FROM workloads w WHERE w.run_id = r.id AND w.name = ?4))"
			   " AND (?5 IS NULL OR EXISTS (SELECT 1 FROM env e WHERE e.run_id = r.id AND e.key = 'hostname'"
			   "  AND e.value = ?5))"
			   " AND (?6 IS NULL OR suite_name = ?6 OR"
			   "  EXISTS (SELECT 1 FROM workloads w WHERE w.run_id = r.id AND w.name = ?6))"
			   " ORDER BY id",
			   "ssssss", label, sel->suite, sel->mode, sel->workload, sel->host, sel->any);
}

int store_resolve_group(struct store *st, const char *spec, int64_t **ids, size_t *n)
{
	int rc;
	struct store_rows r = {0};
	long long id;
	*ids = NULL;
	*n = 0;
	/* an id, last or last~N first, as store_resolve_run reads them */
	int one_run = by_place(spec, &id) || parse_long(spec, 1, INT64_MAX, &id) == 0;
	struct run_select none = {0};
	if (!one_run && select_runs(st, spec, &none, &r) < 0)
		return -1;
	const char *colon = strchr(spec, ':');
	if (!one_run && r.n == 0 && colon && colon > spec) {
		/* not a label as it stands: LABEL:FILTER... */
		char *label = xstrdup(spec);
		label[colon - spec] = '\0';
		struct run_select sel;
		rc = parse_select(st, spec, label + (colon - spec) + 1, &sel);
		if (rc == 0 && select_runs(st, label, &sel, &r) < 0)
			rc = -1;
		if (rc == 0 && r.n == 0)
			snprintf(st->err, sizeof(st->err), "no run labelled '%s' passes '%s' ('reaim list' shows each run's "
				 "suite and mode)", label, colon + 1);
		free(label);
		if (rc == 0 && r.n == 0)
			rc = 1;
		if (rc != 0) {
			free(r.v);
			return rc;
		}
	}
	const struct id_status *v = r.v;
	size_t done = 0;
	for (size_t i = 0; i < r.n; i++)
		done += !v[i].running;
	if (r.n == 0) { /* not a label: an id, last, last~N or a uuid names one run */
		free(r.v);
		int64_t one;
		if ((rc = store_resolve_run(st, spec, &one)) != 0)
			return rc;
		*ids = xmalloc(sizeof(**ids));
		**ids = one;
		*n = 1;
		return 0;
	}
	*ids = xcalloc(r.n, sizeof(**ids));
	for (size_t i = 0; i < r.n; i++)
		if (!done || !v[i].running) /* a run being measured joins only when no finished one has the label */
			(*ids)[(*n)++] = v[i].id;
	free(r.v);
	return 0;
}

#define RUN_COLUMNS                                                                              \
	"SELECT r.id, r.uuid, r.label, r.suite_name, r.status, r.started_at,"                    \
	" COALESCE((SELECT value FROM env WHERE run_id = r.id AND key = 'hostname'), ''),"       \
	" r.mode, COALESCE(r.reason, ''),"                                                      \
	" (SELECT COUNT(*) FROM points WHERE run_id = r.id),"                                   \
	" (SELECT COUNT(*) FROM points WHERE run_id = r.id AND valid),"                          \
	" r.version, r.seed, COALESCE(r.rerun_of, ''), COALESCE(r.planned_points, 0),"           \
	" COALESCE(r.planned_exact, 0),"                                                        \
	" (SELECT MAX(m) FROM (SELECT AVG(jobs_per_min) AS m FROM points WHERE run_id = r.id AND valid" \
	"  GROUP BY workload_id, osync, COALESCE(variant, ''), tasks)) FROM runs r"

static void read_run(sqlite3_stmt *s, void *row)
{
	struct store_run_row *r = row;
	r->id = sqlite3_column_int64(s, 0);
	store_copy_text(r->uuid, sizeof(r->uuid), s, 1);
	store_copy_text(r->label, sizeof(r->label), s, 2);
	store_copy_text(r->suite, sizeof(r->suite), s, 3);
	store_copy_text(r->status, sizeof(r->status), s, 4);
	store_copy_text(r->started, sizeof(r->started), s, 5);
	store_copy_text(r->host, sizeof(r->host), s, 6);
	store_copy_text(r->mode, sizeof(r->mode), s, 7);
	store_copy_text(r->reason, sizeof(r->reason), s, 8);
	r->points = sqlite3_column_int(s, 9);
	r->valid_points = sqlite3_column_int(s, 10);
	store_copy_text(r->version, sizeof(r->version), s, 11);
	r->seed = sqlite3_column_int64(s, 12);
	store_copy_text(r->rerun_of, sizeof(r->rerun_of), s, 13);
	r->planned_points = sqlite3_column_int64(s, 14);
	r->planned_exact = sqlite3_column_int(s, 15);
	r->best_jpm = sqlite3_column_type(s, 16) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 16);
}

int store_get_run(struct store *st, int64_t run_id, struct store_run_row *row)
{
	struct store_rows r = {.size = sizeof(*row), .read = read_run};
	if (store_query(st, "reading the run", &r, RUN_COLUMNS " WHERE r.id = ?", "i",
			run_id) < 0)
		return -1;
	if (r.n == 1)
		*row = *(struct store_run_row *)r.v;
	else
		snprintf(st->err, sizeof(st->err), "%s: reading the run: no run %lld", st->path, (long long)run_id);
	free(r.v);
	return r.n == 1 ? 0 : -1;
}

/* Text columns read whole, as owned strings. */
static void read_texts(sqlite3_stmt *s, void *row)
{
	char **t = row;
	for (int i = 0; i < sqlite3_column_count(s); i++) {
		const unsigned char *v = sqlite3_column_text(s, i);
		t[i] = xstrdup(v ? (const char *)v : "");
	}
}

static void drop_texts(sqlite3_stmt *s, void *row)
{
	char **t = row;
	for (int i = 0; i < sqlite3_column_count(s); i++)
		free(t[i]);
}

int store_get_run_text(struct store *st, int64_t run_id, char **command_line, char **suite_text)
{
	struct store_rows r = {.size = 2 * sizeof(char *), .read = read_texts, .drop = drop_texts};
	if (store_query(st, "reading the run's text", &r,
			"SELECT command_line, suite_text FROM runs WHERE id = ?", "i", run_id) < 0)
		return -1;
	char **t = r.v;
	if (r.n != 1) {
		snprintf(st->err, sizeof(st->err), "%s: reading the run: no run %lld", st->path, (long long)run_id);
		free(r.v);
		return -1;
	}
	*command_line = t[0];
	*suite_text = t[1];
	free(r.v);
	return 0;
}

int store_list_runs(struct store *st, const struct run_filter *f, struct store_run_row **rows, size_t *n)
{
	struct store_rows r = {.size = sizeof(**rows), .read = read_run};
	int rc = store_query(st, "listing runs", &r,
			     RUN_COLUMNS
			     " WHERE (?1 IS NULL OR r.label = ?1) AND (?2 IS NULL OR r.suite_name = ?2)"
			     " AND (?3 IS NULL OR EXISTS (SELECT 1 FROM workloads w WHERE w.run_id = r.id"
			     "      AND (w.workfile_name = ?3 OR w.name = ?3)))"
			     " AND (?4 IS NULL OR EXISTS (SELECT 1 FROM env e WHERE e.run_id = r.id"
			     "      AND e.key = 'hostname' AND e.value = ?4))"
			     " AND (?5 IS NULL OR r.status = ?5) AND (?6 IS NULL OR r.started_at >= ?6)"
			     " ORDER BY r.id DESC LIMIT ?7",
			     "ssssssi", f->label, f->suite, f->workfile, f->host, f->status, f->since,
			     f->limit ? (int64_t)f->limit : (int64_t)-1);
	*rows = r.v;
	*n = r.n;
	return rc;
}

/* Columns before the point's figures: its keys and workload name, then whether it was sampled. */
#define POINT_KEYS 4

static void read_point(sqlite3_stmt *s, void *row)
{
	struct store_point *p = row;
	p->id = sqlite3_column_int64(s, 0);
	p->run_id = sqlite3_column_int64(s, 1);
	p->workload_id = sqlite3_column_int64(s, 2);
	store_copy_text(p->workload, sizeof(p->workload), s, 3);
	store_read_figures(s, POINT_KEYS, &store_point_table, p);
	for (size_t i = 0; i < store_point_table.count && !p->sampled; i++)
		p->sampled = store_point_table.fig[i].group == STORE_FIG_SYSTEM &&
			     sqlite3_column_type(s, POINT_KEYS + (int)i) != SQLITE_NULL;
}

int store_get_points(struct store *st, int64_t run_id, struct store_point **pts, size_t *n)
{
	struct store_rows r = {.size = sizeof(**pts), .read = read_point};
	int rc = store_query(st, "reading points", &r,
			     "SELECT p.id, p.run_id, p.workload_id, w.name" STORE_POINT_FIGURES(STORE_POINT_COLUMN)
			     " FROM points p JOIN workloads w ON w.id = p.workload_id WHERE p.run_id = ?"
			     " ORDER BY p.workload_id, p.cpus, p.osync, p.tasks, p.repeat, p.id",
			     "i", run_id);
	*pts = r.v;
	*n = r.n;
	return rc;
}

static void read_test(sqlite3_stmt *s, void *row)
{
	struct store_test *t = row;
	store_copy_text(t->name, sizeof(t->name), s, 0);
	store_read_figures(s, 1, &store_test_table, t);
}

int store_get_tests(struct store *st, int64_t point_id, struct store_test **tests, size_t *n)
{
	struct store_rows r = {.size = sizeof(**tests), .read = read_test};
	int rc = store_query(st, "reading per-test figures", &r,
			     "SELECT test" STORE_TEST_FIGURES(STORE_COLUMN)
			     " FROM test_stats WHERE point_id = ? ORDER BY test",
			     "i", point_id);
	*tests = r.v;
	*n = r.n;
	return rc;
}

static void read_sample(sqlite3_stmt *s, void *row)
{
	store_read_figures(s, 1, &store_sample_table, row);
}

int store_get_samples(struct store *st, int64_t point_id, struct store_sample **samples, size_t *n)
{
	struct store_rows r = {.size = sizeof(**samples), .read = read_sample};
	/* the point's id leads because every figure's column comes with its leading comma */
	int rc = store_query(st, "reading the system time series", &r,
			     "SELECT point_id" STORE_SAMPLE_FIGURES(STORE_COLUMN)
			     " FROM samples WHERE point_id = ? ORDER BY t_s",
			     "i", point_id);
	*samples = r.v;
	*n = r.n;
	return rc;
}

static void read_counter(sqlite3_stmt *s, void *row)
{
	struct store_counter *c = row;
	store_copy_text(c->source, sizeof(c->source), s, 0);
	store_copy_text(c->name, sizeof(c->name), s, 1);
	c->value = sqlite3_column_double(s, 2);
	store_copy_text(c->unit, sizeof(c->unit), s, 3);
	c->running_pct = sqlite3_column_type(s, 4) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 4);
}

int store_get_counters(struct store *st, int64_t point_id, struct store_counter **counters, size_t *n)
{
	struct store_rows r = {.size = sizeof(**counters), .read = read_counter};
	int rc = store_query(st, "reading the point's counters", &r,
			     "SELECT " STORE_COUNTER_COLS " FROM point_counters WHERE point_id = ? ORDER BY source, name",
			     "i", point_id);
	*counters = r.v;
	*n = r.n;
	return rc;
}

static void read_pair(sqlite3_stmt *s, void *row)
{
	*(char **)row = xasprintf("%s\t%s", text_or_empty(s, 0), text_or_empty(s, 1));
}

static void drop_pair(sqlite3_stmt *s, void *row)
{
	(void)s;
	free(*(char **)row);
}

int store_get_env(struct store *st, int64_t run_id, char ***kv, size_t *n)
{
	struct store_rows r = {.size = sizeof(char *), .read = read_pair, .drop = drop_pair};
	int rc = store_query(st, "reading the environment", &r,
			     "SELECT key, value FROM env WHERE run_id = ? ORDER BY key", "i", run_id);
	*kv = r.v;
	*n = r.n;
	return rc;
}

static void read_text(sqlite3_stmt *s, void *row)
{
	*(char **)row = xstrdup(text_or_empty(s, 0));
}

int store_get_kernel_config(struct store *st, int64_t run_id, char **text)
{
	struct store_rows r = {.size = sizeof(char *), .read = read_text, .drop = drop_pair};
	*text = NULL;
	if (store_query(st, "reading the kernel config", &r,
			"SELECT text FROM kernel_configs WHERE run_id = ?", "i", run_id) < 0)
		return -1;
	if (r.n) /* run_id is the key: one row at most */
		*text = ((char **)r.v)[0];
	free(r.v);
	return 0;
}

static void read_option(sqlite3_stmt *s, void *row)
{
	struct store_option *o = row;
	o->workload_id = sqlite3_column_int64(s, 0);
	store_copy_text(o->workload, sizeof(o->workload), s, 1);
	store_copy_text(o->key, sizeof(o->key), s, 2);
	o->item = sqlite3_column_int(s, 3);
	const unsigned char *v = sqlite3_column_text(s, 4);
	o->value = xstrdup(v ? (const char *)v : "");
}

static void drop_option(sqlite3_stmt *s, void *row)
{
	(void)s;
	free(((struct store_option *)row)->value);
}

/* The option rows of a run's workloads that hold every option (from_columns 0) or those that
 * hold what a workload stored before schema 4 kept in its own columns (1). */
static int options_of(struct store *st, int64_t run_id, int from_columns, struct store_option **opts, size_t *n)
{
	struct store_rows r = {.size = sizeof(**opts), .read = read_option, .drop = drop_option};
	int rc = store_query(st, "reading the workloads' options", &r,
			     "SELECT o.workload_id, w.name, o.key, o.item, o.value FROM workload_options o"
			     " JOIN workloads w ON w.id = o.workload_id"
			     " WHERE w.run_id = ? AND w.options_from_columns = ?"
			     " ORDER BY o.workload_id, o.key, o.item",
			     "ii", run_id, (int64_t)from_columns);
	*opts = r.v;
	*n = r.n;
	return rc;
}

int store_get_workload_options(struct store *st, int64_t run_id, struct store_option **opts, size_t *n)
{
	return options_of(st, run_id, 0, opts, n);
}

int store_get_column_options(struct store *st, int64_t run_id, struct store_option **opts, size_t *n)
{
	return options_of(st, run_id, 1, opts, n);
}

void store_options_free(struct store_option *opts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(opts[i].value);
	free(opts);
}

/* The value of one option of workload w, from its option rows (SQLite reads the text as a number). */
#define WORKLOAD_OPTION(key)                                                                                           \
	"(SELECT value FROM workload_options o WHERE o.workload_id = w.id AND o.key = '" key "' AND o.item = -1)"

static void read_workload(sqlite3_stmt *s, void *row)
{
	struct store_workload_row *w = row;
	w->id = sqlite3_column_int64(s, 0);
	store_copy_text(w->name, sizeof(w->name), s, 1);
	store_copy_text(w->workfile_name, sizeof(w->workfile_name), s, 2);
	w->repeat = sqlite3_column_int64(s, 3);
	w->threshold = sqlite3_column_double(s, 4);
}

int store_get_workloads(struct store *st, int64_t run_id, struct store_workload_row **rows, size_t *n)
{
	struct store_rows r = {.size = sizeof(**rows), .read = read_workload};
	int rc = store_query(st, "reading the workloads", &r,
			     "SELECT w.id, w.name, w.workfile_name, " WORKLOAD_OPTION("repeat") ", " WORKLOAD_OPTION(
				     "threshold") " FROM workloads w"
						  " WHERE w.run_id = ? ORDER BY w.id",
			     "i", run_id);
	*rows = r.v;
	*n = r.n;
	return rc;
}

int store_get_workfile_text(struct store *st, int64_t workload_id, char **text)
{
	struct store_rows r = {.size = sizeof(char *), .read = read_texts, .drop = drop_texts};
	if (store_query(st, "reading the workfile", &r,
			"SELECT workfile_text FROM workloads WHERE id = ?", "i", workload_id) < 0)
		return -1;
	if (r.n != 1) {
		snprintf(st->err, sizeof(st->err), "%s: reading the workfile: no workload %lld", st->path,
			 (long long)workload_id);
		free(r.v);
		return -1;
	}
	*text = *(char **)r.v;
	free(r.v);
	return 0;
}
