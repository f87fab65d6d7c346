/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The figures DESIGN.md defines, as pure functions so they can be checked by hand. */
#include "config.h"

#include <math.h>
#include <time.h>

#include "measure/measure.h"

uint64_t clock_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double measure_jobs_per_min(double jobs, double real_s)
{
	return real_s > 0 ? jobs * 60.0 / real_s : 0.0;
}

/* Mean, extremes (with their indices) and the sum of squared deviations of n > 0 values. */
struct moments {
	double mean, min, max, sq;
	size_t min_index, max_index;
};

static struct moments moments_of(const double *v, size_t n)
{
	struct moments m = {.min = v[0], .max = v[0]};
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < m.min)
			m.min = v[i], m.min_index = i;
		if (v[i] > m.max)
			m.max = v[i], m.max_index = i;
	}
	m.mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		m.sq += (v[i] - m.mean) * (v[i] - m.mean);
	return m;
}

void measure_spread(const double *v, size_t n, struct spread *out)
{
	*out = (struct spread){0};
	if (n == 0)
		return;
	struct moments m = moments_of(v, n);
	*out = (struct spread){.mean = m.mean, .min = m.min, .max = m.max, .min_index = m.min_index,
			       .max_index = m.max_index, .std_dev = sqrt(m.sq / (double)n)};
	double cov = out->mean > 0 ? out->std_dev / out->mean : 0;
	out->std_dev_pct = 100.0 * cov;
	double jti = 100.0 * (1.0 - cov);
	out->jti = jti < 0 ? 0 : jti > 100 ? 100 : jti;
}

void measure_summary(const double *v, size_t n, struct summary *out)
{
	*out = (struct summary){.n = n};
	if (n == 0)
		return;
	struct moments m = moments_of(v, n);
	out->mean = m.mean;
	out->min = m.min;
	out->max = m.max;
	out->std_dev = n > 1 ? sqrt(m.sq / (double)(n - 1)) : 0; /* sample: n - 1 */
	out->cv_pct = out->mean != 0 ? 100.0 * out->std_dev / fabs(out->mean) : 0;
}

unsigned hist_bucket(uint64_t ns)
{
	if (ns < 2 * HIST_SUB)
		return (unsigned)ns;
	unsigned shift = 63u - (unsigned)__builtin_clzll(ns) - HIST_SUB_BITS; /* keeps the top 7 bits */
	unsigned b = shift * HIST_SUB + (unsigned)(ns >> shift);
	return b < HIST_BUCKETS ? b : HIST_BUCKETS - 1;
}

uint64_t hist_bucket_low(unsigned b)
{
	if (b < 2 * HIST_SUB)
		return b;
	unsigned shift = b / HIST_SUB - 1;
	return (uint64_t)(b % HIST_SUB + HIST_SUB) << shift;
}

uint64_t hist_bucket_high(unsigned b)
{
	return b + 1 < HIST_BUCKETS ? hist_bucket_low(b + 1) : UINT64_MAX;
}

uint64_t hist_quantile(const uint32_t *hist, uint64_t count, double q, uint64_t min_ns, uint64_t max_ns)
{
	if (count == 0)
		return 0;
	uint64_t rank = (uint64_t)ceil(q * (double)count);
	rank = rank < 1 ? 1 : rank;
	uint64_t seen = 0;
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		seen += hist[b];
		if (seen >= rank) {
			uint64_t lo = hist_bucket_low(b), hi = hist_bucket_high(b);
			uint64_t mid = hi == UINT64_MAX ? lo : lo + (hi - lo) / 2;
			return mid < min_ns ? min_ns : mid > max_ns ? max_ns : mid;
		}
	}
	return max_ns;
}
