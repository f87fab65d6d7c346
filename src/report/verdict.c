/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict on one curve against its base: better, worse, mixed, unchanged or not judged, with how
 * much and where. Reports take their conclusion from here only. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/stats.h"
#include "report/html.h"
#include "report/report.h"
#include "util/util.h"

void report_verdict(const struct curve *base, const struct curve *other, double alpha, struct curve_verdict *out)
{
	*out = (struct curve_verdict){.kind = VERDICT_NO_DATA};
	double *ratios = xcalloc(base->count + 1, sizeof(double));
	size_t nr = 0;
	for (size_t i = 0; i < base->count; i++) {
		const struct curve_point *b = &base->points[i], *o = curve_at(other, b->tasks);
		if (!o || !(b->jpm.mean > 0) || !(o->jpm.mean > 0))
			continue;
		out->common++;
		ratios[nr++] = o->jpm.mean / b->jpm.mean;
		struct welch w;
		if (stats_welch(&b->jpm, &o->jpm, alpha, &w) < 0)
			continue;
		out->judged++;
		if (!w.significant)
			continue;
		if (w.diff_pct < 0) {
			out->worse++;
			if (!out->worst_tasks || w.diff_pct < out->worst_pct) {
				out->worst_pct = w.diff_pct;
				out->worst_tasks = b->tasks;
			}
		} else {
			out->better++;
			if (!out->best_tasks || w.diff_pct > out->best_pct) {
				out->best_pct = w.diff_pct;
				out->best_tasks = b->tasks;
			}
		}
	}
	out->geomean_pct = nr ? 100 * (stats_geomean(ratios, nr) - 1) : 0;
	free(ratios);
	if (!out->common)
		out->kind = VERDICT_NO_DATA;
	else if (!out->judged)
		out->kind = VERDICT_UNJUDGED;
	else if (out->worse && out->better)
		out->kind = VERDICT_MIXED;
	else if (out->worse)
		out->kind = VERDICT_WORSE;
	else if (out->better)
		out->kind = VERDICT_BETTER;
	else
		out->kind = VERDICT_UNCHANGED;
}

const char *report_verdict_name(enum verdict_kind k)
{
	static const char *const names[] = {
		[VERDICT_UNCHANGED] = "no significant change", [VERDICT_BETTER] = "improvement",
		[VERDICT_WORSE] = "regression",                [VERDICT_MIXED] = "mixed",
		[VERDICT_UNJUDGED] = "cannot judge",           [VERDICT_NO_DATA] = "nothing in common",
	};
	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "?";
}

void report_verdict_text(const struct curve_verdict *v, char *buf, size_t len)
{
	switch (v->kind) {
	case VERDICT_WORSE:
		snprintf(buf, len, "lower Jobs/Min at %zu of %zu task counts (worst %+.1f %% at %d tasks)", v->worse,
			 v->judged, v->worst_pct, v->worst_tasks);
		break;
	case VERDICT_BETTER:
		snprintf(buf, len, "higher Jobs/Min at %zu of %zu task counts (best %+.1f %% at %d tasks)", v->better,
			 v->judged, v->best_pct, v->best_tasks);
		break;
	case VERDICT_MIXED:
		snprintf(buf, len, "higher at %zu and lower at %zu of %zu task counts (best %+.1f %% at %d, worst %+.1f %% "
			 "at %d tasks)", v->better, v->worse, v->judged, v->best_pct, v->best_tasks, v->worst_pct,
			 v->worst_tasks);
		break;
	case VERDICT_UNCHANGED:
		snprintf(buf, len, "no task count of %zu differs beyond the noise", v->judged);
		break;
	case VERDICT_UNJUDGED:
		snprintf(buf, len, "%zu task counts in common, none with two or more repeats on both sides (use -r 2 or "
			 "more)", v->common);
		break;
	default:
		snprintf(buf, len, "no task count in common");
		break;
	}
}
