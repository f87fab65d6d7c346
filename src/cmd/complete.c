/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim __complete -- CWORD WORDS...`: the candidates for the word a shell is completing,
 * from the option tables (so completion follows the parser), the data dirs and the database.
 * The first line says what to offer: "words" (the lines that follow), "files" or "dirs". */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "cmd/cmd.h"
#include "store/store.h"
#include "util/util.h"

struct complete_args {
	struct cli_list words;
};

const struct cli_opt cmd_complete_opts[] = {
	CLI_OPT_OPERANDS("CWORD WORD", struct complete_args, words, 2, -1,
			 "the index of the word to complete, then the words of the line (bash's COMP_CWORD and "
			 "COMP_WORDS)"),
	CLI_OPT_END,
};

/* What is being completed: the word so far, and what goes before each candidate. */
struct target {
	const char *cur, *prefix;
	int printed; /* the kind line */
	const struct command_table *all;
};

static void kind(struct target *t, const char *what)
{
	if (!t->printed)
		printf("%s\n", what);
	t->printed = 1;
}

static void offer(struct target *t, const char *word)
{
	kind(t, "words");
	if (strncmp(word, t->cur, strlen(t->cur)) == 0)
		printf("%s%s\n", t->prefix, word);
}

/* The database the line names with --db, else the default one. */
static const char *line_db(const char **w, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (strcmp(w[i], "--db") == 0 && i + 1 < n)
			return strcmp(w[i + 1], "=") == 0 && i + 2 < n ? w[i + 2] : w[i + 1];
		if (strncmp(w[i], "--db=", 5) == 0)
			return w[i] + 5;
	}
	return store_db_path(NULL);
}

static void offer_labels(struct target *t, const char *db)
{
	struct store *st;
	struct store_run_row *rows;
	size_t n;
	char err[256];
	if (access(db, R_OK) != 0 || store_open_read(db, &st, err, sizeof(err)) < 0)
		return;
	struct run_filter f = {.limit = 1000};
	if (store_list_runs(st, &f, &rows, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			size_t j = 0;
			while (j < i && strcmp(rows[j].label, rows[i].label) != 0)
				j++;
			if (j == i && rows[i].label[0])
				offer(t, rows[i].label);
		}
		free(rows);
	}
	store_close(st);
}

static void offer_data(struct target *t, const char *subdir, const char *suffix, int local)
{
	if (strchr(t->cur, '/')) {
		kind(t, "files");
		return;
	}
	char **names = data_names(subdir, suffix, local);
	for (size_t i = 0; names[i]; i++)
		offer(t, names[i]);
	free_names(names);
}

/* The values an option (or the operands) may take. */
static void offer_values(struct target *t, const struct cli_opt *o, const char **w, size_t n)
{
	const char *name, *help;
	for (size_t i = 0; o->choices && o->choices(o, i, &name, &help); i++)
		offer(t, name);
	const struct test_def *td;
	switch (o->complete) {
	case CLI_COMPLETE_FILE: kind(t, "files"); break;
	case CLI_COMPLETE_DIR: kind(t, "dirs"); break;
	case CLI_COMPLETE_SUITE: offer_data(t, "suites", ".cfg", 1); break;
	case CLI_COMPLETE_WORKFILE: offer_data(t, "workfiles", NULL, 0); break;
	case CLI_COMPLETE_RUN:
		offer(t, "last");
		offer_labels(t, line_db(w, n));
		break;
	case CLI_COMPLETE_LABEL: offer_labels(t, line_db(w, n)); break;
	case CLI_COMPLETE_TEST:
		for (size_t i = 0; (td = test_at(i)) != NULL; i++)
			offer(t, td->name);
		break;
	case CLI_COMPLETE_COMMAND:
		for (size_t i = 0; i < t->all->count; i++)
			if (!t->all->rows[i].hidden)
				offer(t, t->all->rows[i].name);
		break;
	case CLI_COMPLETE_NONE: break;
	}
}

static void offer_options(struct target *t, const struct cli_opt *table)
{
	struct cli_iter it = {0};
	struct cli_opt o;
	char name[80], word[84];
	while (cli_next(table, &it, &o)) {
		if (o.type == CLI_OPERANDS)
			continue;
		if (o.name) {
			cli_long_name(&o, name, sizeof(name));
			snprintf(word, sizeof(word), "--%s", name);
			offer(t, word);
		}
		if (o.short_name && strcmp(t->cur, "-") == 0) {
			snprintf(word, sizeof(word), "-%c", o.short_name);
			offer(t, word);
		}
	}
	offer(t, "--help");
}

/* The option whose value the word at cword is, if it is one; may move t->cur past "--x=". */
static int value_of(const struct cli_opt *table, const char **w, size_t cword, struct target *t,
		    struct cli_opt *o, char *buf, size_t len)
{
	const char *eq = strchr(t->cur, '=');
	if (strcmp(t->cur, "=") == 0 && cword >= 2 && strncmp(w[cword - 1], "--", 2) == 0) {
		t->cur = ""; /* bash split "--db=" at the '=' */
		return cli_find_long(table, w[cword - 1] + 2, o);
	}
	if (cword >= 3 && strcmp(w[cword - 1], "=") == 0 && strncmp(w[cword - 2], "--", 2) == 0)
		return cli_find_long(table, w[cword - 2] + 2, o);
	if (strncmp(t->cur, "--", 2) == 0 && eq) {
		snprintf(buf, len, "%.*s", (int)(eq - t->cur - 2), t->cur + 2);
		t->prefix = xasprintf("%.*s", (int)(eq + 1 - t->cur), t->cur);
		t->cur = eq + 1;
		return cli_find_long(table, buf, o);
	}
	if (cword < 2 || w[cword - 1][0] != '-' || !w[cword - 1][1])
		return 0;
	const char *prev = w[cword - 1];
	if (prev[1] == '-')
		return !strchr(prev, '=') && cli_find_long(table, prev + 2, o) && o->type != CLI_FLAG &&
		       (o->type != CLI_CALLBACK || o->arg);
	/* a cluster: the value follows only when its last option takes one and nothing is attached */
	for (const char *c = prev + 1; *c; c++) {
		if (!cli_find_short(table, *c, o))
			return 0;
		if (o->type != CLI_FLAG && (o->type != CLI_CALLBACK || o->arg))
			return c[1] == '\0';
	}
	return 0;
}

enum outcome cmd_complete(const struct command *self, int argc, char **argv)
{
	struct complete_args a = {0};
	enum outcome out = OUT_OK;
	long long cword;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	const char **w = a.words.v + 1;
	size_t n = a.words.count - 1;
	if (parse_long(a.words.v[0], 0, 100000, &cword) < 0) {
		log_error("CWORD %s: not a word index", a.words.v[0]);
		cli_free(self->opts, &a);
		return OUT_USAGE;
	}
	struct target t = {.cur = (size_t)cword < n ? w[cword] : "", .prefix = "", .all = self->all};
	const struct command *cmd = &self->all->rows[0];
	struct cli_opt o, operands = {.type = CLI_END};
	char buf[80];
	if (cword >= 2 && n > 1 && w[1][0] != '-')
		cmd = cmd_find(self->all, w[1]);
	if (!cmd || cmd->hidden) {
		kind(&t, "words"); /* an unknown command: nothing to offer */
	} else if (cword == 1 && t.cur[0] != '-') {
		for (size_t i = 0; i < self->all->count; i++)
			if (!self->all->rows[i].hidden)
				offer(&t, self->all->rows[i].name);
	} else if (value_of(cmd->opts, w, (size_t)cword, &t, &o, buf, sizeof(buf))) {
		offer_values(&t, &o, w, n);
	} else if (t.cur[0] == '-') {
		offer_options(&t, cmd->opts);
	} else {
		for (struct cli_iter it = {0}; cli_next(cmd->opts, &it, &o);)
			if (o.type == CLI_OPERANDS)
				operands = o;
		if (operands.type == CLI_OPERANDS)
			offer_values(&t, &operands, w, n);
	}
	kind(&t, "words");
	if (t.prefix[0])
		free((char *)t.prefix);
	cli_free(self->opts, &a);
	return OUT_OK;
}
