/* Checks the figures' formulas against values computed by hand. */
#include "config.h"

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
	is_int(hist_bucket(0), 0, "tiny times in bucket 0");
	is_int(hist_bucket(256), 0, "256 ns starts bucket 0's octave");
	is_int(hist_bucket(512), 4, "512 ns is the next octave");
	is_int(hist_bucket(1ull << 50), HIST_BUCKETS - 1, "huge times clamp to the last bucket");
	int monotone = 1, inside = 1;
	for (uint64_t ns = 1; ns < (1ull << 39); ns = ns * 3 / 2 + 1) {
		unsigned b = hist_bucket(ns);
		monotone &= b >= hist_bucket(ns / 2);
		inside &= ns >= hist_bucket_low(b) && ns < hist_bucket_high(b);
	}
	ok(monotone, "bucket index grows with time");
	ok(inside, "every time lies inside its bucket's bounds");
	uint32_t h[HIST_BUCKETS] = {0};
	for (int i = 1; i <= 100; i++)
		h[hist_bucket((uint64_t)i * 1000000)]++;
	uint64_t p50 = hist_quantile(h, 100, 0.5, 1000000, 100000000);
	uint64_t p99 = hist_quantile(h, 100, 0.99, 1000000, 100000000);
	ok(p50 > 40000000 && p50 < 60000000, "p50 of 1..100 ms is near 50 ms");
	ok(p99 > 85000000 && p99 <= 100000000, "p99 of 1..100 ms is near 99 ms");
	is_int(hist_quantile(h, 0, 0.5, 0, 0), 0, "empty histogram");
}

int main(void)
{
	jobs_per_min();
	spread();
	summary();
	histogram();
	return done_testing();
}
