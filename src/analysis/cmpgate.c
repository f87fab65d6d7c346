/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the comparison could not judge, and the gate's decision: what --fail-above and --bisect
 * answer, and why. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/cfg.h"
#include "analysis/stats.h"
#include "analysis/cmpblock.h"
#include "analysis/cmpmodel.h"
#include "analysis/curves.h"
#include "analysis/kconfig.h"
#include "analysis/noise.h"
#include "measure/load.h"
#include "util/util.h"
#include "analysis/cmpbuild.h"

/* What the comparison could not judge: cells the base has that another side lacks (a caution per
 * panel), and why a gate cannot pass. */
void cmp_judgeable(struct compare_model *m)
{
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		struct compare_note miss = NOTE(NOTE_MISSING, NOTE_CAUTION, .side = (int)p->side, .base_side = 0,
						.osync = p->osync);
		for (size_t c = 0; c < p->ncells; c++) {
			const struct compare_cell *cell = &p->cells[c];
			m->present += cell->present;
			if (!cell->present && isfinite(cell->mean_a))
				cmp_note_at(&miss, p->workload, cell->tasks, 0, 0);
		}
		if (miss.nat) {
			miss.count = miss.nat;
			snprintf(miss.workload, sizeof(miss.workload), "%s", p->workload);
			snprintf(miss.variant, sizeof(miss.variant), "%s", p->variant);
			cmp_note(m, miss);
			m->missing += miss.nat;
		}
	}
	cmp_noise_cautions(m);
	cmp_unpaired_cautions(m);
	cmp_confounded_cautions(m);
	size_t looks = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++)
			looks = m->panels[i].cells[c].looks > looks ? m->panels[i].cells[c].looks : looks;
	if (looks > 1)
		cmp_note(m, NOTE(NOTE_LOOKS, NOTE_CAUTION, NO_SIDES, .count = looks));
	if (m->unlike[0])
		snprintf(m->unjudged, sizeof(m->unjudged), "%s", m->unlike);
	else if (m->present == 0 && m->exclude_noisy && m->noisy)
		snprintf(m->unjudged, sizeof(m->unjudged), "nothing in common once the points measured in noise are left "
			 "out (--exclude-noisy): no workload, O_SYNC setting and task count has a quiet valid point on %s "
			 "and on another side", m->sides[0].letter);
	else if (m->present == 0)
		snprintf(m->unjudged, sizeof(m->unjudged), "nothing in common: no workload, O_SYNC setting and task "
			 "count was measured validly by %s and by another side", m->sides[0].letter);
	else if (m->missing)
		snprintf(m->unjudged, sizeof(m->unjudged), "%zu task count%s the base measured %s no valid point on "
			 "another side", m->missing, m->missing == 1 ? "" : "s", m->missing == 1 ? "has" : "have");
	else if (m->judged == 0)
		snprintf(m->unjudged, sizeof(m->unjudged), "no task count could be judged: fewer than 2 samples a side "
			 "everywhere (more runs a side, or -r 2 or more)");
}

/* "at 4, 8 tasks of dbase" style lists for the gate's reasons. */
static void add_at(struct strbuf *sb, const struct compare_model *m, const struct compare_panel *p,
		   const struct compare_cell *c)
{
	strbuf_addf(sb, "%s", sb->len ? "; " : "");
	if (m->nsides > 2) { /* several sides: each cell says whose it is */
		char letter[8];
		compare_side_letter(p->side, letter, sizeof(letter));
		strbuf_addf(sb, "%s at ", letter);
	}
	strbuf_addf(sb, "%d task%s of %s", c->tasks, c->tasks == 1 ? "" : "s", p->workload);
	if (p->osync >= 0)
		strbuf_addf(sb, " (O_SYNC %s)", p->osync ? "on" : "off");
}

/* What a gate concludes: it fails on a significant worsening (a drop of Jobs/Min, a rise of real_s)
 * beyond its threshold that is not the machine's, between like runs, and passes only what it measured: every cell the base
 * has judged, none confounded with the outside load, and with --fail-above X every interval ruling out
 * a worsening beyond X. Else it cannot
 * vouch, and m->vouch says why. */
/* The cells a failing gate failed on, with the worst change. */
static void failed_on(struct compare_model *m)
{
	struct strbuf at = {0};
	double worst = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++) {
			const struct compare_cell *cell = &m->panels[i].cells[c];
			if (!cell->regression)
				continue;
			add_at(&at, m, &m->panels[i], cell);
			if (fabs(cell->v.change_pct) > fabs(worst))
				worst = cell->v.change_pct;
		}
	if (m->fail_above_pct > 0)
		snprintf(m->decision, sizeof(m->decision), "significantly %s by more than %g %% at %s (worst %+.1f %%)",
			 m->metric->rise_better ? "slower" : "worse", m->fail_above_pct, at.buf, worst);
	else
		snprintf(m->decision, sizeof(m->decision), "significantly %s at %s (worst %+.1f %%)",
			 m->metric->rise_better ? "slower" : "worse", at.buf, worst);
	strbuf_free(&at);
}

void cmp_decide_gate(struct compare_model *m)
{
	m->gate_result = COMPARE_GATE_PASS;
	/* unlike runs measured different things: no change between them is a regression either */
	if (m->unlike[0])
		m->regressed = 0;
	if (m->regressed) {
		m->gate_result = COMPARE_GATE_FAIL;
		failed_on(m);
		return;
	}
	if (m->unjudged[0]) {
		m->gate_result = COMPARE_GATE_UNJUDGED;
		snprintf(m->vouch, sizeof(m->vouch), "%s", m->unjudged);
		snprintf(m->decision, sizeof(m->decision), "%s", m->unjudged);
		return;
	}
	struct strbuf few = {0}, confounded = {0}, wide = {0};
	double x = m->vouch_pct, worst_low = 0, worst_mde = 0;
	size_t judged = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++) {
			const struct compare_panel *p = &m->panels[i];
			const struct compare_cell *cell = &p->cells[c];
			if (!cell->present)
				continue;
			if (!cell->judged) {
				add_at(&few, m, p, cell);
			} else if (cell->state == CELL_CONFOUNDED) {
				add_at(&confounded, m, p, cell);
			} else if (x > 0 && !(cmp_gain(m, m->metric->rise_better ? cell->v.ci_low_pct : cell->v.ci_high_pct) > -x)) {
				/* the interval's worse end: its low end of Jobs/Min, its high end of real_s */
				add_at(&wide, m, p, cell);
				worst_low = fmin(worst_low, cmp_gain(m, m->metric->rise_better ? cell->v.ci_low_pct
											   : cell->v.ci_high_pct));
				worst_mde = fmax(worst_mde, cell->mde_adj_pct);
			} else {
				judged++;
			}
		}
	struct strbuf why = {0};
	if (few.len)
		strbuf_addf(&why, "fewer than 2 samples a side at %s", few.buf);
	if (confounded.len)
		strbuf_addf(&why, "%sthe change cannot be told apart from the sides' different outside load at %s",
			    why.len ? "; " : "", confounded.buf);
	if (wide.len) {
		int up = m->metric->rise_better;
		strbuf_addf(&why, "%sthe interval does not rule out a %s beyond %g %%%s at %s (%s to ", why.len ? "; " : "",
			    up ? "drop" : "rise", x, m->fail_above_pct > 0 ? "" : " (--bisect's default)", wide.buf,
			    up ? "down" : "up");
		if (isfinite(worst_low))
			strbuf_addf(&why, "%+.1f %%", up ? worst_low : -worst_low);
		else
			strbuf_addf(&why, "an unbounded %s", up ? "drop" : "rise");
		if (isfinite(worst_mde))
			strbuf_addf(&why, "; it could detect about %.1f %%", worst_mde);
		strbuf_addf(&why, ": more runs a side narrow it)");
	}
	if (why.len) {
		m->gate_result = COMPARE_GATE_UNJUDGED;
		snprintf(m->vouch, sizeof(m->vouch), "%s", why.buf);
		snprintf(m->decision, sizeof(m->decision), "%s", why.buf);
	} else if (x > 0) {
		snprintf(m->decision, sizeof(m->decision), "every interval rules out a %s beyond %g %%%s (%zu cell%s)",
			 m->metric->rise_better ? "drop" : "rise", x, m->fail_above_pct > 0 ? "" : ", --bisect's default",
			 judged, judged == 1 ? "" : "s");
	} else {
		snprintf(m->decision, sizeof(m->decision), "no significant %s in %zu cell%s",
			 m->metric->rise_better ? "drop" : "rise", judged, judged == 1 ? "" : "s");
	}
	strbuf_free(&few);
	strbuf_free(&confounded);
	strbuf_free(&wide);
	strbuf_free(&why);
}

enum compare_gate compare_model_gate(const struct compare_model *m)
{
	return m->gate_result;
}
