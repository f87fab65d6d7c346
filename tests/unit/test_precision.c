/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The --precision stopping rule keeps its level, by simulation with fixed seeds: rounds are added
 * until the interval is narrow enough (the rule the run applies), then the interval and the test
 * compare makes are checked against the truth, in the three designs: one run's mean (coverage), one
 * run a side (Welch, no real difference: false alarms), and variants paired by round inside one run
 * (false alarms). The same rule without the looks is measured beside it, and shown to miss.
 * `make check` runs a fixed-seed twentieth of the simulations (200); `--full` (`make check-long`) all. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/verdict.h"
#include "tap.h"

#define SIMS_FULL 4000
#define SIMS_FAST 200   /* fixed seeds: the same verdicts every time, well inside the bounds */
#define LEAST 3          /* --precision's least rounds */
#define MOST 20          /* --max-repeat's default */
#define LOOKS (MOST - LEAST + 1)
#define TRUE_MEAN 1000.0
#define SPREAD 40.0      /* sd of a round: a 4 % CV */
#define TARGET_PCT 3.0   /* --precision 3: reached after a few rounds, often at the first looks */

static int sims = SIMS_FAST;

/* splitmix64: a fixed, portable stream for each design. */
static uint64_t rng_state;

static uint64_t next_u64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform(void)
{
	return ((double)(next_u64() >> 11) + 0.5) / 9007199254740992.0;
}

/* Box-Muller, one value a call. */
static double normal(double mean, double sd)
{
	return mean + sd * sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* Rounds of one arm until the rule is satisfied (over `looks`) or MOST; the rounds it took. */
static size_t one_arm(double *v, size_t looks)
{
	size_t n = 0;
	while (n < MOST) {
		v[n] = normal(TRUE_MEAN, SPREAD);
		n++;
		if (n >= LEAST && verdict_precision_reached(v, n, TARGET_PCT, looks, NULL))
			break;
	}
	return n;
}

/* Design 1: one run's mean. How often the interval where the rule stopped covers the true mean. */
static double coverage(size_t looks, double *mean_rounds)
{
	double v[MOST];
	size_t covered = 0, rounds = 0;
	for (int s = 0; s < sims; s++) {
		size_t n = one_arm(v, looks);
		rounds += n;
		double sum = 0;
		for (size_t i = 0; i < n; i++)
			sum += v[i];
		double mean = sum / (double)n, half = verdict_halfwidth_pct(v, n, VERDICT_ALPHA / (double)looks);
		covered += fabs(mean - TRUE_MEAN) <= half / 100 * fabs(mean);
	}
	*mean_rounds = (double)rounds / sims;
	return (double)covered / sims;
}

/* Design 2: one run a side, each stopping on its own rule; compare's Welch test on the repeats. */
static double false_alarms_welch(size_t looks)
{
	double a[MOST], b[MOST];
	size_t alarms = 0;
	for (int s = 0; s < sims; s++) {
		size_t na = one_arm(a, looks), nb = one_arm(b, looks);
		struct verdict v;
		/* compare allows for every pair of looks the two runs could have stopped at */
		if (verdict_welch_looks(a, na, b, nb, VERDICT_ALPHA, VERDICT_POWER, looks * looks, &v) == 0 && v.significant)
			alarms++;
	}
	return (double)alarms / sims;
}

/* Design 3: two variants inside one run, a point of each per round sharing the round's drift; the
 * rounds go on until both arms are precise; compare's paired test. */
static double false_alarms_paired(size_t looks)
{
	double a[MOST], b[MOST];
	size_t alarms = 0;
	for (int s = 0; s < sims; s++) {
		size_t n = 0;
		while (n < MOST) {
			double drift = normal(0, SPREAD / 2);
			a[n] = normal(TRUE_MEAN, SPREAD) + drift;
			b[n] = normal(TRUE_MEAN, SPREAD) + drift;
			n++;
			if (n >= LEAST && verdict_precision_reached(a, n, TARGET_PCT, looks, NULL) &&
			    verdict_precision_reached(b, n, TARGET_PCT, looks, NULL))
				break;
		}
		struct verdict v;
		if (verdict_paired_looks(a, b, n, VERDICT_ALPHA, VERDICT_POWER, looks, &v) == 0 && v.significant)
			alarms++;
	}
	return (double)alarms / sims;
}

/* Each design's figures, with the rule's looks and without, simulated once whichever case asks. */
struct design {
	uint64_t seed;
	double (*simulate)(size_t looks, double *mean_rounds);
	int done;
	double with_looks, without_looks, rounds, naive_rounds;
};

static double run_welch(size_t looks, double *mean_rounds)
{
	*mean_rounds = 0;
	return false_alarms_welch(looks);
}

static double run_paired(size_t looks, double *mean_rounds)
{
	*mean_rounds = 0;
	return false_alarms_paired(looks);
}

static struct design designs[] = {
	{.seed = 1, .simulate = coverage},
	{.seed = 2, .simulate = run_welch},
	{.seed = 3, .simulate = run_paired},
};
enum { MEAN, WELCH, PAIRED };

static const struct design *simulated(int which)
{
	struct design *d = &designs[which];
	if (!d->done) {
		rng_state = d->seed;
		d->with_looks = d->simulate(LOOKS, &d->rounds);
		rng_state = d->seed;
		d->without_looks = d->simulate(1, &d->naive_rounds);
		d->done = 1;
	}
	return d;
}

static void one_run_mean(void)
{
	const struct design *d = simulated(MEAN);
	printf("# one run's mean: coverage %.3f over %d looks (%.1f rounds on average); without the looks %.3f "
	       "(%.1f rounds)\n", d->with_looks, LOOKS, d->rounds, d->without_looks, d->naive_rounds);
	ok(d->with_looks >= 0.95, "one run's mean: the interval where the rounds stopped covers >= 95 %");
}

static void one_run_a_side(void)
{
	const struct design *d = simulated(WELCH);
	printf("# one run a side: false alarms %.3f; without the looks %.3f\n", d->with_looks, d->without_looks);
	ok(d->with_looks <= 0.05, "one run a side, no real difference: false alarms <= 5 %");
}

static void paired_variants(void)
{
	const struct design *d = simulated(PAIRED);
	printf("# variants paired by round: false alarms %.3f; without the looks %.3f\n", d->with_looks,
	       d->without_looks);
	ok(d->with_looks <= 0.05, "variants paired by round, no real difference: false alarms <= 5 %");
}

/* The three designs' figures without the looks (simulated here when their own cases did not run). */
static void without_looks(void)
{
	double naive = simulated(MEAN)->without_looks, welch_naive = simulated(WELCH)->without_looks,
	       paired_naive = simulated(PAIRED)->without_looks;
	ok(naive < 0.95 || welch_naive > 0.05 || paired_naive > 0.05,
	   "the rule without the looks misses its level somewhere (the simulation can tell)");
}

/* `test_precision [--full]`; TAP_ONLY=one_run_mean,... runs those cases alone. */
int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--full") == 0)
		sims = SIMS_FULL;
	printf("# %d simulations of each design\n", sims);
	tap_case(one_run_mean);
	tap_case(one_run_a_side);
	tap_case(paired_variants);
	tap_case(without_looks);
	return done_testing();
}
