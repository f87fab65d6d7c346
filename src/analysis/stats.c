/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Student's t, Welch's t-test, Mann-Whitney U and the geometric mean, for judging changes between runs. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"
#include "util/util.h"

/* Beyond this the t distribution differs from the normal by less than 1e-7 (about (t^2 + 1) / 4df),
 * while lgamma's cancellation and the continued fraction's O(sqrt(df)) steps start to cost accuracy and time. */
#define DF_NORMAL 1e7
#define CF_MAX_STEPS 20000

/* The continued fraction of I_x(a, b) by the modified Lentz method; converges fast for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	/* Lentz replaces a zero denominator by a tiny one rather than restarting. */
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = 1 / (fabs(d) < tiny ? tiny : d);
	double h = d;
	for (int m = 1; m <= CF_MAX_STEPS; m++) {
		double m2 = 2.0 * m;
		/* each m contributes an even term and an odd term of the fraction */
		double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		double step = d * c;
		h *= step;
		if (fabs(step - 1) < eps)
			return h;
	}
	return NAN;
}

/* The regularized incomplete beta I_x(a, b); y = 1 - x is passed in so the caller can compute it without cancellation. */
static double inc_beta(double a, double b, double x, double y)
{
	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(y));
	/* use the symmetry I_x(a, b) = 1 - I_y(b, a) to stay where the fraction converges */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, y) / b;
}

/* P(T > t) for t >= 0, kept as a tail so small p-values keep their relative precision. */
static double t_upper_tail(double t, double df)
{
	if (df > DF_NORMAL)
		return 0.5 * erfc(t / sqrt(2.0));
	double r = t * t / df;
	if (!(r > 0))
		return 0.5;
	if (isinf(r))
		return 0;
	/* x = df / (df + t^2) and its complement, each formed without subtracting from 1 */
	return 0.5 * inc_beta(df / 2, 0.5, 1 / (1 + r), r / (1 + r));
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	double tail = t_upper_tail(fabs(t), df);
	return t < 0 ? tail : 1 - tail;
}

/* The density of Student's t, the derivative of the cdf that Newton's method needs. */
static double t_density(double t, double df)
{
	if (df > DF_NORMAL)
		return exp(-0.5 * t * t) / sqrt(2 * M_PI);
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI) - (df + 1) / 2 * log1p(t * t / df));
}

/* Newton's method on the upper tail inside a bisection bracket: Newton converges quadratically
 * from anywhere the tail is smooth, and the bracket catches the steps that overshoot in the heavy
 * tails of small df, so every df gets full double precision in a few dozen tail evaluations. */
double stats_t_quantile(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	double tail = p < 0.5 ? p : 1 - p;
	double lo = 0, hi = 1;
	/* bracket by doubling, so even a huge quantile (df 0.5, p 1e-6) starts from a factor-of-two interval */
	while (t_upper_tail(hi, df) > tail) {
		lo = hi;
		hi *= 2;
		if (isinf(hi))
			return p < 0.5 ? -HUGE_VAL : HUGE_VAL;
	}
	double t = lo + (hi - lo) / 2;
	for (int i = 0; i < 200; i++) {
		double g = t_upper_tail(t, df) - tail;
		if (g == 0)
			break;
		/* the tail falls as t grows: a tail above the target means t is too small */
		if (g > 0)
			lo = t;
		else
			hi = t;
		double f = t_density(t, df);
		double next = f > 0 ? t + g / f : NAN;
		if (!(next > lo && next < hi))
			next = lo + (hi - lo) / 2;
		double step = fabs(next - t);
		t = next;
		if (step <= 4e-16 * t || hi - lo <= 4e-16 * hi)
			break;
	}
	return p < 0.5 ? -t : t;
}

/* Points of the quadrature: the chi density is smooth, and its mass sits within a few units. */
#define POWER_STEPS 1000

double stats_t_power(double lambda, double df, double crit)
{
	if (!(df > 0) || !isfinite(df) || !(crit > 0) || !isfinite(crit) || !isfinite(lambda))
		return NAN;
	/* T' = (Z + lambda) / (W / sqrt(df)), W chi with df degrees of freedom:
	 * P(T' > c) + P(T' < -c) = E[Q(c W / sqrt(df) - lambda) + Q(c W / sqrt(df) + lambda)] */
	/* below df 2 the density's w^(df - 1) is not smooth at 0 and Simpson's rule loses digits (0.75 %
	 * of the MDE at df 1.5): w = v^4 makes the integrand v^(4 df - 1), smooth from df 0.5 on */
	int k = df < 2 ? 4 : 1;
	double top = pow(sqrt(df) + 12, 1.0 / k), h = top / POWER_STEPS, sum = 0;
	double log_norm = (df / 2 - 1) * log(2.0) + lgamma(df / 2), scale = crit / sqrt(df);
	for (int i = 0; i <= POWER_STEPS; i++) {
		double v = i * h, w = pow(v, k);
		double dens = v > 0 ? k * exp((k * df - 1) * log(v) - w * w / 2 - log_norm) : k * df == 1 ? exp(-log_norm) : 0;
		double x = scale * w;
		double tails = 0.5 * erfc((x - lambda) / M_SQRT2) + 0.5 * erfc((x + lambda) / M_SQRT2);
		double weight = i == 0 || i == POWER_STEPS ? 1 : i % 2 ? 4 : 2; /* Simpson's */
		sum += weight * dens * tails;
	}
	return fmin(1, fmax(0, sum * h / 3));
}

static size_t count_equal(const double *v, size_t n, double x)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += v[i] == x;
	return k;
}

/* Samples up to this size a side without ties get the exact distribution of U. */
#define MW_EXACT_MAX 30

/* The number of orderings of na and nb values giving each U (0 .. na nb) without ties: the
 * coefficients of the Gaussian binomial [na + nb choose na]_q, built a factor at a time. */
static double *u_counts(size_t na, size_t nb)
{
	size_t top = na * nb, n = na + nb;
	double *c = xcalloc(top + 1, sizeof(*c));
	c[0] = 1;
	for (size_t i = 1; i <= na; i++) {
		size_t up = n - na + i;
		for (size_t k = top; k >= up; k--) /* times (1 - q^up) */
			c[k] -= c[k - up];
		for (size_t k = i; k <= top; k++)  /* over (1 - q^i) */
			c[k] += c[k - i];
	}
	return c;
}

/* The exact two-sided p of U: twice the smaller tail, at most 1. */
static double u_exact_p(double u, size_t na, size_t nb)
{
	size_t top = na * nb, at = (size_t)u;
	double *c = u_counts(na, nb), below = 0, above = 0, all = 0;
	for (size_t k = 0; k <= top; k++) {
		all += c[k];
		below += k <= at ? c[k] : 0;
		above += k >= at ? c[k] : 0;
	}
	free(c);
	return fmin(1, 2 * fmin(below, above) / all);
}

/* Mann-Whitney U: exact without ties up to MW_EXACT_MAX a side, else the normal approximation (tie- and
 * continuity-corrected, as R does by default). */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u, double *p)
{
	*u = 0;
	*p = 1;
	if (na < 2 || nb < 2)
		return -1;
	for (size_t i = 0; i < na; i++)
		if (isnan(a[i]))
			return -1;
	for (size_t j = 0; j < nb; j++)
		if (isnan(b[j]))
			return -1;
	/* Repeats are few, so counting pairs directly is cheap and avoids allocating and sorting for ranks. */
	double ua = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			ua += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
	/* The tie term sums t^3 - t over groups of t equal values; summing t^2 - 1 over every value is the same. */
	double ties = 0;
	for (size_t i = 0; i < na; i++) {
		double t = (double)(count_equal(a, na, a[i]) + count_equal(b, nb, a[i]));
		ties += t * t - 1;
	}
	for (size_t j = 0; j < nb; j++) {
		double t = (double)(count_equal(a, na, b[j]) + count_equal(b, nb, b[j]));
		ties += t * t - 1;
	}
	*u = ua;
	if (ties == 0 && na <= MW_EXACT_MAX && nb <= MW_EXACT_MAX) {
		*p = u_exact_p(ua, na, nb);
		return 0;
	}
	double n = (double)(na + nb), mn = (double)na * (double)nb;
	double var = mn / 12 * ((n + 1) - ties / (n * (n - 1)));
	double dev = fabs(ua - mn / 2) - 0.5;
	*u = ua;
	/* var is 0 only when every value is equal, and then there is nothing to tell apart */
	if (var <= 0 || dev <= 0)
		return 0;
	*p = erfc(dev / sqrt(var) / sqrt(2.0));
	return 0;
}

double stats_geomean(const double *ratios, size_t n)
{
	if (n == 0)
		return 0;
	/* summing logs rather than multiplying keeps long rows from overflowing or underflowing */
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(ratios[i] > 0))
			return 0;
		sum += log(ratios[i]);
	}
	return exp(sum / (double)n);
}
