/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a compare cell can show of a side's samples (--stat): the mean the verdict is made on, and the
 * median, minimum, maximum, standard deviation and coefficient of variation of the same samples; one
 * table from which the option, its help, the views' names and the JSON keys come. */
#ifndef REAIM_ANALYSIS_CMPSTAT_H
#define REAIM_ANALYSIS_CMPSTAT_H

#include <stddef.h>

enum compare_stat {
	COMPARE_STAT_MEAN,
	COMPARE_STAT_MEDIAN,
	COMPARE_STAT_MIN,
	COMPARE_STAT_MAX,
	COMPARE_STAT_SD,
	COMPARE_STAT_CV,
	COMPARE_NSTATS,
};

struct compare_stat_row {
	const char *name;         /* as --stat takes it and the CSV and JSON key it: "mean", "sd" */
	const char *label;        /* the word the wide table's rows print: "Mean", "Stddev", "CoV%" */
	const char *tag;          /* at most 5 characters, for compare's task column: "mean", "med" */
	const char *words;        /* for a sentence: "standard deviation" */
	const char *help;
};
/* Indexed by enum compare_stat; ends with a NULL name. */
extern const struct compare_stat_row compare_stats[];
/* The statistic named name, or -1. */
int compare_stat_find(const char *name);

/* Every statistic of one side's samples of a cell (NaN where too few: sd and cv need 2, cv a mean
 * other than 0); n the samples. */
struct compare_spread {
	double v[COMPARE_NSTATS];
	size_t n;
};
void compare_spread_of(const double *v, size_t n, struct compare_spread *out);

#endif
