/* `reaim compare`: runs against the first, or one run's O_SYNC on against off. */
#include "config.h"

#include <stdlib.h>

#include "cli.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

struct compare_args {
	const char *db, *format;
	double alpha, fail_above;
	struct cli_list runs;
};

CLI_CHOICES_FROM(compare_format_at, report_compare_formats)

const struct cli_opt cmd_compare_opts[] = {
	CLI_OPT_OPERANDS("RUN", struct compare_args, runs, 1, -1,
			 "runs by id, last, last~N or label; the first is the base. One run: its O_SYNC on "
			 "against off (a run made with --osync both)",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_CHOICE(0, "format", "FORMAT", struct compare_args, format, compare_format_at, "table", "what to write:"),
	CLI_OPT_DOUBLE(0, "fail-above", "PCT", struct compare_args, fail_above, 0, 100, NULL,
		       "exit 4 when Jobs/Min drops by more than PCT percent at a task count, significantly "
		       "(or, where significance cannot be judged, at all): for git bisect run",
		       .flags = CLI_ABOVE_MIN),
	CLI_OPT_DOUBLE(0, "alpha", "LEVEL", struct compare_args, alpha, 0, 0.5, "0.05",
		       "significance level of Welch's t-test (0.05: 95% confidence)",
		       .flags = CLI_ABOVE_MIN | CLI_BELOW_MAX),
	CMD_OPT_DB(struct compare_args),
	CLI_OPT_END,
};

enum outcome cmd_compare(const struct command *self, int argc, char **argv)
{
	struct compare_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	struct compare_options o = {.format = a.format, .alpha = a.alpha, .fail_above_pct = a.fail_above};
	size_t n = a.runs.count;
	int64_t *ids = xcalloc(n, sizeof(*ids));
	int regressed = 0;
	struct store *st = cmd_open_store(a.db);
	if (!st)
		out = OUT_FAILED;
	for (size_t i = 0; st && i < n && out == OUT_OK; i++)
		if (cmd_resolve_run(st, a.runs.v[i], &ids[i]) < 0)
			out = OUT_USAGE;
	if (out == OUT_OK) {
		int rc = n == 1 ? report_osync_ratio(stdout, st, ids[0]) : report_compare(stdout, st, ids, n, &o, &regressed);
		if (rc < 0) {
			log_error("%s", store_error(st));
			out = OUT_FAILED;
		}
	}
	free(ids);
	store_close(st);
	cli_free(self->opts, &a);
	if (out == OUT_OK && regressed) {
		log_error("a regression beyond %.1f%% was found", o.fail_above_pct);
		return OUT_REGRESSION;
	}
	return out;
}
