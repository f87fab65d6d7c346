/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison wing's own header: what its files share while a model is built (never included
 * outside src/analysis/cmp*.c). */
#ifndef REAIM_ANALYSIS_CMPBUILD_H
#define REAIM_ANALYSIS_CMPBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/cmpmodel.h"
#include "analysis/verdict.h"
#include "store/store.h"

/* A run as read: its row, its points and (loaded when first needed) each point's tests. */
struct crun {
	int64_t id;
	struct store_run_row row;
	struct store_point *pts;
	size_t n;
	struct store_test **tests;
	size_t *ntests;
	int *loaded;
	struct store_option *opts; /* its workloads' stored options, read when first needed */
	size_t nopts;
	int opts_loaded;
	char *device;              /* the lab's device it ran on (reaim lab), NULL: none */
};

/* What a block is: the points of a side that measured it. */
struct key {
	const char *workload;
	int osync;                /* -1: the side says */
	const char *variant;      /* NULL: the side says */
	int cpus;                 /* --cpus: the CPU count (0: every CPU) */
	const char *load;         /* --load: the background load ("" without); NULL: the side says */
	int skip_noisy;           /* --exclude-noisy: points measured in noise are left out */
};

struct build {
	struct store *st;
	struct compare_model *m;
	struct crun *runs;
	size_t nruns;
	size_t *side_run0;        /* per side, the index of its first run in runs */
	int blocked;              /* every run from a lab's device: the sides are paired by device */
};

/* The figures a cell compares, by their place in a point; the judged figure's (FIG_METRIC: Jobs/Min
 * unless --metric) and the CPU figure's places are the model's, and others' demand (FIG_LOAD) where
 * the run could not move it. */
enum { FIG_METRIC, FIG_CPU, FIG_USER, FIG_SYS, FIG_REAL, FIG_LOAD, NFIG };

/* A caution's fields: NOTE(code, level, ...named fields, both sides or NO_SIDES). */
#define NO_SIDES .side = -1, .base_side = -1
#define NOTE(c, l, ...)                                                                                      \
	(struct compare_note)                                                                                \
	{                                                                                                    \
		.code = (c), .level = (l),                                                                   \
		__VA_ARGS__                                                                                  \
	}

/* cmpsample.c */
struct crun *cmp_run_of(struct build *b, int64_t id);
int cmp_load_run(struct build *b, int64_t id);
/* The most looks of the runs of a side (its samples are one run's repeats where this matters). */
size_t cmp_side_looks(struct build *b, const struct compare_side *s, const char *workload);
/* A point's per-test rows (read once); NULL when it has none or they cannot be read. */
const struct store_test *cmp_tests_of(struct build *b, struct crun *r, size_t i, size_t *n);
/* Whether a point belongs to a side's share of a block. */
int cmp_matches(const struct compare_side *s, const struct key *k, const struct store_point *p);
double cmp_field(const struct build *b, const struct store_point *p, size_t f);
/* Whether a point is one of a side's samples of a cell: the block's, at the task count, and with the
 * judged figure measured (a sampler's figure is not where the sampler did not run). */
int cmp_takes(const struct build *b, const struct compare_side *s, const struct key *k, int tasks,
	      const struct store_point *p);
/* A change in the way that counts as better: the change of a figure where a rise is better, minus it
 * where a rise is worse. */
double cmp_gain(const struct compare_model *m, double change_pct);
void cmp_points_add(struct compare_cell_points *cp, int64_t id, size_t sample);
void cmp_points_free(struct compare_cell_points *cp);
/* Whether every valid point loaded has its CPU over the measured window (schema 13 on): then CPU is
 * that, as in reaim's table; one older run makes it the whole-life figure on both sides. */
int cmp_all_have_window_cpu(const struct build *b);
/* A side's replicates of each figure at one task count (groups of runs): each run's values, then
 * verdict_group_samples (run means with two or more runs, else the one run's repeats). */
void cmp_side_samples(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
		      struct verdict_samples out[NFIG], struct compare_cell_points *cp);
double cmp_mean_of(const double *v, size_t n);
double cmp_pct_change(double a, double b);
/* Mean of the values that are not NaN (k of n). */
double cmp_mean_of_valid(const double *v, size_t n, size_t k);
/* The values of one figure of a side's only run by round (NaN where a round has no valid point). */
size_t cmp_side_rounds(struct build *b, const struct compare_side *s, const struct key *k, int tasks, size_t f,
		       double **out);
/* The pairs (a_i, b_i) of rounds both sides measured. */
size_t cmp_pairs(const double *a, size_t na, const double *b, size_t nb, double *pa, double *pb);
/* qsort's order of doubles, ascending. */
int cmp_by_double(const void *x, const void *y);
/* The median of n values (NaN when none); v is left as it was. */
double cmp_median_of(const double *v, size_t n);

/* cmpcell.c */
void cmp_cell_paired(struct build *b, const struct compare_side *sa, const struct compare_side *sb, const struct key *k,
		     struct compare_cell *c);
void cmp_cell_groups(struct build *b, const struct compare_side *sa, const struct compare_side *sb, const struct key *k,
		     struct compare_cell *c);
/* Groups of runs from a lab: each run's mean is a sample, and side b's are paired with side a's on the
 * same device in the order they ran, so a device's own speed drops out of every pair's difference (a
 * blocked design); the paired test judges the pairs. */
void cmp_cell_blocked(struct build *b, const struct compare_side *sa, const struct compare_side *sb,
		      const struct key *k, struct compare_cell *c);
/* Each run of a side with a point at a cell: its mean over the points the cell takes there. */
size_t cmp_cell_runs(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
		     struct compare_run_value **out);

/* cmppanel.c */
/* The blocks the base side measured, in the order it first did: one per workload, O_SYNC setting
 * and variant, less what the sides themselves select. */
size_t cmp_block_keys(struct build *b, struct key **out);
void cmp_build_panel(struct build *b, const struct key *k, size_t side, struct compare_panel *pn);
void cmp_correct(struct compare_model *m);

/* cmpsubtest.c */
void cmp_panel_subtests(struct build *b, const struct key *k, struct compare_panel *pn);

/* cmpnote.c */
/* Add a caution: its strings (value, base_value, fact) copied, its arrays (runs, sides, at, config)
 * taken over; a note naming a run and no runs gets runs {run}. */
void cmp_note(struct compare_model *m, struct compare_note n);
/* A cell the note is about, with each side's count there (0, 0 where the code counts none). */
void cmp_note_at(struct compare_note *n, const char *workload, int tasks, size_t a, size_t b);
void cmp_note_free(struct compare_note *n);
void cmp_free_strings(char **v, size_t n);
void cmp_warnings(struct build *b);
/* A caution per panel with points measured in noise: where, how many a side, and the first reason. */
void cmp_noise_cautions(struct compare_model *m);
/* A caution per panel whose paired rounds lost a partner. */
void cmp_unpaired_cautions(struct compare_model *m);
/* A caution per panel with cells confounded with the outside load, naming both sides' loads. */
void cmp_confounded_cautions(struct compare_model *m);

/* cmpgate.c */
/* What the comparison could not judge: cells the base has that another side lacks (a caution per
 * panel), and why a gate cannot pass. */
void cmp_judgeable(struct compare_model *m);
void cmp_decide_gate(struct compare_model *m);
void cmp_gate_why_free(struct compare_gate_why *w);


#endif
