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

#include "config/classic.h"
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

/* Short flags of classic that reaim's own command line does not have. */
static const char classic_only_short[] = "eiclxgyombZz";
/* Short flags of reaim's own run command that take a value (so the next word is no flag). */
static const char native_with_value[] = "sftjrdp";
static const char native_without_value[] = "qvh";

/* Classic's long options, in the order of its option table. */
static const char *const classic_long[] = {
	"verbose", "startusers", "endusers", "increment", "jobs", "debug", "logprefix", "file", "crossover",
	"multiuser", "brief", "quick", "oneuser", "timeroff", "repeat", "period", "help", "config", "nosync",
	"guesspeak",
};

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
	for (size_t i = 0; i < ARRAY_SIZE(classic_long); i++)
		if (strncmp(classic_long[i], name, len) == 0)
			return 1;
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

enum classic_verdict classic_cli_detect(int argc, char *const argv[], char *why, size_t whylen)
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
				snprintf(why, whylen, "%s is a classic re-aim option", tok);
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
			if (strchr(classic_only_short, *c)) {
				snprintf(why, whylen, "-%c is a classic re-aim option", *c);
				return CLASSIC_YES;
			}
			if (!strchr(native_without_value, *c))
				break; /* unknown to both: reaim's parser will say so */
		}
	}
	if (!all_digits(start))
		return CLASSIC_NO;
	if (suite_exists(start)) {
		snprintf(why, whylen, "-s %s is ambiguous: a suite of that name exists, and a number is classic "
			 "re-aim's start count; run the suite with `reaim run -s %s`, or give the classic end "
			 "count too (-e N)", start, start);
		return CLASSIC_AMBIGUOUS;
	}
	snprintf(why, whylen, "-s %s is a number, classic re-aim's start count", start);
	return CLASSIC_YES;
}

/* ---- parsing and translation ---- */

/* What the classic flags said, before translation. */
struct classic_flags {
	long long start, end, incr, jobs, repeat, period; /* -1: not given */
	const char *workfile, *config, *prefix, *sync_mode;
	int crossover, quick, peak, single, multi, timer_off, nosync, verbose, debug, help;
};

enum { LONG_START = 1000, LONG_END, LONG_INCR, LONG_JOBS, LONG_DEBUG, LONG_DB, LONG_LABEL, LONG_SYNC_MODE };

/* A positive count from a flag's value, as classic's atoi but strict. */
static void count_flag(const char *flag, const char *v, long long *slot, struct errlist *errs)
{
	if (parse_long(v, 1, 100000, slot) < 0)
		errlist_add(errs, "command line", 0, "%s %s: expected a whole number from 1 to 100000", flag, v);
}

static void read_flags(int argc, char *const argv[], struct classic_flags *f, struct classic_cli *out,
		       struct errlist *errs)
{
	static const struct option longs[] = {
		{"verbose", no_argument, NULL, 'v'},           {"startusers", required_argument, NULL, LONG_START},
		{"endusers", required_argument, NULL, LONG_END}, {"increment", required_argument, NULL, LONG_INCR},
		{"jobs", required_argument, NULL, LONG_JOBS},  {"debug", optional_argument, NULL, LONG_DEBUG},
		{"logprefix", required_argument, NULL, 'l'},   {"file", required_argument, NULL, 'f'},
		{"crossover", no_argument, NULL, 'x'},         {"multiuser", no_argument, NULL, 'm'},
		{"brief", no_argument, NULL, 'b'},             {"quick", no_argument, NULL, 'q'},
		{"oneuser", no_argument, NULL, 'o'},           {"timeroff", no_argument, NULL, 't'},
		{"repeat", required_argument, NULL, 'r'},      {"period", required_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},              {"config", required_argument, NULL, 'c'},
		{"nosync", no_argument, NULL, 'y'},            {"guesspeak", no_argument, NULL, 'g'},
		/* reaim's own, which classic did not have, so they cannot be misread */
		{"db", required_argument, NULL, LONG_DB},      {"label", required_argument, NULL, LONG_LABEL},
		{"sync-mode", required_argument, NULL, LONG_SYNC_MODE},
		{NULL, 0, NULL, 0},
	};
	int c;
	optind = 0; /* glibc: start afresh */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:bvs:e:i:j:d::f:l:p:r:c:Z:z:mqothxyg", longs, NULL)) != -1) {
		switch (c) {
		case 's': count_flag("-s", optarg, &f->start, errs); break;
		case LONG_START: count_flag("--startusers", optarg, &f->start, errs); break;
		case 'e': count_flag("-e", optarg, &f->end, errs); break;
		case LONG_END: count_flag("--endusers", optarg, &f->end, errs); break;
		case 'i': count_flag("-i", optarg, &f->incr, errs); break;
		case LONG_INCR: count_flag("--increment", optarg, &f->incr, errs); break;
		case 'j': count_flag("-j", optarg, &f->jobs, errs); break;
		case LONG_JOBS: count_flag("--jobs", optarg, &f->jobs, errs); break;
		case 'r': count_flag("-r", optarg, &f->repeat, errs); break;
		case 'p': count_flag("-p", optarg, &f->period, errs); break;
		case 'd':
		case LONG_DEBUG: f->debug = 1; break;
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
		case 'b':
			errlist_add(errs, "command line", 0, "-b (classic's STP report files) is not supported");
			break;
		case 'Z':
		case 'z':
			errlist_add(errs, "command line", 0, "-%c (classic's external monitoring tool) is not supported", c);
			break;
		case ':':
			errlist_add(errs, "command line", 0, "%s needs a value", argv[optind - 1]);
			break;
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
	const char *why = "no such option";
	if (!def || option_set(&out->ov.opts, def, value, &why) < 0) {
		errlist_add(errs, "command line", 0, "%s %s: %s", key, value, why);
		return;
	}
	out->ov.given[def - option_table] = 1;
}

static void set_optf(struct classic_cli *out, const char *key, struct errlist *errs, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void set_optf(struct classic_cli *out, const char *key, struct errlist *errs, const char *fmt, ...)
{
	va_list ap;
	char *v = NULL;
	va_start(ap, fmt);
	if (vasprintf(&v, fmt, ap) < 0)
		v = NULL;
	va_end(ap);
	set_opt(out, key, v ? v : "", errs);
	free(v);
}

static void note(struct classic_cli *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct classic_cli *out, const char *fmt, ...)
{
	va_list ap;
	char *v = NULL;
	va_start(ap, fmt);
	if (vasprintf(&v, fmt, ap) < 0)
		v = NULL;
	va_end(ap);
	if (!v)
		return;
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
static void apply_counts(const struct classic_flags *f, const struct classic_config *cfg,
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
	struct classic_flags f = {.start = -1, .end = -1, .incr = -1, .jobs = -1, .repeat = -1, .period = -1};
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
		if (!c->ov.given[i])
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

void classic_cli_usage(FILE *f)
{
	fprintf(f,
		"reaim also takes classic re-aim 7.0.1.13 command lines (recognised by -e, -i, -c, -l, -x, -g, -y,\n"
		"-o, -m or a classic long option, or by a number after -s), and prints classic's table:\n"
		"  -s, --startusers N     first task count [1]\n"
		"  -e, --endusers N       last task count [5]\n"
		"  -i, --increment N      task count step [1]\n"
		"  -j, --jobs N           jobs per task [100]\n"
		"  -f, --file FILE        workfile: a path, or a stock mix by name (workfile.dbase or dbase) [workfile.short]\n"
		"  -c, --config FILE      reaim.config: FILESIZE, POOLSIZE, DISKDIR (and the counts above)\n"
		"  -l, --logprefix P      write P.csv, classic's CSV [reaim]\n"
		"  -r, --repeat N         run the whole list N times [1]\n"
		"  -x, --crossover        grow by the increment until Jobs/Min per task falls to 10\n"
		"  -q, --quick            the same down to 60\n"
		"  -g, --guesspeak        find the peak of Jobs/Min (reaim's peak mode)\n"
		"  -o, --oneuser          AIM9 single-user: each test alone for -p seconds [10]\n"
		"  -p, --period N         seconds per test with -o\n"
		"  -y, --nosync           no sync points in the disk tests (without it: a machine-wide sync)\n"
		"  -t, --timeroff         accepted; reaim's increment never adapts\n"
		"  -m, --multiuser        the default\n"
		"  -d, --debug[=N]        more diagnostics on stderr\n"
		"  -v, --verbose          more diagnostics\n"
		"  -h, --help             this text\n"
		"  --db FILE, --label TEXT, --sync-mode fsync|none|global  reaim's own, allowed alongside\n"
		"Every run is stored in the database as with reaim's own command line.\n");
}
