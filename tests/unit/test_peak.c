/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the peak search on synthetic Jobs/Min curves with known maxima. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "measure/peak.h"
#include "tap.h"

struct curve_def {
	double peak_at, width;
	int calls;
};

/* A smooth hump: rises like a log, falls past the peak (how a saturated machine behaves). */
static double hump(void *ctx, int tasks)
{
	struct curve_def *c = ctx;
	c->calls++;
	double x = log2((double)tasks / c->peak_at);
	return 1000.0 * exp(-x * x / (2 * c->width * c->width));
}

/* Rises and then stays flat with a slow decline: the classic AIM shape. */
static double plateau(void *ctx, int tasks)
{
	struct curve_def *c = ctx;
	c->calls++;
	double t = tasks;
	return t <= c->peak_at ? 100 * t : 100 * c->peak_at - 0.5 * (t - c->peak_at);
}

static double stops(void *ctx, int tasks)
{
	struct curve_def *c = ctx;
	return ++c->calls > 3 ? -1 : tasks;
}

/* Humps peaking anywhere in 1..1024 are found near their top, in far fewer points than a sweep. */
static void humps(void)
{
	const double peaks[] = {1, 7, 24, 100, 333, 900};
	for (size_t i = 0; i < sizeof(peaks) / sizeof(peaks[0]); i++) {
		struct curve_def c = {peaks[i], 1.0, 0};
		struct peak_result r;
		peak_search(1, 1024, hump, &c, &r);
		char what[120];
		snprintf(what, sizeof(what), "hump peaking at %g: found %d in %d points", peaks[i], r.tasks, r.points);
		double found = hump(&c, r.tasks), truth = 1000;
		ok(found >= 0.95 * truth && r.points == c.calls - 1, what);
		ok(r.points <= 25, "far fewer points than a sweep of 1..1024");
	}
}

static void flat_top(void)
{
	struct curve_def p = {48, 0, 0};
	struct peak_result r;
	peak_search(1, 256, plateau, &p, &r);
	/* on a flat top any point within the noise is the peak: its Jobs/Min is what matters */
	ok(plateau(&p, r.tasks) >= 0.99 * 4800 && r.tasks >= 40, "plateau: a point on the flat top past the knee");
	printf("# plateau: %d tasks, %d points\n", r.tasks, r.points);
	peak_search(5, 5, plateau, &p, &r);
	is_int(r.tasks, 5, "a one-point range");
}

static void stop_request(void)
{
	struct curve_def s = {0, 0, 0};
	struct peak_result r;
	peak_search(1, 64, stops, &s, &r);
	ok(r.stopped && r.points == 3 && r.tasks == 4, "a stop request ends the search with what was measured");
}

int main(void)
{
	tap_case(humps);
	tap_case(flat_top);
	tap_case(stop_request);
	return done_testing();
}
