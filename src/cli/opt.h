/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line option tables: one row per option drives parsing, --help, the usage line,
 * the man page and shell completion (in the spirit of git's parse_options and perf's OPT_*). */
#ifndef REAIM_CLI_OPT_H
#define REAIM_CLI_OPT_H

#include <stddef.h>
#include <stdio.h>

#include "util/util.h"

enum cli_type {
	CLI_END,      /* ends a table */
	CLI_FLAG,     /* int, set to 1 */
	CLI_STRING,   /* const char * into argv; the last one given wins */
	CLI_INT,      /* long long within [min, max] */
	CLI_DOUBLE,   /* double within [dmin, dmax] (CLI_ABOVE_MIN, CLI_BELOW_MAX make them strict) */
	CLI_LIST,     /* struct cli_list: every value given, in order (repeatable) */
	CLI_CHOICE,   /* const char *: one of the names choices() lists (the table's own string) */
	CLI_CALLBACK, /* set() takes the value (or NULL for a flag without arg) */
	CLI_OPERANDS, /* struct cli_list: the words that are not options, min..max of them */
	CLI_INCLUDE,  /* stands for the rows row(0), row(1)...: tables kept elsewhere */
};

/* Row flags. */
enum {
	CLI_REQUIRED = 1,  /* the option must be given */
	CLI_ABOVE_MIN = 2, /* CLI_DOUBLE: value > dmin, not >= */
	CLI_BELOW_MAX = 4, /* CLI_DOUBLE: value < dmax, not <= */
};

/* What a shell may offer for an option's value or an operand. */
enum cli_complete {
	CLI_COMPLETE_NONE,
	CLI_COMPLETE_FILE,
	CLI_COMPLETE_DIR,
	CLI_COMPLETE_SUITE,    /* suite names, or files */
	CLI_COMPLETE_WORKFILE, /* workfile names, or files */
	CLI_COMPLETE_RUN,      /* labels of stored runs, and last */
	CLI_COMPLETE_LABEL,    /* labels of stored runs */
	CLI_COMPLETE_TEST,     /* names in the test catalog */
	CLI_COMPLETE_COMMAND,  /* reaim's commands */
};

/* Values of a CLI_LIST or CLI_OPERANDS row (pointers into argv); free with cli_free. */
struct cli_list {
	const char **v;
	size_t count;
};

struct cli_opt {
	const char *name;        /* long name; '_' is shown and typed as '-' */
	char short_name;         /* 0: none */
	enum cli_type type;
	const char *arg;         /* metavariable ("N", "FILE"); NULL for flags */
	size_t offset;           /* of the value in the command's argument struct */
	const char *help;
	const char *def;         /* default as text: applied before parsing (shown only, for callbacks) */
	long long min, max;      /* CLI_INT bounds; CLI_OPERANDS counts (max < 0: any) */
	double dmin, dmax;       /* CLI_DOUBLE bounds */
	unsigned flags;
	enum cli_complete complete;
	/* The i-th allowed value and its help (help may be NULL); 0 past the last (called with
	 * i = 0, 1, ... until then). For a
	 * CLI_CHOICE the parser accepts only these; elsewhere they serve help and completion. */
	int (*choices)(const struct cli_opt *o, size_t i, const char **name, const char **help);
	/* CLI_CALLBACK: take value (NULL for a flag) into args; 0, or -1 with a message in err. */
	int (*set)(void *args, const struct cli_opt *o, const char *value, char *err, size_t errlen);
	const void *data;        /* for set() and choices() */
	/* CLI_INCLUDE: the i-th included row into *out; 0 past the last. */
	int (*row)(size_t i, struct cli_opt *out);
};

/* Type-checked offset of a field (a compile error when its type is not `ctype`). */
#define CLI_FIELD(T, f, ctype) FIELD_OFFSET(T, f, ctype)

/* Rows, one macro per type; trailing arguments are further members (".complete = ...",
 * ".flags = CLI_REQUIRED"), never ones the macro sets. */
#define CLI_OPT_FLAG(s, l, T, f, h, ...)                                                           \
	{.name = (l), .short_name = (s), .type = CLI_FLAG, .offset = CLI_FIELD(T, f, int), .help = (h), \
	 __VA_ARGS__}
#define CLI_OPT_STRING(s, l, a, T, f, h, ...)                                                      \
	{.name = (l), .short_name = (s), .type = CLI_STRING, .arg = (a),                            \
	 .offset = CLI_FIELD(T, f, const char *), .help = (h), __VA_ARGS__}
#define CLI_OPT_INT(s, l, a, T, f, lo, hi, d, h, ...)                                              \
	{.name = (l), .short_name = (s), .type = CLI_INT, .arg = (a), .offset = CLI_FIELD(T, f, long long), \
	 .min = (lo), .max = (hi), .def = (d), .help = (h), __VA_ARGS__}
#define CLI_OPT_DOUBLE(s, l, a, T, f, lo, hi, d, h, ...)                                           \
	{.name = (l), .short_name = (s), .type = CLI_DOUBLE, .arg = (a), .offset = CLI_FIELD(T, f, double), \
	 .dmin = (lo), .dmax = (hi), .def = (d), .help = (h), __VA_ARGS__}
#define CLI_OPT_LIST(s, l, a, T, f, h, ...)                                                        \
	{.name = (l), .short_name = (s), .type = CLI_LIST, .arg = (a),                              \
	 .offset = CLI_FIELD(T, f, struct cli_list), .help = (h), __VA_ARGS__}
#define CLI_OPT_CHOICE(s, l, a, T, f, fn, d, h, ...)                                               \
	{.name = (l), .short_name = (s), .type = CLI_CHOICE, .arg = (a),                            \
	 .offset = CLI_FIELD(T, f, const char *), .choices = (fn), .def = (d), .help = (h), __VA_ARGS__}
#define CLI_OPT_OPERANDS(a, T, f, lo, hi, h, ...)                                                  \
	{.type = CLI_OPERANDS, .arg = (a), .offset = CLI_FIELD(T, f, struct cli_list), .min = (lo), \
	 .max = (hi), .help = (h), __VA_ARGS__}
#define CLI_OPT_INCLUDE(fn) {.type = CLI_INCLUDE, .row = (fn)}
#define CLI_OPT_END {.type = CLI_END}

/* Defines fn, a choices() over a table of structs with `name` and `help` members that ends
 * with a NULL name (the --format tables). */
#define CLI_CHOICES_FROM(fn, table)                                                                \
	static int fn(const struct cli_opt *o_, size_t i_, const char **name_, const char **help_)  \
	{                                                                                           \
		(void)o_;                                                                           \
		*name_ = (table)[i_].name;                                                          \
		*help_ = (table)[i_].help;                                                          \
		return *name_ != NULL;                                                              \
	}

/* Walks a table, expanding CLI_INCLUDE rows: `for (it = {0}; cli_next(t, &it, &row);)`. */
struct cli_iter {
	size_t i, sub;
};
int cli_next(const struct cli_opt *table, struct cli_iter *it, struct cli_opt *row);

/* An allowed value, for choices(): from a NULL-terminated array of names (o->data). */
int cli_choices_from_names(const struct cli_opt *o, size_t i, const char **name, const char **help);

/* Why parsing stopped. */
struct cli_error {
	char msg[1024];
	char unknown[64]; /* the unknown option as typed ("--tests", "-x"), when that was the cause */
	int syntax;       /* the words do not fit the table (a usage line helps), not a bad value */
};

/* Parse argv[1..argc) into args (zeroed by the caller), after applying the table's defaults.
 * Options may come before, between and after operands; "--" ends them. 0 on success (free
 * with cli_free), 1 when -h or --help was given (nothing else checked), -1 with e filled;
 * lists are freed already on 1 and -1. */
int cli_parse(const struct cli_opt *table, int argc, char **argv, void *args, struct cli_error *e);
void cli_free(const struct cli_opt *table, void *args);

/* The row for a long name (as typed, with '-') or a short one; 0 when unknown. */
int cli_find_long(const struct cli_opt *table, const char *name, struct cli_opt *out);
int cli_find_short(const struct cli_opt *table, char c, struct cli_opt *out);
/* The table's option closest to a misspelled long name, or 0 when none is close. */
int cli_closest(const struct cli_opt *table, const char *name, struct cli_opt *out);

/* A row's long name as typed ("sync-mode" for "sync_mode"). */
void cli_long_name(const struct cli_opt *o, char *buf, size_t len);

/* "reaim CMD [-v] [--db FILE] RUN..." (or "reaim CMD [OPTIONS] RUN..." when every option
 * would take more than three lines); the caller frees it. */
char *cli_synopsis(const char *cmd, const struct cli_opt *table);
/* "usage: " and the synopsis, wrapped to 80 columns. */
void cli_print_usage(FILE *f, const char *cmd, const struct cli_opt *table);
/* Every option with its help, wrapped to 80 columns: the body of --help. */
void cli_print_options(FILE *f, const struct cli_opt *table);
/* The same as man(7) .TP paragraphs. */
void cli_print_man(FILE *f, const struct cli_opt *table);

/* Text for roff: '-' and '\' escaped. */
void cli_roff(FILE *f, const char *s);

#endif
