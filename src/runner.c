/* Driving the engine for one workload: each point is run, stored and printed as it completes. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/peak.h"
#include "report/progress.h"
#include "report/report.h"
#include "runner.h"
#include "util/util.h"

static void to_store_point(const struct engine_point *pt, const struct engine_result *r, int repeat,
			   struct store_point *p)
{
	memset(p, 0, sizeof(*p));
	p->osync = pt->osync;
	p->tasks = pt->tasks;
	p->repeat = repeat;
	p->valid = r->valid;
	snprintf(p->reason, sizeof(p->reason), "%s", r->reason);
	p->jobs_per_task = (int64_t)r->jobs_per_task;
	p->file_kib = plan_file_kib(pt->opts, pt->tasks);
	p->real_s = r->real_s;
	p->jobs_per_min = measure_jobs_per_min((double)r->jobs_per_task * pt->tasks, r->real_s);
	p->jobs_per_min_task = measure_jobs_per_min((double)r->jobs_per_task, r->real_s);
	p->user_s = r->user_s;
	p->sys_s = r->sys_s;
	p->cpu_s = r->user_s + r->sys_s;
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

/* The sampler's averages into the point, and its series as store rows. */
static struct store_sample *to_store_system(const struct engine_result *r, struct store_point *p)
{
	if (!r->sampled)
		return NULL;
	const struct sys_sample *a = &r->sys.avg;
	p->sampled = 1;
	p->user_pct = a->user_pct + a->nice_pct;
	p->sys_pct = a->sys_pct + a->irq_pct + a->softirq_pct;
	p->iowait_pct = a->iowait_pct;
	p->idle_pct = a->idle_pct;
	p->read_kbs = a->read_kbs;
	p->write_kbs = a->write_kbs;
	p->read_iops = a->read_iops;
	p->write_iops = a->write_iops;
	p->util_pct = a->util_pct;
	p->ctxt_per_s = a->ctxt_per_s;
	p->forks_per_s = a->forks_per_s;
	p->pgfault_per_s = a->pgfault_per_s;
	p->sampler_cpu_pct = r->sys.sampler_cpu_pct;
	struct store_sample *s = xcalloc(r->nseries + 1, sizeof(*s));
	for (size_t i = 0; i < r->nseries; i++) {
		const struct sys_sample *x = &r->series[i];
		s[i] = (struct store_sample){x->t_s, x->user_pct + x->nice_pct, x->sys_pct + x->irq_pct + x->softirq_pct,
					     x->iowait_pct, x->idle_pct, x->read_kbs, x->write_kbs, x->util_pct,
					     x->ctxt_per_s};
	}
	return s;
}

/* Run, store and print one point; returns its Jobs/Min per task (0 if invalid). */
static double one_point(struct runner *rn, const struct workload *wl, int64_t wl_id, int osync, int tasks,
			int repeat, const struct engine_scratch *scratch, struct store_point *out)
{
	struct engine_point pt = {
		.wf = &wl->wf,
		.opts = &wl->opts,
		.tasks = tasks,
		.osync = osync,
		.seed = (uint64_t)wl->opts.seed + (uint64_t)repeat * 7919u,
		.timeout_s = wl->opts.timeout_s > 0 ? wl->opts.timeout_s : fmax(600, 20 * rn->last_real_s),
	};
	/* the sampler watches the block devices behind the disk dirs */
	char names[8][64];
	const char *devices[8];
	size_t nd = 0;
	for (size_t d = 0; d < wl->opts.dirs.count && nd < 8; d++) {
		if (sampler_device_of(wl->opts.dirs.v[d], names[nd], sizeof(names[nd])) < 0)
			continue;
		size_t k = 0;
		while (k < nd && strcmp(names[k], names[nd]) != 0)
			k++;
		if (k == nd) {
			devices[nd] = names[nd];
			nd++;
		}
	}
	struct sampler_config sc = {.interval_s = wl->opts.sample_interval_s, .devices = devices, .ndevices = nd};
	pt.sampler = sc.interval_s > 0 ? &sc : NULL;
	struct engine_result res;
	progress_point(wl->name, osync, tasks, ++rn->point_index, repeat + 1, (int)wl->opts.repeat);
	engine_run_point(&pt, scratch, &res);
	progress_point_done();
	to_store_point(&pt, &res, repeat, out);
	out->run_id = rn->run_id;
	out->workload_id = wl_id;
	snprintf(out->workload, sizeof(out->workload), "%s", wl->name);
	if (!res.valid) {
		rn->failed = 1;
		if (!rn->first_failure[0])
			snprintf(rn->first_failure, sizeof(rn->first_failure), "%s", res.reason);
		log_error("%s, %d tasks: %s", wl->name, tasks, res.reason);
	}
	rn->fatal |= res.fatal;
	if (res.overhead_warning)
		log_warn("%s, %d tasks: point overhead %.2f s: %s", wl->name, tasks, res.point_overhead_s,
			 res.overhead_note);
	if (res.valid)
		rn->last_real_s = res.real_s;
	struct store_test *tests = to_store_tests(&wl->wf, &res);
	struct store_sample *samples = to_store_system(&res, out);
	if (store_point_add(rn->st, out, tests, wl->wf.count, samples, res.nseries) < 0) {
		log_error("%s", store_error(rn->st));
		rn->fatal = rn->failed = 1;
	}
	free(tests);
	free(samples);
	engine_result_free(&res);
	return out->valid ? out->jobs_per_min_task : 0;
}

int runner_stop_now(const struct runner *rn)
{
	engine_poll_signals();
	return rn->fatal || engine_interrupted();
}

/* --warmup: points at the first task count that leave the caches, the allocator and the
 * CPU frequency where the measured points will find them; stored nowhere. */
static void warm_up(struct runner *rn, const struct workload *wl, int osync, const struct engine_scratch *scratch)
{
	for (long long i = 0; i < wl->opts.warmup && !runner_stop_now(rn); i++) {
		struct engine_point pt = {
			.wf = &wl->wf,
			.opts = &wl->opts,
			.tasks = wl->opts.tasks.n[0],
			.osync = osync,
			.seed = (uint64_t)wl->opts.seed,
			.timeout_s = wl->opts.timeout_s > 0 ? wl->opts.timeout_s : 600,
		};
		struct engine_result res;
		engine_run_point(&pt, scratch, &res);
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

/* What peak mode's measure callback needs to run points. */
struct peak_ctx {
	struct runner *rn;
	const struct workload *wl;
	int64_t wl_id;
	int osync;
	const struct engine_scratch *scratch;
	struct store_point *pts;
	size_t np, cap;
	struct summary last;
};

/* Mean Jobs/Min of the repeats at one task count; -1 asks the search to stop. */
static double peak_measure(void *arg, int tasks)
{
	struct peak_ctx *c = arg;
	double jpm[1000];
	size_t n = 0;
	for (int r = 0; r < c->wl->opts.repeat && !runner_stop_now(c->rn); r++) {
		if (c->np == c->cap) {
			c->cap = c->cap * 2 + 16;
			c->pts = xrealloc(c->pts, c->cap * sizeof(*c->pts));
		}
		struct store_point *p = &c->pts[c->np++];
		one_point(c->rn, c->wl, c->wl_id, c->osync, tasks, r, c->scratch, p);
		report_table_row(stdout, p, c->rn->verbose);
		fflush(stdout);
		if (p->valid && n < 1000)
			jpm[n++] = p->jobs_per_min;
	}
	if (runner_stop_now(c->rn))
		return -1;
	measure_summary(jpm, n, &c->last);
	return c->last.mean;
}

static void run_peak(struct runner *rn, const struct workload *wl, int64_t wl_id, int osync,
		     const struct engine_scratch *scratch)
{
	const struct run_opts *o = &wl->opts;
	struct peak_ctx c = {.rn = rn, .wl = wl, .wl_id = wl_id, .osync = osync, .scratch = scratch};
	struct peak_result r;
	peak_search(o->tasks.n[0], (int)o->max_tasks, peak_measure, &c, &r);
	struct summary at_peak = {0};
	double *v = xcalloc(c.np + 1, sizeof(double));
	size_t n = 0;
	for (size_t i = 0; i < c.np; i++)
		if (c.pts[i].valid && c.pts[i].tasks == r.tasks)
			v[n++] = c.pts[i].jobs_per_min;
	measure_summary(v, n, &at_peak);
	free(v);
	if (r.points > 0 && !r.stopped)
		printf("Peak: %.1f Jobs/Min at %d tasks (cv %.1f%% over %zu repeats), found with %d task counts "
		       "between %d and %lld\n", at_peak.mean, r.tasks, at_peak.cv_pct, at_peak.n, r.points,
		       o->tasks.n[0], o->max_tasks);
	report_max_line(stdout, c.pts, c.np);
	free(c.pts);
}

/* The task counts of a workload: the listed ones, then for crossover and quick modes
 * doubling until Jobs/Min per task falls below the threshold. */
static int by_tasks(const void *a, const void *b)
{
	const struct store_point *x = a, *y = b;
	return x->tasks != y->tasks ? (x->tasks > y->tasks) - (x->tasks < y->tasks)
				    : (x->repeat > y->repeat) - (x->repeat < y->repeat);
}

/* Repeats of a sweep go round the task list (1,2,4,1,2,4,...), so slow drift in the machine
 * (page cache, temperature, background work) spreads over every task count alike. */
static void sweep_interleaved(struct runner *rn, const struct workload *wl, int64_t wl_id, int osync,
			      const struct engine_scratch *scratch)
{
	const struct run_opts *o = &wl->opts;
	struct store_point *pts = xcalloc(o->tasks.count * (size_t)o->repeat + 1, sizeof(*pts));
	size_t np = 0;
	for (int r = 0; r < o->repeat && !runner_stop_now(rn); r++)
		for (size_t i = 0; i < o->tasks.count && !runner_stop_now(rn); i++) {
			one_point(rn, wl, wl_id, osync, o->tasks.n[i], r, scratch, &pts[np]);
			report_table_row(stdout, &pts[np++], rn->verbose);
			fflush(stdout);
		}
	qsort(pts, np, sizeof(*pts), by_tasks);
	report_max_line(stdout, pts, np);
	report_repeats(stdout, pts, np);
	free(pts);
}

void runner_block(struct runner *rn, const struct workload *wl, int64_t wl_id, int osync,
		  const struct engine_scratch *scratch)
{
	const struct run_opts *o = &wl->opts;
	int growing = o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK;
	struct store_point *pts = xcalloc(o->tasks.count * (size_t)o->repeat + 64, sizeof(*pts));
	size_t np = 0;
	report_block_heading(stdout, wl->name, osync);
	report_table_header(stdout, rn->verbose);
	warm_up(rn, wl, osync, scratch);
	if (o->mode == MODE_PEAK) {
		free(pts);
		run_peak(rn, wl, wl_id, osync, scratch);
		return;
	}
	if (o->mode == MODE_SWEEP && o->repeat > 1) {
		free(pts);
		sweep_interleaved(rn, wl, wl_id, osync, scratch);
		return;
	}
	int tasks = 0;
	for (size_t i = 0; !runner_stop_now(rn); i++) {
		if (i < o->tasks.count)
			tasks = o->tasks.n[i];
		else if (growing && tasks * 2 <= o->max_tasks && np < o->tasks.count * (size_t)o->repeat + 60)
			tasks *= 2;
		else
			break;
		double jpm_task = 0;
		for (int r = 0; r < o->repeat && !runner_stop_now(rn); r++) {
			jpm_task = one_point(rn, wl, wl_id, osync, tasks, r, scratch, &pts[np]);
			report_table_row(stdout, &pts[np++], rn->verbose);
			fflush(stdout);
		}
		if (growing && jpm_task > 0 && jpm_task < o->threshold) {
			printf("Crossover: Jobs/Min per task %.2f fell below %g at %d tasks\n", jpm_task,
			       o->threshold, tasks);
			break;
		}
	}
	report_max_line(stdout, pts, np);
	report_repeats(stdout, pts, np);
	free(pts);
}


/* Single-user mode (AIM9): each test alone in one task for about `period` seconds. The job
 * count comes from a one-job calibration point; each test is stored as its own workload. */
void runner_single(struct runner *rn, const struct workload *wl, const struct engine_scratch *scratch)
{
	printf("\nSingle-user (AIM9) mode, %g s per test, O_SYNC %s, file %lld KiB\n", wl->opts.period_s,
	       wl->opts.osync == OSYNC_OFF ? "off" : "on", plan_file_kib(&wl->opts, 1));
	printf("%-18s %9s %9s %12s %14s  %s\n", "Test", "Calls", "Seconds", "Calls/s", "Ops/s", "Units");
	for (size_t i = 0; i < wl->wf.count && !runner_stop_now(rn); i++) {
		struct workload one = *wl; /* shallow: shares the text and options, owns nothing */
		one.wf.entries = &wl->wf.entries[i];
		one.wf.count = 1;
		one.name = (char *)wl->wf.entries[i].test->name;
		one.opts.jobs_per_task = 1;
		int osync = wl->opts.osync != OSYNC_OFF;
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
			ok = one_point(rn, &one, wl_id, osync, 1, r, scratch, &p) > 0;
			double want = wl->opts.period_s, got = p.real_s > 1e-6 ? p.real_s : 1e-6;
			if (!ok || got >= want / 2 || one.opts.jobs_per_task >= 10000000)
				break;
			double grow = 0.75 * want / got;
			grow = grow < 2 ? 2 : grow;
			one.opts.jobs_per_task = (long long)fmin(1e7, (double)one.opts.jobs_per_task * grow);
		}
		if (!ok || runner_stop_now(rn))
			continue;
		const struct test_def *t = one.wf.entries[0].test;
		double rate = (double)p.jobs_per_task / p.real_s;
		printf("%-18s %9lld %9.2f %12.1f %14.1f  %s", t->name, (long long)p.jobs_per_task, p.real_s, rate,
		       rate * (double)t->ops_per_call, t->units);
		if (t->flags & TF_SIZED)
			printf(" (%.0f KiB/s)", rate * (double)p.file_kib / (t->flags & TF_HALF ? 2 : 1));
		putchar('\n');
		fflush(stdout);
	}
}

int runner_store_workload(struct runner *rn, const struct workload *wl, int64_t *wl_id)
{
	char *tasks = tasks_format(&wl->opts.tasks);
	struct strbuf dirs = {0};
	strbuf_add(&dirs, "", 0);
	for (size_t d = 0; d < wl->opts.dirs.count; d++)
		strbuf_addf(&dirs, "%s%s", d ? ":" : "", wl->opts.dirs.v[d]);
	struct store_workload sw = {
		.name = wl->name,
		.workfile_name = wl->wf.name,
		.workfile_text = wl->wf.text,
		.sync_mode = sync_mode_names[wl->opts.sync_mode],
		.osync = osync_names[wl->opts.osync],
		.dirs = dirs.buf,
		.tasks = tasks,
		.jobs_per_task = wl->opts.jobs_per_task,
		.filesize_kib = wl->opts.filesize_kib,
		.poolsize_kib = wl->opts.poolsize_kib,
		.repeat = wl->opts.repeat,
		.threshold = wl->opts.threshold,
	};
	int rc = store_workload_add(rn->st, rn->run_id, &sw, wl_id);
	free(tasks);
	strbuf_free(&dirs);
	return rc;
}
