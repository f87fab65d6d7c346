/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How long points took in stored runs, so a plan can say how long it will take. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"
#include "util/util.h"

static size_t count_matched(const double *secs, size_t ntasks)
{
	size_t m = 0;
	for (size_t i = 0; i < ntasks; i++)
		m += secs[i] >= 0;
	return m;
}

/* Wall time of a point is its measured time plus what the point cost around it (fork, reap,
 * the sampler), so the estimate covers what the user waits for. */
int store_estimate(struct store *st, const char *workfile_name, int64_t jobs_per_task, int64_t per_task,
		   int osync, const int *tasks, size_t ntasks, struct store_estimate *out)
{
	memset(out, 0, sizeof(*out));
	out->seconds = xcalloc(ntasks + 1, sizeof(double));
	double *cur = xcalloc(ntasks + 1, sizeof(double));
	for (size_t i = 0; i < ntasks; i++)
		out->seconds[i] = cur[i] = -1;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT p.run_id, p.tasks, AVG(p.real_s + COALESCE(p.overhead_s, 0))"
			       " FROM points p JOIN workloads w ON w.id = p.workload_id JOIN runs r ON r.id = p.run_id"
			       " WHERE w.workfile_name = ?1 AND w.jobs_per_task = ?2 AND p.jobs_per_task = ?3"
			       " AND p.osync = ?4 AND p.valid AND r.mode <> 'single'"
			       " GROUP BY p.run_id, p.tasks ORDER BY p.run_id DESC",
			       -1, &s, NULL) != SQLITE_OK) {
		free(cur);
		return store_fail(st, "looking up stored point times");
	}
	sqlite3_bind_text(s, 1, workfile_name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 2, jobs_per_task);
	sqlite3_bind_int64(s, 3, per_task);
	sqlite3_bind_int(s, 4, osync);
	int64_t run = 0;
	int rc;
	for (;;) {
		rc = sqlite3_step(s);
		int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
		if (id != run && run != 0) {
			/* one run's rows are complete: keep it if it covers more (rows come newest first) */
			if (count_matched(cur, ntasks) > out->matched) {
				out->run_id = run;
				out->matched = count_matched(cur, ntasks);
				memcpy(out->seconds, cur, ntasks * sizeof(double));
			}
			for (size_t i = 0; i < ntasks; i++)
				cur[i] = -1;
		}
		if (rc != SQLITE_ROW)
			break;
		run = id;
		int t = sqlite3_column_int(s, 1);
		for (size_t i = 0; i < ntasks; i++)
			if (tasks[i] == t)
				cur[i] = sqlite3_column_double(s, 2);
	}
	sqlite3_finalize(s);
	free(cur);
	if (rc != SQLITE_DONE)
		return store_fail(st, "looking up stored point times");
	if (out->run_id == 0)
		return 0;
	if (sqlite3_prepare_v2(st->db, "SELECT label, started_at FROM runs WHERE id = ?", -1, &s, NULL) != SQLITE_OK)
		return store_fail(st, "looking up stored point times");
	sqlite3_bind_int64(s, 1, out->run_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const unsigned char *l = sqlite3_column_text(s, 0), *d = sqlite3_column_text(s, 1);
		snprintf(out->label, sizeof(out->label), "%s", l ? (const char *)l : "");
		snprintf(out->started, sizeof(out->started), "%s", d ? (const char *)d : "");
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : store_fail(st, "looking up stored point times");
}

void store_estimate_free(struct store_estimate *e)
{
	free(e->seconds);
	e->seconds = NULL;
}
