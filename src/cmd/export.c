/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim export`: one stored run in a format other tools read (the table in report/export.c). */
#include "config.h"

#include "cmd/cmd.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

struct export_args {
	const char *db, *format;
	struct cli_list run;
};

CLI_CHOICES_FROM(export_format_at, report_export_formats)

const struct cli_opt cmd_export_opts[] = {
	CLI_OPT_OPERANDS("RUN", struct export_args, run, 0, 1, "the run: its id, last, last~N or its label (default last)",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_CHOICE(0, "format", "FORMAT", struct export_args, format, export_format_at, "csv", "what to write:"),
	CMD_OPT_DB(struct export_args),
	CLI_OPT_END,
};

enum outcome cmd_export(const struct command *self, int argc, char **argv)
{
	struct export_args a = {0};
	enum outcome out = OUT_OK;
	int64_t id;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	struct store *st = cmd_open_run(a.db, &a.run, &id, &out);
	if (st && report_export(stdout, st, id, a.format) < 0) {
		log_error("%s", store_error(st));
		out = OUT_FAILED;
	}
	store_close(st);
	cli_free(self->opts, &a);
	return out;
}
