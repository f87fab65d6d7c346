/* The results database (SQLite): schema and migrations, inserts as a run goes, queries. */
#ifndef REAIM_STORE_H
#define REAIM_STORE_H

#include <stddef.h>
#include <stdint.h>

struct store;

int store_open(const char *path, struct store **out, char *err, size_t errlen);
void store_close(struct store *st);
const char *store_error(const struct store *st);

struct store_run {
	const char *uuid, *label, *suite_name, *suite_text, *command_line, *version, *mode, *host;
	int64_t seed, pid;
};
/* Mark runs of this host still 'running' whose process is gone as interrupted; how many. */
int store_reap_dead_runs(struct store *st, const char *host, int *count);
struct env_list;
/* Store a run with its environment fingerprint (NULL for none) in one transaction. */
int store_run_begin(struct store *st, const struct store_run *r, const struct env_list *env, int64_t *run_id);
int store_run_env(struct store *st, int64_t run_id, const char *key, const char *value);
int store_run_finish(struct store *st, int64_t run_id, const char *status, const char *reason);

struct store_workload {
	const char *name, *workfile_name, *workfile_text, *sync_mode, *osync, *dirs, *tasks;
	int64_t jobs_per_task, filesize_kib, poolsize_kib, repeat;
	double threshold;
};
int store_workload_add(struct store *st, int64_t run_id, const struct store_workload *w, int64_t *wl_id);

/* Every stored figure of a point, in the names DESIGN.md uses. */
struct store_point {
	int64_t id, run_id, workload_id;
	char workload[64];
	int osync, tasks, repeat, valid;
	char reason[320];
	int64_t jobs_per_task, file_kib;
	double jobs_per_min, jobs_per_min_task, real_s, user_s, sys_s, cpu_s;
	double std_dev_s, std_dev_pct, jti, min_task_s, max_task_s;
	int min_task_index, max_task_index;
	double release_skew_s, overhead_s;
	int sampled;              /* the system figures are set */
	double user_pct, sys_pct, iowait_pct, idle_pct, read_kbs, write_kbs, read_iops, write_iops;
	double util_pct, ctxt_per_s, forks_per_s, pgfault_per_s, sampler_cpu_pct;
};

/* One row of a point's system time series. */
struct store_sample {
	double t_s, user_pct, sys_pct, iowait_pct, idle_pct, read_kbs, write_kbs, util_pct, ctxt_per_s;
};

struct store_test {
	char name[32];
	int64_t count;
	double total_s, min_s, max_s, mean_s, p50_s, p90_s, p99_s;
	int64_t over_2s;
};

/* Insert a point and its per-test rows in one transaction. */
int store_point_add(struct store *st, struct store_point *p, const struct store_test *tests, size_t ntests,
		    const struct store_sample *samples, size_t nsamples);

/* ---- queries ---- */
/* Filters for store_list_runs; NULL or 0 fields do not filter. */
struct run_filter {
	const char *label, *suite, *workfile, *host, *status, *since;
	size_t limit;
};


struct store_run_row {
	int64_t id;
	char uuid[40], label[128], suite[64], status[16], started[32], host[64], mode[16];
	char reason[256];
	int points, valid_points;
};
/* Resolve "N", "last", "last~N" or a label (newest with it) to a run id. */
int store_resolve_run(struct store *st, const char *spec, int64_t *run_id);
int store_get_run(struct store *st, int64_t run_id, struct store_run_row *row);
/* Newest first, filtered. */
int store_list_runs(struct store *st, const struct run_filter *f, struct store_run_row **rows, size_t *n);
int store_get_points(struct store *st, int64_t run_id, struct store_point **pts, size_t *n);
int store_get_tests(struct store *st, int64_t point_id, struct store_test **tests, size_t *n);
/* A point's system time series, in time order. */
int store_get_samples(struct store *st, int64_t point_id, struct store_sample **samples, size_t *n);
/* Environment rows of a run as "key\tvalue" pairs in key order. */
int store_get_env(struct store *st, int64_t run_id, char ***kv, size_t *n);

/* How a run was made: what `report` shows so a reader can make it again. */
struct store_workload_row {
	char *name, *workfile_name, *workfile_text, *tasks, *osync, *sync_mode, *dirs;
	int64_t jobs_per_task, repeat, filesize_kib, poolsize_kib;
	double threshold;
};
struct store_run_info {
	char *command_line, *version, *suite_name, *suite_text;
	int64_t seed;
	struct store_workload_row *workloads;
	size_t nworkloads;
};
int store_get_run_info(struct store *st, int64_t run_id, struct store_run_info *out);
void store_run_info_free(struct store_run_info *ri);

/* Copy the runs of another database that this one lacks (by uuid); all or nothing. */
int store_merge(struct store *st, const char *other_path, size_t *copied, size_t *skipped);

#endif
