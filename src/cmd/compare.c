/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim compare`: groups of runs against the first group, or one run's variants (or O_SYNC
 * settings) against its first. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "analysis/cmpmodel.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

struct compare_args {
	const char *db, *format, *correction;
	double alpha, fail_above;
	int counters, bisect, exclude_noisy, wide, ratio, invert, per_run, summary, long_view, verbose;
	struct cli_list runs, stats, metrics;
};

CLI_CHOICES_FROM(compare_format_at, report_compare_formats)

const struct cli_opt cmd_compare_opts[] = {
	CLI_OPT_OPERANDS("GROUP", struct compare_args, runs, 1, -1,
			 "runs to compare, the first GROUP the base. A GROUP is runs separated by commas "
			 "(6.1-a,6.1-b,6.1-c), each an id, last, last~N or a label; here a label stands for every "
			 "run that has it (elsewhere for the newest), LABEL:NAME for those of a suite or workload "
			 "NAME, LABEL:KEY=VALUE for those whose suite, workload, mode or host is VALUE (6.1:dbase, "
			 "6.1:mode=quick, 6.1:dbase:mode=sweep). A group of runs of different suites or modes is "
			 "refused, naming them. With 2 or more runs a side each run's mean is "
			 "one sample; with one run a side its repeats are, with a caution. One run alone: its "
			 "variants (--variant), else its O_SYNC off against on (--osync both), paired round by round",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_CHOICE(0, "format", "FORMAT", struct compare_args, format, compare_format_at, "table", "what to write:"),
	CLI_OPT_DOUBLE(0, "fail-above", "PCT", struct compare_args, fail_above, 0, 100, NULL,
		       "a gate: exit 4 when Jobs/Min (the --metric) worsens by more than PCT percent at a task count, significantly "
		       "after the correction and not confounded with the outside load; exit 0 only when every "
		       "interval rules out a drop beyond PCT (every cell judged, none confounded); else exit 5, "
		       "saying why it cannot vouch: nothing in common, unlike runs, fewer than 2 samples a side, a "
		       "change the machine's load could make, or an interval (MDE) wider than PCT",
		       .flags = CLI_ABOVE_MIN),
	CLI_OPT_LIST(0, "metric", "NAME", struct compare_args, metrics,
		     "the figure each cell judges (Jobs/Min without it), by the same tests, intervals, correction "
		     "and gate; a rise of a time, CPU or share is worse (\"slower\"), a drop of Jobs/Min, JTI, idle "
		     "or KB/s is. Repeated (--metric jobs_per_min --metric real_s --metric window_cpu_s), the table "
		     "and Markdown judge each in turn, one after the other, as the AIM7 tables list Jobs/Min, Real and "
		     "CPU (one a command with a gate, --counters, CSV or JSON):",
		     .choices = cmd_metric_at),
	CLI_OPT_FLAG(0, "exclude-noisy", struct compare_args, exclude_noisy,
		     "judge without the points measured in noise (outside load or steal over the run's limit); "
		     "without it a cell with such points carries a caution"),
	CLI_OPT_FLAG(0, "bisect", struct compare_args, bisect,
		     "exit as git bisect run and ktest.pl read it: 0 good (every interval rules out a drop beyond "
		     "--fail-above, or 5% without it), 1 bad (a significant drop, beyond --fail-above when given, "
		     "never on one sample a side, never one the outside load could make), 125 skip (the side under "
		     "test measured nothing in common with the base), 128 stops the bisection (it could not judge or "
		     "vouch: a step it could not see a drop at is no good step; or the command itself failed)"),
	CLI_OPT_DOUBLE(0, "alpha", "LEVEL", struct compare_args, alpha, 0, 0.5, "0.05",
		       "significance level of the tests, after the correction (0.05: 95% confidence)",
		       .flags = CLI_ABOVE_MIN | CLI_BELOW_MAX),
	CMD_OPT_CORRECTION(struct compare_args),
	CLI_OPT_FLAG(0, "counters", struct compare_args, counters,
		     "in place of the cells, the kernel's counters that moved with Jobs/Min: per counter and task "
		     "count, per job, both sides' means, the % change with its interval and adjusted p, by the same "
		     "tests as Jobs/Min; with them the sampler's shares of the machine, the point cgroup's "
		     "pressure, its disk bytes and the tasks' CPU per job; only the significant ones, those moving "
		     "against Jobs/Min first"),
	CLI_OPT_FLAG(0, "wide", struct compare_args, wide,
		     "one table, as mmtests and LKP print many kernels: a column per group (its label and run "
		     "count), a row per workload, O_SYNC setting and task count, each cell the mean Jobs/Min "
		     "with its change against the base and the same * and ? as the blocks; Amean, Hmean and "
		     "Gmean rows under each workload (over two or more task counts), a Peak row (each group's best "
		     "against the base's) and a geomean per group over every cell; text within 80 "
		     "columns for three groups, wrapped by groups beyond; every --format"),
	CLI_OPT_FLAG(0, "ratio", struct compare_args, ratio,
		     "B/A (contest's Ratio, \"x times\") in place of the % change, and its interval from the same "
		     "Fieller interval (1 + change / 100); every summary a ratio too"),
	CLI_OPT_FLAG(0, "invert", struct compare_args, invert,
		     "with --ratio: A/B, the base's mean over the side's, as a post says \"8x faster\" of a time an "
		     "eighth of the base's (or of Jobs/Min the other way round)"),
	CLI_OPT_FLAG(0, "long", struct compare_args, long_view,
		     "several figures side by side, as AIM7's and contest's posts list kernels: a table per workload "
		     "(and load), a row per side within each task count, a column per --metric (the first with each "
		     "--stat), each mean's change against the base with its mark beside it (under it where the row "
		     "would pass 80 columns), Loads, LCPU% and contest's Ratio where a load ran; the cautions once; "
		     "a gate judges the first --metric; text, or Markdown as a code block"),
	CLI_OPT_LIST(0, "stat", "NAME", struct compare_args, stats,
		     "what a cell shows of each side's samples, instead of their mean; repeat it for a row per "
		     "statistic (--stat min --stat mean --stat max --stat sd). The change, its interval and the "
		     "verdict stay those of the means, the model's; CSV and JSON carry every statistic:",
		     .choices = cmd_stat_at),
	CLI_OPT_FLAG(0, "runs", struct compare_args, per_run,
		     "under each task count a row per run of each side: its id and label and its own figure, the "
		     "mean over its valid points there (with several runs a side, its sample)"),
	CLI_OPT_FLAG(0, "summary", struct compare_args, summary,
		     "one line per workload, O_SYNC setting and task count: each side's change against the base "
		     "with the model's mark, then the TOTAL over the cells every side has (of a figure that adds up: "
		     "times, bytes, a disk's bandwidth), for a long matrix; with --runs each case run by run under it"),
	CLI_OPT_FLAG('v', "verbose", struct compare_args, verbose,
		     "before the tables, what every column, mark and row means (the test, the correction, the "
		     "outside load's model, MDE, CPU); without it a few lines, the tables first"),
	CMD_OPT_DB(struct compare_args),
	CLI_OPT_END,
};

/* The exit a gate's outcome maps to (--fail-above's 0, 4, 5; --bisect's 0, 1, 125, 128), said in one
 * last line after everything written to stdout: the decision and why. A bisect step that could not
 * have seen a drop stops the bisection (128): skipping it would only move to a neighbour just as
 * blind; 125 (skip) is for a step whose side under test measured nothing in common with the base. */
static enum outcome gate_outcome(const struct compare_args *a, const struct compare_result *r)
{
	enum outcome out = OUT_OK;
	const char *word = "good";
	switch (r->gate) {
	case COMPARE_GATE_FAIL:
		out = a->bisect ? OUT_BISECT_BAD : OUT_REGRESSION;
		word = a->bisect ? "bad" : "regression";
		break;
	case COMPARE_GATE_UNJUDGED:
		out = !a->bisect ? OUT_UNJUDGED : r->nothing ? OUT_BISECT_SKIP : OUT_BISECT_ABORT;
		word = a->bisect ? (r->nothing ? "skip" : "stop the bisection")
		       : r->judged ? "cannot vouch" : "could not judge";
		break;
	case COMPARE_GATE_PASS:
		break;
	}
	fflush(stdout); /* the decision comes last, after the tables, where both streams go to one file */
	const char *why = r->decision[0] ? r->decision : r->why;
	if (r->gate == COMPARE_GATE_PASS)
		log_info("%s: %s (exit %d): %s", a->bisect ? "bisect" : "gate", word, (int)out, why);
	else
		log_error("%s: %s (exit %d): %s", a->bisect ? "bisect" : "gate", word, (int)out, why);
	return out;
}

/* A group pools runs of one suite and mode only: sweep, peak and quick points, or dbase and fserver,
 * are no replicates of each other. OUT_USAGE naming the runs that differ, with the way to choose. */
static enum outcome one_kind_a_group(struct store *st, const struct cli_list *specs, const struct compare_group *g,
				     size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct store_run_row first, r;
		for (size_t k = 0; k < g[i].n; k++) {
			if (store_get_run(st, g[i].runs[k], k ? &r : &first) < 0) {
				log_error("%s", store_error(st));
				return OUT_FAILED;
			}
			if (k == 0 || (strcmp(r.suite, first.suite) == 0 && strcmp(r.mode, first.mode) == 0))
				continue;
			char a[256], b[256], suite[64];
			text_copy(a, sizeof(a), specs->v[i]);
			text_copy(suite, sizeof(suite), first.suite);
			text_copy(b, sizeof(b), r.suite);
			log_error("'%s' pools runs of different suites or modes: run %lld (%s, %s) and run %lld (%s, %s); "
				  "choose one with LABEL:SUITE, LABEL:workload=NAME or LABEL:mode=MODE, e.g. %s:%s",
				  a, (long long)first.id, suite, first.mode, (long long)r.id, b, r.mode,
				  strchr(a, ':') ? "LABEL" : a, suite);
			return OUT_USAGE;
		}
	}
	return OUT_OK;
}

/* "mean, median, min, ..." of a NULL-terminated list of names; freed by the caller. */
static char *names_text(const char *const *names, size_t n)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", names[i]);
	return sb.buf ? sb.buf : xstrdup("");
}

static char *self_metric_names(void)
{
	size_t n = 0;
	while (metric_list()[n].name)
		n++;
	const char **names = xcalloc(n + 1, sizeof(*names));
	for (size_t i = 0; i < n; i++)
		names[i] = metric_list()[i].name;
	char *s = names_text(names, n);
	free(names);
	return s;
}

/* A value a list option does not take, with the ones it does (all: freed here). */
static void unknown_value(const char *option, const char *value, char *all)
{
	char shown[128];
	text_copy(shown, sizeof(shown), value);
	log_error("%s %s: not one of %s", option, shown, all);
	free(all);
}

/* Options that cannot go together: OUT_USAGE (--bisect's abort under --bisect) with why, else OUT_OK. */
static enum outcome refused(const struct compare_args *a)
{
	enum outcome usage = a->bisect ? OUT_BISECT_ABORT : OUT_USAGE; /* a usage error is no "bad" commit */
	if (a->counters + a->wide + a->summary + a->long_view > 1) {
		log_error("--counters, --wide, --long and --summary are views of their own: give one");
		return usage;
	}
	if (a->counters && (a->fail_above > 0 || a->bisect)) {
		/* the counters are not the verdict: a gate over them would pass what it never judged */
		log_error("--counters lists what moved beside Jobs/Min and judges no regression: --fail-above and "
			  "--bisect go without it");
		return usage;
	}
	if (cmd_stats_check(&a->stats) < 0)
		return usage;
	for (size_t i = 0; i < a->metrics.count; i++)
		if (!metric_find(a->metrics.v[i])) {
			unknown_value("--metric", a->metrics.v[i], self_metric_names());
			return usage;
		}
	int data = a->format && (strcmp(a->format, "csv") == 0 || strcmp(a->format, "json") == 0);
	if (a->invert && !a->ratio) {
		log_error("--invert turns --ratio's B/A into A/B: give --ratio with it");
		return usage;
	}
	if (a->long_view && a->per_run) {
		log_error("--runs lists each run under its side's figure in compare's blocks, --wide and --summary: "
			  "--long has a column per figure, not per run");
		return usage;
	}
	if (a->long_view && data) {
		/* one document a figure: compare --format csv|json --metric NAME carries every figure of it */
		log_error("--long lays several figures out as text or Markdown: with --format %s give one --metric a "
			  "command, without --long", a->format);
		return usage;
	}
	if (a->metrics.count > 1 && !a->long_view && (data || a->counters || a->fail_above > 0 || a->bisect)) {
		/* one CSV or JSON document, one gate: of one metric */
		log_error("several --metric are judged in turn by the table and Markdown only: with %s give one "
			  "--metric a command", data ? "--format csv or json" : a->counters ? "--counters" : "a gate");
		return usage;
	}
	return OUT_OK;
}

/* Whether Jobs/Min and Real, one the other's reciprocal, are both judged in turn. */
static int both_reciprocals(const struct cli_list *metrics)
{
	int jpm = 0, real = 0;
	for (size_t i = 0; i < metrics->count; i++) {
		jpm |= strcmp(metrics->v[i], "jobs_per_min") == 0;
		real |= strcmp(metrics->v[i], "real_s") == 0;
	}
	return jpm && real;
}

/* Before each metric's view when several are judged in turn: what it judges. */
static void metric_heading(const struct compare_options *o, const char *name, size_t i)
{
	const struct metric *m = metric_find(name);
	int markdown = o->format && strcmp(o->format, "markdown") == 0;
	printf("%s%s%s: %s%s\n\n", i ? "\n" : "", markdown ? "## Metric " : "==== Metric ", name, m ? m->label : name,
	       markdown ? "" : " ====");
}

enum outcome cmd_compare(const struct command *self, int argc, char **argv)
{
	struct compare_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	int stats[COMPARE_NSTATS];
	size_t nstats = cmd_stats_of(&a.stats, stats);
	if ((out = refused(&a)) != OUT_OK) {
		cli_free(self->opts, &a);
		return out;
	}
	struct compare_options o = {.format = a.format, .alpha = a.alpha, .fail_above_pct = a.fail_above,
				    .bisect = a.bisect, .exclude_noisy = a.exclude_noisy, .wide = a.wide,
				    .ratio = a.invert ? COMPARE_RATIO_INVERTED : a.ratio ? COMPARE_RATIO_BA : COMPARE_RATIO_OFF,
				    .metric = a.metrics.count ? a.metrics.v[0] : NULL, .stats = stats, .nstats = nstats, .runs = a.per_run,
				    .summary = a.summary, .metrics = (const char *const *)a.metrics.v,
				    .nmetrics = a.metrics.count, .verbose = a.verbose,
				    .correction = strcmp(a.correction, "bh") == 0 ? COMPARE_BH : COMPARE_HOLM};
	size_t n = a.runs.count;
	struct compare_group *groups = xcalloc(n, sizeof(*groups));
	struct compare_result res = {0};
	struct store *st = cmd_open_store(a.db);
	if (!st)
		out = OUT_FAILED;
	else
		out = cmd_resolve_groups(st, &a.runs, groups, 0);
	if (out == OUT_OK)
		out = one_kind_a_group(st, &a.runs, groups, n);
	if (out == OUT_OK && a.long_view &&
	    report_compare_long(stdout, st, groups, n, &o, &res) < 0) {
		log_error("%s", store_error(st));
		out = OUT_FAILED;
	}
	for (size_t i = 0; out == OUT_OK && !a.long_view && i < (a.metrics.count ? a.metrics.count : 1); i++) {
		if (a.metrics.count > 1)
			metric_heading(&o, a.metrics.v[i], i);
		o.metric = a.metrics.count ? a.metrics.v[i] : NULL;
		if ((a.counters ? report_compare_counters(stdout, st, groups, n, &o)
				: report_compare(stdout, st, groups, n, &o, &res)) < 0) {
			log_error("%s", store_error(st));
			out = OUT_FAILED;
		}
	}
	if (out == OUT_OK && !a.long_view && !a.counters && both_reciprocals(&a.metrics) &&
	    report_compare_reciprocals(stdout, st, groups, n, &o) < 0) {
		log_error("%s", store_error(st));
		out = OUT_FAILED;
	}
	cmd_groups_free(groups, n);
	store_close(st);
	cli_free(self->opts, &a);
	if (out != OUT_OK)
		return a.bisect ? OUT_BISECT_ABORT : out; /* a usage error is no "bad" commit */
	if (a.fail_above > 0 || a.bisect)
		return gate_outcome(&a, &res);
	if (res.nothing) {
		log_error("could not judge: %s", res.why);
		return OUT_UNJUDGED;
	}
	return OUT_OK;
}
