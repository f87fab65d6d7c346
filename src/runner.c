/* Driving the engine for one workload: each point is run, stored, and printed (by the report
 * functions `reaim show` uses) as it completes. */
#include "config.h"

#include <math.h>
#include <stddef.h>
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
	if (res.valid)
		rn->last_real_s = res.real_s;
	struct store_test *tests = to_store_tests(&wl->wf, &res);
	struct store_sample *samples = to_store_system(&res, out);
	if (store_point_add(rn->st, out, tests, wl->wf.count, samples, res.nseries) < 0) {
		log_error("%s", store_error(rn->st));
		rn->fatal = rn->failed = 1;
		if (!rn->first_failure[0])
			snprintf(rn->first_failure, sizeof(rn->first_failure), "a point could not be stored: %s",
				 store_error(rn->st));
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

/* One block (a workload and O_SYNC setting): its points in the order they ran, each printed
 * as it completes, and what the report needs to print them. */
struct block_run {
	struct runner *rn;
	const struct workload *wl;
	int64_t wl_id;
	int osync;
	const struct engine_scratch *scratch;
	struct report_block rb;
	struct store_point *pts;
	size_t np, cap;
};

/* Run, store and print one point of the block. */
static void block_point(struct block_run *b, int tasks, int repeat)
{
	if (b->np == b->cap) {
		b->cap = b->cap * 2 + 16;
		b->pts = xrealloc(b->pts, b->cap * sizeof(*b->pts));
	}
	struct store_point *p = &b->pts[b->np++];
	one_point(b->rn, b->wl, b->wl_id, b->osync, tasks, repeat, b->scratch, p);
	report_block_row(stdout, &b->rb, p);
	fflush(stdout);
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
	for (int r = 0; r < b->wl->opts.repeat && !runner_stop_now(b->rn); r++)
		block_point(b, tasks, r);
	if (runner_stop_now(b->rn))
		return -1;
	struct summary s;
	block_summary(b, tasks, offsetof(struct store_point, jobs_per_min), &s);
	return s.mean;
}

/* Repeats of a sweep go round the task list (1,2,4,1,2,4,...), so slow drift in the machine
 * (page cache, temperature, background work) spreads over every task count alike. */
static void sweep_interleaved(struct block_run *b)
{
	const struct run_opts *o = &b->wl->opts;
	for (int r = 0; r < o->repeat && !runner_stop_now(b->rn); r++)
		for (size_t i = 0; i < o->tasks.count && !runner_stop_now(b->rn); i++)
			block_point(b, o->tasks.n[i], r);
}

/* The listed task counts, then for crossover and quick modes doubling until the mean Jobs/Min
 * per task of a task count's rounds falls below the threshold. */
static void sweep_growing(struct block_run *b)
{
	const struct run_opts *o = &b->wl->opts;
	int growing = o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK;
	int tasks = 0;
	for (size_t i = 0; !runner_stop_now(b->rn); i++) {
		if (i < o->tasks.count)
			tasks = o->tasks.n[i];
		else if (growing && tasks * 2 <= o->max_tasks &&
			 b->np < o->tasks.count * (size_t)o->repeat + PLAN_GROW_POINTS)
			tasks *= 2;
		else
			break;
		for (int r = 0; r < o->repeat && !runner_stop_now(b->rn); r++)
			block_point(b, tasks, r);
		struct summary s;
		block_summary(b, tasks, offsetof(struct store_point, jobs_per_min_task), &s);
		if (growing && s.n > 0 && s.mean < o->threshold)
			break;
	}
}

void runner_block(struct runner *rn, const struct workload *wl, int64_t wl_id, int osync,
		  const struct engine_scratch *scratch)
{
	const struct run_opts *o = &wl->opts;
	struct block_run b = {
		.rn = rn,
		.wl = wl,
		.wl_id = wl_id,
		.osync = osync,
		.scratch = scratch,
		.rb = {.workload = wl->name, .osync = osync, .mode = o->mode, .rounds = (int)o->repeat,
		       .threshold = o->threshold, .verbose = rn->verbose},
	};
	report_block_begin(stdout, &b.rb);
	if (o->mode == MODE_PEAK) {
		struct peak_result r;
		peak_search(o->tasks.n[0], (int)o->max_tasks, peak_measure, &b, &r);
	} else if (o->mode == MODE_SWEEP && o->repeat > 1) {
		sweep_interleaved(&b);
	} else {
		sweep_growing(&b);
	}
	/* the block's summary lines come from its points alone, as `reaim show` prints them */
	report_block_end(stdout, &b.rb, b.pts, b.np, !engine_interrupted());
	free(b.pts);
}

/* Single-user mode (AIM9): each test alone in one task for about `period` seconds. The job
 * count comes from a one-job calibration point; each test is stored as its own workload. */
void runner_single(struct runner *rn, const struct workload *wl, const struct engine_scratch *scratch)
{
	int osync = wl->opts.osync != OSYNC_OFF;
	report_single_begin(stdout, wl->wf.name, osync, plan_file_kib(&wl->opts, 1));
	for (size_t i = 0; i < wl->wf.count && !runner_stop_now(rn); i++) {
		struct workload one = *wl; /* shallow: shares the text and options, owns nothing */
		one.wf.entries = &wl->wf.entries[i];
		one.wf.count = 1;
		one.name = (char *)wl->wf.entries[i].test->name;
		one.opts.jobs_per_task = 1;
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
		report_single_row(stdout, &p);
		fflush(stdout);
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
	char *tasks = tasks_format(&wl->opts.tasks);
	struct strbuf dirs = {0};
	strbuf_add(&dirs, "", 0);
	for (size_t d = 0; d < wl->opts.dirs.count; d++)
		strbuf_addf(&dirs, "%s%s", d ? ":" : "", wl->opts.dirs.v[d]);
	size_t nopts;
	struct store_option *opts = workload_options(&wl->opts, &nopts);
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
		.options = opts,
		.noptions = nopts,
	};
	int rc = store_workload_add(rn->st, rn->run_id, &sw, wl_id);
	store_options_free(opts, nopts);
	free(tasks);
	strbuf_free(&dirs);
	return rc;
}
