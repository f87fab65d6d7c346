/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A run from a resolved plan: check it can run, open the store, store the run's row, then hand
 * each workload to the runner, which stores each point as it completes and shows it through the
 * request's view. */
#include "config.h"

#include <stdarg.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/cfg.h"
#include "engine/engine.h"
#include "measure/env_facts.h"
#include "run/accounting.h"
#include "run/counters.h"
#include "run/run.h"
#include "run/runner.h"
#include "store/store.h"
#include "util/env.h"
#include "util/util.h"

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

static void note_damon(const struct env_list *env, const struct schedule *s)
{
	long long most = 0;
	for (size_t w = 0; w < s->nwl; w++)
		most = s->wl[w].reach.tasks > most ? s->wl[w].reach.tasks : most;
	for (size_t i = 0; i < env->count && most >= DAMON_NOTE_TASKS; i++)
		if (strcmp(env->items[i].key, "mm.damon") == 0 && strcmp(env->items[i].value, "off") != 0)
			log_info("note: DAMON is on (%s): its page checks take CPU that grows with the tasks "
				 "sharing a page (%lld tasks here); it counts as load outside the run",
				 env->items[i].value, most);
}

/* The file beside the database that keeps what a run said once (said_before). */
static char *said_marker(const char *db)
{
	const char *slash = strrchr(db, '/');
	if (!slash)
		return xstrdup(".reaim-said");
	return xasprintf("%.*s/.reaim-said", slash == db ? 1 : (int)(slash - db), db);
}

/* Say fmt (a warning when warn) unless "KIND WHAT" was said beside this database before; always
 * under -v. */
static void say_once(const char *marker, int warn, const char *kind, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void say_once(const char *marker, int warn, const char *kind, const char *what, const char *fmt, ...)
{
	char *key = xasprintf("%s %s", kind, what);
	int before = log_level() < 2 && said_before(marker, key) == 1;
	free(key);
	if (before)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *text = xvasprintf(fmt, ap);
	va_end(ap);
	if (warn) /* the first screen of a run: each note within 100 columns */
		log_warn_wrapped("%s", text);
	else
		log_info_wrapped("%s", text);
	free(text);
}

/* Set once this process has a run in a database: main's "the run went on and is stored" is said of it
 * only then (never after `run --help`, a usage error or a dry run). */
static int stored_one;

int run_stored_one(void)
{
	return stored_one;
}

static int begin_run(struct runner *rn, const struct schedule *s, const struct run_request *rq)
{
	const struct plan *p = s->plan;
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	int dead;
	if (store_reap_dead_runs(rn->st, host, &dead) < 0)
		return -1;
	if (dead)
		log_warn("marked %d earlier run%s whose reaim process died as interrupted", dead, dead > 1 ? "s" : "");
	for (size_t w = 0; w < p->nwl; w++)
		engine_scratch_sweep(&p->wl[w].opts.dirs);
	char *uuid = make_uuid();
	const struct run_opts *o0 = &p->wl[0].opts;
	struct store_run r = {
		.uuid = uuid,
		.label = o0->label,
		.suite_name = p->suite_name,
		.suite_text = p->suite_text ? p->suite_text : "",
		.command_line = rq->command_line,
		.version = PACKAGE_VERSION,
		.mode = mode_names[o0->mode],
		.seed = o0->seed,
		.pid = getpid(),
		.host = host,
		.rerun_of = rq->rerun_of,
		.planned_points = (int64_t)s->points,
		.planned_exact = s->count == PLAN_EXACT,
	};
	struct env_list env;
	env_collect(&env, o0->dirs.v, o0->dirs.count);
	char *config;
	env_facts_collect(&env, o0->dirs.v, o0->dirs.count, &config);
	r.kernel_config = config;
	note_damon(&env, s);
	int rc = store_run_begin(rn->st, &r, &env, &rn->run_id);
	free(config);
	env_free(&env);
	free(uuid);
	return rc;
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

/* Each workload's blocks as the schedule orders them, in the workload's own scratch dirs: single
 * mode test by test, else a block at a time (a sweep with O_SYNC both: one block, on and off
 * interleaved; a search: off, then on; --cpus: a block per CPU count). Stops at the first fatal
 * error or a stop signal. */
static void run_workloads(struct runner *rn, const struct schedule *s, const int64_t *wl_ids)
{
	for (size_t w = 0; w < s->nwl && !runner_stop_now(rn); w++) {
		const struct schedule_workload *sw = &s->wl[w];
		const struct workload *wl = sw->wl;
		struct engine_scratch scratch;
		if (engine_scratch_create(&wl->opts.dirs, &scratch, rn->first_failure, sizeof(rn->first_failure)) < 0) {
			log_error("%s", rn->first_failure);
			rn->failed = rn->fatal = 1;
			break;
		}
		for (size_t b = 0; b < sw->nblocks && !runner_stop_now(rn); b++)
			if (wl->opts.mode == MODE_SINGLE)
				runner_single(rn, &sw->blocks[b], &scratch);
			else
				runner_block(rn, &sw->blocks[b], wl_ids[w], &scratch);
		engine_scratch_destroy(&scratch);
	}
}

/* Store how the run ended and close the store; what the command makes of it. */
static enum run_status finish_run(struct runner *rn, const struct plan *p)
{
	int sig = engine_interrupted();
	const char *status = sig ? "interrupted" : rn->failed ? "failed" : "complete";
	char reason[400] = "";
	if (sig)
		snprintf(reason, sizeof(reason), "stopped by signal %d (%s)", sig, strsignal(sig));
	else if (rn->failed)
		snprintf(reason, sizeof(reason), "%s", rn->first_failure);
	if (store_run_finish(rn->st, rn->run_id, status, reason[0] ? reason : NULL) < 0) {
		log_error("%s", store_error(rn->st));
		rn->failed = 1;
	}
	store_close(rn->st);
	for (size_t w = 0; w < p->nwl && !sig && !rn->failed; w++)
		if (p->wl[w].opts.variants.count > 1) {
			log_info("the variants side by side, paired round by round: reaim compare %lld", (long long)rn->run_id);
			break;
		}
	if (sig) {
		log_error("interrupted; finished points are kept in run %lld", (long long)rn->run_id);
		return RUN_INTERRUPTED;
	}
	return rn->failed ? RUN_FAILED : RUN_OK;
}

/* Said at the start: the database went where the harness collects the job's results. */
static void note_harness_db(const char *flag, const char *db)
{
	char path[PATH_MAX];
	const char *name, *var;
	if (!flag && store_harness_db(path, sizeof(path), &name, &var) == 0 && strcmp(path, db) == 0)
		log_info("note: the results database is %s, in %s's results directory ($%s); --db or $REAIM_DB "
			 "put it elsewhere", db, name, var);
}

static enum run_status execute(const struct schedule *s, const struct run_request *rq, int64_t *run_id)
{
	const struct plan *p = s->plan;
	char err[STORE_ERR_MAX];
	const char *db = store_db_path(rq->db);
	struct runner rn = {.verbose = rq->verbose, .view = rq->view, .db = db};
	if (!rq->db && !getenv("REAIM_DB") && store_default_dir(err, sizeof(err)) < 0) {
		log_error("%s", err);
		return RUN_FAILED; /* the results database cannot be used: see DESIGN */
	}
	if (store_open_cancellable(db, run_interrupted, NULL, &rn.st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return engine_interrupted() ? RUN_INTERRUPTED : RUN_FAILED;
	}
	int64_t *wl_ids = xcalloc(p->nwl + 1, sizeof(*wl_ids));
	if (begin_run(&rn, s, rq) < 0 || store_workloads(&rn, p, wl_ids) < 0) {
		/* a stop signal ends the wait for another program's lock: that is an interruption */
		int sig = engine_interrupted();
		char why[600];
		snprintf(why, sizeof(why), "%s", store_error(rn.st));
		log_error("%s", why);
		if (rn.run_id)
			store_run_finish(rn.st, rn.run_id, sig ? "interrupted" : "failed", why);
		store_close(rn.st);
		free(wl_ids);
		return sig ? RUN_INTERRUPTED : RUN_FAILED;
	}
	/* what is the same run after run (where runs go, how this machine accounts and counts) is said
	 * once beside the database, and under -v every time: a first screen holds only what to act on */
	char *said = said_marker(db);
	say_once(said, 0, "stored", db, "run %lld stored in %s", (long long)rn.run_id, db);
	*run_id = rn.run_id;
	stored_one = 1;
	rn.acct = accounting_open(p);
	say_once(said, 0, "accounting", accounting_kind(rn.acct), "accounting: %s", accounting_describe(rn.acct));
	if (store_run_env(rn.st, rn.run_id, "accounting", accounting_kind(rn.acct)) < 0)
		log_warn("%s", store_error(rn.st));
	int counted = 0, cpus = 0;
	for (size_t w = 0; w < p->nwl; w++) {
		counted |= p->wl[w].opts.counters && p->wl[w].opts.mode != MODE_SINGLE;
		cpus |= p->wl[w].opts.cpus.count > 0;
	}
	if (cpus)
		say_once(said, 0, "cpus", accounting_confinement(rn.acct), "--cpus confines the tasks by %s",
			 accounting_confinement(rn.acct));
	if (cpus && store_run_env(rn.st, rn.run_id, "cpus_confinement", accounting_confinement(rn.acct)) < 0)
		log_warn("%s", store_error(rn.st));
	if (counted) {
		rn.counters = counters_open(rn.acct, NULL);
		const char *unopened = counters_unopened(rn.counters);
		if (unopened[0])
			say_once(said, 1, "perf", unopened, "perf counters that cannot be opened, left out of the run: %s",
				 unopened);
		say_once(said, 0, "counters", counters_describe(rn.counters), "counters: %s",
			 counters_describe(rn.counters));
	}
	free(said);
	if (rq->view->run_begin)
		rq->view->run_begin(rq->view->arg, rn.run_id, s->least_points); /* growing modes may add more */
	run_workloads(&rn, s, wl_ids);
	/* a point whose cpuset failed changed it */
	if (cpus && store_run_env(rn.st, rn.run_id, "cpus_confinement", accounting_confinement(rn.acct)) < 0)
		log_warn("%s", store_error(rn.st));
	if (rq->view->run_end)
		rq->view->run_end(rq->view->arg);
	counters_close(rn.counters);
	accounting_close(rn.acct);
	free(wl_ids);
	return finish_run(&rn, p);
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
static void warn_rounds(const struct schedule *s)
{
	for (size_t w = 0; w < s->nwl; w++)
		if (s->wl[w].wl->opts.variants.count > 1 && s->wl[w].rounds.most < 2)
			log_warn("workload %s: with one round its variants cannot be compared (use -r 4 or more, or "
				 "--precision)", s->wl[w].wl->name);
}

enum run_status run_plan(const struct schedule *s, const struct run_request *rq, int64_t *run_id)
{
	const struct plan *p = s->plan;
	*run_id = 0;
	note_harness_db(rq->db, store_db_path(rq->db));
	warn_rounds(s);
	if (preflight(s) < 0)
		return RUN_REFUSED;
	if (engine_init() < 0) {
		log_error("cannot set up signal handling: %s", strerror(errno));
		return RUN_FAILED;
	}
	if (quiet_check(p, rq) < 0)
		return engine_interrupted() ? RUN_INTERRUPTED : RUN_FAILED;
	engine_forker_start();
	enum run_status st = execute(s, rq, run_id);
	engine_forker_stop();
	return st;
}
