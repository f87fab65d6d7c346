/* Shared between the store's files: the connection and its migrations. */
#ifndef REAIM_STORE_INTERNAL_H
#define REAIM_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>

#include "store/store.h"

struct store {
	sqlite3 *db;
	char path[200];           /* for messages */
	char err[512];
	long long busy_limit_ms;  /* how long to wait for another program's lock */
	int (*cancelled)(void *); /* stop waiting when this says so */
	void *cancel_arg;
};

/* A writer waits (interruptibly) for a lock as long as a point may take to store; a reader
 * only for a checkpoint or another program's exclusive lock. */
#define STORE_WRITER_WAIT_MS (10LL * 60 * 1000)
#define STORE_READER_WAIT_MS 2000LL

extern const char *const store_migrations[];
extern const size_t store_migration_count;

/* PRAGMA user_version of an attached schema ("main", "other"). */
int store_schema_version(struct store *st, const char *schema, int *v);

/* PRAGMA quick_check of a schema: a damaged page is found before anything is appended. */
int store_check_integrity(struct store *st, const char *schema, const char *path);

/* Record the connection's last error in st->err; always returns -1. */
int store_fail(struct store *st, const char *what);

#endif
