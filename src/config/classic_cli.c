/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Classic re-aim 7.0.1.13's command line: when a command line is one (classic_cli_detect), and
 * what it means in reaim's run options (classic_cli_parse). */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/classic_inputs.h"
#include "util/util.h"

/* Classic's own defaults (driver.c): 1 to 5 tasks by 1, 100 jobs, 10 s per AIM9 test, its
 * crossover thresholds in Jobs/Min per task, and the workfile it read without -f. */
enum { CLASSIC_START = 1, CLASSIC_END = 5, CLASSIC_INCR = 1, CLASSIC_JOBS = 100, CLASSIC_PERIOD = 10 };
#define CLASSIC_XOVER 10.0
#define CLASSIC_QUICK 60.0
#define CLASSIC_WORKFILE "workfile.short"
#define CLASSIC_PREFIX "reaim"
/* the adaptive increment only moved after this many points */
#define CLASSIC_ADAPT_AFTER 9

/* Short flags of reaim's own run command that take a value (so the next word is no flag), and those
 * that take none: a classic line may share these, every other classic flag marks it as classic. */
static const char native_with_value[] = "sftjrdp";
static const char native_without_value[] = "qvh";

/* getopt values of the long options without a short form */
enum { LONG_DB = 1000, LONG_LABEL, LONG_SYNC_MODE };

/* Classic re-aim 7.0.1.13's flags, in the order of its option table, then reaim's own that may
 * come alongside: the parser, the detection, the help and the man page read this one table. */
static const struct classic_flag {
	int id;           /* the short letter, or a LONG_* for a long-only flag */
	const char *name; /* the long form, or NULL */
	int has_arg;      /* no_argument, required_argument or optional_argument */
	const char *arg;  /* the value's name in the help */
	const char *help; /* NULL: refused with a reason (`unsupported`) */
	const char *unsupported;
	int native;       /* reaim's own, which classic did not have, so it cannot be misread */
} classic_flags[] = {
	{'v', "verbose", no_argument, NULL, "more diagnostics", NULL, 0},
	{'s', "startusers", required_argument, "N", "first task count [1]", NULL, 0},
	{'e', "endusers", required_argument, "N", "last task count [5]", NULL, 0},
	{'i', "increment", required_argument, "N", "task count step [1]", NULL, 0},
	{'j', "jobs", required_argument, "N", "jobs per task [100]", NULL, 0},
	{'d', "debug", optional_argument, "N", "more diagnostics on stderr", NULL, 0},
	{'l', "logprefix", required_argument, "P", "write P.csv, classic's CSV [reaim]", NULL, 0},
	{'f', "file", required_argument, "FILE",
	 "workfile: a path or a stock mix [workfile.short]", NULL, 0},
	{'x', "crossover", no_argument, NULL, "grow by the increment until Jobs/Min/task falls to 10", NULL, 0},
	{'m', "multiuser", no_argument, NULL, "the default", NULL, 0},
	{'b', "brief", no_argument, NULL, NULL, "classic's STP report files", 0},
	{'q', "quick", no_argument, NULL, "the same down to 60", NULL, 0},
	{'o', "oneuser", no_argument, NULL, "AIM9 single-user: each test alone for -p seconds [10]", NULL, 0},
	{'t', "timeroff", no_argument, NULL, "accepted; reaim's increment never adapts", NULL, 0},
	{'r', "repeat", required_argument, "N", "run the whole list N times [1]", NULL, 0},
	{'p', "period", required_argument, "N", "seconds per test with -o", NULL, 0},
	{'h', "help", no_argument, NULL, "this text", NULL, 0},
	{'c', "config", required_argument, "FILE", "reaim.config: FILESIZE, POOLSIZE, DISKDIR, the counts", NULL, 0},
	{'y', "nosync", no_argument, NULL, "no sync points (else a machine-wide sync)", NULL, 0},
	{'g', "guesspeak", no_argument, NULL, "find the peak of Jobs/Min (reaim's peak mode)", NULL, 0},
	{'Z', NULL, required_argument, "N", NULL, "classic's external monitoring tool", 0},
	{'z', NULL, required_argument, "N", NULL, "classic's external monitoring tool", 0},
	{LONG_DB, "db", required_argument, "FILE", "the results database, as reaim's own --db", NULL, 1},
	{LONG_LABEL, "label", required_argument, "TEXT", "the run's label, as reaim's own --label", NULL, 1},
	{LONG_SYNC_MODE, "sync-mode", required_argument, "fsync|none|global", "the disk tests' sync points, as reaim's own",
	 NULL, 1},
};

static int has_short(const struct classic_flag *f)
{
	return f->id < 256;
}

/* A short flag only classic has. */
static int classic_only_short(int c)
{
	for (size_t i = 0; i < ARRAY_SIZE(classic_flags); i++)
		if (classic_flags[i].id == c && !classic_flags[i].native)
			return !strchr(native_with_value, c) && !strchr(native_without_value, c);
	return 0;
}

/* reaim's own long options of the run command, and whether each takes a value. */
static int native_long(const char *name, size_t len, int *takes_value)
{
	static const char *const extra[] = {"suite", "db", "dry-run", "quiet", "verbose", "help"};
	static const int extra_value[] = {1, 1, 0, 0, 0, 0};
	int matches = 0, exact = 0;
	for (size_t i = 0; i < option_count + ARRAY_SIZE(extra); i++) {
		char key[64];
		int value = 1;
		if (i < option_count) {
			snprintf(key, sizeof(key), "%s", option_table[i].key);
			for (char *c = key; *c; c++)
				*c = *c == '_' ? '-' : *c;
		} else {
			snprintf(key, sizeof(key), "%s", extra[i - option_count]);
			value = extra_value[i - option_count];
		}
		if (strncmp(key, name, len) != 0)
			continue;
		/* getopt_long takes an unambiguous abbreviation, so "--file" is --filesize there */
		matches++;
		*takes_value = value;
		if (key[len] == '\0')
			exact = 1;
	}
	return exact || matches == 1;
}

static int classic_long_known(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(classic_flags); i++) {
		const struct classic_flag *f = &classic_flags[i];
		if (f->name && !f->native && strncmp(f->name, name, len) == 0)
			return 1;
	}
	return 0;
}

static int all_digits(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* Whether -s NAME would find a suite, as `reaim -s NAME` looks for one. */
static int suite_exists(const char *name)
{
	char *local = xasprintf("suites/%s.cfg", name), *cfg = xasprintf("%s.cfg", name);
	char *data = find_data_file("suites", cfg);
	int found = access(local, F_OK) == 0 || data != NULL;
	free(local);
	free(cfg);
	free(data);
	return found;
}

enum classic_verdict classic_cli_detect(int argc, char *const argv[], char *reason, size_t reasonlen)
{
	const char *start = NULL;
	if (argc < 2 || argv[1][0] != '-')
		return CLASSIC_NO; /* a subcommand: always reaim's own */
	for (int i = 1; i < argc; i++) {
		const char *tok = argv[i];
		if (tok[0] != '-' || !tok[1])
			continue;
		if (strcmp(tok, "--") == 0)
			break;
		if (tok[1] == '-') {
			const char *name = tok + 2;
			size_t len = strcspn(name, "=");
			int value = 0;
			if (native_long(name, len, &value)) {
				const char *v = NULL;
				if (name[len] == '=')
					v = name + len + 1;
				else if (value && i + 1 < argc)
					v = argv[++i];
				if (strncmp("suite", name, len) == 0)
					start = v;
				continue;
			}
			if (len > 0 && classic_long_known(name, len)) {
				snprintf(reason, reasonlen, "%s is a classic re-aim option", tok);
				return CLASSIC_YES;
			}
			continue;
		}
		for (const char *c = tok + 1; *c; c++) {
			if (strchr(native_with_value, *c)) {
				const char *v = c[1] ? c + 1 : i + 1 < argc ? argv[++i] : NULL;
				if (*c == 's')
					start = v;
				break;
			}
			if (classic_only_short((unsigned char)*c)) {
				snprintf(reason, reasonlen, "-%c is a classic re-aim option", *c);
				return CLASSIC_YES;
			}
			if (!strchr(native_without_value, *c))
				break; /* unknown to both: reaim's parser will say so */
		}
	}
	if (!all_digits(start))
		return CLASSIC_NO;
	if (suite_exists(start)) {
		snprintf(reason, reasonlen, "-s %s is ambiguous: a suite of that name exists, and a number is classic "
			 "re-aim's start count; run the suite with `reaim run -s %s`, or give the classic end "
			 "count too (-e N)", start, start);
		return CLASSIC_AMBIGUOUS;
	}
	snprintf(reason, reasonlen, "-s %s is a number, classic re-aim's start count", start);
	return CLASSIC_YES;
}

/* ---- parsing and translation ---- */

/* What the classic flags said, before translation. */
struct classic_said {
	long long start, end, incr, jobs, repeat, period; /* -1: not given */
	const char *workfile, *config, *prefix, *sync_mode;
	int crossover, quick, peak, single, multi, timer_off, nosync, verbose, debug, help;
};

/* A positive count from a flag's value, as classic's atoi but strict. */
static void count_flag(const char *flag, const char *v, long long *slot, struct errlist *errs)
{
	if (parse_long(v, 1, 100000, slot) < 0)
		errlist_add(errs, "command line", 0, "%s %s: expected a whole number from 1 to 100000", flag, v);
}

/* getopt's tables, built from classic_flags. */
static void getopt_tables(struct option *longs, char *shorts)
{
	size_t n = 0;
	char *o = shorts;
	*o++ = '+'; /* options only; the first operand is an error, reported below */
	*o++ = ':';
	for (size_t i = 0; i < ARRAY_SIZE(classic_flags); i++) {
		const struct classic_flag *f = &classic_flags[i];
		if (f->name)
			longs[n++] = (struct option){f->name, f->has_arg, NULL, f->id};
		if (!has_short(f))
			continue;
		*o++ = (char)f->id;
		for (int k = 0; k < f->has_arg; k++) /* ':' required, '::' optional */
			*o++ = ':';
	}
	*o = '\0';
	longs[n] = (struct option){NULL, 0, NULL, 0};
}

static const struct classic_flag *flag_of(int id)
{
	for (size_t i = 0; i < ARRAY_SIZE(classic_flags); i++)
		if (classic_flags[i].id == id)
			return &classic_flags[i];
	return NULL;
}

static void read_flags(int argc, char *const argv[], struct classic_said *f, struct classic_cli *out,
		       struct errlist *errs)
{
	struct option longs[ARRAY_SIZE(classic_flags) + 1];
	char shorts[3 * ARRAY_SIZE(classic_flags) + 3];
	getopt_tables(longs, shorts);
	int c;
	optind = 0; /* glibc: start afresh */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct classic_flag *def = flag_of(c);
		char name[32];
		if (def && has_short(def))
			snprintf(name, sizeof(name), "-%c", def->id);
		else
			snprintf(name, sizeof(name), "--%s", def ? def->name : "");
		if (def && def->unsupported) {
			errlist_add(errs, "command line", 0, "-%c (%s) is not supported", c, def->unsupported);
			continue;
		}
		switch (c) {
		case 's': count_flag(name, optarg, &f->start, errs); break;
		case 'e': count_flag(name, optarg, &f->end, errs); break;
		case 'i': count_flag(name, optarg, &f->incr, errs); break;
		case 'j': count_flag(name, optarg, &f->jobs, errs); break;
		case 'r': count_flag(name, optarg, &f->repeat, errs); break;
		case 'p': count_flag(name, optarg, &f->period, errs); break;
		case 'd': f->debug = 1; break;
		case 'f': f->workfile = optarg; break;
		case 'l': f->prefix = optarg; break;
		case 'c': f->config = optarg; break;
		case 'x': f->crossover = 1; break;
		case 'q': f->quick = 1; break;
		case 'g': f->peak = 1; break;
		case 'o': f->single = 1; break;
		case 'm': f->multi = 1; break;
		case 't': f->timer_off = 1; break;
		case 'y': f->nosync = 1; break;
		case 'v': f->verbose = 1; break;
		case 'h': f->help = 1; break;
		case LONG_DB: free(out->db); out->db = xstrdup(optarg); break;
		case LONG_LABEL: free(out->label); out->label = xstrdup(optarg); break;
		case LONG_SYNC_MODE: f->sync_mode = optarg; break;
		case ':': errlist_add(errs, "command line", 0, "%s needs a value", argv[optind - 1]); break;
		default:
			if (optopt && optopt < 256)
				errlist_add(errs, "command line", 0, "-%c is not a classic re-aim option", optopt);
			else
				errlist_add(errs, "command line", 0, "%s is not a classic re-aim option", argv[optind - 1]);
			break;
		}
	}
	if (optind < argc)
		errlist_add(errs, "command line", 0, "unexpected argument '%s' (classic re-aim takes options only)",
			    argv[optind]);
	optind = 0;
}

/* Set one of reaim's options from text, marking it given. */
static void set_opt(struct classic_cli *out, const char *key, const char *value, struct errlist *errs)
{
	const struct option_def *def = option_find(key);
	char err[256] = "no such option";
	if (!def || option_set(&out->ov.opts, def, value, err, sizeof(err)) < 0) {
		errlist_add(errs, "command line", 0, "%s %s: %s", key, value, err);
		return;
	}
	overrides_mark(&out->ov, def);
}

static void set_optf(struct classic_cli *out, const char *key, struct errlist *errs, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void set_optf(struct classic_cli *out, const char *key, struct errlist *errs, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *v = xvasprintf(fmt, ap);
	va_end(ap);
	set_opt(out, key, v, errs);
	free(v);
}

static void note(struct classic_cli *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct classic_cli *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *v = xvasprintf(fmt, ap);
	va_end(ap);
	out->notes.v = xrealloc(out->notes.v, (out->notes.count + 1) * sizeof(char *));
	out->notes.v[out->notes.count++] = v;
}

/*
 * The config's sizes apply where the workfile sets none: in classic a workfile's FILESIZE won.
 * Classic's stock mixes had those lines commented out ("controlled by reaim.config now"); ours
 * set 10K and 1M, so a stock mix named by name (no such file here) leaves the sizes to the config.
 */
static void apply_config(const struct classic_config *cfg, const char *workfile, struct classic_cli *out,
			 struct errlist *errs)
{
	struct workfile wf;
	struct errlist wf_errs = {0};
	long long wf_file = -1, wf_pool = -1;
	int users_file = strchr(workfile, '/') != NULL || access(workfile, F_OK) == 0;
	if (users_file) {
		if (workfile_load(workfile, NULL, 0, &wf, &wf_errs) == 0) {
			wf_file = wf.filesize_kib;
			wf_pool = wf.poolsize_kib;
		}
		workfile_free(&wf);
	}
	errlist_free(&wf_errs); /* the run reports a bad workfile itself */
	if (cfg->filesize_kib >= 0 && wf_file < 0)
		set_optf(out, "filesize", errs, "%lldK", cfg->filesize_kib);
	if (cfg->poolsize_kib >= 0 && wf_pool < 0)
		set_optf(out, "poolsize", errs, "%lldK", cfg->poolsize_kib);
	for (size_t i = 0; i < cfg->dirs.count; i++)
		set_opt(out, "dirs", cfg->dirs.v[i], errs);
}

/* The task counts and mode: start..end by increment, or growing until the threshold. */
static void apply_counts(const struct classic_said *f, const struct classic_config *cfg,
			 struct classic_cli *out, struct errlist *errs)
{
	long long s = f->start > 0 ? f->start : cfg->start_users > 0 ? cfg->start_users : CLASSIC_START;
	long long e = f->end > 0 ? f->end : cfg->end_users > 0 ? cfg->end_users : CLASSIC_END;
	long long i = f->incr > 0 ? f->incr : cfg->increment > 0 ? cfg->increment : CLASSIC_INCR;
	long long j = f->jobs > 0 ? f->jobs : cfg->jobs > 0 ? cfg->jobs : CLASSIC_JOBS;
	int crossover = f->crossover || f->quick || cfg->crossover == 1;
	if (crossover && f->peak) {
		errlist_add(errs, "command line", 0, "cannot run both crossover (%s) and peak (-g), as classic re-aim",
			    f->quick ? "-q" : "-x");
		return;
	}
	if (f->single && f->multi) {
		errlist_add(errs, "command line", 0, "cannot run both multiuser (-m) and single-user (-o)");
		return;
	}
	set_optf(out, "jobs_per_task", errs, "%lld", j);
	if (f->single) {
		set_opt(out, "mode", "single", errs);
		set_optf(out, "period", errs, "%lld", f->period > 0 ? f->period : (long long)CLASSIC_PERIOD);
		set_opt(out, "tasks", "1", errs);
		set_opt(out, "poolsize", "0", errs); /* classic's single-user files were FILESIZE alone */
		out->single = 1;
		return;
	}
	if (f->peak) {
		set_opt(out, "mode", "peak", errs);
		set_optf(out, "tasks", errs, "%lld", s);
		note(out, "-g: reaim finds the peak by doubling, then a golden-section search, not classic's "
			  "five-point moving average");
		return;
	}
	if (crossover) {
		long long top = out->ov.opts.max_tasks;
		set_opt(out, "mode", f->quick ? "quick" : "crossover", errs);
		set_optf(out, "threshold", errs, "%g", f->quick ? CLASSIC_QUICK : CLASSIC_XOVER);
		/* classic grew by the increment, without end, until Jobs/Min per task fell to it */
		if (s <= top)
			set_optf(out, "tasks", errs, "%lld-%lld:%lld", s, top, i);
		else
			errlist_add(errs, "command line", 0, "start count %lld is above the %lld tasks reaim may reach", s,
				    top);
		return;
	}
	if (s > e) {
		errlist_add(errs, "command line", 0, "cannot run backwards: start count %lld is above end count %lld", s,
			    e);
		return;
	}
	set_optf(out, "tasks", errs, "%lld-%lld:%lld", s, e, i);
	if (!f->timer_off && (e - s) / i + 1 > CLASSIC_ADAPT_AFTER)
		note(out, "the increment stays %lld: classic's adaptive increment (which -t turned off) is not "
			  "reproduced", i);
}

int classic_cli_parse(int argc, char *const argv[], struct classic_cli *out, struct errlist *errs)
{
	size_t before = errs->count;
	memset(out, 0, sizeof(*out));
	run_opts_defaults(&out->ov.opts);
	struct classic_said f = {.start = -1, .end = -1, .incr = -1, .jobs = -1, .repeat = -1, .period = -1};
	read_flags(argc, argv, &f, out, errs);
	if (f.help) {
		out->help = 1;
		return errs->count == before ? 0 : -1;
	}
	struct classic_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.filesize_kib = cfg.poolsize_kib = cfg.start_users = cfg.end_users = cfg.increment = cfg.jobs = -1;
	cfg.crossover = cfg.verbose = cfg.brief = -1;
	if (f.config && classic_config_load(f.config, &cfg, errs) < 0) {
		classic_config_free(&cfg);
		return -1;
	}
	if (cfg.brief == 1)
		note(out, "%s: BRIEF 1 (classic's STP report files) is ignored", f.config);
	const char *workfile = f.workfile ? f.workfile : CLASSIC_WORKFILE;
	set_opt(out, "workfile", workfile, errs);
	apply_config(&cfg, workfile, out, errs);
	apply_counts(&f, &cfg, out, errs);
	if (f.repeat > 0)
		set_optf(out, "repeat", errs, "%lld", f.repeat);
	/* classic synced the whole machine at its sync points unless -y */
	set_opt(out, "sync_mode", f.sync_mode ? f.sync_mode : f.nosync ? "none" : "global", errs);
	if (out->label)
		set_opt(out, "label", out->label, errs);
	out->log_prefix = xstrdup(f.prefix ? f.prefix : CLASSIC_PREFIX);
	out->verbose = f.verbose || cfg.verbose == 1;
	out->debug = f.debug;
	if (f.debug)
		note(out, "-d: diagnostics go to stderr; classic's reaim.debuglog is not written");
	classic_config_free(&cfg);
	return errs->count == before ? 0 : -1;
}

void classic_cli_free(struct classic_cli *c)
{
	run_opts_free(&c->ov.opts);
	free(c->log_prefix);
	free(c->db);
	free(c->label);
	str_list_free(&c->notes);
	memset(c, 0, sizeof(*c));
}

static void push(struct str_list *l, char *s)
{
	l->v = xrealloc(l->v, (l->count + 2) * sizeof(char *));
	l->v[l->count++] = s;
	l->v[l->count] = NULL;
}

/* One option's value as text its own parser reads back. */
static char *classic_option_text(const struct run_opts *o, const struct option_def *d)
{
	const void *slot = (const char *)o + d->offset;
	switch (d->type) {
	case OPT_INT: return xasprintf("%lld", *(const long long *)slot);
	case OPT_KIB: return xasprintf("%lldK", *(const long long *)slot);
	case OPT_STR: return xstrdup(*(char *const *)slot ? *(char *const *)slot : "");
	case OPT_TASKS: return tasks_format(slot);
	case OPT_ENUM: return xstrdup(d->choices[*(const int *)slot]);
	case OPT_DOUBLE:
	case OPT_SECONDS: return xasprintf("%.17g", *(const double *)slot);
	case OPT_STRLIST: break; /* one flag per value, by the caller */
	}
	return xstrdup("");
}

void classic_cli_native_argv(const struct classic_cli *c, struct str_list *argv)
{
	memset(argv, 0, sizeof(*argv));
	push(argv, xstrdup("run"));
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *d = &option_table[i];
		if (!overrides_given(&c->ov, d))
			continue;
		char *flag = xasprintf("--%s", d->key);
		for (char *p = flag + 2; *p; p++)
			*p = *p == '_' ? '-' : *p;
		if (d->type == OPT_STRLIST) {
			for (size_t k = 0; k < c->ov.opts.dirs.count; k++) {
				push(argv, xstrdup(flag));
				push(argv, xstrdup(c->ov.opts.dirs.v[k]));
			}
			free(flag);
			continue;
		}
		push(argv, flag);
		push(argv, classic_option_text(&c->ov.opts, d));
	}
	if (c->db) {
		push(argv, xstrdup("--db"));
		push(argv, xstrdup(c->db));
	}
	if (c->verbose || c->debug)
		push(argv, xstrdup("-v"));
}

/* "-s, --startusers N" */
static void flag_synopsis(const struct classic_flag *f, char *buf, size_t len)
{
	int n = has_short(f) ? snprintf(buf, len, "-%c%s", f->id, f->name ? ", " : "") : 0;
	if (f->name)
		n += snprintf(buf + n, len - (size_t)n, "--%s", f->name);
	if (f->arg)
		snprintf(buf + n, len - (size_t)n, f->has_arg == optional_argument ? "[=%s]" : " %s", f->arg);
}

void classic_cli_usage(FILE *f)
{
	fprintf(f, "reaim also reads classic re-aim 7.0.1.13 command lines, known by a flag only\n"
		   "classic has (-e -i -c -l -x -g -y -o -m, a classic long option) or a number\n"
		   "after -s, and prints classic's table:\n");
	for (size_t i = 0; i < ARRAY_SIZE(classic_flags); i++) {
		const struct classic_flag *c = &classic_flags[i];
		char syn[64];
		flag_synopsis(c, syn, sizeof(syn));
		/* a synopsis too long for its column puts the help on the next line */
		fprintf(f, "  %-24s%s%s%s\n", syn, strlen(syn) < 24 ? " " : "\n                           ",
			c->help ? c->help : "refused: ", c->help ? "" : c->unsupported);
	}
	fprintf(f, "Every run is stored in the database as with reaim's own command line.\n");
}

void classic_cli_man(FILE *f, void (*roff)(FILE *, const char *))
{
	for (size_t i = 0; i < ARRAY_SIZE(classic_flags); i++) {
		const struct classic_flag *c = &classic_flags[i];
		char syn[64];
		flag_synopsis(c, syn, sizeof(syn));
		fputs(".TP\n.B ", f);
		roff(f, syn);
		fputs("\n", f);
		if (c->help) {
			roff(f, c->help);
		} else {
			roff(f, "refused (");
			roff(f, c->unsupported);
			roff(f, " is not reproduced)");
		}
		fputs(".\n", f);
	}
}
