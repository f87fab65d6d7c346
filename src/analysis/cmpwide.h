/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wide view of a compare model: a block per workload, O_SYNC setting and variant with every side's
 * panel side by side, and the summary rows mmtests prints under such a table (the arithmetic,
 * harmonic and geometric means over the block's task counts, each with its change against the base).
 * It only regroups the model's cells and sums them up: every verdict stays the model's. */
#ifndef REAIM_ANALYSIS_CMPWIDE_H
#define REAIM_ANALYSIS_CMPWIDE_H

#include <stddef.h>

#include "analysis/cmpmodel.h"

enum wide_stat { WIDE_AMEAN, WIDE_HMEAN, WIDE_GMEAN, WIDE_NSTATS };
/* "Amean", "Hmean", "Gmean": the row names, as mmtests prints them. */
const char *compare_wide_stat_name(enum wide_stat s);

/* One block: its panel against each other side, and its summary rows. */
struct wide_block {
	int has_loads;            /* a panel of it has a background load's figures (Loads, LCPU%) */
	const struct compare_panel **panels; /* [side]; [0] and sides without the block NULL */
	const struct compare_panel *first;   /* the first panel: workload, O_SYNC setting, variant, task counts */
	size_t ncommon;           /* task counts where every side has a mean: the summary rows are over these
				   * (0 where fewer than 2: one task count's summary would only repeat its row) */
	double *stat;             /* [stat * nsides + side]: the summary of the side's means (NaN: none) */
	double *stat_pct;         /* the same against the base's, in % (NaN for the base) */
	double *peak;             /* [side]: the side's best mean over the block's task counts (the highest, the
				   * lowest of a figure whose rise is worse), NaN where it has none */
	int *peak_tasks;          /* [side]: where (0: none) */
	double *peak_pct;         /* [side]: against the base's peak, in % (NaN for the base): peaks compared
				   * across groups, wherever each side's lies ("-test8's peak is 52 % of -test5's") */
};

struct wide_model {
	const struct compare_model *m;
	struct wide_block *blocks; /* by workload as the base first measured it, O_SYNC off before on */
	size_t nblocks;
	double *all_geo_pct;      /* [side]: geomean of the side's ratios to the base over every cell both have */
	size_t *all_cells;        /* [side]: the cells in it */
	double *total;            /* [side]: the TOTAL row, the sum of the side's means over the cells every side
				   * has (a suite's bandwidth over its cases, as the writeback tables add them) */
	double *total_pct;        /* [side]: its change against the base's, in % (NaN for the base) */
	size_t total_cells;       /* the cells summed */
};

/* The wide view of m (which must outlive it). */
void compare_wide_build(const struct compare_model *m, struct wide_model *w);
void compare_wide_free(struct wide_model *w);
/* A side's mean at row i of a block: the base's from its first panel, another side's where it has one
 * (NaN where not). */
double compare_wide_mean(const struct wide_block *b, size_t side, size_t i);
/* The cell of a block at row i (its task count is first->cells[i].tasks) for side s (> 0), or NULL. */
const struct compare_cell *compare_wide_cell(const struct wide_block *b, size_t side, size_t i);
/* A side's background load at row i of a block, as the model's cells have it: its mean units of work
 * (contest's Loads) and CPU in % of one CPU; NaN where the side ran none or has no cell. */
void compare_wide_loads(const struct wide_block *b, size_t side, size_t i, double *loads, double *lcpu);

#endif
