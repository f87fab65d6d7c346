/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output people read: the classic table, run listings and the per-test breakdown. */
#ifndef REAIM_REPORT_H
#define REAIM_REPORT_H

#include <stdio.h>

#include "report/curve.h"
#include "store/store.h"

/* What a block of rows (one workload and O_SYNC setting) needs besides its points: filled
 * from the plan while a run goes, and from the stored run and workload rows by `show`, so
 * both print the same text. */
struct report_block {
	const char *workload;
	int osync;
	int mode;                 /* enum run_mode */
	int rounds;               /* repeats asked for; more than one adds a Round column */
	double threshold;         /* Jobs/Min per task that ends crossover and quick modes */
	int verbose;              /* the extra columns */
	int variants;             /* the points carry variants: a Variant column, summaries per variant */
	double precision;         /* --precision asked (0: not): the interval reached per task count */
};
/* "Workload dbase, O_SYNC on" and the column header. */
void report_block_begin(FILE *f, const struct report_block *b);
/* One point's row, printed as it completes. */
void report_block_row(FILE *f, const struct report_block *b, const struct store_point *p);
/* After the rows, over the block's points in the order they ran: the crossover or peak line,
 * the means over rounds and the Max Jobs per Minute line (of the means, as compare and plot
 * use). finished is 0 when the run stopped inside the block: no peak is claimed then. */
void report_block_end(FILE *f, const struct report_block *b, const struct store_point *pts, size_t n,
		      int finished);

/* Why a stored point was measured in noise ("outside load 23.4 % of the machine"), or NULL when it was
 * not (or was stored before reaim judged noise). The point is still valid. */
const char *report_point_noise(const struct store_point *p);
/* Among the valid points of pts[0..n) at `tasks` tasks (0: at every task count), how many are noisy, with
 * the reason of the noisiest (the highest outside share or steal) in why ("" when none). */
size_t report_points_noise(const struct store_point *pts, size_t n, int tasks, char *why, size_t len);

/* Single-user mode: a heading per workfile and O_SYNC setting, then a row per test from the
 * point that measured it (the last of its calibration points). */
void report_single_begin(FILE *f, const char *workfile, int osync, long long file_kib);
void report_single_row(FILE *f, const struct store_point *p);

struct plan;
/* `--dry-run`: every workload's options (from the option table), its task counts with file
 * sizes and disk space, the number of points and a time estimate from the stored runs in st
 * (NULL: no database, so no estimate). */
void report_plan(FILE *f, const struct plan *p, struct store *st);

/* `reaim show`: heading, environment, classic table per workload, per-test figures. */
int report_show(FILE *f, struct store *st, int64_t run_id, int verbose, int tests, int samples);
/* `reaim show --files`: the suite and each workfile as stored with the run. */
int report_show_files(FILE *f, struct store *st, int64_t run_id);
/* `reaim list`. */
int report_list(FILE *f, struct store *st, const struct run_filter *filter);
/* An export format: its --format name, one line of help, and its writer. */
struct export_format {
	const char *name, *help;
	void (*write)(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *pts,
		      size_t n);
};
extern const struct export_format report_export_formats[]; /* ends with a NULL name */
/* `reaim export`: the run in a format of report_export_formats, by name; -1 when the run cannot
 * be read (store_error says why) or the name is not in the table (errno EINVAL). */
int report_export(FILE *f, struct store *st, int64_t run_id, const char *format);

/* A figure a curve can follow across task counts. */
struct metric {
	const char *name, *label;
	size_t offset;            /* of a double in struct store_point */
	int sampled;              /* comes from the system sampler */
};
const struct metric *metric_find(const char *name);
const struct metric *metric_list(void); /* ends with a NULL name */

/* Curves of a run (one per workload, O_SYNC setting and variant) of Jobs/Min, or of another metric
 * (the curve's jpm summary then holds that metric); free with curves_free. */
int curves_load(struct store *st, int64_t run_id, struct curve **out, size_t *n);
int curves_load_metric(struct store *st, int64_t run_id, const struct metric *m, struct curve **out, size_t *n);
void curves_free(struct curve *c, size_t n);
/* The curve of one block's points (one workload and O_SYNC setting), sorted by task count. */
void curve_from_points(struct curve *c, const struct store_point *pts, size_t n, const struct metric *m);
const struct curve_point *curve_at(const struct curve *c, int tasks);
/* The variants of a block's points ("" for none) in the order they first ran (by point id):
 * the first is the base of an in-run comparison. *names points into pts; free the array. */
size_t curve_variants(const struct store_point *pts, size_t n, const char ***names);
/* The points of one variant, in their order, copied into out (room for n); how many. */
size_t curve_select_variant(const struct store_point *pts, size_t n, const char *variant, struct store_point *out);
const struct curve_point *curve_peak(const struct curve *c);

struct compare_options {
	const char *format;       /* a name from report_compare_formats; NULL: table */
	double alpha;             /* significance level, 0.05 */
	double fail_above_pct;    /* 0: off */
	int correction;           /* enum compare_correction (report/compare.h): Holm, or Benjamini-Hochberg */
};
struct compare_group;
/* `reaim compare`: two or more groups of runs (each run's mean per task count is one sample; one run
 * a side: its repeats, with a caution), the first the base; or one group of one run: its variants
 * (else its O_SYNC settings) paired round by round. Sets *regressed when a drop larger than
 * fail_above_pct is significant after the correction over every cell (or, where significance
 * cannot be judged, any such drop). -1 when the store cannot be read (store_error says why). */
int report_compare(FILE *f, struct store *st, const struct compare_group *groups, size_t n,
		   const struct compare_options *o, int *regressed);
/* A compare format: its --format name, one line of help, and its writer's steps (end may be NULL):
 * before the first panel, per panel (a workload, O_SYNC setting and variant of one side against the
 * base), after. */
struct compare_model;
struct compare_panel;
struct compare_format {
	const char *name, *help;
	void (*begin)(FILE *f, const struct compare_model *m);
	void (*panel)(FILE *f, const struct compare_model *m, const struct compare_panel *p);
	void (*end)(FILE *f, const struct compare_model *m);
};
extern const struct compare_format report_compare_formats[]; /* ends with a NULL name */

#endif
