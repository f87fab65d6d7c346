/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the option-table parser: every row type, both value spellings, short clusters,
 * repeats, defaults, operands, every error with its message, and the help, usage and man
 * text drawn from the table. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/opt.h"
#include "tap.h"
#include "util/util.h"

struct args {
	int verbose, quiet;
	const char *label, *format, *output;
	long long limit;
	double alpha, level;
	struct cli_list dirs, ops;
	int calls;
	char last[32];
};

static const char *const formats[] = {"table", "csv", "json", NULL};

static const struct {
	const char *name, *help;
} shapes[] = {{"round", "a circle"}, {"square", "four equal sides"}, {NULL, NULL}};
CLI_CHOICES_FROM(shape_at, shapes)

/* A callback that records its value and refuses "bad". */
static int set_last(void *args, const struct cli_opt *o, const char *value, char *err, size_t len)
{
	struct args *a = args;
	(void)o;
	if (value && strcmp(value, "bad") == 0) {
		snprintf(err, len, "--hook bad: refused by the callback");
		return -1;
	}
	a->calls++;
	snprintf(a->last, sizeof(a->last), "%s", value ? value : "(flag)");
	return 0;
}

/* Two rows kept "elsewhere", as the run command includes the suite keys. */
static int extra_row(size_t i, struct cli_opt *out)
{
	static const struct cli_opt rows[] = {
		{.name = "hook", .short_name = 'k', .type = CLI_CALLBACK, .arg = "V", .set = set_last,
		 .help = "a callback with a value"},
		{.name = "ping_pong", .type = CLI_CALLBACK, .set = set_last, .help = "a callback flag"},
	};
	if (i >= ARRAY_SIZE(rows))
		return 0;
	*out = rows[i];
	return 1;
}

static const struct cli_opt table[] = {
	CLI_OPT_OPERANDS("RUN", struct args, ops, 1, 3, "runs to look at"),
	CLI_OPT_FLAG('v', "verbose", struct args, verbose, "say more"),
	CLI_OPT_FLAG('q', "quiet", struct args, quiet, "say less"),
	CLI_OPT_STRING(0, "label", "LABEL", struct args, label, "a label"),
	CLI_OPT_INT('n', "limit", "N", struct args, limit, 1, 100, "10", "at most N"),
	CLI_OPT_DOUBLE(0, "alpha", "LEVEL", struct args, alpha, 0, 0.5, "0.05", "a level", .flags = CLI_ABOVE_MIN | CLI_BELOW_MAX),
	CLI_OPT_DOUBLE(0, "level", "X", struct args, level, 1, 2, NULL, "closed bounds"),
	CLI_OPT_LIST('d', "dir", "DIR", struct args, dirs, "repeatable"),
	CLI_OPT_CHOICE(0, "format", "FORMAT", struct args, format, cli_choices_from_names, "table", "output format",
		       .data = formats),
	CLI_OPT_CHOICE(0, "shape", "SHAPE", struct args, output, shape_at, NULL, "a shape:"),
	CLI_OPT_INCLUDE(extra_row),
	CLI_OPT_END,
};

static const struct cli_opt required_table[] = {
	CLI_OPT_STRING('o', "output", "FILE", struct args, output, "where", .flags = CLI_REQUIRED),
	CLI_OPT_END,
};

static const struct cli_opt no_operands[] = {
	CLI_OPT_FLAG('v', "verbose", struct args, verbose, "say more"),
	CLI_OPT_END,
};

static const struct cli_opt with_choice_operand[] = {
	CLI_OPT_OPERANDS("SHAPE", struct args, ops, 1, 1, "which", .choices = shape_at),
	CLI_OPT_END,
};

/* Parse a space-separated command line (argv[0] is "cmd"). */
static int parse(const struct cli_opt *t, const char *line, struct args *a, struct cli_error *e)
{
	static char buf[512];
	static char *argv[64];
	static const struct cli_opt *previous;
	int argc = 0;
	snprintf(buf, sizeof(buf), "cmd %s", line);
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w && argc < 63; w = strtok_r(NULL, " ", &save))
		argv[argc++] = strcmp(w, "''") == 0 ? (char *)"" : w;
	argv[argc] = NULL;
	if (previous)
		cli_free(previous, a);
	previous = t;
	memset(a, 0, sizeof(*a));
	return cli_parse(t, argc, argv, a, e);
}

/* Everything a FILE* got, as a string the caller frees. */
static char *capture(void (*fn)(FILE *, const char *, const struct cli_opt *), const char *cmd,
		     const struct cli_opt *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fn(f, cmd, t);
	fclose(f);
	return text;
}

static void print_options(FILE *f, const char *cmd, const struct cli_opt *t)
{
	(void)cmd;
	cli_print_options(f, t);
}

static void print_man(FILE *f, const char *cmd, const struct cli_opt *t)
{
	(void)cmd;
	cli_print_man(f, t);
}

static void check_types(void)
{
	struct args a = {0};
	struct cli_error e;
	is_int(parse(table, "r1", &a, &e), 0, "one operand, no option");
	is_int(a.limit, 10, "an int's default is applied");
	is_near(a.alpha, 0.05, 1e-12, "a double's default is applied");
	is_str(a.format, "table", "a choice's default is applied");
	ok(a.format == formats[0], "a choice stores the table's own string");
	ok(a.label == NULL && a.verbose == 0 && a.dirs.count == 0, "the rest stays zero");

	is_int(parse(table, "-v --label x -n 5 --alpha 0.1 --format json r1 r2", &a, &e), 0, "every type");
	ok(a.verbose == 1, "flag");
	is_str(a.label, "x", "string");
	is_int(a.limit, 5, "int");
	is_near(a.alpha, 0.1, 1e-12, "double");
	is_str(a.format, "json", "choice");
	is_int(a.ops.count, 2, "two operands");
	is_str(a.ops.v[1], "r2", "operands in order");

	is_int(parse(table, "--label=y --limit=7 --format=csv r", &a, &e), 0, "--opt=value");
	ok(strcmp(a.label, "y") == 0 && a.limit == 7 && strcmp(a.format, "csv") == 0, "--opt=value sets each");
	is_int(parse(table, "--label= r", &a, &e), 0, "--opt= gives an empty string");
	is_str(a.label, "", "the empty value");
	is_int(parse(table, "-n5 r", &a, &e), 0, "-n5");
	is_int(a.limit, 5, "-n5 attaches the value");
	is_int(parse(table, "-vqn 6 r", &a, &e), 0, "a cluster ending with an option that takes a value");
	ok(a.verbose && a.quiet && a.limit == 6, "-vqn 6 sets all three");
	is_int(parse(table, "-qvn7 r", &a, &e), 0, "-qvn7");
	is_int(a.limit, 7, "-qvn7's value");
	is_int(parse(table, "r1 -v r2 --label z r3", &a, &e), 0, "options between operands");
	ok(a.ops.count == 3 && a.verbose && strcmp(a.label, "z") == 0, "all taken");
	is_int(parse(table, "--label a --label b -n 2 -n 3 r", &a, &e), 0, "repeated options");
	ok(strcmp(a.label, "b") == 0 && a.limit == 3, "the last one wins");
	is_int(parse(table, "-d a --dir b -dc --dir=d r", &a, &e), 0, "a repeatable list");
	ok(a.dirs.count == 4 && strcmp(a.dirs.v[0], "a") == 0 && strcmp(a.dirs.v[3], "d") == 0,
	   "every value kept, in order");
	is_int(parse(table, "-- -v -", &a, &e), 0, "-- ends the options");
	ok(a.verbose == 0 && a.ops.count == 2 && strcmp(a.ops.v[0], "-v") == 0 && strcmp(a.ops.v[1], "-") == 0,
	   "after --, and a lone -, are operands");
	is_int(parse(table, "--label -x r", &a, &e), 0, "a value may start with '-'");
	is_str(a.label, "-x", "the next word is the value");
	is_int(parse(table, "-n -3 r", &a, &e), -1, "-n -3 is a value, out of range");
	is_int(parse(table, "--level 1 r", &a, &e), 0, "closed lower bound");
	is_int(parse(table, "--level 2 r", &a, &e), 0, "closed upper bound");
	is_int(parse(table, "--alpha 0.5 r", &a, &e), -1, "open upper bound");
	is_str(e.msg, "--alpha 0.5: not a number above 0 and below 0.5", "the bounds in the message");
	is_int(parse(table, "--alpha 0 r", &a, &e), -1, "open lower bound");
	is_int(parse(table, "--alpha nan r", &a, &e), -1, "not a number");
	is_int(parse(table, "--alpha 0.1x r", &a, &e), -1, "trailing text");
	is_int(parse(table, "--level 3 r", &a, &e), -1, "above a closed bound");
	is_str(e.msg, "--level 3: not a number from 1 to 2", "closed bounds in the message");

	is_int(parse(table, "--hook v1 -k v2 r", &a, &e), 0, "an included callback row, long and short");
	ok(a.calls == 2 && strcmp(a.last, "v2") == 0, "the callback saw both values");
	is_int(parse(table, "--ping-pong r", &a, &e), 0, "an included flag callback, '_' typed as '-'");
	is_str(a.last, "(flag)", "a flag callback gets NULL");
	is_int(parse(table, "--ping_pong r", &a, &e), -1, "'_' is not typed");
	is_int(parse(table, "--hook bad r", &a, &e), -1, "the callback refuses");
	is_str(e.msg, "--hook bad: refused by the callback", "its message is the error");
	ok(!e.syntax, "a bad value is not a syntax error");
	cli_free(table, &a);
}

static void check_errors(void)
{
	struct args a = {0};
	struct cli_error e;
	is_int(parse(table, "--lable x r", &a, &e), -1, "unknown long option");
	is_str(e.msg, "unknown option '--lable'; did you mean --label?", "named, with the nearest");
	is_str(e.unknown, "--lable", "the unknown option is reported");
	ok(e.syntax, "a syntax error");
	is_int(parse(table, "--forma=csv r", &a, &e), -1, "unknown long option with a value");
	is_str(e.unknown, "--forma", "named without its value");
	is_int(parse(table, "--zzzzzz r", &a, &e), -1, "far from every option");
	is_str(e.msg, "unknown option '--zzzzzz'", "no suggestion");
	is_int(parse(table, "-x r", &a, &e), -1, "unknown short option");
	is_str(e.msg, "unknown option '-x'", "named");
	is_int(parse(table, "-vx r", &a, &e), -1, "unknown short option in a cluster");
	is_str(e.unknown, "-x", "the one that is unknown");
	is_int(parse(table, "r --label", &a, &e), -1, "a value missing at the end");
	is_str(e.msg, "option '--label' needs a value (LABEL)", "says which");
	is_int(parse(table, "r -n", &a, &e), -1, "a short option's value missing");
	is_str(e.msg, "option '-n' needs a value (N)", "says which");
	is_int(parse(table, "--verbose=1 r", &a, &e), -1, "a flag given a value");
	is_str(e.msg, "option '--verbose' takes no value", "says so");
	is_int(parse(table, "-n 0 r", &a, &e), -1, "an int below its range");
	is_str(e.msg, "--limit 0: not a whole number from 1 to 100", "the range in the message");
	is_int(parse(table, "-n 1x r", &a, &e), -1, "an int with trailing text");
	is_int(parse(table, "--format xml r", &a, &e), -1, "a value not in the choices");
	is_str(e.msg, "--format xml: not one of table, csv, json", "lists the choices");
	is_int(parse(table, "--format jsno r", &a, &e), -1, "a misspelled choice");
	is_str(e.msg, "--format jsno: not one of table, csv, json; did you mean json?", "suggests");
	is_int(parse(table, "", &a, &e), -1, "too few operands");
	is_str(e.msg, "missing RUN", "names the operand");
	ok(e.syntax, "a syntax error");
	is_int(parse(table, "a b c d", &a, &e), -1, "too many operands");
	is_str(e.msg, "unexpected argument 'd'", "names the first extra one");
	is_int(parse(no_operands, "x", &a, &e), -1, "an operand where none are taken");
	is_str(e.msg, "unexpected argument 'x'", "names it");
	is_int(parse(required_table, "", &a, &e), -1, "a required option missing");
	is_str(e.msg, "missing --output FILE", "names it");
	is_int(parse(required_table, "-o f", &a, &e), 0, "given");
	is_int(parse(with_choice_operand, "square", &a, &e), 0, "an operand among its choices");
	is_int(parse(with_choice_operand, "cube", &a, &e), -1, "an operand outside them");
	is_str(e.msg, "SHAPE 'cube': not one of round, square", "lists them");
	is_int(parse(table, "a -d x --help", &a, &e), 1, "--help");
	ok(a.ops.v == NULL && a.dirs.v == NULL, "nothing is left to free after --help");
	is_int(parse(table, "a -d x --bogus", &a, &e), -1, "an error");
	ok(a.ops.v == NULL && a.dirs.v == NULL, "nothing is left to free after an error");
	is_int(parse(table, "-h", &a, &e), 1, "-h");
	is_int(parse(table, "-vh", &a, &e), 1, "-h in a cluster");
	is_int(parse(table, "--help --bogus", &a, &e), 1, "--help before an error wins");
	is_int(parse(required_table, "--help", &a, &e), 1, "--help needs no required option");
	cli_free(table, &a);
}

static void check_lookup(void)
{
	struct cli_opt o;
	ok(cli_find_long(table, "format", &o) && o.type == CLI_CHOICE, "find a long name");
	ok(cli_find_long(table, "ping-pong", &o) && o.type == CLI_CALLBACK, "find an included row");
	ok(!cli_find_long(table, "RUN", &o), "operands are not options");
	ok(cli_find_short(table, 'k', &o) && strcmp(o.name, "hook") == 0, "find an included short name");
	ok(!cli_find_short(table, 'z', &o), "no such short name");
	ok(cli_closest(table, "verbos", &o) && strcmp(o.name, "verbose") == 0, "closest by edits");
	ok(cli_closest(table, "ping", &o) && strcmp(o.name, "ping_pong") == 0, "closest by a unique prefix");
	ok(!cli_closest(table, "qqqqqqqq", &o), "none close");
	char name[32];
	cli_long_name(&o, name, sizeof(name));
	struct cli_opt pp;
	cli_find_long(table, "ping-pong", &pp);
	cli_long_name(&pp, name, sizeof(name));
	is_str(name, "ping-pong", "a long name as typed");
}

static void check_text(void)
{
	char *usage = capture(cli_print_usage, "look", table);
	const char *start = "usage: reaim look [-v] [-q] [--label LABEL] [-n N] ";
	ok(strncmp(usage, start, strlen(start)) == 0, "the usage line starts with the options in table order");
	ok(strstr(usage, "RUN...") != NULL, "and ends with the operands");
	ok(strstr(usage, "[-k V]") != NULL && strstr(usage, "[--ping-pong]") != NULL, "included rows too");
	size_t longest = 0;
	for (char *line = usage; *line;) {
		size_t n = strcspn(line, "\n");
		longest = n > longest ? n : longest;
		line += n + (line[n] == '\n');
	}
	ok(longest < 80, "wrapped within 80 columns");
	free(usage);
	usage = capture(cli_print_usage, "out", required_table);
	is_str(usage, "usage: reaim out -o FILE\n", "a required option has no brackets");
	free(usage);

	char *syn = cli_synopsis("x", with_choice_operand);
	is_str(syn, "reaim x SHAPE", "one operand");
	free(syn);

	char *help = capture(print_options, NULL, table);
	const char *want[] = {"  RUN...", "  -v, --verbose", "      --label LABEL", "  -n, --limit N", "      --alpha LEVEL",
			      "  -d, --dir DIR", "      --format FORMAT", "  -k, --hook V", "      --ping-pong",
			      "  -h, --help", "at most N (default 10)", "a shape:\n", "square four equal sides", "round  a circle",
			      "output format (default table)"};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		ok(strstr(help, want[i]) != NULL, want[i]);
		if (!strstr(help, want[i]))
			printf("# in:\n%s", help);
	}
	free(help);

	char *man = capture(print_man, NULL, table);
	ok(strstr(man, ".B \\-n, \\-\\-limit \\fIN\\fR\nat most N (default 10).\n") != NULL, "man: a row");
	ok(strstr(man, "\\-\\-ping\\-pong") != NULL, "man: an included row, escaped");
	ok(strstr(man, ".RS\n.TP\n.B round\na circle\n") != NULL, "man: the choices with their help");
	free(man);
}

int main(void)
{
	tap_case(check_types);
	tap_case(check_errors);
	tap_case(check_lookup);
	tap_case(check_text);
	return done_testing();
}
