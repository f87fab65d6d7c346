/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim list`: the stored runs, newest first, filtered. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

struct list_args {
	const char *db, *label, *suite, *workfile, *host, *status, *since;
	long long limit;
	int modes;
};

static const char *const statuses[] = {"running", "complete", "failed", "interrupted", NULL};

/* Digits where fmt has 'd', fmt's other characters as they are. */
static int shaped(const char *s, const char *fmt)
{
	for (; *fmt; s++, fmt++)
		if (*fmt == 'd' ? !isdigit((unsigned char)*s) : *s != *fmt)
			return 0;
	return *s == '\0';
}

/* --since: a date as runs are stored (YYYY-MM-DD, or with THH:MM[:SS][Z]), since it is compared
 * as text with their start; anything else would match all runs or none, silently. */
static int set_since(void *args, const struct cli_opt *o, const char *value, char *err, size_t len)
{
	(void)o;
	static const char *const shapes[] = {"dddd-dd-dd", "dddd-dd-ddTdd:dd", "dddd-dd-ddTdd:dd:dd",
					     "dddd-dd-ddTdd:ddZ", "dddd-dd-ddTdd:dd:ddZ"};
	struct tm tm = {0};
	int fits = 0;
	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++)
		fits |= shaped(value, shapes[i]);
	const char *end = fits ? strptime(value, "%Y-%m-%d", &tm) : NULL;
	int y, m, d;
	if (end && sscanf(value, "%4d-%2d-%2d", &y, &m, &d) == 3) {
		struct tm back = tm;
		time_t t = timegm(&back); /* normalises 02-31 to 03-03: then it was no date */
		fits = t != (time_t)-1 && back.tm_mday == d && back.tm_mon == m - 1;
	} else {
		fits = 0;
	}
	if (!fits) {
		char *shown = text_escape(value);
		snprintf(err, len, "--since %s: not a date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS])", shown);
		free(shown);
		return -1;
	}
	((struct list_args *)args)->since = value;
	return 0;
}

const struct cli_opt cmd_list_opts[] = {
	CLI_OPT_INT('n', "limit", "N", struct list_args, limit, 1, 1000000, NULL, "show at most the N newest runs"),
	CLI_OPT_STRING(0, "label", "LABEL", struct list_args, label, "only runs with this label",
		       .complete = CLI_COMPLETE_LABEL),
	CLI_OPT_STRING(0, "suite", "SUITE", struct list_args, suite, "only runs of this suite",
		       .complete = CLI_COMPLETE_SUITE),
	CLI_OPT_STRING(0, "workfile", "WORKFILE", struct list_args, workfile, "only runs with a workload of this workfile",
		       .complete = CLI_COMPLETE_WORKFILE),
	CLI_OPT_STRING(0, "host", "HOST", struct list_args, host, "only runs made on this host"),
	CLI_OPT_CHOICE(0, "status", "STATUS", struct list_args, status, cli_choices_from_names, NULL,
		       "only runs in this state: running, complete, failed or interrupted", .data = statuses),
	{.name = "since", .type = CLI_CALLBACK, .arg = "DATE", .set = set_since,
	 .help = "only runs started at or after DATE (YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS], UTC)"},
	CLI_OPT_FLAG(0, "modes", struct list_args, modes,
		     "a row per label, workload and variant, each mode's best Jobs/Min side by side (sweep, "
		     "crossover, peak: Peak Load, quick: Quick Convergence, as OSDL's STP listed kernels and I/O "
		     "schedulers) with the runs' ids"),
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
	int rc = (a.modes ? report_list_modes : report_list)(stdout, st, &filter);
	if (rc < 0)
		log_error("%s", store_error(st));
	store_close(st);
	return rc < 0 ? OUT_FAILED : OUT_OK;
}
