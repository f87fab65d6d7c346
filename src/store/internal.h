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
};

extern const char *const store_migrations[];
extern const size_t store_migration_count;

/* PRAGMA user_version of an attached schema ("main", "other"). */
int store_schema_version(struct store *st, const char *schema, int *v);

/* Record the connection's last error in st->err; always returns -1. */
int store_fail(struct store *st, const char *what);

#endif
