/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison's blocks and panels: what a block is, a panel's cells and summary, and the
 * correction over every cell with each cell's state. */
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

/* ---- blocks ---- */

static int key_equal(const struct key *a, const struct key *b)
{
	return strcmp(a->workload, b->workload) == 0 && a->osync == b->osync && a->cpus == b->cpus &&
	       (a->load == b->load || (a->load && b->load && strcmp(a->load, b->load) == 0)) &&
	       (a->variant == b->variant || (a->variant && b->variant && strcmp(a->variant, b->variant) == 0));
}

/* The blocks the base side measured, in the order it first did: one per workload, O_SYNC setting
 * and variant, less what the sides themselves select. */
size_t cmp_block_keys(struct build *b, struct key **out)
{
	const struct compare_side *s = &b->m->sides[0];
	size_t n = 0;
	*out = NULL;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct crun *r = cmp_run_of(b, s->runs[i]);
		for (size_t j = 0; j < r->n; j++) {
			const struct store_point *p = &r->pts[j];
			struct key k = {p->workload, s->osync >= 0 ? -1 : p->osync, s->variant ? NULL : p->variant,
					p->cpus, s->load ? NULL : p->load, b->m->exclude_noisy};
			if (!cmp_matches(s, &k, p))
				continue;
			size_t q = 0;
			while (q < n && !key_equal(&(*out)[q], &k))
				q++;
			if (q < n)
				continue;
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = k;
		}
	}
	return n;
}

static int by_int(const void *x, const void *y)
{
	int a = *(const int *)x, c = *(const int *)y;
	return (a > c) - (a < c);
}

/* The task counts the base side measured in a block, ascending. */
static size_t block_tasks(struct build *b, const struct key *k, int **out)
{
	const struct compare_side *s = &b->m->sides[0];
	size_t n = 0, cap = 0;
	*out = NULL;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct crun *r = cmp_run_of(b, s->runs[i]);
		for (size_t j = 0; j < r->n; j++) {
			if (!cmp_matches(s, k, &r->pts[j]))
				continue;
			size_t q = 0;
			while (q < n && (*out)[q] != r->pts[j].tasks)
				q++;
			if (q < n)
				continue;
			if (n == cap) {
				cap = cap * 2 + 8;
				*out = xrealloc(*out, cap * sizeof(int));
			}
			(*out)[n++] = r->pts[j].tasks;
		}
	}
	if (n)
		qsort(*out, n, sizeof(int), by_int);
	return n;
}

/* ---- a panel: one block of one other side against the base ---- */

/* The valid points of a side at a task count of a block that were measured in noise (left out with
 * --exclude-noisy, counted all the same); the first one's reason into reason when it is given. */
static size_t noisy_at(struct build *b, const struct compare_side *s, const struct key *k, int tasks, char *reason,
		       size_t reasonlen)
{
	struct key all = *k;
	all.skip_noisy = 0;
	size_t n = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct crun *r = cmp_run_of(b, s->runs[i]);
		for (size_t j = 0; j < r->n; j++) {
			const struct store_point *p = &r->pts[j];
			const char *said = noise_of_point(p);
			if (p->tasks != tasks || !said || !cmp_matches(s, &all, p))
				continue;
			if (reason && !n)
				snprintf(reason, reasonlen, "%s", said);
			n++;
		}
	}
	return n;
}

/* The sampler's user, sys, iowait and disk-util shares over a side's sampled points of a block. */
static int side_system(struct build *b, const struct compare_side *s, const struct key *k, double out[4])
{
	size_t used = 0;
	memset(out, 0, 4 * sizeof(double));
	for (size_t i = 0; i < s->nruns; i++) {
		const struct crun *r = cmp_run_of(b, s->runs[i]);
		for (size_t j = 0; j < r->n; j++) {
			const struct store_point *p = &r->pts[j];
			if (!p->sampled || !cmp_matches(s, k, p))
				continue;
			out[0] += p->user_pct, out[1] += p->sys_pct, out[2] += p->iowait_pct, out[3] += p->util_pct;
			used++;
		}
	}
	for (int q = 0; q < 4 && used; q++)
		out[q] /= (double)used;
	return used > 0;
}

/* A stored point by id among the runs read, or NULL. */
static const struct store_point *point_by_id(const struct build *b, int64_t id)
{
	for (size_t i = 0; i < b->nruns; i++)
		for (size_t j = 0; j < b->runs[i].n; j++)
			if (b->runs[i].pts[j].id == id)
				return &b->runs[i].pts[j];
	return NULL;
}

/* The mean of a figure over the points of a cell's side (those behind its samples), NaN where none has
 * it; of a background load's figure (loaded), only over points that ran one. */
static double points_mean(const struct build *b, const struct compare_cell_points *cp, size_t offset, int loaded)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < cp->n; i++) {
		const struct store_point *p = point_by_id(b, cp->ids[i]);
		double v;
		if (!p || (loaded && (!p->load[0] || strcmp(p->load, "no_load") == 0)))
			continue;
		memcpy(&v, (const char *)p + offset, sizeof(v));
		if (isfinite(v))
			sum += v, n++;
	}
	return n ? sum / (double)n : NAN;
}

/* contest's figures of a cell, over the points the cell's samples came from: each side's load's units
 * done and CPU, and the time ratio B/A (A's mean Jobs/Min over B's). */
static void cell_loads(const struct build *b, struct compare_cell *c)
{
	c->loads_a = points_mean(b, &c->pts_a, offsetof(struct store_point, load_units), 1);
	c->loads_b = points_mean(b, &c->pts_b, offsetof(struct store_point, load_units), 1);
	c->lcpu_a = points_mean(b, &c->pts_a, offsetof(struct store_point, load_cpu_pct), 1);
	c->lcpu_b = points_mean(b, &c->pts_b, offsetof(struct store_point, load_cpu_pct), 1);
	/* as show's loads table has it: the same jobs take A's Jobs/Min over B's as long */
	double ja = points_mean(b, &c->pts_a, offsetof(struct store_point, jobs_per_min), 0);
	double jb = points_mean(b, &c->pts_b, offsetof(struct store_point, jobs_per_min), 0);
	c->time_ratio = c->present && jb > 0 && isfinite(ja) ? ja / jb : NAN;
}

void cmp_build_panel(struct build *b, const struct key *k, size_t side, struct compare_panel *pn)
{
	const struct compare_side *sa = &b->m->sides[0], *sb = &b->m->sides[side];
	memset(pn, 0, sizeof(*pn));
	snprintf(pn->workload, sizeof(pn->workload), "%s", k->workload);
	snprintf(pn->variant, sizeof(pn->variant), "%.63s", k->variant ? k->variant : "");
	pn->osync = k->osync;
	pn->cpus = k->cpus;
	snprintf(pn->load, sizeof(pn->load), "%.31s", k->load ? k->load : sb->load);
	pn->side = side;
	int *tasks;
	pn->ncells = block_tasks(b, k, &tasks);
	pn->cells = xcalloc(pn->ncells + 1, sizeof(*pn->cells));
	double *ratios = xcalloc(pn->ncells + 1, sizeof(double));
	for (size_t i = 0; i < pn->ncells; i++) {
		struct compare_cell *c = &pn->cells[i];
		c->tasks = tasks[i];
		c->p_adj = NAN;
		if (b->m->kind == COMPARE_GROUPS && b->blocked)
			cmp_cell_blocked(b, sa, sb, k, c);
		else if (b->m->kind == COMPARE_GROUPS)
			cmp_cell_groups(b, sa, sb, k, c);
		else
			cmp_cell_paired(b, sa, sb, k, c);
		cell_loads(b, c);
		c->nruns_a = cmp_cell_runs(b, sa, k, c->tasks, &c->runs_a);
		c->nruns_b = cmp_cell_runs(b, sb, k, c->tasks, &c->runs_b);
		pn->has_loads |= isfinite(c->loads_a) || isfinite(c->loads_b) || isfinite(c->lcpu_a) || isfinite(c->lcpu_b);
		/* the reason quoted, and whose it is: the other side's first */
		char why_a[sizeof(c->why_noisy)] = "", why_b[sizeof(c->why_noisy)] = "";
		c->noisy_a = noisy_at(b, sa, k, c->tasks, why_a, sizeof(why_a));
		c->noisy_b = noisy_at(b, sb, k, c->tasks, why_b, sizeof(why_b));
		c->why_noisy_other = why_b[0] != '\0';
		snprintf(c->why_noisy, sizeof(c->why_noisy), "%.150s", why_b[0] ? why_b : why_a);
		/* the geomean of the changes the cells judge: adjusted where the cell is, as its Change column */
		if (c->present && c->mean_a > 0 && c->mean_b > 0) {
			int adjusted = c->judged && c->load_model == LOAD_COVARIATE;
			double r = c->judged && c->v.change_pct > -100 ? 1 + c->v.change_pct / 100 : c->mean_b / c->mean_a;
			ratios[pn->ngeo++] = r;
			pn->geo_adjusted += adjusted;
		}
		/* the best mean: the highest Jobs/Min, the lowest real_s */
		if (isfinite(c->mean_a) && (!pn->peak_a_tasks || cmp_gain(b->m, c->mean_a - pn->peak_a) > 0))
			pn->peak_a = c->mean_a, pn->peak_a_tasks = c->tasks;
		if (c->present && (!pn->peak_b_tasks || cmp_gain(b->m, c->mean_b - pn->peak_b) > 0))
			pn->peak_b = c->mean_b, pn->peak_b_tasks = c->tasks;
	}
	pn->geomean_pct = pn->ngeo ? 100 * (stats_geomean(ratios, pn->ngeo) - 1) : NAN;
	free(ratios);
	free(tasks);
	pn->has_system = side_system(b, sa, k, pn->sys_a) && side_system(b, sb, k, pn->sys_b);
	cmp_panel_subtests(b, k, pn);
}

/* The load of more samples: the range over both, the mean weighted by samples. */
static void load_merge(struct compare_load *into, const struct compare_load *l)
{
	if (!l->n)
		return;
	if (!into->n) {
		*into = *l;
		return;
	}
	into->min = fmin(into->min, l->min);
	into->max = fmax(into->max, l->max);
	into->mean = (into->mean * (double)into->n + l->mean * (double)l->n) / (double)(into->n + l->n);
	into->n += l->n;
}

/* A panel's verdict from its cells after the correction. */
static void summarise(const struct compare_model *m, struct compare_panel *pn)
{
	struct compare_summary *s = &pn->summary;
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < pn->ncells; i++) {
		const struct compare_cell *c = &pn->cells[i];
		if (!c->present)
			continue;
		s->common++;
		s->judged += c->judged;
		s->noisy += c->noisy_a + c->noisy_b > 0;
		s->confounded += c->state == CELL_CONFOUNDED;
		s->fragile += c->fragile;
		if (c->state == CELL_CONFOUNDED)
			s->confounded_pct += (c->raw.change_pct - s->confounded_pct) / (double)s->confounded;
		if (!c->significant)
			continue;
		double pct = c->v.change_pct, g = cmp_gain(m, pct);
		if (g < 0 && (!s->worst_tasks || g < cmp_gain(m, s->worst_pct))) {
			s->worst_pct = pct;
			s->worst_tasks = c->tasks;
		} else if (g > 0 && (!s->best_tasks || g > cmp_gain(m, s->best_pct))) {
			s->best_pct = pct;
			s->best_tasks = c->tasks;
		}
		s->worse += g < 0;
		s->better += g > 0;
		/* the typical significant change each way and the typical half-width of its interval */
		int down = g < 0;
		double *mean = down ? &s->worse_pct : &s->better_pct, *half = down ? &s->worse_half_pct : &s->better_half_pct;
		size_t k = down ? s->worse : s->better;
		*mean += (pct - *mean) / (double)k;
		double h = c->v.bounded ? (c->v.ci_high_pct - c->v.ci_low_pct) / 2 : HUGE_VAL;
		*half += (h - *half) / (double)k;
	}
	int only_confounded = s->confounded > 0;
	s->load_a = s->load_b = (struct compare_load){.mean = NAN, .min = NAN, .max = NAN};
	for (size_t i = 0; i < pn->ncells; i++) {
		const struct compare_cell *c = &pn->cells[i];
		if (!c->present || (only_confounded && c->state != CELL_CONFOUNDED))
			continue;
		load_merge(&s->load_a, &c->load_a);
		load_merge(&s->load_b, &c->load_b);
	}
	double *mde = xcalloc(pn->ncells + 1, sizeof(double));
	size_t nm = 0;
	for (size_t i = 0; i < pn->ncells; i++)
		if (pn->cells[i].judged && isfinite(pn->cells[i].mde_adj_pct))
			mde[nm++] = pn->cells[i].mde_adj_pct;
	qsort(mde, nm, sizeof(double), cmp_by_double);
	s->mde_pct = nm ? (nm % 2 ? mde[nm / 2] : (mde[nm / 2 - 1] + mde[nm / 2]) / 2) : NAN;
	free(mde);
	s->kind = !s->common ? COMPARE_NO_DATA
		: !s->judged ? COMPARE_UNJUDGED
		: s->worse && s->better ? COMPARE_MIXED
		: s->worse ? COMPARE_WORSE
		: s->better ? COMPARE_BETTER
		: s->confounded ? COMPARE_CONFOUNDED : COMPARE_UNCHANGED;
}

/* The families of p values corrected apart: the Jobs/Min verdicts, the CPU changes (what explains a
 * change does not spend the verdict's level), and the plain tests before any adjustment for the
 * outside load (to tell what the adjustment took away). */
enum family { FAMILY_VERDICT, FAMILY_CPU, FAMILY_RAW };

/* The cells' p values of one family adjusted by the model's correction, one family per other side:
 * each side's comparison with the base is its own question, so a further side does not weaken
 * another's verdicts. NaN where a cell was not judged; in cell order, panel by panel (free()). */
static double *adjusted(const struct compare_model *m, enum family family)
{
	size_t n = 0;
	for (size_t i = 0; i < m->npanels; i++)
		n += m->panels[i].ncells;
	double *p = xcalloc(n + 1, sizeof(double)), *padj = xcalloc(n + 1, sizeof(double));
	double *adj = xcalloc(n + 1, sizeof(double));
	size_t *where = xcalloc(n + 1, sizeof(size_t));
	for (size_t side = 1; side < m->nsides; side++) {
		size_t at = 0, k = 0;
		for (size_t i = 0; i < m->npanels; i++)
			for (size_t c = 0; c < m->panels[i].ncells; c++, at++) {
				const struct compare_cell *cell = &m->panels[i].cells[c];
				if (m->panels[i].side != side)
					continue;
				where[k] = at;
				p[k++] = family == FAMILY_CPU ? (cell->cpu_judged ? cell->cpu_v.p : NAN)
					: family == FAMILY_RAW ? (cell->raw_judged ? cell->raw.p : NAN)
					: (cell->judged ? cell->v.p : NAN);
			}
		if (m->correction == COMPARE_BH)
			verdict_bh(p, k, padj);
		else
			verdict_holm(p, k, padj);
		for (size_t i = 0; i < k; i++)
			adj[where[i]] = padj[i];
	}
	free(p);
	free(padj);
	free(where);
	return adj;
}

/* Whether the sides' outside loads alone could make B look as it does: more load on B and B slower,
 * or less and faster. */
static int load_pushes(const struct compare_model *m, const struct compare_cell *c, double change)
{
	return c->load_a.n && c->load_b.n && (c->load_b.mean - c->load_a.mean) * cmp_gain(m, change) < 0;
}

/* Whether a slope the samples allow (its interval at alpha) would leave no change of the verdict's sign:
 * with so few samples, the load could make all of it. */
static int slope_explains(const struct compare_model *m, const struct compare_cell *c)
{
	const struct verdict *v = &c->v;
	if (!isfinite(v->slope_se) || !(v->df > 0) || !isfinite(v->covariate_gap))
		return 0;
	double t = stats_t_quantile(1 - m->alpha / 2, v->df);
	double raw = v->diff + v->slope * v->covariate_gap; /* the sides' plain difference */
	for (int k = -1; k <= 1; k += 2) {
		double d = raw - (v->slope + k * t * v->slope_se) * v->covariate_gap;
		if ((d > 0) != (v->diff > 0))
			return 1;
	}
	return 0;
}

/* A cell's verdict after the correction: the state every view renders. */
static enum compare_state cell_state(const struct compare_model *m, const struct compare_cell *c, double raw_p_adj)
{
	if (!c->present || !c->judged)
		return CELL_NOT_JUDGED;
	if (c->significant) {
		/* no model of the load could be fitted: a change the load would make is the load's as much */
		if (c->load_model == LOAD_INSEPARABLE && load_pushes(m, c, c->v.change_pct))
			return CELL_CONFOUNDED;
		/* the adjusted change stands only if no slope the samples allow could take it away */
		if (c->load_model == LOAD_COVARIATE && slope_explains(m, c))
			return CELL_CONFOUNDED;
		return compare_worse(m, c->v.change_pct) ? CELL_SLOWER : CELL_FASTER;
	}
	/* the plain test saw a change that the adjustment for the outside load took away, one the load
	 * pushes that way (a change against the load, B faster on a busier machine, stands) */
	if (c->load_model == LOAD_COVARIATE && c->raw_judged && raw_p_adj < m->alpha &&
	    load_pushes(m, c, c->raw.change_pct))
		return CELL_CONFOUNDED;
	double x = m->fail_above_pct;
	if (x > 0 && c->v.bounded && c->v.ci_low_pct > -x && c->v.ci_high_pct < x)
		return CELL_WITHIN;
	return CELL_NOT_DETECTED;
}

/* p values of every judged cell adjusted together; then each cell's state and what fails. */
/* The judged cells of one other side: its family in the correction. */
static size_t side_family(const struct compare_model *m, size_t side)
{
	size_t k = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells && m->panels[i].side == side; c++)
			k += m->panels[i].cells[c].judged;
	return k;
}

void cmp_correct(struct compare_model *m)
{
	double *adj = adjusted(m, FAMILY_VERDICT), *cpu_adj = adjusted(m, FAMILY_CPU), *raw_adj = adjusted(m, FAMILY_RAW);
	size_t at = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++)
			m->judged += m->panels[i].cells[c].judged;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++, at++) {
			struct compare_cell *cell = &m->panels[i].cells[c];
			cell->p_adj = adj[at];
			cell->significant = cell->judged && cell->p_adj < m->alpha;
			cell->cpu_p_adj = cpu_adj[at];
			cell->cpu_significant = cell->cpu_judged && cell->cpu_p_adj < m->alpha;
			cell->state = cell_state(m, cell, raw_adj[at]);
			if (cell->state == CELL_CONFOUNDED)
				cell->significant = 0;
			/* the change a test at the corrected level detects: alpha over the judged cells of its side's
			 * family (Bonferroni, at or above Holm's and BH's own levels), over the looks too */
			size_t family = side_family(m, m->panels[i].side);
			double each = m->alpha / (double)(family ? family : 1) / (double)(cell->looks ? cell->looks : 1);
			cell->mde_adj_pct = cell->judged ? verdict_mde_of(&cell->v, each, VERDICT_POWER) : NAN;
			/* a worsening the gate fails on: significant, beyond the threshold, not the machine's */
			cell->regression = m->gate && cell->state == CELL_SLOWER &&
					   cmp_gain(m, cell->v.change_pct) < -m->fail_above_pct;
			m->regressed |= cell->regression;
		}
	for (size_t i = 0; i < m->npanels; i++)
		summarise(m, &m->panels[i]);
	free(adj);
	free(cpu_adj);
	free(raw_adj);
}

size_t compare_model_family(const struct compare_model *m)
{
	size_t most = 0;
	for (size_t side = 1; side < m->nsides; side++) {
		size_t k = side_family(m, side);
		most = k > most ? k : most;
	}
	return most;
}
