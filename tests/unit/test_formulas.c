/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the figures' formulas against values computed by hand. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/measure.h"
#include "tap.h"

static void jobs_per_min(void)
{
	/* the kernel-list example: P = 99, N = 32, T = 316.3 s (T shown rounded: 316.25..316.35) */
	is_near(measure_jobs_per_min(99.0 * 32, 316.3), 601.0, 0.1, "P=99 N=32 T=316.3 gives 601.0 Jobs/Min");
	is_near(measure_jobs_per_min(99.0, 316.3), 18.78, 0.005, "per task: 18.78");
	is_near(measure_jobs_per_min(100, 0), 0, 0, "zero time gives 0, not inf");
}

static void spread(void)
{
	double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct spread s;
	measure_spread(v, 8, &s);
	is_near(s.mean, 5, 1e-12, "mean");
	is_near(s.std_dev, 2, 1e-12, "population std dev");
	is_near(s.std_dev_pct, 40, 1e-9, "std dev %");
	is_near(s.jti, 60, 1e-9, "JTI = 100 (1 - cov)");
	is_int(s.min_index, 0, "index of fastest task");
	is_int(s.max_index, 7, "index of slowest task");
	double wild[] = {1, 1, 1, 100};
	measure_spread(wild, 4, &s);
	is_near(s.jti, 0, 0, "JTI clamps at 0");
	double same[] = {3, 3, 3};
	measure_spread(same, 3, &s);
	is_near(s.jti, 100, 0, "equal times give JTI 100");
}

static void summary(void)
{
	double v[] = {10, 12, 14};
	struct summary s;
	measure_summary(v, 3, &s);
	is_near(s.mean, 12, 1e-12, "sample mean");
	is_near(s.std_dev, 2, 1e-12, "sample std dev (n-1)");
	is_near(s.cv_pct, 100.0 * 2 / 12, 1e-9, "CV %");
	measure_summary(v, 1, &s);
	is_near(s.std_dev, 0, 0, "one sample has no spread");
}

static void histogram(void)
{
	is_int(hist_bucket(0), 0, "0 ns in bucket 0");
	is_int(hist_bucket(127), 127, "a bucket per nanosecond below 2 * HIST_SUB");
	is_int(hist_bucket(128), 128, "128 ns starts the first cut octave");
	is_int(hist_bucket(256), 192, "256 ns is the next octave, HIST_SUB buckets on");
	is_int(hist_bucket((1ull << HIST_TOP_BITS) - 1), HIST_BUCKETS - 1, "2^40 - 1 ns is in the last bucket");
	is_int(hist_bucket(1ull << 50), HIST_BUCKETS - 1, "longer times clamp to the last bucket");
	is_int(hist_bucket(UINT64_MAX), HIST_BUCKETS - 1, "even the longest");
	int monotone = 1, inside = 1;
	for (uint64_t ns = 1; ns < (1ull << 41); ns = ns * 3 / 2 + 1) {
		unsigned b = hist_bucket(ns);
		monotone &= b >= hist_bucket(ns / 2);
		inside &= ns >= hist_bucket_low(b) && ns < hist_bucket_high(b);
	}
	ok(monotone, "bucket index grows with time");
	ok(inside, "every time lies inside its bucket's bounds");
	int contiguous = 1, narrow = 1;
	for (unsigned b = 0; b + 1 < HIST_BUCKETS; b++) {
		uint64_t lo = hist_bucket_low(b), hi = hist_bucket_high(b);
		contiguous &= hi == hist_bucket_low(b + 1) && hist_bucket(lo) == b && hist_bucket(hi - 1) == b;
		narrow &= (double)(hi - lo) <= (double)lo / HIST_SUB || hi - lo == 1;
	}
	ok(contiguous, "buckets tile the range without gaps or overlaps");
	ok(narrow, "no bucket is wider than 1/HIST_SUB of its lower bound");
	ok(HIST_RESOLUTION_PCT <= 1.0, "the stated resolution is 1 % or better");

	static uint32_t h[HIST_BUCKETS];
	for (int i = 1; i <= 100; i++)
		h[hist_bucket((uint64_t)i * 1000000)]++;
	uint64_t p50 = hist_quantile(h, 100, 0.5, 1000000, 100000000);
	uint64_t p99 = hist_quantile(h, 100, 0.99, 1000000, 100000000);
	is_near(p50, 50e6, 50e6 * HIST_RESOLUTION_PCT / 100, "p50 of 1..100 ms is 50 ms within the resolution");
	is_near(p99, 99e6, 99e6 * HIST_RESOLUTION_PCT / 100, "p99 of 1..100 ms is 99 ms within the resolution");
	is_int(hist_quantile(h, 0, 0.5, 0, 0), 0, "empty histogram");
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Inverse CDFs of known distributions, scaled to job times in ns. */
static double uniform_q(double u) { return 2e3 + u * 8e6; }                    /* 2 us .. 8 ms */
static double exponential_q(double u) { return 200.0 - 45e3 * log(1 - u); }   /* mean 45 us */
static double lognormal_q(double u)                                            /* median 3 ms, sigma 1 */
{
	/* the normal quantile by bisection on erfc: slow but exact enough for a test */
	double lo = -10, hi = 10;
	for (int i = 0; i < 80; i++) {
		double mid = (lo + hi) / 2;
		if (0.5 * erfc(-mid / sqrt(2)) < u)
			lo = mid;
		else
			hi = mid;
	}
	return 3e6 * exp((lo + hi) / 2);
}
static double pareto_q(double u) { return 80.0 / pow(1 - u, 1 / 1.5); }        /* from 80 ns, heavy tail */

/* Percentiles of a known distribution from the histogram, against the sample's own percentiles and
 * the distribution's: within 1 %, as the histogram's resolution promises. */
static void quantiles_of(const char *name, double (*quantile)(double))
{
	enum { N = 200000 };
	static uint32_t h[HIST_BUCKETS];
	static uint64_t v[N];
	static const double qs[] = {0.01, 0.10, 0.25, 0.50, 0.75, 0.90, 0.99, 0.999};
	memset(h, 0, sizeof(h));
	for (int i = 0; i < N; i++) {
		v[i] = (uint64_t)llround(quantile((i + 0.5) / N));
		h[hist_bucket(v[i])]++;
	}
	qsort(v, N, sizeof(v[0]), by_value);
	double worst_sample = 0, worst_true = 0;
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		uint64_t rank = (uint64_t)ceil(qs[k] * N);
		double exact = (double)v[rank - 1], truth = quantile(qs[k]);
		double est = (double)hist_quantile(h, N, qs[k], v[0], v[N - 1]);
		worst_sample = fmax(worst_sample, fabs(est / exact - 1) * 100);
		worst_true = fmax(worst_true, fabs(est / truth - 1) * 100);
	}
	char what[128];
	snprintf(what, sizeof(what), "%s: p1..p99.9 within %.2f %% of the sample's (worst %.3f %%)", name,
		 HIST_RESOLUTION_PCT, worst_sample);
	ok(worst_sample <= HIST_RESOLUTION_PCT, what);
	snprintf(what, sizeof(what), "%s: p1..p99.9 within 1 %% of the distribution's (worst %.3f %%)", name,
		 worst_true);
	ok(worst_true <= 1.0, what);
}

/* Two tests whose job times differ by 3 % no longer report one and the same p50, p90 and p99. */
static void close_distributions(void)
{
	static uint32_t a[HIST_BUCKETS], b[HIST_BUCKETS];
	for (int i = 0; i < 1000; i++) {
		double t = 50e3 * (1 + 0.3 * (i + 0.5) / 1000);
		a[hist_bucket((uint64_t)t)]++;
		b[hist_bucket((uint64_t)(t * 1.03))]++;
	}
	int apart = 1;
	static const double qs[] = {0.5, 0.9, 0.99};
	for (size_t k = 0; k < 3; k++)
		apart &= hist_quantile(b, 1000, qs[k], 0, UINT64_MAX) > hist_quantile(a, 1000, qs[k], 0, UINT64_MAX);
	ok(apart, "times 3 % apart give p50, p90 and p99 3 % apart, not equal");
}

int main(void)
{
	tap_case(jobs_per_min);
	tap_case(spread);
	tap_case(summary);
	tap_case(histogram);
	tap_case(quantiles_of, "uniform", uniform_q);
	tap_case(quantiles_of, "exponential", exponential_q);
	tap_case(quantiles_of, "lognormal", lognormal_q);
	tap_case(quantiles_of, "pareto", pareto_q);
	tap_case(close_distributions);
	return done_testing();
}
