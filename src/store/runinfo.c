/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading back how a run was made: its command line, seed, version, suite text and each workload's
 * options, for reports that let a reader reproduce it. Each table's columns are listed once, as
 * struct members: the SELECT and the row reader both come from that list. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"
#include "util/util.h"

enum column_type { COL_TEXT, COL_I64, COL_REAL };

struct column {
	const char *name;
	enum column_type type;
	size_t offset;
};

#define COLUMN(s, name, type) { #name, COL_##type, offsetof(struct s, name) }
#define RUN_COLUMN(name, type) COLUMN(store_run_info, name, type)
#define WORKLOAD_COLUMN(name, type) COLUMN(store_run_workload, name, type)

static const struct column run_columns[] = {
	RUN_COLUMN(command_line, TEXT), RUN_COLUMN(version, TEXT), RUN_COLUMN(seed, I64),
	RUN_COLUMN(suite_name, TEXT), RUN_COLUMN(suite_text, TEXT),
};

static const struct column workload_columns[] = {
	WORKLOAD_COLUMN(name, TEXT),
	WORKLOAD_COLUMN(workfile_name, TEXT),
	WORKLOAD_COLUMN(workfile_text, TEXT),
};

#define NCOLS(t) (sizeof(t) / sizeof((t)[0]))

/* "SELECT a, b, c FROM table WHERE tail" from a column list. */
static char *select_sql(const struct column *cols, size_t n, const char *table, const char *tail)
{
	struct strbuf sql = {0};
	strbuf_addf(&sql, "SELECT ");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sql, "%s%s", i ? ", " : "", cols[i].name);
	strbuf_addf(&sql, " FROM %s WHERE %s", table, tail);
	return sql.buf;
}

static void read_columns(const struct column *cols, size_t n, sqlite3_stmt *s, void *row)
{
	for (size_t i = 0; i < n; i++) {
		void *at = (char *)row + cols[i].offset;
		switch (cols[i].type) {
		case COL_TEXT: {
			const unsigned char *t = sqlite3_column_text(s, (int)i);
			*(char **)at = xstrdup(t ? (const char *)t : "");
			break;
		}
		case COL_I64: *(int64_t *)at = sqlite3_column_int64(s, (int)i); break;
		case COL_REAL: *(double *)at = sqlite3_column_double(s, (int)i); break;
		}
	}
}

static void free_columns(const struct column *cols, size_t n, void *row)
{
	for (size_t i = 0; i < n; i++)
		if (cols[i].type == COL_TEXT)
			free(*(char **)((char *)row + cols[i].offset));
}

static void read_head(sqlite3_stmt *s, void *row) { read_columns(run_columns, NCOLS(run_columns), s, row); }

static void read_workload(sqlite3_stmt *s, void *row)
{
	read_columns(workload_columns, NCOLS(workload_columns), s, row);
}

static void drop_workload(sqlite3_stmt *s, void *row)
{
	(void)s;
	free_columns(workload_columns, NCOLS(workload_columns), row);
}

void store_run_info_free(struct store_run_info *ri)
{
	free_columns(run_columns, NCOLS(run_columns), ri);
	for (size_t i = 0; i < ri->nworkloads; i++)
		drop_workload(NULL, &ri->workloads[i]);
	free(ri->workloads);
	memset(ri, 0, sizeof(*ri));
}

static void drop_head(sqlite3_stmt *s, void *row)
{
	(void)s;
	store_run_info_free(row);
}

int store_get_run_info(struct store *st, int64_t run_id, struct store_run_info *ri)
{
	struct store_rows r = {.size = sizeof(*ri), .read = read_head, .drop = drop_head};
	memset(ri, 0, sizeof(*ri));
	char *sql = select_sql(run_columns, NCOLS(run_columns), "runs", "id = ?");
	int rc = store_query(st, "reading the run", &r, sql, "i", run_id);
	free(sql);
	if (rc < 0)
		return -1;
	if (r.n == 0) {
		free(r.v);
		snprintf(st->err, sizeof(st->err), "no run %lld", (long long)run_id);
		return -1;
	}
	*ri = *(struct store_run_info *)r.v; /* the id is unique: one row */
	free(r.v);
	sql = select_sql(workload_columns, NCOLS(workload_columns), "workloads", "run_id = ? ORDER BY id");
	r = (struct store_rows){.size = sizeof(*ri->workloads), .read = read_workload, .drop = drop_workload};
	rc = store_query(st, "reading the run's workloads", &r, sql, "i", run_id);
	free(sql);
	if (rc < 0) {
		store_run_info_free(ri);
		return -1;
	}
	ri->workloads = r.v;
	ri->nworkloads = r.n;
	return 0;
}
