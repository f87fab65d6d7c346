/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim plot`: curves of runs (or one run's system time series) as a picture file. */
#include "config.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "analysis/cmpmodel.h"
#include "report/plot.h"
#include "report/report.h"
#include "store/figures.h"
#include "store/store.h"
#include "util/util.h"

struct plot_args {
	const char *db, *format, *workload, *osync, *title, *output, *metric, *correction;
	double alpha;
	int diff, timeline, exclude_noisy;
	long long point;
	struct cli_list runs;
};

static const char *const format_choices[] = {"svg", "png", "gnuplot", NULL};
static const char *const osync_choices[] = {"on", "off", NULL};

const struct cli_opt cmd_plot_opts[] = {
	CLI_OPT_OPERANDS("GROUP", struct plot_args, runs, 1, -1,
			 "runs as compare takes them, the first GROUP the base: runs separated by commas, each an id, "
			 "last, last~N or a label (every run that has it); a group of several runs is one curve of "
			 "its run means. With --timeline, the first run's points",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_STRING('o', "output", "FILE", struct plot_args, output, "the file to write (.svg, .png)",
		       .flags = CLI_REQUIRED, .complete = CLI_COMPLETE_FILE),
	CLI_OPT_CHOICE(0, "format", "FORMAT", struct plot_args, format, cli_choices_from_names, NULL,
		       "svg, png (through rsvg-convert) or gnuplot (FILE.dat and FILE.gp); default from the name",
		       .data = format_choices),
	CLI_OPT_CHOICE(0, "metric", "NAME", struct plot_args, metric, cmd_metric_at, NULL,
		       "the figure to plot (default jobs_per_min; sys_pct with --timeline):"),
	CLI_OPT_FLAG(0, "diff", struct plot_args, diff,
		     "add a panel: each group's % difference from the first with its interval, as compare judges it"),
	CLI_OPT_DOUBLE(0, "alpha", "LEVEL", struct plot_args, alpha, 0, 0.5, "0.05",
		       "significance level of the difference panel (0.05: 95% intervals)",
		       .flags = CLI_ABOVE_MIN | CLI_BELOW_MAX),
	CMD_OPT_CORRECTION(struct plot_args),
	CLI_OPT_STRING(0, "workload", "NAME", struct plot_args, workload,
		       "the workload to draw (default: the first run's first)"),
	CLI_OPT_CHOICE(0, "osync", "on|off", struct plot_args, osync, cli_choices_from_names, NULL,
		       "the O_SYNC setting to draw (default: every setting the runs have)", .data = osync_choices),
	CLI_OPT_STRING(0, "title", "TEXT", struct plot_args, title, "the picture's title"),
	CLI_OPT_FLAG(0, "timeline", struct plot_args, timeline,
		     "a sampled figure against seconds into each point of the first run, a panel per task count"),
	CLI_OPT_INT(0, "point", "TASKS", struct plot_args, point, 1, INT_MAX, NULL,
		    "with --timeline: only the points of this task count"),
	CLI_OPT_FLAG(0, "exclude-noisy", struct plot_args, exclude_noisy,
		     "judge without the points measured in noise, as compare --exclude-noisy"),
	CMD_OPT_DB(struct plot_args),
	CLI_OPT_END,
};

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && strcmp(s + n - k, tail) == 0;
}

/* What the command line alone shows cannot be drawn: a usage error, before the database is read. */
static int request_ok(const struct plot_request *rq)
{
	if (rq->format && strcmp(rq->format, "svg") == 0 && ends_with(rq->out, ".png")) {
		log_error("%s: an SVG under a .png name would mislead; use --format png or a .svg name", rq->out);
		return 0;
	}
	if (rq->timeline && rq->format && strcmp(rq->format, "gnuplot") == 0) {
		log_error("--timeline draws SVG or PNG, not gnuplot");
		return 0;
	}
	const struct store_figure *fig = store_figure_find(&store_sample_table, rq->metric ? rq->metric : "sys_pct");
	if (rq->timeline && (!fig || !fig->plot)) {
		log_error("--timeline plots a sampled figure, not %s", rq->metric);
		return 0;
	}
	return 1;
}

enum outcome cmd_plot(const struct command *self, int argc, char **argv)
{
	struct plot_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	struct plot_request rq = {
		.alpha = a.alpha,
		.correction = strcmp(a.correction, "bh") == 0 ? COMPARE_BH : COMPARE_HOLM,
		.exclude_noisy = a.exclude_noisy,
		.workload = a.workload,
		.osync = a.osync ? strcmp(a.osync, "on") == 0 : -1,
		.metric = a.metric,
		.format = a.format,
		.out = a.output,
		.title = a.title,
		.diff = a.diff,
		.timeline = a.timeline || a.point,
		.point = (int)a.point,
	};
	if (!request_ok(&rq)) {
		cli_free(self->opts, &a);
		return OUT_USAGE;
	}
	struct store *st = cmd_open_store(a.db);
	struct compare_group *groups = xcalloc(a.runs.count, sizeof(*groups));
	if (!st)
		out = OUT_FAILED;
	else
		out = cmd_resolve_groups(st, &a.runs, groups, 1);
	rq.groups = groups;
	rq.ngroups = a.runs.count;
	char err[1024];
	if (out == OUT_OK && report_plot(st, &rq, err, sizeof(err)) < 0) {
		log_error("%s", err);
		out = OUT_FAILED;
	}
	cmd_groups_free(groups, a.runs.count);
	store_close(st);
	cli_free(self->opts, &a);
	return out;
}
