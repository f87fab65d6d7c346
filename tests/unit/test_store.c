/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the store: schema version, inserts and queries, run names, refusals, and how a later
 * run tells a live run from a dead one (its lock, else for older rows its pid). */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/internal.h"
#include "store/store.h"
#include "tap.h"
#include "testdb.h"
#include "util/util.h"

static char dir[] = "/tmp/reaim-store-XXXXXX";

static int64_t add_run(struct store *st, const char *label)
{
	struct store_run r = {.uuid = label, .label = label, .suite_name = "s", .suite_text = "x = 1;",
			      .command_line = "reaim", .version = "0", .mode = "sweep", .seed = 1};
	int64_t id = 0;
	store_run_begin(st, &r, NULL, &id);
	return id;
}

/* A child that calls itself name, then waits until the write end of *go is closed. */
static pid_t start_waiter(const char *name, int *go)
{
	int p[2], ready[2];
	char b = 0;
	if (pipe(p) < 0 || pipe(ready) < 0)
		return -1;
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		close(p[1]);
		close(ready[0]);
		prctl(PR_SET_NAME, name, 0, 0, 0);
		if (write(ready[1], "y", 1) != 1)
			_exit(1);
		while (read(p[0], &b, 1) > 0)
			;
		_exit(0);
	}
	close(p[0]);
	close(ready[1]);
	if (read(ready[0], &b, 1) != 1)
		c = -1;
	close(ready[0]);
	*go = p[1];
	return c;
}

/* A child that begins a run on its own connection, with pid in the row (a process that is not
 * it, as a run in another pid namespace records a pid that means nothing here), and dies as a
 * killed run would (no finish, no clean-up) once *go is closed. */
static pid_t start_owner(const char *db, const char *uuid, int64_t pid, int *go)
{
	int ready[2], wait_go[2];
	if (pipe(ready) < 0 || pipe(wait_go) < 0)
		return -1;
	fflush(stdout);
	pid_t c = fork();
	if (c == 0) {
		close(ready[0]);
		close(wait_go[1]);
		struct store *st;
		char err[512], b;
		int64_t id;
		struct store_run r = {.uuid = uuid, .label = uuid, .suite_name = "s", .suite_text = "",
				      .command_line = "bench-x", .version = "0", .mode = "sweep", .seed = 1,
				      .pid = pid, .host = "box"};
		b = store_open(db, &st, err, sizeof(err)) == 0 && store_run_begin(st, &r, NULL, &id) == 0 ? 'y' : 'n';
		if (write(ready[1], &b, 1) != 1)
			_exit(1);
		while (read(wait_go[0], &b, 1) > 0)
			;
		_exit(0);
	}
	close(ready[1]);
	close(wait_go[0]);
	char b = 'n';
	if (read(ready[0], &b, 1) != 1 || b != 'y') {
		close(ready[0]);
		close(wait_go[1]);
		waitpid(c, NULL, 0);
		return -1;
	}
	close(ready[0]);
	*go = wait_go[1];
	return c;
}

static const char *status_of(struct store *st, const char *label, char *buf, size_t len)
{
	int64_t id;
	struct store_run_row row;
	snprintf(buf, len, "%s", store_resolve_run(st, label, &id) == 0 && store_get_run(st, id, &row) == 0
					 ? row.status : "?");
	return buf;
}

static void liveness(void)
{
	char *db = xasprintf("%s/live.db", dir), *lock = xasprintf("%s/live.db-run-owned.lock", dir);
	char err[512], buf[16];
	struct store *st;
	int dead = -1, go_sleep = -1, go_owner = -1;
	ok(store_open(db, &st, err, sizeof(err)) == 0, "liveness: a database");
	/* a live process that is not a reaim: the row's pid, so the pid test would call the run dead */
	pid_t other = start_waiter("sleep", &go_sleep);
	ok(other > 0 && !pid_is_reaim(other), "liveness: the row's pid is no reaim process");

	pid_t owner = start_owner(db, "owned", other, &go_owner);
	ok(owner > 0, "liveness: another process began a run and holds its lock");
	ok(access(lock, F_OK) == 0, "liveness: its lock file is beside the database");
	ok(store_reap_dead_runs(st, "box", &dead) == 0 && dead == 0, "liveness: a held lock leaves it alone");
	is_str(status_of(st, "owned", buf, sizeof(buf)), "running", "liveness: still running");
	close(go_owner);
	waitpid(owner, NULL, 0);
	ok(access(lock, F_OK) == 0, "liveness: its owner died, the lock file stayed");
	ok(store_reap_dead_runs(st, "box", &dead) == 0 && dead == 1, "liveness: once its owner died, found dead");
	is_str(status_of(st, "owned", buf, sizeof(buf)), "interrupted", "liveness: marked interrupted");
	ok(access(lock, F_OK) != 0, "liveness: the stale lock file is removed");

	/* rows without a lock file (older ones) fall back to the pid test; a lock file named in a
	 * row is removed only when reaim made it for that run */
	pid_t named = -1;
	int go_named = -1;
	named = start_waiter("reaim-alive", &go_named);
	char *notes = xasprintf("%s/notes.txt", dir), *lookalike = xasprintf("%s/live.db-run-look.lock", dir);
	FILE *f = fopen(notes, "w");
	ok(f && fputs("reaim run foreign\n", f) >= 0 && fclose(f) == 0, "liveness: a file of the user's");
	f = fopen(lookalike, "w");
	ok(f && fputs("mine\n", f) >= 0 && fclose(f) == 0, "liveness: a file named like a lock file");
	char *sql = sqlite3_mprintf(
		"INSERT INTO runs (uuid, label, suite_name, suite_text, command_line, version, mode, seed, pid, host,"
		" lock_file) VALUES"
		" ('old-alive', 'old-alive', 's', '', 'reaim', '0', 'sweep', 1, %d, 'box', NULL),"
		" ('old-dead', 'old-dead', 's', '', 'reaim', '0', 'sweep', 1, %d, 'box', NULL),"
		" ('slash', 'slash', 's', '', 'reaim', '0', 'sweep', 1, %d, 'box', '../live.db-run-slash.lock'),"
		" ('foreign', 'foreign', 's', '', 'reaim', '0', 'sweep', 1, %d, 'box', 'notes.txt'),"
		" ('gone', 'gone', 's', '', 'reaim', '0', 'sweep', 1, %d, 'box', 'live.db-run-gone.lock'),"
		" ('look', 'look', 's', '', 'reaim', '0', 'sweep', 1, %d, 'box', 'live.db-run-look.lock')",
		(int)named, (int)other, (int)named, (int)named, (int)named, (int)named);
	ok(sqlite3_exec(st->db, sql, NULL, NULL, NULL) == SQLITE_OK, "liveness: rows of older runs");
	sqlite3_free(sql);
	ok(store_reap_dead_runs(st, "box", &dead) == 0, "liveness: reap");
	is_int(dead, 4, "liveness: four dead");
	is_str(status_of(st, "old-alive", buf, sizeof(buf)), "running", "liveness: no lock file, a reaim pid: alive");
	is_str(status_of(st, "old-dead", buf, sizeof(buf)), "interrupted", "liveness: no lock file, no reaim pid: dead");
	is_str(status_of(st, "slash", buf, sizeof(buf)), "running", "liveness: a lock file name with a / is not used");
	is_str(status_of(st, "foreign", buf, sizeof(buf)), "interrupted", "liveness: a free lock: dead");
	ok(access(notes, F_OK) == 0, "liveness: a file not named as reaim names them is never removed");
	is_str(status_of(st, "look", buf, sizeof(buf)), "interrupted", "liveness: a free lock: dead");
	ok(access(lookalike, F_OK) == 0, "liveness: nor one that does not say it is the run's");
	is_str(status_of(st, "gone", buf, sizeof(buf)), "interrupted", "liveness: no lock file left: dead");
	ok(store_reap_dead_runs(st, "box", &dead) == 0 && dead == 0, "liveness: nothing more to reap");

	/* this connection's own run: held until finished, its file gone after */
	struct store_run mine = {.uuid = "mine", .label = "mine", .suite_name = "s", .suite_text = "",
				 .command_line = "reaim", .version = "0", .mode = "sweep", .seed = 1, .pid = other,
				 .host = "box"};
	int64_t mine_id;
	char *mine_lock = xasprintf("%s/live.db-run-mine.lock", dir);
	ok(store_run_begin(st, &mine, NULL, &mine_id) == 0 && access(mine_lock, F_OK) == 0, "liveness: our own run");
	ok(store_reap_dead_runs(st, "box", &dead) == 0 && dead == 0, "liveness: not reaped while it goes on");
	ok(store_run_finish(st, mine_id, "complete", NULL) == 0 && access(mine_lock, F_OK) != 0,
	   "liveness: finished, its lock file removed");
	is_str(status_of(st, "mine", buf, sizeof(buf)), "complete", "liveness: and complete");

	close(go_sleep);
	close(go_named);
	waitpid(other, NULL, 0);
	waitpid(named, NULL, 0);
	store_close(st);
	free(mine_lock);
	free(notes);
	free(lookalike);
	free(lock);
	free(db);
}

/* ok() with a formatted description. */
__attribute__((format(printf, 2, 3))) static void okf(int cond, const char *fmt, ...)
{
	char what[640];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	tap_ok(cond, __FILE__, __LINE__, what);
}

/* The file's bytes and mtime, to tell that a refusal changed nothing. */
static char *snapshot(const char *path, size_t *len, struct timespec *mtime)
{
	struct stat sb;
	if (stat(path, &sb) < 0)
		return NULL;
	*mtime = sb.st_mtim;
	char *buf = xmalloc((size_t)sb.st_size + 1);
	int fd = open(path, O_RDONLY);
	ssize_t got = fd >= 0 ? read(fd, buf, (size_t)sb.st_size) : -1;
	if (fd >= 0)
		close(fd);
	*len = got < 0 ? 0 : (size_t)got;
	return buf;
}

static int beside(const char *path, const char *suffix)
{
	char *p = xasprintf("%s%s", path, suffix);
	int there = access(p, F_OK) == 0;
	free(p);
	return there;
}

/* A file that is not this reaim's to write (another program's, whatever its user_version and
 * journal mode; a newer reaim's) is refused by a writer and a reader and left byte for byte,
 * mtime and all, with no -wal or -shm made beside it. */
static void refused_untouched(void)
{
	static const struct {
		const char *name, *sql, *says;
	} files[] = {
		{.name = "v0", .sql = "CREATE TABLE t (x); INSERT INTO t VALUES (1)", .says = "not a reaim results"},
		{.name = "v5", .sql = "CREATE TABLE t (x); PRAGMA user_version = 5", .says = "not a reaim results"},
		{.name = "v99", .sql = "CREATE TABLE runs (x); PRAGMA user_version = 99", .says = "not a reaim results"},
		{.name = "wal5",
		 .sql = "PRAGMA journal_mode = WAL; CREATE TABLE t (x); PRAGMA user_version = 5",
		 .says = "not a reaim results"},
		{.name = "newer", .sql = NULL, .says = "newer than this reaim"},
	};
	char err[512];
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *path = xasprintf("%s/%s.db", dir, files[i].name);
		struct store *st = NULL;
		sqlite3 *raw;
		if (files[i].sql) {
			okf(sqlite3_open(path, &raw) == SQLITE_OK &&
				   sqlite3_exec(raw, files[i].sql, NULL, NULL, NULL) == SQLITE_OK,
			   "%s: made", files[i].name);
		} else { /* ours, by a newer reaim */
			okf(store_open(path, &st, err, sizeof(err)) == 0, "%s: made", files[i].name);
			store_close(st);
			okf(sqlite3_open(path, &raw) == SQLITE_OK &&
				   sqlite3_exec(raw, "PRAGMA user_version = 99", NULL, NULL, NULL) == SQLITE_OK,
			   "%s: its version raised", files[i].name);
		}
		sqlite3_close(raw);
		/* an mtime in the past, so a rewrite within the same tick still shows */
		struct timespec old[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
		utimensat(AT_FDCWD, path, old, 0);
		size_t len0, len1;
		struct timespec m0, m1;
		char *before = snapshot(path, &len0, &m0);
		st = NULL;
		okf(store_open(path, &st, err, sizeof(err)) < 0 && strstr(err, files[i].says) && strstr(err, path),
		   "%s: a writer refuses it, naming it (%s)", files[i].name, err);
		store_close(st);
		st = NULL;
		okf(store_open_read(path, &st, err, sizeof(err)) < 0 && strstr(err, files[i].says) && strstr(err, path),
		   "%s: a reader refuses it, naming it", files[i].name);
		store_close(st);
		char *after = snapshot(path, &len1, &m1);
		okf(before && after && len0 == len1 && memcmp(before, after, len0) == 0, "%s: its bytes unchanged",
		   files[i].name);
		okf(m0.tv_sec == m1.tv_sec && m0.tv_nsec == m1.tv_nsec, "%s: its mtime unchanged", files[i].name);
		okf(!beside(path, "-wal") && !beside(path, "-shm") && !beside(path, "-journal"),
		   "%s: nothing made beside it", files[i].name);
		free(before);
		free(after);
		free(path);
	}
	char *slash = xasprintf("%s/sub/", dir);
	struct store *st = NULL;
	okf(store_open(slash, &st, err, sizeof(err)) < 0 && strstr(err, "ends in '/'"), "a path ending in / refused");
	store_close(st);
	slash[strlen(slash) - 1] = '\0';
	okf(access(slash, F_OK) != 0, "and no file made of it");
	free(slash);
}

/* A label that only begins like a run's place ("lastweek") names every run that has it, as any
 * label does; only "last" and "last~N" name a run by its place. */
static void names_by_place(void)
{
	char err[512], *path = xasprintf("%s/names.db", dir);
	struct store *st;
	ok(store_open(path, &st, err, sizeof(err)) == 0, "names: a database");
	const char *uuids[] = {"lw-1", "lw-2", "other"}, *labels[] = {"lastweek", "lastweek", "b"};
	for (size_t i = 0; i < ARRAY_SIZE(uuids); i++) {
		struct store_run r = {.uuid = uuids[i], .label = labels[i], .suite_name = "s", .suite_text = "x = 1;",
				      .command_line = "reaim", .version = "0", .mode = "sweep", .seed = 1};
		int64_t id;
		store_run_begin(st, &r, NULL, &id);
		store_run_finish(st, id, "complete", NULL);
	}
	int64_t *ids = NULL;
	size_t n = 0;
	ok(store_resolve_group(st, "lastweek", &ids, &n) == 0 && n == 2, "names: 'lastweek' is both runs of that label");
	free(ids);
	ok(store_resolve_group(st, "last", &ids, &n) == 0 && n == 1 && ids[0] == 3, "names: 'last' is the newest run");
	free(ids);
	ok(store_resolve_group(st, "last~2", &ids, &n) == 0 && n == 1 && ids[0] == 1, "names: 'last~2' by its place");
	free(ids);
	store_close(st);
	free(path);
}

/* Points come back in blocks, as every view prints them: per workload, O_SYNC off before on, then task
 * count and round, whatever order they ran in (a sweep with --osync both interleaves them). */
static void block_order(void)
{
	struct test_db t;
	if (test_db_open(&t) < 0) {
		ok(0, "a database for the block order");
		return;
	}
	int64_t run = test_db_run(t.st, "k"), wl[2];
	for (int w = 0; w < 2; w++) {
		struct store_workload sw = {
			.name = w ? "beta" : "alpha", .workfile_name = "mix", .workfile_text = "1 add_int\n"};
		test_db_workload(t.st, run, &sw, &wl[w], "jobs_per_task=1 repeat=1");
	}
	/* as they ran: alpha on 1, off 1, off 2, on 2; then beta on 1, off 1 */
	static const struct {
		int w, osync, tasks;
	} ran[] = {{0, 1, 1}, {0, 0, 1}, {0, 0, 2}, {0, 1, 2}, {1, 1, 1}, {1, 0, 1}};
	for (size_t i = 0; i < ARRAY_SIZE(ran); i++) {
		struct store_point p = {.run_id = run, .workload_id = wl[ran[i].w], .osync = ran[i].osync,
					.tasks = ran[i].tasks, .valid = 1, .jobs_per_task = 1, .jobs_per_min = 1};
		store_point_add(t.st, &p, NULL, 0, NULL, 0);
	}
	struct store_point *pts;
	size_t n;
	char got[64] = "";
	if (store_get_points(t.st, run, &pts, &n) == 0) {
		for (size_t i = 0; i < n; i++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%c%s%d ", pts[i].workload[0],
				 pts[i].osync ? "on" : "off", pts[i].tasks);
		free(pts);
	}
	is_str(got, "aoff1 aoff2 aon1 aon2 boff1 bon1 ", "points in blocks: per workload, O_SYNC off before on");
	test_db_remove(&t);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	char *db = xasprintf("%s/r.db", dir);
	char err[512];
	struct store *st;
	ok(store_open(db, &st, err, sizeof(err)) == 0, "create a database");

	int64_t r1 = add_run(st, "5.10"), r2 = add_run(st, "6.1");
	ok(r1 > 0 && r2 > r1, "runs get increasing ids");
	ok(store_run_env(st, r2, "hostname", "box") == 0, "environment row");
	char *config = (char *)"";
	ok(store_get_kernel_config(st, r2, &config) == 0 && config == NULL, "no kernel config stored: none read");
	struct store_workload w = {.name = "dbase", .workfile_name = "dbase", .workfile_text = "1 add_int\n"};
	int64_t wl;
	ok(test_db_workload(st, r2, &w, &wl, "jobs_per_task=10 repeat=1") == 0, "workload row");
	struct store_point p = {.run_id = r2, .workload_id = wl, .osync = 1, .tasks = 32, .valid = 1,
				.jobs_per_task = 99, .jobs_per_min = 601.0, .real_s = 316.3, .cpu_s = 134.0};
	struct store_test t = {.name = "add_int", .count = 99, .mean_s = 0.02};
	ok(store_point_add(st, &p, &t, 1, NULL, 0) == 0, "point with per-test figures");
	struct store_point bad = {.run_id = r2, .workload_id = wl, .osync = 1, .tasks = 64, .valid = 0};
	snprintf(bad.reason, sizeof(bad.reason), "task 3 killed by signal 9");
	ok(store_point_add(st, &bad, NULL, 0, NULL, 0) == 0, "invalid point stored too");
	ok(store_run_finish(st, r2, "failed", "task 3 killed") == 0, "finish run");

	int64_t id;
	ok(store_resolve_run(st, "last", &id) == 0 && id == r2, "last");
	ok(store_resolve_run(st, "last~1", &id) == 0 && id == r1, "last~1");
	ok(store_resolve_run(st, "5.10", &id) == 0 && id == r1, "by label");
	ok(store_resolve_run(st, "1", &id) == 0 && id == 1, "by id");
	ok(store_resolve_run(st, "nosuch", &id) == 1 && strstr(store_error(st), "no run matches") != NULL,
	   "unknown run named");

	struct store_point *pts;
	size_t n;
	ok(store_get_points(st, r2, &pts, &n) == 0 && n == 2, "two points back");
	is_near(pts[0].jobs_per_min, 601.0, 0, "figures round-trip");
	is_str(pts[0].workload, "dbase", "workload name joined");
	ok(!pts[1].valid && strcmp(pts[1].reason, "task 3 killed by signal 9") == 0, "invalid point and reason");
	struct store_test *tests;
	size_t nt;
	ok(store_get_tests(st, pts[0].id, &tests, &nt) == 0 && nt == 1 && tests[0].count == 99, "per-test back");
	free(tests);
	free(pts);
	struct store_run_row row;
	ok(store_get_run(st, r2, &row) == 0 && strcmp(row.status, "failed") == 0 && row.points == 2 &&
	   row.valid_points == 1 && strcmp(row.host, "box") == 0, "run row with counts and host");
	store_close(st);

	ok(store_open(db, &st, err, sizeof(err)) == 0, "reopen an existing database");
	struct store_run_row *rows;
	struct run_filter all = {0}, by_label = {.label = "5.10"}, by_status = {.status = "failed"},
			  by_host = {.host = "box"}, by_suite = {.suite = "nosuch"}, by_wf = {.workfile = "dbase"};
	ok(store_list_runs(st, &all, &rows, &n) == 0 && n == 2 && rows[0].id == r2, "list newest first");
	free(rows);
	ok(store_list_runs(st, &by_label, &rows, &n) == 0 && n == 1 && rows[0].id == r1, "filter by label");
	free(rows);
	ok(store_list_runs(st, &by_status, &rows, &n) == 0 && n == 1 && rows[0].id == r2, "filter by status");
	free(rows);
	ok(store_list_runs(st, &by_host, &rows, &n) == 0 && n == 1 && rows[0].id == r2, "filter by host");
	free(rows);
	ok(store_list_runs(st, &by_wf, &rows, &n) == 0 && n == 1 && rows[0].id == r2, "filter by workfile");
	free(rows);
	ok(store_list_runs(st, &by_suite, &rows, &n) == 0 && n == 0, "filter matching nothing");
	free(rows);
	store_close(st);

	/* a database written by the previous schema version is migrated forward, data kept */
	char *old = xasprintf("%s/old.db", dir);
	sqlite3 *raw;
	ok(sqlite3_open(old, &raw) == SQLITE_OK && sqlite3_exec(raw, store_migrations[0], NULL, NULL, NULL) == SQLITE_OK &&
	   sqlite3_exec(raw, "PRAGMA user_version = 1; INSERT INTO runs (uuid, label, suite_name, suite_text,"
			     " command_line, version, mode, seed) VALUES ('u1', 'old', 's', '', 'reaim', '0', 'sweep', 1)",
			NULL, NULL, NULL) == SQLITE_OK, "a version-1 database");
	sqlite3_close(raw);
	ok(store_open(old, &st, err, sizeof(err)) == 0, "opened and migrated");
	ok(store_resolve_run(st, "old", &id) == 0 && store_get_run(st, id, &row) == 0 && strcmp(row.label, "old") == 0,
	   "the old run survives the migration");
	int dead = -1;
	ok(store_reap_dead_runs(st, "box", &dead) == 0 && dead == 0, "the new columns are there");
	store_close(st);
	ok(sqlite3_open(old, &raw) == SQLITE_OK, "reopen raw");
	sqlite3_stmt *v;
	sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &v, NULL);
	sqlite3_step(v);
	is_int(sqlite3_column_int(v, 0), (long long)store_migration_count, "user_version is the latest");
	sqlite3_finalize(v);
	sqlite3_close(raw);
	free(old);

	/* a run whose process died is marked interrupted by the next run on the same host */
	ok(store_open(db, &st, err, sizeof(err)) == 0, "reopen for the dead-run check");
	struct store_run dying = {.uuid = "dying", .label = "dying", .suite_name = "s", .suite_text = "",
				  .command_line = "reaim", .version = "0", .mode = "sweep", .seed = 1,
				  .pid = 999999999, .host = "box"};
	int64_t dying_id;
	ok(store_run_begin(st, &dying, NULL, &dying_id) == 0, "a run left 'running'");
	ok(store_reap_dead_runs(st, "box", &dead) == 0 && dead == 0, "alive while its lock is held, whatever its pid");
	store_close(st); /* its lock and lock file go: nobody will finish it */
	ok(store_open(db, &st, err, sizeof(err)) == 0, "reopen");
	ok(store_reap_dead_runs(st, "other-host", &dead) == 0 && dead == 0, "other hosts' runs are left alone");
	ok(store_reap_dead_runs(st, "box", &dead) == 0 && dead == 1, "found as dead");
	ok(store_get_run(st, dying_id, &row) == 0 && strcmp(row.status, "interrupted") == 0, "marked interrupted");

	/* how a run was made comes back: texts, version, seed, the run it repeats, its plan */
	struct store_run again = {.uuid = "again",
				  .label = "6.2",
				  .suite_name = "s",
				  .suite_text = "tasks = \"1,2\";",
				  .command_line = "reaim rerun 2 --label '6 2'",
				  .version = "9.9",
				  .mode = "sweep",
				  .seed = 77,
				  .rerun_of = "6.1",
				  .planned_points = 24,
				  .planned_exact = 1};
	int64_t r3;
	struct store_run_row row3;
	char *cmdline, *suite_text, *wf_text;
	ok(store_run_begin(st, &again, NULL, &r3) == 0 && store_get_run(st, r3, &row3) == 0, "a rerun stored");
	ok(strcmp(row3.version, "9.9") == 0 && row3.seed == 77 && strcmp(row3.rerun_of, "6.1") == 0 &&
		   row3.planned_points == 24 && row3.planned_exact == 1,
	   "version, seed, rerun_of and planned points");
	ok(store_get_run_text(st, r3, &cmdline, &suite_text) == 0 && strcmp(cmdline, again.command_line) == 0 &&
		   strcmp(suite_text, again.suite_text) == 0,
	   "command line and suite text whole");
	free(cmdline);
	free(suite_text);
	ok(store_get_run_text(st, 999, &cmdline, &suite_text) < 0, "texts of no run: an error");
	ok(store_get_workfile_text(st, wl, &wf_text) == 0 && strcmp(wf_text, "1 add_int\n") == 0,
	   "workfile text whole");
	free(wf_text);
	ok(store_get_workfile_text(st, 999, &wf_text) < 0, "workfile of no workload: an error");
	ok(store_get_run(st, r2, &row3) == 0 && row3.planned_points == 0 && row3.rerun_of[0] == '\0',
	   "a run with no plan count and no original reads 0 and empty");
	ok(store_run_finish(st, r3, "complete", NULL) == 0, "finish the rerun");
	store_close(st);

	char *junk = xasprintf("%s/junk.db", dir);
	int fd = open(junk, O_CREAT | O_WRONLY, 0600);
	ok(write(fd, "this is not a database, just text that is long enough to look like a header......"
		     "................................................................................",
		 160) == 160, "write junk");
	close(fd);
	ok(store_open(junk, &st, err, sizeof(err)) < 0 && strstr(err, junk) != NULL, "corrupt file refused, named");
	/* another program's SQLite file is refused and left as it was */
	char *foreign = xasprintf("%s/foreign.db", dir);
	ok(sqlite3_open(foreign, &raw) == SQLITE_OK &&
	   sqlite3_exec(raw, "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('mine')", NULL, NULL, NULL) ==
		   SQLITE_OK, "a foreign database");
	sqlite3_close(raw);
	ok(store_open(foreign, &st, err, sizeof(err)) < 0 && strstr(err, "not a reaim results database") != NULL,
	   "a foreign database is refused");
	ok(sqlite3_open(foreign, &raw) == SQLITE_OK, "reopen the foreign database");
	sqlite3_prepare_v2(raw, "SELECT COUNT(*) FROM sqlite_master", -1, &v, NULL);
	sqlite3_step(v);
	is_int(sqlite3_column_int(v, 0), 1, "and left with only its own table");
	sqlite3_finalize(v);
	sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &v, NULL);
	sqlite3_step(v);
	is_str((const char *)sqlite3_column_text(v, 0), "delete", "and its journal mode unchanged");
	sqlite3_finalize(v);
	sqlite3_close(raw);
	free(foreign);
	char *nodir = xasprintf("%s/no/such/dir/r.db", dir);
	ok(store_open(nodir, &st, err, sizeof(err)) < 0, "unwritable path refused");

	tap_case(liveness);
	tap_case(refused_untouched);
	tap_case(names_by_place);

	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ok(system(cmd) == 0, "clean up");
	free(db);
	free(junk);
	free(nodir);
	block_order();
	return done_testing();
}
