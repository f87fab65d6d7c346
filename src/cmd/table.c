/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command table: every command's name, handler, option table and line of help, and the usage
 * that lists them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"

/* The first row is the default command: `reaim -s quick` runs. */
const struct command cli_commands[] = {
	{"run", cmd_run, cmd_run_opts, "run a suite or a workfile (the default command)", 0},
	{"single", cmd_single, cmd_run_opts, "run each test alone (AIM9 single-user mode): calls/s and ops/s", 0},
	{"rerun", cmd_rerun, cmd_rerun_opts,
	 "run a stored run again: its suite, workfiles, seed and options as stored", 0},
	{"check", cmd_check, cmd_check_opts, "parse suites and workfiles without running anything", 0},
	{"tests", cmd_tests, cmd_tests_opts, "list the test catalog, or explain one test", 0},
	{"list", cmd_list, cmd_list_opts, "list stored runs, newest first", 0},
	{"show", cmd_show, cmd_show_opts,
	 "show a stored run: the table, environment, per-test latency, system time series", 0},
	{"compare", cmd_compare, cmd_compare_opts, "compare groups of runs, or one run's variants or O_SYNC settings", 0},
	{"plot", cmd_plot, cmd_plot_opts,
	 "plot Jobs/Min (or another figure) against tasks for runs, or a run's system time series", 0},
	{"report", cmd_report, cmd_report_opts,
	 "one self-contained HTML page: verdicts, plots, tables, environment and how each run was made", 0},
	{"export", cmd_export, cmd_export_opts, "export a stored run for other tools", 0},
	{"merge", cmd_merge, cmd_merge_opts, "copy the runs another database has and this one lacks", 0},
	{"man", cmd_man, cmd_man_opts, "print the reaim(1) or reaim-suite(5) man page", 0},
	{"help", cmd_help, cmd_help_opts, "show the commands, or one command's options", 0},
	{"__complete", cmd_complete, cmd_complete_opts, "candidates for shell completion", 1},
};

const size_t cli_command_count = sizeof(cli_commands) / sizeof(cli_commands[0]);

const struct command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < cli_command_count; i++)
		if (strcmp(name, cli_commands[i].name) == 0)
			return &cli_commands[i];
	return NULL;
}

void cli_usage(FILE *f)
{
	fprintf(f, "usage: reaim [COMMAND] [OPTIONS] [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < cli_command_count; i++)
		if (!cli_commands[i].hidden)
			fprintf(f, "  %-9s %s\n", cli_commands[i].name, cli_commands[i].summary);
	fprintf(f, "\n'reaim COMMAND --help' lists a command's options; 'reaim man 1' documents them all.\n"
		   "\nrun options (each is also a suite key, with '_' for '-'):\n");
	cli_print_options(f, cmd_run_opts);
	fprintf(f, "\nclassic re-aim command lines (-s 1 -e 8 -i 1 -f workfile.dbase -c reaim.config ...) run\n"
		   "as classic read them; 'reaim -e 1 -h' lists their flags.\n");
	fprintf(f, "\nexit status: 0 ok, 1 usage or configuration error, 2 the run failed, a point is not\n"
		   "trustworthy or the results database could not be used, 3 interrupted, 4 compare found\n"
		   "a regression beyond the threshold\n");
}
