/* Reading runs back for list, show, export and compare. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"
#include "util/util.h"

static void copy_text(char *dst, size_t len, sqlite3_stmt *s, int col)
{
	const unsigned char *t = sqlite3_column_text(s, col);
	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

static int prepare(struct store *st, const char *sql, sqlite3_stmt **s)
{
	return sqlite3_prepare_v2(st->db, sql, -1, s, NULL) == SQLITE_OK ? 0 : store_fail(st, "query");
}

int store_resolve_run(struct store *st, const char *spec, int64_t *run_id)
{
	sqlite3_stmt *s;
	long long n;
	int rc;
	if (strncmp(spec, "last", 4) == 0 && (spec[4] == '\0' || (spec[4] == '~' &&
					     parse_long(spec + 5, 0, 1000000, &n) == 0))) {
		if (prepare(st, "SELECT id FROM runs ORDER BY id DESC LIMIT 1 OFFSET ?", &s) < 0)
			return -1;
		sqlite3_bind_int64(s, 1, spec[4] ? n : 0);
	} else if (parse_long(spec, 1, INT64_MAX, &n) == 0) {
		if (prepare(st, "SELECT id FROM runs WHERE id = ?", &s) < 0)
			return -1;
		sqlite3_bind_int64(s, 1, n);
	} else {
		if (prepare(st, "SELECT id FROM runs WHERE label = ? OR uuid = ? ORDER BY id DESC LIMIT 1", &s) < 0)
			return -1;
		sqlite3_bind_text(s, 1, spec, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, spec, -1, SQLITE_TRANSIENT);
	}
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE) {
		snprintf(st->err, sizeof(st->err), "no run matches '%s' (try 'reaim list')", spec);
		return -1;
	}
	return store_fail(st, "finding the run");
}

#define RUN_COLUMNS                                                                              \
	"SELECT r.id, r.uuid, r.label, r.suite_name, r.status, r.started_at,"                    \
	" COALESCE((SELECT value FROM env WHERE run_id = r.id AND key = 'hostname'), ''),"       \
	" r.mode, COALESCE(r.reason, ''),"                                                      \
	" (SELECT COUNT(*) FROM points WHERE run_id = r.id),"                                   \
	" (SELECT COUNT(*) FROM points WHERE run_id = r.id AND valid) FROM runs r"

static void read_run(sqlite3_stmt *s, struct store_run_row *r)
{
	r->id = sqlite3_column_int64(s, 0);
	copy_text(r->uuid, sizeof(r->uuid), s, 1);
	copy_text(r->label, sizeof(r->label), s, 2);
	copy_text(r->suite, sizeof(r->suite), s, 3);
	copy_text(r->status, sizeof(r->status), s, 4);
	copy_text(r->started, sizeof(r->started), s, 5);
	copy_text(r->host, sizeof(r->host), s, 6);
	copy_text(r->mode, sizeof(r->mode), s, 7);
	copy_text(r->reason, sizeof(r->reason), s, 8);
	r->points = sqlite3_column_int(s, 9);
	r->valid_points = sqlite3_column_int(s, 10);
}

int store_get_run(struct store *st, int64_t run_id, struct store_run_row *row)
{
	sqlite3_stmt *s;
	if (prepare(st, RUN_COLUMNS " WHERE r.id = ?", &s) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		read_run(s, row);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : store_fail(st, "reading the run");
}

int store_list_runs(struct store *st, const struct run_filter *f, struct store_run_row **rows, size_t *n)
{
	sqlite3_stmt *s;
	if (prepare(st, RUN_COLUMNS
		    " WHERE (?1 IS NULL OR r.label = ?1) AND (?2 IS NULL OR r.suite_name = ?2)"
		    " AND (?3 IS NULL OR EXISTS (SELECT 1 FROM workloads w WHERE w.run_id = r.id"
		    "      AND (w.workfile_name = ?3 OR w.name = ?3)))"
		    " AND (?4 IS NULL OR EXISTS (SELECT 1 FROM env e WHERE e.run_id = r.id"
		    "      AND e.key = 'hostname' AND e.value = ?4))"
		    " AND (?5 IS NULL OR r.status = ?5) AND (?6 IS NULL OR r.started_at >= ?6)"
		    " ORDER BY r.id DESC LIMIT ?7",
		    &s) < 0)
		return -1;
	const char *text[] = {f->label, f->suite, f->workfile, f->host, f->status, f->since};
	for (int i = 0; i < 6; i++)
		sqlite3_bind_text(s, i + 1, text[i], -1, SQLITE_TRANSIENT); /* NULL binds NULL */
	sqlite3_bind_int64(s, 7, f->limit ? (int64_t)f->limit : -1);
	*rows = NULL;
	*n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*rows = xrealloc(*rows, (*n + 1) * sizeof(**rows));
		read_run(s, &(*rows)[(*n)++]);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "listing runs");
}

int store_get_points(struct store *st, int64_t run_id, struct store_point **pts, size_t *n)
{
	sqlite3_stmt *s;
	if (prepare(st,
		    "SELECT p.id, p.run_id, p.workload_id, w.name, p.osync, p.tasks, p.repeat, p.valid,"
		    " COALESCE(p.reason, ''), p.jobs_per_task, p.file_kib, p.jobs_per_min, p.jobs_per_min_task,"
		    " p.real_s, p.user_s, p.sys_s, p.cpu_s, p.std_dev_s, p.std_dev_pct, p.jti, p.min_task_s,"
		    " p.max_task_s, p.min_task_index, p.max_task_index, p.release_skew_s, p.overhead_s,"
		    " p.user_pct IS NOT NULL, p.user_pct, p.sys_pct, p.iowait_pct, p.idle_pct, p.read_kbs, p.write_kbs,"
		    " p.read_iops, p.write_iops, p.util_pct, p.ctxt_per_s, p.forks_per_s, p.pgfault_per_s,"
		    " p.sampler_cpu_pct"
		    " FROM points p JOIN workloads w ON w.id = p.workload_id WHERE p.run_id = ?"
		    " ORDER BY p.workload_id, p.osync DESC, p.tasks, p.repeat",
		    &s) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	*pts = NULL;
	*n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*pts = xrealloc(*pts, (*n + 1) * sizeof(**pts));
		struct store_point *p = &(*pts)[(*n)++];
		memset(p, 0, sizeof(*p));
		p->id = sqlite3_column_int64(s, 0);
		p->run_id = sqlite3_column_int64(s, 1);
		p->workload_id = sqlite3_column_int64(s, 2);
		copy_text(p->workload, sizeof(p->workload), s, 3);
		p->osync = sqlite3_column_int(s, 4);
		p->tasks = sqlite3_column_int(s, 5);
		p->repeat = sqlite3_column_int(s, 6);
		p->valid = sqlite3_column_int(s, 7);
		copy_text(p->reason, sizeof(p->reason), s, 8);
		p->jobs_per_task = sqlite3_column_int64(s, 9);
		p->file_kib = sqlite3_column_int64(s, 10);
		double *d[] = {&p->jobs_per_min, &p->jobs_per_min_task, &p->real_s, &p->user_s, &p->sys_s,
			       &p->cpu_s, &p->std_dev_s, &p->std_dev_pct, &p->jti, &p->min_task_s, &p->max_task_s};
		for (int i = 0; i < (int)ARRAY_SIZE(d); i++)
			*d[i] = sqlite3_column_double(s, 11 + i);
		p->min_task_index = sqlite3_column_int(s, 22);
		p->max_task_index = sqlite3_column_int(s, 23);
		p->release_skew_s = sqlite3_column_double(s, 24);
		p->overhead_s = sqlite3_column_double(s, 25);
		p->sampled = sqlite3_column_int(s, 26);
		double *sys[] = {&p->user_pct, &p->sys_pct, &p->iowait_pct, &p->idle_pct, &p->read_kbs, &p->write_kbs,
				 &p->read_iops, &p->write_iops, &p->util_pct, &p->ctxt_per_s, &p->forks_per_s,
				 &p->pgfault_per_s, &p->sampler_cpu_pct};
		for (int i = 0; i < (int)ARRAY_SIZE(sys); i++)
			*sys[i] = sqlite3_column_double(s, 27 + i);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "reading points");
}

int store_get_tests(struct store *st, int64_t point_id, struct store_test **tests, size_t *n)
{
	sqlite3_stmt *s;
	if (prepare(st,
		    "SELECT test, count, total_s, min_s, max_s, mean_s, p50_s, p90_s, p99_s, over_2s"
		    " FROM test_stats WHERE point_id = ? ORDER BY test",
		    &s) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, point_id);
	*tests = NULL;
	*n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*tests = xrealloc(*tests, (*n + 1) * sizeof(**tests));
		struct store_test *t = &(*tests)[(*n)++];
		copy_text(t->name, sizeof(t->name), s, 0);
		t->count = sqlite3_column_int64(s, 1);
		double *d[] = {&t->total_s, &t->min_s, &t->max_s, &t->mean_s, &t->p50_s, &t->p90_s, &t->p99_s};
		for (int i = 0; i < (int)ARRAY_SIZE(d); i++)
			*d[i] = sqlite3_column_double(s, 2 + i);
		t->over_2s = sqlite3_column_int64(s, 9);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "reading per-test figures");
}

int store_get_samples(struct store *st, int64_t point_id, struct store_sample **samples, size_t *n)
{
	sqlite3_stmt *s;
	if (prepare(st,
		    "SELECT t_s, user_pct, sys_pct, iowait_pct, idle_pct, read_kbs, write_kbs, util_pct, ctxt_per_s"
		    " FROM samples WHERE point_id = ? ORDER BY t_s",
		    &s) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, point_id);
	*samples = NULL;
	*n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*samples = xrealloc(*samples, (*n + 1) * sizeof(**samples));
		struct store_sample *x = &(*samples)[(*n)++];
		double *f[] = {&x->t_s, &x->user_pct, &x->sys_pct, &x->iowait_pct, &x->idle_pct,
			       &x->read_kbs, &x->write_kbs, &x->util_pct, &x->ctxt_per_s};
		for (int i = 0; i < (int)ARRAY_SIZE(f); i++)
			*f[i] = sqlite3_column_double(s, i);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "reading the system time series");
}

int store_get_env(struct store *st, int64_t run_id, char ***kv, size_t *n)
{
	sqlite3_stmt *s;
	if (prepare(st, "SELECT key, value FROM env WHERE run_id = ? ORDER BY key", &s) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	*kv = NULL;
	*n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*kv = xrealloc(*kv, (*n + 1) * sizeof(char *));
		(*kv)[(*n)++] = xasprintf("%s\t%s", (const char *)sqlite3_column_text(s, 0),
					  (const char *)sqlite3_column_text(s, 1));
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "reading the environment");
}

int store_get_workloads(struct store *st, int64_t run_id, struct store_workload_row **rows, size_t *n)
{
	sqlite3_stmt *s;
	if (prepare(st,
		    "SELECT id, name, workfile_name, jobs_per_task, repeat, threshold FROM workloads"
		    " WHERE run_id = ? ORDER BY id",
		    &s) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	*rows = NULL;
	*n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*rows = xrealloc(*rows, (*n + 1) * sizeof(**rows));
		struct store_workload_row *w = &(*rows)[(*n)++];
		w->id = sqlite3_column_int64(s, 0);
		copy_text(w->name, sizeof(w->name), s, 1);
		copy_text(w->workfile_name, sizeof(w->workfile_name), s, 2);
		w->jobs_per_task = sqlite3_column_int64(s, 3);
		w->repeat = sqlite3_column_int64(s, 4);
		w->threshold = sqlite3_column_double(s, 5);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "reading the workloads");
}
