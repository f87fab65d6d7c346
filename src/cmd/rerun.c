/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim rerun`: a stored run again, from what the database holds (its suite text, each
 * workfile's text, the seed and every workload option), so it repeats even when the files
 * have changed or are gone. No file is written: the plan is parsed from the stored text. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "run/run.h"
#include "config/cfg.h"
#include "store/store.h"
#include "util/util.h"

struct rerun_args {
	const char *db, *label;
	int dry_run, verbose, quiet;
	struct cli_list run;
};

const struct cli_opt cmd_rerun_opts[] = {
	CLI_OPT_OPERANDS("RUN", struct rerun_args, run, 1, 1, "the run to repeat: its id, last, last~N or its label",
			 .complete = CLI_COMPLETE_RUN),
	CLI_OPT_STRING(0, "label", "TEXT", struct rerun_args, label,
		       "label of the new run (default: the kernel release, uname -r, as for any run)",
		       .complete = CLI_COMPLETE_LABEL),
	CMD_OPT_DB(struct rerun_args),
	CLI_OPT_FLAG(0, "dry-run", struct rerun_args, dry_run, "print the plan rebuilt from the stored run and exit"),
	CLI_OPT_FLAG('q', "quiet", struct rerun_args, quiet, "no diagnostics but errors"),
	CLI_OPT_FLAG('v', "verbose", struct rerun_args, verbose, "more table columns and diagnostics"),
	CLI_OPT_END,
};

/* What a stored run holds for its plan: workloads, their options and workfile texts. */
struct stored_run {
	struct store_run_row run;
	char *command_line, *suite_text;
	struct store_workload_row *wl;
	size_t nwl;
	struct store_option *opt;
	size_t nopt;
	char **wf_text;		/* per workload */
	struct option_text *ot; /* every option as key and value, in workload order */
	size_t *first, *count;	/* each workload's slice of ot */
};

static void stored_run_free(struct stored_run *s)
{
	for (size_t i = 0; s->wf_text && i < s->nwl; i++)
		free(s->wf_text[i]);
	free(s->wf_text);
	free(s->wl);
	store_options_free(s->opt, s->nopt);
	free(s->ot);
	free(s->first);
	free(s->count);
	free(s->command_line);
	free(s->suite_text);
}

/* Read the run, its workloads, their options and workfile texts; -1 with store_error. */
static int stored_run_read(struct store *st, int64_t id, struct stored_run *s)
{
	memset(s, 0, sizeof(*s));
	if (store_get_run(st, id, &s->run) < 0 || store_get_run_text(st, id, &s->command_line, &s->suite_text) < 0 ||
	    store_get_workloads(st, id, &s->wl, &s->nwl) < 0 ||
	    store_get_workload_options(st, id, &s->opt, &s->nopt) < 0)
		return -1;
	s->wf_text = xcalloc(s->nwl + 1, sizeof(char *));
	s->ot = xcalloc(s->nopt + 1, sizeof(*s->ot));
	s->first = xcalloc(s->nwl + 1, sizeof(size_t));
	s->count = xcalloc(s->nwl + 1, sizeof(size_t));
	for (size_t k = 0; k < s->nopt; k++)
		s->ot[k] = (struct option_text){s->opt[k].key, s->opt[k].value};
	/* both come ordered by workload id, so each workload's options are one slice */
	size_t k = 0;
	for (size_t i = 0; i < s->nwl; i++) {
		while (k < s->nopt && s->opt[k].workload_id < s->wl[i].id)
			k++;
		s->first[i] = k;
		while (k < s->nopt && s->opt[k].workload_id == s->wl[i].id)
			k++;
		s->count[i] = k - s->first[i];
		if (store_get_workfile_text(st, s->wl[i].id, &s->wf_text[i]) < 0)
			return -1;
	}
	return 0;
}

static const char *option_of(const struct stored_run *s, size_t w, const char *key)
{
	for (size_t k = s->first[w]; k < s->first[w] + s->count[w]; k++)
		if (strcmp(s->ot[k].key, key) == 0)
			return s->ot[k].value;
	return NULL;
}

/* Single mode stores each test of a workload as its own row, with jobs_per_task 1 and the
 * whole workfile's text: row b continues row a's workload when only that differs and its test
 * is not seen again since row `from`. */
static int same_single(const struct stored_run *s, size_t from, size_t a, size_t b)
{
	const char *ma = option_of(s, a, "mode"), *mb = option_of(s, b, "mode");
	if (!ma || !mb || strcmp(ma, "single") != 0 || strcmp(mb, "single") != 0 || s->count[a] != s->count[b] ||
	    strcmp(s->wl[a].workfile_name, s->wl[b].workfile_name) != 0 || strcmp(s->wf_text[a], s->wf_text[b]) != 0)
		return 0;
	for (size_t k = 0; k < s->count[a]; k++) {
		const struct option_text *x = &s->ot[s->first[a] + k], *y = &s->ot[s->first[b] + k];
		if (strcmp(x->key, y->key) != 0 ||
		    (strcmp(x->key, "jobs_per_task") != 0 && strcmp(x->value, y->value) != 0))
			return 0;
	}
	for (size_t i = from; i < b; i++)
		if (strcmp(s->wl[i].name, s->wl[b].name) == 0)
			return 0;
	return 1;
}

/* The workloads to run again: one per stored row, or per run of a single-mode workload's rows. */
static size_t stored_workloads(const struct stored_run *s, struct stored_workload *out)
{
	size_t n = 0, from = 0;
	for (size_t i = 0; i < s->nwl; i++) {
		if (n && same_single(s, from, from, i))
			continue;
		const char *mode = option_of(s, i, "mode");
		int single = mode && strcmp(mode, "single") == 0;
		from = i;
		out[n++] = (struct stored_workload){
			.name = single ? s->wl[i].workfile_name : s->wl[i].name,
			.workfile_name = s->wl[i].workfile_name,
			.workfile_text = s->wf_text[i],
			.opts = &s->ot[s->first[i]],
			.nopts = s->count[i],
		};
	}
	return n;
}

/* The plan of the stored run; OUT_OK, or the outcome after printing why not. */
static enum outcome rebuild(struct store *st, int64_t id, const char *label, struct plan *p, char *uuid,
			    size_t uuid_len)
{
	struct stored_run s;
	enum outcome out = OUT_OK;
	if (stored_run_read(st, id, &s) < 0) {
		log_error("%s", store_error(st));
		stored_run_free(&s);
		return OUT_FAILED;
	}
	for (size_t i = 0; i < s.nwl && out == OUT_OK; i++) {
		if (s.count[i] == 0) {
			log_error("run %lld was stored before reaim kept every option of a workload; it cannot be "
				  "repeated exactly (run its suite again instead)",
				  (long long)id);
			out = OUT_USAGE;
		}
	}
	struct stored_workload *w = xcalloc(s.nwl + 1, sizeof(*w));
	size_t n = stored_workloads(&s, w);
	char where[48];
	snprintf(where, sizeof(where), "run %lld", (long long)id);
	struct errlist errs = {0};
	memset(p, 0, sizeof(*p));
	const struct stored_suite run = {.where = where,
					 .suite_name = s.run.suite,
					 .suite_text = s.suite_text,
					 .wl = w,
					 .nwl = n,
					 .label = label};
	if (out == OUT_OK && plan_from_stored(&run, p, &errs) < 0) {
		errlist_print(&errs);
		out = OUT_USAGE;
	}
	if (out == OUT_OK)
		log_info("repeating run %lld (%s, label %s): %zu workload%s, seed %lld, from the stored suite and "
			 "workfiles",
			 (long long)id, s.run.suite, s.run.label, p->nwl, p->nwl == 1 ? "" : "s",
			 (long long)s.run.seed);
	snprintf(uuid, uuid_len, "%s", s.run.uuid);
	errlist_free(&errs);
	free(w);
	stored_run_free(&s);
	return out;
}

enum outcome cmd_rerun(const struct command *self, int argc, char **argv)
{
	struct rerun_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	if (a.quiet)
		log_set_level(0);
	if (a.verbose)
		log_set_level(2);
	int64_t id;
	char uuid[40] = "";
	struct plan p = {0};
	struct store *st = cmd_open_store(a.db);
	if (!st)
		out = OUT_FAILED;
	else if ((out = cmd_resolve_run(st, a.run.v[0], &id)) != OUT_OK)
		;
	else
		out = rebuild(st, id, a.label, &p, uuid, sizeof(uuid));
	store_close(st); /* the run opens the database again, for writing */
	if (out == OUT_OK) {
		char *cmdline = cmd_join_args(self, argc, argv);
		const struct run_request rq = {.db = a.db, .verbose = a.verbose, .command_line = cmdline, .rerun_of = uuid};
		out = cmd_run_plan(&p, a.dry_run, &rq, NULL);
		free(cmdline);
	}
	plan_free(&p);
	cli_free(self->opts, &a);
	return out;
}
