/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A panel's verdict in words: the name of what the comparison model concluded, and its one line
 * ("B is 4.3 % ± 1.1 % slower than A (95 %) at 3 of 4 task counts, Holm") that the text, the JSON
 * and the report all print. The conclusion and its numbers are the model's (compare_summary). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"
#include "util/util.h"

const char *report_verdict_name(enum compare_verdict k)
{
	static const char *const names[] = {
		[COMPARE_UNCHANGED] = "no significant change", [COMPARE_BETTER] = "improvement",
		[COMPARE_WORSE] = "regression",                [COMPARE_MIXED] = "mixed",
		[COMPARE_UNJUDGED] = "cannot judge",           [COMPARE_NO_DATA] = "nothing in common",
	};
	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "?";
}

/* "4.3 % ± 1.1 %", or "4.3 % (an unbounded interval)". */
static void strbuf_change(struct strbuf *sb, double pct, double half)
{
	if (isfinite(half))
		strbuf_addf(sb, "%.1f %% \xc2\xb1 %.1f %%", fabs(pct), half);
	else
		strbuf_addf(sb, "%.1f %% (an unbounded interval)", fabs(pct));
}

/* "B" for groups; "B (O_SYNC on)" or "B (variant x)" inside one run. */
static void strbuf_side(struct strbuf *sb, const struct compare_model *m, size_t side)
{
	strbuf_addf(sb, "%s", m->sides[side].letter);
	if (m->kind != COMPARE_GROUPS)
		strbuf_addf(sb, " (%s)", m->sides[side].label);
}

void report_panel_line(const struct compare_model *m, const struct compare_panel *p, char *buf, size_t len)
{
	const struct compare_summary *v = &p->summary;
	struct strbuf sb = {0};
	char level[32];
	snprintf(level, sizeof(level), "%g %%", 100 * (1 - m->alpha));
	const char *corr = m->correction == COMPARE_BH ? "Benjamini-Hochberg" : "Holm";
	strbuf_side(&sb, m, p->side);
	switch (v->kind) {
	case COMPARE_WORSE:
	case COMPARE_BETTER:
		strbuf_addf(&sb, " is ");
		strbuf_change(&sb, v->kind == COMPARE_WORSE ? v->worse_pct : v->better_pct,
			      v->kind == COMPARE_WORSE ? v->worse_half_pct : v->better_half_pct);
		strbuf_addf(&sb, " %s than ", v->kind == COMPARE_WORSE ? "slower" : "faster");
		strbuf_side(&sb, m, 0);
		strbuf_addf(&sb, " (%s) at %zu of %zu task counts, %s", level, v->kind == COMPARE_WORSE ? v->worse : v->better,
			    v->common, corr);
		break;
	case COMPARE_MIXED:
		strbuf_addf(&sb, " is ");
		strbuf_change(&sb, v->worse_pct, v->worse_half_pct);
		strbuf_addf(&sb, " slower than ");
		strbuf_side(&sb, m, 0);
		strbuf_addf(&sb, " at %zu and ", v->worse);
		strbuf_change(&sb, v->better_pct, v->better_half_pct);
		strbuf_addf(&sb, " faster at %zu of %zu task counts (%s), %s", v->better, v->common, level, corr);
		break;
	case COMPARE_UNCHANGED:
		strbuf_addf(&sb, " is within the noise of ");
		strbuf_side(&sb, m, 0);
		if (v->judged == v->common)
			strbuf_addf(&sb, " at all %zu task counts", v->common);
		else
			strbuf_addf(&sb, " at the %zu of %zu task counts judged", v->judged, v->common);
		strbuf_addf(&sb, " (%s, %s", level, corr);
		if (isfinite(v->mde_pct))
			strbuf_addf(&sb, "; it could detect about %.1f %%", v->mde_pct);
		strbuf_addf(&sb, ")");
		break;
	case COMPARE_UNJUDGED:
		strbuf_addf(&sb, " against ");
		strbuf_side(&sb, m, 0);
		strbuf_addf(&sb, ": none of the %zu task counts in common can be judged (fewer than 2 samples a side)",
			    v->common);
		break;
	case COMPARE_NO_DATA:
		strbuf_addf(&sb, " and ");
		strbuf_side(&sb, m, 0);
		strbuf_addf(&sb, " have no task count in common");
		break;
	}
	if (v->noisy)
		strbuf_addf(&sb, "; points measured in noise at %zu of them", v->noisy);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_free(&sb);
}

const char *report_judged_cells(size_t n, const char *how, char *buf, size_t len)
{
	if (n == 0)
		snprintf(buf, len, "no cell (none could be judged)");
	else
		snprintf(buf, len, "the %zu cell%s %s", n, n == 1 ? "" : "s", how);
	return buf;
}
