/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sampler's time series of a run's points as a self-contained SVG: small multiples, one panel per
 * task count with a line per repeat, a system figure against seconds into the point. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "report/textout.h"
#include "util/util.h"

#define W 900.0
#define LEFT 70.0          /* room for the shared y tick labels and title */
#define RIGHT_PAD 20.0
#define TOP 64.0           /* title and legend */
#define GAP_X 18.0
#define GAP_Y 52.0         /* a panel's tick labels and the next panel's heading */
#define BOTTOM_PAD 48.0    /* the last row's tick labels and the x axis title */

/* One colour per repeat (Okabe-Ito, as the task-count plot), so repeat 2 looks the same in every panel. */
static const char *const colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};

struct panel {
	int tasks;
	double x0, y0, x1, y1;    /* plot area */
	double tmax, tstep;       /* its own time axis */
};

static const char *colour_of(int repeat)
{
	return colours[(size_t)(repeat < 0 ? 0 : repeat) % (sizeof(colours) / sizeof(colours[0]))];
}

/* Distinct task counts in the order the lines come (ascending, as stored). */
static size_t panels_of(const struct timeline *lines, size_t n, struct panel *out)
{
	size_t np = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < np && out[k].tasks != lines[i].tasks)
			k++;
		if (k == np)
			out[np++] = (struct panel){.tasks = lines[i].tasks};
		for (size_t j = 0; j < lines[i].count; j++)
			out[k].tmax = fmax(out[k].tmax, lines[i].t[j]);
	}
	return np;
}

static void y_grid(FILE *f, const struct panel *p, double ymax, double ystep, int labels)
{
	for (double y = 0; y <= ymax * 1.0001; y += ystep) {
		double py = p->y1 - (p->y1 - p->y0) * y / ymax;
		fprintf(f, "<path d=\"M%.1f %.1fH%.1f\" stroke=\"#e5e5e5\"/>", p->x0, py, p->x1);
		if (labels)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>", p->x0 - 5, py + 4, y);
		fputc('\n', f);
	}
}

static void x_grid(FILE *f, const struct panel *p)
{
	for (double x = 0; x <= p->tmax * 1.0001; x += p->tstep) {
		double px = p->x0 + (p->x1 - p->x0) * x / p->tmax;
		fprintf(f, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#eeeeee\"/><text x=\"%.1f\" y=\"%.1f\" "
			   "text-anchor=\"middle\">%g</text>\n", px, p->y0, p->y1, px, p->y1 + 14, x);
	}
}

/* A panel: heading, grid, frame and the lines of its task count. */
static void panel(FILE *f, const struct panel *p, const struct timeline *lines, size_t n, double ymax, double ystep,
		  int first_column)
{
	size_t repeats = 0;
	for (size_t i = 0; i < n; i++)
		repeats += lines[i].tasks == p->tasks;
	fprintf(f, "<g class=\"panel\" data-tasks=\"%d\" font-size=\"11\" fill=\"#333333\">\n", p->tasks);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" font-weight=\"bold\">%d task%s</text>", p->x0,
		p->y0 - 7, p->tasks, p->tasks == 1 ? "" : "s");
	if (repeats > 1)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#777777\">%zu repeats</text>", p->x1,
			p->y0 - 7, repeats);
	fputc('\n', f);
	y_grid(f, p, ymax, ystep, first_column);
	x_grid(f, p);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#555555\"/>\n",
		p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0);
	for (size_t i = 0; i < n; i++) {
		if (lines[i].tasks != p->tasks)
			continue;
		fputs("<g class=\"series\" data-label=\"", f);
		textout_xml(f, lines[i].label, SIZE_MAX);
		fprintf(f, "\">\n<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" stroke-linejoin=\"round\" "
			   "points=\"", colour_of(lines[i].repeat));
		for (size_t k = 0; k < lines[i].count; k++) {
			if (!isfinite(lines[i].t[k]) || !isfinite(lines[i].y[k]))
				continue; /* a reading the sampler could not make is left out */
			double y = fmin(fmax(lines[i].y[k], 0), ymax); /* a figure past the fixed top ends at the frame */
			fprintf(f, "%.1f,%.1f ", p->x0 + (p->x1 - p->x0) * lines[i].t[k] / p->tmax,
				p->y1 - (p->y1 - p->y0) * y / ymax);
		}
		fputs("\"/>\n</g>\n", f);
	}
	fputs("</g>\n", f);
}

/* Which colour is which repeat, when some task count was repeated. */
static void legend(FILE *f, const struct timeline *lines, size_t n)
{
	int top = 0;
	for (size_t i = 0; i < n; i++)
		top = lines[i].repeat > top ? lines[i].repeat : top;
	if (top == 0)
		return;
	fputs("<g class=\"legend\" font-size=\"12\">\n", f);
	for (int r = 0; r <= top && r < 12; r++) {
		double x = LEFT + r * 100.0;
		fprintf(f, "<path d=\"M%.1f 48h22\" stroke=\"%s\" stroke-width=\"2\"/><text x=\"%.1f\" y=\"52\">repeat "
			   "%d</text>\n", x, colour_of(r), x + 27, r + 1);
	}
	fputs("</g>\n", f);
}

int plot_timeline_svg(FILE *f, const struct timeline *lines, size_t n, const char *title, const char *y_label,
		      double y_max)
{
	struct panel *ps = calloc(n + 1, sizeof(*ps));
	if (!ps)
		return -1;
	size_t np = panels_of(lines, n, ps);
	double ymax = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < lines[i].count; k++)
			ymax = fmax(ymax, lines[i].y[k]);
	double ystep;
	if (y_max > 0) {
		ymax = y_max;
		ystep = plot_nice_step(y_max / 5);
	} else {
		ystep = plot_nice_step((ymax > 0 ? ymax * 1.05 : 1) / 4);
		ymax = ceil((ymax > 0 ? ymax * 1.05 : 1) / ystep) * ystep;
	}
	/* small multiples: a readable panel each, however many task counts the run has */
	size_t cols = np <= 1 ? 1 : np <= 4 ? 2 : np <= 9 ? 3 : 4;
	size_t rows = np ? (np + cols - 1) / cols : 1;
	double pw = (W - LEFT - RIGHT_PAD - GAP_X * (double)(cols - 1)) / (double)cols;
	double ph = cols == 1 ? 340 : cols == 2 ? 220 : 160;
	double height = TOP + 22 + (double)rows * ph + (double)(rows - 1) * GAP_Y + BOTTOM_PAD;
	for (size_t k = 0; k < np; k++) {
		struct panel *p = &ps[k];
		p->x0 = LEFT + (double)(k % cols) * (pw + GAP_X);
		p->x1 = p->x0 + pw;
		p->y0 = TOP + 22 + (double)(k / cols) * (ph + GAP_Y);
		p->y1 = p->y0 + ph;
		p->tmax = p->tmax > 0 ? p->tmax : 1;
		p->tstep = plot_nice_step(p->tmax / (cols >= 3 ? 3 : 5));
		p->tmax = ceil(p->tmax / p->tstep - 1e-9) * p->tstep;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n"
		   "<text x=\"%.1f\" y=\"28\" text-anchor=\"middle\" font-size=\"17\" font-weight=\"bold\">",
		W, height, W, height, W / 2);
	textout_xml(f, title, 90);
	fputs("</text>\n", f);
	legend(f, lines, n);
	for (size_t k = 0; k < np; k++)
		panel(f, &ps[k], lines, n, ymax, ystep, k % cols == 0);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">Seconds into the point%s</text>\n",
		(LEFT + W - RIGHT_PAD) / 2, height - 14, np > 1 ? " (each panel its own time scale)" : "");
	fprintf(f, "<text transform=\"translate(18 %.1f) rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">",
		(TOP + height - BOTTOM_PAD) / 2);
	textout_xml(f, y_label, SIZE_MAX);
	fputs("</text>\n", f);
	if (n == 0)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#777\">no system samples stored "
			   "for this run</text>\n", W / 2, TOP + 80);
	fputs("</svg>\n", f);
	free(ps);
	return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
