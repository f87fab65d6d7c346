/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scaling over CPU counts (--cpus): a block's Jobs/Min at each count against the smallest. */
#ifndef REAIM_ANALYSIS_SCALING_H
#define REAIM_ANALYSIS_SCALING_H

#include <stddef.h>

#include "store/store.h"

/* One task count of one O_SYNC setting and variant: the mean Jobs/Min of its valid points at each
 * CPU count (NaN where none), and that over the mean at the smallest count. */
struct scaling_row {
	int osync;
	char variant[64];
	int tasks;
	double *jpm, *ratio;      /* per CPU count, in the order of scaling.cpus */
	size_t *n;                /* valid points behind each mean */
};
struct scaling {
	int *cpus;                /* the CPU counts measured, ascending */
	size_t ncpus;
	struct scaling_row *rows;
	size_t nrows;
};

/* The scaling of one workload's points (every CPU count); 0, or 1 when fewer than two CPU counts
 * were measured (nothing to say; *s is empty). Free with scaling_free. */
int scaling_of(const struct store_point *pts, size_t n, struct scaling *s);
void scaling_free(struct scaling *s);

/* contest's table of a block run with --load: per load (in the order they first ran, no_load first)
 * and task count, the mean Jobs/Min of the valid points, its ratio to no_load's (Ratio), the mean
 * units of work the load did (Loads) and its mean CPU % (LCPU%). */
struct load_row {
	char load[32];
	int tasks;
	size_t n;                 /* valid points */
	double jpm, ratio, units, cpu_pct;
};
/* The rows of pts (one block); how many, *rows to free. 0 when no point carries a load. */
size_t loads_table(const struct store_point *pts, size_t n, struct load_row **rows);

#endif
