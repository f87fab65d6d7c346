/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results database (SQLite): schema and migrations, inserts as a run goes, queries. */
#ifndef REAIM_STORE_STORE_H
#define REAIM_STORE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "store/figures.h"

struct store;

/* Room for any error of the store: it names up to two database paths (merge) in full. */
#define STORE_ERR_MAX 4096
/* A database path as given is refused past this many bytes (so an error can name it whole);
 * its full path, links resolved, past what SQLite opens (512 bytes less its "-journal"). */
#define STORE_PATH_MAX 1024
#define STORE_SQLITE_PATH_MAX 504

/* The database is known by its file, not by the name it was given: every link and ./.. resolved
 * once (path_resolve), SQLite opens that name and the run's lock file lives beside it, so runs
 * and merges reaching one file by two names agree on its runs' liveness. A file with more than
 * one hard link is refused for writing (SQLite keeps its journal beside the name). err: at least
 * STORE_ERR_MAX bytes, or the reason is cut short. */
int store_open(const char *path, struct store **out, char *err, size_t errlen);
/* The same, and waiting for a lock held by another program ends when cancelled(arg) says so. */
int store_open_cancellable(const char *path, int (*cancelled)(void *), void *arg, struct store **out, char *err,
			   size_t errlen);
/* Where the results database is: the --db flag, else $REAIM_DB, else results/reaim.db. */
#define STORE_DEFAULT_DIR "results"
#define STORE_DEFAULT_PATH STORE_DEFAULT_DIR "/reaim.db"
const char *store_db_path(const char *flag);
/* Make the default database's directory in the current one (there already is fine); -1 with the
 * reason in err, naming its full path. */
int store_default_dir(char *err, size_t errlen);
/* Under a harness (LKP's $RESULT_ROOT, LAVA's $LAVA_RESULT_DIR, autotest's test results dir
 * under $AUTODIR; harness.c), the database in its results directory: path, the harness's name
 * and the variable that said; -1 when no harness's directory is there. */
int store_harness_db(char *path, size_t len, const char **name, const char **var);
/* Without $REAIM_DB, set it to store_harness_db's path, so that the database of this process
 * (and of what it starts) lands where the harness collects results; -1 when setenv failed. */
int store_harness_default(void);
/* Read-only, for list/show/export/compare/plot: never creates, migrates or waits for writers. */
int store_open_read(const char *path, struct store **out, char *err, size_t errlen);
/* Waiting for a lock ends when cancelled(arg) returns non-zero (an interrupted run). */
void store_set_cancel(struct store *st, int (*cancelled)(void *), void *arg);
void store_close(struct store *st);
const char *store_error(const struct store *st);

struct store_run {
	const char *uuid, *label, *suite_name, *suite_text, *command_line, *version, *mode, *host;
	int64_t seed, pid;
	const char *rerun_of;     /* uuid of the run this one repeats, or NULL */
	int64_t planned_points;   /* points the run plans; 0: its modes cannot say */
	int planned_exact;        /* 0: planned_points is an upper bound (growing modes) */
	const char *kernel_config; /* the kernel's build config text, once per run; NULL unknown */
};
/* Mark runs of this host still 'running' whose process is gone as interrupted; how many. */
int store_reap_dead_runs(struct store *st, const char *host, int *count);
/* 1 when the run's row still says 'running' but the process that owned it is gone (killed, or the
 * machine went down), as store_reap_dead_runs judges it, changing nothing; 0 when it is not; -1 when
 * the store cannot be read. */
int store_run_owner_gone(struct store *st, int64_t run_id);
struct env_list;
/* Store a run with its environment fingerprint (NULL for none) in one transaction. */
int store_run_begin(struct store *st, const struct store_run *r, const struct env_list *env, int64_t *run_id);
int store_run_env(struct store *st, int64_t run_id, const char *key, const char *value);
int store_run_finish(struct store *st, int64_t run_id, const char *status, const char *reason);

/* One option of a workload as text, in the form its parser reads; item is -1 for a single
 * value, else the place in a list option (dirs), so a list of one stays a list. */
struct store_option {
	int64_t workload_id;      /* set when read */
	char workload[64];        /* the workload's name, set when read */
	char key[32];
	int item;
	char *value;
};

struct store_workload {
	const char *name, *workfile_name, *workfile_text;
	const struct store_option *options; /* every option of the resolved workload: its only record */
	size_t noptions;
};
/* Store a workload with its options in one transaction. */
int store_workload_add(struct store *st, int64_t run_id, const struct store_workload *w, int64_t *wl_id);

/* A point: its keys, then every figure of STORE_POINT_FIGURES (store/figures.h). */
struct store_point {
	int64_t id, run_id, workload_id;
	char workload[64];        /* the workload's name */
	int sampled;              /* the SYSTEM figures are set */
	STORE_POINT_FIGURES(STORE_MEMBER)
};

/* One row of a point's system time series. */
struct store_sample {
	STORE_SAMPLE_FIGURES(STORE_MEMBER)
};

/* One test's figures at a point. */
struct store_test {
	char name[32];
	STORE_TEST_FIGURES(STORE_MEMBER)
};

/* One of the kernel's counters at a point (table point_counters): its change over the measured window. */
struct store_counter {
	char source[16];          /* vmstat, interrupts, softirqs, schedstat, lock_stat, slabinfo; perf */
	char name[96];            /* within the source: "pgfault", "LOC", "context-switches" */
	char unit[24];            /* "events", "pages", "ns", "bytes", "interrupts", ... */
	double value;
	double running_pct;       /* perf: % of the window it counted (below 100: multiplexed, value scaled
				   * up by enabled/running); NaN (NULL) for /proc counters */
};
/* The columns of point_counters after point_id, in struct order (insert, select and merge use it). */
#define STORE_COUNTER_COLS "source, name, value, unit, running_pct"

/* Insert a point and its per-test rows in one transaction. */
int store_point_add(struct store *st, struct store_point *p, const struct store_test *tests, size_t ntests,
		    const struct store_sample *samples, size_t nsamples);
/* What is stored with a point: its per-test rows, its system time series (kept only when the
 * point was sampled) and its counters; each array of its count, none when that is 0. */
struct store_point_rows {
	const struct store_test *tests;
	size_t ntests;
	const struct store_sample *samples;
	size_t nsamples;
	const struct store_counter *counters;
	size_t ncounters;
};
/* The same with the point's counters. */
int store_point_add_counted(struct store *st, struct store_point *p, const struct store_point_rows *rows);

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
	char version[32], rerun_of[40]; /* rerun_of: uuid of the run this one repeats, or "" */
	int64_t seed;
	int64_t planned_points;   /* 0: not known (a searching mode, single mode, or an older run) */
	int planned_exact;        /* 0: planned_points is an upper bound */
	double best_jpm;          /* the highest mean Jobs/Min over the rounds of a valid point's workload, O_SYNC
				   * setting, variant and task count (the classic maximum); NaN: no valid point */
};
/* Resolve "N", "last", "last~N" or a label (newest with it) to a run id: 0, 1 when no run
 * matches, -1 when the database cannot be read (store_error says which). */
int store_resolve_run(struct store *st, const char *spec, int64_t *run_id);
/* The same as a group, for compare: a label names every run that has it (oldest first; runs still
 * being measured only when no other has it); anything else names one run as above. Free *ids.
 * Returns as store_resolve_run. */
int store_resolve_group(struct store *st, const char *spec, int64_t **ids, size_t *n);
int store_get_run(struct store *st, int64_t run_id, struct store_run_row *row);
/* The run's command line and suite text (may be long, so not in the row); the caller frees both. */
int store_get_run_text(struct store *st, int64_t run_id, char **command_line, char **suite_text);
/* Newest first, filtered. */
int store_list_runs(struct store *st, const struct run_filter *f, struct store_run_row **rows, size_t *n);
/* A run's points in blocks, as every view prints them: by workload (in the order stored), CPU count,
 * O_SYNC off before on, then task count, round and id. */
int store_get_points(struct store *st, int64_t run_id, struct store_point **pts, size_t *n);
int store_get_tests(struct store *st, int64_t point_id, struct store_test **tests, size_t *n);
/* A point's counters by source and name. */
int store_get_counters(struct store *st, int64_t point_id, struct store_counter **counters, size_t *n);
/* A point's system time series, in time order. */
int store_get_samples(struct store *st, int64_t point_id, struct store_sample **samples, size_t *n);
/* The kernel config text stored with a run (*text NULL when none was); free *text. */
int store_get_kernel_config(struct store *st, int64_t run_id, char **text);
/* Environment rows of a run as "key\tvalue" pairs in key order. */
int store_get_env(struct store *st, int64_t run_id, char ***kv, size_t *n);
/* The options of every workload of a run, by workload, key and item; free with store_options_free.
 * A run stored before schema 4 kept only a few options of each workload, in its own columns: it
 * has none here, but its workloads' rows made from them in store_get_column_options. */
int store_get_workload_options(struct store *st, int64_t run_id, struct store_option **opts, size_t *n);
int store_get_column_options(struct store *st, int64_t run_id, struct store_option **opts, size_t *n);
void store_options_free(struct store_option *opts, size_t n);

/* A workload of a run as stored: what its reports need besides the points (the numbers read from
 * its option rows, of a run stored before schema 4 too). */
struct store_workload_row {
	int64_t id;
	char name[64], workfile_name[64];
	int64_t repeat; /* the rounds asked for */
	double threshold;
};
/* The workloads of a run in the order they ran. */
int store_get_workloads(struct store *st, int64_t run_id, struct store_workload_row **rows, size_t *n);
/* A workload's workfile as it was read when the run began; the caller frees it. */
int store_get_workfile_text(struct store *st, int64_t workload_id, char **text);

/* What stored runs say about how long a point takes: the newest run (not single mode) that
 * measured the same workfile with the same jobs per task (nominal and P) and O_SYNC setting
 * at the most of the asked task counts. */
struct store_estimate {
	int64_t run_id;           /* 0: no stored run matched */
	char label[128], started[32];
	size_t matched;           /* asked task counts that run measured */
	double *seconds;          /* per asked task count: mean wall time of a valid point, or -1 */
};
/* What is asked: the workfile, its jobs per task (nominal and P), the O_SYNC setting, the task counts. */
struct store_estimate_ask {
	const char *workfile_name;
	int64_t jobs_per_task, per_task;
	int osync;
	const int *tasks;
	size_t ntasks;
};
int store_estimate(struct store *st, const struct store_estimate_ask *ask, struct store_estimate *out);
void store_estimate_free(struct store_estimate *e);

/* How a run was made: what `report` shows so a reader can make it again. */
struct store_run_workload {
	char *name, *workfile_name, *workfile_text;
};
struct store_run_info {
	char *command_line, *version, *suite_name, *suite_text;
	int64_t seed;
	struct store_run_workload *workloads;
	size_t nworkloads;
};
int store_get_run_info(struct store *st, int64_t run_id, struct store_run_info *out);
void store_run_info_free(struct store_run_info *ri);

/* Copy the runs of another database that this one lacks (by uuid); all or nothing. */
int store_merge(struct store *st, const char *other_path, size_t *copied, size_t *skipped);
/* What a guest's or a lab job's run is given before its database is merged. */
struct store_gift {
	const char *name;              /* the run's label: the one run the database must hold */
	const char *whose;             /* for messages: "the guest's database" */
	const struct env_list *facts;  /* its boot, job, device */
	int64_t started_s, finished_s; /* the host's times of the run (seconds since the epoch) where
					  the guest's clock is not the host's (--icount); 0 keeps its own */
};
/* Before a guest's or a lab job's database is merged: it must hold one run, labelled g->name, which
 * is given the facts; 0, or -1 with err ("WHOSE holds 2 runs, not one labelled base"). */
int store_give_facts(const char *path, const struct store_gift *g, char *err, size_t errlen);

#endif
