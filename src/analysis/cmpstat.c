/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The statistics a compare cell can show of a side's samples (analysis/cmpstat.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpstat.h"
#include "util/util.h"

const struct compare_stat_row compare_stats[] = {
	[COMPARE_STAT_MEAN] = {.name = "mean", .label = "Mean", .tag = "mean", .words = "mean",
		.help = "the mean of the samples, as the verdict has it (the default)"},
	[COMPARE_STAT_MEDIAN] = {.name = "median", .label = "Median", .tag = "med", .words = "median",
		.help = "their median"},
	[COMPARE_STAT_MIN] = {.name = "min", .label = "Min", .tag = "min", .words = "minimum",
		.help = "the lowest sample"},
	[COMPARE_STAT_MAX] = {.name = "max", .label = "Max", .tag = "max", .words = "maximum",
		.help = "the highest sample"},
	[COMPARE_STAT_SD] = {.name = "sd", .label = "Stddev", .tag = "sd", .words = "standard deviation",
		.help = "their sample standard deviation (n - 1)"},
	[COMPARE_STAT_CV] = {.name = "cv", .label = "CoV%", .tag = "cv%", .words = "coefficient of variation (%)",
		.help = "their coefficient of variation: the standard deviation in % of the mean"},
	[COMPARE_NSTATS] = {.name = NULL},
};

int compare_stat_find(const char *name)
{
	for (int i = 0; compare_stats[i].name; i++)
		if (strcmp(compare_stats[i].name, name) == 0)
			return i;
	return -1;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

void compare_spread_of(const double *v, size_t n, struct compare_spread *out)
{
	for (size_t i = 0; i < COMPARE_NSTATS; i++)
		out->v[i] = NAN;
	out->n = n;
	if (!n)
		return;
	double *s = xcalloc(n, sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), by_value);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	double mean = sum / (double)n;
	out->v[COMPARE_STAT_MEAN] = mean;
	out->v[COMPARE_STAT_MEDIAN] = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	out->v[COMPARE_STAT_MIN] = s[0];
	out->v[COMPARE_STAT_MAX] = s[n - 1];
	if (n > 1) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (s[i] - mean) * (s[i] - mean);
		out->v[COMPARE_STAT_SD] = sqrt(ss / (double)(n - 1));
		if (mean != 0)
			out->v[COMPARE_STAT_CV] = 100 * out->v[COMPARE_STAT_SD] / fabs(mean);
	}
	free(s);
}
