/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The option-table parser and the help, usage and man text drawn from the same table. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opt.h"
#include "util/util.h"

#define WIDTH 80      /* help and usage fit a mail or a terminal */
#define HELP_COLUMN 29 /* where an option's help starts */

int cli_next(const struct cli_opt *table, struct cli_iter *it, struct cli_opt *row)
{
	while (table[it->i].type != CLI_END) {
		const struct cli_opt *r = &table[it->i];
		if (r->type != CLI_INCLUDE) {
			*row = *r;
			it->i++;
			return 1;
		}
		if (r->row(it->sub, row)) {
			it->sub++;
			return 1;
		}
		it->i++;
		it->sub = 0;
	}
	return 0;
}

int cli_choices_from_names(const struct cli_opt *o, size_t i, const char **name, const char **help)
{
	const char *const *names = o->data;
	*name = names[i];
	*help = NULL;
	return names[i] != NULL;
}

void cli_long_name(const struct cli_opt *o, char *buf, size_t len)
{
	size_t i = 0;
	for (; o->name && o->name[i] && i + 1 < len; i++)
		buf[i] = o->name[i] == '_' ? '-' : o->name[i];
	buf[i] = '\0';
}

/* Whether the table's name (with '_' typed as '-') is the n typed characters. */
static int long_is(const char *name, const char *typed, size_t n)
{
	size_t i = 0;
	for (; i < n && name[i]; i++)
		if (typed[i] != (name[i] == '_' ? '-' : name[i]))
			return 0;
	return i == n && name[i] == '\0';
}

/* The row with this long name (its n typed characters) or, when name is NULL, this short
 * one: its index counting included rows, or -1. */
static long find_row(const struct cli_opt *table, const char *name, size_t n, char c, struct cli_opt *out)
{
	struct cli_iter it = {0};
	for (long k = 0; cli_next(table, &it, out); k++)
		if (out->type != CLI_OPERANDS &&
		    (name ? out->name && long_is(out->name, name, n) : c && out->short_name == c))
			return k;
	return -1;
}

int cli_find_long(const struct cli_opt *table, const char *name, struct cli_opt *out)
{
	return find_row(table, name, strlen(name), 0, out) >= 0;
}

int cli_find_short(const struct cli_opt *table, char c, struct cli_opt *out)
{
	return find_row(table, NULL, 0, c, out) >= 0;
}

int cli_closest(const struct cli_opt *table, const char *name, struct cli_opt *out)
{
	const char *names[256];
	struct cli_opt rows[256];
	char spelled[256][48];
	size_t n = 0;
	struct cli_iter it = {0};
	while (n < ARRAY_SIZE(rows) && cli_next(table, &it, &rows[n]))
		if (rows[n].type != CLI_OPERANDS && rows[n].name) {
			cli_long_name(&rows[n], spelled[n], sizeof(spelled[n]));
			names[n] = spelled[n];
			n++;
		}
	long k = closest_name(name, names, n);
	if (k < 0)
		return 0;
	*out = rows[k];
	return 1;
}

static int takes_value(const struct cli_opt *o)
{
	return o->type != CLI_FLAG && (o->type != CLI_CALLBACK || o->arg);
}

/* "--name" or "-c", as a message names an option. */
static void spelled(const struct cli_opt *o, char *buf, size_t len)
{
	if (o->name) {
		char l[64];
		cli_long_name(o, l, sizeof(l));
		snprintf(buf, len, "--%s", l);
	} else {
		snprintf(buf, len, "-%c", o->short_name);
	}
}

static void list_append(struct cli_list *l, const char *v)
{
	l->v = xrealloc(l->v, (l->count + 1) * sizeof(*l->v));
	l->v[l->count++] = v;
}

/* The allowed values of o, as "a, b, c". */
static void choice_names(const struct cli_opt *o, char *buf, size_t len)
{
	const char *name, *help;
	buf[0] = '\0';
	for (size_t i = 0; o->choices(o, i, &name, &help); i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", name);
}

/* The table's own string for value, or NULL (with a suggestion in hint). */
static const char *find_choice(const struct cli_opt *o, const char *value, char *hint, size_t len)
{
	const char *name, *help, *names[128];
	size_t n = 0;
	for (size_t i = 0; o->choices(o, i, &name, &help); i++) {
		if (strcmp(name, value) == 0)
			return name;
		if (n < ARRAY_SIZE(names))
			names[n++] = name;
	}
	long k = closest_name(value, names, n);
	snprintf(hint, len, k >= 0 ? "; did you mean %s?" : "", k >= 0 ? names[k] : "");
	return NULL;
}

static int set_double(const struct cli_opt *o, const char *value, double *slot, const char *who,
		      struct cli_error *e)
{
	double d = 0;
	int number = parse_double(value, -DBL_MAX, DBL_MAX, &d) == 0; /* finite and decimal: no hex, nan */
	int low = (o->flags & CLI_ABOVE_MIN) ? d > o->dmin : d >= o->dmin;
	int high = (o->flags & CLI_BELOW_MAX) ? d < o->dmax : d <= o->dmax;
	if (!number || !low || !high) {
		if (o->flags & (CLI_ABOVE_MIN | CLI_BELOW_MAX))
			snprintf(e->msg, sizeof(e->msg), "%s %s: not a number %s %g and %s %g", who, value,
				 (o->flags & CLI_ABOVE_MIN) ? "above" : "from", o->dmin,
				 (o->flags & CLI_BELOW_MAX) ? "below" : "up to", o->dmax);
		else
			snprintf(e->msg, sizeof(e->msg), "%s %s: not a number from %g to %g", who, value, o->dmin, o->dmax);
		return -1;
	}
	*slot = d;
	return 0;
}

/* Store one value (NULL for a flag) of row o into args. */
static int take(const struct cli_opt *o, const char *value, void *args, struct cli_error *e)
{
	void *slot = (char *)args + o->offset;
	char who[80], hint[96];
	long long v;
	spelled(o, who, sizeof(who));
	switch (o->type) {
	case CLI_FLAG:
		*(int *)slot = 1;
		return 0;
	case CLI_STRING:
		*(const char **)slot = value;
		return 0;
	case CLI_INT:
		if (parse_long(value, o->min, o->max, &v) < 0) {
			snprintf(e->msg, sizeof(e->msg), "%s %s: not a whole number from %lld to %lld", who, value, o->min,
				 o->max);
			return -1;
		}
		*(long long *)slot = v;
		return 0;
	case CLI_DOUBLE:
		return set_double(o, value, slot, who, e);
	case CLI_LIST:
	case CLI_OPERANDS:
		list_append(slot, value);
		return 0;
	case CLI_CHOICE: {
		const char *name = find_choice(o, value, hint, sizeof(hint));
		if (!name) {
			char all[400];
			choice_names(o, all, sizeof(all));
			snprintf(e->msg, sizeof(e->msg), "%s %.100s: not one of %s%s", who, value, all, hint);
			return -1;
		}
		*(const char **)slot = name;
		return 0;
	}
	case CLI_CALLBACK:
		return o->set(args, o, value, e->msg, sizeof(e->msg));
	case CLI_INCLUDE:
	case CLI_END:
		break;
	}
	snprintf(e->msg, sizeof(e->msg), "%s: not an option that takes a value", who);
	return -1;
}

static int apply_defaults(const struct cli_opt *table, void *args, struct cli_error *e)
{
	struct cli_iter it = {0};
	struct cli_opt o;
	while (cli_next(table, &it, &o))
		if (o.def && o.type != CLI_CALLBACK && o.type != CLI_FLAG && take(&o, o.def, args, e) < 0)
			return -1;
	return 0;
}

static int unknown_option(const struct cli_opt *table, const char *typed, size_t n, struct cli_error *e)
{
	struct cli_opt near;
	char name[64];
	e->syntax = 1;
	snprintf(e->unknown, sizeof(e->unknown), "%.*s", (int)n, typed);
	snprintf(e->msg, sizeof(e->msg), "unknown option '%s'", e->unknown);
	if (e->unknown[1] == '-' && cli_closest(table, e->unknown + 2, &near)) {
		cli_long_name(&near, name, sizeof(name));
		snprintf(e->msg + strlen(e->msg), sizeof(e->msg) - strlen(e->msg), "; did you mean --%s?", name);
	}
	return -1;
}

/* One "--name", "--name=value" or "--name value" at argv[*i]. */
static int long_option(const struct cli_opt *table, int argc, char **argv, int *i, void *args,
		       struct cli_error *e, unsigned char *seen)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t n = eq ? (size_t)(eq - name) : strlen(name);
	struct cli_opt o;
	long row = find_row(table, name, n, 0, &o);
	if (row < 0) {
		if (long_is("help", name, n))
			return 1;
		return unknown_option(table, argv[*i], n + 2, e);
	}
	const char *value = NULL;
	if (takes_value(&o)) {
		if (eq)
			value = eq + 1;
		else if (*i + 1 < argc)
			value = argv[++*i];
		else {
			snprintf(e->msg, sizeof(e->msg), "option '--%.*s' needs a value (%s)", (int)n, name, o.arg ? o.arg : "");
			e->syntax = 1;
			return -1;
		}
	} else if (eq) {
		snprintf(e->msg, sizeof(e->msg), "option '--%.*s' takes no value", (int)n, name);
		e->syntax = 1;
		return -1;
	}
	seen[row] = 1;
	return take(&o, value, args, e);
}

/* A cluster of short options at argv[*i]: "-v", "-vq", "-n5", "-n 5". */
static int short_options(const struct cli_opt *table, int argc, char **argv, int *i, void *args,
			 struct cli_error *e, unsigned char *seen)
{
	for (const char *c = argv[*i] + 1; *c; c++) {
		struct cli_opt o;
		long row = find_row(table, NULL, 0, *c, &o);
		if (row < 0) {
			if (*c == 'h')
				return 1;
			char typed[3] = {'-', *c, '\0'};
			return unknown_option(table, typed, 2, e);
		}
		seen[row] = 1;
		if (!takes_value(&o)) {
			if (take(&o, NULL, args, e) < 0)
				return -1;
			continue;
		}
		const char *value = c[1] ? c + 1 : *i + 1 < argc ? argv[++*i] : NULL;
		if (!value) {
			snprintf(e->msg, sizeof(e->msg), "option '-%c' needs a value (%s)", *c, o.arg ? o.arg : "");
			e->syntax = 1;
			return -1;
		}
		return take(&o, value, args, e);
	}
	return 0;
}

/* After the words: operand counts and allowed values, and required options. */
static int check_done(const struct cli_opt *table, void *args, const unsigned char *seen, struct cli_error *e)
{
	struct cli_iter it = {0};
	struct cli_opt o;
	for (size_t row = 0; cli_next(table, &it, &o); row++) {
		if (o.type == CLI_OPERANDS) {
			const struct cli_list *l = (const struct cli_list *)((const char *)args + o.offset);
			char hint[96];
			if (l->count < (size_t)o.min) {
				snprintf(e->msg, sizeof(e->msg), "missing %s", o.arg);
				e->syntax = 1;
				return -1;
			}
			if (o.max >= 0 && l->count > (size_t)o.max) {
				snprintf(e->msg, sizeof(e->msg), "unexpected argument '%s'", l->v[o.max]);
				e->syntax = 1;
				return -1;
			}
			for (size_t k = 0; o.choices && k < l->count; k++)
				if (!find_choice(&o, l->v[k], hint, sizeof(hint))) {
					char all[400];
					choice_names(&o, all, sizeof(all));
					snprintf(e->msg, sizeof(e->msg), "%s '%.100s': not one of %s%s", o.arg, l->v[k], all, hint);
					return -1;
				}
		} else if ((o.flags & CLI_REQUIRED) && !seen[row]) {
			char who[80];
			spelled(&o, who, sizeof(who));
			snprintf(e->msg, sizeof(e->msg), "missing %s %s", who, o.arg ? o.arg : "");
			e->syntax = 1;
			return -1;
		}
	}
	return 0;
}

static size_t row_count(const struct cli_opt *table)
{
	struct cli_iter it = {0};
	struct cli_opt o;
	size_t n = 0;
	while (cli_next(table, &it, &o))
		n++;
	return n;
}

int cli_parse(const struct cli_opt *table, int argc, char **argv, void *args, struct cli_error *e)
{
	memset(e, 0, sizeof(*e));
	if (apply_defaults(table, args, e) < 0)
		return -1;
	size_t nrows = row_count(table);
	unsigned char *seen = xcalloc(nrows + 1, 1);
	struct cli_opt operands = {.type = CLI_END};
	struct cli_iter it = {0};
	while (cli_next(table, &it, &operands) && operands.type != CLI_OPERANDS)
		;
	int rc = 0, only_operands = 0;
	for (int i = 1; i < argc && rc == 0; i++) {
		const char *a = argv[i];
		if (only_operands || a[0] != '-' || a[1] == '\0') {
			if (operands.type != CLI_OPERANDS) {
				snprintf(e->msg, sizeof(e->msg), "unexpected argument '%s'", a);
				e->syntax = 1;
				rc = -1;
			} else {
				rc = take(&operands, a, args, e);
			}
		} else if (strcmp(a, "--") == 0) {
			only_operands = 1;
		} else if (a[1] == '-') {
			rc = long_option(table, argc, argv, &i, args, e, seen);
		} else {
			rc = short_options(table, argc, argv, &i, args, e, seen);
		}
	}
	if (rc == 0)
		rc = check_done(table, args, seen, e);
	free(seen);
	if (rc != 0)
		cli_free(table, args); /* the caller will not look at them */
	return rc;
}

void cli_free(const struct cli_opt *table, void *args)
{
	struct cli_iter it = {0};
	struct cli_opt o;
	while (cli_next(table, &it, &o))
		if (o.type == CLI_LIST || o.type == CLI_OPERANDS) {
			struct cli_list *l = (struct cli_list *)((char *)args + o.offset);
			free(l->v);
			l->v = NULL;
			l->count = 0;
		}
}

/* ---- help, usage and man text ---- */

/* Print text word by word from column col, breaking lines before WIDTH and indenting the
 * continuation lines to indent; returns the column reached. */
static size_t wrap(FILE *f, const char *text, size_t col, size_t indent)
{
	while (*text) {
		size_t n = strcspn(text, " ");
		if (col > indent && col + 1 + n >= WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)n, text);
		col += n;
		text += n;
		while (*text == ' ')
			text++;
	}
	return col;
}

/* An operand row as the synopsis shows it: "RUN", "[RUN]", "RUN...", "[FILE...]". */
static void operand_synopsis(const struct cli_opt *o, char *buf, size_t len)
{
	const char *more = o->max < 0 || o->max > 1 ? "..." : "";
	if (o->min == 0)
		snprintf(buf, len, "[%s%s]", o->arg, more);
	else
		snprintf(buf, len, "%s%s", o->arg, more);
}

/* One option in the synopsis: "[-n N]", "[--db FILE]", "-o FILE" (required). */
static void option_synopsis(const struct cli_opt *o, char *buf, size_t len)
{
	char flag[64];
	if (o->short_name)
		snprintf(flag, sizeof(flag), "-%c", o->short_name);
	else
		spelled(o, flag, sizeof(flag));
	int req = (o->flags & CLI_REQUIRED) != 0;
	snprintf(buf, len, "%s%s%s%s%s", req ? "" : "[", flag, takes_value(o) ? " " : "",
		 takes_value(o) && o->arg ? o->arg : "", req ? "" : "]");
}

char *cli_synopsis(const char *cmd, const struct cli_opt *table)
{
	struct strbuf sb = {0};
	char part[160];
	struct cli_iter it = {0};
	struct cli_opt o;
	strbuf_addf(&sb, "reaim %s", cmd);
	size_t head = sb.len;
	while (cli_next(table, &it, &o))
		if (o.type != CLI_OPERANDS) {
			option_synopsis(&o, part, sizeof(part));
			strbuf_addf(&sb, " %s", part);
		}
	if (sb.len > 3 * (WIDTH - head - 8)) {
		sb.len = head;
		strbuf_add(&sb, " [OPTIONS]", 10);
		for (it = (struct cli_iter){0}; cli_next(table, &it, &o);)
			if (o.type != CLI_OPERANDS && (o.flags & CLI_REQUIRED)) {
				option_synopsis(&o, part, sizeof(part));
				strbuf_addf(&sb, " %s", part);
			}
	}
	for (it = (struct cli_iter){0}; cli_next(table, &it, &o);)
		if (o.type == CLI_OPERANDS) {
			operand_synopsis(&o, part, sizeof(part));
			strbuf_addf(&sb, " %s", part);
		}
	return sb.buf;
}

void cli_print_usage(FILE *f, const char *cmd, const struct cli_opt *table)
{
	char *synopsis = cli_synopsis(cmd, table);
	size_t indent = strlen("usage: reaim ") + strlen(cmd) + 1, col = 0;
	fputs("usage: ", f);
	col = 7;
	/* break only between bracketed groups, so "[-n N]" stays whole */
	for (char *p = synopsis; *p;) {
		size_t n = 0;
		int depth = 0;
		while (p[n] && (depth > 0 || p[n] != ' ')) {
			depth += (p[n] == '[') - (p[n] == ']');
			n++;
		}
		if (col > 7 && col + 1 + n >= WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > 7) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)n, p);
		col += n;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
	free(synopsis);
}

/* The option's spellings: "-s, --suite", "--db" or "-n". */
static void flag_text(const struct cli_opt *o, char *buf, size_t len)
{
	char l[64];
	cli_long_name(o, l, sizeof(l));
	if (o->short_name && o->name)
		snprintf(buf, len, "-%c, --%s", o->short_name, l);
	else if (o->short_name)
		snprintf(buf, len, "-%c", o->short_name);
	else
		snprintf(buf, len, "--%s", l);
}

/* "-s, --suite SUITE" or "    --db FILE" (long-only options line up) or "RUN...". */
static void left_column(const struct cli_opt *o, char *buf, size_t len)
{
	char flag[96];
	if (o->type == CLI_OPERANDS) {
		snprintf(buf, len, "%s%s", o->arg, o->max < 0 || o->max > 1 ? "..." : "");
		return;
	}
	flag_text(o, flag, sizeof(flag));
	const char *arg = takes_value(o) && o->arg ? o->arg : "";
	snprintf(buf, len, "%s%s%s%s", o->short_name ? "" : "    ", flag, *arg ? " " : "", arg);
}

/* Whether any allowed value of o has its own help (then each gets a line). */
static int choices_have_help(const struct cli_opt *o)
{
	const char *name, *help;
	for (size_t i = 0; o->choices && o->choices(o, i, &name, &help); i++)
		if (help)
			return 1;
	return 0;
}

/* The help text with the default: "help (default X)", or "help (default X):" before a list. */
static void help_text(const struct cli_opt *o, char *buf, size_t len)
{
	const char *h = o->help ? o->help : "";
	size_t n = strlen(h);
	int colon = n && h[n - 1] == ':';
	if (o->def && !(o->type == CLI_CALLBACK && strcmp(o->def, "0") == 0))
		snprintf(buf, len, "%.*s%s(default %s)%s", (int)(n - (size_t)colon), h, n ? " " : "", o->def,
			 colon ? ":" : "");
	else
		snprintf(buf, len, "%s", h);
}

void cli_print_options(FILE *f, const struct cli_opt *table)
{
	struct cli_iter it = {0};
	struct cli_opt o;
	char left[128];
	/* the parser's own --help (and -h, unless the table gives it another meaning) */
	int has_help_row = cli_find_long(table, "help", &o);
	const struct cli_opt help_row = {.name = "help", .short_name = cli_find_short(table, 'h', &o) ? 0 : 'h',
					 .type = CLI_FLAG, .help = "show this help and exit"};
	for (int last = 0; !last;) {
		if (!cli_next(table, &it, &o)) {
			if (has_help_row)
				break;
			o = help_row;
			last = 1;
		}
		left_column(&o, left, sizeof(left));
		size_t col = (size_t)fprintf(f, "  %s", left);
		if (col + 2 > HELP_COLUMN) {
			fprintf(f, "\n%*s", HELP_COLUMN, "");
		} else {
			fprintf(f, "%*s", (int)(HELP_COLUMN - col), "");
		}
		char text[1024];
		help_text(&o, text, sizeof(text));
		wrap(f, text, HELP_COLUMN, HELP_COLUMN);
		fputc('\n', f);
		if (choices_have_help(&o)) {
			const char *name, *help;
			size_t w = 0;
			for (size_t i = 0; o.choices(&o, i, &name, &help); i++)
				w = strlen(name) > w ? strlen(name) : w;
			for (size_t i = 0; o.choices(&o, i, &name, &help); i++) {
				col = (size_t)fprintf(f, "%*s%-*s ", HELP_COLUMN + 2, "", (int)w, name);
				wrap(f, help ? help : "", col, col);
				fputc('\n', f);
			}
		}
	}
}

void cli_roff(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void cli_print_man(FILE *f, const struct cli_opt *table)
{
	struct cli_iter it = {0};
	struct cli_opt o;
	char flag[96];
	while (cli_next(table, &it, &o)) {
		fprintf(f, ".TP\n.B ");
		if (o.type == CLI_OPERANDS) {
			fprintf(f, "\\fI");
			cli_roff(f, o.arg);
			fprintf(f, "%s\\fR\n", o.max < 0 || o.max > 1 ? "..." : "");
		} else {
			flag_text(&o, flag, sizeof(flag));
			cli_roff(f, flag);
			if (takes_value(&o) && o.arg) {
				fprintf(f, " \\fI");
				cli_roff(f, o.arg);
				fprintf(f, "\\fR");
			}
			fputc('\n', f);
		}
		char text[1024];
		help_text(&o, text, sizeof(text));
		cli_roff(f, text);
		fprintf(f, "%s\n", text[0] && text[strlen(text) - 1] == ':' ? "" : ".");
		if (choices_have_help(&o)) {
			const char *name, *help;
			fprintf(f, ".RS\n");
			for (size_t i = 0; o.choices(&o, i, &name, &help); i++) {
				fprintf(f, ".TP\n.B ");
				cli_roff(f, name);
				fputc('\n', f);
				cli_roff(f, help ? help : "");
				fputc('\n', f);
			}
			fprintf(f, ".RE\n");
		}
	}
}
