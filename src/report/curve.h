/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A Jobs/Min curve of one run (one workload, O_SYNC setting and variant): the input of compare and plot. */
#ifndef REAIM_CURVE_H
#define REAIM_CURVE_H

#include <stddef.h>

#include "measure/measure.h"

struct curve_point {
	int tasks;
	struct summary jpm;       /* Jobs/Min (or the metric loaded) over the valid repeats */
	struct summary real_s, user_s, sys_s;
	double *samples;          /* the repeats' Jobs/Min (jpm.n values), for rank tests */
	size_t noisy;             /* valid repeats measured in noise (outside load or steal over the limit) */
	char noise[160];          /* the noisiest one's reason, "" when none */
};

struct curve {
	char label[160];          /* e.g. "6.1-rc3 (run 12)" */
	char workload[64];
	int osync;
	char variant[64];         /* the --variant NAME the points measured, "" for none */
	struct curve_point *points; /* ascending task counts, only those with a valid repeat */
	size_t count;
};

void curve_free(struct curve *c);

#endif
