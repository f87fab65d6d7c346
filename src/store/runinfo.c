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

void store_run_info_free(struct store_run_info *ri)
{
	free(ri->command_line);
	free(ri->version);
	free(ri->suite_name);
	free(ri->suite_text);
	for (size_t i = 0; i < ri->nworkloads; i++) {
		struct store_run_workload *w = &ri->workloads[i];
		free(w->name);
		free(w->workfile_name);
		free(w->workfile_text);
		free(w->tasks);
		free(w->osync);
		free(w->sync_mode);
		free(w->dirs);
	}
	free(ri->workloads);
	memset(ri, 0, sizeof(*ri));
}

int store_get_run_info(struct store *st, int64_t run_id, struct store_run_info *ri)
{
	sqlite3_stmt *s;
	memset(ri, 0, sizeof(*ri));
	if (sqlite3_prepare_v2(st->db, "SELECT command_line, version, seed, suite_name, suite_text FROM runs WHERE id = ?",
			       -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "reading the run");
	sqlite3_bind_int64(s, 1, run_id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		ri->command_line = column_dup(s, 0);
		ri->version = column_dup(s, 1);
		ri->seed = sqlite3_column_int64(s, 2);
		ri->suite_name = column_dup(s, 3);
		ri->suite_text = column_dup(s, 4);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW) {
		if (rc == SQLITE_DONE)
			snprintf(st->err, sizeof(st->err), "no run %lld", (long long)run_id);
		return rc == SQLITE_DONE ? -1 : store_fail(st, "reading the run");
	}
	if (sqlite3_prepare_v2(st->db,
			       "SELECT name, workfile_name, workfile_text, tasks, jobs_per_task, repeat, osync, sync_mode,"
			       " filesize_kib, poolsize_kib, dirs, threshold FROM workloads WHERE run_id = ? ORDER BY id",
			       -1, &s, NULL) != SQLITE_OK) {
		store_run_info_free(ri);
		return store_fail(st, "reading the run's workloads");
	}
	sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		ri->workloads = xrealloc(ri->workloads, (ri->nworkloads + 1) * sizeof(*ri->workloads));
		struct store_run_workload *w = &ri->workloads[ri->nworkloads++];
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
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_run_info_free(ri);
		return store_fail(st, "reading the run's workloads");
	}
	return 0;
}
