/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scaling over CPU counts (--cpus): a block's Jobs/Min at each count against the smallest. */
#ifndef REAIM_SCALING_H
#define REAIM_SCALING_H

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

#endif
