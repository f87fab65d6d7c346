/* Subcommands and the outcomes main.c turns into exit codes. */
#ifndef REAIM_CLI_H
#define REAIM_CLI_H

#include <stdio.h>

enum outcome {
	OUT_OK = 0,          /* exit 0 */
	OUT_USAGE = 1,       /* exit 1: usage or configuration error */
	OUT_FAILED = 2,      /* exit 2: the run failed or a point is not trustworthy */
	OUT_INTERRUPTED = 3, /* exit 3 */
	OUT_REGRESSION = 4,  /* exit 4: compare found a regression beyond the threshold */
};

enum outcome cmd_run(int argc, char **argv);
enum outcome cmd_single(int argc, char **argv);
enum outcome cmd_check(int argc, char **argv);
enum outcome cmd_tests(int argc, char **argv);
enum outcome cmd_list(int argc, char **argv);
enum outcome cmd_show(int argc, char **argv);
enum outcome cmd_export(int argc, char **argv);
enum outcome cmd_compare(int argc, char **argv);
enum outcome cmd_merge(int argc, char **argv);
enum outcome cmd_plot(int argc, char **argv);
enum outcome cmd_man(int argc, char **argv);
/* A classic re-aim-7 command line (classic_cmd.c); main.c sends it here. */
enum outcome cmd_classic(int argc, char **argv);

struct plan;
/* Refuse a plan that cannot run here, before anything is forked or stored (preflight.c). */
int preflight(const struct plan *p);

/* The subcommand table (main.c): name, handler, arguments, one line of help. */
struct command {
	const char *name;
	enum outcome (*fn)(int argc, char **argv);
	const char *args;
	const char *summary;
};
extern const struct command cli_commands[];
extern const size_t cli_command_count;

/* The database path: --db, else $REAIM_DB, else results/reaim.db. */
const char *cli_db_path(const char *flag);
void cli_usage(FILE *f);

#endif
