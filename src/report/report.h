/* Output people read: the classic table, run listings and the per-test breakdown. */
#ifndef REAIM_REPORT_H
#define REAIM_REPORT_H

#include <stdio.h>

#include "store/store.h"

/* "Workload dbase, O_SYNC on" heading before a block of rows. */
void report_block_heading(FILE *f, const char *workload, int osync);
void report_table_header(FILE *f, int verbose);
void report_table_row(FILE *f, const struct store_point *p, int verbose);
/* "Max Jobs per Minute 782.6 at 64 tasks" over the valid points given. */
void report_max_line(FILE *f, const struct store_point *pts, size_t n);

/* `reaim show`: heading, environment, classic table per workload, per-test figures. */
int report_show(FILE *f, struct store *st, int64_t run_id, int verbose, int tests);
/* `reaim list`. */
int report_list(FILE *f, struct store *st, size_t limit);
/* `reaim export`: csv (classic re-aim header), json, lkp or classic. */
int report_export(FILE *f, struct store *st, int64_t run_id, const char *format);

#endif
