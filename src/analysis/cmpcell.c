/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cell's verdict: the test of a side against the base at one task count, paired by round, by
 * runs as replicates (adjusted for others' demand where the sides' differ) or by a lab's devices. */
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

/* The outside load a side's samples saw; n 0 when a sample was not measured by the sampler. */
static struct compare_load load_of(const double *v, size_t n)
{
	struct compare_load l = {.mean = NAN, .min = NAN, .max = NAN};
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return l;
	for (size_t i = 0; i < n; i++) {
		l.min = i && l.min < v[i] ? l.min : v[i];
		l.max = i && l.max > v[i] ? l.max : v[i];
	}
	l.mean = cmp_mean_of(v, n);
	l.n = n;
	return l;
}

/* How a cell's test is made: paired rounds or groups, adjusted for the outside load or not, at
 * alpha over the looks its sides' repeats stopped at. */
struct cell_test {
	int paired, covariate;
	double alpha;
	size_t looks;
};

/* The test a cell of groups makes: Welch's, or the change adjusted for others' demand. */
static int groups_test(const struct verdict_xy *a, const struct verdict_xy *b, const struct cell_test *t,
		       struct verdict *v)
{
	double alpha = t->alpha;
	size_t looks = t->looks;
	if (!t->covariate)
		return verdict_welch_looks(a->y, a->n, b->y, b->n, alpha, VERDICT_POWER, looks, v);
	double each = alpha / (double)(looks ? looks : 1);
	/* on the logs: a load slows a run by a share; a sample not above 0 leaves the linear model */
	int rc = verdict_ancova_ratio(a, b, each, VERDICT_POWER, v);
	if (rc < 0)
		rc = verdict_ancova(a, b, each, VERDICT_POWER, v);
	if (rc == 0 && looks > 1) {
		v->p = fmin(1, v->p * (double)looks);
		v->significant = v->p < alpha;
	}
	return rc;
}

/* Whether one sample decides the cell: left out in turn (from either side, or a pair), some leave-one-out
 * test flips the sign of the change or whether it is significant (at alpha, before the correction). */
static int one_sample_decides(const struct verdict_xy *sa, const struct verdict_xy *sb, const struct cell_test *t,
			      const struct verdict *all)
{
	const double *ya = sa->y, *xa = sa->x, *yb = sb->y, *xb = sb->x;
	size_t na = sa->n, nb = sb->n;
	int paired = t->paired;
	size_t total = paired ? na : na + nb;
	double *a = xcalloc(na + 1, sizeof(double)), *b = xcalloc(nb + 1, sizeof(double));
	double *ax = xcalloc(na + 1, sizeof(double)), *bx = xcalloc(nb + 1, sizeof(double));
	int decides = 0;
	for (size_t out = 0; out < total && !decides; out++) {
		size_t ka = 0, kb = 0;
		for (size_t i = 0; i < na; i++)
			if (i != out) {
				ax[ka] = xa ? xa[i] : 0;
				a[ka++] = ya[i];
			}
		for (size_t i = 0; i < nb; i++)
			if ((paired ? i : i + na) != out) {
				bx[kb] = xb ? xb[i] : 0;
				b[kb++] = yb[i];
			}
		struct verdict v;
		int rc = paired ? verdict_paired_looks(a, b, ka, t->alpha, VERDICT_POWER, t->looks, &v)
				: groups_test(&(struct verdict_xy){.y = a, .x = ax, .n = ka},
					      &(struct verdict_xy){.y = b, .x = bx, .n = kb}, t, &v);
		if (rc != 0) { /* too few left to test: a significant verdict rests on every sample */
			decides = all->significant;
			continue;
		}
		decides = (v.diff > 0) != (all->diff > 0) || v.significant != all->significant;
	}
	free(a);
	free(b);
	free(ax);
	free(bx);
	return decides;
}

/* How a cell of groups accounts for the outside load, from the loads its sides' samples saw. */
static enum compare_load_model groups_load_model(const struct compare_cell *c, double shortest_s)
{
	if (!c->load_a.n || !c->load_b.n)
		return LOAD_UNMEASURED;
	/* the demand is a mean of runnable counts read every few ms, not of /proc/stat's ticks over the
	 * point: its resolution does not depend on the point's length */
	(void)shortest_s;
	if (fabs(c->load_b.mean - c->load_a.mean) <= COMPARE_LOAD_SIMILAR_PCT)
		return LOAD_SIMILAR;
	return LOAD_COVARIATE; /* LOAD_INSEPARABLE when the model cannot be fitted */
}

/* The point of a side's only run at a round of a cell (its id), or -1. */
static int64_t round_point(struct build *b, const struct compare_side *s, const struct key *k, int tasks, int round)
{
	struct crun *r = cmp_run_of(b, s->runs[0]);
	for (size_t j = 0; j < r->n; j++)
		if (r->pts[j].repeat == round && cmp_takes(b, s, k, tasks, &r->pts[j]))
			return r->pts[j].id;
	return -1;
}

void cmp_cell_paired(struct build *b, const struct compare_side *sa, const struct compare_side *sb,
			const struct key *k, struct compare_cell *c)
{
	double means[2][NFIG];
	double *pairs_of[NFIG][2];
	size_t n = 0;
	for (size_t f = 0; f < NFIG; f++) {
		double *ra, *rb;
		size_t na = cmp_side_rounds(b, sa, k, c->tasks, f, &ra);
		size_t nb = cmp_side_rounds(b, sb, k, c->tasks, f, &rb);
		double *pa = xcalloc(na + 1, sizeof(double)), *pb = xcalloc(na + 1, sizeof(double));
		n = cmp_pairs(ra, na, rb, nb, pa, pb);
		means[0][f] = cmp_mean_of(pa, n);
		means[1][f] = cmp_mean_of(pb, n);
		if (f == FIG_METRIC) {
			size_t ka = 0, kb = 0; /* a side's own values count even without a partner */
			for (size_t i = 0; i < na; i++)
				ka += !isnan(ra[i]);
			for (size_t i = 0; i < nb; i++)
				kb += !isnan(rb[i]);
			for (size_t i = 0, at = 0; i < na && i < nb; i++)
				if (!isnan(ra[i]) && !isnan(rb[i])) {
					cmp_points_add(&c->pts_a, round_point(b, sa, k, c->tasks, (int)i), at);
					cmp_points_add(&c->pts_b, round_point(b, sb, k, c->tasks, (int)i), at++);
				}
			c->present = n > 0;
			c->na = c->nb = n;
			c->unpaired_a = ka - n;
			c->unpaired_b = kb - n;
			c->mean_a = n ? means[0][0] : cmp_mean_of_valid(ra, na, ka);
			c->mean_b = n ? means[1][0] : cmp_mean_of_valid(rb, nb, kb);
			c->median_a = cmp_median_of(pa, n);
			c->median_b = cmp_median_of(pb, n);
			compare_spread_of(pa, n, &c->spread_a);
			compare_spread_of(pb, n, &c->spread_b);
			/* one run: both arms stopped together, at one of its looks */
			c->looks = cmp_side_looks(b, sa, k->workload);
			c->judged = verdict_paired_looks(pa, pb, n, b->m->alpha, VERDICT_POWER, c->looks, &c->v) == 0;
			c->raw = c->v;
			c->raw_judged = c->judged;
		} else if (f == FIG_CPU) {
			c->cpu_judged = verdict_paired_looks(pa, pb, n, b->m->alpha, VERDICT_POWER, c->looks, &c->cpu_v) == 0;
		} else if (f == FIG_LOAD) {
			c->load_a = load_of(pa, n);
			c->load_b = load_of(pb, n);
		}
		pairs_of[f][0] = pa;
		pairs_of[f][1] = pb;
		free(ra);
		free(rb);
	}
	/* the rounds ran interleaved, so a load that drifts hits both arms of a pair alike */
	c->load_model = c->load_a.n && c->load_b.n ? LOAD_BALANCED : LOAD_UNMEASURED;
	const struct verdict_xy ya = {.y = pairs_of[FIG_METRIC][0], .n = c->na},
				yb = {.y = pairs_of[FIG_METRIC][1], .n = c->nb};
	const struct cell_test paired = {.paired = 1, .alpha = b->m->alpha, .looks = c->looks};
	if (c->judged)
		c->fragile = one_sample_decides(&ya, &yb, &paired, &c->v);
	for (size_t f = 0; f < NFIG; f++) {
		free(pairs_of[f][0]);
		free(pairs_of[f][1]);
	}
	c->paired = 1;
	c->rank_p = -1;
	c->cpu_pct = cmp_pct_change(means[0][1], means[1][1]);
	c->user_pct = cmp_pct_change(means[0][2], means[1][2]);
	c->sys_pct = cmp_pct_change(means[0][3], means[1][3]);
	c->real_pct = cmp_pct_change(means[0][4], means[1][4]);
}

void cmp_cell_groups(struct build *b, const struct compare_side *sa, const struct compare_side *sb,
			const struct key *k, struct compare_cell *c)
{
	struct verdict_samples xa[NFIG], xb[NFIG];
	cmp_side_samples(b, sa, k, c->tasks, xa, &c->pts_a);
	cmp_side_samples(b, sb, k, c->tasks, xb, &c->pts_b);
	c->na = xa[FIG_METRIC].n;
	c->nb = xb[FIG_METRIC].n;
	c->src_a = xa[FIG_METRIC].source;
	c->src_b = xb[FIG_METRIC].source;
	c->mean_a = cmp_mean_of(xa[FIG_METRIC].v, xa[FIG_METRIC].n);
	c->mean_b = cmp_mean_of(xb[FIG_METRIC].v, xb[FIG_METRIC].n);
	c->median_a = cmp_median_of(xa[FIG_METRIC].v, xa[FIG_METRIC].n);
	c->median_b = cmp_median_of(xb[FIG_METRIC].v, xb[FIG_METRIC].n);
	compare_spread_of(xa[FIG_METRIC].v, xa[FIG_METRIC].n, &c->spread_a);
	compare_spread_of(xb[FIG_METRIC].v, xb[FIG_METRIC].n, &c->spread_b);
	c->load_a = load_of(xa[FIG_LOAD].v, xa[FIG_LOAD].n);
	c->load_b = load_of(xb[FIG_LOAD].v, xb[FIG_LOAD].n);
	c->present = c->na > 0 && c->nb > 0;
	c->rank_p = -1;
	if (c->present) {
		/* a side's repeats stopped at one of its run's looks; run means do not depend on them */
		size_t la = xa[FIG_METRIC].source == VERDICT_SRC_REPEATS ? cmp_side_looks(b, sa, k->workload) : 1;
		size_t lb = xb[FIG_METRIC].source == VERDICT_SRC_REPEATS ? cmp_side_looks(b, sb, k->workload) : 1;
		double alpha = b->m->alpha;
		c->looks = la * lb;
		/* each side's figures, each with the outside load its sample saw */
		struct verdict_xy ya = {.y = xa[FIG_METRIC].v, .x = xa[FIG_LOAD].v, .n = c->na},
				  yb = {.y = xb[FIG_METRIC].v, .x = xb[FIG_LOAD].v, .n = c->nb},
				  cpu_a = {.y = xa[FIG_CPU].v, .x = xa[FIG_LOAD].v, .n = xa[FIG_CPU].n},
				  cpu_b = {.y = xb[FIG_CPU].v, .x = xb[FIG_LOAD].v, .n = xb[FIG_CPU].n};
		struct cell_test plain = {.alpha = alpha, .looks = c->looks}, adjusted = plain;
		adjusted.covariate = 1;
		c->raw_judged = groups_test(&ya, &yb, &plain, &c->raw) == 0;
		c->load_model = groups_load_model(c, fmin(cmp_mean_of(xa[FIG_REAL].v, xa[FIG_REAL].n),
							  cmp_mean_of(xb[FIG_REAL].v, xb[FIG_REAL].n)));
		int covariate = 0;
		/* a slope from fewer than 6 samples (df 3) is too unsteady to adjust by */
		if (c->load_model == LOAD_COVARIATE && c->na + c->nb < COMPARE_COVARIATE_MIN_N)
			c->load_model = LOAD_INSEPARABLE;
		if (c->load_model == LOAD_COVARIATE) {
			covariate = groups_test(&ya, &yb, &adjusted, &c->v) == 0;
			if (!covariate)
				c->load_model = LOAD_INSEPARABLE;
		}
		if (covariate) {
			c->judged = 1;
		} else {
			c->v = c->raw;
			c->judged = c->raw_judged;
		}
		const struct cell_test *made = covariate ? &adjusted : &plain;
		c->cpu_judged = groups_test(&cpu_a, &cpu_b, made, &c->cpu_v) == 0;
		if (c->judged)
			c->fragile = one_sample_decides(&ya, &yb, made, &c->v);
		double u;
		if (stats_mann_whitney(xa[FIG_METRIC].v, c->na, xb[FIG_METRIC].v, c->nb, &u, &c->rank_p) < 0)
			c->rank_p = -1;
	}
	double *pcts[] = {NULL, &c->cpu_pct, &c->user_pct, &c->sys_pct, &c->real_pct};
	for (size_t f = 1; f < FIG_LOAD; f++)
		*pcts[f] = cmp_pct_change(cmp_mean_of(xa[f].v, xa[f].n), cmp_mean_of(xb[f].v, xb[f].n));
	for (size_t f = 0; f < NFIG; f++) {
		verdict_samples_free(&xa[f]);
		verdict_samples_free(&xb[f]);
	}
}

/* ---- a lab's devices as blocks (reaim lab) ---- */

/* Each run of a side with points at a cell: its mean of every figure there (vals[f][i]), its id and
 * its device; how many. */
static size_t run_means(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
			double *vals[NFIG], struct crun **runs)
{
	size_t n = 0;
	for (size_t f = 0; f < NFIG; f++)
		vals[f] = xcalloc(s->nruns + 1, sizeof(double));
	for (size_t i = 0; i < s->nruns; i++) {
		struct crun *r = cmp_run_of(b, s->runs[i]);
		size_t points = 0;
		for (size_t f = 0; f < NFIG; f++)
			vals[f][n] = 0;
		for (size_t j = 0; j < r->n; j++)
			if (cmp_takes(b, s, k, tasks, &r->pts[j])) {
				for (size_t f = 0; f < NFIG; f++)
					vals[f][n] += cmp_field(b, &r->pts[j], f);
				points++;
			}
		if (!points)
			continue;
		for (size_t f = 0; f < NFIG; f++)
			vals[f][n] /= (double)points;
		runs[n++] = r;
	}
	return n;
}

/* The points of a run at a cell, as sample `sample` of the cell. */
static void run_points(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
		       const struct crun *r, size_t sample, struct compare_cell_points *cp)
{
	for (size_t j = 0; j < r->n; j++)
		if (cmp_takes(b, s, k, tasks, &r->pts[j]))
			cmp_points_add(cp, r->pts[j].id, sample);
}

/* Groups of runs from a lab: each run's mean is a sample, and side b's are paired with side a's on the
 * same device in the order they ran, so a device's own speed drops out of every pair's difference (a
 * blocked design); the paired test judges the pairs. */
void cmp_cell_blocked(struct build *b, const struct compare_side *sa, const struct compare_side *sb,
			 const struct key *k, struct compare_cell *c)
{
	double *va[NFIG], *vb[NFIG];
	struct crun **ra = xcalloc(sa->nruns + 1, sizeof(*ra)), **rb = xcalloc(sb->nruns + 1, sizeof(*rb));
	size_t na = run_means(b, sa, k, c->tasks, va, ra), nb = run_means(b, sb, k, c->tasks, vb, rb);
	char **da = xcalloc(na + 1, sizeof(*da)), **db = xcalloc(nb + 1, sizeof(*db));
	for (size_t i = 0; i < na; i++)
		da[i] = ra[i]->device;
	for (size_t i = 0; i < nb; i++)
		db[i] = rb[i]->device;
	size_t *ia = xcalloc(na + 1, sizeof(size_t)), *ib = xcalloc(na + 1, sizeof(size_t));
	size_t n = cmpblock_pair(da, na, db, nb, ia, ib);
	double *pa[NFIG], *pb[NFIG];
	for (size_t f = 0; f < NFIG; f++) {
		pa[f] = xcalloc(n + 1, sizeof(double));
		pb[f] = xcalloc(n + 1, sizeof(double));
		for (size_t i = 0; i < n; i++)
			pa[f][i] = va[f][ia[i]], pb[f][i] = vb[f][ib[i]];
	}
	for (size_t i = 0; i < n; i++) {
		run_points(b, sa, k, c->tasks, ra[ia[i]], i, &c->pts_a);
		run_points(b, sb, k, c->tasks, rb[ib[i]], i, &c->pts_b);
	}
	c->present = n > 0;
	c->paired = 1;
	c->na = c->nb = n;
	c->unpaired_a = na - n;
	c->unpaired_b = nb - n;
	c->src_a = c->src_b = VERDICT_SRC_RUNS;
	c->mean_a = cmp_mean_of(pa[FIG_METRIC], n);
	c->mean_b = cmp_mean_of(pb[FIG_METRIC], n);
	c->median_a = cmp_median_of(pa[FIG_METRIC], n);
	c->median_b = cmp_median_of(pb[FIG_METRIC], n);
	compare_spread_of(pa[FIG_METRIC], n, &c->spread_a);
	compare_spread_of(pb[FIG_METRIC], n, &c->spread_b);
	c->looks = 1;
	c->judged = verdict_paired_looks(pa[FIG_METRIC], pb[FIG_METRIC], n, b->m->alpha, VERDICT_POWER, 1, &c->v) == 0;
	c->raw = c->v;
	c->raw_judged = c->judged;
	c->cpu_judged = verdict_paired_looks(pa[FIG_CPU], pb[FIG_CPU], n, b->m->alpha, VERDICT_POWER, 1, &c->cpu_v) == 0;
	c->load_a = load_of(pa[FIG_LOAD], n);
	c->load_b = load_of(pb[FIG_LOAD], n);
	/* the kernels ran side by side on the devices, rotated turn by turn: a load hits both alike */
	c->load_model = c->load_a.n && c->load_b.n ? LOAD_BALANCED : LOAD_UNMEASURED;
	const struct cell_test paired = {.paired = 1, .alpha = b->m->alpha, .looks = 1};
	if (c->judged)
		c->fragile = one_sample_decides(&(struct verdict_xy){.y = pa[FIG_METRIC], .n = n},
						&(struct verdict_xy){.y = pb[FIG_METRIC], .n = n}, &paired, &c->v);
	c->rank_p = -1;
	double *pcts[] = {NULL, &c->cpu_pct, &c->user_pct, &c->sys_pct, &c->real_pct};
	for (size_t f = 1; f < FIG_LOAD; f++)
		*pcts[f] = cmp_pct_change(cmp_mean_of(pa[f], n), cmp_mean_of(pb[f], n));
	for (size_t f = 0; f < NFIG; f++) {
		free(va[f]), free(vb[f]), free(pa[f]), free(pb[f]);
	}
	free(ra), free(rb), free(da), free(db), free(ia), free(ib);
}

/* Each run of a side with a point at a cell: its mean over the points the cell takes there. */
size_t cmp_cell_runs(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
			struct compare_run_value **out)
{
	*out = xcalloc(s->nruns + 1, sizeof(**out));
	size_t n = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		struct crun *r = cmp_run_of(b, s->runs[i]);
		double sum = 0;
		size_t points = 0;
		for (size_t j = 0; j < r->n; j++)
			if (cmp_takes(b, s, k, tasks, &r->pts[j])) {
				sum += cmp_field(b, &r->pts[j], FIG_METRIC);
				points++;
			}
		if (!points)
			continue;
		struct compare_run_value *v = &(*out)[n++];
		v->run = r->id;
		snprintf(v->label, sizeof(v->label), "%s", r->row.label);
		v->value = sum / (double)points;
		v->points = points;
	}
	return n;
}
