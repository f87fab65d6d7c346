/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim list`: the stored runs, newest first, filtered. */
#include "config.h"

#include "cmd/cmd.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

struct list_args {
	const char *db, *label, *suite, *workfile, *host, *status, *since;
	long long limit;
};

const struct cli_opt cmd_list_opts[] = {
	CLI_OPT_INT('n', "limit", "N", struct list_args, limit, 1, 1000000, NULL, "show at most the N newest runs"),
	CLI_OPT_STRING(0, "label", "LABEL", struct list_args, label, "only runs with this label",
		       .complete = CLI_COMPLETE_LABEL),
	CLI_OPT_STRING(0, "suite", "SUITE", struct list_args, suite, "only runs of this suite",
		       .complete = CLI_COMPLETE_SUITE),
	CLI_OPT_STRING(0, "workfile", "WORKFILE", struct list_args, workfile, "only runs with a workload of this workfile",
		       .complete = CLI_COMPLETE_WORKFILE),
	CLI_OPT_STRING(0, "host", "HOST", struct list_args, host, "only runs made on this host"),
	CLI_OPT_STRING(0, "status", "STATUS", struct list_args, status,
		       "only runs in this state: running, complete, failed or interrupted"),
	CLI_OPT_STRING(0, "since", "DATE", struct list_args, since, "only runs started at or after DATE (YYYY-MM-DD)"),
	CMD_OPT_DB(struct list_args),
	CLI_OPT_END,
};

enum outcome cmd_list(const struct command *self, int argc, char **argv)
{
	struct list_args a = {0};
	enum outcome out;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	struct store *st = cmd_open_store(a.db);
	if (!st)
		return OUT_FAILED;
	struct run_filter filter = {.label = a.label, .suite = a.suite, .workfile = a.workfile, .host = a.host,
				    .status = a.status, .since = a.since, .limit = (size_t)a.limit};
	int rc = report_list(stdout, st, &filter);
	if (rc < 0)
		log_error("%s", store_error(st));
	store_close(st);
	return rc < 0 ? OUT_FAILED : OUT_OK;
}
