/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim show`: one stored run as the run printed it, and more on request. */
#include "config.h"

#include "cmd/cmd.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

struct show_args {
	const char *db;
	int verbose, tests, samples, files, brief;
	struct cli_list run;
};

const struct cli_opt cmd_show_opts[] = {
	CLI_OPT_OPERANDS("RUN", struct show_args, run, 0, 1, "the run: its id, last, last~N or its label (default last)",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_FLAG('v', "verbose", struct show_args, verbose,
		     "more columns: Jobs/Min per task, JTI, spread of task times, user and system time"),
	CLI_OPT_FLAG(0, "brief", struct show_args, brief,
		     "the tables alone, to paste into mail: no heading, environment, hook lines or per-test tables"),
	CLI_OPT_FLAG(0, "tests", struct show_args, tests, "per-test job counts and latency percentiles"),
	CLI_OPT_FLAG(0, "samples", struct show_args, samples, "the system sampler's time series of every point"),
	CLI_OPT_FLAG(0, "files", struct show_args, files,
		     "the suite and workfiles as stored with the run (what `reaim rerun` runs again)"),
	CMD_OPT_DB(struct show_args),
	CLI_OPT_END,
};

enum outcome cmd_show(const struct command *self, int argc, char **argv)
{
	struct show_args a = {0};
	enum outcome out = OUT_OK;
	int64_t id;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	struct store *st = cmd_open_run(a.db, &a.run, &id, &out);
	const struct report_show_flags fl = {
		.verbose = a.verbose, .tests = a.tests, .samples = a.samples, .brief = a.brief};
	if (st && (report_show(stdout, st, id, &fl) < 0 ||
		   (a.files && report_show_files(stdout, st, id) < 0))) {
		log_error("%s", store_error(st));
		out = OUT_FAILED;
	}
	store_close(st);
	cli_free(self->opts, &a);
	return out;
}
