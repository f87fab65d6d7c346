/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening, migrating and writing the results database. Prepared statements only. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/internal.h"
#include "util/env.h"
#include "util/util.h"

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

/* Rows of a schema's sqlite_master that match filter (SQL after WHERE, or "" for all). */
static int count_master(struct store *st, const char *schema, const char *filter, int *n)
{
	char *sql = xasprintf("SELECT COUNT(*) FROM %s.sqlite_master%s%s", schema, *filter ? " WHERE " : "", filter);
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	free(sql);
	if (rc != SQLITE_OK)
		return store_fail(st, "reading the schema");
	rc = sqlite3_step(s);
	*n = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : store_fail(st, "reading the schema");
}

int store_classify(struct store *st, const char *schema, const char *path, int *version)
{
	int n, any;
	if (store_schema_version(st, schema, version) < 0 || count_master(st, schema, "", &any) < 0)
		return -1;
	if (*version == 0 && !any)
		return STORE_FILE_EMPTY;
	/* all of the tables the first migration makes, and only then, make a file ours */
	if (count_master(st, schema, "type = 'table' AND name IN ('runs', 'env', 'workloads', 'points', 'test_stats')",
			 &n) < 0)
		return -1;
	/* another program's file says nothing reaim can trust in its user_version */
	if (*version == 0 || n != 5) {
		snprintf(st->err, sizeof(st->err),
			 "%s: an SQLite database, but not a reaim results database (it lacks reaim's tables); "
			 "left untouched", path);
		return -1;
	}
	if (*version > (int)store_migration_count) {
		snprintf(st->err, sizeof(st->err), "%s: schema version %d, newer than this reaim knows (%zu): a newer "
			 "reaim wrote it; left untouched", path, *version, store_migration_count);
		return -1;
	}
	return STORE_FILE_OURS;
}

/* Refuse, before changing anything (even the journal mode), a file that is another
 * program's database or a newer reaim's. */
static int is_ours(struct store *st)
{
	int v;
	return store_classify(st, "main", st->path, &v) < 0 ? -1 : 0;
}

/* Bring the schema up to date in one transaction, so a failure changes nothing. */
static int migrate(struct store *st)
{
	int v;
	if (exec(st, "BEGIN IMMEDIATE", "locking the database") < 0)
		return -1;
	if (store_schema_version(st, "main", &v) < 0)
		goto fail;
	if (v > (int)store_migration_count) { /* written by a newer reaim since it was vetted */
		snprintf(st->err, sizeof(st->err), "%s: schema version %d, newer than this reaim knows (%zu): a "
			 "newer reaim wrote it; left untouched", st->path, v, store_migration_count);
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
	size_t len = strlen(path);
	if (len && path[len - 1] == '/') { /* SQLite would make a file of the name without its slash */
		snprintf(st->err, sizeof(st->err), "%s: ends in '/', a directory; give the database file's name "
			 "(such as %sreaim.db)", path, path);
		return -1;
	}
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
		log_warn_now("%s is locked by another program; waiting (Ctrl-C to stop)", st->path);
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
	if (!ok && rc == SQLITE_ROW) {
		const char *why = t ? (const char *)t : "?", *nl = strchr(why, '\n');
		if (strncmp(why, "*** in database", 15) == 0 && nl) /* SQLite's heading, not the damage */
			why = nl + 1;
		snprintf(st->err, sizeof(st->err), "%s: the database is damaged (%.*s); nothing was read from it or "
			 "written to it", path, (int)strcspn(why, "\n"), why);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return store_fail(st, "checking the database");
	return ok ? 0 : -1;
}

/* A reader that found no WAL files left the empty ones SQLite made for it (a read-only connection
 * cannot delete them). The last connection to close with write access removes them: open one,
 * read, close, never waiting. Another program's connection keeps them, as it should. */
static void tidy_wal(const char *path)
{
	sqlite3 *db = NULL;
	if (access(path, W_OK) != 0 || sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return;
	}
	sqlite3_busy_timeout(db, 0);
	sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	sqlite3_close(db);
}

/* Neither WAL file is there: a read-only connection would leave the ones it makes. */
static int wal_absent(const char *path)
{
	char *wal = xasprintf("%s-wal", path), *shm = xasprintf("%s-shm", path);
	int absent = access(wal, F_OK) != 0 && access(shm, F_OK) != 0;
	free(wal);
	free(shm);
	return absent;
}

/* Decide on a read-only connection whether an existing file is ours and sound, so that a file
 * we refuse is never changed (not even its journal mode). */
static int vet_existing(struct store *st)
{
	if (access(st->file, F_OK) != 0)
		return 0;
	int made_wal = wal_absent(st->file);
	int rc = sqlite3_open_v2(st->file, &st->db, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_busy_handler(st->db, busy_wait, st);
		rc = is_ours(st) == 0 && store_check_integrity(st, "main", st->path) == 0 ? SQLITE_OK : SQLITE_ERROR;
	} else {
		store_fail(st, "opening");
	}
	sqlite3_close(st->db);
	st->db = NULL;
	if (made_wal && rc != SQLITE_OK)
		tidy_wal(st->file); /* a refused file is left as it was found */
	return rc == SQLITE_OK ? 0 : -1;
}

static struct store *store_new(const char *path)
{
	struct store *st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	st->busy_limit_ms = STORE_WRITER_WAIT_MS;
	st->run_lock = -1;
	return st;
}

/* The file's one name, which SQLite opens and the lock files go beside (see store.h); -1 with
 * the reason, naming the path as given, when there is none SQLite could open. */
static int resolve(struct store *st)
{
	size_t len = strlen(st->path);
	if (len > STORE_PATH_MAX) {
		snprintf(st->err, sizeof(st->err), "%s: a database path of %zu bytes, longer than the %d taken; give "
			 "a shorter one", st->path, len, STORE_PATH_MAX);
		return -1;
	}
	st->file = path_resolve(st->path);
	if (!st->file) {
		snprintf(st->err, sizeof(st->err), "%s: cannot open the database there: %s", st->path,
			 errno == ENOENT ? "its directory does not exist" : strerror(errno));
		return -1;
	}
	len = strlen(st->file);
	if (len > STORE_SQLITE_PATH_MAX) {
		snprintf(st->err, sizeof(st->err), "%s: its full path, %s, is %zu bytes, longer than the %d SQLite can "
			 "open; give a shorter path (a link to it does not help: the file's own path counts)",
			 st->path, st->file, len, STORE_SQLITE_PATH_MAX);
		return -1;
	}
	const char *slash = strrchr(st->file, '/'); /* absolute: there is one */
	st->dir = xasprintf("%.*s", slash == st->file ? 1 : (int)(slash - st->file), st->file);
	st->base = xstrdup(slash + 1);
	return 0;
}

/* SQLite keeps a database's journal and WAL beside the name it was opened by, so a writer
 * through one hard link and another through a second name would damage the file. */
static int one_name(struct store *st)
{
	struct stat sb;
	if (stat(st->file, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_nlink <= 1)
		return 0;
	snprintf(st->err, sizeof(st->err), "%s: the database file has %ju names (hard links); SQLite keeps its "
		 "journal beside the name it is opened by, so writing through two of them could damage it: keep one "
		 "name (a symbolic link is fine)", st->path, (uintmax_t)sb.st_nlink);
	return -1;
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
	if (check_path(st, path) == 0 && resolve(st) == 0 && one_name(st) == 0 && vet_existing(st) == 0) {
		int made = access(st->file, F_OK) != 0;
		int rc = sqlite3_open_v2(st->file, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
		/* a new file gets 0644 as the umask allows, never closed to its owner (umask 0777); its
		 * WAL files, made below, take its mode */
		if (rc == SQLITE_OK && made && access(st->file, F_OK) == 0 && chmod(st->file, out_file_mode(0644)) < 0)
			log_warn("cannot set the mode of %s: %s", st->path, strerror(errno));
		if (rc == SQLITE_OK) {
			sqlite3_busy_handler(st->db, busy_wait, st);
			/* foreign keys on after migrating: a migration that makes a table anew drops the
			 * old one, whose rows' dependants a cascade would delete */
			if (is_ours(st) == 0 && exec(st, "PRAGMA journal_mode = WAL", "opening") == 0 &&
			    exec(st, "PRAGMA foreign_keys = OFF", "opening") == 0 &&
			    exec(st, "PRAGMA synchronous = NORMAL", "opening") == 0 && migrate(st) == 0 &&
			    exec(st, "PRAGMA foreign_keys = ON", "opening") == 0) {
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

/* An older schema is upgraded by a writer; say how only where this user could. */
static void old_schema(struct store *st, const char *path, int v)
{
	int can = access(path, W_OK) == 0 && access(st->dir, W_OK) == 0;
	if (v == 0) {
		snprintf(st->err, sizeof(st->err), "%s: an empty database: no run is stored in it", path);
		return;
	}
	snprintf(st->err, sizeof(st->err), "%s: schema version %d, this reaim reads %zu%s", path, v,
		 store_migration_count,
		 can ? "; any run or merge of this reaim with --db on it upgrades it"
		     : " (and it is not writable here, so only its owner can upgrade it, with any run or merge "
		       "of this reaim)");
}

/* A URI opening file immutable: the characters a URI gives a meaning to are escaped. */
static char *immutable_uri(const char *file)
{
	struct strbuf sb = {0};
	strbuf_addf(&sb, "file:");
	for (const char *p = file; *p; p++)
		if (*p == '?' || *p == '#' || *p == '%')
			strbuf_addf(&sb, "%%%02X", (unsigned char)*p);
		else
			strbuf_addf(&sb, "%c", *p);
	strbuf_addf(&sb, "?immutable=1");
	return sb.buf;
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
			snprintf(st->err, sizeof(st->err), "no results database at %s (run a suite first, or pass --db)", path);
		} else if (resolve(st) == 0) {
			if (wal_absent(st->file))
				st->made_wal = xstrdup(st->file);
			int rc = sqlite3_open_v2(st->file, &st->db, SQLITE_OPEN_READONLY, NULL);
			if (rc == SQLITE_OK)
				sqlite3_busy_handler(st->db, busy_wait, st);
			if (rc == SQLITE_OK && store_schema_version(st, "main", &v) < 0 &&
			    (sqlite3_errcode(st->db) == SQLITE_CANTOPEN || sqlite3_errcode(st->db) == SQLITE_READONLY)) {
				sqlite3_close(st->db);
				st->db = NULL;
				free(st->made_wal); /* immutable: no WAL files are made */
				st->made_wal = NULL;
				char *uri = immutable_uri(st->file);
				rc = sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
				free(uri);
			}
			if (rc != SQLITE_OK)
				store_fail(st, "opening");
			else if (is_ours(st) == 0 && store_schema_version(st, "main", &v) == 0) {
				if (v != (int)store_migration_count)
					old_schema(st, path, v);
				else if (store_check_integrity(st, "main", path) == 0) {
					*out = st;
					return 0;
				}
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

/* The run's lock file, named after the database and the run, beside the database: every process
 * that opens the database (in any pid or mount namespace, under any name) finds it there. */
static char *lock_path(const struct store *st, const char *name)
{
	return xasprintf("%s/%s", st->dir, name);
}

/* Take the run's lock before its row says 'running', so no reaper sees the row without it; the
 * name to record, or NULL (the row's pid then decides) when the directory or its filesystem
 * cannot hold one. Readable by all, so another user's run can test it. */
static char *run_lock_take(struct store *st, const char *uuid)
{
	if (strchr(uuid, '/'))
		return NULL;
	char *name = xasprintf("%s-run-%s.lock", st->base, uuid), *path = lock_path(st, name);
	char text[128];
	int n = snprintf(text, sizeof(text), "reaim run %s\n", uuid);
	int fd = lock_file_create(path, 0);
	if (fd >= 0 && (fchmod(fd, 0644) < 0 || write(fd, text, (size_t)n) != n)) {
		int e = errno;
		unlink(path);
		close(fd);
		errno = e;
		fd = -1;
	}
	if (fd < 0) {
		log_debug("no lock file %s (%s): the run's liveness falls back to its pid", path, strerror(errno));
		free(name);
		free(path);
		return NULL;
	}
	st->run_lock = fd;
	st->run_lock_path = path;
	return name;
}

/* Removed before the lock goes: the row no longer says 'running' (or nobody will finish it). */
static void run_lock_drop(struct store *st)
{
	if (st->run_lock < 0)
		return;
	if (unlink(st->run_lock_path) < 0 && errno != ENOENT)
		log_warn("cannot remove %s: %s", st->run_lock_path, strerror(errno));
	close(st->run_lock);
	st->run_lock = -1;
	st->run_lock_id = 0;
	free(st->run_lock_path);
	st->run_lock_path = NULL;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	run_lock_drop(st);
	sqlite3_close(st->db);
	if (st->made_wal)
		tidy_wal(st->made_wal);
	free(st->made_wal);
	free(st->path);
	free(st->file);
	free(st->dir);
	free(st->base);
	free(st);
}

/* One statement to run: what it does (for its error), its SQL, and the figures bound after the
 * values its format describes. */
struct stmt {
	const char *what, *sql;
	const struct store_figure_table *t; /* NULL: no figures */
	const void *row;		    /* the figures' row */
	int no_system;			    /* NULL for the SYSTEM figures */
};

/* Run one statement: the values fmt describes bound first, then its figures; the new row id in *id. */
static int vrun(struct store *st, int64_t *id, const struct stmt *q, const char *fmt, va_list ap)
{
	sqlite3_stmt *s;
	if (store_vprepare(st, &s, q->what, q->sql, fmt, ap) < 0)
		return -1;
	int rc = SQLITE_MISUSE;
	if (!q->t || store_bind_figures(s, (int)strlen(fmt) + 1, q->t, q->row, q->no_system) == 0)
		rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_fail(st, q->what);
	if (id)
		*id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

static int run_stmt(struct store *st, int64_t *id, const char *what, const char *sql, const char *fmt, ...)
{
	const struct stmt q = {.what = what, .sql = sql};
	va_list ap;
	va_start(ap, fmt);
	int rc = vrun(st, id, &q, fmt, ap);
	va_end(ap);
	return rc;
}

static int insert_row(struct store *st, int64_t *id, const struct stmt *q, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vrun(st, id, q, fmt, ap);
	va_end(ap);
	return rc;
}

int store_run_begin(struct store *st, const struct store_run *r, const struct env_list *env, int64_t *run_id)
{
	/* the run and its environment together, or neither */
	if (exec(st, "BEGIN IMMEDIATE", "storing the run") < 0)
		return -1;
	run_lock_drop(st); /* one running run per connection: one begun before is over */
	char *lock = run_lock_take(st, r->uuid);
	int rc = run_stmt(st, run_id, "storing the run",
			"INSERT INTO runs (uuid, label, suite_name, suite_text, command_line, version, mode, seed,"
			" pid, host, rerun_of, planned_points, planned_exact, lock_file)"
			" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULLIF(?, 0), ?, ?)",
			"sssssssiissiis", r->uuid, r->label, r->suite_name, r->suite_text, r->command_line,
			r->version, r->mode, r->seed, r->pid, r->host, r->rerun_of, r->planned_points,
			(int64_t)r->planned_exact, lock);
	free(lock);
	for (size_t i = 0; env && i < env->count && rc == 0; i++)
		rc = store_run_env(st, *run_id, env->items[i].key, env->items[i].value);
	if (rc == 0 && r->kernel_config)
		rc = run_stmt(st, NULL, "storing the kernel config",
			      "INSERT INTO kernel_configs (run_id, text) VALUES (?, ?)", "is", *run_id, r->kernel_config);
	if (rc == 0 && exec(st, "COMMIT", "committing the run") == 0) {
		st->run_lock_id = *run_id;
		return 0;
	}
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	run_lock_drop(st);
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
	int rc = run_stmt(st, NULL, "finishing the run",
			  "UPDATE runs SET status = ?, reason = ?,"
			  " finished_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = ?",
			  "ssi", status, reason, run_id);
	if (run_id == st->run_lock_id)
		run_lock_drop(st); /* stored or not, the run is over: a row left 'running' is reaped */
	return rc;
}

int store_workload_add(struct store *st, int64_t run_id, const struct store_workload *w, int64_t *wl_id)
{
	if (exec(st, "BEGIN IMMEDIATE", "storing the workload") < 0)
		return -1;
	int rc = run_stmt(st, wl_id, "storing the workload",
			  "INSERT INTO workloads (run_id, name, workfile_name, workfile_text) VALUES (?, ?, ?, ?)",
			  "isss", run_id, w->name, w->workfile_name, w->workfile_text);
	for (size_t i = 0; i < w->noptions && rc == 0; i++) {
		const struct store_option *o = &w->options[i];
		rc = run_stmt(st, NULL, "storing the workload's options",
			      "INSERT INTO workload_options (workload_id, key, item, value) VALUES (?, ?, ?, ?)",
			      "isis", *wl_id, o->key, (int64_t)o->item, o->value);
	}
	if (rc == 0 && exec(st, "COMMIT", "committing the workload") == 0)
		return 0;
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* The point's counters, one prepared statement for all of them (a point has a few hundred). */
static int insert_counters(struct store *st, int64_t point_id, const struct store_counter *c, size_t n)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "INSERT INTO point_counters (point_id, " STORE_COUNTER_COLS
			       ") VALUES (?, ?, ?, ?, ?, ?)", -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "storing the point's counters");
	int rc = SQLITE_DONE;
	for (size_t i = 0; i < n && rc == SQLITE_DONE; i++) {
		sqlite3_bind_int64(s, 1, point_id);
		sqlite3_bind_text(s, 2, c[i].source, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, c[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_double(s, 4, isfinite(c[i].value) ? c[i].value : 0);
		sqlite3_bind_text(s, 5, c[i].unit, -1, SQLITE_STATIC);
		if (isfinite(c[i].running_pct))
			sqlite3_bind_double(s, 6, c[i].running_pct);
		else
			sqlite3_bind_null(s, 6);
		rc = sqlite3_step(s);
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "storing the point's counters");
}

int store_point_add(struct store *st, struct store_point *p, const struct store_test *tests, size_t ntests,
		    const struct store_sample *samples, size_t nsamples)
{
	const struct store_point_rows rows = {
		.tests = tests, .ntests = ntests, .samples = samples, .nsamples = nsamples};
	return store_point_add_counted(st, p, &rows);
}

int store_point_add_counted(struct store *st, struct store_point *p, const struct store_point_rows *rows)
{
	static const char point_sql[] = "INSERT INTO points (run_id, workload_id" STORE_POINT_FIGURES(STORE_COLUMN)
					") VALUES (?, ?" STORE_POINT_FIGURES(STORE_PARAM) ")";
	static const char test_sql[] = "INSERT INTO test_stats (point_id, test" STORE_TEST_FIGURES(STORE_COLUMN)
				       ") VALUES (?, ?" STORE_TEST_FIGURES(STORE_PARAM) ")";
	static const char sample_sql[] = "INSERT INTO samples (point_id" STORE_SAMPLE_FIGURES(STORE_COLUMN)
					 ") VALUES (?" STORE_SAMPLE_FIGURES(STORE_PARAM) ")";
	if (exec(st, "BEGIN IMMEDIATE", "storing the point") < 0)
		return -1;
	const struct stmt point = {.what = "storing the point",
				   .sql = point_sql,
				   .t = &store_point_table,
				   .row = p,
				   .no_system = !p->sampled};
	if (insert_row(st, &p->id, &point, "ii", p->run_id, p->workload_id) < 0)
		goto fail;
	for (size_t i = 0; i < rows->ntests; i++) {
		const struct stmt test = {.what = "storing per-test figures",
					  .sql = test_sql,
					  .t = &store_test_table,
					  .row = &rows->tests[i]};
		if (insert_row(st, NULL, &test, "is", p->id, rows->tests[i].name) < 0)
			goto fail;
	}
	for (size_t i = 0; p->sampled && i < rows->nsamples; i++) {
		const struct stmt sample = {.what = "storing the system time series",
					    .sql = sample_sql,
					    .t = &store_sample_table,
					    .row = &rows->samples[i]};
		if (insert_row(st, NULL, &sample, "i", p->id) < 0)
			goto fail;
	}
	if (rows->ncounters && insert_counters(st, p->id, rows->counters, rows->ncounters) < 0)
		goto fail;
	return exec(st, "COMMIT", "committing the point");
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* A run this host left 'running': its id and uuid, the process that owned it, and the lock file
 * it holds while it lives (NULL: see owner_alive). */
struct owner {
	int64_t id, pid;
	char uuid[40];
	char *lock_file;
};

static void read_owner(sqlite3_stmt *s, void *row)
{
	struct owner *o = row;
	o->id = sqlite3_column_int64(s, 0);
	o->pid = sqlite3_column_int64(s, 1);
	store_copy_text(o->uuid, sizeof(o->uuid), s, 2);
	const unsigned char *t = sqlite3_column_text(s, 3);
	o->lock_file = t ? xstrdup((const char *)t) : NULL;
}

static void drop_owner(sqlite3_stmt *s, void *row)
{
	(void)s;
	free(((struct owner *)row)->lock_file);
}

/* A stale lock file is removed only when it is one reaim made for this run: named for it, and a
 * regular file that says so (a row from elsewhere must never make us remove another's file). */
static int made_for(int fd, const char *name, const char *uuid)
{
	char text[128], want[128];
	int n = snprintf(want, sizeof(want), "-run-%s.lock", uuid);
	size_t len = strlen(name);
	if (len < (size_t)n || strcmp(name + len - (size_t)n, want) != 0)
		return 0;
	n = snprintf(want, sizeof(want), "reaim run %s\n", uuid);
	ssize_t got = pread(fd, text, sizeof(text) - 1, 0);
	return got == n && memcmp(text, want, (size_t)n) == 0;
}

/* The run that owns a row is alive while it holds its lock file: held means alive; a lock that
 * can be taken, or no file, means it is gone (and, with tidy, its file goes too). This holds in
 * any pid namespace, under any program name, and whatever became of its pid. Rows without a lock
 * file (written before schema 9, or where the filesystem could not lock) fall back to asking
 * whether the pid is a reaim process (pid 0: not known, taken as alive), which misjudges a run in
 * another pid namespace, one started through a link with another name, and a pid reused by
 * another reaim. */
int store_owner_alive(const char *dir, const char *lock_file, const char *uuid, int64_t pid, int tidy)
{
	const char *name = lock_file;
	if (!name || !*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return pid <= 0 || pid_is_reaim((long)pid);
	char *path = xasprintf("%s/%s", dir, name);
	int fd, stale = lock_file_stale(path, &fd);
	if (stale == 1) {
		if (tidy && made_for(fd, name, uuid) && unlink(path) < 0 && errno != ENOENT)
			log_warn("cannot remove %s: %s", path, strerror(errno));
		close(fd);
	}
	free(path);
	return stale == 0;
}

static int owner_alive(struct store *st, const struct owner *o)
{
	return store_owner_alive(st->dir, o->lock_file, o->uuid, o->pid, 1);
}

int store_reap_dead_runs(struct store *st, const char *host, int *count)
{
	struct store_rows r = {.size = sizeof(struct owner), .read = read_owner, .drop = drop_owner};
	*count = 0;
	if (store_query(st, "finding abandoned runs", &r,
			"SELECT id, pid, uuid, lock_file FROM runs WHERE status = 'running' AND host = ?", "s",
			host) < 0)
		return -1;
	struct owner *o = r.v;
	int rc = 0;
	for (size_t i = 0; i < r.n && rc == 0; i++) {
		if (owner_alive(st, &o[i]))
			continue;
		/* only if still 'running': the owner may have finished since it was read */
		rc = run_stmt(st, NULL, "marking an abandoned run",
			      "UPDATE runs SET status = 'interrupted', reason = ?,"
			      " finished_at = strftime('%Y-%m-%dT%H:%M:%SZ','now') WHERE id = ? AND status = 'running'",
			      "si", STORE_DEAD_REASON,
			      o[i].id);
		*count += rc == 0 && sqlite3_changes(st->db) > 0;
	}
	for (size_t i = 0; i < r.n; i++)
		drop_owner(NULL, &o[i]);
	free(r.v);
	return rc;
}

int store_default_dir(char *err, size_t errlen)
{
	if (mkdir(STORE_DEFAULT_DIR, 0755) == 0 || errno == EEXIST)
		return 0;
	int e = errno;
	char *cwd = getcwd(NULL, 0);
	snprintf(err, errlen, "cannot create the results directory %s%s" STORE_DEFAULT_DIR "%s: %s (--db or $REAIM_DB "
		 "put the database elsewhere)", cwd ? cwd : "", cwd && strcmp(cwd, "/") != 0 ? "/" : "",
		 cwd ? "" : " in the current directory", strerror(e));
	free(cwd);
	return -1;
}

int store_run_owner_gone(struct store *st, int64_t run_id)
{
	struct store_rows r = {.size = sizeof(struct owner), .read = read_owner, .drop = drop_owner};
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	/* a run of another host is judged by that host's next run, as store_reap_dead_runs does */
	if (store_query(st, "reading the run's owner", &r,
			"SELECT id, pid, uuid, lock_file FROM runs WHERE id = ? AND status = 'running' AND host = ?",
			"is", run_id, host) < 0)
		return -1;
	struct owner *o = r.v;
	/* read only: a reader never removes the dead run's lock file, the next run does */
	int gone = r.n > 0 && !store_owner_alive(st->dir, o[0].lock_file, o[0].uuid, o[0].pid, 0);
	for (size_t i = 0; i < r.n; i++)
		drop_owner(NULL, &o[i]);
	free(r.v);
	return gone;
}

const char *store_db_path(const char *flag)
{
	if (flag)
		return flag;
	const char *env = getenv("REAIM_DB");
	return env && *env ? env : STORE_DEFAULT_PATH;
}
