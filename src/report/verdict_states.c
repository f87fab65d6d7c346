/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a comparison's verdicts are called, once: a row per panel verdict (its JSON name, its words, the
 * HTML badge's style, and how a comparison of O_SYNC settings says it) and a row per cell state (its
 * JSON and CSV name). Every view names a verdict from here. */
#include "config.h"

#include <stddef.h>

#include "analysis/cmpmodel.h"
#include "report/report.h"
#include "util/util.h"

struct verdict_row {
	const char *json;          /* compare's JSON "verdict" */
	const char *words;         /* the HTML page's badge */
	const char *style;         /* the badge's class */
	const char *osync_words;   /* O_SYNC on against off: what O_SYNC costs is expected, no regression */
	const char *osync_style;   /* NULL: as style */
};

static const struct verdict_row verdict_rows[] = {
	[COMPARE_UNCHANGED] = {.json = "unchanged", .words = "no significant change", .style = "unchanged"},
	[COMPARE_BETTER] = {.json = "better", .words = "improvement", .style = "better", .osync_words = "O_SYNC gains",
			    .osync_style = "unchanged"},
	[COMPARE_WORSE] = {.json = "worse", .words = "regression", .style = "worse", .osync_words = "O_SYNC costs",
			   .osync_style = "unchanged"},
	[COMPARE_MIXED] = {.json = "mixed", .words = "mixed", .style = "mixed", .osync_words = "O_SYNC mixed",
			   .osync_style = "unchanged"},
	[COMPARE_CONFOUNDED] = {.json = "confounded", .words = "confounded with the machine", .style = "confounded"},
	[COMPARE_UNJUDGED] = {.json = "unjudged", .words = "cannot judge", .style = "unjudged"},
	[COMPARE_NO_DATA] = {.json = "no data", .words = "nothing in common", .style = "nodata"},
};
_Static_assert(ARRAY_SIZE(verdict_rows) == COMPARE_NVERDICTS, "a row for every panel verdict");

static const struct {
	const char *json;          /* compare's CSV and JSON "state", the page's data-state */
} state_rows[] = {
	[CELL_NOT_JUDGED] = {.json = "not judged"},
	[CELL_FASTER] = {.json = "faster"},
	[CELL_SLOWER] = {.json = "slower"},
	[CELL_WITHIN] = {.json = "within"},
	[CELL_NOT_DETECTED] = {.json = "not detected"},
	[CELL_CONFOUNDED] = {.json = "confounded"},
};
_Static_assert(ARRAY_SIZE(state_rows) == COMPARE_NSTATES, "a row for every cell state");

static const struct verdict_row *verdict_row(enum compare_verdict k)
{
	return (unsigned)k < ARRAY_SIZE(verdict_rows) ? &verdict_rows[k] : &verdict_rows[COMPARE_NO_DATA];
}

const char *report_verdict_json(enum compare_verdict k)
{
	return (unsigned)k < ARRAY_SIZE(verdict_rows) ? verdict_rows[k].json : "?";
}

const char *report_verdict_words(const struct compare_model *m, enum compare_verdict k)
{
	const struct verdict_row *r = verdict_row(k);
	return m && m->kind == COMPARE_OSYNC && r->osync_words ? r->osync_words : r->words;
}

const char *report_verdict_style(const struct compare_model *m, enum compare_verdict k)
{
	const struct verdict_row *r = verdict_row(k);
	return m && m->kind == COMPARE_OSYNC && r->osync_style ? r->osync_style : r->style;
}

const char *report_state_name(enum compare_state s)
{
	return (unsigned)s < ARRAY_SIZE(state_rows) ? state_rows[s].json : "?";
}
