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

/* One run's mean wall time at one task count. */
struct run_time {
	int64_t run_id;
	int tasks;
	double seconds;
};

static void read_time(sqlite3_stmt *s, void *row)
{
	struct run_time *t = row;
	t->run_id = sqlite3_column_int64(s, 0);
	t->tasks = sqlite3_column_int(s, 1);
	t->seconds = sqlite3_column_double(s, 2);
}

static void read_label(sqlite3_stmt *s, void *row)
{
	struct store_estimate *e = row;
	store_copy_text(e->label, sizeof(e->label), s, 0);
	store_copy_text(e->started, sizeof(e->started), s, 1);
}

/* Wall time of a point is its measured time plus what the point cost around it (fork, reap,
 * the sampler), so the estimate covers what the user waits for. */
int store_estimate(struct store *st, const struct store_estimate_ask *ask, struct store_estimate *out)
{
	const int *tasks = ask->tasks;
	size_t ntasks = ask->ntasks;
	static const char what[] = "looking up stored point times";
	struct store_rows r = {.size = sizeof(struct run_time), .read = read_time};
	memset(out, 0, sizeof(*out));
	out->seconds = xcalloc(ntasks + 1, sizeof(double));
	for (size_t i = 0; i < ntasks; i++)
		out->seconds[i] = -1;
	if (store_query(st, what, &r,
			"SELECT p.run_id, p.tasks, AVG(p.real_s + COALESCE(p.overhead_s, 0))"
			" FROM points p JOIN workloads w ON w.id = p.workload_id JOIN runs r ON r.id = p.run_id"
			" WHERE w.workfile_name = ?1 AND p.jobs_per_task = ?3"
			" AND EXISTS (SELECT 1 FROM workload_options o WHERE o.workload_id = w.id"
			"  AND o.key = 'jobs_per_task' AND o.item = -1 AND o.value = CAST(?2 AS TEXT))"
			" AND p.osync = ?4 AND p.cpus = 0 AND p.valid AND r.mode <> 'single'"
			" GROUP BY p.run_id, p.tasks ORDER BY p.run_id DESC",
			"siii", ask->workfile_name, ask->jobs_per_task, ask->per_task, (int64_t)ask->osync) < 0)
		return -1;
	const struct run_time *t = r.v;
	double *cur = xcalloc(ntasks + 1, sizeof(double));
	for (size_t i = 0, next; i < r.n; i = next) {
		for (size_t k = 0; k < ntasks; k++)
			cur[k] = -1;
		for (next = i; next < r.n && t[next].run_id == t[i].run_id; next++)
			for (size_t k = 0; k < ntasks; k++)
				if (tasks[k] == t[next].tasks)
					cur[k] = t[next].seconds;
		/* rows come newest first: an older run is kept only if it covers more */
		if (count_matched(cur, ntasks) > out->matched) {
			out->run_id = t[i].run_id;
			out->matched = count_matched(cur, ntasks);
			memcpy(out->seconds, cur, ntasks * sizeof(double));
		}
	}
	free(cur);
	free(r.v);
	if (out->run_id == 0)
		return 0;
	r = (struct store_rows){.size = sizeof(*out), .read = read_label};
	if (store_query(st, what, &r, "SELECT label, started_at FROM runs WHERE id = ?",
			"i", out->run_id) < 0)
		return -1;
	if (r.n == 1) {
		const struct store_estimate *e = r.v;
		memcpy(out->label, e->label, sizeof(out->label));
		memcpy(out->started, e->started, sizeof(out->started));
	}
	free(r.v);
	return r.n == 1 ? 0 : store_fail(st, what);
}

void store_estimate_free(struct store_estimate *e)
{
	free(e->seconds);
	e->seconds = NULL;
}
