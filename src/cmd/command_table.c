/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command table: every command's name, handler, option table and line of help. Only main.c
 * names it; a command reaches the others through its row's table. */
#include "config.h"

#include <stddef.h>

#include "cmd/cmd.h"
#include "util/util.h"

/* The first row is the default command: `reaim -s quick` runs. */
static const struct command rows[] = {
	{.name = "run", .runs = 1, .fn = cmd_run, .opts = cmd_run_opts, .all = &cmd_table,
	 .summary = "run a suite or a workfile (the default command)"},
	{.name = "single", .runs = 1, .fn = cmd_single, .opts = cmd_run_opts, .all = &cmd_table,
	 .summary = "run each test alone (AIM9 single-user mode): calls/s and ops/s"},
	{.name = "rerun", .runs = 1, .fn = cmd_rerun, .opts = cmd_rerun_opts, .all = &cmd_table,
	 .summary = "run a stored run again: its suite, workfiles, seed and options as stored"},
	{.name = "check", .fn = cmd_check, .opts = cmd_check_opts, .all = &cmd_table,
	 .summary = "parse suites and workfiles without running anything"},
	{.name = "tests", .fn = cmd_tests, .opts = cmd_tests_opts, .all = &cmd_table,
	 .summary = "list the test catalog, or explain one test"},
	{.name = "list", .fn = cmd_list, .opts = cmd_list_opts, .all = &cmd_table,
	 .summary = "list stored runs, newest first"},
	{.name = "show", .fn = cmd_show, .opts = cmd_show_opts, .all = &cmd_table,
	 .summary = "show a stored run: the table, environment, per-test latency, system time series"},
	{.name = "compare", .fn = cmd_compare, .opts = cmd_compare_opts, .all = &cmd_table,
	 .summary = "compare groups of runs, or one run's variants or O_SYNC settings"},
	{.name = "plot", .fn = cmd_plot, .opts = cmd_plot_opts, .all = &cmd_table,
	 .summary = "plot Jobs/Min (or another figure) against tasks for runs, or a run's system time series"},
	{.name = "report", .fn = cmd_report, .opts = cmd_report_opts, .all = &cmd_table,
	 .summary = "one self-contained HTML page: verdicts, the counters that moved, plots, tables, environment and "
		    "how each run was made"},
	{.name = "export", .fn = cmd_export, .opts = cmd_export_opts, .all = &cmd_table,
	 .summary = "export a stored run for other tools"},
	{.name = "merge", .fn = cmd_merge, .opts = cmd_merge_opts, .all = &cmd_table,
	 .summary = "copy the runs another database has and this one lacks"},
	{.name = "vm", .runs = 1, .fn = cmd_vm, .opts = cmd_vm_opts, .all = &cmd_table,
	 .summary = "boot kernels in turn under QEMU, interleaved (ABBA), each boot one run labelled with its kernel"},
	{.name = "lab", .runs = 1, .fn = cmd_lab, .opts = cmd_lab_opts, .all = &cmd_table,
	 .summary = "compare kernels on a LAVA lab: one boot a job, ABBA on each device, every database brought home"},
	{.name = "lab-install", .fn = cmd_lab_install, .opts = cmd_lab_install_opts, .all = &cmd_table,
	 .summary = "put reaim where a lab's client looks for classic re-aim or AIM (lkp, mmtests, autotest)"},
	{.name = "man", .fn = cmd_man, .opts = cmd_man_opts, .all = &cmd_table,
	 .summary = "print the reaim(1) or reaim-suite(5) man page"},
	{.name = "help", .fn = cmd_help, .opts = cmd_help_opts, .all = &cmd_table,
	 .summary = "show the commands, or one command's options"},
	{.name = "__complete", .fn = cmd_complete, .opts = cmd_complete_opts, .all = &cmd_table,
	 .summary = "candidates for shell completion", .hidden = 1},
};

const struct command_table cmd_table = {.rows = rows, .count = ARRAY_SIZE(rows)};
