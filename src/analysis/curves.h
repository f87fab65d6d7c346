/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A Jobs/Min curve of one run (one workload, O_SYNC setting and variant): the input of compare and plot. */
#ifndef REAIM_ANALYSIS_CURVES_H
#define REAIM_ANALYSIS_CURVES_H

#include <stddef.h>

#include <stdint.h>

#include "measure/measure.h"
#include "store/store.h"

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
	char load[32];            /* the --load the points ran beside (no_load the base), "" for none */
	int cpus;                 /* the --cpus count they were confined to, 0 for every CPU */
	struct curve_point *points; /* ascending task counts, only those with a valid repeat */
	size_t count;
};

void curve_free(struct curve *c);

/* A figure a curve can follow across task counts. */
struct metric {
	const char *name, *label;
	size_t offset;            /* of a double in struct store_point */
	int sampled;              /* comes from the system sampler */
	int rise_better;          /* a rise is better (Jobs/Min, KB/s); else a rise is worse (times, CPU) */
	const char *unit;         /* store/figures.h's: "s", "%", "jobs/min", "KB/s" */
};
const struct metric *metric_find(const char *name);
const struct metric *metric_list(void); /* ends with a NULL name */
/* Whether the figure's sum over cases means something (a TOTAL row): times, bytes, a disk's bandwidth;
 * not Jobs/Min, JTI or a share. */
int metric_adds_up(const struct metric *m);

/* Curves of a run (one per workload, O_SYNC setting, variant, background load and CPU count) of Jobs/Min, or of another metric
 * (the curve's jpm summary then holds that metric); free with curves_free. */
int curves_load(struct store *st, int64_t run_id, struct curve **out, size_t *n);
int curves_load_metric(struct store *st, int64_t run_id, const struct metric *m, struct curve **out, size_t *n);
/* The same without the points measured in noise when skip_noisy (as --exclude-noisy judges). */
int curves_load_quiet(struct store *st, int64_t run_id, const struct metric *m, int skip_noisy, struct curve **out,
		      size_t *n);
void curves_free(struct curve *c, size_t n);
/* The curve of one block's points (one workload and O_SYNC setting), sorted by task count. */
void curve_from_points(struct curve *c, const struct store_point *pts, size_t n, const struct metric *m);
const struct curve_point *curve_at(const struct curve *c, int tasks);
/* One curve of several runs' curves of one block: at a task count two or more runs have, each run's
 * mean is one sample (its summary is of those means); where one run has it, that run's repeats. The
 * samples compare takes, so a group's curve shows what its verdict was drawn from. */
void curve_merge(struct curve *out, const struct curve *const *in, size_t n);
/* The variants of a block's points ("" for none) in the order they first ran (by point id):
 * the first is the base of an in-run comparison. *names points into pts; free the array. */
size_t curve_variants(const struct store_point *pts, size_t n, const char ***names);
/* The arms of a block's points, each a variant, background load and CPU count, in the order they
 * first ran: *first gets the first point of each (pointers into pts; free the array). */
size_t curve_arms(const struct store_point *pts, size_t n, const struct store_point ***first);
/* The points of pts of the arm `arm` is a point of, into out (room for n); how many. */
size_t curve_select_arm(const struct store_point *pts, size_t n, const struct store_point *arm, struct store_point *out);
/* The points of one variant, in their order, copied into out (room for n); how many. */
size_t curve_select_variant(const struct store_point *pts, size_t n, const char *variant, struct store_point *out);
const struct curve_point *curve_peak(const struct curve *c);

#endif
