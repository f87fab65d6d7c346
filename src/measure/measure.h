/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Clocks, the figures of a load point (pure functions), and latency histograms. */
#ifndef REAIM_MEASURE_MEASURE_H
#define REAIM_MEASURE_MEASURE_H

#include <stddef.h>
#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds: comparable across the processes of one machine. */
uint64_t clock_now_ns(void);

/* Jobs/Min = jobs * 60 / T, where jobs is P*N for the point or P for one task. */
double measure_jobs_per_min(double jobs, double real_s);

/* Spread of task completion times (population statistics). */
struct spread {
	double mean, std_dev, std_dev_pct, jti, min, max;
	size_t min_index, max_index;
};
void measure_spread(const double *v, size_t n, struct spread *out);

/* Sample statistics over repeats (n-1 denominator). */
struct summary {
	size_t n;
	double mean, std_dev, cv_pct, min, max;
};
void measure_summary(const double *v, size_t n, struct summary *out);

/* Latency histogram in HdrHistogram's layout: a bucket per nanosecond below 2*HIST_SUB ns, then each
 * power of two cut into HIST_SUB equal buckets, so a bucket is never wider than 1/HIST_SUB of the times
 * in it and a percentile (its bucket's midpoint) is within HIST_RESOLUTION_PCT of the true one. Times
 * up to 2^HIST_TOP_BITS ns (18 minutes) have their own bucket; longer ones share the last. */
#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_TOP_BITS 40
#define HIST_BUCKETS ((HIST_TOP_BITS - HIST_SUB_BITS + 1) * HIST_SUB)
#define HIST_RESOLUTION_PCT (50.0 / HIST_SUB)
unsigned hist_bucket(uint64_t ns);
uint64_t hist_bucket_low(unsigned b);
uint64_t hist_bucket_high(unsigned b);
/* The q-quantile (0..1) estimated from a histogram, clamped to [min, max]. */
uint64_t hist_quantile(const uint32_t *hist, uint64_t count, double q, uint64_t min_ns, uint64_t max_ns);

#endif
