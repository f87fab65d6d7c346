/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim report RUN... -o FILE.html`: one self-contained page about stored runs. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "report/html.h"
#include "store/store.h"
#include "util/util.h"

struct report_args {
	const char *db, *output, *title;
	double alpha;
	struct cli_list runs;
};

const struct cli_opt cmd_report_opts[] = {
	CLI_OPT_OPERANDS("RUN", struct report_args, runs, 1, -1,
			 "runs by id, last, last~N or label; the first is the base; one run: its curves and "
			 "O_SYNC on against off",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_STRING('o', "output", "FILE.html", struct report_args, output, "the page to write",
		       .flags = CLI_REQUIRED, .complete = CLI_COMPLETE_FILE),
	CLI_OPT_STRING(0, "title", "TEXT", struct report_args, title, "the page's title"),
	CLI_OPT_DOUBLE(0, "alpha", "A", struct report_args, alpha, 0.001, 0.5, "0.05",
		       "significance level of the verdicts"),
	CMD_OPT_DB(struct report_args),
	CLI_OPT_END,
};

enum outcome cmd_report(const struct command *self, int argc, char **argv)
{
	struct report_args a = {.alpha = 0.05};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	struct html_options o = {.alpha = a.alpha, .title = a.title};
	size_t n = a.runs.count;
	int64_t *ids = xcalloc(n, sizeof(*ids));
	struct store *st = cmd_open_store(a.db);
	if (!st)
		out = OUT_FAILED;
	for (size_t i = 0; st && out == OUT_OK && i < n; i++)
		out = cmd_resolve_run(st, a.runs.v[i], &ids[i]);
	char err[1024];
	struct out_file of = {0};
	if (out == OUT_OK && out_file_open(&of, a.output, err, sizeof(err)) < 0) {
		log_error("%s", err);
		out = OUT_FAILED;
	}
	if (out == OUT_OK) {
		int rc = report_html(of.f, st, ids, n, &o, err, sizeof(err));
		/* a page that failed is dropped, whatever was at the path before stays */
		if (out_file_close(&of, rc == 0, rc == 0 ? err : NULL, rc == 0 ? sizeof(err) : 0) < 0 || rc < 0) {
			log_error("%s", err);
			out = OUT_FAILED;
		}
	}
	free(ids);
	store_close(st);
	cli_free(self->opts, &a);
	return out;
}
