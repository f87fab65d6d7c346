/* The sampler's time series of a run's points as a self-contained SVG: one line per point
 * (its task count), a system figure against seconds into the point. */
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
#define H 520.0
#define LEFT 80.0
#define RIGHT (W - 30.0)
#define TOP 90.0
#define BOTTOM (H - 60.0)

static const char *const colours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
				      "#e69f00", "#56b4e9", "#000000", "#f0e442"};

static void axes(FILE *f, double tmax, double ymax, double xstep, double ystep, const char *y_label)
{
	fputs("<g class=\"plot-area\" font-size=\"12\" fill=\"#333\">\n", f);
	for (double y = 0; y <= ymax * 1.0001; y += ystep) {
		double py = BOTTOM - (BOTTOM - TOP) * y / ymax;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			LEFT, py, RIGHT, py, LEFT - 6, py + 4, y);
	}
	for (double x = 0; x <= tmax * 1.0001; x += xstep) {
		double px = LEFT + (RIGHT - LEFT) * x / tmax;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
			px, TOP, px, BOTTOM, px, BOTTOM + 18, x);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#555\"/>\n",
		LEFT, TOP, RIGHT - LEFT, BOTTOM - TOP);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">Seconds into the point</text>\n",
		(LEFT + RIGHT) / 2, H - 18);
	fprintf(f, "<text transform=\"translate(22 %.1f) rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">",
		(TOP + BOTTOM) / 2);
	textout_xml(f, y_label, SIZE_MAX);
	fputs("</text>\n</g>\n", f);
}

int plot_timeline_svg(FILE *f, const struct timeline *lines, size_t n, const char *title, const char *y_label)
{
	double tmax = 0, ymax = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < lines[i].count; k++) {
			tmax = fmax(tmax, lines[i].t[k]);
			ymax = fmax(ymax, lines[i].y[k]);
		}
	tmax = tmax > 0 ? tmax : 1;
	double xstep = plot_nice_step(tmax / 8), ystep = plot_nice_step((ymax > 0 ? ymax * 1.05 : 1) / 6);
	tmax = ceil(tmax / xstep) * xstep;
	ymax = ceil((ymax > 0 ? ymax * 1.05 : 1) / ystep) * ystep;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n"
		   "<text x=\"%.1f\" y=\"28\" text-anchor=\"middle\" font-size=\"17\" font-weight=\"bold\">",
		W, H, W, H, W / 2);
	textout_xml(f, title, SIZE_MAX);
	fputs("</text>\n", f);
	axes(f, tmax, ymax, xstep, ystep, y_label);
	for (size_t i = 0; i < n; i++) {
		const char *colour = colours[i % (sizeof(colours) / sizeof(colours[0]))];
		double lx = LEFT + (double)(i % 6) * 130, ly = 56 + (double)(i / 6) * 16;
		fprintf(f, "<g class=\"series\" data-label=\"");
		textout_xml(f, lines[i].label, SIZE_MAX);
		fprintf(f, "\">\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>"
			   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">",
			lx, ly - 4, lx + 22, ly - 4, colour, lx + 27, ly);
		textout_xml(f, lines[i].label, SIZE_MAX);
		fprintf(f, "</text>\n<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" points=\"", colour);
		for (size_t k = 0; k < lines[i].count; k++) /* a reading the sampler could not make is left out */
			if (isfinite(lines[i].t[k]) && isfinite(lines[i].y[k]))
				fprintf(f, "%.1f,%.1f ", LEFT + (RIGHT - LEFT) * lines[i].t[k] / tmax,
					BOTTOM - (BOTTOM - TOP) * lines[i].y[k] / ymax);
		fputs("\"/>\n</g>\n", f);
	}
	if (n == 0)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#777\">no system samples stored "
			   "for this run</text>\n", (LEFT + RIGHT) / 2, (TOP + BOTTOM) / 2);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
