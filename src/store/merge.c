/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim merge`: copy runs (with environment, workloads and their options, points, per-test
 * figures, time series and counters) from another database, skipping runs already present by their
 * unique id. One transaction. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/internal.h"
#include "util/util.h"

#define RUN_COLS "uuid, label, suite_name, suite_text, command_line, version, mode, seed, started_at, " \
		 "finished_at, status, reason, planned_points, planned_exact, rerun_of"
#define WORKLOAD_COLS "name, workfile_name, workfile_text, tasks, jobs_per_task, repeat, osync, " \
		      "sync_mode, filesize_kib, poolsize_kib, dirs, threshold"
#define POINT_COLS STORE_POINT_FIGURES(STORE_COLUMN)
#define TEST_COLS STORE_TEST_FIGURES(STORE_COLUMN)
#define SAMPLE_COLS STORE_SAMPLE_FIGURES(STORE_COLUMN)

/* Run sql with up to three bound integers; the new row id in *id if asked. */
static int exec_ids(struct store *st, const char *sql, int64_t a, int64_t b, int64_t c, int64_t *id)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "merging");
	int n = sqlite3_bind_parameter_count(s);
	int64_t v[3] = {a, b, c};
	for (int i = 0; i < n && i < 3; i++)
		sqlite3_bind_int64(s, i + 1, v[i]);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_fail(st, "merging");
	if (id)
		*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

/* Ids from a query with one bound integer (or none). */
static int select_ids(struct store *st, const char *sql, int64_t arg, int64_t **ids, size_t *n)
{
	struct store_rows r;
	int rc = strchr(sql, '?') ? store_query(st, "merging", sizeof(**ids), store_read_id, NULL, &r, sql, "i", arg)
				  : store_query(st, "merging", sizeof(**ids), store_read_id, NULL, &r, sql, "");
	*ids = r.v;
	*n = r.n;
	return rc;
}

static int copy_points(struct store *st, int64_t old_run, int64_t new_run, int64_t old_wl, int64_t new_wl)
{
	int64_t *pts;
	size_t n;
	if (select_ids(st, "SELECT id FROM other.points WHERE workload_id = ? ORDER BY id", old_wl, &pts, &n) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		int64_t new_pt;
		rc = exec_ids(st, "INSERT INTO main.points (run_id, workload_id" POINT_COLS ") SELECT ?, ?"
			      POINT_COLS " FROM other.points WHERE id = ?", new_run, new_wl, pts[i], &new_pt);
		if (rc == 0)
			rc = exec_ids(st, "INSERT INTO main.test_stats (point_id, test" TEST_COLS ")"
				      " SELECT ?, test" TEST_COLS " FROM other.test_stats WHERE point_id = ?", new_pt, pts[i], 0, NULL);
		if (rc == 0)
			rc = exec_ids(st, "INSERT INTO main.samples (point_id" SAMPLE_COLS ") SELECT ?" SAMPLE_COLS
				      " FROM other.samples WHERE point_id = ?", new_pt, pts[i], 0, NULL);
		if (rc == 0)
			rc = exec_ids(st, "INSERT INTO main.point_counters (point_id, " STORE_COUNTER_COLS ") SELECT ?, "
				      STORE_COUNTER_COLS " FROM other.point_counters WHERE point_id = ?", new_pt, pts[i], 0,
				      NULL);
	}
	free(pts);
	(void)old_run;
	return rc;
}

static int copy_run(struct store *st, int64_t old_run)
{
	int64_t new_run, *wls;
	size_t n;
	if (exec_ids(st, "INSERT INTO main.runs (" RUN_COLS ") SELECT " RUN_COLS " FROM other.runs WHERE id = ?",
		     old_run, 0, 0, &new_run) < 0 ||
	    exec_ids(st, "INSERT INTO main.env (run_id, key, value) SELECT ?, key, value FROM other.env"
		     " WHERE run_id = ?", new_run, old_run, 0, NULL) < 0 ||
	    exec_ids(st, "INSERT INTO main.kernel_configs (run_id, text) SELECT ?, text FROM other.kernel_configs"
		     " WHERE run_id = ?", new_run, old_run, 0, NULL) < 0 ||
	    select_ids(st, "SELECT id FROM other.workloads WHERE run_id = ? ORDER BY id", old_run, &wls, &n) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		int64_t new_wl;
		rc = exec_ids(st, "INSERT INTO main.workloads (run_id, " WORKLOAD_COLS ") SELECT ?, " WORKLOAD_COLS
			      " FROM other.workloads WHERE id = ?", new_run, wls[i], 0, &new_wl);
		if (rc == 0)
			rc = exec_ids(st, "INSERT INTO main.workload_options (workload_id, key, item, value)"
				      " SELECT ?, key, item, value FROM other.workload_options WHERE workload_id = ?",
				      new_wl, wls[i], 0, NULL);
		if (rc == 0)
			rc = copy_points(st, old_run, new_run, wls[i], new_wl);
	}
	free(wls);
	return rc;
}


/* The same file under another name (a link, ./x.db against x.db) would deadlock on itself. */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;
	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* Attach the other database and check it: ours, this schema, undamaged. */
static int attach_other(struct store *st, const char *other_path)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "ATTACH DATABASE ? AS other", -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "attaching");
	sqlite3_bind_text(s, 1, other_path, -1, SQLITE_TRANSIENT);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_fail(st, "attaching");
	int v = 0;
	if (store_schema_version(st, "other", &v) < 0)
		return -1;
	if (v != (int)store_migration_count) {
		snprintf(st->err, sizeof(st->err), "%s has schema version %d, this reaim writes %zu%s", other_path, v,
			 store_migration_count, v == 0 ? " (not a reaim database?)" : "; open it with this reaim first");
		return -1;
	}
	return store_check_integrity(st, "other", other_path);
}

/* A stop asked for (store_set_cancel): the merge is rolled back whole, nothing half copied. */
static int merge_cancelled(struct store *st)
{
	if (!st->cancelled || !st->cancelled(st->cancel_arg))
		return 0;
	snprintf(st->err, sizeof(st->err), "interrupted: nothing was merged");
	return 1;
}

int store_merge(struct store *st, const char *other_path, size_t *copied, size_t *skipped)
{
	*copied = *skipped = 0;
	if (same_file(st->path, other_path)) {
		snprintf(st->err, sizeof(st->err), "%s is the database being merged into", other_path);
		return -1;
	}
	int rc = attach_other(st, other_path);
	int64_t *runs = NULL, *stale = NULL;
	size_t n = 0, nstale = 0, total = 0;
	if (rc == 0)
		rc = select_ids(st, "SELECT COUNT(*) FROM other.runs", 0, &runs, &n);
	if (rc == 0 && n == 1)
		total = (size_t)runs[0];
	free(runs);
	runs = NULL;
	/* a run still going there is left for a later merge; a copy of one that was still going
	 * when merged before is replaced once the other side has finished it */
	if (rc == 0)
		rc = select_ids(st, "SELECT m.id FROM main.runs m JOIN other.runs o ON o.uuid = m.uuid"
				" WHERE m.status = 'running' AND o.status <> 'running'", 0, &stale, &nstale);
	if (rc == 0)
		rc = select_ids(st, "SELECT id FROM other.runs WHERE status <> 'running' AND (uuid NOT IN"
				" (SELECT uuid FROM main.runs) OR uuid IN (SELECT uuid FROM main.runs WHERE"
				" status = 'running')) ORDER BY id", 0, &runs, &n);
	if (rc == 0 && sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		rc = store_fail(st, "locking the database");
	else if (rc == 0) {
		for (size_t i = 0; i < nstale && rc == 0; i++)
			rc = exec_ids(st, "DELETE FROM main.runs WHERE id = ?", stale[i], 0, 0, NULL);
		for (size_t i = 0; i < n && rc == 0; i++)
			rc = merge_cancelled(st) ? -1 : copy_run(st, runs[i]);
		if (rc == 0 && merge_cancelled(st))
			rc = -1;
		if (rc == 0 && sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			rc = store_fail(st, "committing the merge");
		if (rc < 0)
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	}
	if (rc == 0) {
		*copied = n;
		*skipped = total - n;
	}
	free(runs);
	free(stale);
	sqlite3_exec(st->db, "DETACH DATABASE other", NULL, NULL, NULL);
	return rc;
}
