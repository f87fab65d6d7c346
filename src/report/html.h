/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim report`: one self-contained HTML page about stored runs, and the verdict it leads with. */
#ifndef REAIM_HTML_H
#define REAIM_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/curve.h"
#include "store/store.h"

enum verdict_kind {
	VERDICT_UNCHANGED,        /* judged, nothing significant */
	VERDICT_BETTER,           /* significantly higher Jobs/Min somewhere, lower nowhere */
	VERDICT_WORSE,            /* significantly lower somewhere, higher nowhere: a regression */
	VERDICT_MIXED,            /* both */
	VERDICT_UNJUDGED,         /* no task count with two or more repeats on both sides */
	VERDICT_NO_DATA,          /* no task count in common */
};

/* One curve against its base over the task counts both have. */
struct curve_verdict {
	enum verdict_kind kind;
	size_t common, judged, better, worse;
	double geomean_pct;       /* geometric mean of the ratios, as a % change */
	double worst_pct, best_pct;
	int worst_tasks, best_tasks; /* 0: none significant that way */
};

/* The one place a report decides better, worse or unchanged, as `compare` judges a task count: Welch's
 * t-test at alpha where both sides have two or more repeats, and the geometric mean of the ratios for
 * how much. Swap this function to change how every report judges. */
void report_verdict(const struct curve *base, const struct curve *other, double alpha, struct curve_verdict *out);
/* "regression", "improvement", ... and a sentence saying why. */
const char *report_verdict_name(enum verdict_kind k);
void report_verdict_text(const struct curve_verdict *v, char *buf, size_t len);

/* Writes s as HTML text: markup characters escaped, control characters and bytes that are not UTF-8
 * as U+FFFD; with keep_lines, newlines and tabs are kept (for <pre>). */
void html_text(FILE *f, const char *s, int keep_lines);

struct html_options {
	const char *title;        /* NULL: "reaim report: A vs B" */
	double alpha;             /* significance level of the verdicts; 0: 0.05 */
};
/* The page about runs[0..n) (the first is the base): verdicts, the compare table, a plot per workload,
 * the system figures and subtests behind a change, the environment with its differences, and how
 * each run was made. 0, or -1 with the reason in err. */
int report_html(FILE *f, struct store *st, const int64_t *runs, size_t n, const struct html_options *o, char *err,
		size_t errlen);

#endif
