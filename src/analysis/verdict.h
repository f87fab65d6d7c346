/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Verdicts on a change between two sets of samples: Welch and paired t tests, Fieller intervals of
 * the % change, Holm and Benjamini-Hochberg corrections, the minimum detectable change, precision,
 * and the choice of replicates (runs, or repeats inside one run) for a group of runs. */
#ifndef REAIM_ANALYSIS_VERDICT_H
#define REAIM_ANALYSIS_VERDICT_H

#include <stddef.h>

#include "measure/measure.h"

/* The usual levels: a two-sided 5 % test, and the power the minimum detectable change is quoted at. */
#define VERDICT_ALPHA 0.05
#define VERDICT_POWER 0.80

/* One comparison of b (the new side) against a (the base). */
struct verdict {
	size_t na, nb;                  /* samples per side; a paired test has na == nb == pairs */
	int paired;                     /* 1: paired t test on b_i - a_i; 0: Welch's test */
	double mean_a, mean_b;
	double t, df, p;                /* two-sided p of "the means are equal" */
	double diff, diff_low, diff_high; /* mean_b - mean_a and its (1 - alpha) t interval, in the data's units */
	double change_pct;              /* 100 (mean_b / mean_a - 1) */
	double ci_low_pct, ci_high_pct; /* Fieller (1 - alpha) interval of change_pct; -inf/+inf when unbounded */
	int bounded;                    /* 0 when the base mean is not itself distinguishable from 0 (Fieller's g >= 1) */
	double se;                      /* the standard error of diff (0: constant sides) */
	double mde_pct;                 /* smallest |change_pct| detectable at alpha with the asked power */
	double slope;                   /* verdict_ancova: the change of the data per unit of the covariate */
	double slope_se;                /* its standard error */
	double covariate_gap;           /* the mean covariate of b less a's: what the slope is applied across */
	int log_scale;                  /* verdict_ancova_ratio: diff, se and slope are of ln y */
	int significant;                /* p < alpha (before any correction over cells) */
};

/* Welch's unequal-variance test of b against a, df by Welch-Satterthwaite. -1 (and *out says
 * "no evidence": p = 1, not significant) when a side has n < 2, the base mean is 0, a value is not
 * finite, alpha or power is outside (0, 1), or both sides are constant and equal. Both sides
 * constant and different: p = 0, t = +-inf, a zero-width interval, mde 0. */
int verdict_welch(const struct summary *a, const struct summary *b, double alpha, double power, struct verdict *out);
/* The same from raw samples. */
int verdict_welch_samples(const double *a, size_t na, const double *b, size_t nb, double alpha, double power,
			  struct verdict *out);
/* Paired t test of b against a over n pairs (a[i], b[i]) measured together (round i of an in-run
 * A/B), df n - 1. The same refusals as verdict_welch (n < 2, ...). */
int verdict_paired(const double *a, const double *b, size_t n, double alpha, double power, struct verdict *out);

/* The change of b against a adjusted for a covariate measured with every sample (analysis of
 * covariance: y = mean + side + slope (x - the mean of x), one slope for both sides, a pooled
 * residual variance, df n - 3). mean_a and mean_b are each side's mean at the pooled mean of x; the
 * Fieller interval counts the slope's uncertainty in both. -1 (no evidence, as verdict_welch) with
 * fewer than 4 samples, fewer than 1 a side, no spread of x within the sides (the covariate and the
 * side cannot be told apart), or a value not finite. */
/* One side's samples y, each with the covariate x measured with it (x may be NULL where no test
 * reads a covariate). */
struct verdict_xy {
	const double *y, *x;
	size_t n;
};
int verdict_ancova(const struct verdict_xy *a, const struct verdict_xy *b, double alpha, double power,
		   struct verdict *out);
/* The same on the logs of positive data (ln y = mean + side + slope x): a load that slows a run slows it
 * by a share, not by seconds, so a side ten times slower is not made faster by a slope its own spread
 * drew. mean_a and mean_b are geometric (exp of the adjusted log means); the change, its interval and
 * the MDE are exp of the log difference's less 1 (never below -100 %); diff, its interval and the
 * slope are in ln y. -1 as verdict_ancova, and where a value is not positive. */
int verdict_ancova_ratio(const struct verdict_xy *a, const struct verdict_xy *b, double alpha, double power,
			 struct verdict *out);

/* Adjusted p values over the n tests of one comparison (as R's p.adjust): Holm's step-down
 * (family-wise error) and Benjamini-Hochberg's step-up (false discovery rate). A NaN p (a cell that
 * could not be judged) is left out of the count and stays NaN in adj. adj may alias p. */
void verdict_holm(const double *p, size_t n, double *adj);
void verdict_bh(const double *p, size_t n, double *adj);

/* The smallest change, in % of base_mean, a two-sided test at alpha detects with the given power:
 * lambda * se / |base_mean| * 100, lambda the effect in standard errors at which the test's exact
 * power (noncentral t with df, stats_t_power) is the power asked. NaN for bad input. */
/* The MDE of a verdict at another level (a corrected one): verdict_mde_pct on its se and base mean, or
 * on the logs where the verdict is (log_scale), as a change in % either way. */
double verdict_mde_of(const struct verdict *v, double alpha, double power);
double verdict_mde_pct(double se, double base_mean, double df, double alpha, double power);

/* Precision of a mean: the (1 - alpha) t interval's half-width in % of the mean; +inf when n < 2
 * or the mean is 0. */
double verdict_halfwidth_pct(const double *v, size_t n, double alpha);
/* The same from a summary (its CV and n): NaN below n = 2. With looks > 1 the interval is the
 * confidence sequence's over that many looks (at alpha / looks), as --precision's rounds need. */
double verdict_summary_halfwidth_pct(const struct summary *s, double alpha, size_t looks);
/* Whether samples pin their mean to within pct % at 95 % confidence over every look a stopping rule
 * makes: at least VERDICT_PRECISION_MIN_N samples (two equal values prove nothing) and a half-width
 * <= pct of the interval at 1 - 0.05 / looks (a confidence sequence over `looks` looks, by
 * Bonferroni: the interval at whichever look the rule stops covers with 95 %). *reached gets the
 * half-width (may be NULL). looks 1: a fixed sample size. */
#define VERDICT_PRECISION_MIN_N 3
int verdict_precision_reached(const double *v, size_t n, double pct, size_t looks, double *reached);
/* Welch's and the paired test of samples that stopped at one of `looks` looks (--precision): the
 * interval at alpha / looks and p times looks (at most 1), so stopping early keeps the level. */
int verdict_welch_looks(const double *a, size_t na, const double *b, size_t nb, double alpha, double power,
			size_t looks, struct verdict *out);
int verdict_paired_looks(const double *a, const double *b, size_t n, double alpha, double power, size_t looks,
			 struct verdict *out);

/* The replicates of one side of a comparison at one task count. */
struct verdict_run {          /* one run's valid repeats at the task count */
	const double *v;
	size_t n;
};
enum verdict_source {
	VERDICT_SRC_NONE,     /* no run of the group has a value here */
	VERDICT_SRC_RUNS,     /* two or more runs: each run's mean is one sample */
	VERDICT_SRC_REPEATS,  /* one run only: its repeats, which share one window of outside load (caution) */
};
struct verdict_samples {
	double *v;            /* allocated; free with verdict_samples_free */
	size_t n;
	enum verdict_source source;
	size_t nruns;         /* runs of the group that had at least one value here */
};
/* Runs with no value (n == 0) are skipped. Always returns a filled *out (n may be 0 or 1). */
void verdict_group_samples(const struct verdict_run *runs, size_t nruns, struct verdict_samples *out);
void verdict_samples_free(struct verdict_samples *s);
/* "runs", "repeats (one run)" or "none", for captions. */
const char *verdict_source_name(enum verdict_source s);

#endif
