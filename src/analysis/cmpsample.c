/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison's samples: runs read once and cached, the points a side has at a cell, a sample's
 * figures (its metric, CPU and others' demand) and their means and medians. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/cfg.h"
#include "analysis/stats.h"
#include "analysis/cmpblock.h"
#include "analysis/cmpmodel.h"
#include "analysis/curves.h"
#include "analysis/kconfig.h"
#include "analysis/noise.h"
#include "measure/load.h"
#include "util/util.h"
#include "analysis/cmpbuild.h"

struct crun *cmp_run_of(struct build *b, int64_t id)
{
	for (size_t i = 0; i < b->nruns; i++)
		if (b->runs[i].id == id)
			return &b->runs[i];
	return NULL;
}

int cmp_load_run(struct build *b, int64_t id)
{
	if (cmp_run_of(b, id))
		return 0;
	b->runs = xrealloc(b->runs, (b->nruns + 1) * sizeof(*b->runs));
	struct crun *r = &b->runs[b->nruns];
	memset(r, 0, sizeof(*r));
	r->id = id;
	if (store_get_run(b->st, id, &r->row) < 0 || store_get_points(b->st, id, &r->pts, &r->n) < 0)
		return -1;
	r->tests = xcalloc(r->n + 1, sizeof(*r->tests));
	r->ntests = xcalloc(r->n + 1, sizeof(*r->ntests));
	r->loaded = xcalloc(r->n + 1, sizeof(*r->loaded));
	r->device = cmpblock_device(b->st, id);
	b->nruns++;
	return 0;
}

/* The looks a run's --precision stopping rule took at each task count of a workload (1 without it),
 * from its stored options: the looks are not stored, so the options are resolved by the function the
 * run's schedule resolved them with. */
static size_t run_looks(struct build *b, struct crun *r, const char *workload)
{
	if (!r->opts_loaded) {
		r->opts_loaded = 1;
		if (store_get_workload_options(b->st, r->id, &r->opts, &r->nopts) < 0) {
			r->opts = NULL;
			r->nopts = 0;
		}
	}
	struct run_opts ro;
	run_opts_defaults(&ro);
	static const char *const keys[] = {"precision", "max_repeat", "repeat"};
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++)
		for (size_t i = 0; i < r->nopts; i++) {
			if (strcmp(r->opts[i].workload, workload) == 0 && strcmp(r->opts[i].key, keys[k]) == 0)
				option_set(&ro, option_find(keys[k]), r->opts[i].value, NULL, 0); /* unreadable: the default */
		}
	long long looks = schedule_rounds_of(&ro).looks;
	run_opts_free(&ro);
	return looks > 1 ? (size_t)looks : 1;
}

/* The most looks of the runs of a side (its samples are one run's repeats where this matters). */
size_t cmp_side_looks(struct build *b, const struct compare_side *s, const char *workload)
{
	size_t most = 1;
	for (size_t i = 0; i < s->nruns; i++) {
		size_t l = run_looks(b, cmp_run_of(b, s->runs[i]), workload);
		most = l > most ? l : most;
	}
	return most;
}

/* A point's per-test rows (read once); NULL when it has none or they cannot be read. */
const struct store_test *cmp_tests_of(struct build *b, struct crun *r, size_t i, size_t *n)
{
	if (!r->loaded[i]) {
		r->loaded[i] = 1;
		if (store_get_tests(b->st, r->pts[i].id, &r->tests[i], &r->ntests[i]) < 0) {
			r->tests[i] = NULL;
			r->ntests[i] = 0;
		}
	}
	*n = r->ntests[i];
	return r->tests[i];
}

/* Whether a point belongs to a side's share of a block. */
int cmp_matches(const struct compare_side *s, const struct key *k, const struct store_point *p)
{
	if (!p->valid || strcmp(p->workload, k->workload) != 0 || p->cpus != k->cpus ||
	    strcmp(p->load, s->load ? s->load : k->load) != 0 || (k->skip_noisy && noise_of_point(p)))
		return 0;
	if (p->osync != (s->osync >= 0 ? s->osync : k->osync))
		return 0;
	return strcmp(p->variant, s->variant ? s->variant : k->variant) == 0;
}

static const size_t figures[NFIG] = {
	[FIG_METRIC] = offsetof(struct store_point, jobs_per_min), [FIG_CPU] = offsetof(struct store_point, cpu_s),
	[FIG_USER] = offsetof(struct store_point, user_s), [FIG_SYS] = offsetof(struct store_point, sys_s),
	[FIG_REAL] = offsetof(struct store_point, real_s), [FIG_LOAD] = offsetof(struct store_point, outside_cpu_pct),
};

/* The outside load of a point as the verdict may use it: what others demanded of the CPUs where the
 * run could not move it (their runnable threads while the run was idle, just before and after the
 * point), in % of the CPUs; NaN where not measured. The CPU others *used* during the point (and
 * steal) is what the run left them, so it moves with the change under test and only describes. */
static double point_load(const struct store_point *p)
{
	if (!p->sampled || !isfinite(p->others_demand_pct))
		return NAN;
	return p->others_demand_pct;
}

double cmp_field(const struct build *b, const struct store_point *p, size_t f)
{
	if (f == FIG_LOAD)
		return point_load(p);
	size_t offset = f == FIG_METRIC ? b->m->metric->offset
		      : f == FIG_CPU && b->m->cpu_window ? offsetof(struct store_point, window_cpu_s) : figures[f];
	double v;
	memcpy(&v, (const char *)p + offset, sizeof(v));
	return v;
}

/* Whether a point is one of a side's samples of a cell: the block's, at the task count, and with the
 * judged figure measured (a sampler's figure is not where the sampler did not run). */
int cmp_takes(const struct build *b, const struct compare_side *s, const struct key *k, int tasks,
		 const struct store_point *p)
{
	return p->tasks == tasks && cmp_matches(s, k, p) && isfinite(cmp_field(b, p, FIG_METRIC));
}

double compare_cell_stat(const struct compare_cell *c, int other, int stat)
{
	if (stat == COMPARE_STAT_MEAN)
		return other ? c->mean_b : c->mean_a;
	const struct compare_spread *s = other ? &c->spread_b : &c->spread_a;
	return stat > 0 && stat < COMPARE_NSTATS ? s->v[stat] : NAN;
}

int compare_worse(const struct compare_model *m, double change_pct)
{
	return m->metric && !m->metric->rise_better ? change_pct > 0 : change_pct < 0;
}

/* A change in the way that counts as better: the change of a figure where a rise is better, minus it
 * where a rise is worse. */
double cmp_gain(const struct compare_model *m, double change_pct)
{
	return m->metric && !m->metric->rise_better ? -change_pct : change_pct;
}

void cmp_points_add(struct compare_cell_points *cp, int64_t id, size_t sample)
{
	cp->ids = xrealloc(cp->ids, (cp->n + 1) * sizeof(*cp->ids));
	cp->sample = xrealloc(cp->sample, (cp->n + 1) * sizeof(*cp->sample));
	cp->ids[cp->n] = id;
	cp->sample[cp->n++] = sample;
	cp->nsamples = sample + 1 > cp->nsamples ? sample + 1 : cp->nsamples;
}

void cmp_points_free(struct compare_cell_points *cp)
{
	free(cp->ids);
	free(cp->sample);
	memset(cp, 0, sizeof(*cp));
}

/* Whether every valid point loaded has its CPU over the measured window (schema 13 on): then CPU is
 * that, as in reaim's table; one older run makes it the whole-life figure on both sides. */
int cmp_all_have_window_cpu(const struct build *b)
{
	for (size_t i = 0; i < b->nruns; i++)
		for (size_t j = 0; j < b->runs[i].n; j++)
			if (b->runs[i].pts[j].valid && !isfinite(b->runs[i].pts[j].window_cpu_s))
				return 0;
	return 1;
}

/* A side's replicates of each figure at one task count (groups of runs): each run's values, then
 * verdict_group_samples (run means with two or more runs, else the one run's repeats). */
void cmp_side_samples(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
			 struct verdict_samples out[NFIG], struct compare_cell_points *cp)
{
	/* the points behind the samples, as verdict_group_samples groups them: a run each with two or
	 * more runs that have values here, else each of the one run's repeats */
	size_t with = 0, ordinal = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		struct crun *r = cmp_run_of(b, s->runs[i]);
		size_t n = 0;
		for (size_t j = 0; j < r->n; j++)
			n += cmp_takes(b, s, k, tasks, &r->pts[j]);
		with += n > 0;
	}
	for (size_t i = 0; i < s->nruns; i++) {
		struct crun *r = cmp_run_of(b, s->runs[i]);
		size_t n = 0;
		for (size_t j = 0; j < r->n; j++)
			if (cmp_takes(b, s, k, tasks, &r->pts[j])) {
				cmp_points_add(cp, r->pts[j].id, with > 1 ? ordinal : n);
				n++;
			}
		ordinal += with > 1 && n > 0;
	}
	struct verdict_run *vr = xcalloc(s->nruns + 1, sizeof(*vr));
	double **vals = xcalloc(s->nruns + 1, sizeof(*vals));
	for (size_t f = 0; f < NFIG; f++) {
		for (size_t i = 0; i < s->nruns; i++) {
			struct crun *r = cmp_run_of(b, s->runs[i]);
			vals[i] = xcalloc(r->n + 1, sizeof(double));
			size_t n = 0;
			for (size_t j = 0; j < r->n; j++)
				if (cmp_takes(b, s, k, tasks, &r->pts[j]))
					vals[i][n++] = cmp_field(b, &r->pts[j], f);
			vr[i] = (struct verdict_run){vals[i], n};
		}
		verdict_group_samples(vr, s->nruns, &out[f]);
		for (size_t i = 0; i < s->nruns; i++)
			free(vals[i]);
	}
	free(vals);
	free(vr);
}

double cmp_mean_of(const double *v, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / (double)n : NAN;
}

double cmp_pct_change(double a, double b)
{
	return a != 0 && isfinite(a) && isfinite(b) ? 100.0 * (b / a - 1.0) : NAN;
}

/* Mean of the values that are not NaN (k of n). */
double cmp_mean_of_valid(const double *v, size_t n, size_t k)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			sum += v[i];
	return k ? sum / (double)k : NAN;
}

/* The values of one figure of a side's only run by round (NaN where a round has no valid point). */
size_t cmp_side_rounds(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
			  size_t f, double **out)
{
	struct crun *r = cmp_run_of(b, s->runs[0]);
	int most = -1;
	for (size_t j = 0; j < r->n; j++)
		if (cmp_takes(b, s, k, tasks, &r->pts[j]) && r->pts[j].repeat > most)
			most = r->pts[j].repeat;
	*out = xcalloc((size_t)(most + 1) + 1, sizeof(double));
	for (int i = 0; i <= most; i++)
		(*out)[i] = NAN;
	for (size_t j = 0; j < r->n; j++)
		if (cmp_takes(b, s, k, tasks, &r->pts[j]) && r->pts[j].repeat >= 0)
			(*out)[r->pts[j].repeat] = cmp_field(b, &r->pts[j], f);
	return (size_t)(most + 1);
}

/* The pairs (a_i, b_i) of rounds both sides measured. */
size_t cmp_pairs(const double *a, size_t na, const double *b, size_t nb, double *pa, double *pb)
{
	size_t n = 0;
	for (size_t i = 0; i < na && i < nb; i++)
		if (!isnan(a[i]) && !isnan(b[i])) {
			pa[n] = a[i];
			pb[n++] = b[i];
		}
	return n;
}

int cmp_by_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The median of n values (NaN when none); v is left as it was. */
double cmp_median_of(const double *v, size_t n)
{
	if (!n)
		return NAN;
	double *c = xmalloc(n * sizeof(*c));
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_by_double);
	double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}
