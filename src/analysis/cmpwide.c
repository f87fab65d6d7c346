/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wide view of a compare model: the panels of one block regrouped side by side, and the mean,
 * harmonic mean and geometric mean over its task counts (analysis/cmpwide.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpwide.h"
#include "analysis/stats.h"
#include "util/util.h"

const char *compare_wide_stat_name(enum wide_stat s)
{
	static const char *const names[] = {[WIDE_AMEAN] = "Amean", [WIDE_HMEAN] = "Hmean", [WIDE_GMEAN] = "Gmean"};
	return (size_t)s < ARRAY_SIZE(names) ? names[s] : "?";
}

/* Panels of one block: workload, O_SYNC setting, variant, CPU count and load (unless the loads are
 * the sides, one run's loads against no_load). */
static int same_block(const struct compare_model *m, const struct compare_panel *a, const struct compare_panel *b)
{
	return strcmp(a->workload, b->workload) == 0 && a->osync == b->osync && strcmp(a->variant, b->variant) == 0 &&
	       a->cpus == b->cpus && (m->kind == COMPARE_LOADS || strcmp(a->load, b->load) == 0);
}

const struct compare_cell *compare_wide_cell(const struct wide_block *b, size_t side, size_t i)
{
	const struct compare_panel *p = side ? b->panels[side] : NULL;
	return p && i < p->ncells ? &p->cells[i] : NULL;
}

void compare_wide_loads(const struct wide_block *b, size_t side, size_t i, double *loads, double *lcpu)
{
	const struct compare_cell *c = side ? compare_wide_cell(b, side, i) : &b->first->cells[i];
	*loads = !c ? NAN : side ? c->loads_b : c->loads_a;
	*lcpu = !c ? NAN : side ? c->lcpu_b : c->lcpu_a;
}

double compare_wide_mean(const struct wide_block *b, size_t side, size_t i)
{
	if (side == 0)
		return b->first->cells[i].mean_a;
	const struct compare_cell *c = compare_wide_cell(b, side, i);
	return c && c->present ? c->mean_b : NAN;
}

/* The summary rows over the task counts every side has. */
static void block_stats(const struct compare_model *m, struct wide_block *b)
{
	size_t ns = m->nsides, nc = b->first->ncells;
	b->stat = xcalloc(WIDE_NSTATS * ns + 1, sizeof(double));
	b->stat_pct = xcalloc(WIDE_NSTATS * ns + 1, sizeof(double));
	int *common = xcalloc(nc + 1, sizeof(int));
	for (size_t i = 0; i < nc; i++) {
		common[i] = 1;
		for (size_t s = 0; s < ns; s++)
			common[i] &= isfinite(compare_wide_mean(b, s, i)) && compare_wide_mean(b, s, i) > 0;
		b->ncommon += (size_t)common[i];
	}
	if (b->ncommon < 2) /* the summary of one task count would repeat its row three times */
		b->ncommon = 0;
	double *v = xcalloc(nc + 1, sizeof(double));
	for (size_t s = 0; s < ns; s++) {
		size_t n = 0;
		double sum = 0, inv = 0;
		for (size_t i = 0; i < nc; i++)
			if (common[i]) {
				v[n++] = compare_wide_mean(b, s, i);
				sum += v[n - 1];
				inv += 1 / v[n - 1];
			}
		b->stat[WIDE_AMEAN * ns + s] = n ? sum / (double)n : NAN;
		b->stat[WIDE_HMEAN * ns + s] = n ? (double)n / inv : NAN;
		b->stat[WIDE_GMEAN * ns + s] = n ? stats_geomean(v, n) : NAN;
	}
	for (size_t k = 0; k < WIDE_NSTATS; k++)
		for (size_t s = 0; s < ns; s++)
			b->stat_pct[k * ns + s] = s ? 100 * (b->stat[k * ns + s] / b->stat[k * ns] - 1) : NAN;
	free(v);
	free(common);
}

/* Each side's best mean in a block and its change against the base's best. */
static void block_peaks(const struct compare_model *m, struct wide_block *b)
{
	size_t ns = m->nsides;
	b->peak = xcalloc(ns + 1, sizeof(double));
	b->peak_tasks = xcalloc(ns + 1, sizeof(int));
	b->peak_pct = xcalloc(ns + 1, sizeof(double));
	for (size_t s = 0; s < ns; s++) {
		b->peak[s] = NAN;
		for (size_t i = 0; i < b->first->ncells; i++) {
			double v = compare_wide_mean(b, s, i);
			if (isfinite(v) && (!isfinite(b->peak[s]) || (m->metric->rise_better ? v > b->peak[s] : v < b->peak[s]))) {
				b->peak[s] = v;
				b->peak_tasks[s] = b->first->cells[i].tasks;
			}
		}
	}
	for (size_t s = 0; s < ns; s++)
		b->peak_pct[s] = s && b->peak[0] != 0 ? 100 * (b->peak[s] / b->peak[0] - 1) : NAN;
}

/* Blocks in the order the base first measured their workloads, O_SYNC off before on, then the
 * variants as they came. */
static int block_before(const struct compare_model *m, const struct compare_panel *a, const struct compare_panel *b)
{
	size_t wa = 0, wb = 0;
	while (strcmp(m->panels[wa].workload, a->workload) != 0)
		wa++;
	while (strcmp(m->panels[wb].workload, b->workload) != 0)
		wb++;
	if (wa != wb)
		return wa < wb;
	if (a->osync != b->osync)
		return a->osync < b->osync;
	return a < b;
}

/* The TOTAL row: each side's sum over the cells every side has a mean at, in every block. */
static void totals(const struct compare_model *m, struct wide_model *w)
{
	w->total = xcalloc(m->nsides + 1, sizeof(double));
	w->total_pct = xcalloc(m->nsides + 1, sizeof(double));
	for (size_t k = 0; k < w->nblocks && metric_adds_up(m->metric); k++)
		for (size_t i = 0; i < w->blocks[k].first->ncells; i++) {
			int all = 1;
			for (size_t s = 0; s < m->nsides; s++)
				all &= isfinite(compare_wide_mean(&w->blocks[k], s, i));
			for (size_t s = 0; s < m->nsides && all; s++)
				w->total[s] += compare_wide_mean(&w->blocks[k], s, i);
			w->total_cells += (size_t)all;
		}
	for (size_t s = 0; s < m->nsides; s++) {
		if (!w->total_cells)
			w->total[s] = NAN;
		w->total_pct[s] = s && w->total[0] != 0 ? 100 * (w->total[s] / w->total[0] - 1) : NAN;
	}
}

void compare_wide_build(const struct compare_model *m, struct wide_model *w)
{
	memset(w, 0, sizeof(*w));
	w->m = m;
	w->blocks = xcalloc(m->npanels + 1, sizeof(*w->blocks));
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		size_t k = 0;
		while (k < w->nblocks && !same_block(m, w->blocks[k].first, p))
			k++;
		if (k == w->nblocks) {
			/* insert in order */
			size_t at = 0;
			while (at < w->nblocks && block_before(m, w->blocks[at].first, p))
				at++;
			memmove(&w->blocks[at + 1], &w->blocks[at], (w->nblocks - at) * sizeof(*w->blocks));
			memset(&w->blocks[at], 0, sizeof(*w->blocks));
			w->blocks[at].first = p;
			w->blocks[at].panels = xcalloc(m->nsides + 1, sizeof(*w->blocks[at].panels));
			w->nblocks++;
			k = at;
		}
		if (p->side < m->nsides)
			w->blocks[k].panels[p->side] = p;
		w->blocks[k].has_loads |= p->has_loads;
	}
	for (size_t k = 0; k < w->nblocks; k++) {
		block_stats(m, &w->blocks[k]);
		block_peaks(m, &w->blocks[k]);
	}
	w->all_geo_pct = xcalloc(m->nsides + 1, sizeof(double));
	w->all_cells = xcalloc(m->nsides + 1, sizeof(size_t));
	size_t most = 0;
	for (size_t i = 0; i < m->npanels; i++)
		most += m->panels[i].ncells;
	double *r = xcalloc(most + 1, sizeof(double));
	w->all_geo_pct[0] = NAN;
	for (size_t s = 1; s < m->nsides; s++) {
		size_t n = 0;
		for (size_t i = 0; i < m->npanels; i++)
			for (size_t c = 0; c < m->panels[i].ncells && m->panels[i].side == s; c++) {
				const struct compare_cell *cell = &m->panels[i].cells[c];
				if (cell->present && cell->mean_a > 0 && cell->mean_b > 0)
					r[n++] = cell->mean_b / cell->mean_a;
			}
		w->all_cells[s] = n;
		w->all_geo_pct[s] = n ? 100 * (stats_geomean(r, n) - 1) : NAN;
	}
	free(r);
	totals(m, w);
}

void compare_wide_free(struct wide_model *w)
{
	for (size_t k = 0; k < w->nblocks; k++) {
		free(w->blocks[k].panels);
		free(w->blocks[k].stat);
		free(w->blocks[k].stat_pct);
		free(w->blocks[k].peak);
		free(w->blocks[k].peak_tasks);
		free(w->blocks[k].peak_pct);
	}
	free(w->blocks);
	free(w->all_geo_pct);
	free(w->all_cells);
	free(w->total);
	free(w->total_pct);
	memset(w, 0, sizeof(*w));
}
