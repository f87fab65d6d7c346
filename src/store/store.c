/* Opening, migrating and writing the results database. Prepared statements only. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/internal.h"
#include "util/env.h"
#include "util/util.h"

int store_fail(struct store *st, const char *what)
{
	snprintf(st->err, sizeof(st->err), "%s: %s: %s", st->path, what, st->db ? sqlite3_errmsg(st->db) : "no database");
	return -1;
}

const char *store_error(const struct store *st) { return st->err; }

static int exec(struct store *st, const char *sql, const char *what)
{
	return sqlite3_exec(st->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : store_fail(st, what);
}

int store_schema_version(struct store *st, const char *schema, int *v)
{
	char sql[64];
	sqlite3_stmt *s;
	snprintf(sql, sizeof(sql), "PRAGMA %s.user_version", schema);
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "reading the schema version");
	int rc = sqlite3_step(s);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : store_fail(st, "reading the schema version");
}

/* Any table at all: a version-0 file that has some belongs to another program. */
static int has_tables(struct store *st)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1", -1, &s, NULL) !=
	    SQLITE_OK)
		return 1;
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc != SQLITE_DONE;
}

/* Refuse, before changing anything (even the journal mode), a file that is another
 * program's database: schema version 0 but tables in it. */
static int is_ours(struct store *st)
{
	int v;
	if (store_schema_version(st, "main", &v) < 0)
		return -1;
	if (v == 0 && has_tables(st)) {
		snprintf(st->err, sizeof(st->err), "%s: an SQLite database, but not a reaim results database "
			 "(it has tables and no reaim schema version); left untouched", st->path);
		return -1;
	}
	return 0;
}

/* Bring the schema up to date in one transaction, so a failure changes nothing. */
static int migrate(struct store *st)
{
	int v;
	if (exec(st, "BEGIN IMMEDIATE", "locking the database") < 0)
		return -1;
	if (store_schema_version(st, "main", &v) < 0)
		goto fail;
	if (v > (int)store_migration_count) {
		snprintf(st->err, sizeof(st->err), "schema version %d is newer than this reaim knows (%zu)",
			 v, store_migration_count);
		goto fail;
	}
	for (; v < (int)store_migration_count; v++) {
		if (exec(st, store_migrations[v], "migrating the schema") < 0)
			goto fail;
		char pragma[64];
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
		if (exec(st, pragma, "setting the schema version") < 0)
			goto fail;
	}
	return exec(st, "COMMIT", "committing the schema");
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Paths SQLite accepts but that cannot keep a run: empty (a private temporary database),
 * ":memory:", URIs, and anything that exists but is not a regular file (/dev/null would get
 * a journal written next to it, in /dev). */
static int check_path(struct store *st, const char *path)
{
	struct stat sb;
	if (!*path || strcmp(path, ":memory:") == 0 || strncmp(path, "file:", 5) == 0) {
		snprintf(st->err, sizeof(st->err), "'%s': not a database file name (an empty name, :memory: or a "
						   "URI would keep nothing); give a path", path);
		return -1;
	}
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		snprintf(st->err, sizeof(st->err), "%s: not a regular file, cannot hold a results database", path);
		return -1;
	}
	return 0;
}

/* Waiting for another writer: in short sleeps, for as long as the owner allows, and never past
 * a cancellation (Ctrl-C during a run must end it within a second). */
static int busy_wait(void *arg, int tries)
{
	struct store *st = arg;
	if (st->cancelled && st->cancelled(st->cancel_arg))
		return 0;
	if ((long long)tries * 10 >= st->busy_limit_ms)
		return 0;
	if (tries == 100 && st->busy_limit_ms > 1000)
		log_warn("%s is locked by another program; waiting (Ctrl-C to stop)", st->path);
	sqlite3_sleep(10);
	return 1;
}

/* PRAGMA quick_check: a damaged page is found before anything is appended to the file. */
int store_check_integrity(struct store *st, const char *schema, const char *path)
{
	char sql[64];
	sqlite3_stmt *s;
	snprintf(sql, sizeof(sql), "PRAGMA %s.quick_check(1)", schema);
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "checking the database");
	int rc = sqlite3_step(s);
	const unsigned char *t = rc == SQLITE_ROW ? sqlite3_column_text(s, 0) : NULL;
	int ok = t && strcmp((const char *)t, "ok") == 0;
	if (!ok && rc == SQLITE_ROW)
		snprintf(st->err, sizeof(st->err), "%s: the database is damaged (%s); nothing was written",
			 path, t ? (const char *)t : "?");
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return store_fail(st, "checking the database");
	return ok ? 0 : -1;
}

/* Decide on a read-only connection whether an existing file is ours and sound, so that a file
 * we refuse is never changed (not even its journal mode). */
static int vet_existing(struct store *st)
{
	if (access(st->path, F_OK) != 0)
		return 0;
	int rc = sqlite3_open_v2(st->path, &st->db, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_handler(st->db, busy_wait, st);
		rc = is_ours(st) == 0 && store_check_integrity(st, "main", st->path) == 0 ? SQLITE_OK : SQLITE_ERROR;
	} else {
		store_fail(st, "opening");
	}
	sqlite3_close(st->db);
	st->db = NULL;
	return rc == SQLITE_OK ? 0 : -1;
}

static struct store *store_new(const char *path)
{
	struct store *st = xcalloc(1, sizeof(*st));
	snprintf(st->path, sizeof(st->path), "%s", path);
	st->busy_limit_ms = STORE_WRITER_WAIT_MS;
	return st;
}

int store_open(const char *path, struct store **out, char *err, size_t errlen)
{
	return store_open_cancellable(path, NULL, NULL, out, err, errlen);
}

int store_open_cancellable(const char *path, int (*cancelled)(void *), void *arg, struct store **out, char *err,
			   size_t errlen)
{
	struct store *st = store_new(path);
	store_set_cancel(st, cancelled, arg);
	if (check_path(st, path) == 0 && vet_existing(st) == 0) {
		int rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
		if (rc == SQLITE_OK) {
			sqlite3_busy_handler(st->db, busy_wait, st);
			if (is_ours(st) == 0 && exec(st, "PRAGMA journal_mode = WAL", "opening") == 0 &&
			    exec(st, "PRAGMA foreign_keys = ON", "opening") == 0 &&
			    exec(st, "PRAGMA synchronous = NORMAL", "opening") == 0 && migrate(st) == 0) {
				*out = st;
				return 0;
			}
		} else {
			store_fail(st, "opening");
		}
	}
	snprintf(err, errlen, "%s", st->err);
	store_close(st);
	return -1;
}

/* Readers never write, so a read-only mount or another user's file works, and they do not wait
 * for writers (WAL readers need not). A file on a read-only mount whose WAL index cannot be
 * created is opened as immutable. */
int store_open_read(const char *path, struct store **out, char *err, size_t errlen)
{
	struct store *st = store_new(path);
	st->busy_limit_ms = STORE_READER_WAIT_MS;
	int v = 0;
	if (check_path(st, path) == 0) {
		if (access(path, F_OK) != 0) {
			snprintf(st->err, sizeof(st->err), "%s: no results database here (run a suite first, or pass --db)",
				 path);
		} else {
			int rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READONLY, NULL);
			if (rc == SQLITE_OK)
				sqlite3_busy_handler(st->db, busy_wait, st);
			if (rc == SQLITE_OK && store_schema_version(st, "main", &v) < 0 &&
			    (sqlite3_errcode(st->db) == SQLITE_CANTOPEN || sqlite3_errcode(st->db) == SQLITE_READONLY)) {
				sqlite3_close(st->db);
				st->db = NULL;
				char *uri = sqlite3_mprintf("file:%s?immutable=1", path);
				rc = sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
				sqlite3_free(uri);
			}
			if (rc != SQLITE_OK)
				store_fail(st, "opening");
			else if (is_ours(st) == 0 && store_schema_version(st, "main", &v) == 0) {
				if (v == (int)store_migration_count) {
					*out = st;
					return 0;
				}
				snprintf(st->err, sizeof(st->err), "%s: schema version %d, this reaim reads %zu%s", path, v,
					 store_migration_count,
					 v < (int)store_migration_count ? "; open it once with write access (any run or "
									 "merge) to upgrade it"
									: " (a newer reaim wrote it)");
			}
		}
	}
	snprintf(err, errlen, "%s", st->err);
	store_close(st);
	return -1;
}

void store_set_cancel(struct store *st, int (*cancelled)(void *), void *arg)
{
	st->cancelled = cancelled;
	st->cancel_arg = arg;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	free(st);
}

/* Bind a list of values described by a format: s = text, i = int64, d = double. */
static int bind_all(sqlite3_stmt *s, const char *fmt, va_list ap)
{
	for (int i = 1; *fmt; fmt++, i++) {
		int rc;
		switch (*fmt) {
		case 's': {
			const char *v = va_arg(ap, const char *);
			rc = v ? sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(s, i);
			break;
		}
		case 'i': rc = sqlite3_bind_int64(s, i, va_arg(ap, int64_t)); break;
		case 'd': rc = sqlite3_bind_double(s, i, va_arg(ap, double)); break;
		default: return SQLITE_MISUSE;
		}
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

/* Run one statement with bound values; the new row id in *id when id is not NULL. */
static int run_stmt(struct store *st, int64_t *id, const char *what, const char *sql, const char *fmt, ...)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, what);
	va_list ap;
	va_start(ap, fmt);
	int rc = bind_all(s, fmt, ap);
	va_end(ap);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_fail(st, what);
	if (id)
		*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int store_run_begin(struct store *st, const struct store_run *r, const struct env_list *env, int64_t *run_id)
{
	/* the run and its environment together, or neither */
	if (exec(st, "BEGIN IMMEDIATE", "storing the run") < 0)
		return -1;
	int rc = run_stmt(st, run_id, "storing the run",
			"INSERT INTO runs (uuid, label, suite_name, suite_text, command_line, version, mode, seed,"
			" pid, host) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			"sssssssiis", r->uuid, r->label, r->suite_name, r->suite_text, r->command_line,
			r->version, r->mode, r->seed, r->pid, r->host);
	for (size_t i = 0; env && i < env->count && rc == 0; i++)
		rc = store_run_env(st, *run_id, env->items[i].key, env->items[i].value);
	if (rc == 0 && exec(st, "COMMIT", "committing the run") == 0)
		return 0;
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int store_run_env(struct store *st, int64_t run_id, const char *key, const char *value)
{
	return run_stmt(st, NULL, "storing the environment",
			"INSERT OR REPLACE INTO env (run_id, key, value) VALUES (?, ?, ?)", "iss", run_id, key,
			value);
}

int store_run_finish(struct store *st, int64_t run_id, const char *status, const char *reason)
{
	return run_stmt(st, NULL, "finishing the run",
			"UPDATE runs SET status = ?, reason = ?,"
			" finished_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = ?",
			"ssi", status, reason, run_id);
}

int store_workload_add(struct store *st, int64_t run_id, const struct store_workload *w, int64_t *wl_id)
{
	return run_stmt(st, wl_id, "storing the workload",
			"INSERT INTO workloads (run_id, name, workfile_name, workfile_text, tasks, jobs_per_task,"
			" repeat, osync, sync_mode, filesize_kib, poolsize_kib, dirs, threshold)"
			" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			"issssiissiisd", run_id, w->name, w->workfile_name, w->workfile_text, w->tasks,
			w->jobs_per_task, w->repeat, w->osync, w->sync_mode, w->filesize_kib, w->poolsize_kib,
			w->dirs, w->threshold);
}

/* The sampler's averages and time series of a point, inside the point's transaction. */
static int add_system(struct store *st, const struct store_point *p, const struct store_sample *samples,
		      size_t nsamples)
{
	if (run_stmt(st, NULL, "storing system figures",
		     "UPDATE points SET user_pct = ?, sys_pct = ?, iowait_pct = ?, idle_pct = ?, read_kbs = ?,"
		     " write_kbs = ?, read_iops = ?, write_iops = ?, util_pct = ?, ctxt_per_s = ?, forks_per_s = ?,"
		     " pgfault_per_s = ?, sampler_cpu_pct = ? WHERE id = ?",
		     "dddddddddddddi", p->user_pct, p->sys_pct, p->iowait_pct, p->idle_pct, p->read_kbs, p->write_kbs,
		     p->read_iops, p->write_iops, p->util_pct, p->ctxt_per_s, p->forks_per_s, p->pgfault_per_s,
		     p->sampler_cpu_pct, p->id) < 0)
		return -1;
	for (size_t i = 0; i < nsamples; i++) {
		const struct store_sample *s = &samples[i];
		if (run_stmt(st, NULL, "storing the system time series",
			     "INSERT INTO samples (point_id, t_s, user_pct, sys_pct, iowait_pct, idle_pct, read_kbs,"
			     " write_kbs, util_pct, ctxt_per_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			     "iddddddddd", p->id, s->t_s, s->user_pct, s->sys_pct, s->iowait_pct, s->idle_pct,
			     s->read_kbs, s->write_kbs, s->util_pct, s->ctxt_per_s) < 0)
			return -1;
	}
	return 0;
}

int store_point_add(struct store *st, struct store_point *p, const struct store_test *tests, size_t ntests,
		    const struct store_sample *samples, size_t nsamples)
{
	if (exec(st, "BEGIN IMMEDIATE", "storing the point") < 0)
		return -1;
	if (run_stmt(st, &p->id, "storing the point",
		     "INSERT INTO points (run_id, workload_id, osync, tasks, repeat, valid, reason,"
		     " jobs_per_task, file_kib, jobs_per_min, jobs_per_min_task, real_s, user_s, sys_s, cpu_s,"
		     " std_dev_s, std_dev_pct, jti, min_task_s, max_task_s, min_task_index, max_task_index,"
		     " release_skew_s, overhead_s)"
		     " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		     "iiiiiisii" "ddddddddddd" "ii" "dd", p->run_id,
		     p->workload_id, (int64_t)p->osync, (int64_t)p->tasks, (int64_t)p->repeat,
		     (int64_t)p->valid, p->valid ? NULL : p->reason, p->jobs_per_task, p->file_kib,
		     p->jobs_per_min, p->jobs_per_min_task, p->real_s, p->user_s, p->sys_s, p->cpu_s,
		     p->std_dev_s, p->std_dev_pct, p->jti, p->min_task_s, p->max_task_s,
		     (int64_t)p->min_task_index, (int64_t)p->max_task_index, p->release_skew_s,
		     p->overhead_s) < 0)
		goto fail;
	for (size_t i = 0; i < ntests; i++) {
		const struct store_test *t = &tests[i];
		if (run_stmt(st, NULL, "storing per-test figures",
			     "INSERT INTO test_stats (point_id, test, count, total_s, min_s, max_s, mean_s,"
			     " p50_s, p90_s, p99_s, over_2s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			     "isidddddddi", p->id, t->name, t->count, t->total_s, t->min_s, t->max_s, t->mean_s,
			     t->p50_s, t->p90_s, t->p99_s, t->over_2s) < 0)
			goto fail;
	}
	if (p->sampled && add_system(st, p, samples, nsamples) < 0)
		goto fail;
	return exec(st, "COMMIT", "committing the point");
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int store_reap_dead_runs(struct store *st, const char *host, int *count)
{
	sqlite3_stmt *s;
	*count = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT id, pid FROM runs WHERE status = 'running' AND host = ?", -1, &s,
			       NULL) != SQLITE_OK)
		return store_fail(st, "finding abandoned runs");
	sqlite3_bind_text(s, 1, host, -1, SQLITE_TRANSIENT);
	int64_t dead[64];
	int n = 0, rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && n < 64)
		if (!pid_is_reaim((long)sqlite3_column_int64(s, 1)))
			dead[n++] = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_fail(st, "finding abandoned runs");
	for (int i = 0; i < n; i++) {
		if (store_run_finish(st, dead[i], "interrupted", "the reaim process died (killed, or the machine "
								  "went down) before the run finished") < 0)
			return -1;
	}
	*count = n;
	return 0;
}
