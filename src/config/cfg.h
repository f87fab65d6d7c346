/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Configuration: workfiles, suites, the option table and the resolved plan. */
#ifndef REAIM_CONFIG_CFG_H
#define REAIM_CONFIG_CFG_H

#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"

/* Collected "file:line: message" errors, reported all at once. */
struct errlist {
	char **msgs;
	size_t count;
};
void errlist_add(struct errlist *e, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void errlist_print(const struct errlist *e);
void errlist_free(struct errlist *e);

/* ---- workfiles ---- */
struct wf_entry {
	const struct test_def *test;
	int weight;
	int line;
};

struct workfile {
	char *path;
	char *name;          /* short name, e.g. "dbase" */
	char *text;          /* the file as read, stored with the run */
	struct wf_entry *entries;
	size_t count;
	long long filesize_kib, poolsize_kib; /* -1 when the file does not set them */
	char *merged;        /* the tests listed twice, their weights added ("string_rtns (lines 47
			      * and 51: 20 + 30)"), NULL when none: said once a run (plan_notes) */
};

/* Parse text (read from path) into wf; 0, or -1 with every problem in errs. */
int workfile_parse(const char *path, const char *text, struct workfile *wf, struct errlist *errs);
/* Resolve a name ("dbase") or path, read and parse it; relative_to is the suite naming
 * it at line (NULL and 0 for the command line). */
int workfile_load(const char *name_or_path, const char *relative_to, int line, struct workfile *wf,
		  struct errlist *errs);
void workfile_free(struct workfile *wf);
/* The workfile's note (its tests listed twice) on stderr, "PATH: note: listed twice, ...". */
void workfile_note(const struct workfile *wf);
/* The union of the mix's test flags (enum test_flag): what the mix touches. */
unsigned workfile_flags(const struct workfile *wf);

/* ---- task counts: "1,2,4", "8-64:8", "1-512*2" ---- */
/* The most tasks a point may have, so the largest value (and the most values) a list holds. */
#define TASKS_MAX 100000
#define TASKS_MAX_TEXT "100000"
struct task_list {
	int *n;
	size_t count;
};
int tasks_parse(const char *spec, struct task_list *out, char *err, size_t errlen);
/* The item of a task list tasks_parse refuses (`x` of `1,2,x`; "" for an empty one), to point at
 * it; NULL when the list is good or the fault is the whole of it. Free it. */
char *tasks_bad_item(const char *spec);
void tasks_free(struct task_list *t);
char *tasks_format(const struct task_list *t);

struct str_list {
	char **v;
	size_t count;
};
void str_list_free(struct str_list *l);
void str_list_copy(struct str_list *dst, const struct str_list *src);

/* ---- options: one table drives suite keys, flags, defaults, help and man page ---- */
enum osync_choice { OSYNC_OFF = 0, OSYNC_ON = 1, OSYNC_BOTH = 2 };
enum run_mode { MODE_SWEEP, MODE_CROSSOVER, MODE_QUICK, MODE_PEAK, MODE_SINGLE };

/* A block of a run's points, one workload and O_SYNC setting, as its plan describes it: what the
 * live views are told while it runs and what `show` rebuilds from the stored rows. */
struct block_plan {
	const char *workload;
	int osync;                /* -1: on and off interleaved (a sweep made with --osync both) */
	int mode;                 /* enum run_mode */
	int rounds;               /* repeats asked for */
	double threshold;         /* Jobs/Min per task that ends crossover and quick modes */
	int variants;             /* the points carry variants */
	int cpus;                 /* CPUs the tasks were confined to (--cpus); 0: every CPU */
	int loads;                /* the points carry background loads (--load) */
	double precision;         /* --precision asked (0: not) */
	int looks;                /* the looks its stopping rule takes (1 without --precision) */
};

struct run_opts {
	char *workfile;
	struct task_list tasks;
	long long jobs_per_task;
	long long repeat;
	int osync;                 /* enum osync_choice */
	int sync_mode;             /* enum sync_mode */
	long long filesize_kib;    /* -1: from the workfile, else the default */
	long long poolsize_kib;
	struct str_list dirs;
	long long seed;
	char *label;
	int mode;                  /* enum run_mode */
	double threshold;          /* Jobs/Min per task that ends crossover/quick */
	long long max_tasks;
	double period_s;           /* single mode: seconds per test */
	double sample_interval_s;  /* system sampler; 0 = off */
	double timeout_s;          /* per point; 0 = derived */
	int task_cores;            /* 1: tasks keep the inherited core-size limit */
	double noise_limit;        /* % of the machine used outside the run (or stolen) that makes a point noisy */
	struct str_list variants;  /* "NAME=COMMAND" items: in-run A/B, interleaved point by point */
	double precision;          /* repeat until each task count's 95 % CI is within this % of its mean; 0: off */
	long long max_repeat;      /* the most rounds --precision may take */
	long long warmup;          /* unstored points before the measured ones */
	int pin;                   /* 1: task i bound to the i-th allowed CPU */
	int drop_caches;           /* 1: drop the kernel's caches before each point */
	char *point_hook;          /* run with /bin/sh from the release to the end of a point; NULL: none */
	struct task_list point_hook_tasks; /* the task counts whose points run it; empty: every point */
	int counters;              /* 1: the kernel's counters per point (/proc and perf_event_open) */
	struct task_list cpus;     /* CPU counts the tasks are confined to, a block each; empty: every CPU */
	struct str_list loads;     /* --load items, each "NAME[,NAME...]"; empty: no loads */
};

enum opt_type { OPT_INT, OPT_KIB, OPT_STR, OPT_STRLIST, OPT_TASKS, OPT_ENUM, OPT_SECONDS, OPT_DOUBLE };

struct option_def {
	const char *key;           /* suite key, also the long flag with '_' as '-' */
	char short_flag;           /* 0 if none */
	enum opt_type type;
	const char *def;           /* default as text, NULL = none */
	long long min, max;        /* OPT_SECONDS: in milliseconds, min 0 meaning "0, or 1 ms .. max" */
	const char *const *choices; /* OPT_ENUM names, index = stored value */
	size_t offset;             /* into struct run_opts */
	const char *arg;           /* metavariable in help */
	const char *help;
	int measured;              /* changes what a point measures: compare warns when runs differ in it */
};
extern const struct option_def option_table[];
extern const size_t option_count;
const struct option_def *option_find(const char *key);
const struct option_def *option_find_short(char c);
/* Whether an option (by key) changes what a point measures; compare warns when runs differ in one
 * that does (jobs per task, sizes, sync mode, seed, ...), not in the label, task list or rounds. */
int option_measured(const char *key);
/* The list an OPT_STRLIST option fills (NULL for another type). */
struct str_list *option_list(struct run_opts *o, const struct option_def *def);
/* Set one option from text; 0 or -1 with the reason in err. A list option appends. */
int option_set(struct run_opts *o, const struct option_def *def, const char *value, char *err, size_t errlen);
/* "'x': " naming the part of value option_set refused (the item of a task list), or "" when the
 * fault is the whole value; put before its reason. Free it. */
char *option_fault_at(const struct option_def *def, const char *value);
/* One option's value as text option_set reads back to the same value: one string, or one per
 * item of a list option; none for an unset string or size. Free with str_list_free. */
void option_format(const struct run_opts *o, const struct option_def *def, struct str_list *out);
/* The same as one line for people (list items joined by spaces); the caller frees it. */
char *option_text(const struct run_opts *o, const struct option_def *def);
/* Empty a list-valued option (so the values that follow replace it); others are untouched. */
void option_clear(struct run_opts *o, const struct option_def *def);
/* The values an option allows, for messages ("1 to 1000"); "" when any value of its type goes. */
const char *option_range(const struct option_def *def, char *buf, size_t len);
void run_opts_defaults(struct run_opts *o);
void run_opts_copy(struct run_opts *dst, const struct run_opts *src);
void run_opts_free(struct run_opts *o);
/* Exchange one option's value between two option sets (moves ownership too). */
void option_swap(struct run_opts *a, struct run_opts *b, const struct option_def *def);
extern const char *const osync_names[];
extern const char *const sync_mode_names[];
extern const char *const mode_names[];

/* ---- variants: "NAME=COMMAND" ---- */
#define VARIANT_NAME_MAX 32        /* longest NAME, in bytes */
#define VARIANTS_MAX 16            /* most variants a workload may have */
/* Split a checked item into its name (NUL-terminated in name[VARIANT_NAME_MAX + 1]) and its
 * command (which may be empty: nothing to run); -1 for an item that is not NAME=COMMAND. */
int variant_split(const char *item, char *name, const char **command);

/* ---- background loads: --load NAME[,NAME...] ---- */
/* Every load name --load accepts, no_load (the base) first; engine/bgload.c runs each other one. */
extern const char *const load_names[];
#define LOADS_MAX 8                /* no_load and every load, each once */
/* contest's cacherun: no process beside the point, which runs twice, the second (warm) run stored. */
#define LOAD_CACHE "cache"
/* ---- suites and the plan ---- */
struct workload {
	char *name;
	struct workfile wf;
	struct run_opts opts;
};

struct plan {
	char *suite_name;
	char *suite_path;
	char *suite_text;
	struct workload *wl;
	size_t nwl;
};

/* Command-line overrides: a value per option and which ones were given. */
struct overrides {
	struct run_opts opts;
	uint64_t given;            /* bit i: option_table[i] was given (options.c checks the table fits) */
};
/* Whether an option was given, and marking it so. */
int overrides_given(const struct overrides *ov, const struct option_def *def);
void overrides_mark(struct overrides *ov, const struct option_def *def);

/* Load a suite (name or path), apply overrides, load every workfile. */
int plan_from_suite(const char *suite, const struct overrides *ov, struct plan *p, struct errlist *errs);
/* 1 when word names a stock or local suite (`dbase`, found as -s finds it), for a hint. */
int suite_is_name(const char *word);
/* The same from a suite's text (path names it in messages and anchors relative workfiles). */
int plan_from_suite_text(const char *path, const char *text, const struct overrides *ov, struct plan *p,
			 struct errlist *errs);
/* A plan of one workfile with defaults and overrides (reaim -f without -s). */
int plan_from_workfile(const char *wf, const struct overrides *ov, struct plan *p, struct errlist *errs);
void plan_free(struct plan *p);
/* Each workfile's note (workfile_note) once, however many workloads of the plan use it. */
void plan_notes(const struct plan *p);
/* Parse a suite for `reaim check` (and its workfiles). */
int suite_check(const char *path, struct errlist *errs);

/* A workload as a run stored it: its name, its workfile's name and text, and every option as
 * key and the text option_set reads (a list option once per item, in order). */
struct option_text {
	const char *key, *value;
};
struct stored_workload {
	const char *name, *workfile_name, *workfile_text;
	const struct option_text *opts;
	size_t nopts;
};
/* A stored run's suite as text: the suite and its workloads. */
struct stored_suite {
	const char *where; /* names it in messages ("run 5") */
	const char *suite_name, *suite_text;
	const struct stored_workload *wl;
	size_t nwl;
	const char *label; /* replaces every workload's stored label (NULL: uname -r, as a new run) */
};
/* A plan from a stored run's text alone (no file is read). */
int plan_from_stored(const struct stored_suite *run, struct plan *p, struct errlist *errs);

/* ---- the schedule: the plan resolved once (plan.c) ----
 * Every fact of a point that follows from the options is worked out here, once, and read by the
 * runner, the engine, preflight and the dry run; nothing else derives it. */

/* How many points a plan will measure: exactly, at most (crossover and quick stop growing
 * when Jobs/Min per task falls), or unknown (peak's search, single mode's calibration). */
enum plan_count { PLAN_EXACT, PLAN_AT_MOST, PLAN_UNKNOWN };
/* --precision takes at least this many rounds: two equal samples prove nothing. */
#define PLAN_PRECISION_MIN_ROUNDS 3

/* A point's facts, the same at every round and arm of its task count. */
struct schedule_point {
	int tasks;
	long long file_kib;        /* each task's file: FILESIZE + POOLSIZE / tasks, at least 1 KiB */
	size_t jobs_per_task;      /* P: the workfile's weights rounded to its jobs (classic rounding) */
	int grown;                 /* a doubling past the listed counts: the block may stop before it */
};

/* The rounds of each task count: --repeat, or with --precision from its least (3, or more with
 * --repeat) up to --max-repeat; looks: one after each round from the least on, what the stopping
 * rule and compare spend the level over (1 without --precision). */
struct schedule_rounds {
	long long least, most, looks;
};

struct schedule_workload;

/* A block: one workload at one --cpus count and O_SYNC setting, as it runs and prints. */
struct schedule_block {
	const struct schedule_workload *of;
	int osync;                 /* 0 off, 1 on, -1 on and off interleaved (a sweep's --osync both) */
	int cpus;                  /* the --cpus count; 0: every CPU */
	size_t arms;               /* points per task count and round: the workload's arms, twice interleaved */
};

/* A workload's part of the schedule: its points in the order a round runs them, its rounds and
 * arms, its blocks in the order they run. */
struct schedule_workload {
	const struct workload *wl;
	struct schedule_point *pts; /* the listed task counts, then a growing mode's doublings up to
				     * --max-tasks; single mode: one task */
	size_t npts, nlisted;
	struct schedule_point reach; /* the largest count it may reach (peak's search: --max-tasks) */
	struct schedule_rounds rounds;
	const char *loads[LOADS_MAX]; /* --load: the loads in the order they run, no_load first, then each
				       * named once in the order given */
	size_t nloads;             /* 0 without --load */
	size_t arms;               /* points per task count and round: one per variant and load, or one */
	size_t passes;             /* runs per task count and round: the arms, and the cache load's cold pass */
	struct schedule_block *blocks;
	size_t nblocks;
	enum plan_count count;     /* how sure most_points is */
	size_t least_points, most_points; /* stored points over its blocks (peak: one task count's
					   * rounds; single: a row per test) */
};

struct schedule {
	const struct plan *plan;
	struct schedule_workload *wl; /* one per workload of the plan, in its order */
	size_t nwl;
	enum plan_count count;     /* the least sure of its workloads */
	size_t points;             /* the most points of every workload (0 when unknown) */
	size_t least_points;       /* the fewest */
};

/* The plan resolved into its schedule (the plan must outlive it). */
void schedule_make(const struct plan *p, struct schedule *s);
void schedule_free(struct schedule *s);
/* A workload's rounds from its options: what schedule_make resolves, and what a view of stored
 * runs asks of their stored options. */
struct schedule_rounds schedule_rounds_of(const struct run_opts *o);
/* One point's facts: what schedule_make lists, and made here too for the points a run chooses as
 * it measures (a peak search's task counts, single mode's calibrated job counts). */
struct schedule_point schedule_point_of(const struct workfile *wf, const struct run_opts *o, int tasks);

/* Per-task job list: classic rounding, shuffled from (seed, task). */
struct job_list {
	uint16_t *test;   /* index into the workfile entries */
	size_t count;     /* P */
};
void plan_job_list(const struct workfile *wf, long long jobs, uint64_t seed, unsigned task,
		   struct job_list *out);
/* The same into test[room], room at least P of these jobs (the point's jobs_per_task): allocating
 * nothing, as a forked task calls it. */
void plan_job_list_fill(const struct workfile *wf, long long jobs, uint64_t seed, unsigned task,
			uint16_t *test, size_t room);
void job_list_free(struct job_list *jl);

#endif
