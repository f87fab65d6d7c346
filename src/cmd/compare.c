/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim compare`: groups of runs against the first group, or one run's variants (or O_SYNC
 * settings) against its first. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "analysis/compare.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

struct compare_args {
	const char *db, *format, *correction;
	double alpha, fail_above;
	int counters;
	struct cli_list runs;
};

CLI_CHOICES_FROM(compare_format_at, report_compare_formats)

const struct cli_opt cmd_compare_opts[] = {
	CLI_OPT_OPERANDS("GROUP", struct compare_args, runs, 1, -1,
			 "runs to compare, the first GROUP the base. A GROUP is runs separated by commas "
			 "(6.1-a,6.1-b,6.1-c), each an id, last, last~N or a label; here a label stands for every "
			 "run that has it (elsewhere for the newest). With 2 or more runs a side each run's mean is "
			 "one sample; with one run a side its repeats are, with a caution. One run alone: its "
			 "variants (--variant), else its O_SYNC off against on (--osync both), paired round by round",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_CHOICE(0, "format", "FORMAT", struct compare_args, format, compare_format_at, "table", "what to write:"),
	CLI_OPT_DOUBLE(0, "fail-above", "PCT", struct compare_args, fail_above, 0, 100, NULL,
		       "exit 4 when Jobs/Min drops by more than PCT percent at a task count, significantly after "
		       "the correction (or, where significance cannot be judged, at all): for git bisect run",
		       .flags = CLI_ABOVE_MIN),
	CLI_OPT_DOUBLE(0, "alpha", "LEVEL", struct compare_args, alpha, 0, 0.5, "0.05",
		       "significance level of the tests, after the correction (0.05: 95% confidence)",
		       .flags = CLI_ABOVE_MIN | CLI_BELOW_MAX),
	CLI_OPT_CHOICE(0, "correction", "METHOD", struct compare_args, correction, cmd_correction_at, "holm",
		       "how p values are adjusted for the number of cells compared:"),
	CLI_OPT_FLAG(0, "counters", struct compare_args, counters,
		     "in place of the cells, the kernel's counters that moved with Jobs/Min: per counter and task "
		     "count, per job, both sides' means, the % change with its interval and adjusted p, by the same "
		     "tests as Jobs/Min; only the significant ones, those moving against Jobs/Min first"),
	CMD_OPT_DB(struct compare_args),
	CLI_OPT_END,
};

enum outcome cmd_compare(const struct command *self, int argc, char **argv)
{
	struct compare_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	struct compare_options o = {.format = a.format, .alpha = a.alpha, .fail_above_pct = a.fail_above,
				    .correction = strcmp(a.correction, "bh") == 0 ? COMPARE_BH : COMPARE_HOLM};
	size_t n = a.runs.count;
	struct compare_group *groups = xcalloc(n, sizeof(*groups));
	int regressed = 0;
	struct store *st = cmd_open_store(a.db);
	if (!st)
		out = OUT_FAILED;
	else
		out = cmd_resolve_groups(st, &a.runs, groups, 0);
	if (out == OUT_OK && (a.counters ? report_compare_counters(stdout, st, groups, n, &o)
					 : report_compare(stdout, st, groups, n, &o, &regressed)) < 0) {
		log_error("%s", store_error(st));
		out = OUT_FAILED;
	}
	cmd_groups_free(groups, n);
	store_close(st);
	cli_free(self->opts, &a);
	if (out == OUT_OK && regressed) {
		log_error("a regression beyond %.1f%% was found", o.fail_above_pct);
		return OUT_REGRESSION;
	}
	return out;
}
