/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the plot renderers: well-formed SVG with one series per run, escaped labels, peaks in the legend
 * or beside their point, labelled error bars, the diff panel and its intervals, footers, a percentage axis
 * ending at 100, small-multiple timelines, PNG through rsvg-convert, and gnuplot data with one row per
 * task count. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/plot.h"
#include "util/util.h"
#include "tap.h"

static int write_gnuplot(const char *dir, const char *base, const struct curve *c, size_t n,
			 const struct plot_options *opt);

#define ESCAPED_LABEL "6.2 &lt;&amp;&quot;patched&quot;"

/* A curve at the given task counts; repeats >= 2 gives every point a spread so error bars appear. */
static void make_curve(struct curve *c, const char *label, const int *tasks, const double *jpm, size_t n,
		       size_t repeats)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->label, sizeof(c->label), "%s", label);
	snprintf(c->workload, sizeof(c->workload), "%s", "dbase");
	c->points = n ? calloc(n, sizeof(*c->points)) : NULL;
	c->count = n;
	for (size_t i = 0; i < n; i++) {
		c->points[i].tasks = tasks[i];
		c->points[i].jpm.n = repeats;
		c->points[i].jpm.mean = jpm[i];
		c->points[i].jpm.std_dev = repeats >= 2 ? jpm[i] * 0.04 : 0;
		c->points[i].jpm.min = jpm[i] - c->points[i].jpm.std_dev;
		c->points[i].jpm.max = jpm[i] + c->points[i].jpm.std_dev;
	}
}

/* curve_free lives in another module: free by hand. */
static void free_curves(struct curve *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(c[i].points);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0, got;
	char *buf = malloc(cap);
	while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (len + 1 == cap) {
			char *bigger = realloc(buf, cap *= 2);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t k = 0;
	for (const char *p = hay; p && (p = strstr(p, needle)) != NULL; p += strlen(needle))
		k++;
	return k;
}

static int render_svg(const char *path, const struct curve *c, size_t n, const struct plot_options *opt)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int rc = plot_svg(f, c, n, opt);
	return fclose(f) != 0 ? -1 : rc;
}

static int have_program(const char *name)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

static void well_formed(const char *path, const char *what)
{
	char cmd[512];
	if (!have_program("xmllint")) {
		skip(what, "xmllint missing");
		return;
	}
	snprintf(cmd, sizeof(cmd), "xmllint --noout '%s'", path);
	ok(system(cmd) == 0, what);
}

/* rsvg-convert renders the file to a PNG (it refuses what it cannot draw). */
static void renders(const char *dir, const char *path, const char *what)
{
	char cmd[1400];
	if (!have_program("rsvg-convert")) {
		skip(what, "rsvg-convert missing");
		return;
	}
	snprintf(cmd, sizeof(cmd), "rsvg-convert -f png -o '%s/render.png' '%s' 2>/dev/null", dir, path);
	ok(system(cmd) == 0, what);
}

/* Whether some tick (or other text) reads exactly label. */
static int has_tick(const char *svg, const char *label)
{
	char needle[64];
	snprintf(needle, sizeof(needle), ">%s</text>", label);
	return strstr(svg, needle) != NULL;
}

/* A footer line longer than the picture is broken at words: every piece within its width, none cut
 * mid-word, no ellipsis, and the pieces together say the whole; what was left out keeps its colour on
 * each of its lines. */
static void footer_wrap_checks(const char *dir, struct curve *c, size_t n)
{
	char path[512], line[400] = "", left[300] = "";
	for (int i = 0; strlen(line) < 300; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%sWelch's%03d", i ? " " : "", i);
	for (int i = 0; strlen(left) < 200; i++)
		snprintf(left + strlen(left), sizeof(left) - strlen(left), "%sleft%03d", i ? " " : "", i);
	const char *const footer[] = {line};
	struct plot_options opt = {.footer = footer, .footer_lines = 1, .left_out = left};
	snprintf(path, sizeof(path), "%s/wrap.svg", dir);
	is_int(render_svg(path, c, n, &opt), 0, "a plot with a long footer line");
	char *svg = slurp(path), joined[1024] = "", joined_left[1024] = "";
	const char *g = svg ? strstr(svg, "class=\"footer\"") : NULL;
	size_t pieces = 0, widest = 0, left_pieces = 0;
	for (const char *t = g; t && (t = strstr(t, "<text ")) != NULL; t++) {
		const char *b = strchr(t, '>') + 1, *e = strstr(b, "</text>");
		int is_left = strstr(t, "left-out") != NULL && strstr(t, "left-out") < b;
		char *into = is_left ? joined_left : joined;
		size_t chars = 0; /* an entity (&#39;) is one character */
		for (const char *q = b; q < e; q++, chars++)
			if (*q == '&')
				q = strchr(q, ';');
		if (chars > widest)
			widest = chars;
		snprintf(into + strlen(into), sizeof(joined) - strlen(into), "%s%.*s", into[0] ? " " : "", (int)(e - b), b);
		pieces++;
		left_pieces += is_left;
	}
	printf("# %zu footer lines, the widest %zu characters\n", pieces, widest);
	ok(pieces >= 5 && widest <= 130, "the footer's lines are broken within 130 characters");
	ok(svg && !strstr(g, "\xe2\x80\xa6"), "no footer line is cut short with an ellipsis");
	ok(strstr(joined, "Welch&#39;s000 Welch&#39;s001") && strstr(joined, "Welch&#39;s027") &&
	   strstr(joined_left, "left000 left001") && strstr(joined_left, left + strlen(left) - 7),
	   "broken at spaces only: the lines together say the whole, in order");
	ok(left_pieces >= 2, "what was left out is coloured on each of its lines");
	free(svg);
}

static void svg_checks(const char *dir, struct curve *c, size_t n)
{
	char path[512];
	static const char *const footer[] = {"6.1-rc3 (run 12): kernel 6.1.0-rc3, host box1", "6.2 (run 13): kernel 6.2.0, host box1"};
	struct plot_options opt = {.title = "Kernel A vs B: dbase", .footer = footer, .footer_lines = 2};
	snprintf(path, sizeof(path), "%s/plot.svg", dir);
	is_int(render_svg(path, c, n, &opt), 0, "plot_svg succeeds");
	well_formed(path, "SVG is well-formed XML (xmllint)");
	char *svg = slurp(path);
	ok(svg != NULL, "SVG readable");
	if (!svg)
		return;
	is_int(count(svg, "class=\"series\""), n, "one series group per curve");
	is_int(count(svg, "class=\"plot-area\""), 1, "one plot area without the diff panel");
	ok(strstr(svg, "6.1-rc3 (run 12)") != NULL, "first label appears");
	ok(strstr(svg, ESCAPED_LABEL) != NULL, "label with <&\" is escaped");
	ok(strstr(svg, "6.2 <&") == NULL && strstr(svg, "&\"patched") == NULL, "no raw <&\" from the label");
	ok(strstr(svg, "empty run (no valid points)") != NULL, "empty curve listed as (no valid points)");
	const char *legend = strstr(svg, "class=\"legend\""), *legend_end = legend ? strstr(legend, "</g>") : NULL;
	const char *p1 = strstr(svg, "peak 4321.5 @ 32"), *p2 = strstr(svg, "peak 5000.2 @ 64");
	ok(p1 && p1 > legend && p1 < legend_end, "comparing: first curve's peak in the legend");
	ok(p2 && p2 > legend && p2 < legend_end, "comparing: second curve's peak in the legend");
	ok(strstr(p1 ? p1 + 1 : svg, "peak 4321.5") == NULL, "comparing: no peak label among the points");
	ok(strstr(svg, "Error bars: mean \xc2\xb1 1 standard deviation of the repeats, n = 3 per task count; points "
		       "without a bar had one repeat.") != NULL, "the footer says what the error bars are, and n");
	ok(strstr(svg, "n = 3</title>") != NULL, "each error bar carries its n");
	ok(strstr(svg, "kernel 6.1.0-rc3, host box1") && strstr(svg, "6.2 (run 13): kernel 6.2.0"), "footer names kernel and host");
	ok(strncmp(svg, "<?xml", 5) == 0, "an XML declaration by default");
	renders(dir, path, "rsvg-convert renders the plot");
	is_int(count(svg, "class=\"error-bar\""), c[0].count, "error bars on the curve with repeats only");
	ok(strstr(svg, ">Tasks") != NULL && strstr(svg, ">Jobs/Min<") != NULL, "axis titles");
	ok(strstr(svg, "log2") != NULL, "task counts spanning 1..128 get a log2 axis");
	ok(strstr(svg, ">128</text>") != NULL && strstr(svg, ">24</text>") != NULL, "tick labels are task counts");
	ok(strstr(svg, "Kernel A vs B: dbase") != NULL, "title");
	free(svg);

	/* the differences are given (the comparison model's); one repeat a side: no intervals */
	struct plot_diff *diffs = calloc(n, sizeof(*diffs));
	for (size_t i = 1; i < n; i++) {
		struct plot_diff_point *d = calloc(c[i].count + 1, sizeof(*d));
		size_t k = 0;
		for (size_t j = 0; j < c[i].count; j++)
			for (size_t q = 0; q < c[0].count; q++)
				if (c[0].points[q].tasks == c[i].points[j].tasks)
					d[k++] = (struct plot_diff_point){
						.tasks = c[i].points[j].tasks,
						.pct = 100 * (c[i].points[j].jpm.mean / c[0].points[q].jpm.mean - 1)};
		diffs[i] = (struct plot_diff){d, k};
	}
	opt.diffs = diffs;
	opt.diff_panel = 1;
	opt.no_xml_declaration = 1;
	snprintf(path, sizeof(path), "%s/plot-diff.svg", dir);
	is_int(render_svg(path, c, n, &opt), 0, "plot_svg with diff panel succeeds");
	well_formed(path, "diff SVG is well-formed XML (xmllint)");
	svg = slurp(path);
	ok(svg && count(svg, "class=\"plot-area\"") == 2, "diff panel adds a second plot area");
	ok(svg && count(svg, "class=\"series\"") == n, "diff panel adds no series groups");
	ok(svg && count(svg, "class=\"diff-series\"") == n - 1, "one diff line per later run");
	ok(svg && strstr(svg, "Difference (%)") != NULL, "diff panel axis title");
	ok(svg && strncmp(svg, "<svg", 4) == 0, "no XML declaration when asked (for HTML)");
	ok(svg && count(svg, "class=\"diff-interval\"") == 0, "no interval where a side has one repeat");
	ok(svg && strstr(svg, "no intervals, a side has fewer than two samples") != NULL, "and the footer says so");
	renders(dir, path, "rsvg-convert renders the plot with its diff panel");
	free(svg);
	for (size_t i = 0; i < n; i++)
		free((void *)diffs[i].pts);
	free(diffs);
}

/* Intervals in the diff panel, explicit bases, a percentage axis, a left-out note, a lone curve's peak. */
static void diff_and_peak_checks(const char *dir)
{
	static const int t[] = {1, 2, 4, 8};
	static const double a[] = {100, 200, 380, 500}, b[] = {100, 150, 400, 520}, pct[] = {20, 35, 60, 92};
	struct curve c[3];
	char path[512];
	make_curve(&c[0], "base, O_SYNC off", t, a, 4, 3);
	make_curve(&c[1], "other, O_SYNC on", t, b, 4, 3);
	make_curve(&c[2], "other, O_SYNC off", t, b, 4, 3);
	static const int bases[] = {-1, -1, 0};
	/* as the model judges them: the plot draws these, and nothing of its own */
	static const struct plot_diff_point pts[] = {{.tasks = 1, .pct = 0, .lo = -3, .hi = 3, .interval = 1},
						     {.tasks = 2, .pct = -25, .lo = -35, .hi = -15, .interval = 1},
						     {.tasks = 4, .pct = 5.26, .lo = 1, .hi = 9.5, .interval = 1},
						     {.tasks = 8, .pct = 4, .lo = 0.5, .hi = 7.5, .interval = 1}};
	const struct plot_diff diffs[] = {{NULL, 0}, {NULL, 0}, {pts, 4}};
	struct plot_options opt = {.diff_panel = 1, .diff_base = bases, .diff_caption = "against the same setting",
				   .left_out = "Not drawn: workload fserver", .diffs = diffs,
				   .diff_note = "95 % confidence intervals of the change"};
	snprintf(path, sizeof(path), "%s/bases.svg", dir);
	is_int(render_svg(path, c, 3, &opt), 0, "plot with explicit bases");
	well_formed(path, "SVG with intervals is well-formed XML");
	char *svg = slurp(path);
	ok(svg && count(svg, "class=\"diff-series\"") == 1, "a diff line only for the curve with a base");
	ok(svg && count(svg, "class=\"diff-interval\"") == 4, "an interval at each task count both have with repeats");
	ok(svg && strstr(svg, "95 % confidence intervals of the change") != NULL, "the footer says what the intervals are");
	ok(svg && strstr(svg, "data-tasks=\"2\" data-pct=\"-25.0000\" data-lo=\"-35.0000\" data-hi=\"-15.0000\"") != NULL,
	   "each interval carries the numbers it was given");
	ok(svg && strstr(svg, "against the same setting") != NULL, "the caption given is used");
	ok(svg && strstr(svg, "class=\"left-out\">Not drawn: workload fserver") != NULL, "what was left out is said");
	ok(svg && has_tick(svg, "-40%") && !has_tick(svg, "-60%") && !has_tick(svg, "-100%"),
	   "the diff axis holds -25 % and its interval, not more");
	renders(dir, path, "rsvg-convert renders the plot with intervals");
	free(svg);

	/* a cell not judged and one unbounded: no precise-looking point; the gnuplot data says the level */
	static const struct plot_diff_point vague[] = {{.tasks = 1, .pct = 3, .interval = 0},
						       {.tasks = 2, .pct = -25, .lo = -35, .hi = -15, .interval = 1,
							.confounded = 1},
						       {.tasks = 4, .pct = 5.26, .interval = 0}};
	const struct plot_diff vd[] = {{NULL, 0}, {NULL, 0}, {vague, 3}};
	struct plot_options ov = opt;
	ov.diffs = vd;
	ov.level_pct = 90;
	snprintf(path, sizeof(path), "%s/vague.svg", dir);
	is_int(render_svg(path, c, 3, &ov), 0, "plot with cells without an interval");
	svg = slurp(path);
	ok(svg && count(svg, "class=\"diff-unknown\"") == 2 && count(svg, "class=\"diff-interval\"") == 1,
	   "a cell without an interval gets a dashed bar over the panel, not a zero-width one");
	ok(svg && strstr(svg, "-25.0 %, interval -35.0 % to -15.0 %, confounded with the outside load") != NULL,
	   "a confounded cell says so");
	free(svg);
	is_int(write_gnuplot(dir, "vague", c, 3, &ov), 0, "gnuplot of the same");
	snprintf(path, sizeof(path), "%s/vague.dat", dir);
	svg = slurp(path);
	ok(svg && strstr(svg, "of its 90 % interval") != NULL, "the gnuplot data names the level asked, not 95 %");
	ok(svg && strstr(svg, " 3 -100 100") != NULL, "and spans -100 to 100 where there is no interval");
	free(svg);

	/* a percentage metric: the axis ends at 100 */
	struct curve p;
	make_curve(&p, "sys", t, pct, 4, 3);
	struct plot_options po = {.y_label = "CPU system %", .y_max = 100};
	snprintf(path, sizeof(path), "%s/pct.svg", dir);
	is_int(render_svg(path, &p, 1, &po), 0, "plot of a percentage");
	svg = slurp(path);
	ok(svg && has_tick(svg, "100") && !has_tick(svg, "120") && !has_tick(svg, "110"), "a percentage axis ends at 100");
	/* a lone curve: its peak is labelled beside the point (92 at 8 tasks, the right edge: left of it) */
	const char *label = svg ? strstr(svg, "peak 92.0 @ 8") : NULL;
	ok(label != NULL, "a lone curve's peak is labelled");
	const char *labels = svg ? strstr(svg, "class=\"peak-labels\"") : NULL;
	ok(labels && label > labels, "among the points, not in the legend");
	double lx = 0, ly = 0, px = -1, py = -1;
	const char *text = label;
	while (text && text > svg && strncmp(text, "<text", 5) != 0)
		text--;
	if (text)
		sscanf(text, "<text x=\"%lf\" y=\"%lf\"", &lx, &ly);
	const char *ring = svg ? strstr(svg, "class=\"peak\" cx=\"") : NULL;
	if (ring)
		sscanf(ring, "class=\"peak\" cx=\"%lf\" cy=\"%lf\"", &px, &py);
	double w = 7.4 * (double)strlen("peak 92.0 @ 8");
	ok(ring && fabs(ly - py) < 30 && lx + w > px - 40 && lx < px + 40, "the label sits next to its point");
	free(svg);
	free_curves(c, 3);
	free_curves(&p, 1);
}

/* Small multiples: a panel per task count, a line per repeat, a percentage axis ending at 100. */
static void timeline_checks(const char *dir)
{
	static const double t[] = {0.1, 0.2, 0.3, 0.4}, y[] = {10, 40, 99, 60};
	struct timeline lines[5];
	static const int tasks[] = {1, 1, 2, 4, 8}, repeat[] = {0, 1, 0, 0, 0};
	for (size_t i = 0; i < 5; i++) {
		lines[i] = (struct timeline){.t = t, .y = y, .count = 4, .tasks = tasks[i], .repeat = repeat[i]};
		snprintf(lines[i].label, sizeof(lines[i].label), "%d tasks <&>", tasks[i]);
	}
	char path[512];
	snprintf(path, sizeof(path), "%s/timeline.svg", dir);
	FILE *f = fopen(path, "w");
	int rc = f ? plot_timeline_svg(f, lines, 5, "sys % during each point", "CPU system %", 100) : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	is_int(rc, 0, "plot_timeline_svg succeeds");
	well_formed(path, "timeline is well-formed XML");
	char *svg = slurp(path);
	ok(svg && count(svg, "class=\"panel\"") == 4, "one panel per task count");
	ok(svg && count(svg, "class=\"series\"") == 5, "one line per point");
	ok(svg && strstr(svg, ">2 repeats<") != NULL, "a repeated task count says so");
	ok(svg && strstr(svg, ">repeat 2</text>") != NULL, "the legend names the repeats");
	ok(svg && has_tick(svg, "100") && !has_tick(svg, "120"), "the percentage axis ends at 100");
	ok(svg && strstr(svg, "&lt;&amp;&gt;") != NULL, "labels escaped");
	renders(dir, path, "rsvg-convert renders the timeline");
	free(svg);
}

/* PNG output goes through rsvg-convert, and says so clearly when it is missing. */
static void png_checks(const char *dir)
{
	static const char svg[] = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\">"
				  "<rect width=\"20\" height=\"10\" fill=\"#0072B2\"/></svg>\n";
	char path[512], err[512];
	snprintf(path, sizeof(path), "%s/out.png", dir);
	if (have_program("rsvg-convert")) {
		is_int(plot_write_png(svg, strlen(svg), path, err, sizeof(err)), 0, "plot_write_png writes a PNG");
		unsigned char head[8] = {0};
		FILE *f = fopen(path, "rb");
		size_t got = f ? fread(head, 1, 8, f) : 0;
		if (f)
			fclose(f);
		ok(got == 8 && memcmp(head, "\x89PNG\r\n\x1a\n", 8) == 0, "the file starts with PNG's magic bytes");
		is_int(plot_write_png("not svg", 7, path, err, sizeof(err)), -1, "rsvg-convert refusing the input is an error");
		f = fopen(path, "rb");
		got = f ? fread(head, 1, 8, f) : 0;
		if (f)
			fclose(f);
		ok(got == 8 && memcmp(head, "\x89PNG\r\n\x1a\n", 8) == 0, "and leaves the PNG written before as it was");
		/* rsvg-convert stops reading at the first bad byte: the rest of a big input must not raise
		 * SIGPIPE in a caller that did not ignore it (this test does not) */
		size_t big = 4u << 20;
		char *junk = malloc(big);
		if (junk) {
			memset(junk, 'x', big);
			is_int(plot_write_png(junk, big, path, err, sizeof(err)), -1, "4 MB of junk: an error, not SIGPIPE");
			free(junk);
		}
	} else {
		skip("plot_write_png writes a PNG", "rsvg-convert missing");
	}
	unlink(path);
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", "/nonexistent", 1);
	int rc = plot_write_png(svg, strlen(svg), path, err, sizeof(err));
	if (old) {
		setenv("PATH", old, 1);
		free(old);
	}
	is_int(rc, -1, "without rsvg-convert: an error");
	ok(strstr(err, "rsvg-convert is not installed") != NULL, "naming what is missing");
	ok(access(path, F_OK) != 0, "and no SVG under the PNG name");
}

/* Points measured in noise: a ring each with its reason, and a line naming one with its figure. */
static void noisy(const char *dir, struct curve *c, size_t n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/noisy.svg", dir);
	is_int(render_svg(path, c, n, NULL), 0, "plot_svg of curves without noise");
	char *svg = slurp(path);
	ok(svg && count(svg, "noisy") == 0 && count(svg, "Noisy") == 0, "no noise, no rings and no noise line");
	free(svg);
	c[0].points[2].noisy = 2;
	snprintf(c[0].points[2].noise, sizeof(c[0].points[2].noise), "outside load 23.4 %% of the machine & <more>");
	c[1].points[1].noisy = 1;
	snprintf(c[1].points[1].noise, sizeof(c[1].points[1].noise), "steal 12.0 %% of CPU time");
	is_int(render_svg(path, c, n, NULL), 0, "plot_svg of noisy points");
	well_formed(path, "noisy SVG is well-formed XML (xmllint)");
	svg = slurp(path);
	is_int(count(svg, "class=\"noisy\""), 2, "a ring round each noisy point");
	ok(svg && strstr(svg, "<title>noisy, 2 of 3 rounds: "
			      "outside load 23.4 % of the machine &amp; &lt;more&gt;</title>"),
	   "the ring's tooltip names the figure (escaped)");
	ok(svg && strstr(svg, ">Noisy (dashed rings): 2 points, e.g. outside load 23.4 % of the machine"),
	   "a line under the plot names one with its figure");
	free(svg);
	char *dt = NULL, *st = NULL;
	size_t dl = 0, sl = 0;
	FILE *d = open_memstream(&dt, &dl), *sc = open_memstream(&st, &sl);
	is_int(plot_gnuplot(d, sc, "p.dat", "p.svg", c, n, NULL), 0, "gnuplot output of noisy points");
	fclose(d);
	fclose(sc);
	ok(dt && strstr(dt, "# noisy: run 2 at 3 tasks, 1 of 1 rounds: steal 12.0 % of CPU time"),
	   "gnuplot data names them");
	ok(st && strstr(st, "Noisy (dashed rings)") && strstr(st, "set label"), "the gnuplot picture says so");
	free(dt);
	free(st);
	c[0].points[2].noisy = c[1].points[1].noisy = 0;
}

static void edge_cases(const char *dir)
{
	char path[512];
	struct curve empty;
	make_curve(&empty, "nothing", NULL, NULL, 0, 0);
	snprintf(path, sizeof(path), "%s/empty.svg", dir);
	is_int(render_svg(path, &empty, 1, NULL), 0, "a lone empty curve with default options");
	well_formed(path, "empty plot is well-formed XML");
	struct plot_options diff = {.diff_panel = 1};
	snprintf(path, sizeof(path), "%s/none.svg", dir);
	is_int(render_svg(path, NULL, 0, &diff), 0, "no curves at all, diff panel asked for");
	well_formed(path, "plot of no curves is well-formed XML");
	errno = 0;
	ok(plot_svg(NULL, &empty, 1, NULL) == -1 && errno == EINVAL, "NULL stream is EINVAL");
	free_curves(&empty, 1);
}

/* Data rows (not comments) and whether each has 1 + 5n fields. */
static void data_rows(const char *text, size_t n, size_t *rows, int *columns_ok)
{
	*rows = 0;
	*columns_ok = 1;
	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		if (len && line[0] != '#') {
			size_t fields = 0;
			for (size_t i = 0; i < len; i++)
				fields += line[i] != ' ' && (i == 0 || line[i - 1] == ' ');
			(*rows)++;
			*columns_ok &= fields == 1 + 5 * n;
		}
		line += len + (end != NULL);
	}
}

/* Writes DIR/BASE.dat and DIR/BASE.gp, the script drawing BASE.svg; 0 or -1. */
static int write_gnuplot(const char *dir, const char *base, const struct curve *c, size_t n,
			 const struct plot_options *opt)
{
	char dpath[512], spath[512], dname[64], out[64];
	snprintf(dpath, sizeof(dpath), "%s/%s.dat", dir, base);
	snprintf(spath, sizeof(spath), "%s/%s.gp", dir, base);
	snprintf(dname, sizeof(dname), "%s.dat", base);
	snprintf(out, sizeof(out), "%s.svg", base);
	FILE *d = fopen(dpath, "w"), *s = fopen(spath, "w");
	int rc = d && s ? plot_gnuplot(d, s, dname, out, c, n, opt) : -1;
	if (d && fclose(d) != 0)
		rc = -1;
	if (s && fclose(s) != 0)
		rc = -1;
	return rc;
}

/* Runs DIR/BASE.gp through gnuplot, when there is one, and expects a non-empty BASE.svg. */
static void run_gnuplot(const char *dir, const char *base, const char *what)
{
	char cmd[1200];
	if (!have_program("gnuplot")) {
		skip(what, "gnuplot missing");
		return;
	}
	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot %s.gp 2>/dev/null && test -s %s.svg", dir, base, base);
	ok(system(cmd) == 0, what);
}

static void gnuplot_checks(const char *dir, const struct curve *c, size_t n, size_t distinct)
{
	char path[512];
	struct plot_options opt = {.title = "A vs 'B'", .diff_panel = 1};
	is_int(write_gnuplot(dir, "plot-gp", c, n, &opt), 0, "plot_gnuplot succeeds");
	snprintf(path, sizeof(path), "%s/plot-gp.dat", dir);
	char *data = slurp(path);
	snprintf(path, sizeof(path), "%s/plot-gp.gp", dir);
	char *script = slurp(path);
	size_t rows = 0;
	int columns_ok = 0;
	if (data)
		data_rows(data, n, &rows, &columns_ok);
	is_int(rows, distinct, "one data line per distinct task count");
	ok(columns_ok, "each data line has tasks plus mean, std dev and difference with its interval per curve");
	ok(data && strstr(data, "\n3 ? ? ? ? ? ") != NULL, "'?' where the first curve has no point");
	ok(script && strstr(script, "'plot-gp.dat' using 1:2:3 with yerrorlines") != NULL, "script plots the data file");
	ok(script && strstr(script, "'plot-gp.dat' using 1:9:10:11 with yerrorlines") != NULL,
	   "the diff panel draws the second curve's difference with its interval");
	ok(script && strstr(script, "set label 1 'Error bars: mean") != NULL, "the footer is in the script");
	ok(script && strstr(script, "set output 'plot-gp.svg'") != NULL, "script names the output");
	ok(script && strstr(script, "'A vs ''B'''") != NULL, "quote in the title doubled for gnuplot");
	ok(script && strstr(script, "set logscale x 2") != NULL, "log2 x axis in gnuplot too");
	run_gnuplot(dir, "plot-gp", "gnuplot runs the script and draws the picture");
	free(data);
	free(script);

	/* two runs without a valid point: gnuplot must still get ranges it can draw */
	struct curve none[2] = {c[n - 1], c[n - 1]};
	is_int(write_gnuplot(dir, "empty-gp", none, 2, &opt), 0, "plot_gnuplot of empty runs succeeds");
	run_gnuplot(dir, "empty-gp", "gnuplot draws empty runs without an error");
}

int main(void)
{
	static const int ta[] = {1, 2, 4, 8, 16, 32, 64};
	static const double ja[] = {310.2, 600.4, 1150.9, 2100.3, 3600.7, 4321.5, 4100.1};
	static const int tb[] = {1, 3, 8, 24, 64, 128};
	static const double jb[] = {320.1, 900.5, 2150.8, 4400.4, 5000.2, 4800.9};
	struct curve c[3];
	const char *tmp = getenv("TMPDIR");
	char dir[400];
	snprintf(dir, sizeof(dir), "%s/reaim-test-plot.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	make_curve(&c[0], "6.1-rc3 (run 12)", ta, ja, sizeof(ta) / sizeof(ta[0]), 3);
	make_curve(&c[1], "6.2 <&\"patched\"", tb, jb, sizeof(tb) / sizeof(tb[0]), 1);
	make_curve(&c[2], "empty run", NULL, NULL, 0, 0);
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return done_testing();
	}
	tap_case(svg_checks, dir, c, 3);
	tap_case(footer_wrap_checks, dir, c, 3);
	tap_case(noisy, dir, c, 3);
	tap_case(edge_cases, dir);
	tap_case(diff_and_peak_checks, dir);
	tap_case(timeline_checks, dir);
	tap_case(png_checks, dir);
	tap_case(gnuplot_checks, dir, c, 3, 10);
	if (!getenv("KEEP")) {
		ok(remove_tree(dir) == 0 && access(dir, F_OK) != 0 && errno == ENOENT,
		   "the scratch directory and all in it removed");
	}
	free_curves(c, 3);
	return done_testing();
}
