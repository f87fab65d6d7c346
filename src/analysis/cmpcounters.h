/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What moved with the throughput: each stored counter of a compare's cells, per job, and the point's
 * own figures beside them (the sampler's shares of the machine as they are, the tasks' CPU per job),
 * judged with the same replicates, tests, intervals and correction as the cell's Jobs/Min; the
 * significant ones. */
#ifndef REAIM_ANALYSIS_CMPCOUNTERS_H
#define REAIM_ANALYSIS_CMPCOUNTERS_H

#include <stddef.h>

#include "analysis/compare.h"
#include "store/store.h"

/* One counter of one cell (a panel's task count) that moved significantly. */
struct counter_change {
	size_t panel;             /* in the compare model's panels */
	int tasks;
	double jpm_change_pct;    /* the cell's Jobs/Min change (its verdict's, else of the means) */
	char source[16], name[96], unit[24]; /* the unit of the counter */
	int per_job;              /* compared per job (a count); 0: as it is (the sampler's share of the machine) */
	struct verdict v;         /* of the per-job values: both means, % change, interval, p */
	double p_adj;             /* over every counter tested in the comparison */
	int explains;             /* moves against Jobs/Min: more per job where fewer jobs per minute, or less
				   * where more (listed first) */
	int scaled;               /* a perf counter multiplexed at some point compared (values scaled) */
};

struct counter_model {
	struct counter_change *moved; /* by panel, task count, explaining first, then |change| largest first */
	size_t nmoved;
	size_t tested;            /* counter x cell tests in the correction */
	size_t cells_with_counters; /* cells where both sides stored the kernel's counters (the point
				     * figures are judged without them) */
};

/* Judge every counter of every cell of m (built from the same store); -1 when the store cannot be read. */
int counter_model_build(struct store *st, const struct compare_model *m, struct counter_model *out);
void counter_model_free(struct counter_model *cm);

#endif
