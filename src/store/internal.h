/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the store's files: the connection, its migrations, statement and row helpers. */
#ifndef REAIM_STORE_INTERNAL_H
#define REAIM_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stdarg.h>
#include <stddef.h>

#include "store/store.h"

struct store {
	sqlite3 *db;
	char *path;               /* as given, for messages */
	char *file;               /* the file's one name (path_resolve), which SQLite opens */
	char err[STORE_ERR_MAX];
	long long busy_limit_ms;  /* how long to wait for another program's lock */
	int (*cancelled)(void *); /* stop waiting when this says so */
	void *cancel_arg;
	char *dir, *base;         /* file's directory and name: the run lock files go there */
	int run_lock;             /* held while the run this connection began goes on, else -1 */
	int64_t run_lock_id;      /* that run */
	char *run_lock_path;
	char *made_wal;           /* a reader that created the WAL files: the database's full path, to tidy */
};

/* A writer waits (interruptibly) for a lock as long as a point may take to store; a reader
 * only for a checkpoint or another program's exclusive lock. */
#define STORE_WRITER_WAIT_MS (10LL * 60 * 1000)
#define STORE_READER_WAIT_MS 2000LL

extern const char *const store_migrations[];
extern const size_t store_migration_count;

/* PRAGMA user_version of an attached schema ("main", "other"). */
int store_schema_version(struct store *st, const char *schema, int *v);

/* What a file attached as schema is: STORE_FILE_EMPTY (no tables, version 0: a new file) or
 * STORE_FILE_OURS (reaim's tables, a version this reaim knows, in *version), else -1 with the
 * reason naming path: another program's database, or a newer reaim's. Reads only. */
enum { STORE_FILE_EMPTY = 0, STORE_FILE_OURS = 1 };
int store_classify(struct store *st, const char *schema, const char *path, int *version);

/* Why a row left 'running' by a writer that is gone is marked interrupted (by the next run, or as
 * merge copies it). */
#define STORE_DEAD_REASON "the reaim process died (killed, or the machine went down) before the run finished"

/* Whether the run that left a row 'running' still lives: its lock file (a name in dir) held, or
 * without one its pid a reaim process (pid <= 0: unknown, alive). With tidy a stale lock file
 * reaim made for that run is removed. */
int store_owner_alive(const char *dir, const char *lock_file, const char *uuid, int64_t pid, int tidy);

/* PRAGMA quick_check of a schema: a damaged page is found before anything is appended. */
int store_check_integrity(struct store *st, const char *schema, const char *path);

/* Record the connection's last error in st->err; always returns -1. */
int store_fail(struct store *st, const char *what);

/* Prepare sql and bind the values fmt describes (s: text, NULL binds NULL; i: int64; d: double).
 * 0, or -1 with `what` in the error. */
int store_prepare(struct store *st, sqlite3_stmt **s, const char *what, const char *sql, const char *fmt, ...);
int store_vprepare(struct store *st, sqlite3_stmt **s, const char *what, const char *sql, const char *fmt,
		   va_list ap);

/* Reading result rows: read fills one zeroed element from the current row; drop (may be NULL)
 * frees what read allocated in one, when a later step fails. */
typedef void store_row_fn(sqlite3_stmt *s, void *row);
/* The rows of a query: what one element is and how it is read, set by the caller; what was read,
 * filled by store_query. */
struct store_rows {
	size_t size;        /* bytes of one element */
	store_row_fn *read;
	store_row_fn *drop; /* NULL: read allocates nothing */
	void *v;
	size_t n;
};
/* Prepare and bind as store_prepare, then read every row into rows->v, a growing array of elements
 * of rows->size bytes. 0, or -1 with `what` in the error (nothing is left allocated then). */
int store_query(struct store *st, const char *what, struct store_rows *rows, const char *sql, const char *fmt, ...);

/* A row reader for queries of one integer column (ids, counts). */
void store_read_id(sqlite3_stmt *s, void *row);

/* The figure tables as SQL: ", name" for every row, so a list starts with fixed columns. */
#define STORE_COLUMN(name, ...) ", " #name
#define STORE_PARAM(name, ...) ", ?"
#define STORE_POINT_COLUMN(name, ...) ", p." #name /* points joined to workloads share names */
/* Bind a row's figures to parameters first, first+1, ...; with no_system the SYSTEM ones bind NULL. */
int store_bind_figures(sqlite3_stmt *s, int first, const struct store_figure_table *t, const void *row,
		       int no_system);
/* Read a row's figures from columns first, first+1, ... (NULL reads as 0, NaN for a REAL, "" for TEXT). */
void store_read_figures(sqlite3_stmt *s, int first, const struct store_figure_table *t, void *row);
/* Copy a text column into a buffer, cut to fit; NULL reads as "". */
void store_copy_text(char *dst, size_t len, sqlite3_stmt *s, int col);

#endif
