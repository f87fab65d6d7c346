/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Outputs other programs parse, as classic re-aim-7, AIM Suite VII and IX and LAVA wrote them:
 * pure functions over stored points (in store_get_points order). */
#ifndef REAIM_REPORT_CLASSIC_H
#define REAIM_REPORT_CLASSIC_H

#include <stddef.h>
#include <stdio.h>

#include "store/store.h"

/* "Workload dbase, O_SYNC off" after lead (a comment mark where the format has one): the heading of a
 * block in every export that has headings. */
void report_export_heading(FILE *f, const char *lead, const struct store_point *p);
/* The end of the block at start: one workload, CPU count and O_SYNC setting (store_get_points gives
 * them grouped so, O_SYNC off first). */
size_t report_export_block_end(const struct store_point *pts, size_t n, size_t start);

/* re-aim-7's stdout: the sync line it printed before anything else (nosync: -y was given). */
void report_reaim7_preamble(FILE *f, int nosync);
/* The heading re-aim-7 printed before each round of task counts. */
void report_reaim7_header(FILE *f);
/* One point as re-aim-7's row: tasks, parent time, child sys and user time, Jobs/Min, Jobs/Min
 * per task, std dev (s and %), JTI; nothing for an invalid point (classic never printed one). */
void report_reaim7_row(FILE *f, const struct store_point *p);
/* "Max Jobs per Minute N" over the valid points given measured without a background load; nothing
 * when none is. */
void report_reaim7_max(FILE *f, const struct store_point *pts, size_t n);
/* The table as the points come, in run order: a header when a round (or a workload or O_SYNC
 * setting) begins, a row per point, its Max line when it ends (none for a round without a valid point) (report_reaim7_stream_end closes
 * the last). */
struct reaim7_stream {
	FILE *f;
	int open;
	int64_t workload_id;
	int osync, repeat;
	double max;
	int any;                  /* a valid point in the round: without one, no Max line */
};
void report_reaim7_stream(struct reaim7_stream *s, const struct store_point *p);
void report_reaim7_stream_end(struct reaim7_stream *s);
/* The whole table: per workload and O_SYNC setting, per round, header, rows and Max line. */
void report_reaim7(FILE *f, const struct store_point *pts, size_t n);
/* re-aim-7's single-user (-o) table: each test's last valid point. */
void report_reaim7_single(FILE *f, const struct store_point *pts, size_t n);

/* PREFIX.csv as re-aim-7 wrote it: its header, one row per valid point. */
void report_classic_csv(FILE *f, const struct store_point *pts, size_t n);

/* AIM Suite VII's multitask table ("Tasks jobs/min jti jobs/min/task real cpu"). */
void report_aim7(FILE *f, const struct store_point *pts, size_t n);
/* AIM Suite IX's single-user table, one row per test (its last valid point). */
void report_aim9(FILE *f, const struct store_point *pts, size_t n);
/* The name AIM9 printed for a test (creat-clo for creat_clo). */
const char *report_aim9_name(const char *test);

struct test_def;
/* Calls per second of a single-user point (in *rate), and operations per second by the catalog's
 * count, returned (a disk test's operation is a KiB: the file size, half of it for the n/2 tests). */
double report_single_ops(const struct store_point *p, const struct test_def *t, double *rate);

/* LAVA result lines, "NAME pass|fail VALUE UNITS": Jobs/Min, Real, CPU and JTI of each point and a
 * maximum per workload, O_SYNC setting and variant (the best mean over rounds, the peak show and
 * compare name); a variant's points are named WORKLOAD-variant_NAME-...; single (AIM9 runs): one
 * ops/s line per test. */
void report_lava(FILE *f, const struct store_point *pts, size_t n, int single);
/* (classic.c, beside the formats that say it) The run ended without completing: failed or interrupted (a run still going has not ended). */
int report_run_ended_badly(const struct store_run_row *run);
/* "failed", "was interrupted": how it ended, for a sentence. */
const char *report_run_ended_how(const struct store_run_row *run);
/* The run's own LAVA result: "run-complete pass" when it completed, "run-complete fail" when it failed or
 * was interrupted (its points' results alone would all pass), "run-complete unknown" while it runs. */
void report_lava_run(FILE *f, const struct store_run_row *run);

#endif
