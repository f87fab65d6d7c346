/* Output people read: the classic table, run listings and the per-test breakdown. */
#ifndef REAIM_REPORT_H
#define REAIM_REPORT_H

#include <stdio.h>

#include "report/curve.h"
#include "store/store.h"

/* "Workload dbase, O_SYNC on" heading before a block of rows. */
void report_block_heading(FILE *f, const char *workload, int osync);
void report_table_header(FILE *f, int verbose);
void report_table_row(FILE *f, const struct store_point *p, int verbose);
/* Mean, CV, range and count of the repeats of each task count (runs of consecutive points
 * with one task count); prints nothing when no task count was repeated. */
void report_repeats(FILE *f, const struct store_point *pts, size_t n);
/* "Max Jobs per Minute 782.6 at 64 tasks" over the valid points given. */
void report_max_line(FILE *f, const struct store_point *pts, size_t n);

/* `reaim show`: heading, environment, classic table per workload, per-test figures. */
int report_show(FILE *f, struct store *st, int64_t run_id, int verbose, int tests, int samples);
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

/* Curves of a run (one per workload and O_SYNC setting) of Jobs/Min, or of another metric
 * (the curve's jpm summary then holds that metric); free with curves_free. */
int curves_load(struct store *st, int64_t run_id, struct curve **out, size_t *n);
int curves_load_metric(struct store *st, int64_t run_id, const struct metric *m, struct curve **out, size_t *n);
void curves_free(struct curve *c, size_t n);
const struct curve_point *curve_at(const struct curve *c, int tasks);
const struct curve_point *curve_peak(const struct curve *c);

struct compare_options {
	const char *format;       /* a name from report_compare_formats; NULL: table */
	double alpha;             /* significance level, 0.05 */
	double fail_above_pct;    /* 0: off */
};
/* `reaim compare`: the first run is the base. Sets *regressed when a significant drop (or,
 * where significance cannot be judged, any drop) is larger than fail_above_pct. */
int report_compare(FILE *f, struct store *st, const int64_t *runs, size_t n, const struct compare_options *o,
		   int *regressed);
/* A compare format: its --format name, one line of help, and its writer's three steps (begin
 * and end may be NULL): before the first block, per workload and O_SYNC setting, after. */
struct compare_ctx; /* the runs, their curves and the block being written (compare.c) */
struct compare_format {
	const char *name, *help;
	void (*begin)(FILE *f, const struct compare_ctx *c);
	void (*block)(FILE *f, struct compare_ctx *c);
	void (*end)(FILE *f, const struct compare_ctx *c);
};
extern const struct compare_format report_compare_formats[]; /* ends with a NULL name */

/* O_SYNC on against off within one run made with osync both. */
int report_osync_ratio(FILE *f, struct store *st, int64_t run);

#endif
