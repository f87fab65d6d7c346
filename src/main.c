/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reaim: signals, the harness's database, reaim called as AIM's multitask or singleuser, the
 * classic command line or a command from the table, and the exit code. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "config/classic_inputs.h"
#include "store/store.h"
#include "util/util.h"

/* stdout is a pipe or socket whose reader has gone (`reaim man 1 | head -1`). */
static int reader_gone(void)
{
	struct stat sb;
	struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};
	if (fstat(STDOUT_FILENO, &sb) < 0 || !(S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)))
		return 0;
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

/* A closed stdin, stdout or stderr would be the next file reaim opens (a lock file, a scratch
 * marker), and the table written into it: each is held by /dev/null instead. 1 when stdout was
 * closed, so that is still said. */
static int hold_std_fds(void)
{
	int stdout_closed = 0;
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (n >= 0 && n != fd) { /* a lower one was closed too and took it */
			dup2(n, fd);
			close(n);
		}
		stdout_closed |= fd == 1;
	}
	return stdout_closed;
}

/* The exit code of a command's outcome, once its output is flushed. A reader that went away ends
 * a read command quietly, as git does (its output was for that reader alone); a run went on and
 * stored every point, and says so once (only when one was begun: not after `run --help`). Any other write error fails the command. */
static int exit_code(enum outcome out, int runs, int stdout_closed)
{
	int flush_failed = fflush(stdout) != 0, e = errno;
	if (stdout_closed) {
		log_error("stdout: error writing output: it was closed before reaim started");
		return out == OUT_OK ? OUT_FAILED : (int)out;
	}
	if (!flush_failed && !ferror(stdout))
		return (int)out;
	if (e == EPIPE || reader_gone()) {
		if (runs && cmd_run_stored())
			log_warn("the output was closed (its reader went away) before the run ended; the run went on "
				 "and is stored ('reaim list' shows it)");
		return (int)out;
	}
	log_error("stdout: error writing output: %s", flush_failed ? strerror(e) : "a write failed");
	return out == OUT_OK ? OUT_FAILED : (int)out;
}

int main(int argc, char **argv)
{
	int stdout_closed = hold_std_fds();
	/* a closed stdout or a file-size limit must be errors we report, not signals that kill
	 * the run midway and leave its tasks, scratch and database behind */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	const struct command *cmd = &cmd_table.rows[0];
	int shift = 0;
	if (store_harness_default() < 0)
		log_warn("cannot set REAIM_DB for the harness's results directory: %s", strerror(errno));
	/* called as AIM's multitask or singleuser (LKP's aim7 and aim9 run those) */
	enum outcome (*personality)(const struct command *, int, char **) = argc > 0 ? cmd_personality(argv[0])
											     : NULL;
	if (personality)
		return exit_code(personality(cmd_find(&cmd_table, "run"), argc, argv), 1, stdout_closed);
	if (argc > 1 && strcmp(argv[1], "--version") == 0) {
		printf("reaim %s\n", PACKAGE_VERSION);
		return exit_code(OUT_OK, 0, stdout_closed);
	}
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		cmd_usage(stdout, &cmd_table);
		return exit_code(OUT_OK, 0, stdout_closed);
	}
	/* classic re-aim's command line (LKP, mmtests, autotest issue it) */
	char why[320];
	enum classic_verdict v = argc > 1 && argv[1][0] == '-' ? classic_cli_detect(argc, argv, why, sizeof(why))
							       : CLASSIC_NO;
	if (v == CLASSIC_AMBIGUOUS) {
		log_error("%s", why);
		return OUT_USAGE;
	}
	if (v == CLASSIC_YES)
		return exit_code(cmd_classic(cmd_find(&cmd_table, "run"), argc, argv), 1, stdout_closed);
	if (argc > 1 && argv[1][0] != '-') {
		if (!(cmd = cmd_find(&cmd_table, argv[1]))) {
			cmd_unknown_command(&cmd_table, argv[1]);
			return OUT_USAGE;
		}
		shift = 1;
	}
	return exit_code(cmd->fn(cmd, argc - shift, argv + shift), cmd->runs, stdout_closed);
}
