/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Others' demand around a point: a window just before its tasks are forked and one just after they
 * are reaped, where nothing of the run runs but its background load (measure/demand.h). */
#ifndef REAIM_RUN_OTHERS_H
#define REAIM_RUN_OTHERS_H

#include <stddef.h>

#include "engine/bgload.h"
#include "measure/demand.h"
#include "store/store.h"

/* Each window's length and how often it reads /proc/stat: 2 x 0.1 s a point, 20 readings each. */
#define OTHERS_WINDOW_S 0.1
#define OTHERS_EVERY_S 0.005

struct others_windows {
	struct demand_window before, after;
	int have_before, have_after;
};

/* Take one window beside the point's load (NULL: none) on its disks; *have 1 when it was measured
 * (a failed read leaves it out: the point is still measured, its demand unknown). */
void others_window(const struct bgload *load, const char *const *devices, size_t ndevices, struct demand_window *w,
		   int *have);
/* The point's others_* figures from its windows (NaN where neither measured one); the point is noisy
 * where others kept its disks busy beyond noise_limit % of a window. */
void others_store(const struct others_windows *o, double noise_limit, struct store_point *out);

#endif
