/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Draws Jobs/Min against task count for several runs (self-contained SVG, or gnuplot data and script),
 * so kernel A and kernel B can be compared by eye. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "report/textout.h"

#define PLOT_W 900.0
#define MAIN_H 560.0      /* the whole picture without the diff panel */
#define MIN_PLOT_H 300.0  /* a long legend grows the picture instead of squashing the plot below this */
#define DIFF_GAP 46.0     /* main panel's tick labels and the diff panel's caption */
#define DIFF_PLOT_H 168.0
#define MARGIN_L 86.0
#define MARGIN_R 36.0
#define AXIS_BAND 56.0    /* below the last panel: tick labels and the "Tasks" title */
#define LEGEND_ROW 20.0
/* No font metrics without a font library: a generous average advance of 12 px sans-serif text. */
#define CHAR_W 7.0
#define SMALL_CHAR_W 7.4  /* the 11 px peak labels */
#define LEGEND_MAX_CHARS 64
#define TITLE_MAX_CHARS 82
#define CAPTION_MAX_CHARS 70
#define FOOTER_ROW 15.0
#define FOOTER_MAX_CHARS 130     /* 11 px text across the picture */
#define NOISE_ROW 20.0    /* the line under the x axis naming the noisiest point */
#define NOISE_MAX_CHARS 120

/* Okabe-Ito colours stay apart under the common colour-vision deficiencies (its yellow is unreadable on
 * white, so left out); marker shape and dash differ too, so grey-scale prints still tell series apart. */
static const char *const colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
static const char *const dashes[] = {NULL, "9 4", "2 3", "10 3 2 3"};
enum marker { M_CIRCLE, M_SQUARE, M_TRIANGLE, M_DIAMOND, M_TRIANGLE_DOWN, M_PLUS, M_CROSS, M_COUNT };
/* gnuplot's point types for the same shapes, in the same order. */
static const int gp_points[M_COUNT] = {7, 5, 9, 13, 11, 1, 2};
/* Column k (0: mean, 1: std dev, 2-4: difference, low, high) of curve i in the gnuplot data. */
#define GP_COL(i, k) (2 + 5 * (i) + (k))
#define GP_HEIGHT 560
#define GP_DIFF_HEIGHT 780
#define GP_FOOTER_ROW 15

struct axis {
	double lo, hi; /* domain in data units (log2 of the task count on a log axis) */
	double p0, p1; /* pixels of lo and hi */
	int log2;
};

struct layout {
	double width, height;
	double footer_y;               /* baseline of the first footer line */
	double left, right;            /* plot area, shared by both panels */
	double legend_y;               /* baseline of the first legend row */
	double main_top, main_bottom;
	double diff_top, diff_bottom;  /* equal when there is no diff panel */
};

struct box {
	double x0, y0, x1, y1;
};

static const char *colour_of(size_t i)
{
	return colours[i % (sizeof(colours) / sizeof(colours[0]))];
}

static const char *dash_of(size_t i)
{
	return dashes[i % (sizeof(dashes) / sizeof(dashes[0]))];
}

/* Shapes cycle out of step with the colours, so the 8th series differs from the 1st in more than its dash. */
static enum marker marker_of(size_t i)
{
	size_t ncolours = sizeof(colours) / sizeof(colours[0]);
	return (enum marker)((i + i / ncolours) % M_COUNT);
}

static int point_ok(const struct curve_point *p)
{
	return isfinite(p->jpm.mean);
}

/* The smallest task count above `after` in any curve: walks the union of task counts without storing it. */
static int next_tasks(const struct curve *c, size_t n, long after, int *out)
{
	int found = 0, best = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < c[i].count; j++) {
			int t = c[i].points[j].tasks;
			if (point_ok(&c[i].points[j]) && t > after && (!found || t < best)) {
				best = t;
				found = 1;
			}
		}
	if (found)
		*out = best;
	return found;
}

static const struct curve_point *find_point(const struct curve *c, int tasks)
{
	for (size_t j = 0; j < c->count; j++)
		if (c->points[j].tasks == tasks && point_ok(&c->points[j]))
			return &c->points[j];
	return NULL;
}

static int curve_has_points(const struct curve *c)
{
	for (size_t j = 0; j < c->count; j++)
		if (point_ok(&c->points[j]))
			return 1;
	return 0;
}

/* Index of the point with the highest mean Jobs/Min (the first on a tie), or -1. */
static long peak_index(const struct curve *c)
{
	long best = -1;
	for (size_t j = 0; j < c->count; j++)
		if (point_ok(&c->points[j]) && (best < 0 || c->points[j].jpm.mean > c->points[best].jpm.mean))
			best = (long)j;
	return best;
}

static int has_error_bar(const struct curve_point *p)
{
	return p->jpm.n >= 2 && isfinite(p->jpm.std_dev) && p->jpm.std_dev > 0;
}

/* Characters shown for s when cut at max (the ellipsis counts as one), for layout. */
static size_t shown_chars(const char *s, size_t max)
{
	size_t chars = textout_chars(s);
	return chars > max ? max + 1 : chars;
}

/* A tick or axis number: %g-like, but whole numbers in full, since "1.2e+06" reads badly on an axis. */
static void fmt_num(char *buf, size_t len, double v)
{
	if (v == 0)
		v = 0; /* no "-0" */
	if (fabs(v) >= 1000 && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

/* A Jobs/Min value as the classic table prints it (one decimal), so the peak label matches `reaim show`;
 * tiny values keep three digits instead of rounding to "0.1". */
static void fmt_jpm(char *buf, size_t len, double v)
{
	snprintf(buf, len, fabs(v) >= 10 && fabs(v) < 1e9 ? "%.1f" : "%.3g", v);
}

/* The 1-2-5 step nearest above raw, for tick spacing. */
double plot_nice_step(double raw)
{
	if (!(raw > 0) || !isfinite(raw))
		return 1;
	double p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static double axis_px(const struct axis *a, double v)
{
	double d = a->log2 ? log2(v) : v;
	return a->p0 + (d - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

/* The x domain over all task counts: log2 once they span more than a factor of 8, as scaling runs
 * (1, 2, 4 ... 1024 tasks) would otherwise crowd the interesting low counts into the first pixels. */
static void x_axis(const struct curve *c, size_t n, const struct layout *L, struct axis *a)
{
	int tmin = 0, tmax = 0, t;
	int any = next_tasks(c, n, LONG_MIN, &tmin);
	for (long after = LONG_MIN; next_tasks(c, n, after, &t); after = t)
		tmax = t;
	a->p0 = L->left;
	a->p1 = L->right;
	a->log2 = any && tmin > 0 && (double)tmax / tmin > 8;
	if (!any) {
		a->lo = 0;
		a->hi = 1;
	} else if (a->log2) {
		double pad = 0.04 * (log2(tmax) - log2(tmin));
		a->lo = log2(tmin) - pad;
		a->hi = log2(tmax) + pad;
	} else if (tmin == tmax) {
		a->lo = tmin - 1;
		a->hi = tmax + 1;
	} else {
		double pad = 0.04 * (tmax - tmin);
		a->lo = tmin - pad;
		a->hi = tmax + pad;
	}
}

/* The Jobs/Min domain: from 0 to a 1-2-5 tick above every error bar, with headroom for the peak labels,
 * or to y_max when given (a percentage ends at 100). */
static double y_axis(const struct curve *c, size_t n, const struct layout *L, double y_max, struct axis *a)
{
	double top = 0;
	a->p0 = L->main_bottom;
	a->p1 = L->main_top;
	a->log2 = 0;
	a->lo = 0;
	if (y_max > 0) {
		a->hi = y_max;
		return plot_nice_step(y_max / 5);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < c[i].count; j++) {
			const struct curve_point *p = &c[i].points[j];
			if (point_ok(p))
				top = fmax(top, p->jpm.mean + (has_error_bar(p) ? p->jpm.std_dev : 0));
		}
	top = top > 0 ? top * 1.1 : 1;
	double step = plot_nice_step(top / 6);
	a->hi = ceil(top / step - 1e-9) * step;
	return step;
}

/* Pixel of v on a y axis, held inside the axis: a bar reaching past it ends at the frame. */
static double clamped_px(const struct axis *a, double v)
{
	return axis_px(a, fmin(fmax(v, a->lo), a->hi));
}

/* The curve curve i's difference is taken against, or -1 when it is a base itself. */
static long base_of(const struct plot_options *opt, size_t n, size_t i)
{
	long b = opt->diff_base ? opt->diff_base[i] : i ? 0 : -1;
	return b >= 0 && (size_t)b < n && (size_t)b != i ? b : -1;
}

/* One curve against its base at one task count, as given. */
struct diff {
	double pct;               /* 100 * (mean / base mean - 1) */
	double lo, hi;            /* its interval, when interval is set */
	int interval, significant, confounded;
};

static int diff_at(const struct plot_options *opt, size_t i, int tasks, struct diff *out)
{
	const struct plot_diff *d = opt->diffs ? &opt->diffs[i] : NULL;
	for (size_t k = 0; d && d->pts && k < d->n; k++) {
		const struct plot_diff_point *p = &d->pts[k];
		if (p->tasks != tasks || !isfinite(p->pct))
			continue;
		out->pct = p->pct;
		out->interval = p->interval && isfinite(p->lo) && isfinite(p->hi);
		out->lo = out->interval ? p->lo : p->pct;
		out->hi = out->interval ? p->hi : p->pct;
		out->significant = p->significant;
		out->confounded = p->confounded;
		return 1;
	}
	return 0;
}

/* The % domain of the diff panel: always containing 0, at least +-1 %, on 1-2-5 ticks; the intervals
 * widen it up to -100 % and +100 % (further, a bar ends at the frame). */
static double diff_axis(const struct curve *c, size_t n, const struct plot_options *opt, const struct layout *L,
			struct axis *a)
{
	double lo = 0, hi = 0, ilo = 0, ihi = 0;
	struct diff d;
	int t;
	for (size_t i = 0; i < n; i++) {
		long b = base_of(opt, n, i);
		for (long after = LONG_MIN; b >= 0 && next_tasks(&c[i], 1, after, &t); after = t)
			if (diff_at(opt, i, t, &d)) {
				lo = fmin(lo, d.pct);
				hi = fmax(hi, d.pct);
				ilo = fmin(ilo, d.lo);
				ihi = fmax(ihi, d.hi);
			}
	}
	double pad = 0.1 * (hi - lo);
	lo = fmin(lo - pad, -1);
	hi = fmax(hi + pad, 1);
	/* intervals widen the axis up to three times the largest difference (at least 5 %, at most 100 %),
	 * so a wide interval does not flatten the differences into the zero line */
	double reach = fmin(fmax(3 * fmax(-lo, hi), 5), 100);
	lo = fmin(lo, fmax(ilo, -reach));
	hi = fmax(hi, fmin(ihi, reach));
	double step = plot_nice_step((hi - lo) / 4);
	a->lo = floor(lo / step + 1e-9) * step;
	a->hi = ceil(hi / step - 1e-9) * step;
	a->p0 = L->diff_bottom;
	a->p1 = L->diff_top;
	a->log2 = 0;
	return step;
}

/* Two or more curves with points: the peaks go in the legend rather than beside the points. */
static int comparing(const struct curve *c, size_t n)
{
	size_t with = 0;
	for (size_t i = 0; i < n; i++)
		with += curve_has_points(&c[i]) != 0;
	return with >= 2;
}

/* "peak 4321.5 @ 32", or "" for a curve without points. */
static void peak_text(const struct curve *c, char *buf, size_t len)
{
	char val[64];
	long pk = peak_index(c);
	buf[0] = '\0';
	if (pk < 0)
		return;
	fmt_jpm(val, sizeof(val), c->points[pk].jpm.mean);
	snprintf(buf, len, "peak %s @ %d", val, c->points[pk].tasks);
}

/* Lays the legend out in rows from x0 to x1 starting at baseline y, drawing it when f is not NULL; returns the rows. */
static int legend(FILE *f, const struct curve *c, size_t n, double x0, double x1, double y);

/* Where everything goes: the legend's rows decide where the plot starts. */
static void layout(const struct curve *c, size_t n, const struct plot_options *opt, int subtitle, size_t footer,
		   struct layout *L)
{
	L->width = PLOT_W;
	L->left = MARGIN_L;
	L->right = PLOT_W - MARGIN_R;
	L->legend_y = subtitle ? 66 : 54;
	int rows = legend(NULL, c, n, L->left, L->right, L->legend_y);
	L->main_top = L->legend_y + (rows - 1) * LEGEND_ROW + 24;
	L->main_bottom = L->main_top + fmax(MIN_PLOT_H, MAIN_H - L->main_top - AXIS_BAND);
	L->diff_top = L->diff_bottom = L->main_bottom;
	if (opt->diff_panel) {
		L->diff_top = L->main_bottom + DIFF_GAP;
		L->diff_bottom = L->diff_top + DIFF_PLOT_H;
	}
	L->footer_y = L->diff_bottom + AXIS_BAND + 6;
	L->height = L->footer_y + (double)footer * FOOTER_ROW + (footer ? 4 : 0);
}

static void marker(FILE *f, enum marker shape, double x, double y, const char *colour)
{
	const char *fill = "stroke=\"#ffffff\" stroke-width=\"0.8\"";
	switch (shape) {
	case M_CIRCLE:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.2\" fill=\"%s\" %s/>", x, y, colour, fill);
		break;
	case M_SQUARE:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7.6\" height=\"7.6\" fill=\"%s\" %s/>", x - 3.8, y - 3.8,
			colour, fill);
		break;
	case M_TRIANGLE:
		fprintf(f, "<path d=\"M%.1f %.1fl5 8.4h-10z\" fill=\"%s\" %s/>", x, y - 5.4, colour, fill);
		break;
	case M_DIAMOND:
		fprintf(f, "<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"%s\" %s/>", x, y - 5, colour, fill);
		break;
	case M_TRIANGLE_DOWN:
		fprintf(f, "<path d=\"M%.1f %.1fl5 -8.4h-10z\" fill=\"%s\" %s/>", x, y + 5.4, colour, fill);
		break;
	case M_PLUS:
		fprintf(f, "<path d=\"M%.1f %.1fh10M%.1f %.1fv10\" stroke=\"%s\" stroke-width=\"2.2\" fill=\"none\"/>",
			x - 5, y, x, y - 5, colour);
		break;
	default:
		fprintf(f, "<path d=\"M%.1f %.1fl8 8M%.1f %.1fl-8 8\" stroke=\"%s\" stroke-width=\"2.2\" fill=\"none\"/>",
			x - 4, y - 4, x + 4, y - 4, colour);
		break;
	}
}

static void line_style(FILE *f, size_t i)
{
	fprintf(f, " fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-linejoin=\"round\"", colour_of(i));
	if (dash_of(i))
		fprintf(f, " stroke-dasharray=\"%s\"", dash_of(i));
}

static int legend(FILE *f, const struct curve *c, size_t n, double x0, double x1, double y)
{
	int rows = 1, peaks = comparing(c, n);
	double x = x0;
	char peak[96];
	if (f)
		fputs("<g class=\"legend\">\n", f);
	for (size_t i = 0; i < n; i++) {
		int empty = !curve_has_points(&c[i]);
		peak_text(&c[i], peak, sizeof(peak));
		size_t extra = empty ? 18 : peaks ? strlen(peak) + 3 : 0;
		double w = 38 + CHAR_W * (double)(shown_chars(c[i].label, LEGEND_MAX_CHARS) + extra);
		if (x > x0 && x + w > x1) {
			x = x0;
			y += LEGEND_ROW;
			rows++;
		}
		if (f) {
			fprintf(f, "<path d=\"M%.1f %.1fh30\"", x, y - 4);
			line_style(f, i);
			fputs("/>", f);
			marker(f, marker_of(i), x + 15, y - 4, colour_of(i));
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s>", x + 36, y, empty ? " fill=\"#777777\"" : "");
			textout_xml(f, c[i].label, LEGEND_MAX_CHARS, 0);
			if (empty)
				fputs(" (no valid points)", f);
			else if (peaks)
				fprintf(f, " &#8212; <tspan class=\"peak\" font-weight=\"bold\" fill=\"%s\">%s</tspan>",
					colour_of(i), peak);
			fputs("</text>\n", f);
		}
		x += w + 16;
	}
	if (f)
		fputs("</g>\n", f);
	return rows;
}

/* The workload and O_SYNC setting when every run shares them, else "". */
static void common_workload(const struct curve *c, size_t n, char *buf, size_t len)
{
	const struct curve *first = NULL;
	int same_osync = 1;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!c[i].count)
			continue;
		if (!first)
			first = &c[i];
		else if (strcmp(first->workload, c[i].workload))
			return;
		same_osync &= !first->osync == !c[i].osync;
	}
	if (first && first->workload[0] && same_osync)
		snprintf(buf, len, "workload %s, O_SYNC %s", first->workload, first->osync ? "on" : "off");
	else if (first && first->workload[0])
		snprintf(buf, len, "workload %s, O_SYNC on and off", first->workload);
}

static void header(FILE *f, const struct layout *L, const char *title, const char *subtitle, int declaration)
{
	if (declaration)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
		   "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
		L->width, L->height, L->width, L->height);
	fputs("<title>", f);
	textout_xml(f, title, SIZE_MAX, 0);
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", L->width, L->height);
	fprintf(f, "<text class=\"title\" x=\"%.1f\" y=\"28\" text-anchor=\"middle\" font-size=\"17\" "
		   "font-weight=\"bold\">", L->width / 2);
	textout_xml(f, title, TITLE_MAX_CHARS, 0);
	fputs("</text>\n", f);
	if (subtitle[0]) {
		fprintf(f, "<text x=\"%.1f\" y=\"46\" text-anchor=\"middle\" fill=\"#555555\">", L->width / 2);
		textout_xml(f, subtitle, TITLE_MAX_CHARS, 0);
		fputs("</text>\n", f);
	}
}

static void y_title(FILE *f, double top, double bottom, const char *text)
{
	double cy = (top + bottom) / 2;
	fprintf(f, "<text x=\"20\" y=\"%.1f\" transform=\"rotate(-90 20 %.1f)\" text-anchor=\"middle\" "
		   "font-size=\"13\">", cy, cy);
	textout_xml(f, text, SIZE_MAX, 0);
	fputs("</text>\n", f);
}

/* Horizontal grid and y tick labels of one panel; percent adds signs and "%" and stresses the 0 line. */
static void y_ticks(FILE *f, const struct layout *L, const struct axis *a, double step, int percent)
{
	char num[48];
	for (long k = 0;; k++) {
		double v = a->lo + (double)k * step;
		if (v > a->hi + step * 1e-6)
			break;
		if (fabs(v) < step * 1e-6)
			v = 0;
		double y = axis_px(a, v);
		int zero = percent && v == 0;
		fprintf(f, "<path d=\"M%.1f %.1fH%.1f\" stroke=\"%s\" stroke-width=\"%s\"/>", L->left, y, L->right,
			zero ? "#444444" : "#e4e4e4", zero ? "1.3" : "1");
		fprintf(f, "<path d=\"M%.1f %.1fh5\" stroke=\"#444444\"/>", L->left - 5, y);
		fmt_num(num, sizeof(num), v);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s%s%s</text>\n", L->left - 8, y + 4,
			percent && v > 0 ? "+" : "", num, percent ? "%" : "");
	}
}

/* Vertical grid, ticks and labels at the measured task counts, skipping labels that would collide. */
static void x_ticks(FILE *f, const struct curve *c, size_t n, const struct axis *a, double top, double bottom)
{
	char num[32];
	double last_right = -1e9;
	int t;
	for (long after = LONG_MIN; next_tasks(c, n, after, &t); after = t) {
		double x = axis_px(a, t);
		snprintf(num, sizeof(num), "%d", t);
		double half = CHAR_W * (double)strlen(num) / 2;
		fprintf(f, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#eeeeee\"/>", x, top, bottom);
		fprintf(f, "<path d=\"M%.1f %.1fv5\" stroke=\"#444444\"/>", x, bottom);
		if (x - half >= last_right + 6) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>", x, bottom + 19, num);
			last_right = x + half;
		}
		fputc('\n', f);
	}
}

static void frame(FILE *f, const struct layout *L, double top, double bottom)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444444\"/>\n",
		L->left, top, L->right - L->left, bottom - top);
}

static void note(FILE *f, const struct layout *L, double top, double bottom, const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#777777\" font-size=\"14\">%s</text>\n",
		(L->left + L->right) / 2, (top + bottom) / 2 - 12, text);
}

/* Each point's bar, shifted dx pixels so bars of curves sharing a task count stay apart. */
static void error_bars(FILE *f, const struct curve *c, const struct axis *xa, const struct axis *ya, double dx)
{
	for (size_t j = 0; j < c->count; j++) {
		const struct curve_point *p = &c->points[j];
		if (!point_ok(p) || !has_error_bar(p))
			continue;
		char mean[48], sd[48];
		double x = axis_px(xa, p->tasks) + dx;
		double y0 = clamped_px(ya, p->jpm.mean - p->jpm.std_dev);
		double y1 = clamped_px(ya, p->jpm.mean + p->jpm.std_dev);
		fmt_num(mean, sizeof(mean), p->jpm.mean);
		fmt_num(sd, sizeof(sd), p->jpm.std_dev);
		fprintf(f, "<path class=\"error-bar\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" stroke-width=\"1.3\">"
			   "<title>%d tasks: mean %s \xc2\xb1 %s (1 standard deviation), n = %zu</title></path>\n",
			x, y0, y1, x - 4, y0, x - 4, y1, p->tasks, mean, sd, p->jpm.n);
	}
}

/* One run in the main panel: error bars under the line, markers on top, a ring round the peak. */
static void series(FILE *f, const struct curve *c, size_t i, const struct axis *xa, const struct axis *ya,
		   double dx)
{
	fputs("<g class=\"series\" data-label=\"", f);
	textout_xml(f, c->label, SIZE_MAX, 0);
	fprintf(f, "\" fill=\"none\" stroke=\"%s\">\n", colour_of(i));
	error_bars(f, c, xa, ya, dx);
	fputs("<polyline points=\"", f);
	for (size_t j = 0; j < c->count; j++)
		if (point_ok(&c->points[j]))
			fprintf(f, "%.1f,%.1f ", axis_px(xa, c->points[j].tasks), clamped_px(ya, c->points[j].jpm.mean));
	fputs("\"", f);
	line_style(f, i);
	fputs("/>\n", f);
	for (size_t j = 0; j < c->count; j++)
		if (point_ok(&c->points[j]))
			marker(f, marker_of(i), axis_px(xa, c->points[j].tasks),
			       clamped_px(ya, c->points[j].jpm.mean), colour_of(i));
	long pk = peak_index(c);
	if (pk >= 0)
		fprintf(f, "\n<circle class=\"peak\" cx=\"%.1f\" cy=\"%.1f\" r=\"8.5\" stroke-width=\"1.6\"/>",
			axis_px(xa, c->points[pk].tasks), clamped_px(ya, c->points[pk].jpm.mean));
	/* a dashed grey ring round a point measured in noise, its reason as the tooltip */
	for (size_t j = 0; j < c->count; j++) {
		const struct curve_point *p = &c->points[j];
		if (!point_ok(p) || !p->noisy)
			continue;
		fprintf(f, "\n<circle class=\"noisy\" cx=\"%.1f\" cy=\"%.1f\" r=\"12\" stroke=\"#777777\" "
			   "stroke-width=\"1.2\" stroke-dasharray=\"3 2\"><title>noisy, %zu of %zu rounds: ",
			axis_px(xa, p->tasks), clamped_px(ya, p->jpm.mean), p->noisy, p->jpm.n);
		textout_xml(f, p->noise, SIZE_MAX, 0);
		fputs("</title></circle>", f);
	}
	fputs("\n</g>\n", f);
}

/* The noisiest point of all the curves, as a line for under the plot; "" when none is noisy. */
static void noise_line(const struct curve *c, size_t n, char *buf, size_t len)
{
	const struct curve *wc = NULL;
	const struct curve_point *worst = NULL;
	size_t points = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < c[i].count; j++) {
			const struct curve_point *p = &c[i].points[j];
			if (!point_ok(p) || !p->noisy)
				continue;
			points++;
			if (!worst) {
				worst = p;
				wc = &c[i];
			}
		}
	if (worst)
		snprintf(buf, len, "Noisy (dashed rings): %zu point%s, e.g. %s at %d tasks of %s", points,
			 points == 1 ? "" : "s", worst->noise, worst->tasks, wc->label);
}

static int overlaps(const struct box *a, const struct box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static int overlaps_any(const struct box *b, const struct box *placed, size_t count)
{
	for (size_t k = 0; k < count; k++)
		if (overlaps(b, &placed[k]))
			return 1;
	return 0;
}

/* Every marker with its error bar as a box, so peak labels are not laid over measured points. */
static size_t point_boxes(const struct curve *c, size_t n, const struct axis *xa, const struct axis *ya,
			  struct box *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < c[i].count; j++) {
			const struct curve_point *p = &c[i].points[j];
			if (!point_ok(p))
				continue;
			double x = axis_px(xa, p->tasks), y = clamped_px(ya, p->jpm.mean);
			double top = y - 6, bottom = y + 6;
			if (has_error_bar(p)) {
				top = fmin(top, clamped_px(ya, p->jpm.mean + p->jpm.std_dev));
				bottom = fmax(bottom, clamped_px(ya, p->jpm.mean - p->jpm.std_dev));
			}
			out[k].x0 = x - 6;
			out[k].x1 = x + 6;
			out[k].y0 = top;
			out[k].y1 = bottom;
			k++;
		}
	return k;
}

/* A label box of width w whose left edge is x0, with baseline y, kept inside the plot. */
static struct box label_box(const struct layout *L, double x0, double y, double w)
{
	x0 = fmin(fmax(x0, L->left + 4), L->right - 4 - w);
	y = fmin(fmax(y, L->main_top + 13), L->main_bottom - 5);
	struct box b = {x0, y - 11, x0 + w, y + 3};
	return b;
}

/* Whether the segment (ax, ay)-(bx, by) passes through the box (sampled: boxes are bigger than a step). */
static int crosses(const struct box *b, double ax, double ay, double bx, double by)
{
	for (int k = 0; k <= 32; k++) {
		double x = ax + (bx - ax) * k / 32, y = ay + (by - ay) * k / 32;
		if (x > b->x0 && x < b->x1 && y > b->y0 && y < b->y1)
			return 1;
	}
	return 0;
}

/* Whether any curve's line passes through the box. */
static int crosses_lines(const struct box *b, const struct curve *c, size_t n, const struct axis *xa,
			 const struct axis *ya)
{
	for (size_t i = 0; i < n; i++) {
		const struct curve_point *prev = NULL;
		for (size_t j = 0; j < c[i].count; j++) {
			const struct curve_point *p = &c[i].points[j];
			if (!point_ok(p))
				continue;
			if (prev && crosses(b, axis_px(xa, prev->tasks), clamped_px(ya, prev->jpm.mean), axis_px(xa, p->tasks),
					    clamped_px(ya, p->jpm.mean)))
				return 1;
			prev = p;
		}
	}
	return 0;
}

/* Places the peak label beside its point: right of the marker, else left of it, else above or below,
 * the first place that clears the measured points and the lines; failing that, one that clears the points. */
/* What a label must clear: the curves' lines and the boxes already placed. */
struct obstacles {
	const struct curve *c;
	size_t n;
	const struct box *placed;
	size_t count;
};

static struct box place_label(const struct layout *L, const struct axis *xa, const struct axis *ya,
			      const struct curve_point *p, double w, const struct obstacles *o)
{
	const struct curve *c = o->c;
	size_t n = o->n, count = o->count;
	const struct box *placed = o->placed;
	double x = axis_px(xa, p->tasks), y = clamped_px(ya, p->jpm.mean);
	double top = has_error_bar(p) ? clamped_px(ya, p->jpm.mean + p->jpm.std_dev) : y - 6;
	double bottom = has_error_bar(p) ? clamped_px(ya, p->jpm.mean - p->jpm.std_dev) : y + 6;
	const struct box tries[] = {
		label_box(L, x + 11, y + 4, w),      label_box(L, x - 11 - w, y + 4, w),
		label_box(L, x + 9, y - 10, w),      label_box(L, x - 9 - w, y - 10, w),
		label_box(L, x + 9, y + 20, w),      label_box(L, x - 9 - w, y + 20, w),
		label_box(L, x - w / 2, top - 4, w), label_box(L, x - w / 2, bottom + 14, w),
	};
	size_t ntries = sizeof(tries) / sizeof(tries[0]);
	for (size_t k = 0; k < ntries; k++)
		if (!overlaps_any(&tries[k], placed, count) && !crosses_lines(&tries[k], c, n, xa, ya))
			return tries[k];
	for (size_t k = 0; k < ntries; k++)
		if (!overlaps_any(&tries[k], placed, count))
			return tries[k];
	return tries[0];
}

/* The peak value beside the point of a lone curve, on a white plate so grid and lines do not cut
 * through it (a paint-order halo would be neater, but not every SVG renderer honours it). When curves
 * are compared the legend carries each peak instead: labels of close peaks would pile up. */
static int peak_labels(FILE *f, const struct layout *L, const struct curve *c, size_t n, const struct axis *xa,
		       const struct axis *ya)
{
	size_t points = 0, count;
	char text[128];
	if (comparing(c, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		points += c[i].count;
	struct box *placed = calloc(points + n + 1, sizeof(*placed));
	if (!placed)
		return -1;
	count = point_boxes(c, n, xa, ya, placed);
	fputs("<g class=\"peak-labels\" font-size=\"11\" font-weight=\"bold\">\n", f);
	for (size_t i = 0; i < n; i++) {
		long pk = peak_index(&c[i]);
		if (pk < 0)
			continue;
		const struct curve_point *p = &c[i].points[pk];
		peak_text(&c[i], text, sizeof(text));
		const struct obstacles o = {.c = c, .n = n, .placed = placed, .count = count};
		struct box b = place_label(L, xa, ya, p, SMALL_CHAR_W * (double)strlen(text), &o);
		placed[count++] = b;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"2\" fill=\"#ffffff\" "
			   "fill-opacity=\"0.85\"/>", b.x0 - 2, b.y0 - 1, b.x1 - b.x0 + 4, b.y1 - b.y0 + 2);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text>\n", b.x0, b.y1 - 3, colour_of(i), text);
	}
	fputs("</g>\n", f);
	free(placed);
	return 0;
}

/* One curve's % difference from its base, with each interval as a bar (no cap where the frame cuts it). */
static void diff_series(FILE *f, const struct curve *c, size_t n, const struct plot_options *opt, size_t i,
			const struct axis *xa, const struct axis *ya)
{
	long b = base_of(opt, n, i);
	struct diff d;
	int t;
	if (b < 0)
		return;
	fputs("<g class=\"diff-series\" data-label=\"", f);
	textout_xml(f, c[i].label, SIZE_MAX, 0);
	fprintf(f, "\" fill=\"none\" stroke=\"%s\">\n", colour_of(i));
	for (long after = LONG_MIN; next_tasks(&c[i], 1, after, &t); after = t) {
		if (!diff_at(opt, i, t, &d))
			continue;
		if (!d.interval) {
			/* not judged or unbounded: a dashed bar over the whole panel, never a precise-looking point */
			fprintf(f, "<path class=\"diff-unknown\" d=\"M%.1f %.1fV%.1f\" stroke-width=\"1\" "
				   "stroke-dasharray=\"3,3\" data-tasks=\"%d\" data-pct=\"%.4f\"><title>%d tasks: %+.1f %%, "
				   "no interval (not judged, or unbounded)</title></path>\n",
				axis_px(xa, t), clamped_px(ya, ya->lo), clamped_px(ya, ya->hi), t, d.pct, t, d.pct);
			continue;
		}
		double x = axis_px(xa, t), y0 = clamped_px(ya, d.lo), y1 = clamped_px(ya, d.hi);
		fprintf(f, "<path class=\"diff-interval\" d=\"M%.1f %.1fV%.1f", x, y0, y1);
		if (d.lo >= ya->lo)
			fprintf(f, "M%.1f %.1fh8", x - 4, y0);
		if (d.hi <= ya->hi)
			fprintf(f, "M%.1f %.1fh8", x - 4, y1);
		fprintf(f, "\" stroke-width=\"1.3\" data-tasks=\"%d\" data-pct=\"%.4f\" data-lo=\"%.4f\" data-hi=\"%.4f\">"
			   "<title>%d tasks: %+.1f %%, interval %+.1f %% to %+.1f %%%s</title></path>\n", t, d.pct, d.lo, d.hi,
			t, d.pct, d.lo, d.hi,
			d.significant ? ", significant" : d.confounded ? ", confounded with the outside load" : "");
	}
	fputs("<polyline points=\"", f);
	for (long after = LONG_MIN; next_tasks(&c[i], 1, after, &t); after = t)
		if (diff_at(opt, i, t, &d))
			fprintf(f, "%.1f,%.1f ", axis_px(xa, t), clamped_px(ya, d.pct));
	fputs("\"", f);
	line_style(f, i);
	fputs("/>\n", f);
	for (long after = LONG_MIN; next_tasks(&c[i], 1, after, &t); after = t)
		if (diff_at(opt, i, t, &d))
			marker(f, marker_of(i), axis_px(xa, t), clamped_px(ya, d.pct), colour_of(i));
	fputs("\n</g>\n", f);
}

/* What the diff panel can draw: 0 nothing, 1 differences, 2 differences with intervals. */
static int any_diff(const struct curve *c, size_t n, const struct plot_options *opt)
{
	struct diff d;
	int t, found = 0;
	for (size_t i = 0; i < n; i++) {
		long b = base_of(opt, n, i);
		for (long after = LONG_MIN; b >= 0 && next_tasks(&c[i], 1, after, &t); after = t)
			if (diff_at(opt, i, t, &d))
				found = d.interval ? 2 : found ? found : 1;
	}
	return found;
}

static int any_base(size_t n, const struct plot_options *opt)
{
	for (size_t i = 0; i < n; i++)
		if (base_of(opt, n, i) >= 0)
			return 1;
	return 0;
}

/* The lower panel: each curve's % difference against its base, at the task counts both have. */
static void diff_panel(FILE *f, const struct layout *L, const struct curve *c, size_t n,
		       const struct plot_options *opt, const struct axis *xa, const char *y_label)
{
	struct axis ya;
	double step = diff_axis(c, n, opt, L, &ya);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555555\">", L->left, L->diff_top - 8);
	if (opt->diff_caption) {
		textout_xml(f, opt->diff_caption, CAPTION_MAX_CHARS * 2, 0);
	} else if (n) {
		textout_xml(f, y_label, CAPTION_MAX_CHARS, 0);
		fputs(" difference against ", f);
		textout_xml(f, c[0].label, CAPTION_MAX_CHARS, 0);
		fputs(" (the first run), at the task counts both have", f);
	}
	fputs("</text>\n", f);
	fputs("<g class=\"plot-area\" data-panel=\"diff\">\n", f);
	y_ticks(f, L, &ya, step, 1);
	x_ticks(f, c, n, xa, L->diff_top, L->diff_bottom);
	frame(f, L, L->diff_top, L->diff_bottom);
	fputs("</g>\n", f);
	y_title(f, L->diff_top, L->diff_bottom, "Difference (%)");
	if (!any_diff(c, n, opt))
		note(f, L, L->diff_top, L->diff_bottom,
		     opt->diff_empty_note ? opt->diff_empty_note
		     : !any_base(n, opt) ? "needs two or more runs" : "no task counts in common with the base");
	for (size_t i = 0; i < n; i++)
		diff_series(f, c, n, opt, i, xa, &ya);
}

static void main_panel(FILE *f, const struct layout *L, const struct curve *c, size_t n, const struct axis *xa,
		       const struct axis *ya, double step, const char *y_label)
{
	fputs("<g class=\"plot-area\" data-panel=\"jobs-per-min\">\n", f);
	y_ticks(f, L, ya, step, 0);
	x_ticks(f, c, n, xa, L->main_top, L->main_bottom);
	frame(f, L, L->main_top, L->main_bottom);
	fputs("</g>\n", f);
	y_title(f, L->main_top, L->main_bottom, y_label);
	int t;
	if (!next_tasks(c, n, LONG_MIN, &t))
		note(f, L, L->main_top, L->main_bottom, "no valid points");
	double dodge = n > 1 ? fmin(3, 24 / (double)(n - 1)) : 0;
	for (size_t i = 0; i < n; i++)
		series(f, &c[i], i, xa, ya, ((double)i - (double)(n - 1) / 2) * dodge);
}

static int finish(FILE *f)
{
	if (fflush(f) != 0 || ferror(f)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* What the error bars are: "+-1 standard deviation of the repeats, n = 3 per task count". */
static void error_bar_note(const struct curve *c, size_t n, int of_runs, char *buf, size_t len)
{
	size_t lo = SIZE_MAX, hi = 0, single = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < c[i].count; j++) {
			const struct curve_point *p = &c[i].points[j];
			if (!point_ok(p))
				continue;
			if (p->jpm.n < 2) {
				single++;
				continue;
			}
			lo = p->jpm.n < lo ? p->jpm.n : lo;
			hi = p->jpm.n > hi ? p->jpm.n : hi;
		}
	if (hi == 0) {
		snprintf(buf, len, "No error bars: one repeat per task count (-r 2 or more measures the spread).");
		return;
	}
	char range[64];
	snprintf(range, sizeof(range), lo == hi ? "%zu" : "%zu to %zu", lo, hi);
	snprintf(buf, len, "Error bars: mean \xc2\xb1 1 standard deviation of the %s, n = %s per task count%s.",
		 of_runs ? "samples (each run's mean where a side has 2 or more runs, else the repeats)" : "repeats",
		 range, single ? "; points without a bar had one repeat" : "");
}

/* Lines under the plot: what the error bars and the diff panel's bars are, each run's label, kernel
 * and host, what was left out, and the noisiest point. */
struct footer_text {
	const char **lines;       /* each within FOOTER_MAX_CHARS, broken at words */
	size_t n;
	size_t left_from, left_to; /* the lines of what was left out, said in their own colour */
	char bars[320], diff[400], noise[400];
	char **pieces;            /* the lines, owned */
};

/* Break text at spaces into lines of at most width bytes (a longer word alone on its line) appended to
 * ft's lines; -1 (ENOMEM). */
static int footer_wrap(struct footer_text *ft, size_t *cap, const char *text, size_t width)
{
	const char *s = text + strspn(text, " ");
	do { /* once for an empty text: its row stays */
		size_t len = strlen(s), end = len;
		if (len > width) {
			end = 0;
			for (size_t k = 1; k <= width; k++) /* the last space within width */
				if (s[k] == ' ')
					end = k;
			if (end == 0)
				end = strcspn(s, " ");
		}
		if (ft->n == *cap) {
			size_t c2 = *cap * 2 + 4;
			const char **l = realloc(ft->lines, c2 * sizeof(*l));
			char **p = l ? realloc(ft->pieces, c2 * sizeof(*p)) : NULL;
			if (l)
				ft->lines = l;
			if (!p)
				return -1;
			ft->pieces = p;
			*cap = c2;
		}
		if (!(ft->pieces[ft->n] = strndup(s, end)))
			return -1;
		ft->lines[ft->n] = ft->pieces[ft->n];
		ft->n++;
		s += end;
		s += strspn(s, " ");
	} while (*s);
	return 0;
}

static void footer_text_free(struct footer_text *ft)
{
	for (size_t i = 0; ft->pieces && i < ft->n; i++)
		free(ft->pieces[i]);
	free(ft->pieces);
	free(ft->lines);
}

/* 0, or -1 (ENOMEM); footer_text_free after either. */
static int footer_text(struct footer_text *ft, const struct curve *c, size_t n, const struct plot_options *opt)
{
	size_t max = opt->footer_lines + 4, cap = 0;
	const char **raw = calloc(max, sizeof(*raw));
	size_t nraw = 0, left = SIZE_MAX;
	*ft = (struct footer_text){0};
	if (!raw) {
		errno = ENOMEM;
		return -1;
	}
	error_bar_note(c, n, opt->bars_of_runs, ft->bars, sizeof(ft->bars));
	raw[nraw++] = ft->bars;
	int d = opt->diff_panel ? any_diff(c, n, opt) : 0;
	if (d) {
		if (d == 2)
			snprintf(ft->diff, sizeof(ft->diff), "Difference panel: bars are %s.",
				 opt->diff_note ? opt->diff_note : "the intervals given");
		else
			snprintf(ft->diff, sizeof(ft->diff), "Difference panel: no intervals, a side has fewer than two "
				 "samples.");
		raw[nraw++] = ft->diff;
	}
	for (size_t i = 0; i < opt->footer_lines && nraw + 1 < max; i++)
		raw[nraw++] = opt->footer[i];
	if (opt->left_out && opt->left_out[0]) {
		left = nraw;
		raw[nraw++] = opt->left_out;
	}
	noise_line(c, n, ft->noise, sizeof(ft->noise));
	if (ft->noise[0] && nraw < max)
		raw[nraw++] = ft->noise; /* the noisiest point named under the plot */
	int rc = 0;
	ft->left_from = ft->left_to = SIZE_MAX;
	for (size_t i = 0; i < nraw && rc == 0; i++) {
		if (i == left)
			ft->left_from = ft->n;
		rc = footer_wrap(ft, &cap, raw[i], FOOTER_MAX_CHARS);
		if (i == left)
			ft->left_to = ft->n;
	}
	free(raw);
	if (rc < 0)
		errno = ENOMEM;
	return rc;
}

static void footer(FILE *f, const struct layout *L, const struct footer_text *ft)
{
	fputs("<g class=\"footer\" font-size=\"11\" fill=\"#555555\">\n", f);
	for (size_t i = 0; i < ft->n; i++) {
		int left = i >= ft->left_from && i < ft->left_to;
		fprintf(f, "<text x=\"12\" y=\"%.1f\"%s>", L->footer_y + FOOTER_ROW * (double)i + 10,
			left ? " fill=\"#a03000\" class=\"left-out\"" : "");
		textout_xml(f, ft->lines[i], SIZE_MAX, 0);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

int plot_svg(FILE *f, const struct curve *curves, size_t n, const struct plot_options *opt)
{
	static const struct plot_options defaults = {0};
	struct layout L;
	struct axis xa, ya;
	char sub[256];
	struct footer_text ft;
	if (!f || (n && !curves) || (opt && opt->footer_lines && !opt->footer)) {
		errno = EINVAL;
		return -1;
	}
	opt = opt ? opt : &defaults;
	if (footer_text(&ft, curves, n, opt) < 0) {
		footer_text_free(&ft);
		return -1;
	}
	size_t nfoot = ft.n;
	common_workload(curves, n, sub, sizeof(sub));
	layout(curves, n, opt, sub[0] != '\0', nfoot, &L);
	x_axis(curves, n, &L, &xa);
	double step = y_axis(curves, n, &L, opt->y_max, &ya);
	char title[96];
	const char *y_label = opt->y_label ? opt->y_label : "Jobs/Min";
	snprintf(title, sizeof(title), "%s by task count", y_label);
	header(f, &L, opt->title && opt->title[0] ? opt->title : title, sub, !opt->no_xml_declaration);
	legend(f, curves, n, L.left, L.right, L.legend_y);
	main_panel(f, &L, curves, n, &xa, &ya, step, y_label);
	if (opt->diff_panel)
		diff_panel(f, &L, curves, n, opt, &xa, y_label);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"13\">Tasks%s</text>\n",
		(L.left + L.right) / 2, L.diff_bottom + AXIS_BAND - 14, xa.log2 ? " (log2 scale)" : "");
	footer(f, &L, &ft);
	footer_text_free(&ft);
	if (peak_labels(f, &L, curves, n, &xa, &ya) < 0) {
		errno = ENOMEM;
		return -1;
	}
	fputs("</svg>\n", f);
	return finish(f);
}

/* A gnuplot single-quoted string of s and suffix: only ' needs doubling there, and a control character
 * would end the command. */
static void gp_string(FILE *f, const char *s, const char *suffix)
{
	fputc('\'', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\'')
			fputs("''", f);
		else
			fputc(*p < 0x20 || *p == 0x7f ? ' ' : *p, f);
	}
	fprintf(f, "%s'", suffix);
}

/* Five columns per curve: mean, std dev, and % difference from its base with its interval ('?' where
 * there is no point or no base). */
static void gp_data(FILE *data, const struct curve *c, size_t n, const struct plot_options *opt)
{
	int t;
	fprintf(data, "# reaim plot data: tasks, then per curve the mean, its std dev, and the %% difference from its base\n"
		      "# with the low and high ends of its %g %% interval ('?' where a curve has no point or no base;\n"
		      "# -100 to 100 where it has no interval: not judged, or unbounded)\n",
		opt->level_pct > 0 ? opt->level_pct : 95);
	for (size_t i = 0; i < n; i++) {
		long b = base_of(opt, n, i);
		fprintf(data, "# columns %zu-%zu: ", GP_COL(i, 0), GP_COL(i, 4));
		for (const char *s = c[i].label; *s; s++)
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, data);
		if (b >= 0)
			fprintf(data, " (difference from columns %zu-%zu)", GP_COL((size_t)b, 0), GP_COL((size_t)b, 1));
		fputc('\n', data);
	}
	for (long after = LONG_MIN; next_tasks(c, n, after, &t); after = t) {
		fprintf(data, "%d", t);
		for (size_t i = 0; i < n; i++) {
			const struct curve_point *p = find_point(&c[i], t);
			long b = base_of(opt, n, i);
			struct diff d;
			if (p)
				fprintf(data, " %.6g %.6g", p->jpm.mean, has_error_bar(p) ? p->jpm.std_dev : 0.0);
			else
				fputs(" ? ?", data);
			if (b >= 0 && diff_at(opt, i, t, &d) && d.interval)
				fprintf(data, " %.6g %.6g %.6g", d.pct, d.lo, d.hi);
			else if (b >= 0 && diff_at(opt, i, t, &d)) /* no interval: as uncertain as it gets, not precise */
				fprintf(data, " %.6g -100 100", d.pct);
			else
				fputs(" ? ? ?", data);
		}
		fputc('\n', data);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < c[i].count; j++) {
			const struct curve_point *p = &c[i].points[j];
			if (!point_ok(p) || !p->noisy)
				continue;
			fprintf(data, "# noisy: run %zu at %d tasks, %zu of %zu rounds: ", i + 1, p->tasks, p->noisy,
				p->jpm.n);
			for (const char *q = p->noise; *q; q++)
				fputc((unsigned char)*q < 0x20 ? ' ' : *q, data);
			fputc('\n', data);
		}
}

/* The frame of a gnuplot plot: its title, the y axis's label and top (0: automatic), and whether a
 * difference panel sits below the main one. */
struct gp_frame {
	const char *title, *y_label;
	double y_max;
	int diff;
};

/* Terminal, labels, the footer and the x axis (log2 with the task counts as tics, like the SVG). */
static void gp_setup(FILE *s, const char *out_name, const struct curve *c, size_t n, const struct gp_frame *fr,
		     const struct footer_text *ft)
{
	const char *title = fr->title, *y_label = fr->y_label;
	const char *const *footer = ft->lines;
	size_t nfoot = ft->n;
	int diff = fr->diff;
	double y_max = fr->y_max;
	size_t len = strlen(out_name);
	int png = len >= 4 && strcmp(out_name + len - 4, ".png") == 0;
	int t, tmin = 0, tmax = 0;
	int height = (diff ? GP_DIFF_HEIGHT : GP_HEIGHT) + GP_FOOTER_ROW * (int)nfoot + (nfoot ? 6 : 0);
	fprintf(s, "# gnuplot script written by reaim plot\nset terminal %s size 900,%d noenhanced font 'sans,%d'\n",
		png ? "pngcairo" : "svg", height, png ? 10 : 12);
	fputs("set output ", s);
	gp_string(s, out_name, "");
	fputs("\nset datafile missing '?'\nset title ", s);
	gp_string(s, title, "");
	fputs("\nset xlabel 'Tasks'\nset ylabel ", s);
	gp_string(s, y_label, "");
	if (y_max > 0)
		fprintf(s, "\nset yrange [0:%g]", y_max);
	else
		fputs("\nset yrange [0:*]", s);
	fputs("\nset grid\n"
	      "set key outside top center horizontal\nset lmargin 12\nset rmargin 4\nset xtics (", s);
	int any = next_tasks(c, n, LONG_MIN, &tmin);
	for (long after = LONG_MIN; next_tasks(c, n, after, &t); after = t) {
		fprintf(s, "%s%d", after == LONG_MIN ? "" : ", ", t);
		tmax = t;
	}
	fputs(")\n", s);
	if (any && tmin > 0 && (double)tmax / tmin > 8)
		fprintf(s, "set logscale x 2\nset xrange [%g:%g]\n", tmin / 1.15, tmax * 1.15);
	else if (any)
		fprintf(s, "set xrange [%g:%g]\n", tmin - 0.04 * (tmax - tmin) - (tmin == tmax),
			tmax + 0.04 * (tmax - tmin) + (tmin == tmax));
	/* the footer's lines at the bottom of the canvas, the plots above them */
	for (size_t k = 0; k < nfoot; k++) {
		fprintf(s, "set label %zu ", k + 1);
		gp_string(s, footer[k], "");
		fprintf(s, " at screen 0.012, screen %.4f font 'sans,%d' textcolor rgb '#555555'\n",
			((double)(nfoot - k) - 0.4) * GP_FOOTER_ROW / height, png ? 8 : 10);
	}
	fprintf(s, "footer = %.4f\n", (double)(GP_FOOTER_ROW * (int)nfoot + (nfoot ? 6 : 0)) / height);
}

/* One plot clause for curve i: mean with error bars, or (diff) its % against its base with the interval. */
static void gp_clause(FILE *s, const char *data_name, const struct curve *c, size_t i, int diff)
{
	if (!curve_has_points(&c[i])) {
		/* a NaN function draws nothing but keeps the run's key entry */
		fputs("NaN with linespoints", s);
	} else {
		gp_string(s, data_name, "");
		if (diff)
			fprintf(s, " using 1:%zu:%zu:%zu with yerrorlines", GP_COL(i, 2), GP_COL(i, 3), GP_COL(i, 4));
		else
			fprintf(s, " using 1:%zu:%zu with yerrorlines", GP_COL(i, 0), GP_COL(i, 1));
	}
	fprintf(s, " lw 2 dt %zu pt %d ps 1.2 lc rgb '%s' title ", 1 + i % 4, gp_points[marker_of(i)], colour_of(i));
	gp_string(s, c[i].label, curve_has_points(&c[i]) ? "" : " (no valid points)");
}

static void gp_plot(FILE *s, const char *data_name, const struct curve *c, size_t n, const struct plot_options *opt,
		    int diff)
{
	/* the diff panel's first clause is its zero line, which also gives autoscale something when no run has data */
	fputs(diff ? "plot 0 with lines lw 1.5 lc rgb '#444444' notitle" : "plot ", s);
	int first = !diff;
	for (size_t i = 0; i < n; i++) {
		if (diff && base_of(opt, n, i) < 0)
			continue;
		if (!first)
			fputs(", \\\n     ", s);
		first = 0;
		gp_clause(s, data_name, c, i, diff);
	}
	fputc('\n', s);
}

int plot_gnuplot(FILE *data, FILE *script, const char *data_name, const char *out_name,
		 const struct curve *curves, size_t n, const struct plot_options *opt)
{
	static const struct plot_options defaults = {0};
	struct footer_text ft;
	if (!data || !script || !data_name || !out_name || (n && !curves) || (opt && opt->footer_lines && !opt->footer)) {
		errno = EINVAL;
		return -1;
	}
	opt = opt ? opt : &defaults;
	if (footer_text(&ft, curves, n, opt) < 0) {
		footer_text_free(&ft);
		return -1;
	}
	int diff = opt->diff_panel && any_base(n, opt);
	gp_data(data, curves, n, opt);
	const char *y_label = opt->y_label ? opt->y_label : "Jobs/Min";
	char title[96];
	snprintf(title, sizeof(title), "%s by task count", y_label);
	const struct gp_frame fr = {.title = opt->title && opt->title[0] ? opt->title : title, .y_label = y_label,
				    .y_max = opt->y_max, .diff = diff};
	gp_setup(script, out_name, curves, n, &fr, &ft);
	footer_text_free(&ft);
	int t;
	if (!next_tasks(curves, n, LONG_MIN, &t)) /* gnuplot refuses to autoscale a plot without a single point */
		fputs("set xrange [0:1]\nset yrange [0:1]\n", script);
	if (n == 0) {
		fputs("set origin 0,footer\nset size 1,1-footer\nplot NaN title 'no runs'\n", script);
	} else if (!diff) {
		fputs("set origin 0,footer\nset size 1,1-footer\n", script);
		gp_plot(script, data_name, curves, n, opt, 0);
	} else {
		fputs("set multiplot\nset origin 0,footer+0.3*(1-footer)\nset size 1,0.7*(1-footer)\n", script);
		gp_plot(script, data_name, curves, n, opt, 0);
		fputs("unset label\nset origin 0,footer\nset size 1,0.3*(1-footer)\nunset title\nset key off\n"
		      "set tmargin 1\nset ylabel 'Difference (%)'\nset yrange [*:*]\nset format y '%+g%%'\n", script);
		gp_plot(script, data_name, curves, n, opt, 1);
		fputs("unset multiplot\n", script);
	}
	int rc = finish(data);
	return finish(script) < 0 || rc < 0 ? -1 : 0;
}
