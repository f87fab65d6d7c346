/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim report`: one self-contained HTML page about stored runs, and the verdict it leads with. */
#ifndef REAIM_REPORT_HTML_H
#define REAIM_REPORT_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/cmpmodel.h"
#include "analysis/curves.h"
#include "store/store.h"

/* Writes s as HTML text: markup characters escaped, control characters and bytes that are not UTF-8
 * as U+FFFD; with keep_lines, newlines and tabs are kept (for <pre>). */
void html_text(FILE *f, const char *s, int keep_lines);

struct html_options {
	const char *title;        /* NULL: "reaim report: A vs B" */
	double alpha;             /* significance level of the verdicts; 0: 0.05 */
	int correction;           /* enum compare_correction */
	int exclude_noisy;        /* judge without the points measured in noise */
	const char *metric;       /* the figure the verdicts, tables and plots judge (NULL: jobs_per_min) */
	const int *stats;         /* what the tables' cells show of a side's samples (enum compare_stat), in
				   * order, as compare --stat; NULL or nstats 0: the mean */
	size_t nstats;
	int runs;                 /* a row per run under each side's figure, as compare --runs */
};
/* The page about groups of runs, as compare takes them (the first group the base; one group of one
 * run: its variants or O_SYNC settings): the comparison model's verdicts, notes and tables, the
 * counters that moved significantly (as compare --counters), a plot per workload, the system figures and subtests behind a change, the environment with its differences,
 * and how each run was made. 0, or -1 with the reason in err. */
int report_html(FILE *f, struct store *st, const struct compare_group *groups, size_t ngroups,
		const struct html_options *o, char *err, size_t errlen);

#endif
