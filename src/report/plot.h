/* Jobs/Min against task count as a picture: a self-contained SVG, or gnuplot data plus script. */
#ifndef REAIM_PLOT_H
#define REAIM_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/curve.h"

struct plot_options {
	const char *title; /* NULL for a default */
	int diff_panel;    /* add a lower panel: % difference of each run against the first, per task count */
	const char *y_label; /* what the curves measure; NULL for "Jobs/Min" */
};

/* A self-contained SVG: one <g class="series" data-label="..."> per curve with error bars (n >= 2) and its
 * peak labelled, a log2 x axis when the task counts span more than a factor of 8, a legend and the title.
 * 0, or -1 with errno (EINVAL for bad arguments, EIO when writing failed). */
int plot_svg(FILE *f, const struct curve *curves, size_t n, const struct plot_options *opt);

/* gnuplot alternative: DATA has one line per distinct task count (tasks, then mean and std dev per curve,
 * '?' where a curve has no point); SCRIPT reads data_name and draws to out_name (PNG if it ends in
 * ".png", else SVG). 0, or -1 with errno. */
int plot_gnuplot(FILE *data, FILE *script, const char *data_name, const char *out_name,
		 const struct curve *curves, size_t n, const struct plot_options *opt);

/* Shared by the plot writers: the 1-2-5 tick step nearest above raw. */
double plot_nice_step(double raw);

/* One point's sampler series for the timeline: y against seconds into the point. */
struct timeline {
	char label[64];
	const double *t, *y;
	size_t count;
};
/* A self-contained SVG of the series, one line each (each a <g class="series">). */
int plot_timeline_svg(FILE *f, const struct timeline *lines, size_t n, const char *title, const char *y_label);

#endif
