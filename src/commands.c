/* The subcommands that only read: check, tests, list, show and export. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
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
	static const char *const formats[] = {"csv", "json", "lkp", "classic", "reaim7", "aim7", "aim9", "lava"};
	struct read_args a = {.format = "csv"};
	int64_t id;
	if (parse_read_args(argc, argv, &a) < 0)
		return OUT_USAGE;
	int known = 0;
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		known |= strcmp(a.format, formats[i]) == 0;
	if (!known) {
		log_error("unknown export format '%s' (csv, json, lkp, classic, reaim7, aim7, aim9 or lava)", a.format);
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

/* The curve of run `c` matching a workload and O_SYNC choice (first curve when unset). */
static int pick_curve(struct curve *cs, size_t n, const char *workload, int osync, struct curve *out)
{
	for (size_t i = 0; i < n; i++) {
		if ((workload && strcmp(cs[i].workload, workload) != 0) || (osync >= 0 && cs[i].osync != osync))
			continue;
		*out = cs[i];
		cs[i].points = NULL; /* moved */
		cs[i].count = 0;
		return 0;
	}
	return -1;
}

/* Where each sampled metric sits in a time-series row. */
static const struct {
	const char *metric;
	size_t offset;
} sample_fields[] = {
	{"user_pct", offsetof(struct store_sample, user_pct)},
	{"sys_pct", offsetof(struct store_sample, sys_pct)},
	{"iowait_pct", offsetof(struct store_sample, iowait_pct)},
	{"idle_pct", offsetof(struct store_sample, idle_pct)},
	{"read_kbs", offsetof(struct store_sample, read_kbs)},
	{"write_kbs", offsetof(struct store_sample, write_kbs)},
	{"util_pct", offsetof(struct store_sample, util_pct)},
	{"ctxt_per_s", offsetof(struct store_sample, ctxt_per_s)},
};

/* `plot --timeline`: the first run's points (one workload and O_SYNC setting), a sampled
 * metric against seconds into each point. */
static int plot_timeline(struct store *st, const char *run, const char *workload, int osync,
			 const struct metric *m, const char *title, const char *out)
{
	size_t field = 0;
	while (field < ARRAY_SIZE(sample_fields) && strcmp(sample_fields[field].metric, m->name) != 0)
		field++;
	if (field == ARRAY_SIZE(sample_fields)) {
		log_error("--timeline plots a sampled metric (user_pct, sys_pct, iowait_pct, idle_pct, read_kbs, "
			  "write_kbs, util_pct, ctxt_per_s), not %s", m->name);
		return -1;
	}
	int64_t id;
	struct store_point *pts;
	size_t np;
	if (store_resolve_run(st, run, &id) < 0 || store_get_points(st, id, &pts, &np) < 0) {
		log_error("%s", store_error(st));
		return -1;
	}
	struct timeline *lines = xcalloc(np + 1, sizeof(*lines));
	struct store_sample **rows = xcalloc(np + 1, sizeof(*rows));
	size_t n = 0;
	for (size_t i = 0; i < np; i++) {
		const struct store_point *p = &pts[i];
		if (!p->valid || (workload && strcmp(p->workload, workload) != 0) || (osync >= 0 && p->osync != osync) ||
		    (n && (strcmp(p->workload, pts[0].workload) != 0 || p->osync != pts[0].osync) && !workload))
			continue;
		size_t count;
		if (store_get_samples(st, p->id, &rows[n], &count) < 0 || count == 0) {
			free(rows[n]);
			rows[n] = NULL;
			continue;
		}
		double *t = xcalloc(count, sizeof(double)), *y = xcalloc(count, sizeof(double));
		for (size_t k = 0; k < count; k++) {
			t[k] = rows[n][k].t_s;
			memcpy(&y[k], (const char *)&rows[n][k] + sample_fields[field].offset, sizeof(double));
		}
		lines[n] = (struct timeline){.t = t, .y = y, .count = count};
		snprintf(lines[n].label, sizeof(lines[n].label), "%d tasks%s", p->tasks,
			 p->repeat ? " (repeat)" : "");
		n++;
	}
	char heading[160];
	snprintf(heading, sizeof(heading), "%s during each point of run %lld", m->label, (long long)id);
	FILE *f = fopen(out, "w");
	int rc = f && plot_timeline_svg(f, lines, n, title ? title : heading, m->label) == 0 ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	if (rc < 0)
		log_error("writing %s: %s", out, strerror(errno));
	for (size_t i = 0; i < n; i++) {
		free((void *)lines[i].t);
		free((void *)lines[i].y);
		free(rows[i]);
	}
	free(lines);
	free(rows);
	free(pts);
	return rc;
}

enum outcome cmd_plot(int argc, char **argv)
{
	enum { DB = 1000, FORMAT, DIFF, WORKLOAD, OSYNC, TITLE, METRIC, TIMELINE };
	static const struct option longs[] = {
		{"db", required_argument, NULL, DB},        {"format", required_argument, NULL, FORMAT},
		{"diff", no_argument, NULL, DIFF},          {"workload", required_argument, NULL, WORKLOAD},
		{"osync", required_argument, NULL, OSYNC},  {"title", required_argument, NULL, TITLE},
		{"output", required_argument, NULL, 'o'},   {"metric", required_argument, NULL, METRIC},
		{"timeline", no_argument, NULL, TIMELINE},
		{NULL, 0, NULL, 0},
	};
	const char *db = NULL, *format = "svg", *workload = NULL, *out = NULL;
	const struct metric *metric = metric_find("jobs_per_min");
	struct plot_options po = {0};
	int osync = -1, c, timeline = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
		switch (c) {
		case DB: db = optarg; break;
		case FORMAT: format = optarg; break;
		case DIFF: po.diff_panel = 1; break;
		case WORKLOAD: workload = optarg; break;
		case TITLE: po.title = optarg; break;
		case TIMELINE: timeline = 1; break;
		case 'o': out = optarg; break;
		case METRIC:
			if (!(metric = metric_find(optarg))) {
				log_error("unknown metric '%s'; one of:", optarg);
				for (const struct metric *m = metric_list(); m->name; m++)
					fprintf(stderr, "  %-18s %s\n", m->name, m->label);
				return OUT_USAGE;
			}
			break;
		case OSYNC:
			if (strcmp(optarg, "on") != 0 && strcmp(optarg, "off") != 0) {
				log_error("--osync %s: on or off", optarg);
				return OUT_USAGE;
			}
			osync = strcmp(optarg, "on") == 0;
			break;
		default: return OUT_USAGE;
		}
	}
	if (!out || optind >= argc || (strcmp(format, "svg") != 0 && strcmp(format, "gnuplot") != 0)) {
		log_error("usage: reaim plot RUN... -o FILE.svg [--diff] [--format svg|gnuplot] [--workload W] "
			  "[--osync on|off] [--title T] [--metric NAME] [--timeline]");
		return OUT_USAGE;
	}
	struct store *st = open_existing(cli_db_path(db));
	if (!st)
		return OUT_USAGE;
	if (timeline) {
		if (strcmp(metric->name, "jobs_per_min") == 0)
			metric = metric_find("sys_pct"); /* the default for a timeline */
		int trc = plot_timeline(st, argv[optind], workload, osync, metric, po.title, out);
		store_close(st);
		return trc < 0 ? OUT_USAGE : OUT_OK;
	}
	size_t n = (size_t)(argc - optind);
	struct curve *curves = xcalloc(n, sizeof(*curves));
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		int64_t id;
		struct curve *cs;
		size_t nc;
		if ((rc = store_resolve_run(st, argv[optind + (int)i], &id)) < 0 ||
		    (rc = curves_load_metric(st, id, metric, &cs, &nc)) < 0) {
			log_error("%s", store_error(st));
			break;
		}
		if (pick_curve(cs, nc, workload ? workload : (i ? curves[0].workload : NULL), i ? curves[0].osync : osync,
			       &curves[i]) < 0) {
			log_error("run %s has no %s points%s", argv[optind + (int)i], workload ? workload : "matching",
				  osync >= 0 ? (osync ? " with O_SYNC on" : " with O_SYNC off") : "");
			rc = -1;
		}
		curves_free(cs, nc);
	}
	store_close(st);
	po.y_label = metric->label;
	if (rc == 0 && strcmp(format, "svg") == 0) {
		FILE *f = fopen(out, "w");
		rc = f && plot_svg(f, curves, n, &po) == 0 ? 0 : -1;
		if (f && fclose(f) != 0)
			rc = -1;
		if (rc < 0)
			log_error("writing %s: %s", out, strerror(errno));
	} else if (rc == 0) {
		char *data = xasprintf("%s.dat", out), *script = xasprintf("%s.gp", out), *image = xasprintf("%s.svg", out);
		FILE *fd = fopen(data, "w"), *fs = fopen(script, "w");
		const char *base = strrchr(data, '/');
		rc = fd && fs && plot_gnuplot(fd, fs, base ? base + 1 : data, image, curves, n, &po) == 0 ? 0 : -1;
		if ((fd && fclose(fd) != 0) || (fs && fclose(fs) != 0))
			rc = -1;
		if (rc < 0)
			log_error("writing %s and %s: %s", data, script, strerror(errno));
		else
			printf("wrote %s and %s (run: gnuplot %s)\n", data, script, script);
		free(data);
		free(script);
		free(image);
	}
	for (size_t i = 0; i < n; i++)
		curve_free(&curves[i]);
	free(curves);
	return rc < 0 ? OUT_USAGE : OUT_OK;
}
