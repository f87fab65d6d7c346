/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim run` and `reaim single`: the suite or workfile and every row of the option table as
 * options, resolved into a plan and handed to run_plan with the live table as its view.
 * `reaim rerun` and the classic command line hand their plans over through cmd_run_plan. */
#include "config.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/live_table.h"
#include "config/cfg.h"
#include "report/report.h"
#include "run/run.h"
#include "store/store.h"
#include "util/util.h"

struct run_args {
	struct cli_list suites;
	const char *db, *name;
	int dry_run, verbose, quiet;
	int no_quiet_check, require_quiet;
	struct overrides ov;
};

/* A row of the option table (config/options.c) as a command-line option. */
static int set_run_option(void *args, const struct cli_opt *o, const char *value, char *err, size_t len)
{
	struct run_args *a = args;
	const struct option_def *def = o->data;
	char why[256];
	if (!overrides_given(&a->ov, def))
		option_clear(&a->ov.opts, def); /* flags replace the suite's list */
	overrides_mark(&a->ov, def);
	if (option_set(&a->ov.opts, def, value, why, sizeof(why)) < 0) {
		char range[160], flag[64], *shown = text_escape(value);
		option_range(def, range, sizeof(range));
		snprintf(flag, sizeof(flag), "%s", def->key);
		for (char *c = flag; *c; c++)
			*c = *c == '_' ? '-' : *c; /* as it is spelled on the command line */
		char *at = option_fault_at(def, value);
		snprintf(err, len, "--%s %s: %s%s%s%s%s", flag, shown, at, why, range[0] ? " (allowed: " : "", range,
			 range[0] ? ")" : "");
		free(at);
		free(shown);
		return -1;
	}
	return 0;
}

/* --no-counters: the option table's counters row set to off, as --counters off sets it. */
static int set_no_counters(void *args, const struct cli_opt *o, const char *value, char *err, size_t len)
{
	(void)value;
	struct cli_opt row = *o;
	row.data = option_find("counters");
	return set_run_option(args, &row, "off", err, len);
}

static int run_option_choice(const struct cli_opt *o, size_t i, const char **name, const char **help)
{
	const struct option_def *def = o->data;
	*name = def->choices[i];
	*help = NULL;
	return *name != NULL;
}

static int run_option_row(size_t i, struct cli_opt *out)
{
	if (i >= option_count)
		return 0;
	const struct option_def *d = &option_table[i];
	enum cli_complete c = d->offset == offsetof(struct run_opts, workfile) ? CLI_COMPLETE_WORKFILE
			      : d->type == OPT_STRLIST                         ? CLI_COMPLETE_DIR
									       : CLI_COMPLETE_NONE;
	*out = (struct cli_opt){.name = d->key, .short_name = d->short_flag, .type = CLI_CALLBACK, .arg = d->arg,
				.help = d->help, .def = d->def, .set = set_run_option, .data = d, .complete = c,
				.choices = d->choices ? run_option_choice : NULL};
	return 1;
}

/* `reaim run` and `reaim single`: the suite, every row of the option table, then the flags
 * that only the command line has. */
const struct cli_opt cmd_run_opts[] = {
	CLI_OPT_LIST('s', "suite", "SUITE", struct run_args, suites,
		     "a suite: a name (./suites/NAME.cfg, then the data dir) or a path; given more than once, "
		     "each suite is a run of its own, one after the other, every one planned first",
		     .complete = CLI_COMPLETE_SUITE),
	CLI_OPT_INCLUDE(run_option_row),
	CLI_OPT_STRING(0, "name", "NAME", struct run_args, name,
		       "with -f: the workload's name, 1 to 63 letters, digits, '_', '.', '+' or '-' (default the "
		       "workfile's file name)"),
	CMD_OPT_DB(struct run_args),
	CLI_OPT_FLAG(0, "dry-run", struct run_args, dry_run, "print the resolved plan and exit"),
	CLI_OPT_FLAG('q', "quiet", struct run_args, quiet, "no diagnostics but errors"),
	CLI_OPT_FLAG('v', "verbose", struct run_args, verbose, "more table columns and diagnostics"),
	CLI_OPT_FLAG(0, "no-quiet-check", struct run_args, no_quiet_check,
		     "skip the 1-second check, before the first point, that the machine is not busy"),
	{.name = "no-counters", .type = CLI_CALLBACK, .set = set_no_counters,
	 .help = "read none of the kernel's counters per point: the same as --counters off"},
	CLI_OPT_FLAG(0, "require-quiet", struct run_args, require_quiet,
		     "refuse to start (exit 2) when the quiet check finds more than the noise limit busy or stolen; "
		     "it runs even with --no-quiet-check"),
	CLI_OPT_END,
};

/* --dry-run: the plan, with time estimates from the database when there is one (a dry run
 * never creates it). */
static void dry_run(const struct schedule *s, const char *db_flag)
{
	const char *db = store_db_path(db_flag);
	struct store *st = NULL;
	char err[STORE_ERR_MAX];
	if (access(db, F_OK) == 0 && store_open_read(db, &st, err, sizeof(err)) < 0) {
		log_warn("%s; the plan has no time estimate", err);
		st = NULL;
	}
	report_plan(stdout, s, st);
	store_close(st);
}

/* The command line as a shell reads it back: a word with anything but safe characters is
 * quoted, so `show` prints a line that can be pasted. */
char *cmd_join_args(const struct command *self, int argc, char **argv)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/@%^";
	struct strbuf sb = {0};
	strbuf_add(&sb, "reaim", 5);
	if (argc > 0 && cmd_find(self->all, argv[0])) /* `reaim single ...`, `reaim rerun ...` */
		strbuf_addf(&sb, " %s", argv[0]);
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		if (*w && strspn(w, safe) == strlen(w)) {
			strbuf_addf(&sb, " %s", w);
			continue;
		}
		strbuf_add(&sb, " '", 2);
		for (const char *q; (q = strchr(w, '\'')) != NULL; w = q + 1) {
			strbuf_add(&sb, w, (size_t)(q - w));
			strbuf_add(&sb, "'\\''", 4);
		}
		strbuf_addf(&sb, "%s'", w);
	}
	return sb.buf;
}


enum outcome cmd_run_plan(const struct plan *p, int dry_run_only, const struct run_request *rq, int64_t *run_id)
{
	int64_t id = 0;
	if (run_id)
		*run_id = 0;
	plan_notes(p);
	struct schedule s; /* the plan resolved once: what the dry run prints and the run follows */
	schedule_make(p, &s);
	if (dry_run_only) {
		dry_run(&s, rq->db);
		schedule_free(&s);
		return OUT_OK;
	}
	struct run_request viewed = *rq;
	struct live_table live = {.verbose = rq->verbose};
	struct run_view table = live_table_view(&live);
	if (!viewed.view)
		viewed.view = &table;
	enum run_status rs = run_plan(&s, &viewed, &id);
	schedule_free(&s);
	if (run_id)
		*run_id = id;
	static const enum outcome outcome_of[] = {
		[RUN_OK] = OUT_OK, [RUN_REFUSED] = OUT_USAGE, [RUN_FAILED] = OUT_FAILED,
		[RUN_INTERRUPTED] = OUT_INTERRUPTED,
	};
	return outcome_of[rs];
}

/* A --name: what a stored workload is known by in every output (a KCIDB path, a LAVA case). */
static int workload_name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > 63)
		return 0;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_.+-", *c))
			return 0;
	return 1;
}

/* The plan of one suite or one workfile (-f) as the words give it: 0; -1 with the reasons in errs
 * (p still to be freed); -2 after saying there is nothing to run (p untouched). */
static int plan_one(const struct run_args *a, struct plan *p, struct errlist *errs)
{
	int rc;
	if (a->suites.count)
		rc = plan_from_suite(a->suites.v[0], &a->ov, p, errs);
	else if (overrides_given(&a->ov, option_find("workfile")))
		rc = plan_from_workfile(a->ov.opts.workfile, &a->ov, p, errs);
	else {
		log_error("nothing to run: give a suite (-s quick) or a workfile (-f FILE); see reaim --help");
		return -2;
	}
	if (rc == 0 && a->name && (a->suites.count || !workload_name_ok(a->name))) {
		errlist_add(errs, "--name", 0, "'%s': %s", a->name,
			    a->suites.count ? "names the workload of -f; a suite names its own"
				    : "not a name of 1 to 63 letters, digits, '_', '.', '+' or '-'");
		rc = -1;
	}
	if (rc == 0 && a->name) {
		free(p->wl[0].name);
		p->wl[0].name = xstrdup(a->name);
	}
	return rc;
}

static void plans_free(struct plan *plans, size_t n)
{
	for (size_t i = 0; i < n; i++)
		plan_free(&plans[i]);
	free(plans);
}

/* Every plan the words give (each -s, or the one suite or workfile), all planned before any runs so
 * every error is said in one pass: 0 with *plans (*n of them); -1 after saying why. */
static int plan_all(const struct run_args *a, struct plan **plans, size_t *n)
{
	*n = a->suites.count > 1 ? a->suites.count : 1;
	*plans = xcalloc(*n, sizeof(**plans));
	struct errlist errs = {0};
	int rc = 0;
	if (*n == 1) {
		rc = plan_one(a, &(*plans)[0], &errs);
	} else {
		if (a->name) {
			errlist_add(&errs, "--name", 0, "names the workload of -f; a suite names its own");
			rc = -1;
		}
		for (size_t i = 0; i < *n; i++)
			if (plan_from_suite(a->suites.v[i], &a->ov, &(*plans)[i], &errs) < 0)
				rc = -1;
	}
	errlist_print(&errs);
	errlist_free(&errs);
	if (rc < 0) {
		plans_free(*plans, rc == -2 ? 0 : *n); /* -2: nothing planned */
		*plans = NULL;
	}
	return rc < 0 ? -1 : 0;
}

/* -s A -s B ...: run one after the other, each its own run with its own table, as a shell loop over
 * them would; the command line's options apply to each. Stops at an interruption or a refused run;
 * the outcome is the worst of the runs. */
static enum outcome run_suites(const struct run_args *a, struct plan *plans, size_t n, const struct run_request *rq)
{
	enum outcome out = OUT_OK;
	for (size_t i = 0; i < n; i++) {
		printf("%sSuite %s (%zu of %zu)\n", i ? "\n" : "", a->suites.v[i], i + 1, n);
		fflush(stdout);
		enum outcome one = cmd_run_plan(&plans[i], a->dry_run, rq, NULL);
		if (one != OUT_OK && (out == OUT_OK || one == OUT_INTERRUPTED || one == OUT_USAGE))
			out = one;
		if (one == OUT_INTERRUPTED || one == OUT_USAGE)
			break;
	}
	return out;
}

/* The words parsed into a: 0; 1 when the command is done, with its outcome in *out. */
static int run_args_parse(const struct command *self, int argc, char **argv, int single, struct run_args *a,
			  enum outcome *out)
{
	run_opts_defaults(&a->ov.opts);
	if (cmd_parse(self, argc, argv, a, out))
		return 1;
	if (single) {
		a->ov.opts.mode = MODE_SINGLE;
		overrides_mark(&a->ov, option_find("mode"));
	}
	return 0;
}

static void run_args_free(struct run_args *a)
{
	free(a->suites.v);
	run_opts_free(&a->ov.opts);
}

static enum outcome run_command(const struct command *self, int argc, char **argv, int single,
				const struct run_view *view, int64_t *run_id)
{
	struct run_args a = {0};
	enum outcome out = OUT_OK;
	struct plan *plans;
	size_t n;
	if (run_args_parse(self, argc, argv, single, &a, &out)) {
		run_args_free(&a);
		return out;
	}
	if (a.quiet)
		log_set_level(0);
	if (a.verbose)
		log_set_level(2);
	if (view && a.suites.count > 1) {
		/* a classic front end's table is of one run */
		log_error("this front end runs one suite: run the others one after another");
		run_args_free(&a);
		return OUT_USAGE;
	}
	if (plan_all(&a, &plans, &n) < 0) {
		run_args_free(&a);
		return OUT_USAGE;
	}
	char *cmdline = cmd_join_args(self, argc, argv);
	const struct run_request rq = {.db = a.db, .verbose = a.verbose, .command_line = cmdline,
				       .no_quiet_check = a.no_quiet_check, .require_quiet = a.require_quiet,
				       .view = view}; /* view: one suite only, refused above for several */
	out = n > 1 ? run_suites(&a, plans, n, &rq) : cmd_run_plan(&plans[0], a.dry_run, &rq, run_id);
	free(cmdline);
	plans_free(plans, n);
	run_args_free(&a);
	return out;
}

/* A `reaim run`'s words checked as it checks them (options, suites, workfiles), nothing run or
 * stored: OUT_OK, or OUT_USAGE after saying why (so reaim vm refuses before its first boot). */
enum outcome cmd_run_check(const struct command *self, int argc, char **argv)
{
	struct run_args a = {0};
	enum outcome out = OUT_OK;
	struct plan *plans;
	size_t n;
	if (run_args_parse(self, argc, argv, 0, &a, &out))
		out = OUT_USAGE; /* refused, or --help: either way no run */
	else if (plan_all(&a, &plans, &n) < 0)
		out = OUT_USAGE;
	else
		plans_free(plans, n);
	run_args_free(&a);
	return out;
}

enum outcome cmd_run(const struct command *self, int argc, char **argv)
{
	return run_command(self, argc, argv, 0, NULL, NULL);
}

enum outcome cmd_single(const struct command *self, int argc, char **argv)
{
	return run_command(self, argc, argv, 1, NULL, NULL);
}

enum outcome cmd_run_viewed(const struct command *self, int argc, char **argv, const struct run_view *view,
			    int64_t *run_id)
{
	return run_command(self, argc, argv, self->fn == cmd_single, view, run_id);
}

int cmd_run_stored(void)
{
	return run_stored_one();
}
