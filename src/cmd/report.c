/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim report GROUP... -o FILE.html`: one self-contained page about stored runs, judged as compare judges them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "analysis/cmpmodel.h"
#include "report/html.h"
#include "store/store.h"
#include "util/util.h"

struct report_args {
	const char *db, *output, *title, *correction, *metric;
	double alpha;
	struct cli_list runs, stats;
	int exclude_noisy, per_run;
};

const struct cli_opt cmd_report_opts[] = {
	CLI_OPT_OPERANDS("GROUP", struct report_args, runs, 1, -1,
			 "runs as compare takes them, the first GROUP the base: runs separated by commas, each an id, "
			 "last, last~N or a label (every run that has it). One run alone: its variants, else its "
			 "O_SYNC off against on",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_STRING('o', "output", "FILE.html", struct report_args, output, "the page to write",
		       .flags = CLI_REQUIRED, .complete = CLI_COMPLETE_FILE),
	CLI_OPT_STRING(0, "title", "TEXT", struct report_args, title, "the page's title"),
	CLI_OPT_DOUBLE(0, "alpha", "A", struct report_args, alpha, 0.001, 0.5, "0.05",
		       "significance level of the verdicts, after the correction"),
	CMD_OPT_CORRECTION(struct report_args),
	CLI_OPT_CHOICE(0, "metric", "NAME", struct report_args, metric, cmd_metric_at, "jobs_per_min",
		       "the figure the verdicts, tables and plots judge, as compare --metric judges it (the page "
		       "names it):"),
	CLI_OPT_LIST(0, "stat", "NAME", struct report_args, stats,
		     "what the tables' cells show of each side's samples, as compare --stat shows it; repeat it for "
		     "a row per statistic. The change, its interval and the verdict stay those of the means:",
		     .choices = cmd_stat_at),
	CLI_OPT_FLAG(0, "runs", struct report_args, per_run,
		     "under each task count a row per run of each side, as compare --runs: its id and label and "
		     "its own figure"),
	CLI_OPT_FLAG(0, "exclude-noisy", struct report_args, exclude_noisy,
		     "judge without the points measured in noise, as compare --exclude-noisy"),
	CMD_OPT_DB(struct report_args),
	CLI_OPT_END,
};

enum outcome cmd_report(const struct command *self, int argc, char **argv)
{
	struct report_args a = {.alpha = 0.05};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	if (cmd_stats_check(&a.stats) < 0) {
		cli_free(self->opts, &a);
		return OUT_USAGE;
	}
	int stats[COMPARE_NSTATS];
	struct html_options o = {.alpha = a.alpha, .title = a.title,
				 .correction = strcmp(a.correction, "bh") == 0 ? COMPARE_BH : COMPARE_HOLM,
				 .exclude_noisy = a.exclude_noisy, .metric = a.metric, .stats = stats,
				 .nstats = cmd_stats_of(&a.stats, stats), .runs = a.per_run};
	size_t n = a.runs.count;
	struct compare_group *groups = xcalloc(n, sizeof(*groups));
	struct store *st = cmd_open_store(a.db);
	if (!st)
		out = OUT_FAILED;
	else
		out = cmd_resolve_groups(st, &a.runs, groups, 1);
	char err[1024];
	struct out_file of = {0};
	if (out == OUT_OK && out_file_open(&of, a.output, err, sizeof(err)) < 0) {
		log_error("%s", err);
		out = OUT_FAILED;
	}
	if (out == OUT_OK) {
		int rc = report_html(of.f, st, groups, n, &o, err, sizeof(err));
		/* a page that failed is dropped, whatever was at the path before stays */
		if (out_file_close(&of, rc == 0, rc == 0 ? err : NULL, rc == 0 ? sizeof(err) : 0) < 0 || rc < 0) {
			log_error("%s", err);
			out = OUT_FAILED;
		}
	}
	cmd_groups_free(groups, n);
	store_close(st);
	cli_free(self->opts, &a);
	return out;
}
