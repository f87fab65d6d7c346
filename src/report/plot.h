/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Jobs/Min against task count as a picture: a self-contained SVG, or gnuplot data plus script. */
#ifndef REAIM_REPORT_PLOT_H
#define REAIM_REPORT_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/curves.h"

/* One point of a curve's difference from its base, as the comparison model judged it. */
struct plot_diff_point {
	int tasks;
	double pct;               /* change of the mean, % of the base */
	double lo, hi;            /* its interval, when interval is set */
	int interval;
	int significant;          /* after the correction over every cell */
	int confounded;           /* a change the sides' outside loads cannot be told from (never significant) */
};
struct plot_diff {
	const struct plot_diff_point *pts;
	size_t n;
};

struct plot_options {
	const char *title; /* NULL for a default */
	int diff_panel;    /* add a lower panel: % difference of each curve against its base, per task count */
	const char *y_label; /* what the curves measure; NULL for "Jobs/Min" */
	/* Per curve, the index of the curve its difference is taken against (-1: none, it is a base);
	 * NULL: every curve against the first. */
	const int *diff_base;
	const char *diff_caption;      /* above the diff panel; NULL: "... against <first curve>" */
	/* Per curve, its differences from its base (NULL, or pts NULL: none): the plot draws these and
	 * computes none of its own. */
	const struct plot_diff *diffs;
	const char *diff_note;         /* under the plot: what the intervals are; NULL: not said */
	const char *diff_empty_note;   /* in an empty diff panel, why it is empty; NULL: said from the bases */
	int bars_of_runs;              /* some curve's error bars are the spread of run means, not repeats */
	double y_max;                  /* > 0: the axis ends there (100 for a percentage) */
	double level_pct;              /* the diff intervals' confidence level in % (0: 95) */
	const char *const *footer;     /* lines under the plot: each run's label, kernel and host */
	size_t footer_lines;
	const char *left_out;          /* what the plot does not draw, said under it; NULL: nothing */
	int no_xml_declaration;        /* for an SVG inlined in HTML */
};

/* A self-contained SVG: one <g class="series" data-label="..."> per curve with error bars (n >= 2, said
 * what they are under the plot), a log2 x axis when the task counts span more than a factor of 8, a legend
 * and the title. A lone curve's peak is labelled next to its point; when curves are compared, each peak
 * goes in the legend instead. The diff panel draws each curve's differences from its base as given
 * (opt->diffs, from the comparison model), each with its interval where the model has one.
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
	int tasks, repeat;        /* its panel, and its line in the panel */
	const double *t, *y;
	size_t count;
};
/* A self-contained SVG of the series: one panel per task count (small multiples sharing the y axis,
 * each its own time axis), a line per repeat of it (each a <g class="series">). y_max > 0 fixes the
 * top of the y axis (100 for a percentage). */
int plot_timeline_svg(FILE *f, const struct timeline *lines, size_t n, const char *title, const char *y_label,
		      double y_max);

/* ---- from stored runs (plot_runs.c) ---- */
struct store;
struct metric;

/* The curves one picture draws: every curve of one workload in each run (O_SYNC on and off of a run
 * made with --osync both, each labelled so), what each is compared against in the diff panel, the
 * footer lines naming each run's kernel and host, and what was left out. */
struct plot_set {
	struct curve *curves;
	size_t n;
	int *base;                /* per curve, for plot_options.diff_base */
	struct plot_diff *diffs;  /* per curve, from the comparison model */
	char *note;               /* what the intervals are */
	int bars_of_runs;
	char caption[256];        /* for plot_options.diff_caption */
	const char *empty;        /* for plot_options.diff_empty_note (a constant), NULL when drawn */
	char **footer;
	size_t nfooter;
	char *left_out;           /* NULL when everything was drawn */
	char workload[64];
	double level_pct;         /* of the intervals, from the model's alpha */
};
struct compare_group;
struct compare_model;
/* The curves of groups of runs (as compare takes them), as q asks: a group of one run draws that
 * run's curves, a group of several one curve per block of their merged samples; the differences are
 * the model's cells (model NULL: none). osync -1 takes both settings; workload NULL the first run's
 * first. 0, or -1 with the reason in err. */
struct plot_query {
	const struct compare_group *groups;
	size_t ngroups;
	const struct compare_model *model;
	const char *workload;
	int osync;
	const struct metric *m;   /* the metric the curves draw */
};
int plot_set_load(struct store *st, const struct plot_query *q, struct plot_set *out, char *err, size_t errlen);
void plot_set_free(struct plot_set *ps);
/* Options for plot_svg that draw the set (pointers into ps). */
void plot_set_options(const struct plot_set *ps, const struct metric *m, struct plot_options *opt);

/* What `reaim plot` draws and where. */
struct plot_request {
	const struct compare_group *groups; /* as compare takes them, resolved */
	size_t ngroups;
	double alpha;             /* of the model's intervals; 0: 0.05 */
	int correction;           /* enum compare_correction */
	int exclude_noisy;        /* the model judges without the points measured in noise */
	const char *workload;     /* NULL: the first run's first */
	int osync;                /* -1: both settings */
	const char *metric;       /* NULL: jobs_per_min, or sys_pct for a timeline */
	const char *format;       /* svg, png or gnuplot; NULL: png for a .png name, else svg */
	const char *out, *title;
	int diff, timeline;
	int point;                /* the timeline's one task count; 0: a panel for each */
};
/* Writes the picture (a PNG through rsvg-convert); 0, or -1 with the reason in err. Notes on what was
 * left out go to stderr as warnings. */
int report_plot(struct store *st, const struct plot_request *rq, char *err, size_t errlen);
/* An SVG document converted to PNG at path by rsvg-convert; 0, or -1 with the reason in err. */
int plot_write_png(const char *svg, size_t len, const char *path, char *err, size_t errlen);

#endif
