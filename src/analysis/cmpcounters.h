/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What moved with the throughput: each stored counter of a compare's cells, per job, and the point's
 * own figures beside them (the sampler's shares of the machine as they are, the tasks' CPU per job),
 * judged on the compare model's own samples of each cell (the points behind each of its samples) with
 * its test, its looks and one correction; the significant ones and the exact ones, ranked by size,
 * with the samples a side that would show each; and per cell what each side's machine was like. */
#ifndef REAIM_ANALYSIS_CMPCOUNTERS_H
#define REAIM_ANALYSIS_CMPCOUNTERS_H

#include <stddef.h>

#include "analysis/cmpmodel.h"
#include "store/store.h"

/* The most samples a side the power of a move is searched up to; beyond: INFINITY. */
#define COUNTER_SAMPLES_MAX 1000

/* How a listed counter was judged. */
enum counter_kind {
	COUNTER_TESTED,           /* the cell's test (Welch or paired) at its looks: p, adjusted p */
	COUNTER_CONSTANT,         /* no variance to test (every sample of both sides, or every pair's
				   * difference, the same): the difference is exact; no p, not in the family */
};

/* One counter of one cell (a panel's task count) that moved: significantly, or exactly. */
struct counter_change {
	size_t panel;             /* in the compare model's panels */
	int tasks;
	double jpm_change_pct;    /* the cell's Jobs/Min change (its verdict's, else of the means) */
	char source[16], name[96], unit[24]; /* the unit of the counter */
	int per_job;              /* compared per job (a count); 0: as it is (the sampler's share of the machine) */
	enum counter_kind kind;
	int machine;              /* a figure of the machine the run shared (the CPU throttling of reaim's
				   * cgroup, its CPU pressure, the outside load and steal): the few causes asked
				   * of every comparison, a family of their own, as the cells' CPU is in compare */
	int absolute;             /* the base mean is 0: judged by the difference per job (v.diff and its
				   * interval, in the counter's unit); no % change */
	struct verdict v;         /* of the per-job values: both means, difference and its interval, % change
				   * and its interval (not when absolute), p */
	double p_adj;             /* over every counter tested in the comparison (the machine's figures over
				   * theirs); NaN when constant */
	double n_to_show;         /* samples a side (runs, repeats or pairs, as the cell's) at which the MDE at
				   * its family's corrected level (alpha / tests, Bonferroni) falls below the
				   * observed change; INFINITY beyond COUNTER_SAMPLES_MAX; NaN when constant */
	int explains;             /* moves against Jobs/Min: more per job where fewer jobs per minute, or less
				   * where more (listed first) */
	int scaled;               /* a perf counter multiplexed at some point compared (values scaled) */
};

/* What one side's points of a cell saw of the machine, shown whatever moved. */
struct counter_side {
	struct compare_load load; /* the outside load (the compare model's) */
	double cpu_pressure_pct;  /* the point cgroup's CPU pressure (some), the mean of the samples; NaN: not measured */
	double nr_throttled;      /* the CFS bandwidth throttling of reaim's cgroup and its parents, per point
				   * (the mean of the samples); NaN: not stored */
	double throttled_s;
};

/* One cell both sides measured. */
struct counter_cell {
	size_t panel;
	int tasks;
	double jpm_change_pct;
	size_t na, nb;            /* samples */
	int with_counters;        /* both sides stored the kernel's counters here */
	struct counter_side a, b;
	size_t nmoved;            /* of moved[] */
};

struct counter_model {
	struct counter_change *moved; /* by panel, task count; tested before constant; explaining first, then
				       * the largest change first (a change from a base of 0 before any %) */
	size_t nmoved;
	struct counter_cell *cells; /* by panel and task count */
	size_t ncells;
	size_t tested;            /* counter x cell tests in the correction of the counters */
	size_t tested_machine;    /* and in the machine's family */
	size_t cells_with_counters; /* cells where both sides stored the kernel's counters (the point
				     * figures are judged without them) */
};

/* Judge every counter of every cell of m (built from the same store); -1 when the store cannot be read. */
int counter_model_build(struct store *st, const struct compare_model *m, struct counter_model *out);
void counter_model_free(struct counter_model *cm);

#endif
