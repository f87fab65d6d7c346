/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the comparison could not judge, and the gate's decision: what --fail-above and --bisect
 * answer, and why. */
#include "config.h"

#include <math.h>
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
	if (m->unlike.run)
		m->unjudged = UNJUDGED_UNLIKE;
	else if (m->present == 0 && m->exclude_noisy && m->noisy)
		m->unjudged = UNJUDGED_NOISE_ONLY;
	else if (m->present == 0)
		m->unjudged = UNJUDGED_NOTHING_COMMON;
	else if (m->missing)
		m->unjudged = UNJUDGED_MISSING;
	else if (m->judged == 0)
		m->unjudged = UNJUDGED_NONE_JUDGED;
}

static void add_ref(struct compare_cell_refs *r, size_t panel, size_t cell)
{
	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	r->v[r->n].panel = panel;
	r->v[r->n++].cell = cell;
}

void cmp_gate_why_free(struct compare_gate_why *w)
{
	free(w->failed.v);
	free(w->few.v);
	free(w->confounded.v);
	free(w->wide.v);
	memset(w, 0, sizeof(*w));
}

/* The cells a failing gate failed on, with the worst change. */
static void failed_on(struct compare_model *m)
{
	struct compare_gate_why *w = &m->gate_why;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++) {
			const struct compare_cell *cell = &m->panels[i].cells[c];
			if (!cell->regression)
				continue;
			add_ref(&w->failed, i, c);
			if (fabs(cell->v.change_pct) > fabs(w->worst_pct))
				w->worst_pct = cell->v.change_pct;
		}
}

/* What a gate concludes: it fails on a significant worsening (a drop of Jobs/Min, a rise of real_s)
 * beyond its threshold that is not the machine's, between like runs, and passes only what it
 * measured: every cell the base has judged, none confounded with the outside load, and with
 * --fail-above X every interval ruling out a worsening beyond X. Else it cannot vouch, and
 * m->gate_why holds the cells that stop it. */
void cmp_decide_gate(struct compare_model *m)
{
	struct compare_gate_why *w = &m->gate_why;
	m->gate_decided = 1;
	m->gate_result = COMPARE_GATE_PASS;
	/* unlike runs measured different things: no change between them is a regression either */
	if (m->unlike.run)
		m->regressed = 0;
	if (m->regressed) {
		m->gate_result = COMPARE_GATE_FAIL;
		failed_on(m);
		return;
	}
	if (m->unjudged != UNJUDGED_NO) {
		m->gate_result = COMPARE_GATE_UNJUDGED;
		return;
	}
	double x = m->vouch_pct;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++) {
			const struct compare_cell *cell = &m->panels[i].cells[c];
			/* the interval's worse end: its low end of Jobs/Min, its high end of real_s */
			double low = cmp_gain(m, m->metric->rise_better ? cell->v.ci_low_pct : cell->v.ci_high_pct);
			if (!cell->present)
				continue;
			if (!cell->judged) {
				add_ref(&w->few, i, c);
			} else if (cell->state == CELL_CONFOUNDED) {
				add_ref(&w->confounded, i, c);
			} else if (x > 0 && !(low > -x)) {
				add_ref(&w->wide, i, c);
				w->worst_low_pct = fmin(w->worst_low_pct, low);
				w->worst_mde_pct = fmax(w->worst_mde_pct, cell->mde_adj_pct);
			} else {
				w->judged++;
			}
		}
	if (w->few.n || w->confounded.n || w->wide.n)
		m->gate_result = COMPARE_GATE_UNJUDGED;
}

enum compare_gate compare_model_gate(const struct compare_model *m)
{
	return m->gate_result;
}
