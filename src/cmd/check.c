/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim check`: parse suites and workfiles without running anything. */
#include "config.h"

#include <string.h>

#include "cmd/cmd.h"
#include "config/cfg.h"

struct check_args {
	struct cli_list files;
};

const struct cli_opt cmd_check_opts[] = {
	CLI_OPT_OPERANDS("FILE", struct check_args, files, 1, -1,
			 "a suite (NAME.cfg) or a workfile; every problem is reported as file:line",
			 .complete = CLI_COMPLETE_FILE),
	CLI_OPT_END,
};

static int is_suite(const char *path)
{
	size_t n = strlen(path);
	return n > 4 && strcmp(path + n - 4, ".cfg") == 0;
}

enum outcome cmd_check(const struct command *self, int argc, char **argv)
{
	struct check_args a = {0};
	enum outcome out;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	int bad = 0;
	for (size_t i = 0; i < a.files.count; i++) {
		const char *file = a.files.v[i];
		struct errlist errs = {0};
		struct workfile wf;
		int rc = is_suite(file) ? suite_check(file, &errs) : workfile_load(file, NULL, 0, &wf, &errs);
		if (!is_suite(file)) {
			if (rc == 0)
				workfile_note(&wf);
			workfile_free(&wf);
		}
		if (rc < 0) {
			errlist_print(&errs);
			bad = 1;
		} else {
			printf("%s: ok\n", file);
		}
		errlist_free(&errs);
	}
	cli_free(self->opts, &a);
	return bad ? OUT_USAGE : OUT_OK;
}
