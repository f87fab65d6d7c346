/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading back how a run was made: its command line, seed, version, suite text and each workload's
 * options, for reports that let a reader reproduce it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"
#include "util/util.h"

static char *column_dup(sqlite3_stmt *s, int col)
{
	const unsigned char *t = sqlite3_column_text(s, col);
	return xstrdup(t ? (const char *)t : "");
}

static void read_head(sqlite3_stmt *s, void *row)
{
	struct store_run_info *ri = row;
	ri->command_line = column_dup(s, 0);
	ri->version = column_dup(s, 1);
	ri->seed = sqlite3_column_int64(s, 2);
	ri->suite_name = column_dup(s, 3);
	ri->suite_text = column_dup(s, 4);
}

static void read_workload(sqlite3_stmt *s, void *row)
{
	struct store_run_workload *w = row;
	w->name = column_dup(s, 0);
	w->workfile_name = column_dup(s, 1);
	w->workfile_text = column_dup(s, 2);
	w->tasks = column_dup(s, 3);
	w->jobs_per_task = sqlite3_column_int64(s, 4);
	w->repeat = sqlite3_column_int64(s, 5);
	w->osync = column_dup(s, 6);
	w->sync_mode = column_dup(s, 7);
	w->filesize_kib = sqlite3_column_int64(s, 8);
	w->poolsize_kib = sqlite3_column_int64(s, 9);
	w->dirs = column_dup(s, 10);
	w->threshold = sqlite3_column_double(s, 11);
}

static void drop_workload(sqlite3_stmt *s, void *row)
{
	struct store_run_workload *w = row;
	(void)s;
	free(w->name);
	free(w->workfile_name);
	free(w->workfile_text);
	free(w->tasks);
	free(w->osync);
	free(w->sync_mode);
	free(w->dirs);
}

void store_run_info_free(struct store_run_info *ri)
{
	free(ri->command_line);
	free(ri->version);
	free(ri->suite_name);
	free(ri->suite_text);
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
	struct store_rows r;
	memset(ri, 0, sizeof(*ri));
	if (store_query(st, "reading the run", sizeof(*ri), read_head, drop_head, &r,
			"SELECT command_line, version, seed, suite_name, suite_text FROM runs WHERE id = ?", "i",
			run_id) < 0)
		return -1;
	if (r.n == 0) {
		free(r.v);
		snprintf(st->err, sizeof(st->err), "no run %lld", (long long)run_id);
		return -1;
	}
	*ri = *(struct store_run_info *)r.v; /* the id is unique: one row */
	free(r.v);
	if (store_query(st, "reading the run's workloads", sizeof(*ri->workloads), read_workload, drop_workload, &r,
			"SELECT name, workfile_name, workfile_text, tasks, jobs_per_task, repeat, osync, sync_mode,"
			" filesize_kib, poolsize_kib, dirs, threshold FROM workloads WHERE run_id = ? ORDER BY id",
			"i", run_id) < 0) {
		store_run_info_free(ri);
		return -1;
	}
	ri->workloads = r.v;
	ri->nworkloads = r.n;
	return 0;
}
