/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reaim: signals, the classic command line or a command from the table, and the exit code. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "config/classic.h"
#include "store/store.h"
#include "util/util.h"

/* The exit code of a command's outcome, once its output is flushed: a write error fails it. */
static int exit_code(enum outcome out)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "reaim: error writing output: %s\n", strerror(errno));
		return out == OUT_OK ? OUT_FAILED : (int)out;
	}
	return (int)out;
}

int main(int argc, char **argv)
{
	/* a closed stdout or a file-size limit must be errors we report, not signals that kill
	 * the run midway and leave its tasks, scratch and database behind */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	const struct command *cmd = &cmd_table.rows[0];
	int shift = 0;
	if (store_harness_default() < 0)
		fprintf(stderr, "reaim: warning: cannot set REAIM_DB for the harness's results directory: %s\n",
			strerror(errno));
	/* called as AIM's multitask or singleuser (LKP's aim7 and aim9 run those) */
	enum outcome (*personality)(const struct command *, int, char **) = argc > 0 ? cmd_personality(argv[0])
											     : NULL;
	if (personality)
		return exit_code(personality(cmd_find(&cmd_table, "run"), argc, argv));
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("reaim %s\n", PACKAGE_VERSION);
		return OUT_OK;
	}
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		cmd_usage(stdout, &cmd_table);
		return fflush(stdout) == 0 ? OUT_OK : OUT_FAILED;
	}
	/* classic re-aim's command line (LKP, mmtests, autotest issue it) */
	char why[320];
	enum classic_verdict v = argc > 1 && argv[1][0] == '-' ? classic_cli_detect(argc, argv, why, sizeof(why))
							       : CLASSIC_NO;
	if (v == CLASSIC_AMBIGUOUS) {
		fprintf(stderr, "reaim: %s\n", why);
		return OUT_USAGE;
	}
	if (v == CLASSIC_YES)
		return exit_code(cmd_classic(cmd_find(&cmd_table, "run"), argc, argv));
	if (argc > 1 && argv[1][0] != '-') {
		if (!(cmd = cmd_find(&cmd_table, argv[1]))) {
			cmd_unknown_command(&cmd_table, argv[1]);
			return OUT_USAGE;
		}
		shift = 1;
	}
	return exit_code(cmd->fn(cmd, argc - shift, argv + shift));
}
