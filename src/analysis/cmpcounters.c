/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The counters that moved with a compare's Jobs/Min: per cell and counter, the per-job values of the
 * points the compare model took each sample from (struct compare_cell_points: one selection, with
 * --exclude-noisy and the looks of --precision), the cell's own kind of test, one correction over all
 * of them, the significant and the exact ones ranked by size, and each side's machine beside them. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpcounters.h"
#include "analysis/verdict.h"
#include "measure/throttle.h"
#include "util/util.h"

/* A run's points with their counters. */
struct crun {
	int64_t id;
	struct store_point *pts;
	size_t n;
	struct store_counter **c;
	size_t *nc;
};

/* A stored point by its id. */
struct pref {
	int64_t id;
	const struct crun *r;
	size_t j;
};

struct ckey {
	char source[16], name[96], unit[24];
	int figure;               /* an index of point_figures, or -1: a stored counter */
};

/* The figures of the machine the run shared: the causes every comparison asks about, whatever else
 * moved, judged as a family of their own so that the hundreds of counters do not drown them. */
static int machine_figure(const char *source, const char *name)
{
	static const char *const figures[][2] = {
		{THROTTLE_SOURCE, THROTTLE_COUNT}, {THROTTLE_SOURCE, THROTTLE_USEC}, {"pressure", "cpu some"},
		{"sampler", "outside"},            {"sampler", "steal"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(figures); i++)
		if (strcmp(source, figures[i][0]) == 0 && strcmp(name, figures[i][1]) == 0)
			return 1;
	return 0;
}

/* The point's own figures judged beside the kernel's counters: the sampler's shares of the machine and
 * the point cgroup's pressure (as they are: a share is not a count to divide by jobs), the tasks' CPU
 * over the window and the cgroup's own disk bytes per job. */
static const struct point_figure {
	const char *source, *name, *unit;
	size_t offset;
	int per_job;
	int sampled; /* set only where the sampler ran */
} point_figures[] = {
	{"sampler", "user", "% of the CPUs", offsetof(struct store_point, user_pct), 0, 1},
	{"sampler", "sys", "% of the CPUs", offsetof(struct store_point, sys_pct), 0, 1},
	{"sampler", "iowait", "% of the CPUs", offsetof(struct store_point, iowait_pct), 0, 1},
	{"sampler", "idle", "% of the CPUs", offsetof(struct store_point, idle_pct), 0, 1},
	{"sampler", "outside", "% of the CPUs", offsetof(struct store_point, outside_cpu_pct), 0, 1},
	{"sampler", "steal", "% of the CPUs", offsetof(struct store_point, steal_pct), 0, 1},
	{"sampler", "disk util", "% busy", offsetof(struct store_point, util_pct), 0, 1},
	{"pressure", "cpu some", "% of the time", offsetof(struct store_point, psi_cpu_some_pct), 0, 0},
	{"pressure", "io some", "% of the time", offsetof(struct store_point, psi_io_some_pct), 0, 0},
	{"pressure", "memory some", "% of the time", offsetof(struct store_point, psi_mem_some_pct), 0, 0},
	{"cgroup", "io read", "bytes", offsetof(struct store_point, io_read_bytes), 1, 0},
	{"cgroup", "io write", "bytes", offsetof(struct store_point, io_write_bytes), 1, 0},
	{"tasks", "cpu", "s", offsetof(struct store_point, window_cpu_s), 1, 0},
};

static double point_value(const struct store_point *p, const struct point_figure *f)
{
	double v;
	memcpy(&v, (const char *)p + f->offset, sizeof(v));
	if ((f->sampled && !p->sampled) || !isfinite(v))
		return NAN; /* not measured: without samples, without cgroups, or stored before the window */
	return v;
}

/* One judged test with what its power needs: the spread of its samples. */
struct judged {
	struct counter_change c;
	double var_a, var_b;      /* the sides' sample variances; paired: the differences' (var_b 0) */
};

struct cbuild {
	struct store *st;
	const struct compare_model *m;
	struct crun *runs;
	size_t nruns;
	struct pref *index;       /* every point loaded, by id */
	size_t nindex;
	struct judged *all;       /* every judged counter, before the correction */
	size_t nall, capall;
	struct counter_cell *cells;
	size_t ncells;
};

static int by_id(const void *x, const void *y)
{
	int64_t a = ((const struct pref *)x)->id, b = ((const struct pref *)y)->id;
	return (a > b) - (a < b);
}

static const struct pref *point_of(const struct cbuild *b, int64_t id)
{
	struct pref key = {.id = id};
	return bsearch(&key, b->index, b->nindex, sizeof(*b->index), by_id);
}

static int load_run(struct cbuild *b, int64_t id)
{
	for (size_t i = 0; i < b->nruns; i++)
		if (b->runs[i].id == id)
			return 0;
	b->runs = xrealloc(b->runs, (b->nruns + 1) * sizeof(*b->runs));
	struct crun *r = &b->runs[b->nruns++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	if (store_get_points(b->st, id, &r->pts, &r->n) < 0)
		return -1;
	r->c = xcalloc(r->n + 1, sizeof(*r->c));
	r->nc = xcalloc(r->n + 1, sizeof(*r->nc));
	for (size_t i = 0; i < r->n; i++)
		if (r->pts[i].valid && store_get_counters(b->st, r->pts[i].id, &r->c[i], &r->nc[i]) < 0)
			return -1;
	return 0;
}

/* The index of every point loaded (the runs array no longer moves). */
static void index_points(struct cbuild *b)
{
	size_t n = 0;
	for (size_t i = 0; i < b->nruns; i++)
		n += b->runs[i].n;
	b->index = xcalloc(n + 1, sizeof(*b->index));
	for (size_t i = 0; i < b->nruns; i++)
		for (size_t j = 0; j < b->runs[i].n; j++)
			b->index[b->nindex++] = (struct pref){b->runs[i].pts[j].id, &b->runs[i], j};
	qsort(b->index, b->nindex, sizeof(*b->index), by_id);
}

/* A counter's value at a point, per job when divide (and the counter is a count): NaN when the point
 * stored nothing from its source (a counter absent where its source is present did not move, or fell
 * out of a top list: 0). */
static double value_at(const struct pref *pr, const struct ckey *k, int divide, int *scaled)
{
	const struct crun *r = pr->r;
	const struct store_point *p = &r->pts[pr->j];
	double jobs = divide ? (double)p->tasks * (double)p->jobs_per_task : 1;
	if (k->figure >= 0) {
		const struct point_figure *f = &point_figures[k->figure];
		double v = point_value(p, f);
		return !f->per_job ? v : jobs > 0 ? v / jobs : NAN;
	}
	int source_seen = 0;
	for (size_t i = 0; i < r->nc[pr->j]; i++) {
		const struct store_counter *c = &r->c[pr->j][i];
		if (strcmp(c->source, k->source) != 0)
			continue;
		source_seen = 1;
		if (strcmp(c->name, k->name) == 0) {
			*scaled |= isfinite(c->running_pct) && c->running_pct < 100;
			return jobs > 0 ? c->value / jobs : NAN;
		}
	}
	return source_seen && jobs > 0 ? 0 : NAN;
}

/* A side's samples of a counter, as the compare model made them: per sample, the mean of the value over
 * its points that have one (NaN when none has). Allocated, cp->nsamples long. */
static double *side_values(const struct cbuild *b, const struct compare_cell_points *cp, const struct ckey *k,
			   int divide, int *scaled)
{
	double *v = xcalloc(cp->nsamples + 1, sizeof(double));
	size_t *count = xcalloc(cp->nsamples + 1, sizeof(size_t));
	for (size_t i = 0; i < cp->n; i++) {
		const struct pref *pr = point_of(b, cp->ids[i]);
		double x = pr ? value_at(pr, k, divide, scaled) : NAN;
		if (!isnan(x) && cp->sample[i] < cp->nsamples) {
			v[cp->sample[i]] += x;
			count[cp->sample[i]]++;
		}
	}
	for (size_t s = 0; s < cp->nsamples; s++)
		v[s] = count[s] ? v[s] / (double)count[s] : NAN;
	free(count);
	return v;
}

/* The mean of a side's samples of a figure or counter as it is (not per job); NaN when none has it. */
static double side_mean(const struct cbuild *b, const struct compare_cell_points *cp, const struct ckey *k)
{
	int scaled = 0;
	double *v = side_values(b, cp, k, 0, &scaled), sum = 0;
	size_t n = 0;
	for (size_t s = 0; s < cp->nsamples; s++)
		if (!isnan(v[s])) {
			sum += v[s];
			n++;
		}
	free(v);
	return n ? sum / (double)n : NAN;
}

static void add_key(struct ckey **keys, size_t *n, const char *source, const char *name, const char *unit,
		    int figure)
{
	for (size_t k = 0; k < *n; k++)
		if (strcmp((*keys)[k].source, source) == 0 && strcmp((*keys)[k].name, name) == 0)
			return;
	*keys = xrealloc(*keys, (*n + 1) * sizeof(**keys));
	struct ckey *nk = &(*keys)[(*n)++];
	snprintf(nk->source, sizeof(nk->source), "%s", source);
	snprintf(nk->name, sizeof(nk->name), "%s", name);
	snprintf(nk->unit, sizeof(nk->unit), "%s", unit);
	nk->figure = figure;
}

enum { HAS_COUNTERS = 1, HAS_FIGURES = 2 };

/* The counters and point figures of a side's points at a cell, each once; what it has (HAS_*). */
static int side_keys(const struct cbuild *b, const struct compare_cell_points *cp, struct ckey **keys, size_t *n)
{
	int any = 0;
	for (size_t i = 0; i < cp->n; i++) {
		const struct pref *pr = point_of(b, cp->ids[i]);
		if (!pr)
			continue;
		const struct crun *r = pr->r;
		any |= r->nc[pr->j] > 0 ? HAS_COUNTERS : 0;
		for (size_t c = 0; c < r->nc[pr->j]; c++)
			add_key(keys, n, r->c[pr->j][c].source, r->c[pr->j][c].name, r->c[pr->j][c].unit, -1);
		for (size_t f = 0; f < ARRAY_SIZE(point_figures); f++)
			if (!isnan(point_value(&r->pts[pr->j], &point_figures[f]))) {
				add_key(keys, n, point_figures[f].source, point_figures[f].name, point_figures[f].unit,
					(int)f);
				any |= HAS_FIGURES;
			}
	}
	return any;
}

static double variance_of(const double *v, size_t n)
{
	double mean = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)(n ? n : 1);
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return n > 1 ? ss / (double)(n - 1) : NAN;
}

/* The cell's test of one counter: paired over the samples both sides have (the same index is the same
 * pair), else Welch over each side's samples that have a value, at the cell's looks. A base mean of 0
 * leaves the % change undefined, but not the test of the difference, which does not depend on where 0
 * is: both sides are shifted off 0 for it and *absolute set (the difference and its interval stand,
 * the % figures are dropped). 0 when it could be judged; out gets the verdict (c.v), c.absolute and
 * the variances. */
struct counter_test {
	int paired;
	double alpha;
	size_t looks;
};

static int judge(const double *ra, size_t na, const double *rb, size_t nb, const struct counter_test *t,
		 struct judged *out)
{
	int paired = t->paired;
	double alpha = t->alpha, *var_a = &out->var_a, *var_b = &out->var_b;
	size_t looks = t->looks;
	struct verdict *v = &out->c.v;
	int *absolute = &out->c.absolute;
	double *a = xcalloc(na + 1, sizeof(double)), *b = xcalloc(nb + 1, sizeof(double));
	size_t ka = 0, kb = 0;
	if (paired) {
		for (size_t i = 0; i < na && i < nb; i++)
			if (!isnan(ra[i]) && !isnan(rb[i])) {
				a[ka++] = ra[i];
				b[kb++] = rb[i];
			}
	} else {
		for (size_t i = 0; i < na; i++)
			if (!isnan(ra[i]))
				a[ka++] = ra[i];
		for (size_t i = 0; i < nb; i++)
			if (!isnan(rb[i]))
				b[kb++] = rb[i];
	}
	double mean_a = 0, mean_b = 0, shift = 0;
	for (size_t i = 0; i < ka; i++)
		mean_a += a[i];
	for (size_t i = 0; i < kb; i++)
		mean_b += b[i];
	*absolute = ka > 0 && mean_a == 0;
	if (*absolute) {
		for (size_t i = 0; i < ka; i++)
			shift = fmax(shift, fabs(a[i]));
		for (size_t i = 0; i < kb; i++)
			shift = fmax(shift, fabs(b[i]));
		shift += 1;
		for (size_t i = 0; i < ka; i++)
			a[i] += shift;
		for (size_t i = 0; i < kb; i++)
			b[i] += shift;
	}
	int rc = paired ? verdict_paired_looks(a, b, ka, alpha, VERDICT_POWER, looks ? looks : 1, v)
			: verdict_welch_looks(a, ka, b, kb, alpha, VERDICT_POWER, looks ? looks : 1, v);
	if (paired) {
		for (size_t i = 0; i < ka; i++)
			b[i] -= a[i];
		*var_a = variance_of(b, ka);
		*var_b = 0;
	} else {
		*var_a = variance_of(a, ka);
		*var_b = variance_of(b, kb);
	}
	if (rc == 0 && *absolute) {
		v->mean_a = 0; /* as they were: the shift there and back would leave rounding */
		v->mean_b = mean_b / (double)kb;
		v->change_pct = v->ci_low_pct = v->ci_high_pct = v->mde_pct = NAN;
		v->bounded = 0;
	}
	free(a);
	free(b);
	return rc;
}

/* The MDE of a counter's change with n samples a side, in % of its base mean (absolute: in 1/100 of its
 * unit), from the spread its samples showed, at the level alpha. */
static double mde_at(const struct judged *j, double n, double alpha)
{
	const struct counter_change *c = &j->c;
	double base = c->absolute ? 1 : c->v.mean_a;
	if (c->v.paired)
		return verdict_mde_pct(sqrt(j->var_a / n), base, n - 1, alpha, VERDICT_POWER);
	double s = j->var_a + j->var_b, s2 = j->var_a * j->var_a + j->var_b * j->var_b;
	double df = s2 > 0 ? s * s * (n - 1) / s2 : n - 1; /* Welch-Satterthwaite with n a side */
	return verdict_mde_pct(sqrt(s / n), base, df, alpha, VERDICT_POWER);
}

/* The samples a side at which the MDE falls below the change observed (the power of the move): the
 * smallest n >= 2, searched by doubling then bisection (the MDE falls as n grows). */
static double samples_to_show(const struct judged *j, double alpha)
{
	const struct counter_change *c = &j->c;
	double effect = c->absolute ? 100 * fabs(c->v.diff) : fabs(c->v.change_pct);
	if (!(effect > 0) || !isfinite(effect) || !isfinite(j->var_a) || (!c->v.paired && !isfinite(j->var_b)))
		return NAN;
	if (mde_at(j, 2, alpha) < effect)
		return 2;
	double lo = 2, hi = 4;
	while (hi < COUNTER_SAMPLES_MAX && !(mde_at(j, hi, alpha) < effect))
		lo = hi, hi *= 2;
	if (hi >= COUNTER_SAMPLES_MAX) {
		hi = COUNTER_SAMPLES_MAX;
		if (!(mde_at(j, hi, alpha) < effect))
			return INFINITY;
	}
	while (hi - lo > 1) {
		double mid = floor((lo + hi) / 2);
		if (mde_at(j, mid, alpha) < effect)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

static double cell_change(const struct compare_cell *c)
{
	if (c->judged)
		return c->v.change_pct;
	return c->mean_a != 0 && isfinite(c->mean_a) && isfinite(c->mean_b) ? 100.0 * (c->mean_b / c->mean_a - 1) : NAN;
}

/* What a side's points of a cell saw of the machine: the outside load, the CPU pressure, the throttling. */
static struct counter_side side_context(const struct cbuild *b, const struct compare_cell_points *cp,
					const struct compare_load *load)
{
	struct counter_side s = {.load = *load};
	struct ckey psi = {.source = "pressure", .name = "cpu some", .figure = -1};
	for (size_t f = 0; f < ARRAY_SIZE(point_figures); f++)
		if (strcmp(point_figures[f].source, psi.source) == 0 && strcmp(point_figures[f].name, psi.name) == 0)
			psi.figure = (int)f;
	s.cpu_pressure_pct = side_mean(b, cp, &psi);
	struct ckey nr = {.source = THROTTLE_SOURCE, .name = THROTTLE_COUNT, .figure = -1};
	struct ckey us = {.source = THROTTLE_SOURCE, .name = THROTTLE_USEC, .figure = -1};
	s.nr_throttled = side_mean(b, cp, &nr);
	s.throttled_s = side_mean(b, cp, &us) / 1e6;
	return s;
}

static void test_cell(struct cbuild *b, size_t panel, const struct compare_cell *cell, size_t *with_counters)
{
	const struct compare_cell_points *pa = &cell->pts_a, *pb = &cell->pts_b;
	if (!cell->present || !pa->nsamples || !pb->nsamples)
		return;
	struct ckey *keys = NULL;
	size_t nk = 0;
	int in_a = side_keys(b, pa, &keys, &nk);
	int in_b = side_keys(b, pb, &keys, &nk);
	int paired = b->m->kind != COMPARE_GROUPS;
	b->cells = xrealloc(b->cells, (b->ncells + 1) * sizeof(*b->cells));
	struct counter_cell *cc = &b->cells[b->ncells++];
	*cc = (struct counter_cell){.panel = panel, .tasks = cell->tasks, .jpm_change_pct = cell_change(cell),
				    .na = cell->na, .nb = cell->nb,
				    .with_counters = (in_a & in_b & HAS_COUNTERS) != 0,
				    .a = side_context(b, pa, &cell->load_a), .b = side_context(b, pb, &cell->load_b)};
	*with_counters += cc->with_counters;
	for (size_t i = 0; in_a && in_b && i < nk; i++) {
		int scaled = 0;
		double *va = side_values(b, pa, &keys[i], 1, &scaled), *vb = side_values(b, pb, &keys[i], 1, &scaled);
		struct judged got = {0};
		const struct counter_test t = {.paired = paired, .alpha = b->m->alpha, .looks = cell->looks};
		int rc = judge(va, pa->nsamples, vb, pb->nsamples, &t, &got);
		const struct verdict v = got.c.v;
		int absolute = got.c.absolute;
		free(va);
		free(vb);
		if (rc < 0)
			continue;
		if (b->nall == b->capall) {
			b->capall = b->capall * 2 + 64;
			b->all = xrealloc(b->all, b->capall * sizeof(*b->all));
		}
		struct judged *j = &b->all[b->nall++];
		memset(j, 0, sizeof(*j));
		j->var_a = got.var_a;
		j->var_b = got.var_b;
		struct counter_change *c = &j->c;
		c->panel = panel;
		c->tasks = cell->tasks;
		c->jpm_change_pct = cc->jpm_change_pct;
		memcpy(c->source, keys[i].source, sizeof(c->source));
		memcpy(c->name, keys[i].name, sizeof(c->name));
		memcpy(c->unit, keys[i].unit, sizeof(c->unit));
		c->per_job = keys[i].figure < 0 || point_figures[keys[i].figure].per_job;
		/* no variance: the difference is exact, and a p of 0 from it would only rank noise-free
		 * counters (a slab cache's fixed size) above every real cause */
		c->kind = v.se == 0 ? COUNTER_CONSTANT : COUNTER_TESTED;
		c->absolute = absolute;
		c->machine = machine_figure(c->source, c->name);
		c->v = v;
		c->p_adj = NAN;
		c->n_to_show = NAN;
		c->scaled = scaled;
		/* more of it per job costs throughput: it explains a drop when it rose, a gain when it fell */
		c->explains = isfinite(c->jpm_change_pct) && c->jpm_change_pct != 0 && v.diff != 0 &&
			      (v.diff > 0) == (c->jpm_change_pct < 0);
	}
	free(keys);
}

/* The size a listed counter is ranked by: its % change, a change from a base of 0 above any %. */
static int by_size(const struct counter_change *a, const struct counter_change *b)
{
	if (a->absolute != b->absolute)
		return a->absolute ? -1 : 1;
	double ma = a->absolute ? fabs(a->v.diff) : fabs(a->v.change_pct);
	double mb = b->absolute ? fabs(b->v.diff) : fabs(b->v.change_pct);
	return ma != mb ? (ma > mb ? -1 : 1) : 0;
}

static int by_cell(const void *x, const void *y)
{
	const struct counter_cell *a = x, *b = y;
	if (a->panel != b->panel)
		return a->panel < b->panel ? -1 : 1;
	return (a->tasks > b->tasks) - (a->tasks < b->tasks);
}

static int by_rank(const void *x, const void *y)
{
	const struct counter_change *a = x, *b = y;
	if (a->panel != b->panel)
		return a->panel < b->panel ? -1 : 1;
	if (a->tasks != b->tasks)
		return a->tasks < b->tasks ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind == COUNTER_TESTED ? -1 : 1;
	if (a->explains != b->explains)
		return a->explains ? -1 : 1;
	int s = by_size(a, b);
	if (s)
		return s;
	s = strcmp(a->source, b->source);
	return s ? s : strcmp(a->name, b->name);
}

int counter_model_build(struct store *st, const struct compare_model *m, struct counter_model *out)
{
	memset(out, 0, sizeof(*out));
	struct cbuild b = {.st = st, .m = m};
	int rc = 0;
	for (size_t s = 0; s < m->nsides && rc == 0; s++)
		for (size_t i = 0; i < m->sides[s].nruns && rc == 0; i++)
			rc = load_run(&b, m->sides[s].runs[i]);
	if (rc == 0)
		index_points(&b);
	for (size_t p = 0; rc == 0 && m->nsides >= 2 && p < m->npanels; p++)
		for (size_t c = 0; c < m->panels[p].ncells; c++)
			test_cell(&b, p, &m->panels[p].cells[c], &out->cells_with_counters);
	/* one correction over every counter tested, as over every Jobs/Min cell, and one over the machine's
	 * figures; the exact ones are no test */
	double *p[2], *adj[2];
	size_t tested[2] = {0, 0};
	for (int f = 0; f < 2; f++) {
		p[f] = xcalloc(b.nall + 1, sizeof(double));
		adj[f] = xcalloc(b.nall + 1, sizeof(double));
		for (size_t i = 0; i < b.nall; i++) {
			int in = b.all[i].c.kind == COUNTER_TESTED && b.all[i].c.machine == f;
			p[f][i] = in ? b.all[i].c.v.p : NAN;
			tested[f] += in;
		}
		if (m->correction == COMPARE_BH)
			verdict_bh(p[f], b.nall, adj[f]);
		else
			verdict_holm(p[f], b.nall, adj[f]);
	}
	out->tested = tested[0];
	out->tested_machine = tested[1];
	out->moved = xcalloc(b.nall + 1, sizeof(*out->moved));
	for (size_t i = 0; i < b.nall; i++) {
		struct judged *j = &b.all[i];
		if (j->c.kind == COUNTER_TESTED) {
			int f = j->c.machine;
			j->c.p_adj = adj[f][i];
			if (!(adj[f][i] < m->alpha))
				continue;
			/* the power at the family's corrected level (Bonferroni, as the cells' MDE) */
			j->c.n_to_show = samples_to_show(j, m->alpha / (double)(tested[f] ? tested[f] : 1));
		}
		out->moved[out->nmoved++] = j->c;
	}
	if (out->nmoved) /* qsort's array may not be NULL, even empty */
		qsort(out->moved, out->nmoved, sizeof(*out->moved), by_rank);
	if (b.ncells)
		qsort(b.cells, b.ncells, sizeof(*b.cells), by_cell);
	for (size_t i = 0; i < out->nmoved; i++)
		for (size_t c = 0; c < b.ncells; c++)
			if (b.cells[c].panel == out->moved[i].panel && b.cells[c].tasks == out->moved[i].tasks)
				b.cells[c].nmoved++;
	out->cells = b.cells;
	out->ncells = b.ncells;
	for (int f = 0; f < 2; f++) {
		free(p[f]);
		free(adj[f]);
	}
	free(b.all);
	free(b.index);
	for (size_t i = 0; i < b.nruns; i++) {
		for (size_t j = 0; j < b.runs[i].n; j++)
			free(b.runs[i].c[j]);
		free(b.runs[i].c);
		free(b.runs[i].nc);
		free(b.runs[i].pts);
	}
	free(b.runs);
	return rc;
}

void counter_model_free(struct counter_model *cm)
{
	free(cm->moved);
	free(cm->cells);
	memset(cm, 0, sizeof(*cm));
}
