/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The progress line on stderr: workload, O_SYNC setting, task count i of n, repeat, elapsed
 * and ETA, redrawn in place by a thread; only on a terminal and never inside the table. */
#ifndef REAIM_REPORT_PROGRESS_H
#define REAIM_REPORT_PROGRESS_H

#include <stddef.h>

/* Start when stderr is a terminal and enabled; otherwise every call below does nothing. */
void progress_start(int enabled, size_t total_points);
/* A point begins: index is 1-based over the whole run. */
void progress_point(const char *workload, int osync, int tasks, size_t index, int repeat, int repeats);
/* A point ended: the line is erased (the table row comes next) and counts for the ETA. */
void progress_point_done(void);
void progress_stop(void);

#endif
