/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A comparison's judgement of itself in words, once: why one run has nothing to compare inside it,
 * why the comparison cannot be judged, and what a gate (--fail-above, --bisect) decided and why. The
 * model (analysis/cmpmodel.h) holds them as codes and the cells they rest on. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/cmpmodel.h"
#include "report/report.h"
#include "util/util.h"

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

void report_nothing_text(const struct compare_model *m, char *buf, size_t len)
{
	switch (m->nothing) {
	case NOTHING_ONE_VARIANT:
		snprintf(buf, len, "run %lld has one variant (%s): nothing to compare it with", (long long)m->nothing_run,
			 m->nsides && m->sides[0].variant ? m->sides[0].variant : "");
		return;
	case NOTHING_INSIDE:
		snprintf(buf, len, "run %lld has no variants and no workload measured with O_SYNC both on and off: nothing "
				   "to compare inside it (use --variant or --osync both, or give two runs)",
			 (long long)m->nothing_run);
		return;
	case NOTHING_NO:
		break;
	}
	snprintf(buf, len, "%s", "");
}

void report_unjudged_text(const struct compare_model *m, char *buf, size_t len)
{
	const char *base = m->nsides ? m->sides[0].letter : "A";
	switch (m->unjudged) {
	case UNJUDGED_UNLIKE:
		snprintf(buf, len, "unlike runs: workload %s of run %lld measured another mix than run %lld",
			 m->unlike.workload, (long long)m->unlike.run, (long long)m->unlike.base_run);
		return;
	case UNJUDGED_NOISE_ONLY:
		snprintf(buf, len, "nothing in common once the points measured in noise are left out (--exclude-noisy): no "
				   "workload, O_SYNC setting and task count has a quiet valid point on %s and on another side",
			 base);
		return;
	case UNJUDGED_NOTHING_COMMON:
		snprintf(buf, len, "nothing in common: no workload, O_SYNC setting and task count was measured validly by "
				   "%s and by another side",
			 base);
		return;
	case UNJUDGED_MISSING:
		snprintf(buf, len, "%zu task count%s the base measured %s no valid point on another side", m->missing,
			 plural(m->missing), m->missing == 1 ? "has" : "have");
		return;
	case UNJUDGED_NONE_JUDGED:
		snprintf(buf, len, "no task count could be judged: fewer than 2 samples a side everywhere (more runs a side, "
				   "or -r 2 or more)");
		return;
	case UNJUDGED_ONE_GROUP:
		report_nothing_text(m, buf, len);
		if (!buf[0])
			snprintf(buf, len, "one group of runs: nothing to compare it with");
		return;
	case UNJUDGED_NO:
		break;
	}
	snprintf(buf, len, "%s", "");
}

/* "4 tasks of dbase (O_SYNC on); 8 tasks of dbase", each led by its side where there are several. */
static void cells_text(struct strbuf *sb, const struct compare_model *m, const struct compare_cell_refs *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct compare_panel *p = &m->panels[r->v[i].panel];
		const struct compare_cell *c = &p->cells[r->v[i].cell];
		strbuf_addf(sb, "%s", i ? "; " : "");
		if (m->nsides > 2) /* several sides: each cell says whose it is */
			strbuf_addf(sb, "%s at ", m->sides[p->side].letter);
		strbuf_addf(sb, "%d task%s of %s", c->tasks, plural((size_t)c->tasks), p->workload);
		if (p->osync >= 0)
			strbuf_addf(sb, " (O_SYNC %s)", p->osync ? "on" : "off");
	}
}

/* Why a gate that measured every cell still cannot vouch: the cells too few, confounded, or too wide. */
static void cells_why(struct strbuf *sb, const struct compare_model *m)
{
	const struct compare_gate_why *w = &m->gate_why;
	int up = m->metric->rise_better;
	if (w->few.n) {
		strbuf_addf(sb, "fewer than 2 samples a side at ");
		cells_text(sb, m, &w->few);
	}
	if (w->confounded.n) {
		strbuf_addf(sb, "%sthe change cannot be told apart from the sides' different outside load at ",
			    sb->len ? "; " : "");
		cells_text(sb, m, &w->confounded);
	}
	if (!w->wide.n)
		return;
	strbuf_addf(sb, "%sthe interval does not rule out a %s beyond %g %%%s at ", sb->len ? "; " : "",
		    up ? "drop" : "rise", m->vouch_pct, m->fail_above_pct > 0 ? "" : " (--bisect's default)");
	cells_text(sb, m, &w->wide);
	strbuf_addf(sb, " (%s to ", up ? "down" : "up");
	if (isfinite(w->worst_low_pct))
		strbuf_addf(sb, "%+.1f %%", up ? w->worst_low_pct : -w->worst_low_pct);
	else
		strbuf_addf(sb, "an unbounded %s", up ? "drop" : "rise");
	if (isfinite(w->worst_mde_pct))
		strbuf_addf(sb, "; it could detect about %.1f %%", w->worst_mde_pct);
	strbuf_addf(sb, ": more runs a side narrow it)");
}

void report_gate_vouch(const struct compare_model *m, char *buf, size_t len)
{
	snprintf(buf, len, "%s", "");
	if (!m->gate_decided || m->gate_result != COMPARE_GATE_UNJUDGED)
		return;
	if (m->unjudged != UNJUDGED_NO) {
		report_unjudged_text(m, buf, len);
		return;
	}
	struct strbuf sb = {0};
	cells_why(&sb, m);
	snprintf(buf, len, "%s", sb.buf ? sb.buf : "");
	strbuf_free(&sb);
}

void report_gate_decision(const struct compare_model *m, char *buf, size_t len)
{
	const struct compare_gate_why *w = &m->gate_why;
	const char *drop = m->metric && !m->metric->rise_better ? "rise" : "drop";
	snprintf(buf, len, "%s", "");
	if (!m->gate_decided)
		return;
	if (m->gate_result == COMPARE_GATE_UNJUDGED) {
		report_gate_vouch(m, buf, len);
	} else if (m->gate_result == COMPARE_GATE_FAIL) {
		struct strbuf at = {0};
		strbuf_add(&at, "", 0);
		cells_text(&at, m, &w->failed);
		const char *worse = m->metric->rise_better ? "slower" : "worse";
		if (m->fail_above_pct > 0)
			snprintf(buf, len, "significantly %s by more than %g %% at %s (worst %+.1f %%)", worse,
				 m->fail_above_pct, at.buf, w->worst_pct);
		else
			snprintf(buf, len, "significantly %s at %s (worst %+.1f %%)", worse, at.buf, w->worst_pct);
		strbuf_free(&at);
	} else if (m->vouch_pct > 0) {
		snprintf(buf, len, "every interval rules out a %s beyond %g %%%s (%zu cell%s)", drop, m->vouch_pct,
			 m->fail_above_pct > 0 ? "" : ", --bisect's default", w->judged, plural(w->judged));
	} else {
		snprintf(buf, len, "no significant %s in %zu cell%s", drop, w->judged, plural(w->judged));
	}
}
