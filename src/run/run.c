/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim run`: resolve the plan, check it can run, open the store, then hand each workload
 * to the runner, which stores each point as it completes and prints the classic table.
 * `reaim rerun` hands its plan, rebuilt from a stored run, to the same run_plan. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/accounting.h"
#include "cmd/cmd.h"
#include "config/cfg.h"
#include "engine/engine.h"
#include "report/progress.h"
#include "report/report.h"
#include "run/runner.h"
#include "store/store.h"
#include "util/env.h"
#include "util/util.h"

struct run_args {
	const char *suite, *db;
	int dry_run, verbose, quiet;
	int no_quiet_check, require_quiet;
	struct overrides ov;
};

/* A row of the option table (config/options.c) as a command-line option. */
static int set_run_option(void *args, const struct cli_opt *o, const char *value, char *err, size_t len)
{
	struct run_args *a = args;
	const struct option_def *def = o->data;
	size_t k = (size_t)(def - option_table);
	const char *why;
	if (!a->ov.given[k])
		option_clear(&a->ov.opts, def); /* flags replace the suite's list */
	a->ov.given[k] = 1;
	if (option_set(&a->ov.opts, def, value, &why) < 0) {
		char range[160], flag[64], *shown = text_escape(value);
		option_range(def, range, sizeof(range));
		snprintf(flag, sizeof(flag), "%s", def->key);
		for (char *c = flag; *c; c++)
			*c = *c == '_' ? '-' : *c; /* as it is spelled on the command line */
		snprintf(err, len, "--%s %s: %s%s%s%s", flag, shown, why, range[0] ? " (allowed: " : "", range,
			 range[0] ? ")" : "");
		free(shown);
		return -1;
	}
	return 0;
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
	CLI_OPT_STRING('s', "suite", "SUITE", struct run_args, suite,
		       "a suite: a name (./suites/NAME.cfg, then the data dir) or a path",
		       .complete = CLI_COMPLETE_SUITE),
	CLI_OPT_INCLUDE(run_option_row),
	CMD_OPT_DB(struct run_args),
	CLI_OPT_FLAG(0, "dry-run", struct run_args, dry_run, "print the resolved plan and exit"),
	CLI_OPT_FLAG('q', "quiet", struct run_args, quiet, "no diagnostics but errors"),
	CLI_OPT_FLAG('v', "verbose", struct run_args, verbose, "more table columns and diagnostics"),
	CLI_OPT_FLAG(0, "no-quiet-check", struct run_args, no_quiet_check,
		     "skip the 1-second check, before the first point, that the machine is not busy"),
	CLI_OPT_FLAG(0, "require-quiet", struct run_args, require_quiet,
		     "refuse to start (exit 2) when the quiet check finds more than the noise limit busy or stolen; "
		     "it runs even with --no-quiet-check"),
	CLI_OPT_END,
};

/* --dry-run: the plan, with time estimates from the database when there is one (a dry run
 * never creates it). */
static void dry_run(const struct plan *p, const struct run_request *rq)
{
	const char *db = cli_db_path(rq->db);
	struct store *st = NULL;
	char err[512];
	if (access(db, F_OK) == 0 && store_open_read(db, &st, err, sizeof(err)) < 0) {
		log_warn("%s; the plan has no time estimate", err);
		st = NULL;
	}
	report_plan(stdout, p, st);
	store_close(st);
}

static char *make_uuid(void)
{
	char *u = read_text_file("/proc/sys/kernel/random/uuid", 64);
	if (u) {
		u[strcspn(u, "\n")] = '\0';
		return u;
	}
	return xasprintf("%lx-%lx", (unsigned long)getpid(), (unsigned long)clock_now_ns());
}

/* A DAMON monitor checks pages through the reverse map, dearer the more tasks map a page: at
 * 10,000 tasks one took a sixth of the machine (docs/PERFORMANCE.md). Said once, where a
 * point of the plan reaches DAMON_NOTE_TASKS. */
#define DAMON_NOTE_TASKS 1000

static void note_damon(const struct env_list *env, const struct plan *p)
{
	long long most = 0;
	for (size_t w = 0; w < p->nwl; w++) {
		long long reach = plan_max_tasks(&p->wl[w].opts);
		most = reach > most ? reach : most;
	}
	for (size_t i = 0; i < env->count && most >= DAMON_NOTE_TASKS; i++)
		if (strcmp(env->items[i].key, "mm.damon") == 0 && strcmp(env->items[i].value, "off") != 0)
			log_info("note: DAMON is on (%s): its page checks take CPU that grows with the tasks "
				 "sharing a page (%lld tasks here); it counts as load outside the run",
				 env->items[i].value, most);
}

/* The command line as a shell reads it back: a word with anything but safe characters is
 * quoted, so `show` prints a line that can be pasted. */
static char *join_args(int argc, char **argv)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/@%^";
	struct strbuf sb = {0};
	strbuf_add(&sb, "reaim", 5);
	if (argc > 0 && cli_command_find(argv[0])) /* `reaim single ...`, `reaim rerun ...` */
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

static int begin_run(struct runner *rn, const struct plan *p, const struct run_request *rq)
{
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	int dead;
	if (store_reap_dead_runs(rn->st, host, &dead) < 0)
		return -1;
	if (dead)
		log_warn("marked %d earlier run%s whose reaim process died as interrupted", dead, dead > 1 ? "s" : "");
	for (size_t w = 0; w < p->nwl; w++)
		engine_scratch_sweep(&p->wl[w].opts.dirs);
	char *uuid = make_uuid(), *cmdline = join_args(rq->argc, rq->argv);
	const struct run_opts *o0 = &p->wl[0].opts;
	size_t planned;
	enum plan_count kind = plan_points(p, &planned);
	struct store_run r = {
		.uuid = uuid,
		.label = o0->label,
		.suite_name = p->suite_name,
		.suite_text = p->suite_text ? p->suite_text : "",
		.command_line = cmdline,
		.version = PACKAGE_VERSION,
		.mode = mode_names[o0->mode],
		.seed = o0->seed,
		.pid = getpid(),
		.host = host,
		.rerun_of = rq->rerun_of,
		.planned_points = kind == PLAN_UNKNOWN ? 0 : (int64_t)planned,
		.planned_exact = kind == PLAN_EXACT,
	};
	struct env_list env;
	env_collect(&env, o0->dirs.v, o0->dirs.count);
	note_damon(&env, p);
	int rc = store_run_begin(rn->st, &r, &env, &rn->run_id);
	env_free(&env);
	free(uuid);
	free(cmdline);
	return rc;
}

/* Points a run will measure, for the ETA (growing modes may add more). */
static size_t planned_points(const struct plan *p)
{
	size_t n = 0;
	for (size_t w = 0; w < p->nwl; w++) {
		const struct run_opts *o = &p->wl[w].opts;
		long long rounds, most;
		plan_rounds(o, &rounds, &most);
		n += o->tasks.count * (size_t)rounds * plan_arms(o) * (o->osync == OSYNC_BOTH ? 2 : 1);
	}
	return n;
}

/* A store waiting for another program's lock gives up when the run is interrupted. */
static int run_interrupted(void *unused)
{
	(void)unused;
	engine_poll_signals();
	return engine_interrupted();
}

/* Store every workload's row before the first point, so a run stopped early still holds its
 * whole plan (what `rerun` repeats). Single mode stores one row per test as it runs. */
static int store_workloads(struct runner *rn, const struct plan *p, int64_t *ids)
{
	for (size_t w = 0; w < p->nwl; w++)
		if (p->wl[w].opts.mode != MODE_SINGLE && runner_store_workload(rn, &p->wl[w], &ids[w]) < 0)
			return -1;
	return 0;
}

/* The run this process stored last: a caller that ran the run command (the classic command line)
 * reports that run, never merely the newest in a database others may write to. */
static int64_t stored_run_id;

int64_t run_stored_id(void)
{
	return stored_run_id;
}

static enum outcome execute(const struct plan *p, const struct run_request *rq)
{
	char err[512];
	struct runner rn = {.verbose = rq->verbose};
	const char *db = cli_db_path(rq->db);
	if (!rq->db && !getenv("REAIM_DB") && mkdir("results", 0755) < 0 && errno != EEXIST) {
		log_error("cannot create the results directory: %s", strerror(errno));
		return OUT_FAILED; /* the results database cannot be used: see DESIGN */
	}
	if (store_open_cancellable(db, run_interrupted, NULL, &rn.st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return engine_interrupted() ? OUT_INTERRUPTED : OUT_FAILED;
	}
	int64_t *wl_ids = xcalloc(p->nwl + 1, sizeof(*wl_ids));
	if (begin_run(&rn, p, rq) < 0 || store_workloads(&rn, p, wl_ids) < 0) {
		/* a stop signal ends the wait for another program's lock: that is an interruption */
		int sig = engine_interrupted();
		char why[600];
		snprintf(why, sizeof(why), "%s", store_error(rn.st));
		log_error("%s", why);
		if (rn.run_id)
			store_run_finish(rn.st, rn.run_id, sig ? "interrupted" : "failed", why);
		store_close(rn.st);
		free(wl_ids);
		return sig ? OUT_INTERRUPTED : OUT_FAILED;
	}
	log_info("run %lld stored in %s", (long long)rn.run_id, db);
	stored_run_id = rn.run_id;
	rn.acct = accounting_open(p);
	log_info("accounting: %s", accounting_describe(rn.acct));
	if (store_run_env(rn.st, rn.run_id, "accounting", accounting_kind(rn.acct)) < 0)
		log_warn("%s", store_error(rn.st));
	progress_start(log_level() > 0, planned_points(p));
	for (size_t w = 0; w < p->nwl && !runner_stop_now(&rn); w++) {
		const struct workload *wl = &p->wl[w];
		struct engine_scratch scratch;
		if (wl->opts.mode == MODE_SINGLE) {
			if (engine_scratch_create(&wl->opts.dirs, &scratch, rn.first_failure,
						  sizeof(rn.first_failure)) < 0) {
				log_error("%s", rn.first_failure);
				rn.failed = rn.fatal = 1;
				break;
			}
			runner_single(&rn, wl, &scratch);
			engine_scratch_destroy(&scratch);
			continue;
		}
		if (engine_scratch_create(&wl->opts.dirs, &scratch, rn.first_failure,
					  sizeof(rn.first_failure)) < 0) {
			log_error("%s", rn.first_failure);
			rn.failed = rn.fatal = 1;
			break;
		}
		static const int both[] = {1, 0};
		int nosync = wl->opts.osync == OSYNC_BOTH ? 2 : 1;
		for (int k = 0; k < nosync && !runner_stop_now(&rn); k++)
			runner_block(&rn, wl, wl_ids[w], nosync == 2 ? both[k] : wl->opts.osync, &scratch);
		engine_scratch_destroy(&scratch);
	}
	progress_stop();
	accounting_close(rn.acct);
	free(wl_ids);
	int sig = engine_interrupted();
	const char *status = sig ? "interrupted" : rn.failed ? "failed" : "complete";
	char reason[400] = "";
	if (sig)
		snprintf(reason, sizeof(reason), "stopped by signal %d (%s)", sig, strsignal(sig));
	else if (rn.failed)
		snprintf(reason, sizeof(reason), "%s", rn.first_failure);
	if (store_run_finish(rn.st, rn.run_id, status, reason[0] ? reason : NULL) < 0) {
		log_error("%s", store_error(rn.st));
		rn.failed = 1;
	}
	store_close(rn.st);
	for (size_t w = 0; w < p->nwl && !sig && !rn.failed; w++)
		if (p->wl[w].opts.variants.count > 1) {
			log_info("the variants side by side, paired round by round: reaim compare %lld", (long long)rn.run_id);
			break;
		}
	if (sig) {
		log_error("interrupted; finished points are kept in run %lld", (long long)rn.run_id);
		return OUT_INTERRUPTED;
	}
	return rn.failed ? OUT_FAILED : OUT_OK;
}

/* The quiet check before the first point, at the lowest noise limit of the plan; -1: do not start
 * (the machine is busy and quiet was required, or a stop signal came meanwhile). */
static int quiet_check(const struct plan *p, const struct run_request *a)
{
	if (a->no_quiet_check && !a->require_quiet)
		return 0;
	double limit = 100;
	for (size_t w = 0; w < p->nwl; w++)
		limit = fmin(limit, p->wl[w].opts.noise_limit);
	int rc = accounting_quiet_check(1.0, limit, a->require_quiet);
	engine_poll_signals();
	return rc < 0 || engine_interrupted() ? -1 : 0;
}

/* Variants are compared round by round: one round gives nothing to judge. */
static void warn_rounds(const struct plan *p)
{
	for (size_t w = 0; w < p->nwl; w++) {
		long long least, most;
		plan_rounds(&p->wl[w].opts, &least, &most);
		if (p->wl[w].opts.variants.count > 1 && most < 2)
			log_warn("workload %s: with one round its variants cannot be compared (use -r 4 or more, or "
				 "--precision)", p->wl[w].name);
	}
}

enum outcome run_plan(const struct plan *p, const struct run_request *rq)
{
	if (rq->dry_run) {
		dry_run(p, rq);
		return OUT_OK;
	}
	warn_rounds(p);
	if (preflight(p) < 0)
		return OUT_USAGE;
	if (engine_init() < 0) {
		log_error("cannot set up signal handling: %s", strerror(errno));
		return OUT_FAILED;
	}
	if (quiet_check(p, rq) < 0)
		return engine_interrupted() ? OUT_INTERRUPTED : OUT_FAILED;
	return execute(p, rq);
}

static enum outcome run_command(const struct command *self, int argc, char **argv, int single)
{
	struct run_args a = {0};
	enum outcome out = OUT_OK;
	run_opts_defaults(&a.ov.opts);
	if (cmd_parse(self, argc, argv, &a, &out)) {
		run_opts_free(&a.ov.opts);
		return out;
	}
	if (a.quiet)
		log_set_level(0);
	if (a.verbose)
		log_set_level(2);
	if (single) {
		const struct option_def *mode = option_find("mode");
		a.ov.opts.mode = MODE_SINGLE;
		a.ov.given[mode - option_table] = 1;
	}
	struct plan p;
	struct errlist errs = {0};
	int rc;
	if (a.suite)
		rc = plan_from_suite(a.suite, &a.ov, &p, &errs);
	else if (a.ov.given[option_find("workfile") - option_table])
		rc = plan_from_workfile(a.ov.opts.workfile, &a.ov, &p, &errs);
	else {
		log_error("nothing to run: give a suite (-s quick) or a workfile (-f FILE); see reaim --help");
		run_opts_free(&a.ov.opts);
		return OUT_USAGE;
	}
	if (rc < 0) {
		errlist_print(&errs);
		out = OUT_USAGE;
	} else {
		const struct run_request rq = {.db = a.db, .dry_run = a.dry_run, .verbose = a.verbose, .argc = argc,
					       .argv = argv, .no_quiet_check = a.no_quiet_check,
					       .require_quiet = a.require_quiet};
		out = run_plan(&p, &rq);
	}
	errlist_free(&errs);
	plan_free(&p);
	run_opts_free(&a.ov.opts);
	return out;
}

enum outcome cmd_run(const struct command *self, int argc, char **argv)
{
	return run_command(self, argc, argv, 0);
}

enum outcome cmd_single(const struct command *self, int argc, char **argv)
{
	return run_command(self, argc, argv, 1);
}
