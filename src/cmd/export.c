/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim export`: one stored run in a format other tools read (the table in report/export.c). */
#include "config.h"

#include <string.h>

#include "cmd/cmd.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

struct export_args {
	const char *db, *format;
	struct cli_list run;
	struct report_export_opts ids;
};

CLI_CHOICES_FROM(export_format_at, report_export_formats)

const struct cli_opt cmd_export_opts[] = {
	CLI_OPT_OPERANDS("RUN", struct export_args, run, 0, 1, "the run: its id, last, last~N or its label (default last)",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_CHOICE(0, "format", "FORMAT", struct export_args, format, export_format_at, "csv", "what to write:"),
	CMD_OPT_DB(struct export_args),
	CLI_OPT_STRING(0, "origin", "NAME", struct export_args, ids.origin,
		       "kcidb: the submitting CI system, [a-z0-9_]+ (default reaim)"),
	CLI_OPT_STRING(0, "checkout-id", "ID", struct export_args, ids.checkout_id,
		       "kcidb: the checkout's id, ORIGIN:... (default ORIGIN:KERNEL_RELEASE, the run's kernel)"),
	CLI_OPT_STRING(0, "build-id", "ID", struct export_args, ids.build_id,
		       "kcidb: the build's id, ORIGIN:... (default the checkout's id)"),
	CLI_OPT_END,
};

enum outcome cmd_export(const struct command *self, int argc, char **argv)
{
	struct export_args a = {0};
	enum outcome out = OUT_OK;
	int64_t id;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	/* KCIDB refuses a submission whose origin or ids are not of its form: say so here */
	const char *origin = a.ids.origin ? a.ids.origin : "reaim";
	const char *bad = a.ids.origin && !report_kcidb_origin_ok(a.ids.origin)                   ? "--origin"
			  : a.ids.checkout_id && !report_kcidb_id_ok(a.ids.checkout_id, a.ids.origin) ? "--checkout-id"
			  : a.ids.build_id && !report_kcidb_id_ok(a.ids.build_id, a.ids.origin)       ? "--build-id"
												      : NULL;
	if (bad && strcmp(bad, "--origin") == 0) {
		log_error("--origin %s: KCIDB takes an origin of lower-case letters, digits and '_'", a.ids.origin);
	} else if (bad) {
		log_error("%s %s: KCIDB takes an id of the form ORIGIN:TEXT, with the export's origin: %s:...", bad,
			  strcmp(bad, "--build-id") == 0 ? a.ids.build_id : a.ids.checkout_id, origin);
	}
	if (bad) {
		cli_free(self->opts, &a);
		return OUT_USAGE;
	}
	struct store *st = cmd_open_run(a.db, &a.run, &id, &out);
	char err[512];
	int rc = st ? report_export(stdout, st, id, a.format, &a.ids, err, sizeof(err)) : 0;
	if (rc != 0) { /* rc 1: written, but of a run that did not complete, which is never a pass */
		log_error("%s", err);
		out = OUT_FAILED;
	}
	store_close(st);
	cli_free(self->opts, &a);
	return out;
}
