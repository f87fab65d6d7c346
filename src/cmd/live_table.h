/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run view of `reaim run`: the classic table on stdout as the points are stored, and the
 * progress line on stderr. */
#ifndef REAIM_CMD_LIVE_TABLE_H
#define REAIM_CMD_LIVE_TABLE_H

#include "report/report.h"
#include "run/view.h"

struct live_table {
	int verbose;              /* the extra columns */
	struct report_block rb;   /* the block being printed */
};

/* The view that prints to stdout through t. */
struct run_view live_table_view(struct live_table *t);
/* Only the progress line: the callbacks a view that prints other rows keeps. */
void live_table_progress(struct run_view *v);

#endif
