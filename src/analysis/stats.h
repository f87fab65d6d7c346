/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Significance tests that let `reaim compare` tell a real change in Jobs/Min from run-to-run noise. */
#ifndef REAIM_ANALYSIS_STATS_H
#define REAIM_ANALYSIS_STATS_H

#include <stddef.h>

#include "measure/measure.h"

/* Student's t distribution with df > 0 degrees of freedom; NaN for a bad df or p outside (0, 1). */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);

/* The power of a two-sided t test with df degrees of freedom and critical value crit (> 0) when
 * the true effect is lambda standard errors: P(|T'| > crit) for T' noncentral t(df, lambda).
 * NaN for bad input. By quadrature over the chi distribution of the standard error's estimate. */
double stats_t_power(double lambda, double df, double crit);

/* Mann-Whitney U test, two-sided: exact without ties up to 30 values a side (3 against 3 cannot go
 * below 0.1), else the normal approximation with tie and continuity correction.
 * *u is U of sample a (pairs with a > b, ties counting one half); -1 if either n < 2 or a value is NaN. */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u, double *p);

/* Geometric mean of ratios; 0 if n == 0 or any ratio is not positive. */
double stats_geomean(const double *ratios, size_t n);

#endif
