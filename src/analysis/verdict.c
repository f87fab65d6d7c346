/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Verdicts on a change: Welch and paired t tests with Fieller intervals of the % change, p-value
 * corrections over many cells, the minimum detectable change, precision, and replicate choice. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "measure/measure.h"
#include "analysis/stats.h"
#include "analysis/verdict.h"
#include "util/util.h"

static int level_ok(double x)
{
	return x > 0 && x < 1;
}

/* Two-sided p of a t statistic, from the lower tail so small p keep their relative precision. */
static double two_sided_p(double t, double df)
{
	return fmin(1, 2 * stats_t_cdf(-fabs(t), df));
}

/* Fieller's interval for rho = mean_b / mean_a: the rho for which mean_b - rho mean_a is within
 * crit standard errors of 0, where that difference has variance vb - 2 rho cab + rho^2 va. It is a
 * bounded interval only when mean_a is itself more than crit standard errors from 0 (g < 1). */
static int fieller(double ma, double mb, double va, double vb, double cab, double crit, double *lo, double *hi)
{
	double t2 = crit * crit;
	double qa = ma * ma - t2 * va;
	if (!(qa > 0)) {
		*lo = -HUGE_VAL;
		*hi = HUGE_VAL;
		return 0;
	}
	double qb = ma * mb - t2 * cab, qc = mb * mb - t2 * vb;
	/* the quadratic is <= 0 at rho = mb / ma, so the discriminant is >= 0 but for rounding */
	double disc = fmax(0, qb * qb - qa * qc);
	*lo = (qb - sqrt(disc)) / qa;
	*hi = (qb + sqrt(disc)) / qa;
	return 1;
}

/* The figures shared by both tests once t, df, se and the Fieller variances are known. */
static void finish(struct verdict *v, double se, double va, double vb, double cab, double alpha, double power)
{
	double crit = stats_t_quantile(1 - alpha / 2, v->df);
	v->p = two_sided_p(v->t, v->df);
	v->diff_low = v->diff - crit * se;
	v->diff_high = v->diff + crit * se;
	v->change_pct = 100 * (v->mean_b / v->mean_a - 1);
	double lo, hi;
	v->bounded = fieller(v->mean_a, v->mean_b, va, vb, cab, crit, &lo, &hi);
	if (v->bounded && v->mean_a > 0 && v->mean_b >= 0) {
		/* a positive quantity (Jobs/Min, job time) has a ratio >= 0: the interval stops at -100 % */
		lo = fmax(lo, 0);
		hi = fmax(hi, 0);
	}
	v->ci_low_pct = v->bounded ? 100 * (lo - 1) : -HUGE_VAL;
	v->ci_high_pct = v->bounded ? 100 * (hi - 1) : HUGE_VAL;
	v->se = se;
	v->mde_pct = verdict_mde_pct(se, v->mean_a, v->df, alpha, power);
	v->significant = v->p < alpha;
}

/* What a refused comparison leaves behind: no evidence of a change. */
static int refuse(struct verdict *v)
{
	*v = (struct verdict){.p = 1, .df = NAN, .t = NAN, .change_pct = NAN, .ci_low_pct = NAN,
			      .ci_high_pct = NAN, .mde_pct = NAN, .diff = NAN, .diff_low = NAN, .diff_high = NAN};
	return -1;
}

int verdict_welch(const struct summary *a, const struct summary *b, double alpha, double power, struct verdict *out)
{
	if (a->n < 2 || b->n < 2 || !level_ok(alpha) || !level_ok(power) || a->mean == 0)
		return refuse(out);
	if (!isfinite(a->mean) || !isfinite(b->mean) || !isfinite(a->std_dev) || !isfinite(b->std_dev))
		return refuse(out);
	double va = a->std_dev * a->std_dev / (double)a->n;
	double vb = b->std_dev * b->std_dev / (double)b->n;
	double se = sqrt(va + vb);
	*out = (struct verdict){.na = a->n, .nb = b->n, .mean_a = a->mean, .mean_b = b->mean, .diff = b->mean - a->mean};
	if (se == 0) {
		if (out->diff == 0)
			return refuse(out);
		/* constant on both sides, different means: any difference is real (a deterministic count) */
		out->df = (double)(a->n + b->n - 2);
		out->t = copysign(HUGE_VAL, out->diff);
		finish(out, 0, 0, 0, 0, alpha, power);
		return 0;
	}
	/* Welch-Satterthwaite, with the variances normalised by their sum so tiny ones cannot underflow to 0/0 */
	double wa = va / (va + vb), wb = vb / (va + vb);
	out->df = 1 / (wa * wa / (double)(a->n - 1) + wb * wb / (double)(b->n - 1));
	out->t = out->diff / se;
	/* Fieller at the df of the difference (rho = 1), so the interval excludes 0 % exactly when p < alpha */
	finish(out, se, va, vb, 0, alpha, power);
	return 0;
}

static int all_finite(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

int verdict_welch_samples(const double *a, size_t na, const double *b, size_t nb, double alpha, double power,
			  struct verdict *out)
{
	if (!all_finite(a, na) || !all_finite(b, nb))
		return refuse(out);
	struct summary sa, sb;
	measure_summary(a, na, &sa);
	measure_summary(b, nb, &sb);
	return verdict_welch(&sa, &sb, alpha, power, out);
}

int verdict_paired(const double *a, const double *b, size_t n, double alpha, double power, struct verdict *out)
{
	if (n < 2 || !level_ok(alpha) || !level_ok(power) || !all_finite(a, n) || !all_finite(b, n))
		return refuse(out);
	double ma = 0, mb = 0;
	for (size_t i = 0; i < n; i++) {
		ma += a[i];
		mb += b[i];
	}
	ma /= (double)n;
	mb /= (double)n;
	if (ma == 0)
		return refuse(out);
	/* two-pass sums about the means: the one-pass formula loses digits when values are large and close */
	double saa = 0, sbb = 0, sab = 0;
	for (size_t i = 0; i < n; i++) {
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
		sab += (a[i] - ma) * (b[i] - mb);
	}
	double nn = (double)n, dof = nn - 1;
	double va = saa / dof / nn, vb = sbb / dof / nn, cab = sab / dof / nn;
	/* the variance of the mean difference, from the differences themselves (never negative by rounding) */
	double sdd = 0, md = mb - ma;
	for (size_t i = 0; i < n; i++) {
		double d = b[i] - a[i] - md;
		sdd += d * d;
	}
	double se = sqrt(sdd / dof / nn);
	*out = (struct verdict){.na = n, .nb = n, .paired = 1, .mean_a = ma, .mean_b = mb, .diff = md, .df = dof};
	if (se == 0 && md == 0)
		return refuse(out);
	/* every pair moved by the same amount: t is infinite, p 0, but the ratio's interval still has width */
	out->t = se == 0 ? copysign(HUGE_VAL, md) : md / se;
	finish(out, se, va, vb, cab, alpha, power);
	return 0;
}

/* The sums of one side about its own means: n, mean of x and y, Sxx and Sxy, Syy. */
struct side_sums {
	double n, mx, my, sxx, sxy, syy;
};

static struct side_sums side_sums(const double *y, const double *x, size_t n)
{
	struct side_sums s = {.n = (double)n};
	for (size_t i = 0; i < n; i++) {
		s.mx += x[i];
		s.my += y[i];
	}
	s.mx /= s.n;
	s.my /= s.n;
	for (size_t i = 0; i < n; i++) {
		s.sxx += (x[i] - s.mx) * (x[i] - s.mx);
		s.sxy += (x[i] - s.mx) * (y[i] - s.my);
		s.syy += (y[i] - s.my) * (y[i] - s.my);
	}
	return s;
}

/* The fitted model of verdict_ancova, in the data's units (or their logs). */
struct ancova_fit {
	double ma, mb, va, vb, cab, se, df, slope, slope_se, gap;
};

static int ancova_fit(const struct verdict_xy *sa, const struct verdict_xy *sb, struct ancova_fit *f)
{
	const double *ya = sa->y, *xa = sa->x, *yb = sb->y, *xb = sb->x;
	size_t na = sa->n, nb = sb->n;
	if (na < 1 || nb < 1 || na + nb < 4 || !all_finite(ya, na) || !all_finite(xa, na) || !all_finite(yb, nb) ||
	    !all_finite(xb, nb))
		return -1;
	struct side_sums a = side_sums(ya, xa, na), b = side_sums(yb, xb, nb);
	double sxx = a.sxx + b.sxx, sxy = a.sxy + b.sxy, syy = a.syy + b.syy;
	double spread = (a.mx * a.mx + b.mx * b.mx) + 1; /* scale of x: its spread within sides must be real */
	if (!(sxx > 1e-12 * spread))
		return -1;
	double slope = sxy / sxx, x0 = (a.n * a.mx + b.n * b.mx) / (a.n + b.n);
	double df = a.n + b.n - 3, s2 = fmax(0, syy - slope * sxy) / df, vslope = s2 / sxx;
	double da = a.mx - x0, db = b.mx - x0;
	/* the side means are independent of the within-side slope: only the slope is shared */
	*f = (struct ancova_fit){.ma = a.my - slope * da, .mb = b.my - slope * db, .va = s2 / a.n + da * da * vslope,
				 .vb = s2 / b.n + db * db * vslope, .cab = da * db * vslope, .df = df, .slope = slope,
				 .slope_se = sqrt(vslope), .gap = b.mx - a.mx};
	f->se = sqrt(fmax(0, f->va + f->vb - 2 * f->cab));
	return 0;
}

/* t of a fitted difference; -1 when it is 0 on constant data (no evidence either way). */
static int fitted_t(struct verdict *out, double se)
{
	if (se == 0) {
		if (out->diff == 0)
			return -1;
		out->t = copysign(HUGE_VAL, out->diff);
	} else {
		out->t = out->diff / se;
	}
	return 0;
}

int verdict_ancova(const struct verdict_xy *sa, const struct verdict_xy *sb, double alpha, double power,
		   struct verdict *out)
{
	struct ancova_fit f;
	if (!level_ok(alpha) || !level_ok(power) || ancova_fit(sa, sb, &f) < 0 || f.ma == 0)
		return refuse(out);
	*out = (struct verdict){.na = sa->n, .nb = sb->n, .mean_a = f.ma, .mean_b = f.mb, .diff = f.mb - f.ma,
				.df = f.df, .slope = f.slope};
	if (fitted_t(out, f.se) < 0)
		return refuse(out);
	finish(out, f.se, f.va, f.vb, f.cab, alpha, power);
	out->slope_se = f.slope_se;
	out->covariate_gap = f.gap;
	return 0;
}

/* ln of n positive values into out; 0, or -1 when one is not positive. */
static int logs_of(const double *v, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return -1;
		out[i] = log(v[i]);
	}
	return 0;
}

int verdict_ancova_ratio(const struct verdict_xy *sa, const struct verdict_xy *sb, double alpha, double power,
			 struct verdict *out)
{
	double *la = xmalloc((sa->n + 1) * sizeof(double)), *lb = xmalloc((sb->n + 1) * sizeof(double));
	struct ancova_fit f;
	int fitted = level_ok(alpha) && level_ok(power) && logs_of(sa->y, sa->n, la) == 0 &&
		     logs_of(sb->y, sb->n, lb) == 0 &&
		     ancova_fit(&(struct verdict_xy){la, sa->x, sa->n}, &(struct verdict_xy){lb, sb->x, sb->n}, &f) == 0;
	free(la);
	free(lb);
	if (!fitted)
		return refuse(out);
	*out = (struct verdict){.na = sa->n, .nb = sb->n, .mean_a = exp(f.ma), .mean_b = exp(f.mb),
				.diff = f.mb - f.ma, .df = f.df, .slope = f.slope};
	if (fitted_t(out, f.se) < 0)
		return refuse(out);
	double crit = stats_t_quantile(1 - alpha / 2, f.df);
	out->p = two_sided_p(out->t, f.df);
	out->diff_low = out->diff - crit * f.se;
	out->diff_high = out->diff + crit * f.se;
	/* a ratio: the change and its interval are exp of the log difference's, never below -100 % */
	out->change_pct = 100 * expm1(out->diff);
	out->ci_low_pct = 100 * expm1(out->diff_low);
	out->ci_high_pct = 100 * expm1(out->diff_high);
	out->bounded = 1;
	out->se = f.se;
	out->log_scale = 1;
	out->mde_pct = verdict_mde_of(out, alpha, power);
	out->significant = out->p < alpha;
	out->slope_se = f.slope_se;
	out->covariate_gap = f.gap;
	return 0;
}

struct ranked {
	double p;
	size_t i;
};

static int by_p(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->p, b = ((const struct ranked *)y)->p;
	return (a > b) - (a < b);
}

/* The judged p values, sorted ascending with their places; *m gets how many. Caller frees. */
static struct ranked *rank_p(const double *p, size_t n, size_t *m)
{
	struct ranked *r = xmalloc((n ? n : 1) * sizeof(*r));
	*m = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[(*m)++] = (struct ranked){.p = p[i], .i = i};
	qsort(r, *m, sizeof(*r), by_p);
	return r;
}

static void nan_fill(const double *p, size_t n, double *adj)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			adj[i] = NAN;
}

/* Holm: the k-th smallest of m p values is multiplied by m - k + 1, then made monotone upward. */
void verdict_holm(const double *p, size_t n, double *adj)
{
	size_t m;
	struct ranked *r = rank_p(p, n, &m);
	nan_fill(p, n, adj);
	double run = 0;
	for (size_t k = 0; k < m; k++) {
		double x = fmin(1, (double)(m - k) * r[k].p);
		run = fmax(run, x);
		adj[r[k].i] = run;
	}
	free(r);
}

/* Benjamini-Hochberg: the k-th smallest of m p values is multiplied by m / k, then made monotone
 * downward from the largest. */
void verdict_bh(const double *p, size_t n, double *adj)
{
	size_t m;
	struct ranked *r = rank_p(p, n, &m);
	nan_fill(p, n, adj);
	double run = 1;
	for (size_t k = m; k > 0; k--) {
		double x = fmin(1, (double)m / (double)k * r[k - 1].p);
		run = fmin(run, x);
		adj[r[k - 1].i] = run;
	}
	free(r);
}

double verdict_mde_of(const struct verdict *v, double alpha, double power)
{
	if (v->log_scale)
		return 100 * expm1(verdict_mde_pct(v->se, 1, v->df, alpha, power) / 100);
	return verdict_mde_pct(v->se, v->mean_a, v->df, alpha, power);
}

double verdict_mde_pct(double se, double base_mean, double df, double alpha, double power)
{
	if (!(se >= 0) || !isfinite(se) || !(base_mean != 0) || !isfinite(base_mean) || !(df > 0) ||
	    !level_ok(alpha) || !level_ok(power))
		return NAN;
	/* the effect, in standard errors, at which the test's exact power (noncentral t) is the power
	 * asked: bisection, the power growing with the effect; started at the usual approximation */
	double crit = stats_t_quantile(1 - alpha / 2, df);
	double lo = 0, hi = 2 * (crit + stats_t_quantile(power, df)) + 1;
	while (stats_t_power(hi, df, crit) < power && hi < 1e6)
		hi *= 2;
	for (int i = 0; i < 60 && hi - lo > 1e-10 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (stats_t_power(mid, df, crit) < power)
			lo = mid;
		else
			hi = mid;
	}
	return 100 * (lo + hi) / 2 * se / fabs(base_mean);
}

double verdict_halfwidth_pct(const double *v, size_t n, double alpha)
{
	if (n < 2 || !level_ok(alpha) || !all_finite(v, n))
		return HUGE_VAL;
	struct summary s;
	measure_summary(v, n, &s);
	if (s.mean == 0)
		return HUGE_VAL;
	double half = stats_t_quantile(1 - alpha / 2, (double)(n - 1)) * s.std_dev / sqrt((double)n);
	return 100 * half / fabs(s.mean);
}

double verdict_summary_halfwidth_pct(const struct summary *s, double alpha, size_t looks)
{
	double each = alpha / (double)(looks ? looks : 1);
	if (s->n < 2 || !level_ok(each))
		return NAN;
	return stats_t_quantile(1 - each / 2, (double)(s->n - 1)) * s->cv_pct / sqrt((double)s->n);
}

int verdict_precision_reached(const double *v, size_t n, double pct, size_t looks, double *reached)
{
	double h = verdict_halfwidth_pct(v, n, VERDICT_ALPHA / (double)(looks ? looks : 1));
	if (reached)
		*reached = h;
	return n >= VERDICT_PRECISION_MIN_N && h <= pct;
}

/* The test at alpha / looks, its p times looks: a Bonferroni bound over every look the samples could
 * have stopped at, so the level holds whichever look the stopping rule chose. */
static int over_looks(int rc, size_t looks, double alpha, struct verdict *out)
{
	if (looks > 1 && rc == 0) {
		out->p = fmin(1, out->p * (double)looks);
		out->significant = out->p < alpha;
	}
	return rc;
}

int verdict_welch_looks(const double *a, size_t na, const double *b, size_t nb, double alpha, double power,
			size_t looks, struct verdict *out)
{
	double each = alpha / (double)(looks ? looks : 1);
	return over_looks(verdict_welch_samples(a, na, b, nb, each, power, out), looks, alpha, out);
}

int verdict_paired_looks(const double *a, const double *b, size_t n, double alpha, double power, size_t looks,
			 struct verdict *out)
{
	double each = alpha / (double)(looks ? looks : 1);
	return over_looks(verdict_paired(a, b, n, each, power, out), looks, alpha, out);
}

void verdict_group_samples(const struct verdict_run *runs, size_t nruns, struct verdict_samples *out)
{
	*out = (struct verdict_samples){.source = VERDICT_SRC_NONE};
	size_t only = 0, most = 0;
	for (size_t r = 0; r < nruns; r++) {
		if (runs[r].n == 0)
			continue;
		out->nruns++;
		only = r;
		most = runs[r].n > most ? runs[r].n : most;
	}
	if (out->nruns == 0)
		return;
	out->v = xmalloc((out->nruns > most ? out->nruns : most) * sizeof(*out->v));
	if (out->nruns == 1) {
		/* a single run's repeats share its window of outside load: usable, but say so */
		for (size_t i = 0; i < runs[only].n; i++)
			out->v[i] = runs[only].v[i];
		out->n = runs[only].n;
		out->source = VERDICT_SRC_REPEATS;
		return;
	}
	for (size_t r = 0; r < nruns; r++) {
		if (runs[r].n == 0)
			continue;
		double sum = 0;
		for (size_t i = 0; i < runs[r].n; i++)
			sum += runs[r].v[i];
		out->v[out->n++] = sum / (double)runs[r].n;
	}
	out->source = VERDICT_SRC_RUNS;
}

void verdict_samples_free(struct verdict_samples *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

const char *verdict_source_name(enum verdict_source s)
{
	switch (s) {
	case VERDICT_SRC_RUNS:
		return "runs";
	case VERDICT_SRC_REPEATS:
		return "repeats (one run)";
	case VERDICT_SRC_NONE:
		break;
	}
	return "none";
}
