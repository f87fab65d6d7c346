/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Noise of stored points: why a point was measured in noise, for every report that names it (the table,
 * show, the exports, plot and compare). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/noise.h"
#include "measure/load.h"

const char *noise_of_point(const struct store_point *p)
{
	if (!p->noisy)
		return NULL;
	return p->noise[0] ? p->noise : LOAD_NOISE_UNSAID;
}

/* How far a point's noise went: its larger figure. */
static double loudness(const struct store_point *p)
{
	double o = isfinite(p->outside_cpu_pct) ? p->outside_cpu_pct : 0, s = isfinite(p->steal_pct) ? p->steal_pct : 0;
	return o > s ? o : s;
}

size_t noise_count_points(const struct store_point *pts, size_t n, int tasks, char *reason, size_t reasonlen)
{
	const struct store_point *worst = NULL;
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		const struct store_point *p = &pts[i];
		if (!p->valid || (tasks > 0 && p->tasks != tasks) || !noise_of_point(p))
			continue;
		count++;
		if (!worst || loudness(p) > loudness(worst))
			worst = p;
	}
	if (reasonlen)
		snprintf(reason, reasonlen, "%s", worst ? noise_of_point(worst) : "");
	return count;
}
