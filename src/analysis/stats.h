/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Significance tests that let `reaim compare` tell a real change in Jobs/Min from run-to-run noise. */
#ifndef REAIM_STATS_H
#define REAIM_STATS_H

#include <stddef.h>

#include "measure/measure.h"

/* Student's t distribution with df > 0 degrees of freedom; NaN for a bad df or p outside (0, 1). */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);

/* Mann-Whitney U test, two-sided: normal approximation with tie and continuity correction.
 * *u is U of sample a (pairs with a > b, ties counting one half); -1 if either n < 2 or a value is NaN. */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u, double *p);

/* Geometric mean of ratios; 0 if n == 0 or any ratio is not positive. */
double stats_geomean(const double *ratios, size_t n);

#endif
