/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the significance tests against t tables, closed forms and examples worked by hand. */
#include "config.h"

#include <math.h>

#include "measure/measure.h"
#include "analysis/stats.h"
#include "tap.h"

static void t_cdf(void)
{
	is_near(stats_t_cdf(0, 1), 0.5, 1e-15, "cdf(0) = 0.5, df 1");
	is_near(stats_t_cdf(0, 7.5), 0.5, 1e-15, "cdf(0) = 0.5, fractional df");
	is_near(stats_t_cdf(0, 1e9), 0.5, 1e-15, "cdf(0) = 0.5, huge df");
	int symmetric = 1;
	for (double df = 0.5; df < 200; df *= 1.7)
		for (double t = 0.05; t < 50; t *= 1.9)
			symmetric &= fabs(stats_t_cdf(t, df) + stats_t_cdf(-t, df) - 1) < 1e-12;
	ok(symmetric, "cdf(t) + cdf(-t) = 1");
	/* closed forms: df 1 is Cauchy, 1/2 + atan(t)/pi; df 2 is 1/2 + t / (2 sqrt(2 + t^2));
	 * df 4 is 1/2 + (3/4) x (1 - x^2/3) with x = t / sqrt(4 + t^2) */
	is_near(stats_t_cdf(1, 1), 0.75, 1e-12, "df 1: cdf(1) = 3/4");
	is_near(stats_t_cdf(-3, 1), 0.5 + atan(-3.0) / M_PI, 1e-12, "df 1: cdf(-3) by atan");
	is_near(stats_t_cdf(2, 2), 0.5 + 2 / (2 * sqrt(6.0)), 1e-12, "df 2: cdf(2) closed form");
	double x = 1 / sqrt(5.0);
	is_near(stats_t_cdf(1, 4), 0.5 + 0.75 * x * (1 - x * x / 3), 1e-12, "df 4: cdf(1) closed form");
	/* far tails keep relative precision: df 1, P(T < -1e6) = atan(1e-6)/pi ~ 3.1831e-7 */
	is_near(stats_t_cdf(-1e6, 1) / (atan(1e-6) / M_PI), 1, 1e-9, "df 1: far tail to relative 1e-9");
	is_near(stats_t_cdf(1.96, 1e8), 0.5 * erfc(-1.96 / sqrt(2.0)), 1e-7, "huge df is the normal");
	is_near(stats_t_cdf(1.96, 1e6), 0.5 * erfc(-1.96 / sqrt(2.0)), 1e-6, "df 1e6 is nearly the normal");
	ok(isnan(stats_t_cdf(1, 0)), "df 0 is NaN");
	ok(isnan(stats_t_cdf(NAN, 3)), "t NaN is NaN");
	is_near(stats_t_cdf(INFINITY, 3), 1, 0, "cdf(+inf) = 1");
	is_near(stats_t_cdf(-INFINITY, 3), 0, 0, "cdf(-inf) = 0");
}

static void t_quantile(void)
{
	/* two-sided 95%, 90%, 99% critical values from a published t table (3 decimals) */
	static const struct {
		double p, df, want;
		const char *what;
	} table[] = {
		{0.975, 1, 12.706, "t(0.975, 1) = 12.706"},
		{0.975, 2, 4.303, "t(0.975, 2) = 4.303"},
		{0.975, 5, 2.571, "t(0.975, 5) = 2.571"},
		{0.975, 8, 2.306, "t(0.975, 8) = 2.306"},
		{0.975, 10, 2.228, "t(0.975, 10) = 2.228"},
		{0.975, 30, 2.042, "t(0.975, 30) = 2.042"},
		{0.975, 120, 1.980, "t(0.975, 120) = 1.980"},
		{0.95, 4, 2.132, "t(0.95, 4) = 2.132"},
		{0.95, 1, 6.314, "t(0.95, 1) = 6.314"},
		{0.995, 20, 2.845, "t(0.995, 20) = 2.845"},
		{0.995, 3, 5.841, "t(0.995, 3) = 5.841"},
		{0.9995, 2, 31.599, "t(0.9995, 2) = 31.599"},
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		is_near(stats_t_quantile(table[i].p, table[i].df), table[i].want, 0.0005, table[i].what);
	/* to 1e-12 relative against 40-digit values (mpmath: regularized incomplete beta, bisection),
	 * at integer and fractional df (Welch's df is fractional) and four levels */
	static const struct {
		double df, p, want;
	} exact[] = {
		{1, 0.9, 3.0776835371752541},     {1, 0.9995, 636.61924876878973},
		{2.5, 0.975, 3.5746548420036818}, {2.5, 0.995, 7.1637281389487829},
		{3, 0.975, 3.1824463052837084},   {7, 0.9, 1.4149239276505086},
		{7, 0.9995, 5.4078825208618281},  {13.7, 0.975, 2.1492012622298089},
		{13.7, 0.995, 2.9868560441933757}, {29, 0.975, 2.0452296421327039},
		{100, 0.995, 2.6258905214380176}, {1000, 0.975, 1.9623390808264081},
		{1000, 0.9995, 3.3002826484239442}, {0.5, 0.975, 164.55767348048824},
		{0.5, 0.9995, 411396.46252626201},
	};
	int close = 1;
	for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
		double got = stats_t_quantile(exact[i].p, exact[i].df);
		if (fabs(got / exact[i].want - 1) > 1e-12) {
			close = 0;
			printf("#   t(%g, %g) = %.17g, want %.17g\n", exact[i].p, exact[i].df, got, exact[i].want);
		}
		close &= fabs(stats_t_quantile(1 - exact[i].p, exact[i].df) / exact[i].want + 1) <= 1e-12;
	}
	ok(close, "quantiles to 1e-12 relative at df 0.5 .. 1000, both tails");
	is_near(stats_t_quantile(0.975, 1e4), 1.960, 0.0005, "t(0.975, 1e4) -> 1.960");
	is_near(stats_t_quantile(0.975, 1e9), 1.959964, 1e-6, "t(0.975, 1e9) = z(0.975) = 1.959964");
	/* closed forms: df 1 is tan(pi (p - 1/2)); df 2 is (2p - 1) / sqrt(2 p (1 - p)) */
	is_near(stats_t_quantile(0.975, 1), tan(M_PI * 0.475), 1e-9, "df 1 quantile by tan");
	is_near(stats_t_quantile(0.999999, 1) / tan(M_PI * 0.499999), 1, 1e-8, "df 1 extreme quantile by tan");
	is_near(stats_t_quantile(0.9, 2), 0.8 / sqrt(2 * 0.9 * 0.1), 1e-9, "df 2 quantile closed form");
	is_near(stats_t_quantile(0.025, 5), -stats_t_quantile(0.975, 5), 1e-12, "q(1 - p) = -q(p)");
	is_near(stats_t_quantile(0.5, 3), 0, 0, "median is 0");
	int inverse = 1;
	for (double df = 0.7; df < 500; df *= 2.3)
		for (double p = 0.001; p < 1; p += 0.0371)
			inverse &= fabs(stats_t_cdf(stats_t_quantile(p, df), df) - p) < 1e-10;
	ok(inverse, "cdf(quantile(p)) = p");
	ok(isnan(stats_t_quantile(0, 5)) && isnan(stats_t_quantile(1, 5)), "p 0 and 1 are NaN");
	ok(isnan(stats_t_quantile(0.9, -1)), "negative df is NaN");
}

static void mann_whitney(void)
{
	double u, p;
	/* completely separated, 5 and 5: U = 0, mean 12.5, var = 5*5*11/12 = 22.9167, sd 4.7871.
	 * With continuity correction (what this implements): z = (12.5 - 0.5) / 4.7871 = 2.5067, p = 0.01219.
	 * (Without it z = 2.6112, p = 0.0090; the exact p is 2/252 = 0.0079.) */
	double lo[] = {1, 2, 3, 4, 5}, hi[] = {6, 7, 8, 9, 10};
	is_int(stats_mann_whitney(lo, 5, hi, 5, &u, &p), 0, "mann-whitney: separated judged");
	is_near(u, 0, 0, "mann-whitney: U of the lower sample = 0");
	is_near(p, 2.0 / 252, 1e-12, "mann-whitney: separated 5 against 5, exact: 2 of C(10, 5) orderings");
	stats_mann_whitney(hi, 5, lo, 5, &u, &p);
	is_near(u, 25, 0, "mann-whitney: U of the higher sample = 25");
	is_near(p, 2.0 / 252, 1e-12, "mann-whitney: p is symmetric");
	const double x3[] = {1, 2, 3}, y3[] = {4, 5, 6}, y3m[] = {2.5, 5, 6};
	stats_mann_whitney(x3, 3, y3, 3, &u, &p);
	is_near(p, 0.1, 1e-12, "mann-whitney: 3 against 3 exact cannot go below 0.1");
	stats_mann_whitney(x3, 3, y3m, 3, &u, &p);
	is_near(p, 0.2, 1e-12, "mann-whitney: U = 1 of 3 against 3: 2 x 2/20");
	/* the power below df 2, against mpmath's quadrature of the same integral at 30 digits */
	is_near(stats_t_power(3, 1.5, 6.01666310442793), 0.288657835796607, 1e-6, "power at df 1.5, lambda 3");
	is_near(stats_t_power(8, 1.5, 6.01666310442793), 0.811813506171066, 1e-6, "power at df 1.5, lambda 8");
	is_near(stats_t_power(3, 1.2, 8.64882651074887), 0.22608818638139, 1e-6, "power at df 1.2, lambda 3");
	is_near(stats_t_power(8, 1.8, 4.79488136516682), 0.920906319602427, 1e-6, "power at df 1.8, lambda 8");

	/* ties: a = {1,2,3,4}, b = {3,4,5,6}; ranks 1 2 3.5 3.5 5.5 5.5 7 8, R_a = 1+2+3.5+5.5 = 12,
	 * U = 12 - 4*5/2 = 2. Two tie groups of 2: sum(t^3 - t) = 12.
	 * var = 16/12 * (9 - 12/(8*7)) = 11.7143, z = (|2 - 8| - 0.5) / 3.42261 = 1.60696, p = 0.10806. */
	double ta[] = {1, 2, 3, 4}, tb[] = {3, 4, 5, 6};
	stats_mann_whitney(ta, 4, tb, 4, &u, &p);
	is_near(u, 2, 0, "mann-whitney ties: U = 2");
	is_near(p, 0.108063, 1e-6, "mann-whitney ties: p = 0.10806");

	is_int(stats_mann_whitney(lo, 5, lo, 5, &u, &p), 0, "mann-whitney: identical judged");
	is_near(p, 1, 0, "mann-whitney: identical samples give p = 1");
	is_near(u, 12.5, 0, "mann-whitney: ... and U = nm/2");
	double flat[] = {7, 7, 7};
	stats_mann_whitney(flat, 3, flat, 2, &u, &p);
	is_near(p, 1, 0, "mann-whitney: all values equal gives p = 1");
	is_int(stats_mann_whitney(lo, 1, hi, 5, &u, &p), -1, "mann-whitney: n = 1 cannot be judged");
	is_int(stats_mann_whitney(lo, 5, hi, 1, &u, &p), -1, "mann-whitney: m = 1 cannot be judged");
	double bad[] = {1, NAN, 3};
	is_int(stats_mann_whitney(bad, 3, hi, 5, &u, &p), -1, "mann-whitney: NaN refused");
}

static void geomean(void)
{
	double r[] = {1.1, 0.9};
	is_near(stats_geomean(r, 2), sqrt(0.99), 1e-15, "geomean {1.1, 0.9} = sqrt(0.99)");
	double c[] = {2, 8};
	is_near(stats_geomean(c, 2), 4, 1e-15, "geomean {2, 8} = 4");
	is_near(stats_geomean(c, 1), 2, 1e-15, "geomean of one ratio is itself");
	is_near(stats_geomean(c, 0), 0, 0, "geomean of none is 0");
	double z[] = {1.2, 0, 1.1};
	is_near(stats_geomean(z, 3), 0, 0, "geomean with a 0 ratio is 0");
	double neg[] = {1.2, -1};
	is_near(stats_geomean(neg, 2), 0, 0, "geomean with a negative ratio is 0");
	double many[1000];
	for (int i = 0; i < 1000; i++)
		many[i] = i % 2 ? 1e300 : 1e-300;
	is_near(stats_geomean(many, 1000), 1, 1e-9, "geomean does not overflow on long rows");
}

int main(void)
{
	tap_case(t_cdf);
	tap_case(t_quantile);
	tap_case(mann_whitney);
	tap_case(geomean);
	return done_testing();
}
