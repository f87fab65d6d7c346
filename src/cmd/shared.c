/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every command shares: parsing with its table (and the hints an error gets), its
 * --help, and opening the results database the same way, with the same outcome. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "analysis/cmpmodel.h"
#include "config/cfg.h"
#include "store/store.h"
#include "util/util.h"

void cmd_print_help(FILE *f, const struct command *cmd)
{
	cli_print_usage(f, cmd->name, cmd->opts);
	fprintf(f, "\n%s\n\n", cmd->summary);
	cli_print_options(f, cmd->opts);
}

/* "'--tests' is an option of reaim show": the commands whose tables have the option. */
static void other_commands_hint(const struct command *self, const char *typed)
{
	struct strbuf sb = {0};
	struct cli_opt o;
	for (size_t i = 0; i < self->all->count; i++) {
		const struct command *c = &self->all->rows[i];
		if (c->hidden || c->opts == self->opts)
			continue;
		int has = typed[1] == '-' ? cli_find_long(c->opts, typed + 2, &o) : cli_find_short(c->opts, typed[1], &o);
		if (has)
			strbuf_addf(&sb, "%sreaim %s", sb.len ? ", " : "", c->name);
	}
	if (sb.len)
		fprintf(stderr, "reaim: '%s' is an option of %s, not of reaim %s\n", typed, sb.buf, self->name);
	strbuf_free(&sb);
}

int cmd_parse(const struct command *self, int argc, char **argv, void *args, enum outcome *out)
{
	struct cli_error e;
	int rc = cli_parse(self->opts, argc, argv, args, &e);
	if (rc == 0)
		return 0;
	if (rc > 0) {
		cmd_print_help(stdout, self);
		*out = OUT_OK;
		return 1;
	}
	log_error("%s", e.msg);
	if (e.unknown[0])
		other_commands_hint(self, e.unknown);
	if (e.syntax) {
		cli_print_usage(stderr, self->name, self->opts);
		fprintf(stderr, "('reaim %s --help' explains every option)\n", self->name);
	}
	*out = OUT_USAGE;
	return 1;
}

struct store *cmd_open_store(const char *db_flag)
{
	const char *db = store_db_path(db_flag);
	char err[STORE_ERR_MAX];
	struct store *st;
	if (store_open_read(db, &st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return NULL;
	}
	return st;
}

enum outcome cmd_resolve_run(struct store *st, const char *run, int64_t *id)
{
	int rc = store_resolve_run(st, run ? run : "last", id);
	if (rc != 0)
		log_error("%s", store_error(st));
	return rc == 0 ? OUT_OK : rc > 0 ? OUT_USAGE : OUT_FAILED;
}

const struct command *cmd_find(const struct command_table *t, const char *name)
{
	for (size_t i = 0; i < t->count; i++)
		if (strcmp(name, t->rows[i].name) == 0)
			return &t->rows[i];
	return NULL;
}

void cmd_overview(FILE *f, const struct command_table *t)
{
	fprintf(f, "usage: reaim [COMMAND] [OPTIONS] [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < t->count; i++)
		if (!t->rows[i].hidden)
			fprintf(f, "  %-11s %s\n", t->rows[i].name, t->rows[i].summary);
	fprintf(f, "\nto begin:\n"
		   "  reaim -s quick                   a short suite, stored in results/reaim.db\n"
		   "  reaim show last                  the last run again\n"
		   "  reaim compare RUN_A RUN_B        the change per task count, and how sure it is\n"
		   "\n'reaim --help' adds every run option; 'reaim COMMAND --help' lists a command's options;\n"
		   "'reaim man 1' documents them all.\n");
}

void cmd_usage(FILE *f, const struct command_table *t)
{
	fprintf(f, "usage: reaim [COMMAND] [OPTIONS] [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < t->count; i++)
		if (!t->rows[i].hidden)
			fprintf(f, "  %-11s %s\n", t->rows[i].name, t->rows[i].summary);
	fprintf(f, "\n'reaim COMMAND --help' lists a command's options; 'reaim man 1' documents them all.\n"
		   "\nrun options (each is also a suite key, with '_' for '-'):\n");
	cli_print_options(f, t->rows[0].opts);
	fprintf(f, "\nclassic re-aim command lines (-s 1 -e 8 -i 1 -f workfile.dbase -c reaim.config ...) run\n"
		   "as classic read them; 'reaim -e 1 -h' lists their flags.\n");
	fprintf(f, "\nexit status: 0 ok, 1 usage or configuration error, 2 the run failed, a point is not\n"
		   "trustworthy or the results database could not be used, 3 interrupted, 4 compare found\n"
		   "a regression beyond the threshold, 5 compare could not judge (compare --bisect: 0 good,\n"
		   "1 bad, 125 skip, 128 stop: could not judge, or failed)\n");
}

enum outcome cmd_resolve_groups(struct store *st, const struct cli_list *specs, struct compare_group *g, int one_side_ok)
{
	for (size_t i = 0; i < specs->count; i++) {
		char *copy = xstrdup(specs->v[i]), *save = NULL;
		int64_t *ids = NULL;
		size_t n = 0;
		for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			int64_t *got;
			size_t ng;
			int rc = store_resolve_group(st, w, &got, &ng);
			if (rc != 0) {
				log_error("%s", store_error(st));
				free(copy);
				free(ids);
				return rc > 0 ? OUT_USAGE : OUT_FAILED;
			}
			ids = xrealloc(ids, (n + ng + 1) * sizeof(*ids));
			for (size_t k = 0; k < ng; k++) {
				size_t q = 0;
				while (q < n && ids[q] != got[k])
					q++;
				if (q == n)
					ids[n++] = got[k];
			}
			free(got);
		}
		free(copy);
		g[i] = (struct compare_group){ids, n};
		if (n == 0) {
			log_error("'%s' names no run", specs->v[i]);
			return OUT_USAGE;
		}
		for (size_t k = 0; k < i; k++)
			for (size_t a = 0; a < g[k].n; a++)
				for (size_t b = 0; b < n; b++)
					if (g[k].runs[a] == ids[b]) {
						log_error("run %lld is in '%s' and in '%s': a run can be on one side only",
							  (long long)ids[b], specs->v[k], specs->v[i]);
						return OUT_USAGE;
					}
	}
	if (specs->count == 1 && g[0].n > 1 && !one_side_ok) {
		log_error("'%s' is %zu runs, one side: give a second group to compare with (%s OTHER), or one run "
			  "made with --variant or --osync both", specs->v[0], g[0].n, specs->v[0]);
		return OUT_USAGE;
	}
	return OUT_OK;
}

void cmd_groups_free(struct compare_group *g, size_t n)
{
	for (size_t i = 0; g && i < n; i++)
		free((int64_t *)g[i].runs);
	free(g);
}

static const char *const correction_help[] = {"Holm's step-down: the chance of any false alarm stays below LEVEL",
					      "Benjamini-Hochberg: the expected share of false alarms stays below LEVEL"};

int cmd_correction_at(const struct cli_opt *o, size_t i, const char **name, const char **help)
{
	(void)o;
	*name = compare_correction_names[i];
	*help = *name ? correction_help[i] : NULL;
	return *name != NULL;
}

int cmd_stat_at(const struct cli_opt *o, size_t i, const char **name, const char **help)
{
	(void)o;
	*name = compare_stats[i].name;
	*help = *name ? compare_stats[i].help : NULL;
	return *name != NULL;
}

int cmd_stats_check(const struct cli_list *names)
{
	for (size_t i = 0; i < names->count; i++)
		if (compare_stat_find(names->v[i]) < 0) {
			struct strbuf all = {0};
			for (size_t k = 0; compare_stats[k].name; k++)
				strbuf_addf(&all, "%s%s", k ? ", " : "", compare_stats[k].name);
			char shown[128];
			text_copy(shown, sizeof(shown), names->v[i]);
			log_error("--stat %s: not one of %s", shown, all.buf);
			strbuf_free(&all);
			return -1;
		}
	return 0;
}

size_t cmd_stats_of(const struct cli_list *names, int *stats)
{
	size_t n = 0;
	for (size_t i = 0; i < names->count; i++) {
		int k = compare_stat_find(names->v[i]); /* the parser took only the table's names */
		for (size_t j = 0; j < n; j++)
			k = stats[j] == k ? -1 : k;
		if (k >= 0 && n < COMPARE_NSTATS)
			stats[n++] = k;
	}
	return n;
}

int cmd_metric_at(const struct cli_opt *o, size_t i, const char **name, const char **help)
{
	(void)o;
	*name = metric_list()[i].name;
	*help = metric_list()[i].label;
	return *name != NULL;
}

void cmd_unknown_command(const struct command_table *t, const char *word)
{
	const char *names[64];
	size_t n = 0;
	for (size_t i = 0; i < t->count && n < ARRAY_SIZE(names); i++)
		if (!t->rows[i].hidden)
			names[n++] = t->rows[i].name;
	long k = closest_name(word, names, n);
	if (suite_is_name(word)) /* classic habits: a suite named where a command goes */
		log_error("unknown command '%s'; did you mean `reaim -s %s` (%s is a suite)?", word, word, word);
	else if (k >= 0)
		log_error("unknown command '%s'; did you mean %s?", word, names[k]);
	else
		log_error("unknown command '%s'", word);
	fprintf(stderr, "usage: reaim [COMMAND] [OPTIONS] [ARGS]; commands:");
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, " %s", names[i]);
	fprintf(stderr, "\n");
}

struct store *cmd_open_run(const char *db_flag, const struct cli_list *run, int64_t *id, enum outcome *out)
{
	struct store *st = cmd_open_store(db_flag);
	if (!st) {
		*out = OUT_FAILED;
		return NULL;
	}
	if ((*out = cmd_resolve_run(st, run->count ? run->v[0] : NULL, id)) != OUT_OK) {
		store_close(st);
		return NULL;
	}
	return st;
}
