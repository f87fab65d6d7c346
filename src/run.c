/* `reaim run`: resolve the plan, check it can run, then drive the engine point by point,
 * storing each point as it completes and printing the classic table. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "config/cfg.h"
#include "engine/engine.h"
#include "measure/peak.h"
#include "report/progress.h"
#include "report/report.h"
#include "store/store.h"
#include "util/env.h"
#include "util/util.h"

struct run_args {
	const char *suite, *db;
	int dry_run, verbose;
	struct overrides ov;
};

enum { FLAG_DB = 1000, FLAG_DRY_RUN, FLAG_SUITE_HELP };

/* getopt tables built from the option table, so a new option is one row there. */
static int parse_run_args(int argc, char **argv, struct run_args *a)
{
	struct option *longs = xcalloc(option_count + 8, sizeof(*longs));
	char **names = xcalloc(option_count, sizeof(char *));
	struct strbuf shorts = {0};
	strbuf_add(&shorts, "+s:qvh", 6);
	size_t k = 0;
	for (size_t i = 0; i < option_count; i++) {
		names[i] = xstrdup(option_table[i].key);
		for (char *c = names[i]; *c; c++)
			*c = *c == '_' ? '-' : *c;
		longs[k++] = (struct option){names[i], required_argument, NULL, (int)(2000 + i)};
		if (option_table[i].short_flag)
			strbuf_addf(&shorts, "%c:", option_table[i].short_flag);
	}
	longs[k++] = (struct option){"suite", required_argument, NULL, 's'};
	longs[k++] = (struct option){"db", required_argument, NULL, FLAG_DB};
	longs[k++] = (struct option){"dry-run", no_argument, NULL, FLAG_DRY_RUN};
	longs[k++] = (struct option){"quiet", no_argument, NULL, 'q'};
	longs[k++] = (struct option){"verbose", no_argument, NULL, 'v'};
	longs[k++] = (struct option){"help", no_argument, NULL, 'h'};

	run_opts_defaults(&a->ov.opts);
	int rc = 0, c;
	optind = 1;
	while (rc == 0 && (c = getopt_long(argc, argv, shorts.buf, longs, NULL)) != -1) {
		const struct option_def *def = c >= 2000 ? &option_table[c - 2000] : option_find_short((char)c);
		const char *why;
		if (def) {
			if (def->type == OPT_STRLIST && !a->ov.given[def - option_table])
				str_list_free(&a->ov.opts.dirs); /* flags replace the suite's list */
			if (option_set(&a->ov.opts, def, optarg, &why) < 0) {
				log_error("--%s %s: %s", def->key, optarg, why);
				rc = -1;
			}
			a->ov.given[def - option_table] = 1;
			continue;
		}
		switch (c) {
		case 's': a->suite = optarg; break;
		case FLAG_DB: a->db = optarg; break;
		case FLAG_DRY_RUN: a->dry_run = 1; break;
		case 'q': log_set_level(0); break;
		case 'v': a->verbose = 1; log_set_level(2); break;
		case 'h': cli_usage(stdout); rc = 1; break;
		default: rc = -1; break;
		}
	}
	if (rc == 0 && optind < argc) {
		log_error("unexpected argument '%s'", argv[optind]);
		rc = -1;
	}
	for (size_t i = 0; i < option_count; i++)
		free(names[i]);
	free(names);
	free(longs);
	strbuf_free(&shorts);
	return rc;
}

static void print_plan(const struct plan *p)
{
	printf("Suite %s%s%s\n", p->suite_name, p->suite_path ? " from " : "", p->suite_path ? p->suite_path : "");
	for (size_t w = 0; w < p->nwl; w++) {
		const struct workload *wl = &p->wl[w];
		const struct run_opts *o = &wl->opts;
		size_t per_task = plan_jobs_per_task(&wl->wf, o->jobs_per_task);
		printf("\nWorkload %s: workfile %s (%zu tests)\n", wl->name, wl->wf.path, wl->wf.count);
		printf("  jobs per task P = %zu (nominal %lld), repeat %lld, mode %s", per_task, o->jobs_per_task,
		       o->repeat, mode_names[o->mode]);
		if (o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK)
			printf(" (until Jobs/Min per task < %g, at most %lld tasks)", o->threshold, o->max_tasks);
		printf("\n  osync %s, sync_mode %s, seed %lld, label %s\n", osync_names[o->osync],
		       sync_mode_names[o->sync_mode], o->seed, o->label);
		printf("  dirs:");
		for (size_t d = 0; d < o->dirs.count; d++)
			printf(" %s", o->dirs.v[d]);
		printf("\n  FILESIZE %lldK POOLSIZE %lldK\n", o->filesize_kib, o->poolsize_kib);
		printf("  %-8s %-12s %-14s %s\n", "Tasks", "File KiB", "Jobs", "Disk space");
		for (size_t i = 0; i < o->tasks.count; i++) {
			int n = o->tasks.n[i];
			long long kib = plan_file_kib(o, n);
			/* each task holds at most one file of n KiB at a time, plus one source per dir */
			long long space = kib * (n + (long long)o->dirs.count);
			printf("  %-8d %-12lld %-14zu %.1f MiB\n", n, kib, per_task * (size_t)n, (double)space / 1024);
		}
	}
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

static char *join_args(int argc, char **argv)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "reaim", 5);
	for (int i = 1; i < argc; i++)
		strbuf_addf(&sb, " %s", argv[i]);
	return sb.buf;
}

/* Everything a run carries from point to point. */
struct runner {
	struct store *st;
	int64_t run_id;
	size_t point_index;
	int verbose;
	int failed, fatal;
	char first_failure[320];
	double last_real_s;
};

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

static int stop_now(const struct runner *rn)
{
	engine_poll_signals();
	return rn->fatal || engine_interrupted();
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
	for (int r = 0; r < c->wl->opts.repeat && !stop_now(c->rn); r++) {
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
	if (stop_now(c->rn))
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
static void run_block(struct runner *rn, const struct workload *wl, int64_t wl_id, int osync,
		      const struct engine_scratch *scratch)
{
	const struct run_opts *o = &wl->opts;
	int growing = o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK;
	struct store_point *pts = xcalloc(o->tasks.count * (size_t)o->repeat + 64, sizeof(*pts));
	size_t np = 0;
	report_block_heading(stdout, wl->name, osync);
	report_table_header(stdout, rn->verbose);
	if (o->mode == MODE_PEAK) {
		free(pts);
		run_peak(rn, wl, wl_id, osync, scratch);
		return;
	}
	int tasks = 0;
	for (size_t i = 0; !stop_now(rn); i++) {
		if (i < o->tasks.count)
			tasks = o->tasks.n[i];
		else if (growing && tasks * 2 <= o->max_tasks && np < o->tasks.count * (size_t)o->repeat + 60)
			tasks *= 2;
		else
			break;
		double jpm_task = 0;
		for (int r = 0; r < o->repeat && !stop_now(rn); r++) {
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

static int store_workload(struct runner *rn, const struct workload *wl, int64_t *wl_id);

/* Single-user mode (AIM9): each test alone in one task for about `period` seconds. The job
 * count comes from a one-job calibration point; each test is stored as its own workload. */
static void run_single(struct runner *rn, const struct workload *wl, const struct engine_scratch *scratch)
{
	printf("\nSingle-user (AIM9) mode, %.1f s per test, O_SYNC %s, file %lld KiB\n", wl->opts.period_s,
	       wl->opts.osync == OSYNC_OFF ? "off" : "on", plan_file_kib(&wl->opts, 1));
	printf("%-18s %9s %9s %12s %14s  %s\n", "Test", "Calls", "Seconds", "Calls/s", "Ops/s", "Units");
	for (size_t i = 0; i < wl->wf.count && !stop_now(rn); i++) {
		struct workload one = *wl; /* shallow: shares the text and options, owns nothing */
		one.wf.entries = &wl->wf.entries[i];
		one.wf.count = 1;
		one.name = (char *)wl->wf.entries[i].test->name;
		one.opts.jobs_per_task = 1;
		int osync = wl->opts.osync != OSYNC_OFF;
		int64_t wl_id;
		if (store_workload(rn, &one, &wl_id) < 0) {
			log_error("%s", store_error(rn->st));
			rn->failed = rn->fatal = 1;
			return;
		}
		/* grow the job count until one point lasts at least half the period */
		struct store_point p;
		int ok = 1;
		for (int r = 0; ok && !stop_now(rn); r++) {
			ok = one_point(rn, &one, wl_id, osync, 1, r, scratch, &p) > 0;
			double want = wl->opts.period_s, got = p.real_s > 1e-6 ? p.real_s : 1e-6;
			if (!ok || got >= want / 2 || one.opts.jobs_per_task >= 10000000)
				break;
			double grow = 0.75 * want / got;
			grow = grow < 2 ? 2 : grow;
			one.opts.jobs_per_task = (long long)fmin(1e7, (double)one.opts.jobs_per_task * grow);
		}
		if (!ok || stop_now(rn))
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

static int store_workload(struct runner *rn, const struct workload *wl, int64_t *wl_id)
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

static int begin_run(struct runner *rn, const struct plan *p, int argc, char **argv)
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
	char *uuid = make_uuid(), *cmdline = join_args(argc, argv);
	const struct run_opts *o0 = &p->wl[0].opts;
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
	};
	int rc = store_run_begin(rn->st, &r, &rn->run_id);
	free(uuid);
	free(cmdline);
	if (rc < 0)
		return -1;
	struct env_list env;
	env_collect(&env, o0->dirs.v, o0->dirs.count);
	for (size_t i = 0; i < env.count && rc == 0; i++)
		rc = store_run_env(rn->st, rn->run_id, env.items[i].key, env.items[i].value);
	env_free(&env);
	return rc;
}

/* Points a run will measure, for the ETA (growing modes may add more). */
static size_t planned_points(const struct plan *p)
{
	size_t n = 0;
	for (size_t w = 0; w < p->nwl; w++) {
		const struct run_opts *o = &p->wl[w].opts;
		n += o->tasks.count * (size_t)o->repeat * (o->osync == OSYNC_BOTH ? 2 : 1);
	}
	return n;
}

static enum outcome execute(const struct plan *p, const struct run_args *a, int argc, char **argv)
{
	char err[512];
	struct runner rn = {.verbose = a->verbose};
	const char *db = cli_db_path(a->db);
	if (!a->db && !getenv("REAIM_DB") && mkdir("results", 0755) < 0 && errno != EEXIST) {
		log_error("cannot create the results directory: %s", strerror(errno));
		return OUT_USAGE;
	}
	if (store_open(db, &rn.st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return OUT_USAGE;
	}
	if (begin_run(&rn, p, argc, argv) < 0) {
		log_error("%s", store_error(rn.st));
		store_close(rn.st);
		return OUT_USAGE;
	}
	log_info("run %lld stored in %s", (long long)rn.run_id, db);
	progress_start(log_level() > 0, planned_points(p));
	for (size_t w = 0; w < p->nwl && !stop_now(&rn); w++) {
		const struct workload *wl = &p->wl[w];
		struct engine_scratch scratch;
		int64_t wl_id;
		if (wl->opts.mode == MODE_SINGLE) {
			if (engine_scratch_create(&wl->opts.dirs, &scratch, rn.first_failure,
						  sizeof(rn.first_failure)) < 0) {
				log_error("%s", rn.first_failure);
				rn.failed = rn.fatal = 1;
				break;
			}
			run_single(&rn, wl, &scratch);
			engine_scratch_destroy(&scratch);
			continue;
		}
		if (store_workload(&rn, wl, &wl_id) < 0) {
			log_error("%s", store_error(rn.st));
			rn.failed = rn.fatal = 1;
			break;
		}
		if (engine_scratch_create(&wl->opts.dirs, &scratch, rn.first_failure,
					  sizeof(rn.first_failure)) < 0) {
			log_error("%s", rn.first_failure);
			rn.failed = rn.fatal = 1;
			break;
		}
		static const int both[] = {1, 0};
		int nosync = wl->opts.osync == OSYNC_BOTH ? 2 : 1;
		for (int k = 0; k < nosync && !stop_now(&rn); k++)
			run_block(&rn, wl, wl_id, nosync == 2 ? both[k] : wl->opts.osync, &scratch);
		engine_scratch_destroy(&scratch);
	}
	progress_stop();
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
	if (sig) {
		log_error("interrupted; finished points are kept in run %lld", (long long)rn.run_id);
		return OUT_INTERRUPTED;
	}
	return rn.failed ? OUT_FAILED : OUT_OK;
}

static enum outcome run_command(int argc, char **argv, int single)
{
	struct run_args a = {0};
	int prc = parse_run_args(argc, argv, &a);
	if (single) {
		const struct option_def *mode = option_find("mode");
		a.ov.opts.mode = MODE_SINGLE;
		a.ov.given[mode - option_table] = 1;
	}
	if (prc != 0) {
		run_opts_free(&a.ov.opts);
		return prc > 0 ? OUT_OK : OUT_USAGE;
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
	enum outcome out = OUT_OK;
	if (rc < 0) {
		errlist_print(&errs);
		out = OUT_USAGE;
	} else if (a.dry_run) {
		print_plan(&p);
	} else if (preflight(&p) < 0) {
		out = OUT_USAGE;
	} else if (engine_init() < 0) {
		log_error("cannot set up signal handling: %s", strerror(errno));
		out = OUT_FAILED;
	} else {
		out = execute(&p, &a, argc, argv);
	}
	errlist_free(&errs);
	plan_free(&p);
	run_opts_free(&a.ov.opts);
	return out;
}

enum outcome cmd_run(int argc, char **argv) { return run_command(argc, argv, 0); }
enum outcome cmd_single(int argc, char **argv) { return run_command(argc, argv, 1); }
