/* reaim: the subcommand table and the mapping from outcomes to exit codes. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config/cfg.h"
#include "config/classic.h"
#include "util/util.h"

const struct command cli_commands[] = {
	{"run", cmd_run, "-s SUITE | -f WORKFILE [options]", "run a suite (the default command)"},
	{"single", cmd_single, "-f WORKFILE [-p SECONDS] [options]",
	 "run each test alone (AIM9 single-user mode): calls/s and ops/s"},
	{"check", cmd_check, "FILE...", "parse suites and workfiles without running anything"},
	{"tests", cmd_tests, "[NAME]", "list the test catalog, or explain one test"},
	{"list", cmd_list, "[-n N] [--label L] [--suite S] [--workfile W] [--host H] [--status S] [--since DATE]",
	 "list stored runs, newest first"},
	{"show", cmd_show, "RUN [-v] [--tests] [--samples]",
	 "show a stored run: the table, environment, per-test latency, system time series"},
	{"compare", cmd_compare, "RUN RUN... [--format F] [--fail-above PCT]",
	 "compare runs against the first; one run: O_SYNC on against off"},
	{"plot", cmd_plot, "RUN... -o FILE.svg [--diff] [--metric M] [--timeline] [--format svg|gnuplot]",
	 "plot Jobs/Min (or M) against tasks for runs, or a run's system time series, as a self-contained SVG"},
	{"export", cmd_export, "RUN --format csv|json|lkp|classic|reaim7|aim7|aim9|lava", "export a stored run"},
	{"merge", cmd_merge, "OTHER.db [--db FILE]", "copy the runs another database has and this one lacks"},
	{"man", cmd_man, "1|5", "print the reaim(1) or reaim-suite(5) man page"},
};

const size_t cli_command_count = sizeof(cli_commands) / sizeof(cli_commands[0]);

void cli_usage(FILE *f)
{
	fprintf(f, "usage: reaim [COMMAND] [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < cli_command_count; i++)
		fprintf(f, "  %-7s %s\n          %s\n", cli_commands[i].name, cli_commands[i].args,
			cli_commands[i].summary);
	fprintf(f, "\nrun options (each is also a suite key, with '_' for '-'):\n");
	fprintf(f, "  -s, --suite SUITE          a suite name (suites/NAME.cfg) or path\n");
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *o = &option_table[i];
		char flag[64];
		char *k = xstrdup(o->key);
		for (char *c = k; *c; c++)
			*c = *c == '_' ? '-' : *c;
		if (o->short_flag)
			snprintf(flag, sizeof(flag), "-%c, --%s %s", o->short_flag, k, o->arg);
		else
			snprintf(flag, sizeof(flag), "    --%s %s", k, o->arg);
		free(k);
		fprintf(f, "  %-26s %s", flag, o->help);
		if (o->def && strcmp(o->def, "0") != 0)
			fprintf(f, " [%s]", o->def);
		fputc('\n', f);
	}
	fprintf(f, "      --db FILE              results database [$REAIM_DB or results/reaim.db]\n"
		   "      --dry-run              print the resolved plan and exit\n"
		   "  -q, --quiet                no diagnostics but errors\n"
		   "  -v, --verbose              more table columns and diagnostics\n"
		   "\nexit status: 0 ok, 1 usage or configuration error, 2 the run failed or a point is\n"
		   "not trustworthy, 3 interrupted, 4 compare found a regression beyond the threshold\n");
}

const char *cli_db_path(const char *flag)
{
	if (flag)
		return flag;
	const char *env = getenv("REAIM_DB");
	return env && *env ? env : "results/reaim.db";
}

int main(int argc, char **argv)
{
	/* a closed stdout or a file-size limit must be errors we report, not signals that kill
	 * the run midway and leave its tasks, scratch and database behind */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	const struct command *cmd = &cli_commands[0];
	int shift = 0;
	if (argc > 1 && argv[1][0] != '-') {
		cmd = NULL;
		for (size_t i = 0; i < cli_command_count; i++)
			if (strcmp(argv[1], cli_commands[i].name) == 0)
				cmd = &cli_commands[i];
		if (!cmd) {
			fprintf(stderr, "reaim: unknown command '%s'\n", argv[1]);
			cli_usage(stderr);
			return OUT_USAGE;
		}
		shift = 1;
	} else if (argc > 1 && (strcmp(argv[1], "--version") == 0)) {
		printf("reaim %s\n", PACKAGE_VERSION);
		return OUT_OK;
	}
	enum outcome (*fn)(int, char **) = cmd->fn;
	if (!shift) {
		/* classic re-aim's command line (LKP, mmtests, autotest issue it) */
		char why[320];
		enum classic_verdict v = classic_cli_detect(argc, argv, why, sizeof(why));
		if (v == CLASSIC_AMBIGUOUS) {
			fprintf(stderr, "reaim: %s\n", why);
			return OUT_USAGE;
		}
		if (v == CLASSIC_YES)
			fn = cmd_classic;
	}
	enum outcome out = fn(argc - shift, argv + shift);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "reaim: error writing output: %s\n", strerror(errno));
		return out == OUT_OK ? OUT_FAILED : (int)out;
	}
	return (int)out;
}
