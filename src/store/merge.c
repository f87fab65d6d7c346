/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim merge`: copy runs (with environment, workloads and their options, points, per-test
 * figures, time series and counters) from another database, skipping runs already present by their
 * unique id. One transaction. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/internal.h"
#include "util/env.h"
#include "util/util.h"

#define RUN_COLS "uuid, label, suite_name, suite_text, command_line, version, mode, seed, started_at, " \
		 "finished_at, status, reason, planned_points, planned_exact, rerun_of"
#define WORKLOAD_COLS "name, workfile_name, workfile_text, options_from_columns"
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

static int exec_text(struct store *st, const char *sql, const char *text)
{
	sqlite3_stmt *s;
	if (store_prepare(st, &s, "merging", sql, "s", text) < 0)
		return -1;
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "merging");
}

/* Ids from a query with one bound integer (or none). */
static int select_ids(struct store *st, const char *sql, int64_t arg, int64_t **ids, size_t *n)
{
	struct store_rows r = {.size = sizeof(**ids), .read = store_read_id};
	int rc = strchr(sql, '?') ? store_query(st, "merging", &r, sql, "i", arg)
				  : store_query(st, "merging", &r, sql, "");
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

static int copy_run(struct store *st, int64_t old_run, int64_t *new_id)
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
	*new_id = new_run;
	return rc;
}


/* The same file under another name (a link, ./x.db against x.db) would deadlock on itself. */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;
	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* An error of the other database names it, not the one merged into. */
static int fail_other(struct store *st, const char *other_path, const char *what)
{
	snprintf(st->err, sizeof(st->err), "%s: %s: %s", other_path, what, sqlite3_errmsg(st->db));
	return -1;
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
		return fail_other(st, other_path, "opening it to merge");
	int v = 0;
	rc = store_classify(st, "other", other_path, &v);
	if (rc < 0) {
		if (strncmp(st->err, st->path, strlen(st->path)) == 0) /* SQLite's reason, said of main */
			return fail_other(st, other_path, "reading it to merge");
		return -1;
	}
	if (rc == STORE_FILE_EMPTY) {
		snprintf(st->err, sizeof(st->err), "%s: an empty database: no run is stored in it", other_path);
		return -1;
	}
	if (v != (int)store_migration_count) {
		int can = access(other_path, W_OK) == 0;
		snprintf(st->err, sizeof(st->err), "%s: schema version %d, this reaim merges from %zu%s", other_path, v,
			 store_migration_count,
			 can ? "; any run or merge of this reaim with --db on it upgrades it"
			     : " (it is not writable here: upgrade a copy with any run or merge of this reaim, then "
			       "merge the copy)");
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

/* The other database's runs left 'running' by a writer that is gone (its lock free beside that
 * database, or with no lock file a pid of this host that is no reaim): their uuids go into
 * temp.merge_dead, to be merged as the interrupted runs they are. */
struct running_row {
	char uuid[40], host[256];
	char *lock_file;
	int64_t pid;
};

static void read_running(sqlite3_stmt *s, void *row)
{
	struct running_row *r = row;
	store_copy_text(r->uuid, sizeof(r->uuid), s, 0);
	const unsigned char *t = sqlite3_column_text(s, 1);
	r->lock_file = t ? xstrdup((const char *)t) : NULL;
	r->pid = sqlite3_column_int64(s, 2);
	store_copy_text(r->host, sizeof(r->host), s, 3);
}

static void drop_running(sqlite3_stmt *s, void *row)
{
	(void)s;
	free(((struct running_row *)row)->lock_file);
}

static int find_dead(struct store *st, const char *other_path)
{
	struct store_rows r = {.size = sizeof(struct running_row), .read = read_running, .drop = drop_running};
	/* its runs' lock files are beside the file itself, whatever name it is given here */
	char *file = path_resolve(other_path);
	if (!file) {
		snprintf(st->err, sizeof(st->err), "%s: %s", other_path, strerror(errno));
		return -1;
	}
	const char *slash = strrchr(file, '/');
	char *dir = xasprintf("%.*s", slash == file ? 1 : (int)(slash - file), file);
	free(file);
	if (sqlite3_exec(st->db, "CREATE TEMP TABLE IF NOT EXISTS merge_dead (uuid TEXT PRIMARY KEY);"
			 "DELETE FROM temp.merge_dead", NULL, NULL, NULL) != SQLITE_OK) {
		free(dir);
		return store_fail(st, "merging");
	}
	if (store_query(st, "merging", &r,
			"SELECT uuid, lock_file, pid, COALESCE(host, '') FROM other.runs WHERE status = 'running'",
			"") < 0) {
		free(dir);
		return -1;
	}
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	struct running_row *v = r.v;
	int rc = 0;
	for (size_t i = 0; i < r.n; i++) {
		/* a pid says something only on the host that wrote it */
		int64_t pid = strcmp(v[i].host, host) == 0 ? v[i].pid : 0;
		if (rc == 0 && !store_owner_alive(dir, v[i].lock_file, v[i].uuid, pid, 0))
			rc = exec_text(st, "INSERT OR IGNORE INTO temp.merge_dead (uuid) VALUES (?)", v[i].uuid);
		drop_running(NULL, &v[i]);
	}
	free(r.v);
	free(dir);
	return rc;
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
		rc = find_dead(st, other_path);
	if (rc == 0)
		rc = select_ids(st, "SELECT COUNT(*) FROM other.runs", 0, &runs, &n);
	if (rc == 0 && n == 1)
		total = (size_t)runs[0];
	free(runs);
	runs = NULL;
	/* a run still going there is left for a later merge. A copy is replaced when the other side
	 * holds a different end of it: one still going when merged before, once it has finished (or
	 * its writer died); one merged as interrupted because its writer looked dead, once the other
	 * side says otherwise (it finished after all, or holds more points) */
	if (rc == 0)
		rc = exec_text(st, "CREATE TEMP TABLE merge_replace AS SELECT m.id AS id, m.uuid AS uuid FROM main.runs m"
			       " JOIN other.runs o ON o.uuid = m.uuid WHERE (o.status <> 'running' OR o.uuid IN"
			       " (SELECT uuid FROM temp.merge_dead)) AND (m.status = 'running' OR (m.status = 'interrupted'"
			       " AND m.reason = ?1 AND NOT ((CASE WHEN o.status = 'running' THEN 'interrupted' ELSE"
			       " o.status END) = m.status AND (CASE WHEN o.status = 'running' THEN ?1 ELSE o.reason END)"
			       " IS m.reason AND (SELECT COUNT(*) FROM other.points p WHERE p.run_id = o.id) ="
			       " (SELECT COUNT(*) FROM main.points p WHERE p.run_id = m.id))))", STORE_DEAD_REASON);
	if (rc == 0)
		rc = select_ids(st, "SELECT id FROM temp.merge_replace", 0, &stale, &nstale);
	if (rc == 0)
		rc = select_ids(st, "SELECT id FROM other.runs WHERE (status <> 'running' OR uuid IN"
				" (SELECT uuid FROM temp.merge_dead)) AND (uuid NOT IN (SELECT uuid FROM main.runs) OR"
				" uuid IN (SELECT uuid FROM temp.merge_replace)) ORDER BY id",
				0, &runs, &n);
	if (rc == 0 && sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		rc = store_fail(st, "locking the database");
	else if (rc == 0) {
		for (size_t i = 0; i < nstale && rc == 0; i++)
			rc = exec_ids(st, "DELETE FROM main.runs WHERE id = ?", stale[i], 0, 0, NULL);
		for (size_t i = 0; i < n && rc == 0; i++) {
			int64_t id = 0;
			rc = merge_cancelled(st) ? -1 : copy_run(st, runs[i], &id);
			/* only a run whose writer died is still 'running' here */
			if (rc == 0)
				rc = exec_ids(st, "UPDATE main.runs SET status = 'interrupted', reason = '" STORE_DEAD_REASON
					      "', finished_at = strftime('%Y-%m-%dT%H:%M:%SZ','now')"
					      " WHERE id = ? AND status = 'running'", id, 0, 0, NULL);
		}
		if (rc == 0 && merge_cancelled(st))
			rc = -1;
		if (rc == 0 && sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			rc = store_fail(st, "committing the merge");
		if (rc < 0)
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	}
	size_t len = strlen(st->path);
	if (rc < 0 && strncmp(st->err, st->path, len) == 0 && strncmp(st->err + len, ": merging: ", 11) == 0) {
		/* either file may be at fault: name both */
		char *m = xasprintf("merging %s into %s: %s", other_path, st->path, st->err + len + 11);
		snprintf(st->err, sizeof(st->err), "%s", m);
		free(m);
	}
	if (rc == 0) {
		*copied = n;
		*skipped = total - n;
	}
	free(runs);
	free(stale);
	sqlite3_exec(st->db, "DROP TABLE IF EXISTS temp.merge_dead; DROP TABLE IF EXISTS temp.merge_replace", NULL,
		     NULL, NULL);
	sqlite3_exec(st->db, "DETACH DATABASE other", NULL, NULL, NULL);
	return rc;
}

/* A run's start and end as the host saw them, in the schema's format. */
static int restamp(struct store *b, int64_t run, int64_t started_s, int64_t finished_s)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(b->db,
			       "UPDATE runs SET started_at = strftime('%Y-%m-%dT%H:%M:%SZ', ?1, 'unixepoch'),"
			       " finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', ?2, 'unixepoch') WHERE id = ?3",
			       -1, &q, NULL) != SQLITE_OK)
		return store_fail(b, "restamping the run");
	sqlite3_bind_int64(q, 1, started_s);
	sqlite3_bind_int64(q, 2, finished_s);
	sqlite3_bind_int64(q, 3, run);
	int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(q);
	return rc < 0 ? store_fail(b, "restamping the run") : 0;
}

int store_give_facts(const char *path, const struct store_gift *g, char *err, size_t errlen)
{
	struct store *b;
	if (store_open(path, &b, err, errlen) < 0)
		return -1;
	struct store_run_row *rows = NULL;
	size_t n = 0;
	struct run_filter f = {0};
	int rc = store_list_runs(b, &f, &rows, &n);
	if (rc < 0)
		set_err(err, errlen, "%s", store_error(b));
	else if (n != 1 || strcmp(rows[0].label, g->name) != 0) {
		set_err(err, errlen, "%s holds %zu runs, not one labelled %s", g->whose, n, g->name);
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < g->facts->count; i++)
		if (store_run_env(b, rows[0].id, g->facts->items[i].key, g->facts->items[i].value) < 0) {
			set_err(err, errlen, "%s", store_error(b));
			rc = -1;
		}
	if (rc == 0 && g->started_s > 0 && restamp(b, rows[0].id, g->started_s, g->finished_s) < 0) {
		set_err(err, errlen, "%s", store_error(b));
		rc = -1;
	}
	free(rows);
	store_close(b);
	return rc;
}
