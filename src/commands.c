/* The subcommands that only read: check, tests, list, show and export. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "config/cfg.h"
#include "report/plot.h"
#include "report/report.h"
#include "store/store.h"
#include "catalog/catalog.h"
#include "util/util.h"

static int is_suite(const char *path)
{
	size_t n = strlen(path);
	return n > 4 && strcmp(path + n - 4, ".cfg") == 0;
}

enum outcome cmd_check(int argc, char **argv)
{
	if (argc < 2) {
		log_error("usage: reaim check FILE...");
		return OUT_USAGE;
	}
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		struct errlist errs = {0};
		struct workfile wf;
		int rc = is_suite(argv[i]) ? suite_check(argv[i], &errs)
					   : workfile_load(argv[i], NULL, 0, &wf, &errs);
		if (!is_suite(argv[i]))
			workfile_free(&wf);
		if (rc < 0) {
			errlist_print(&errs);
			bad = 1;
		} else {
			printf("%s: ok\n", argv[i]);
		}
		errlist_free(&errs);
	}
	return bad ? OUT_USAGE : OUT_OK;
}

static const char *flag_names(unsigned flags, char *buf, size_t len)
{
	static const struct {
		unsigned flag;
		const char *name;
	} names[] = {{TF_CPU, "cpu"},     {TF_DISK, "disk"},    {TF_SYNC, "sync"},   {TF_DIRECT, "direct"},
		     {TF_FORKS, "forks"}, {TF_NET, "network"}, {TF_SYSV, "sysv"},   {TF_SOURCE, "source"},
		     {TF_SCRATCH, "scratch"}, {TF_SIZED, "sized"}, {TF_HALF, "half-size"}};
	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (flags & names[i].flag)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "," : "", names[i].name);
	return buf;
}

enum outcome cmd_tests(int argc, char **argv)
{
	char flags[128];
	if (argc > 1) {
		const struct test_def *t = test_find(argv[1]);
		if (!t) {
			log_error("unknown test '%s' (see reaim tests)", argv[1]);
			return OUT_USAGE;
		}
		printf("%s (family %s)\n  %s\n  one call: %ld %s\n  flags: %s\n", t->name, test_family_of(t),
		       t->desc, t->ops_per_call, t->units, flag_names(t->flags, flags, sizeof(flags)));
		return OUT_OK;
	}
	printf("%-18s %-10s %10s  %-24s %s\n", "Test", "Family", "Ops/call", "Units", "Description");
	const struct test_def *t;
	for (size_t i = 0; (t = test_at(i)) != NULL; i++)
		printf("%-18s %-10s %10ld  %-24s %s\n", t->name, test_family_of(t), t->ops_per_call, t->units,
		       t->desc);
	return OUT_OK;
}

/* Options shared by the commands that read the database. */
struct read_args {
	const char *db, *format, *run;
	int verbose, tests, samples;
	long long limit;
	struct run_filter filter;
};

static int parse_read_args(int argc, char **argv, struct read_args *a)
{
	enum { DB = 1000, FORMAT, TESTS, LABEL, SUITE, WORKFILE, HOST, STATUS, SINCE, SAMPLES };
	static const struct option longs[] = {
		{"db", required_argument, NULL, DB},       {"format", required_argument, NULL, FORMAT},
		{"tests", no_argument, NULL, TESTS},       {"verbose", no_argument, NULL, 'v'},
		{"label", required_argument, NULL, LABEL}, {"suite", required_argument, NULL, SUITE},
		{"workfile", required_argument, NULL, WORKFILE}, {"host", required_argument, NULL, HOST},
		{"status", required_argument, NULL, STATUS}, {"since", required_argument, NULL, SINCE},
		{"samples", no_argument, NULL, SAMPLES},
		{NULL, 0, NULL, 0},
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "vn:", longs, NULL)) != -1) {
		switch (c) {
		case DB: a->db = optarg; break;
		case FORMAT: a->format = optarg; break;
		case TESTS: a->tests = 1; break;
		case SAMPLES: a->samples = 1; break;
		case LABEL: a->filter.label = optarg; break;
		case SUITE: a->filter.suite = optarg; break;
		case WORKFILE: a->filter.workfile = optarg; break;
		case HOST: a->filter.host = optarg; break;
		case STATUS: a->filter.status = optarg; break;
		case SINCE: a->filter.since = optarg; break;
		case 'v': a->verbose = 1; break;
		case 'n':
			if (parse_long(optarg, 1, 1000000, &a->limit) < 0) {
				log_error("-n %s: not a positive number", optarg);
				return -1;
			}
			break;
		default: return -1;
		}
	}
	a->run = optind < argc ? argv[optind++] : NULL;
	if (optind < argc) {
		log_error("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	return 0;
}

static struct store *open_existing(const char *db)
{
	char err[512];
	struct store *st;
	if (access(db, F_OK) != 0) {
		log_error("no results database at %s (run a suite first, or pass --db)", db);
		return NULL;
	}
	if (store_open(db, &st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return NULL;
	}
	return st;
}

/* Open the database and resolve RUN; NULL after printing why. */
static struct store *open_run(const struct read_args *a, int64_t *run_id)
{
	struct store *st = open_existing(cli_db_path(a->db));
	if (st && store_resolve_run(st, a->run ? a->run : "last", run_id) < 0) {
		log_error("%s", store_error(st));
		store_close(st);
		return NULL;
	}
	return st;
}

enum outcome cmd_list(int argc, char **argv)
{
	struct read_args a = {0};
	if (parse_read_args(argc, argv, &a) < 0)
		return OUT_USAGE;
	struct store *st = open_existing(cli_db_path(a.db));
	if (!st)
		return OUT_USAGE;
	a.filter.limit = (size_t)a.limit;
	int rc = report_list(stdout, st, &a.filter);
	if (rc < 0)
		log_error("%s", store_error(st));
	store_close(st);
	return rc < 0 ? OUT_FAILED : OUT_OK;
}

enum outcome cmd_show(int argc, char **argv)
{
	struct read_args a = {0};
	int64_t id;
	if (parse_read_args(argc, argv, &a) < 0)
		return OUT_USAGE;
	struct store *st = open_run(&a, &id);
	if (!st)
		return OUT_USAGE;
	int rc = report_show(stdout, st, id, a.verbose, a.tests, a.samples);
	if (rc < 0)
		log_error("%s", store_error(st));
	store_close(st);
	return rc < 0 ? OUT_FAILED : OUT_OK;
}

enum outcome cmd_export(int argc, char **argv)
{
	static const char *const formats[] = {"csv", "json", "lkp", "classic"};
	struct read_args a = {.format = "csv"};
	int64_t id;
	if (parse_read_args(argc, argv, &a) < 0)
		return OUT_USAGE;
	int known = 0;
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		known |= strcmp(a.format, formats[i]) == 0;
	if (!known) {
		log_error("unknown export format '%s' (csv, json, lkp or classic)", a.format);
		return OUT_USAGE;
	}
	struct store *st = open_run(&a, &id);
	if (!st)
		return OUT_USAGE;
	int rc = report_export(stdout, st, id, a.format);
	if (rc < 0)
		log_error("%s", store_error(st));
	store_close(st);
	return rc < 0 ? OUT_FAILED : OUT_OK;
}

enum outcome cmd_compare(int argc, char **argv)
{
	enum { DB = 1000, FORMAT, FAIL_ABOVE, ALPHA };
	static const struct option longs[] = {
		{"db", required_argument, NULL, DB},
		{"format", required_argument, NULL, FORMAT},
		{"fail-above", required_argument, NULL, FAIL_ABOVE},
		{"alpha", required_argument, NULL, ALPHA},
		{NULL, 0, NULL, 0},
	};
	static const char *const formats[] = {"table", "csv", "json", "markdown"};
	struct compare_options o = {.format = CMP_TABLE, .alpha = 0.05};
	const char *db = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		char *end;
		switch (c) {
		case DB: db = optarg; break;
		case FORMAT: {
			size_t i = 0;
			while (i < ARRAY_SIZE(formats) && strcmp(formats[i], optarg) != 0)
				i++;
			if (i == ARRAY_SIZE(formats)) {
				log_error("unknown compare format '%s' (table, csv, json or markdown)", optarg);
				return OUT_USAGE;
			}
			o.format = (enum compare_format)i;
			break;
		}
		case FAIL_ABOVE:
			o.fail_above_pct = strtod(optarg, &end);
			if (*end || end == optarg || o.fail_above_pct <= 0) {
				log_error("--fail-above %s: expected a positive percentage", optarg);
				return OUT_USAGE;
			}
			break;
		case ALPHA:
			o.alpha = strtod(optarg, &end);
			if (*end || end == optarg || o.alpha <= 0 || o.alpha >= 0.5) {
				log_error("--alpha %s: expected a level such as 0.05", optarg);
				return OUT_USAGE;
			}
			break;
		default: return OUT_USAGE;
		}
	}
	size_t n = (size_t)(argc - optind);
	if (n < 1) {
		log_error("usage: reaim compare RUN [RUN...] (one run: O_SYNC on against off)");
		return OUT_USAGE;
	}
	struct store *st = open_existing(cli_db_path(db));
	if (!st)
		return OUT_USAGE;
	int64_t *ids = xcalloc(n, sizeof(*ids));
	int rc = 0, regressed = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		if ((rc = store_resolve_run(st, argv[optind + (int)i], &ids[i])) < 0)
			log_error("%s", store_error(st));
	if (rc == 0) {
		rc = n == 1 ? report_osync_ratio(stdout, st, ids[0]) : report_compare(stdout, st, ids, n, &o, &regressed);
		if (rc < 0)
			log_error("%s", store_error(st));
	}
	free(ids);
	store_close(st);
	if (rc < 0)
		return OUT_USAGE;
	if (regressed) {
		log_error("a regression beyond %.1f%% was found", o.fail_above_pct);
		return OUT_REGRESSION;
	}
	return OUT_OK;
}

enum outcome cmd_merge(int argc, char **argv)
{
	struct read_args a = {0};
	if (parse_read_args(argc, argv, &a) < 0 || !a.run) {
		log_error("usage: reaim merge OTHER.db [--db FILE]");
		return OUT_USAGE;
	}
	if (access(a.run, R_OK) != 0) {
		log_error("cannot read %s: %s", a.run, strerror(errno));
		return OUT_USAGE;
	}
	const char *db = cli_db_path(a.db);
	char err[512];
	struct store *st;
	if (store_open(db, &st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return OUT_USAGE;
	}
	size_t copied, skipped;
	int rc = store_merge(st, a.run, &copied, &skipped);
	if (rc < 0)
		log_error("%s", store_error(st));
	else
		printf("merged %zu runs from %s into %s (%zu already present)\n", copied, a.run, db, skipped);
	store_close(st);
	return rc < 0 ? OUT_USAGE : OUT_OK;
}

enum outcome cmd_plot(int argc, char **argv)
{
	enum { DB = 1000, FORMAT, DIFF, WORKLOAD, OSYNC, TITLE, METRIC, TIMELINE, POINT };
	static const struct option longs[] = {
		{"db", required_argument, NULL, DB},        {"format", required_argument, NULL, FORMAT},
		{"diff", no_argument, NULL, DIFF},          {"workload", required_argument, NULL, WORKLOAD},
		{"osync", required_argument, NULL, OSYNC},  {"title", required_argument, NULL, TITLE},
		{"output", required_argument, NULL, 'o'},   {"metric", required_argument, NULL, METRIC},
		{"timeline", no_argument, NULL, TIMELINE},  {"point", required_argument, NULL, POINT},
		{NULL, 0, NULL, 0},
	};
	const char *db = NULL;
	struct plot_request rq = {.osync = -1};
	long long point;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
		switch (c) {
		case DB: db = optarg; break;
		case FORMAT: rq.format = optarg; break;
		case DIFF: rq.diff = 1; break;
		case WORKLOAD: rq.workload = optarg; break;
		case TITLE: rq.title = optarg; break;
		case TIMELINE: rq.timeline = 1; break;
		case 'o': rq.out = optarg; break;
		case METRIC: rq.metric = optarg; break;
		case POINT:
			if (parse_long(optarg, 1, INT_MAX, &point) < 0) {
				log_error("--point %s: a task count", optarg);
				return OUT_USAGE;
			}
			rq.point = (int)point;
			rq.timeline = 1;
			break;
		case OSYNC:
			if (strcmp(optarg, "on") != 0 && strcmp(optarg, "off") != 0) {
				log_error("--osync %s: on or off", optarg);
				return OUT_USAGE;
			}
			rq.osync = strcmp(optarg, "on") == 0;
			break;
		default: return OUT_USAGE;
		}
	}
	if (!rq.out || optind >= argc) {
		log_error("usage: reaim plot RUN... -o FILE.svg|FILE.png [--diff] [--format svg|png|gnuplot] "
			  "[--workload W] [--osync on|off] [--title T] [--metric NAME] [--timeline [--point TASKS]]");
		return OUT_USAGE;
	}
	struct store *st = open_existing(cli_db_path(db));
	if (!st)
		return OUT_USAGE;
	rq.runs = (const char *const *)argv + optind;
	rq.nruns = (size_t)(argc - optind);
	char err[1024];
	int rc = report_plot(st, &rq, err, sizeof(err));
	if (rc < 0)
		log_error("%s", err);
	store_close(st);
	return rc < 0 ? OUT_USAGE : OUT_OK;
}
