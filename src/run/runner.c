/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Driving the engine for one workload: each point is run and stored as it completes, then handed
 * to the run's view (struct run_view), which prints it; the runner itself prints nothing. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/command.h"
#include "measure/peak.h"
#include "analysis/verdict.h"
#include "run/addon.h"
#include "run/confine.h"
#include "run/runner.h"
#include "util/util.h"

static void to_store_point(const struct engine_point *pt, const struct engine_result *r, int repeat,
			   struct store_point *p)
{
	memset(p, 0, sizeof(*p));
	p->osync = pt->osync;
	p->cpus = (int)pt->ncpus;
	p->tasks = pt->tasks;
	p->repeat = repeat;
	p->valid = r->valid;
	snprintf(p->reason, sizeof(p->reason), "%s", r->reason);
	p->jobs_per_task = (int64_t)r->jobs_per_task;
	p->file_kib = pt->file_kib;
	p->real_s = r->real_s;
	p->jobs_per_min = measure_jobs_per_min((double)r->jobs_per_task * pt->tasks, r->real_s);
	p->jobs_per_min_task = measure_jobs_per_min((double)r->jobs_per_task, r->real_s);
	p->user_s = r->user_s;
	p->sys_s = r->sys_s;
	p->cpu_s = r->user_s + r->sys_s;
	p->window_cpu_s = r->window_cpu_s;
	p->std_dev_s = r->spread.std_dev;
	p->std_dev_pct = r->spread.std_dev_pct;
	p->jti = r->spread.jti;
	p->min_task_s = r->spread.min;
	p->max_task_s = r->spread.max;
	p->min_task_index = (int)r->spread.min_index;
	p->max_task_index = (int)r->spread.max_index;
	p->release_skew_s = r->release_skew_s;
	p->overhead_s = r->point_overhead_s;
}

static struct store_test *to_store_tests(const struct workfile *wf, const struct engine_result *r)
{
	struct store_test *t = xcalloc(wf->count, sizeof(*t));
	for (size_t i = 0; i < wf->count; i++) {
		const struct engine_test_stats *s = &r->tests[i];
		snprintf(t[i].name, sizeof(t[i].name), "%s", wf->entries[i].test->name);
		t[i].count = (int64_t)s->count;
		t[i].total_s = (double)s->total_ns / 1e9;
		t[i].min_s = (double)s->min_ns / 1e9;
		t[i].max_s = (double)s->max_ns / 1e9;
		t[i].mean_s = s->count ? t[i].total_s / (double)s->count : 0;
		t[i].p50_s = (double)s->p50_ns / 1e9;
		t[i].p90_s = (double)s->p90_ns / 1e9;
		t[i].p99_s = (double)s->p99_ns / 1e9;
		t[i].over_2s = (int64_t)s->over_2s;
	}
	return t;
}

/* The figures an interval of the sampler and the point's average share. */
static struct store_sample sample_of(const struct sys_sample *x)
{
	return (struct store_sample){
		.t_s = x->t_s,
		.user_pct = x->user_pct + x->nice_pct,
		.sys_pct = x->sys_pct + x->irq_pct + x->softirq_pct,
		.iowait_pct = x->iowait_pct,
		.idle_pct = x->idle_pct,
		.read_kbs = x->read_kbs,
		.write_kbs = x->write_kbs,
		.util_pct = x->util_pct,
		.ctxt_per_s = x->ctxt_per_s,
	};
}

/* The sampler's averages into the point, and its series as store rows. */
static struct store_sample *to_store_system(const struct engine_result *r, struct store_point *p)
{
	if (!r->sampled)
		return NULL;
	const struct sys_sample *a = &r->sys.avg;
	struct store_sample avg = sample_of(a);
	p->sampled = 1;
	store_point_from_sample(p, &avg);
	p->read_iops = a->read_iops;
	p->write_iops = a->write_iops;
	p->forks_per_s = a->forks_per_s;
	p->pgfault_per_s = a->pgfault_per_s;
	p->sampler_cpu_pct = r->sys.sampler_cpu_pct;
	struct store_sample *s = xcalloc(r->nseries + 1, sizeof(*s));
	for (size_t i = 0; i < r->nseries; i++)
		s[i] = sample_of(&r->series[i]);
	return s;
}

/* The block devices behind the disk dirs, each once, for the sampler to watch; how many. */
static size_t point_devices(const struct run_opts *o, char names[][SAMPLER_DEV_NAME_MAX], const char **devices)
{
	size_t nd = 0;
	for (size_t d = 0; d < o->dirs.count && nd < SAMPLER_MAX_DEVICES; d++) {
		if (sampler_device_of(o->dirs.v[d], names[nd], SAMPLER_DEV_NAME_MAX) < 0)
			continue;
		size_t k = 0;
		while (k < nd && strcmp(names[k], names[nd]) != 0)
			k++;
		if (k == nd) {
			devices[nd] = names[nd];
			nd++;
		}
	}
	return nd;
}

/* What the run takes from a point's outcome: its first failure, a fatal error, an overhead note,
 * and the Real the next point's time limit grows from. */
static void take_outcome(struct runner *rn, const struct workload *wl, int tasks, const struct engine_result *res,
			 struct store_point *out)
{
	if (!res->valid) {
		rn->failed = 1;
		if (!rn->first_failure[0])
			snprintf(rn->first_failure, sizeof(rn->first_failure), "%s", res->reason);
		log_error("%s, %d tasks: %s", wl->name, tasks, res->reason);
	}
	rn->fatal |= res->fatal;
	if (res->overhead_warning) {
		log_warn("%s, %d tasks: point overhead %.2f s: %s", wl->name, tasks, res->point_overhead_s,
			 res->overhead_note);
		snprintf(out->overhead_note, sizeof(out->overhead_note), "%s", res->overhead_note);
	}
	if (res->valid)
		rn->last_real_s = res->real_s;
}

/* A point that cannot be measured as asked (an add-on could not begin: its load did not start):
 * invalid with the reason, nothing forked. */
static void not_started(const struct point_at *at, const char *why, struct engine_result *res)
{
	memset(res, 0, sizeof(*res));
	res->tests = xcalloc(at->wl->wf.count + 1, sizeof(*res->tests));
	res->jobs_per_task = at->point->jobs_per_task;
	snprintf(res->reason, sizeof(res->reason), "%s", why);
	res->real_s = res->user_s = res->sys_s = res->window_cpu_s = NAN;
}

/* The engine's point for a point of the plan (its hook, perf events and CPUs are the add-ons'). */
static void point_config(const struct runner *rn, const struct point_at *at, struct engine_point *pt)
{
	const struct workload *wl = at->wl;
	*pt = (struct engine_point){
		.wf = &wl->wf,
		.opts = &wl->opts,
		.tasks = at->point->tasks,
		.file_kib = at->point->file_kib,
		.jobs_per_task = at->point->jobs_per_task,
		.osync = at->osync,
		.seed = (uint64_t)wl->opts.seed + (uint64_t)at->repeat * 7919u,
		.timeout_s = wl->opts.timeout_s > 0 ? wl->opts.timeout_s : fmax(600, 20 * rn->last_real_s),
	};
}

/* Run and store one point of a block into *out; -1 when it could not be stored (the run stops). */
static int one_point(struct runner *rn, const struct point_at *at, struct store_point *out)
{
	const struct workload *wl = at->wl;
	int stored = 0;
	struct engine_point pt;
	point_config(rn, at, &pt);
	char names[SAMPLER_MAX_DEVICES][SAMPLER_DEV_NAME_MAX];
	const char *devices[SAMPLER_MAX_DEVICES];
	struct sampler_config sc = {.interval_s = wl->opts.sample_interval_s, .devices = devices,
				    .ndevices = point_devices(&wl->opts, names, devices)};
	pt.sampler = sc.interval_s > 0 ? &sc : NULL;
	struct engine_result res;
	struct store_point_rows rows = {.ntests = wl->wf.count};
	struct addon_point ap = {.rn = rn, .at = at, .pt = &pt, .devices = devices, .ndevices = sc.ndevices,
				 .res = &res, .out = out, .rows = &rows};
	struct addon_walk walk;
	addon_walk_init(&walk, point_addons, point_addons_count, &ap);
	char why[300];
	if (addon_walk_before(&walk, why, sizeof(why)) < 0)
		not_started(at, why, &res);
	else
		engine_run_point(&pt, at->scratch, &res);
	addon_walk_after(&walk);
	to_store_point(&pt, &res, at->repeat, out);
	snprintf(out->variant, sizeof(out->variant), "%s", at->variant);
	out->run_id = rn->run_id;
	out->workload_id = at->wl_id;
	snprintf(out->workload, sizeof(out->workload), "%s", wl->name);
	take_outcome(rn, wl, at->point->tasks, &res, out);
	rows.nsamples = res.nseries;
	struct store_test *tests = to_store_tests(&wl->wf, &res);
	struct store_sample *samples = to_store_system(&res, out);
	rows.tests = tests, rows.samples = samples;
	addon_walk_store(&walk);
	addon_walk_free(&walk);
	if (store_point_add_counted(rn->st, out, &rows) < 0) {
		stored = -1;
		log_error("%s", store_error(rn->st));
		rn->fatal = rn->failed = 1;
		if (!rn->first_failure[0])
			snprintf(rn->first_failure, sizeof(rn->first_failure), "a point could not be stored: %s",
				 store_error(rn->st));
	}
	free(tests);
	free(samples);
	free((void *)rows.counters); /* made by the counters' add-on */
	engine_result_free(&res);
	return stored;
}

int runner_stop_now(const struct runner *rn)
{
	engine_poll_signals();
	return rn->fatal || engine_interrupted();
}

/* One arm of a block: a variant (its name and set-up command) and an O_SYNC setting, or the block
 * itself. */
struct arm {
	char name[VARIANT_NAME_MAX + 1];
	const char *command;
	const char *load;         /* --load: the background load (no_load the base); NULL without */
	int osync;
};

/* One block (a workload and O_SYNC setting): its points in the order they ran, each handed to
 * the view as it is stored, and what the view needs to show the block (its plan and arms). */
struct block_run {
	struct runner *rn;
	const struct schedule_block *sb; /* the block in the plan's schedule: its points, rounds and arms */
	const struct workload *wl;
	int64_t wl_id;
	int osync;                /* -1: on and off interleaved, an arm each */
	const struct engine_scratch *scratch;
	struct block_plan blk;
	struct store_point *pts;
	size_t np, cap;
	struct arm *arms;         /* the variants, or one arm without a name */
	size_t narms;
};

/* A variant's command before its point; a failure stops the run (with the command's output). */
static int arm_setup(struct block_run *b, const struct arm *a, int tasks, int repeat)
{
	if (!a->command || !*a->command)
		return 0;
	struct runner *rn = b->rn;
	char *env[] = {xasprintf("REAIM_VARIANT=%s", a->name), xasprintf("REAIM_TASKS=%d", tasks),
		       xasprintf("REAIM_ROUND=%d", repeat + 1), xasprintf("REAIM_WORKLOAD=%s", b->wl->name),
		       xasprintf("REAIM_OSYNC=%s", a->osync ? "on" : "off"), NULL};
	const double limit = b->wl->opts.timeout_s > 0 ? b->wl->opts.timeout_s : 600;
	struct engine_command_result r;
	char err[256];
	int rc = engine_command_run(a->command, (const char *const *)env, limit, &r, err, sizeof(err));
	for (size_t i = 0; env[i]; i++)
		free(env[i]);
	char how[128] = "";
	if (rc == 0 && engine_command_ok(&r)) {
		if (r.output[0])
			log_debug("variant %s, %d tasks: %s", a->name, tasks, r.output);
		return 0;
	}
	if (rc < 0)
		snprintf(how, sizeof(how), "could not be run: %.100s", err);
	else
		engine_command_describe(&r, how, sizeof(how));
	if (rc == 0 && r.interrupted)
		return -1; /* the run reports the interruption itself */
	log_error("variant %s, %d tasks: command '%s' %s%s%s", a->name, tasks, a->command, how,
		  rc == 0 && r.output[0] ? "; its output:\n" : rc == 0 ? " (no output)" : "", rc == 0 ? r.output : "");
	rn->failed = rn->fatal = 1;
	if (!rn->first_failure[0])
		snprintf(rn->first_failure, sizeof(rn->first_failure), "variant %s: command '%.120s' %s", a->name,
			 a->command, how);
	return -1;
}

/* --warmup: points at the first task count that leave the caches, the allocator and the
 * CPU frequency where the measured points will find them; stored nowhere. */
static void warm_up(struct runner *rn, const struct schedule_workload *sw, int osync,
		    const struct engine_scratch *scratch)
{
	const struct workload *wl = sw->wl;
	for (long long i = 0; i < wl->opts.warmup && !runner_stop_now(rn); i++) {
		struct engine_point pt = {
			.wf = &wl->wf,
			.opts = &wl->opts,
			.tasks = sw->pts[0].tasks,
			.file_kib = sw->pts[0].file_kib,
			.jobs_per_task = sw->pts[0].jobs_per_task,
			.osync = osync,
			.seed = (uint64_t)wl->opts.seed,
			.timeout_s = wl->opts.timeout_s > 0 ? wl->opts.timeout_s : 600,
		};
		/* its CPUs, and its tasks in a point cgroup, killed with it */
		struct addon_point ap = {.rn = rn, .pt = &pt};
		struct addon_walk walk;
		addon_walk_init(&walk, bare_point_addons, bare_point_addons_count, &ap);
		char why[200];
		BUG_ON(addon_walk_before(&walk, why, sizeof(why)) < 0); /* neither can fail */
		struct engine_result res;
		engine_run_point(&pt, scratch, &res);
		addon_walk_after(&walk);
		addon_walk_free(&walk);
		if (res.valid)
			log_info("%s: warm-up %lld of %lld, %d tasks: %.2f s (not stored)", wl->name, i + 1,
				 wl->opts.warmup, pt.tasks, res.real_s);
		else
			log_warn("%s: warm-up %lld of %lld, %d tasks: %s", wl->name, i + 1, wl->opts.warmup,
				 pt.tasks, res.reason);
		if (res.fatal) {
			rn->fatal = rn->failed = 1;
			if (!rn->first_failure[0])
				snprintf(rn->first_failure, sizeof(rn->first_failure), "%s", res.reason);
		}
		engine_result_free(&res);
	}
}

/* Run and store one point of the block, of one arm, and show it through the view. */
static void block_point_of(struct block_run *b, const struct schedule_point *point, int repeat, const struct arm *a)
{
	if (arm_setup(b, a, point->tasks, repeat) < 0)
		return;
	if (b->np == b->cap) {
		b->cap = b->cap * 2 + 16;
		b->pts = xrealloc(b->pts, b->cap * sizeof(*b->pts));
	}
	struct store_point *p = &b->pts[b->np++];
	const struct point_at at = {.wl = b->wl, .wl_id = b->wl_id, .blk = &b->blk, .scratch = b->scratch,
				    .point = point, .repeat = repeat, .rounds = b->blk.rounds, .variant = a->name,
				    .load = a->load, .osync = a->osync};
	if (one_point(b->rn, &at, p) < 0) {
		b->np--; /* not stored: not shown, and not among the block's points */
		return;
	}
	if (b->rn->view->point_stored)
		b->rn->view->point_stored(b->rn->view->arg, &b->blk, p);
}

/* Run and store one point of the block, and show it through the view. */
static void block_point(struct block_run *b, const struct schedule_point *point, int repeat)
{
	block_point_of(b, point, repeat, &b->arms[0]);
}

/* Summary of a figure over the block's valid points at one task count (every round). */
static void block_summary(const struct block_run *b, int tasks, size_t offset, struct summary *out)
{
	double *v = xcalloc(b->np + 1, sizeof(double));
	size_t n = 0;
	for (size_t i = 0; i < b->np; i++)
		if (b->pts[i].valid && b->pts[i].tasks == tasks)
			memcpy(&v[n++], (const char *)&b->pts[i] + offset, sizeof(double));
	measure_summary(v, n, out);
	free(v);
}

/* Mean Jobs/Min of the rounds at one task count; -1 asks the search to stop. */
static double peak_measure(void *arg, int tasks)
{
	struct block_run *b = arg;
	/* the search chooses its task counts as it measures: each count's facts made as the schedule's are */
	const struct schedule_point point = schedule_point_of(&b->wl->wf, &b->wl->opts, tasks);
	for (long long r = 0; r < b->sb->of->rounds.most && !runner_stop_now(b->rn); r++)
		block_point(b, &point, (int)r);
	if (runner_stop_now(b->rn))
		return -1;
	struct summary s;
	block_summary(b, tasks, offsetof(struct store_point, jobs_per_min), &s);
	return s.mean;
}

/* Whether every arm's valid points at a task count pin their mean Jobs/Min within the asked precision. */
static int precise(const struct block_run *b, int tasks)
{
	double *v = xcalloc(b->np + 1, sizeof(double));
	int all = 1;
	for (size_t k = 0; k < b->narms && all; k++) {
		size_t n = 0;
		for (size_t i = 0; i < b->np; i++)
			if (b->pts[i].valid && b->pts[i].tasks == tasks && strcmp(b->pts[i].variant, b->arms[k].name) == 0 &&
			    b->pts[i].osync == b->arms[k].osync &&
			    strcmp(b->pts[i].load, b->arms[k].load ? b->arms[k].load : "") == 0)
				v[n++] = b->pts[i].jobs_per_min;
		all = verdict_precision_reached(v, n, b->wl->opts.precision, (size_t)b->sb->of->rounds.looks, NULL);
	}
	free(v);
	return all;
}

/* Rounds of a sweep go round the task list (1,2,4,1,2,4,...), so slow drift in the machine
 * (page cache, temperature, background work) spreads over every task count alike. The arms
 * (variants) of a task count run one after another, in mirrored order from one task count and
 * round to the next (A B, B A, A B ...), so drift falls on each arm alike too; --osync both makes
 * O_SYNC on and off two arms the same way, so compare pairs them by round. With --precision
 * the rounds go on for the task counts whose interval is still too wide. */
static void sweep_rounds(struct block_run *b)
{
	const struct run_opts *o = &b->wl->opts;
	const struct schedule_workload *sw = b->sb->of;
	for (long long r = 0; r < sw->rounds.most && !runner_stop_now(b->rn); r++) {
		int ran = 0;
		for (size_t i = 0; i < sw->npts && !runner_stop_now(b->rn); i++) {
			if (r >= sw->rounds.least && (o->precision <= 0 || precise(b, sw->pts[i].tasks)))
				continue;
			ran = 1;
			for (size_t k = 0; k < b->narms && !runner_stop_now(b->rn); k++) {
				size_t a = ((size_t)r + i) % 2 ? b->narms - 1 - k : k;
				block_point_of(b, &sw->pts[i], (int)r, &b->arms[a]);
			}
		}
		if (!ran)
			break;
	}
}

/* The listed task counts, then for crossover and quick modes doubling until the mean Jobs/Min
 * per task of a task count's rounds falls below the threshold. */
static void sweep_growing(struct block_run *b)
{
	const struct run_opts *o = &b->wl->opts;
	const struct schedule_workload *sw = b->sb->of;
	int growing = o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK;
	for (size_t i = 0; i < sw->npts && !runner_stop_now(b->rn); i++) {
		for (long long r = 0; r < sw->rounds.most && !runner_stop_now(b->rn); r++)
			block_point(b, &sw->pts[i], (int)r);
		struct summary s;
		block_summary(b, sw->pts[i].tasks, offsetof(struct store_point, jobs_per_min_task), &s);
		if (growing && s.n > 0 && s.mean < o->threshold)
			break;
	}
}

void runner_block(struct runner *rn, const struct schedule_block *sb, int64_t wl_id, const struct engine_scratch *scratch)
{
	const struct schedule_workload *sw = sb->of;
	const struct workload *wl = sw->wl;
	const struct run_opts *o = &wl->opts;
	int osync = sb->osync;
	if (confine_block(rn, sb->cpus) < 0)
		return;
	struct block_run b = {
		.rn = rn,
		.sb = sb,
		.wl = wl,
		.wl_id = wl_id,
		.osync = osync,
		.scratch = scratch,
		.blk = {.workload = wl->name, .osync = osync, .mode = o->mode, .rounds = (int)sw->rounds.most,
			.threshold = o->threshold, .variants = o->variants.count > 0, .precision = o->precision,
			.looks = (int)sw->rounds.looks, .cpus = (int)rn->ncpus, .loads = o->loads.count > 0},
		.narms = sb->arms,
	};
	b.arms = xcalloc(b.narms, sizeof(*b.arms));
	size_t nloads = sw->nloads ? sw->nloads : 1;
	/* each variant's arms: a load each (no_load first), each on then off or the block's setting */
	size_t per = osync < 0 ? 2 : 1;
	for (size_t k = 0; k < b.narms; k++) {
		/* the option parser checked every item */
		BUG_ON(o->variants.count &&
		       variant_split(o->variants.v[k / (per * nloads)], b.arms[k].name, &b.arms[k].command) < 0);
		b.arms[k].load = sw->nloads ? sw->loads[k / per % nloads] : NULL;
		b.arms[k].osync = osync < 0 ? k % per == 0 : osync;
	}
	if (rn->view->block_begin)
		rn->view->block_begin(rn->view->arg, &b.blk);
	warm_up(rn, sw, osync < 0 ? 1 : osync, scratch);
	if (o->mode == MODE_PEAK) {
		struct peak_result r;
		peak_search(sw->pts[0].tasks, sw->reach.tasks, peak_measure, &b, &r);
	} else if (o->mode == MODE_SWEEP && (sw->rounds.most > 1 || b.narms > 1)) {
		sweep_rounds(&b);
	} else {
		sweep_growing(&b);
	}
	/* the block's summary lines come from its points alone, as `reaim show` prints them */
	if (rn->view->block_end)
		rn->view->block_end(rn->view->arg, &b.blk, b.pts, b.np, !engine_interrupted());
	free(b.pts);
	free(b.arms);
	confine_block_end(rn);
}

/* Single-user mode (AIM9): each test alone in one task for about `period` seconds. The job
 * count comes from a one-job calibration point; each test is stored as its own workload. */
void runner_single(struct runner *rn, const struct schedule_block *sb, const struct engine_scratch *scratch)
{
	const long long jobs_max = option_find("jobs_per_task")->max;
	const struct workload *wl = sb->of->wl;
	int osync = sb->osync;
	if (rn->view->single_begin)
		rn->view->single_begin(rn->view->arg, wl->wf.name, osync, sb->of->pts[0].file_kib);
	for (size_t i = 0; i < wl->wf.count && !runner_stop_now(rn); i++) {
		struct workload one = *wl; /* shallow: shares the text and options, owns nothing */
		one.wf.entries = &wl->wf.entries[i];
		one.wf.count = 1;
		one.name = (char *)wl->wf.entries[i].test->name;
		one.opts.jobs_per_task = 1;
		const struct block_plan blk = {.workload = one.name, .osync = osync, .mode = MODE_SINGLE, .rounds = 1};
		int64_t wl_id;
		if (runner_store_workload(rn, &one, &wl_id) < 0) {
			log_error("%s", store_error(rn->st));
			rn->failed = rn->fatal = 1;
			return;
		}
		/* grow the job count until one point lasts at least half the period */
		struct store_point p;
		int ok = 1;
		for (int r = 0; ok && !runner_stop_now(rn); r++) {
			/* the calibrated job count is chosen as it measures: the point's facts made as the schedule's */
			const struct schedule_point point = schedule_point_of(&one.wf, &one.opts, 1);
			const struct point_at at = {.wl = &one, .wl_id = wl_id, .blk = &blk, .scratch = scratch,
						    .point = &point, .repeat = r, .rounds = (int)sb->of->rounds.most,
						    .variant = "", .osync = blk.osync};
			ok = one_point(rn, &at, &p) == 0 && p.valid && p.jobs_per_min_task > 0;
			double want = wl->opts.period_s, got = p.real_s > 1e-6 ? p.real_s : 1e-6;
			if (!ok || got >= want / 2 || one.opts.jobs_per_task >= jobs_max)
				break;
			double grow = 0.75 * want / got;
			grow = grow < 2 ? 2 : grow;
			one.opts.jobs_per_task = (long long)fmin((double)jobs_max, (double)one.opts.jobs_per_task * grow);
		}
		if (!ok || runner_stop_now(rn))
			continue;
		if (rn->view->single_row)
			rn->view->single_row(rn->view->arg, &p);
	}
}

/* Every option of a resolved workload as stored rows (values owned by the rows). */
static struct store_option *workload_options(const struct run_opts *o, size_t *n)
{
	struct store_option *rows = NULL;
	*n = 0;
	for (size_t i = 0; i < option_count; i++) {
		const struct option_def *def = &option_table[i];
		struct str_list v;
		option_format(o, def, &v);
		rows = xrealloc(rows, (*n + v.count + 1) * sizeof(*rows));
		for (size_t k = 0; k < v.count; k++) {
			struct store_option *r = &rows[(*n)++];
			memset(r, 0, sizeof(*r));
			snprintf(r->key, sizeof(r->key), "%s", def->key);
			r->item = def->type == OPT_STRLIST ? (int)k : -1;
			r->value = v.v[k];
		}
		free(v.v); /* the strings moved to the rows */
	}
	return rows;
}

int runner_store_workload(struct runner *rn, const struct workload *wl, int64_t *wl_id)
{
	size_t nopts;
	struct store_option *opts = workload_options(&wl->opts, &nopts);
	struct store_workload sw = {
		.name = wl->name,
		.workfile_name = wl->wf.name,
		.workfile_text = wl->wf.text,
		.options = opts,
		.noptions = nopts,
	};
	int rc = store_workload_add(rn->st, rn->run_id, &sw, wl_id);
	store_options_free(opts, nopts);
	return rc;
}
