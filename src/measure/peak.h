/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Peak search: the task count of maximum Jobs/Min with far fewer points than a full sweep. */
#ifndef REAIM_MEASURE_PEAK_H
#define REAIM_MEASURE_PEAK_H

/* Measures Jobs/Min at a task count (mean of its repeats); < 0 stops the search. */
typedef double (*peak_measure_fn)(void *ctx, int tasks);

struct peak_result {
	int tasks;          /* task count of the highest Jobs/Min measured */
	double jpm;
	int points;         /* distinct task counts measured */
	int stopped;        /* the measure function asked to stop */
};

/* Geometric growth from lo (doubling) until Jobs/Min has fallen below 90% of the best for two
 * steps or hi is reached, then a golden-section search on integers between the best point's
 * neighbours, until the bracket is narrower than 5% of the best task count (or 1 task). */
void peak_search(int lo, int hi, peak_measure_fn measure, void *ctx, struct peak_result *out);

#endif
