/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A panel's verdict in words: the name of what the comparison model concluded and a sentence saying
 * how much and where. The conclusion itself is the model's (compare_summary); this only words it. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "report/html.h"
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

void report_verdict_text(const struct compare_summary *v, char *buf, size_t len)
{
	switch (v->kind) {
	case COMPARE_WORSE:
		snprintf(buf, len, "lower Jobs/Min at %zu of %zu task counts (worst %+.1f %% at %d tasks)", v->worse,
			 v->judged, v->worst_pct, v->worst_tasks);
		break;
	case COMPARE_BETTER:
		snprintf(buf, len, "higher Jobs/Min at %zu of %zu task counts (best %+.1f %% at %d tasks)", v->better,
			 v->judged, v->best_pct, v->best_tasks);
		break;
	case COMPARE_MIXED:
		snprintf(buf, len, "higher at %zu and lower at %zu of %zu task counts (best %+.1f %% at %d, worst %+.1f %% "
			 "at %d tasks)", v->better, v->worse, v->judged, v->best_pct, v->best_tasks, v->worst_pct,
			 v->worst_tasks);
		break;
	case COMPARE_UNCHANGED:
		snprintf(buf, len, "no task count of %zu differs beyond the noise after the correction", v->judged);
		break;
	case COMPARE_UNJUDGED:
		snprintf(buf, len, "%zu task counts in common, none with two or more samples on both sides (more runs a "
			 "side, or -r 2 or more)", v->common);
		break;
	default:
		snprintf(buf, len, "no task count in common");
		break;
	}
	size_t used = strlen(buf);
	if (v->noisy && used < len)
		snprintf(buf + used, len - used, "; points measured in noise at %zu of the %zu task counts: see the "
			 "cautions", v->noisy, v->common);
}
