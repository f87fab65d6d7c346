/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The option table: every suite key and its command-line flag, type, default, range and
 * help text. Parsing, defaults, validation, --help and the man page all come from it. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"
#include "util/util.h"

const char *const osync_names[] = {"off", "on", "both", NULL};
const char *const sync_mode_names[] = {"fsync", "none", "global", NULL};
const char *const mode_names[] = {"sweep", "crossover", "quick", "peak", "single", NULL};
static const char *const off_on[] = {"off", "on", NULL};
const char *const load_names[] = {"no_load", "process", "io", "read", "list", "tar", "mem", LOAD_CACHE, NULL};

/* A --load item: load names separated by commas, each one of load_names. */
static int check_load(const char *value, char *err, size_t errlen)
{
	for (const char *p = value;; p++) {
		size_t n = strcspn(p, ",");
		size_t k = 0;
		while (load_names[k] && (strlen(load_names[k]) != n || strncmp(load_names[k], p, n) != 0))
			k++;
		if (!load_names[k]) {
			set_err(err, errlen,
				"not a load: the loads are no_load, process, io, read, list, tar, mem, cache");
			return -1;
		}
		p += n;
		if (!*p)
			return 0;
	}
}

int variant_split(const char *item, char *name, const char **command)
{
	size_t n = strcspn(item, "=");
	if (!item[n] || n == 0 || n > VARIANT_NAME_MAX)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)item[i]) && !strchr("_.+-", item[i]))
			return -1;
	memcpy(name, item, n);
	name[n] = '\0';
	*command = item + n + 1;
	return 0;
}

static int check_variant(const char *value, char *err, size_t errlen)
{
	char name[VARIANT_NAME_MAX + 1];
	const char *command;
	if (variant_split(value, name, &command) < 0) {
		set_err(err, errlen, "not NAME=COMMAND (a NAME of 1 to 32 letters, digits, '_', '.', '+' or '-')");
		return -1;
	}
	return 0;
}

/* A label is how compare, show and the others name runs: compare splits a group at its commas,
 * and a number or last[~N] names a run by its place, so such a label could never be named. */
static int check_label(const char *value, char *err, size_t errlen)
{
	long long n;
	if (strchr(value, ',')) {
		set_err(err, errlen,
			"has a comma, which compare reads as between two runs of a group (A,B); use '-' or '_'");
		return -1;
	}
	/* as store_resolve_run reads a run's name */
	if (parse_long(value, 1, INT64_MAX, &n) == 0 || strcmp(value, "last") == 0 ||
	    (strncmp(value, "last~", 5) == 0 && parse_long(value + 5, 0, 1000000, &n) == 0)) {
		set_err(err, errlen,
			"reads as a run's id or place (N, last, last~N), so no command could name the run by it");
		return -1;
	}
	return 0;
}

#define OFF(f) offsetof(struct run_opts, f)
/* A row's type and where its value goes, as one pair the compiler checks: the member must have
 * the C type its option type stores (option_size), so `int warmup` under OPT_INT fails to build. */
#define AS_INT(f) .type = OPT_INT, .offset = FIELD_OFFSET(struct run_opts, f, long long)
#define AS_KIB(f) .type = OPT_KIB, .offset = FIELD_OFFSET(struct run_opts, f, long long)
#define AS_ENUM(f) .type = OPT_ENUM, .offset = FIELD_OFFSET(struct run_opts, f, int)
#define AS_DOUBLE(f) .type = OPT_DOUBLE, .offset = FIELD_OFFSET(struct run_opts, f, double)
#define AS_SECONDS(f) .type = OPT_SECONDS, .offset = FIELD_OFFSET(struct run_opts, f, double)
#define AS_STR(f) .type = OPT_STR, .offset = FIELD_OFFSET(struct run_opts, f, char *)
#define AS_TASKS(f) .type = OPT_TASKS, .offset = FIELD_OFFSET(struct run_opts, f, struct task_list)
#define AS_STRLIST(f) .type = OPT_STRLIST, .offset = FIELD_OFFSET(struct run_opts, f, struct str_list)

const struct option_def option_table[] = {
	{.key = "workfile",
	 .short_flag = 'f',
	 AS_STR(workfile),
	 .arg = "FILE",
	 .measured = 1,
	 .help = "workfile (a name in the workfiles dir, or a path): the weighted test mix"},
	{.key = "tasks",
	 .short_flag = 't',
	 AS_TASKS(tasks),
	 .def = "1,2,4,8",
	 .min = 1,
	 .max = TASKS_MAX,
	 .arg = "LIST",
	 .help = "task counts: '1,2,4', '8-64:8' (step) or '1-512*2' (factor)"},
	{.key = "jobs_per_task",
	 .short_flag = 'j',
	 AS_INT(jobs_per_task),
	 .def = "100",
	 .min = 1,
	 .max = 10000000,
	 .arg = "N",
	 .measured = 1,
	 .help = "nominal jobs per task; each test gets round(weight/total * N), at least 1"},
	{.key = "repeat",
	 .short_flag = 'r',
	 AS_INT(repeat),
	 .def = "1",
	 .min = 1,
	 .max = 1000,
	 .arg = "N",
	 .help = "measure each task count N times"},
	{.key = "osync",
	 AS_ENUM(osync),
	 .def = "on",
	 .choices = osync_names,
	 .arg = "on|off|both",
	 .measured = 1,
	 .help = "open the sync_* tests' files with O_SYNC; both runs each workload twice"},
	{.key = "sync_mode",
	 AS_ENUM(sync_mode),
	 .def = "fsync",
	 .choices = sync_mode_names,
	 .arg = "fsync|none|global",
	 .measured = 1,
	 .help = "what the disk tests' sync points do: fsync the task's file, nothing, or sync(1) as classic"},
	{.key = "filesize",
	 AS_KIB(filesize_kib),
	 .max = 1LL << 30,
	 .arg = "SIZE",
	 .measured = 1,
	 .help = "per-task file size for disk tests (default: the workfile's FILESIZE, else 10K)"},
	{.key = "poolsize",
	 AS_KIB(poolsize_kib),
	 .max = 1LL << 32,
	 .arg = "SIZE",
	 .measured = 1,
	 .help = "pool shared among tasks: n = FILESIZE + POOLSIZE / tasks (default: workfile, else 0)"},
	{.key = "dirs",
	 .short_flag = 'd',
	 AS_STRLIST(dirs),
	 .arg = "DIR",
	 .measured = 1,
	 .help = "disk directories, used round robin by tasks (default $TMPDIR or /var/tmp)"},
	{.key = "seed",
	 AS_INT(seed),
	 .def = "1",
	 .max = 0x7fffffffffffffffLL,
	 .arg = "N",
	 .measured = 1,
	 .help = "random seed for job orders and offsets; the same seed gives the same run"},
	{.key = "label",
	 AS_STR(label),
	 .arg = "TEXT",
	 .help = "label stored with the run (default: the kernel release, uname -r)"},
	{.key = "mode",
	 AS_ENUM(mode),
	 .def = "sweep",
	 .choices = mode_names,
	 .arg = "sweep|crossover|quick|peak|single",
	 .measured = 1,
	 .help = "sweep the listed task counts, grow them until Jobs/Min per task falls to the threshold, "
		 "or run each test alone (single, the AIM9 way)"},
	{.key = "threshold",
	 AS_DOUBLE(threshold),
	 .def = "0",
	 .max = 1000000,
	 .arg = "JPM",
	 .measured = 1,
	 .help = "Jobs/Min per task that ends crossover (default 1) or quick (default 60) mode"},
	{.key = "max_tasks",
	 AS_INT(max_tasks),
	 .def = "1024",
	 .min = 1,
	 .max = TASKS_MAX,
	 .arg = "N",
	 .measured = 1,
	 .help = "largest task count crossover and quick modes may reach"},
	{.key = "period",
	 .short_flag = 'p',
	 AS_SECONDS(period_s),
	 .def = "2",
	 .min = 10,
	 .max = 86400000,
	 .arg = "SECONDS",
	 .measured = 1,
	 .help = "single mode: how long each test runs alone"},
	{.key = "sample_interval",
	 AS_SECONDS(sample_interval_s),
	 .def = "0.1",
	 .max = 3600000,
	 .arg = "SECONDS",
	 .help = "how often the system sampler reads /proc/stat, diskstats and vmstat during a point; 0 turns it off"},
	{.key = "timeout",
	 AS_SECONDS(timeout_s),
	 .def = "0",
	 .max = 2592000000LL,
	 .arg = "SECONDS",
	 .help = "per-point time limit; 0 derives it (10 minutes, or 20x the previous point)"},
	{.key = "task_cores",
	 AS_ENUM(task_cores),
	 .def = "off",
	 .choices = off_on,
	 .arg = "off|on",
	 .measured = 1,
	 .help = "let a crashing task dump core (with the inherited limit, in its scratch dir or where "
		 "kernel.core_pattern says); off sets the tasks' core-size limit to 0"},
	{.key = "noise_limit",
	 AS_DOUBLE(noise_limit),
	 .def = "10",
	 .max = 100,
	 .arg = "PCT",
	 .measured = 1,
	 .help = "mark a point noisy (still valid) when the CPU used outside the run or the steal time passes PCT % "
		 "of the machine, or others keep the run's disks busy PCT % of the time while it is idle; also the "
		 "level the quiet check before the run warns at"},
	{.key = "variant",
	 AS_STRLIST(variants),
	 .arg = "NAME=COMMAND",
	 .measured = 1,
	 .help = "an in-run A/B (repeatable; a list in a suite): before each point of variant NAME, COMMAND runs "
		 "with /bin/sh (a failing one stops the run); the variants' points interleave in counterbalanced "
		 "order (A B B A ...) at every task count, and `reaim compare RUN` pairs them round by round, "
		 "the first variant as the base. Sweep mode only"},
	{.key = "precision",
	 AS_DOUBLE(precision),
	 .def = "0",
	 .max = 100,
	 .arg = "PCT",
	 .help = "repeat rounds (at least 3, and --repeat) until each task count's 95% confidence interval is "
		 "within PCT% of its mean Jobs/Min, or --max-repeat rounds ran; the 95% holds over every round it "
		 "looks at (each look at 1 - 0.05/looks), and compare allows for the looks too. 0 turns it off. "
		 "Sweep mode only"},
	{.key = "max_repeat",
	 AS_INT(max_repeat),
	 .def = "20",
	 .min = 1,
	 .max = 1000,
	 .arg = "N",
	 .help = "the most rounds --precision may take"},
	{.key = "warmup",
	 AS_INT(warmup),
	 .def = "0",
	 .max = 100,
	 .arg = "N",
	 .measured = 1,
	 .help = "run N points at the first task count before the measured ones, and store none of them"},
	{.key = "pin",
	 AS_ENUM(pin),
	 .def = "off",
	 .choices = off_on,
	 .arg = "off|on",
	 .measured = 1,
	 .help = "bind task i to the i-th allowed CPU (round robin), so tasks neither migrate nor share a CPU "
		 "while another is idle"},
	{.key = "drop_caches",
	 AS_ENUM(drop_caches),
	 .def = "off",
	 .choices = off_on,
	 .arg = "off|on",
	 .measured = 1,
	 .help = "before each point, write back and drop the page, dentry and inode caches (root only)"},
	{.key = "point_hook",
	 AS_STR(point_hook),
	 .arg = "COMMAND",
	 .measured = 1, /* what it runs (perf record -a) costs the point */
	 .help = "run COMMAND with /bin/sh just after a point's tasks are released, in a directory of its own "
		 "kept beside the database (named in `show`), and stop it (SIGINT to its process group, SIGKILL "
		 "10 s later) when the point's last task has finished, before they exit: perf record -a, "
		 "trace-cmd or bpftrace over exactly one point. $REAIM_POINT_TASKS, $REAIM_POINT_CGROUP, "
		 "$REAIM_POINT_DIR, $REAIM_POINT_RELEASE are set"},
	{.key = "point_hook_tasks",
	 AS_TASKS(point_hook_tasks),
	 .min = 1,
	 .max = TASKS_MAX,
	 .arg = "LIST",
	 .measured = 1,
	 .help = "the task counts whose points run --point-hook (default: every point)"},
	{.key = "counters",
	 AS_ENUM(counters),
	 .def = "on",
	 .choices = off_on,
	 .arg = "on|off",
	 .help = "store the kernel's counters of each point over its measured window: /proc/vmstat, interrupts, "
		 "softirqs, schedstat, lock_stat, slabinfo, diskstats, and perf_event_open's software (and, with a PMU, "
		 "hardware) events of the point's tasks; off (also --no-counters) reads none of them"},
	{.key = "cpus",
	 AS_TASKS(cpus),
	 .min = 1,
	 .max = TASKS_MAX,
	 .arg = "LIST",
	 .measured = 1,
	 .help = "run every point at each CPU count of LIST ('1,2', '1-8*2'), a block each: the tasks confined to "
		 "that many CPUs (sched_setaffinity), chosen one per core before a second SMT sibling of any; "
		 "`show` adds Jobs/Min against the smallest count. A count beyond the CPUs reaim may use is "
		 "refused (default: every CPU, unconfined). Not with --mode single"},
	{.key = "load",
	 AS_STRLIST(loads),
	 .arg = "NAME[,NAME...]",
	 .measured = 1,
	 .help = "run each point once per background load beside it, interleaved as variants are, no_load always "
		 "the base: process (processes passing data through pipes), io (rewriting a file of 1/8 of memory), "
		 "read (reading one back), list (walking a tree), tar (archiving and extracting a tree of small "
		 "files), mem (touching more than the free memory, never beyond MemAvailable less a margin), cache "
		 "(contest's cacherun: no process beside it, the point run twice back to back and the second, "
		 "warm run stored). Each "
		 "runs from before the release to after the last task, in a cgroup of its own; its units of work, "
		 "CPU % and I/O are stored with the point. Sweep mode only"},
};
const size_t option_count = ARRAY_SIZE(option_table);
_Static_assert(ARRAY_SIZE(option_table) <= 64, "struct overrides marks the given options in 64 bits");

int overrides_given(const struct overrides *ov, const struct option_def *def)
{
	return (int)((ov->given >> (def - option_table)) & 1);
}

void overrides_mark(struct overrides *ov, const struct option_def *def)
{
	ov->given |= UINT64_C(1) << (def - option_table);
}

const struct option_def *option_find(const char *key)
{
	for (size_t i = 0; i < option_count; i++) {
		const char *k = option_table[i].key, *s = key;
		while (*k && (*k == *s || (*k == '_' && *s == '-')))
			k++, s++;
		if (!*k && !*s)
			return &option_table[i];
	}
	return NULL;
}

int option_measured(const char *key)
{
	const struct option_def *d = option_find(key);
	return !d || d->measured; /* a key this version does not know may have changed the work */
}

/* Checks of a text option's value (a list option's item) beyond "not empty", by its place in
 * run_opts. */
static const struct {
	size_t offset;
	int (*check)(const char *value, char *err, size_t errlen);
} value_checks[] = {
	{.offset = OFF(variants), .check = check_variant},
	{.offset = OFF(label), .check = check_label},
	{.offset = OFF(loads), .check = check_load},
};

static int value_check(const struct option_def *def, const char *value, char *err, size_t errlen)
{
	for (size_t i = 0; i < ARRAY_SIZE(value_checks); i++)
		if (value_checks[i].offset == def->offset && value_checks[i].check(value, err, errlen) < 0)
			return -1;
	return 0;
}

const struct option_def *option_find_short(char c)
{
	for (size_t i = 0; i < option_count; i++)
		if (c && option_table[i].short_flag == c)
			return &option_table[i];
	return NULL;
}

static int set_enum(const struct option_def *def, const char *value, int *slot, char *err, size_t errlen)
{
	for (int i = 0; def->choices[i]; i++) {
		if (strcmp(def->choices[i], value) == 0) {
			*slot = i;
			return 0;
		}
	}
	set_err(err, errlen, "unknown value");
	return -1;
}

/* Where a list-valued option keeps its list. */
static struct str_list *list_slot(struct run_opts *o, const struct option_def *def)
{
	return (struct str_list *)(void *)((char *)o + def->offset);
}

void option_clear(struct run_opts *o, const struct option_def *def)
{
	if (def->type == OPT_STRLIST)
		str_list_free(list_slot(o, def));
}

/* Milliseconds as the largest whole unit: 30d, 1h, 10ms. */
static const char *duration_text(long long ms, char *buf, size_t len)
{
	static const struct {
		long long ms;
		const char *unit;
	} units[] = {{86400000, "d"}, {3600000, "h"}, {60000, "m"}, {1000, "s"}, {1, "ms"}};
	size_t u = 0;
	while (u + 1 < ARRAY_SIZE(units) && ms % units[u].ms != 0)
		u++;
	snprintf(buf, len, "%lld%s", ms / units[u].ms, units[u].unit);
	return buf;
}

const char *option_range(const struct option_def *def, char *buf, size_t len)
{
	switch (def->type) {
	case OPT_INT: snprintf(buf, len, "%lld to %lld", def->min, def->max); break;
	case OPT_KIB: snprintf(buf, len, "0 to %lldG", def->max / (1024 * 1024)); break;
	case OPT_DOUBLE: snprintf(buf, len, "%lld to %lld", def->min, def->max); break;
	case OPT_SECONDS: {
		char lo[32], hi[32];
		snprintf(buf, len, "%s%s to %s", def->min == 0 ? "0, or " : "",
			 duration_text(def->min == 0 ? 1 : def->min, lo, sizeof(lo)),
			 duration_text(def->max, hi, sizeof(hi)));
		break;
	}
	case OPT_TASKS: snprintf(buf, len, "task counts of %lld to %lld", def->min, def->max); break;
	case OPT_ENUM:
		buf[0] = '\0';
		for (size_t i = 0; def->choices[i]; i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", def->choices[i]);
		break;
	default: buf[0] = '\0'; break;
	}
	return buf;
}

/* Seconds within an OPT_SECONDS row's bounds (milliseconds; min 0 allows exactly 0). */
static int seconds_in_range(const struct option_def *def, double d)
{
	if (d == 0)
		return def->min == 0;
	double lo = def->min == 0 ? 0.001 : (double)def->min / 1000;
	return d >= lo && d <= (double)def->max / 1000;
}

struct str_list *option_list(struct run_opts *o, const struct option_def *def)
{
	return def->type == OPT_STRLIST ? list_slot(o, def) : NULL;
}

int option_set(struct run_opts *o, const struct option_def *def, const char *value, char *err, size_t errlen)
{
	void *slot = (char *)o + def->offset;
	long long v;
	double d;
	switch (def->type) {
	case OPT_INT:
		if (parse_long(value, def->min, def->max, &v) < 0) {
			set_err(err, errlen, "not a whole number in range");
			return -1;
		}
		*(long long *)slot = v;
		return 0;
	case OPT_KIB:
		if (parse_kib(value, &v) < 0) {
			set_err(err, errlen, "not a size (e.g. 10K, 5M, 1G)");
			return -1;
		}
		if (v > def->max) {
			set_err(err, errlen, "too large");
			return -1;
		}
		*(long long *)slot = v;
		return 0;
	case OPT_SECONDS:
		if (parse_seconds(value, &d) < 0) {
			set_err(err, errlen, "not a duration (e.g. 30, 90s, 5m)");
			return -1;
		}
		if (!seconds_in_range(def, d)) {
			set_err(err, errlen, "out of range");
			return -1;
		}
		*(double *)slot = d;
		return 0;
	case OPT_DOUBLE:
		if (parse_double(value, (double)def->min, (double)def->max, &d) < 0) {
			set_err(err, errlen, "not a finite number in range");
			return -1;
		}
		*(double *)slot = d;
		return 0;
	case OPT_STR:
		if (!*value) {
			set_err(err, errlen, "empty");
			return -1;
		}
		if (text_check(value, err, errlen) < 0 || value_check(def, value, err, errlen) < 0)
			return -1;
		free(*(char **)slot);
		*(char **)slot = xstrdup(value);
		return 0;
	case OPT_STRLIST: {
		struct str_list *l = list_slot(o, def);
		if (!*value) {
			set_err(err, errlen, "empty");
			return -1;
		}
		if (text_check(value, err, errlen) < 0 || value_check(def, value, err, errlen) < 0)
			return -1;
		l->v = xrealloc(l->v, (l->count + 1) * sizeof(char *));
		l->v[l->count++] = xstrdup(value);
		return 0;
	}
	case OPT_TASKS: {
		struct task_list t;
		if (tasks_parse(value, &t, err, errlen) < 0) /* it enforces TASKS_MAX */
			return -1;
		tasks_free((struct task_list *)slot);
		*(struct task_list *)slot = t;
		return 0;
	}
	case OPT_ENUM: return set_enum(def, value, (int *)slot, err, errlen);
	}
	set_err(err, errlen, "unknown option type");
	return -1;
}

/* A double as the shortest text strtod reads back to the same value. */
static char *format_double(double v)
{
	for (int digits = 6;; digits++) {
		char *t = xasprintf("%.*g", digits, v);
		if (digits >= 17 || strtod(t, NULL) == v)
			return t;
		free(t);
	}
}

void option_format(const struct run_opts *o, const struct option_def *def, struct str_list *out)
{
	const void *slot = (const char *)o + def->offset;
	char *one = NULL;
	long long ll;
	double d;
	int e;
	out->v = NULL;
	out->count = 0;
	switch (def->type) {
	case OPT_INT:
		memcpy(&ll, slot, sizeof(ll));
		one = xasprintf("%lld", ll);
		break;
	case OPT_KIB:
		memcpy(&ll, slot, sizeof(ll));
		one = ll >= 0 ? xasprintf("%lldK", ll) : NULL; /* -1: not resolved, nothing to say */
		break;
	case OPT_DOUBLE:
	case OPT_SECONDS:
		memcpy(&d, slot, sizeof(d));
		one = format_double(d);
		break;
	case OPT_STR: {
		const char *v;
		memcpy(&v, slot, sizeof(v));
		one = v ? xstrdup(v) : NULL;
		break;
	}
	case OPT_ENUM:
		memcpy(&e, slot, sizeof(e));
		one = xstrdup(def->choices[e]);
		break;
	case OPT_TASKS: /* an empty list (--point-hook-tasks unset): nothing to say */
		one = ((const struct task_list *)slot)->count ? tasks_format((const struct task_list *)slot) : NULL;
		break;
	case OPT_STRLIST: {
		const struct str_list *l = slot;
		out->v = l->count ? xcalloc(l->count, sizeof(char *)) : NULL;
		for (size_t i = 0; i < l->count; i++)
			out->v[i] = xstrdup(l->v[i]);
		out->count = l->count;
		return;
	}
	}
	if (one) {
		out->v = xcalloc(1, sizeof(char *));
		out->v[0] = one;
		out->count = 1;
	}
}

char *option_text(const struct run_opts *o, const struct option_def *def)
{
	struct str_list v;
	option_format(o, def, &v);
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (size_t i = 0; i < v.count; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", v.v[i]);
	if (!v.count)
		strbuf_addf(&sb, "%s", def->type == OPT_KIB ? "(from the workfile)" : "(none)");
	str_list_free(&v);
	return sb.buf;
}

void run_opts_defaults(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->filesize_kib = o->poolsize_kib = -1;
	for (size_t i = 0; i < option_count; i++) {
		char err[256];
		if (option_table[i].def && option_set(o, &option_table[i], option_table[i].def, err, sizeof(err)) < 0)
			BUG("option %s: its default '%s' is refused: %s", option_table[i].key, option_table[i].def,
			    err);
	}
}

void run_opts_copy(struct run_opts *dst, const struct run_opts *src)
{
	*dst = *src;
	dst->workfile = src->workfile ? xstrdup(src->workfile) : NULL;
	dst->label = src->label ? xstrdup(src->label) : NULL;
	dst->tasks.n = xmalloc(src->tasks.count * sizeof(int));
	memcpy(dst->tasks.n, src->tasks.n, src->tasks.count * sizeof(int));
	str_list_copy(&dst->dirs, &src->dirs);
	str_list_copy(&dst->variants, &src->variants);
	str_list_copy(&dst->loads, &src->loads);
	dst->point_hook = src->point_hook ? xstrdup(src->point_hook) : NULL;
	dst->point_hook_tasks.n = xcalloc(src->point_hook_tasks.count + 1, sizeof(int));
	if (src->point_hook_tasks.count)
		memcpy(dst->point_hook_tasks.n, src->point_hook_tasks.n, src->point_hook_tasks.count * sizeof(int));
	dst->cpus.n = xcalloc(src->cpus.count + 1, sizeof(int));
	if (src->cpus.count)
		memcpy(dst->cpus.n, src->cpus.n, src->cpus.count * sizeof(int));
}

void str_list_copy(struct str_list *dst, const struct str_list *src)
{
	dst->v = src->count ? xcalloc(src->count, sizeof(char *)) : NULL;
	dst->count = src->count;
	for (size_t i = 0; i < src->count; i++)
		dst->v[i] = xstrdup(src->v[i]);
}

void str_list_free(struct str_list *l)
{
	for (size_t i = 0; i < l->count; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->count = 0;
}

static size_t option_size(enum opt_type type)
{
	switch (type) {
	case OPT_INT:
	case OPT_KIB: return sizeof(long long);
	case OPT_ENUM: return sizeof(int);
	case OPT_DOUBLE:
	case OPT_SECONDS: return sizeof(double);
	case OPT_STR: return sizeof(char *);
	case OPT_TASKS: return sizeof(struct task_list);
	case OPT_STRLIST: return sizeof(struct str_list);
	}
	BUG("option type %d has no size", (int)type);
}

void option_swap(struct run_opts *a, struct run_opts *b, const struct option_def *def)
{
	char tmp[sizeof(struct str_list) > sizeof(struct task_list) ? sizeof(struct str_list)
								    : sizeof(struct task_list)];
	size_t n = option_size(def->type);
	memcpy(tmp, (char *)a + def->offset, n);
	memcpy((char *)a + def->offset, (char *)b + def->offset, n);
	memcpy((char *)b + def->offset, tmp, n);
}

void run_opts_free(struct run_opts *o)
{
	free(o->workfile);
	free(o->label);
	tasks_free(&o->tasks);
	str_list_free(&o->dirs);
	str_list_free(&o->variants);
	str_list_free(&o->loads);
	free(o->point_hook);
	tasks_free(&o->point_hook_tasks);
	tasks_free(&o->cpus);
	memset(o, 0, sizeof(*o));
}

/* ---- task lists ---- */

static int tasks_push(struct task_list *t, long long n, char *err, size_t errlen)
{
	if (t->count >= TASKS_MAX) {
		set_err(err, errlen, "too many task counts");
		return -1;
	}
	if ((t->count & (t->count - 1)) == 0) /* grow at powers of two */
		t->n = xrealloc(t->n, (t->count ? t->count * 2 : 1) * sizeof(int));
	t->n[t->count++] = (int)n;
	return 0;
}

/* One comma-separated item: "N", "A-B", "A-B:STEP" or "A-B*FACTOR". */
static int tasks_item(char *item, struct task_list *t, char *err, size_t errlen)
{
	long long a, b, step = 1, factor = 0;
	char *dash = strchr(item, '-'), *op = NULL;
	if (!dash) {
		if (parse_long(item, 1, TASKS_MAX, &a) < 0) {
			set_err(err, errlen, "bad task count"); /* the range follows, from option_range */
			return -1;
		}
		return tasks_push(t, a, err, errlen);
	}
	*dash = '\0';
	op = strpbrk(dash + 1, ":*");
	char kind = op ? *op : 0;
	if (op)
		*op = '\0';
	if (parse_long(item, 1, TASKS_MAX, &a) < 0 || parse_long(dash + 1, 1, TASKS_MAX, &b) < 0 || a > b) {
		set_err(err, errlen, "bad range (expected A-B with 1 <= A <= B <= " TASKS_MAX_TEXT ")");
		return -1;
	}
	if (kind == ':' && parse_long(op + 1, 1, TASKS_MAX, &step) < 0) {
		set_err(err, errlen, "bad step after ':'");
		return -1;
	}
	if (kind == '*' && parse_long(op + 1, 2, 1000, &factor) < 0) {
		set_err(err, errlen, "bad factor after '*' (must be 2 or more)");
		return -1;
	}
	for (long long n = a; n <= b; n = factor ? n * factor : n + step)
		if (tasks_push(t, n, err, errlen) < 0)
			return -1;
	return 0;
}

/* Walk the comma-separated items of spec (spaces also separate counts inside an item); an item
 * with nothing in it (`1,,2`, `1,2,`, `,1`) is an error, never skipped. On an error *bad and
 * *badlen say which item. */
static int tasks_walk(const char *spec, struct task_list *t, const char **bad, size_t *badlen, char *err, size_t errlen)
{
	static const char space[] = " \t\n";
	*bad = spec;
	*badlen = strlen(spec);
	if (spec[strspn(spec, space)] == '\0') {
		set_err(err, errlen, "empty task list");
		return -1;
	}
	for (const char *p = spec;; p++) {
		size_t n = strcspn(p, ",");
		const char *w = p + strspn(p, space);
		if (w >= p + n) {
			*bad = p;
			*badlen = n;
			set_err(err, errlen, "%s",
				p == spec      ? "an empty item before the first comma"
				: p[n] == '\0' ? "an empty item after the last comma"
					       : "an empty item between two commas");
			return -1;
		}
		while (w < p + n) {
			size_t len = strcspn(w, ", \t\n");
			char *item = xasprintf("%.*s", (int)len, w);
			int rc = tasks_item(item, t, err, errlen);
			free(item);
			if (rc < 0) {
				if (t->count < TASKS_MAX) { /* past the limit, the fault is the whole list's */
					*bad = w;
					*badlen = len;
				}
				return -1;
			}
			w += len;
			w += strspn(w, space);
		}
		p += n;
		if (*p == '\0')
			return 0;
	}
}

int tasks_parse(const char *spec, struct task_list *out, char *err, size_t errlen)
{
	struct task_list t = {0};
	const char *bad;
	size_t badlen;
	if (tasks_walk(spec, &t, &bad, &badlen, err, errlen) < 0) {
		tasks_free(&t);
		return -1;
	}
	*out = t;
	return 0;
}

char *option_fault_at(const struct option_def *def, const char *value)
{
	char *item = def->type == OPT_TASKS ? tasks_bad_item(value) : NULL;
	if (!item || !*item) {
		free(item);
		return xstrdup("");
	}
	char *shown = text_escape(item), *at = xasprintf("'%s': ", shown);
	free(shown);
	free(item);
	return at;
}

char *tasks_bad_item(const char *spec)
{
	struct task_list t = {0};
	const char *bad;
	size_t badlen;
	int rc = tasks_walk(spec, &t, &bad, &badlen, NULL, 0);
	tasks_free(&t);
	if (rc == 0 || badlen == strlen(spec))
		return NULL;
	return xasprintf("%.*s", (int)badlen, bad);
}

void tasks_free(struct task_list *t)
{
	free(t->n);
	t->n = NULL;
	t->count = 0;
}

char *tasks_format(const struct task_list *t)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (size_t i = 0; i < t->count; i++)
		strbuf_addf(&sb, "%s%d", i ? "," : "", t->n[i]);
	return sb.buf;
}
