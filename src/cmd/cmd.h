/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Subcommands, their option tables, and the outcomes main.c turns into exit codes. */
#ifndef REAIM_CMD_CMD_H
#define REAIM_CMD_CMD_H

#include <stdint.h>
#include <stdio.h>

#include "cli/opt.h"

enum outcome {
	OUT_OK = 0,          /* exit 0 */
	OUT_USAGE = 1,       /* exit 1: usage or configuration error */
	OUT_FAILED = 2,      /* exit 2: the run failed, a point is not trustworthy, or the results
			      * database could not be opened, read or written */
	OUT_INTERRUPTED = 3, /* exit 3 */
	OUT_REGRESSION = 4,  /* exit 4: compare found a regression beyond the threshold */
	OUT_UNJUDGED = 5,    /* exit 5: compare could not judge (nothing in common, a point missing, no cell judged) */
	OUT_BISECT_BAD = 1,  /* compare --bisect: git bisect run's "bad" */
	OUT_BISECT_SKIP = 125, /* compare --bisect: git bisect run's "skip" (could not judge, or noisy) */
	OUT_BISECT_ABORT = 128, /* compare --bisect: the command itself failed, so git bisect run stops */
};

struct command_table;

/* One subcommand: its name, handler, option table and one line of help. */
struct command {
	const char *name;
	enum outcome (*fn)(const struct command *self, int argc, char **argv);
	const struct cli_opt *opts;
	const char *summary;
	int hidden;                       /* not listed: the shell-completion helper */
	int runs;                         /* runs a benchmark: a reader that goes away is said, not quiet */
	const struct command_table *all;  /* the table the row is in: help, man and hints list it */
};
/* The commands; the first row is the default command. */
struct command_table {
	const struct command *rows;
	size_t count;
};
extern const struct command_table cmd_table; /* command_table.c */
/* The row named name, or NULL. */
const struct command *cmd_find(const struct command_table *t, const char *name);

/* Handlers (src/cmd/NAME.c; run and single in run.c) and their tables. */
enum outcome cmd_run(const struct command *self, int argc, char **argv);
enum outcome cmd_run_check(const struct command *self, int argc, char **argv);
/* Whether this process began a run in a database (main says it went on and is stored only then). */
int cmd_run_stored(void);
enum outcome cmd_single(const struct command *self, int argc, char **argv);
enum outcome cmd_rerun(const struct command *self, int argc, char **argv);
enum outcome cmd_check(const struct command *self, int argc, char **argv);
enum outcome cmd_tests(const struct command *self, int argc, char **argv);
enum outcome cmd_list(const struct command *self, int argc, char **argv);
enum outcome cmd_show(const struct command *self, int argc, char **argv);
enum outcome cmd_export(const struct command *self, int argc, char **argv);
enum outcome cmd_compare(const struct command *self, int argc, char **argv);
enum outcome cmd_merge(const struct command *self, int argc, char **argv);
enum outcome cmd_vm(const struct command *self, int argc, char **argv);
enum outcome cmd_lab(const struct command *self, int argc, char **argv);
enum outcome cmd_plot(const struct command *self, int argc, char **argv);
enum outcome cmd_report(const struct command *self, int argc, char **argv);
enum outcome cmd_man(const struct command *self, int argc, char **argv);
enum outcome cmd_lab_install(const struct command *self, int argc, char **argv);
enum outcome cmd_help(const struct command *self, int argc, char **argv);
enum outcome cmd_complete(const struct command *self, int argc, char **argv);
extern const struct cli_opt cmd_run_opts[], cmd_rerun_opts[], cmd_check_opts[], cmd_tests_opts[], cmd_list_opts[],
	cmd_show_opts[], cmd_export_opts[], cmd_compare_opts[], cmd_merge_opts[], cmd_plot_opts[], cmd_report_opts[],
	cmd_man_opts[], cmd_lab_install_opts[], cmd_vm_opts[], cmd_lab_opts[],
	cmd_help_opts[], cmd_complete_opts[];

/* Parse a command's words into args (zeroed by the caller) with its table. 0 to go on;
 * otherwise the outcome to return: OUT_OK after printing --help to stdout, OUT_USAGE after
 * printing the error, a hint and the usage line to stderr. Free with cli_free. */
int cmd_parse(const struct command *self, int argc, char **argv, void *args, enum outcome *out);
/* `reaim CMD --help`: usage, summary and every option. */
void cmd_print_help(FILE *f, const struct command *cmd);
/* "unknown command" on stderr, with the nearest command when one is near, and the list. */
void cmd_unknown_command(const struct command_table *t, const char *word);
/* `reaim --help`: the commands, then the run command's options. */
void cmd_usage(FILE *f, const struct command_table *t);
/* `reaim help`: the commands and where to begin, a screen; --help adds every run option. */
void cmd_overview(FILE *f, const struct command_table *t);

/* The --correction row of every command that judges (compare, report, plot): one model, one choice. */
#define CMD_OPT_CORRECTION(T)                                                                      \
	CLI_OPT_CHOICE(0, "correction", "METHOD", T, correction, cmd_correction_at, "holm",            \
		       "how p values are adjusted for the number of cells compared:")

/* The --db option row every command that reads results shares. */
#define CMD_OPT_DB(T)                                                                              \
	{.name = "db", .type = CLI_STRING, .arg = "FILE", .offset = CLI_FIELD(T, db, const char *),   \
	 .complete = CLI_COMPLETE_FILE, .help = "results database (default $REAIM_DB, else results/reaim.db)"}

struct store;
/* Open an existing results database; NULL after printing why (OUT_FAILED: see DESIGN). */
struct store *cmd_open_store(const char *db_flag);
/* Open the store and resolve a command's optional RUN operand (none: last); NULL after printing
 * why, with the outcome (OUT_FAILED for the database, OUT_USAGE for the run) in *out. */
struct cli_list;
struct store *cmd_open_run(const char *db_flag, const struct cli_list *run, int64_t *id, enum outcome *out);
/* Resolve RUN (NULL: last) in an open store; after printing why, OUT_USAGE when no run matches,
 * OUT_FAILED when the database cannot be read. */
enum outcome cmd_resolve_run(struct store *st, const char *run, int64_t *id);
/* compare's operands, each a GROUP of runs separated by commas (an id, last, last~N, or a label
 * standing for every run that has it), resolved into g (room for specs->count); a run on two sides
 * is refused, and so is one operand of several runs unless one_side_ok. OUT_USAGE after printing why. */
struct compare_group;
enum outcome cmd_resolve_groups(struct store *st, const struct cli_list *specs, struct compare_group *g,
				int one_side_ok);
void cmd_groups_free(struct compare_group *g, size_t n);
/* The --correction choices (Holm, Benjamini-Hochberg) of compare, report and plot. */
struct cli_opt;
int cmd_correction_at(const struct cli_opt *o, size_t i, const char **name, const char **help);
/* The --stat choices of compare and report: what a cell shows of a side's samples (compare_stats). */
int cmd_stat_at(const struct cli_opt *o, size_t i, const char **name, const char **help);
/* The --stat names given, as enum compare_stat in order, each once, in stats[COMPARE_NSTATS]; how many. */
struct cli_list;
size_t cmd_stats_of(const struct cli_list *names, int *stats);
/* -1, saying which statistics there are, when a --stat name is none of them (the list is not checked
 * by the parser); 0 otherwise. */
int cmd_stats_check(const struct cli_list *names);
/* The --metric choices of plot and compare: the figures a curve follows (metric_list). */
int cmd_metric_at(const struct cli_opt *o, size_t i, const char **name, const char **help);
/* A classic re-aim-7 command line (classic_run.c); main.c sends it here. */
enum outcome cmd_classic(const struct command *run, int argc, char **argv);
struct store_point;
/* The points of stored run id (0: none was stored) in db; -1 after saying why. */
int cmd_stored_points(const char *db, int64_t id, struct store_point **pts, size_t *n);
/* AIM Suite VII's multitask and Suite IX's singleuser, reaim called by those names (aim.c): the
 * personality argv[0] names, or NULL; it runs through the run command's row, run. */
enum outcome (*cmd_personality(const char *argv0))(const struct command *run, int argc, char **argv);

struct plan;
struct run_request;
struct run_view;
/* Run a resolved plan (rq's view NULL: the live table), or with dry_run print it with time
 * estimates from the database; *run_id (may be NULL): the run stored, 0 when none was. */
enum outcome cmd_run_plan(const struct plan *p, int dry_run, const struct run_request *rq, int64_t *run_id);
/* `reaim run` and `reaim single` with another view of the run (classic's rows). */
enum outcome cmd_run_viewed(const struct command *self, int argc, char **argv, const struct run_view *view,
			    int64_t *run_id);
/* The command line of self as a shell reads it back, for the run's stored command line. */
char *cmd_join_args(const struct command *self, int argc, char **argv);

#endif
