/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Peak search over task counts; measurements are cached so no task count is run twice. */
#include "config.h"

#include <stdlib.h>

#include "measure/peak.h"
#include "util/util.h"

struct cache {
	int *tasks;
	double *jpm;
	int n;
	peak_measure_fn measure;
	void *ctx;
	int stopped;
};

static double at(struct cache *c, int tasks)
{
	for (int i = 0; i < c->n; i++)
		if (c->tasks[i] == tasks)
			return c->jpm[i];
	if (c->stopped)
		return -1;
	double v = c->measure(c->ctx, tasks);
	if (v < 0) {
		c->stopped = 1;
		return -1;
	}
	c->tasks = xrealloc(c->tasks, (size_t)(c->n + 1) * sizeof(int));
	c->jpm = xrealloc(c->jpm, (size_t)(c->n + 1) * sizeof(double));
	c->tasks[c->n] = tasks;
	c->jpm[c->n++] = v;
	return v;
}

static void best_of(const struct cache *c, struct peak_result *out)
{
	for (int i = 0; i < c->n; i++)
		if (c->jpm[i] > out->jpm || out->points == 0) {
			out->jpm = c->jpm[i];
			out->tasks = c->tasks[i];
			out->points = 1;
		}
}

/* Golden-section search for the maximum of a unimodal curve on the integers of [a, b]. It
 * stops early on a flat top: two inner points within 2% of each other are as good a peak as
 * the noise of one measurement can tell apart. */
static void golden(struct cache *c, int a, int b, int tol)
{
	while (b - a > tol && b - a > 2 && !c->stopped) {
		int x1 = a + (int)((b - a) * 0.382), x2 = a + (int)((b - a) * 0.618);
		if (x2 <= x1)
			x2 = x1 + 1;
		double f1 = at(c, x1), f2 = at(c, x2);
		if (f1 > 0 && f2 > 0 && f1 / f2 < 1.02 && f2 / f1 < 1.02)
			return;
		if (f1 >= f2)
			b = x2;
		else
			a = x1;
	}
	if (b - a <= 2) {
		for (int t = a; t <= b && !c->stopped; t++)
			at(c, t);
	} else {
		at(c, a + (b - a) / 2); /* the bracket is within tolerance: its middle is enough */
	}
}

void peak_search(int lo, int hi, peak_measure_fn measure, void *ctx, struct peak_result *out)
{
	struct cache c = {.measure = measure, .ctx = ctx};
	*out = (struct peak_result){0};
	if (lo < 1)
		lo = 1;
	if (hi < lo)
		hi = lo;
	double best = -1;
	int best_t = lo, below = 0, prev = lo, t = lo;
	for (;;) {
		double v = at(&c, t);
		if (v < 0)
			break;
		if (v > best)
			best = v, best_t = t, below = 0;
		else if (v < 0.9 * best && ++below >= 2)
			break;
		if (t >= hi)
			break;
		prev = t;
		t = t * 2 > hi ? hi : t * 2;
	}
	(void)prev;
	/* the peak lies between the best point's neighbours on the doubling grid */
	int a = best_t / 2 > lo ? best_t / 2 : lo, b = best_t * 2 < hi ? best_t * 2 : hi;
	int tol = best_t / 20 > 1 ? best_t / 20 : 1;
	golden(&c, a, b, tol);
	best_of(&c, out);
	out->points = c.n;
	out->stopped = c.stopped;
	free(c.tasks);
	free(c.jpm);
}
