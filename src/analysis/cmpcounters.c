/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The counters that moved with a compare's Jobs/Min: per cell and counter, the per-job values of each
 * side's points, the cell's own kind of test (Welch on run means or repeats, or paired by round), one
 * correction over all of them, and the significant ones ranked. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpcounters.h"
#include "analysis/verdict.h"
#include "util/util.h"

/* A run's points with their counters. */
struct crun {
	int64_t id;
	struct store_point *pts;
	size_t n;
	struct store_counter **c;
	size_t *nc;
};

struct ckey {
	char source[16], name[96], unit[24];
	int figure;               /* an index of point_figures, or -1: a stored counter */
};

/* The point's own figures judged beside the kernel's counters: the sampler's shares of the machine and
 * the point cgroup's pressure (as they are: a share is not a count to divide by jobs), the tasks' CPU
 * over the window and the cgroup's own disk bytes per job. */
static const struct point_figure {
	const char *source, *name, *unit;
	size_t offset;
	int per_job;
	int sampled; /* set only where the sampler ran */
} point_figures[] = {
	{"sampler", "user", "% of the CPUs", offsetof(struct store_point, user_pct), 0, 1},
	{"sampler", "sys", "% of the CPUs", offsetof(struct store_point, sys_pct), 0, 1},
	{"sampler", "iowait", "% of the CPUs", offsetof(struct store_point, iowait_pct), 0, 1},
	{"sampler", "idle", "% of the CPUs", offsetof(struct store_point, idle_pct), 0, 1},
	{"sampler", "outside", "% of the CPUs", offsetof(struct store_point, outside_cpu_pct), 0, 1},
	{"sampler", "steal", "% of the CPUs", offsetof(struct store_point, steal_pct), 0, 1},
	{"sampler", "disk util", "% busy", offsetof(struct store_point, util_pct), 0, 1},
	{"pressure", "cpu some", "% of the time", offsetof(struct store_point, psi_cpu_some_pct), 0, 0},
	{"pressure", "io some", "% of the time", offsetof(struct store_point, psi_io_some_pct), 0, 0},
	{"pressure", "memory some", "% of the time", offsetof(struct store_point, psi_mem_some_pct), 0, 0},
	{"cgroup", "io read", "bytes", offsetof(struct store_point, io_read_bytes), 1, 0},
	{"cgroup", "io write", "bytes", offsetof(struct store_point, io_write_bytes), 1, 0},
	{"tasks", "cpu", "s", offsetof(struct store_point, window_cpu_s), 1, 0},
};

static double point_value(const struct store_point *p, const struct point_figure *f)
{
	double v;
	memcpy(&v, (const char *)p + f->offset, sizeof(v));
	if ((f->sampled && !p->sampled) || !isfinite(v))
		return NAN; /* not measured: without samples, without cgroups, or stored before the window */
	return v;
}

struct cbuild {
	struct store *st;
	const struct compare_model *m;
	struct crun *runs;
	size_t nruns;
	struct counter_change *all; /* every judged test, before the correction */
	size_t nall, capall;
};

static struct crun *run_of(struct cbuild *b, int64_t id)
{
	for (size_t i = 0; i < b->nruns; i++)
		if (b->runs[i].id == id)
			return &b->runs[i];
	return NULL;
}

static int load_run(struct cbuild *b, int64_t id)
{
	if (run_of(b, id))
		return 0;
	b->runs = xrealloc(b->runs, (b->nruns + 1) * sizeof(*b->runs));
	struct crun *r = &b->runs[b->nruns++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	if (store_get_points(b->st, id, &r->pts, &r->n) < 0)
		return -1;
	r->c = xcalloc(r->n + 1, sizeof(*r->c));
	r->nc = xcalloc(r->n + 1, sizeof(*r->nc));
	for (size_t i = 0; i < r->n; i++)
		if (r->pts[i].valid && store_get_counters(b->st, r->pts[i].id, &r->c[i], &r->nc[i]) < 0)
			return -1;
	return 0;
}

/* Whether a point is a side's share of a panel's block at a task count (as the compare model says). */
static int matches(const struct compare_side *s, const struct compare_panel *pn, const struct store_point *p,
		   int tasks)
{
	if (!p->valid || p->tasks != tasks || strcmp(p->workload, pn->workload) != 0)
		return 0;
	if (p->osync != (s->osync >= 0 ? s->osync : pn->osync))
		return 0;
	return strcmp(p->variant, s->variant ? s->variant : pn->variant) == 0;
}

/* A counter's value per job at a point: NaN when the point stored nothing from its source (a counter
 * absent where its source is present did not move, or fell out of a top list: 0). */
static double per_job(const struct crun *r, size_t j, const struct ckey *k, int *scaled)
{
	const struct store_point *p = &r->pts[j];
	double jobs = (double)p->tasks * (double)p->jobs_per_task;
	if (k->figure >= 0) {
		const struct point_figure *f = &point_figures[k->figure];
		double v = point_value(p, f);
		return !f->per_job ? v : jobs > 0 ? v / jobs : NAN;
	}
	int source_seen = 0;
	for (size_t i = 0; i < r->nc[j]; i++) {
		const struct store_counter *c = &r->c[j][i];
		if (strcmp(c->source, k->source) != 0)
			continue;
		source_seen = 1;
		if (strcmp(c->name, k->name) == 0) {
			*scaled |= isfinite(c->running_pct) && c->running_pct < 100;
			return jobs > 0 ? c->value / jobs : NAN;
		}
	}
	return source_seen && jobs > 0 ? 0 : NAN;
}

static void add_key(struct ckey **keys, size_t *n, const char *source, const char *name, const char *unit,
		    int figure)
{
	for (size_t k = 0; k < *n; k++)
		if (strcmp((*keys)[k].source, source) == 0 && strcmp((*keys)[k].name, name) == 0)
			return;
	*keys = xrealloc(*keys, (*n + 1) * sizeof(**keys));
	struct ckey *nk = &(*keys)[(*n)++];
	snprintf(nk->source, sizeof(nk->source), "%s", source);
	snprintf(nk->name, sizeof(nk->name), "%s", name);
	snprintf(nk->unit, sizeof(nk->unit), "%s", unit);
	nk->figure = figure;
}

enum { HAS_COUNTERS = 1, HAS_FIGURES = 2 };

/* The counters and point figures a point of the cell has, each once; what it has (HAS_*). */
static int add_keys(const struct crun *r, size_t j, struct ckey **keys, size_t *n)
{
	int any = r->nc[j] > 0 ? HAS_COUNTERS : 0;
	for (size_t i = 0; i < r->nc[j]; i++)
		add_key(keys, n, r->c[j][i].source, r->c[j][i].name, r->c[j][i].unit, -1);
	for (size_t f = 0; f < ARRAY_SIZE(point_figures); f++)
		if (!isnan(point_value(&r->pts[j], &point_figures[f]))) {
			add_key(keys, n, point_figures[f].source, point_figures[f].name, point_figures[f].unit, (int)f);
			any |= HAS_FIGURES;
		}
	return any;
}

/* A side's keys at a cell, and what it has there (HAS_*). */
static int side_keys(struct cbuild *b, const struct compare_side *s, const struct compare_panel *pn, int tasks,
		     struct ckey **keys, size_t *n)
{
	int any = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		struct crun *r = run_of(b, s->runs[i]);
		for (size_t j = 0; r && j < r->n; j++)
			if (matches(s, pn, &r->pts[j], tasks))
				any |= add_keys(r, j, keys, n);
	}
	return any;
}

/* Groups of runs: each run's per-job values at the cell, then the replicates the Jobs/Min verdict uses
 * (run means with two or more runs, else the one run's repeats). */
static void side_samples(struct cbuild *b, const struct compare_side *s, const struct compare_panel *pn, int tasks,
			 const struct ckey *k, struct verdict_samples *out, int *scaled)
{
	struct verdict_run *vr = xcalloc(s->nruns + 1, sizeof(*vr));
	double **vals = xcalloc(s->nruns + 1, sizeof(*vals));
	for (size_t i = 0; i < s->nruns; i++) {
		struct crun *r = run_of(b, s->runs[i]);
		vals[i] = xcalloc(r->n + 1, sizeof(double));
		size_t n = 0;
		for (size_t j = 0; j < r->n; j++) {
			double v;
			if (matches(s, pn, &r->pts[j], tasks) && !isnan(v = per_job(r, j, k, scaled)))
				vals[i][n++] = v;
		}
		vr[i] = (struct verdict_run){vals[i], n};
	}
	verdict_group_samples(vr, s->nruns, out);
	for (size_t i = 0; i < s->nruns; i++)
		free(vals[i]);
	free(vals);
	free(vr);
}

/* One run's per-job values by round (NaN where a round has none). */
static size_t side_rounds(struct cbuild *b, const struct compare_side *s, const struct compare_panel *pn,
			  int tasks, const struct ckey *k, double **out, int *scaled)
{
	struct crun *r = run_of(b, s->runs[0]);
	int most = -1;
	for (size_t j = 0; j < r->n; j++)
		if (matches(s, pn, &r->pts[j], tasks) && r->pts[j].repeat > most)
			most = r->pts[j].repeat;
	size_t n = (size_t)(most + 1);
	*out = xcalloc(n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++)
		(*out)[i] = NAN;
	for (size_t j = 0; j < r->n; j++)
		if (matches(s, pn, &r->pts[j], tasks) && r->pts[j].repeat >= 0)
			(*out)[r->pts[j].repeat] = per_job(r, j, k, scaled);
	return n;
}

/* The test of one counter at one cell, by the kind of the comparison; 0 when it could be judged. */
static int judge(struct cbuild *b, const struct compare_panel *pn, int tasks, const struct ckey *k,
		 struct verdict *v, int *scaled)
{
	const struct compare_side *sa = &b->m->sides[0], *sb = &b->m->sides[pn->side];
	int rc;
	if (b->m->kind == COMPARE_GROUPS) {
		struct verdict_samples xa, xb;
		side_samples(b, sa, pn, tasks, k, &xa, scaled);
		side_samples(b, sb, pn, tasks, k, &xb, scaled);
		rc = verdict_welch_samples(xa.v, xa.n, xb.v, xb.n, b->m->alpha, VERDICT_POWER, v);
		verdict_samples_free(&xa);
		verdict_samples_free(&xb);
		return rc;
	}
	double *ra, *rb;
	size_t na = side_rounds(b, sa, pn, tasks, k, &ra, scaled);
	size_t nb = side_rounds(b, sb, pn, tasks, k, &rb, scaled);
	double *pa = xcalloc(na + 1, sizeof(double)), *pb = xcalloc(na + 1, sizeof(double));
	size_t n = 0;
	for (size_t i = 0; i < na && i < nb; i++)
		if (!isnan(ra[i]) && !isnan(rb[i])) {
			pa[n] = ra[i];
			pb[n++] = rb[i];
		}
	rc = verdict_paired(pa, pb, n, b->m->alpha, VERDICT_POWER, v);
	free(pa);
	free(pb);
	free(ra);
	free(rb);
	return rc;
}

static double cell_change(const struct compare_cell *c)
{
	if (c->judged)
		return c->v.change_pct;
	return c->mean_a != 0 && isfinite(c->mean_a) && isfinite(c->mean_b) ? 100.0 * (c->mean_b / c->mean_a - 1) : NAN;
}

static void test_cell(struct cbuild *b, size_t panel, const struct compare_cell *cell, size_t *with_counters)
{
	const struct compare_panel *pn = &b->m->panels[panel];
	struct ckey *keys = NULL;
	size_t nk = 0;
	int in_a = side_keys(b, &b->m->sides[0], pn, cell->tasks, &keys, &nk);
	int in_b = side_keys(b, &b->m->sides[pn->side], pn, cell->tasks, &keys, &nk);
	*with_counters += (in_a & in_b & HAS_COUNTERS) != 0;
	for (size_t i = 0; in_a && in_b && i < nk; i++) {
		struct verdict v;
		int scaled = 0;
		if (judge(b, pn, cell->tasks, &keys[i], &v, &scaled) < 0)
			continue;
		if (b->nall == b->capall) {
			b->capall = b->capall * 2 + 64;
			b->all = xrealloc(b->all, b->capall * sizeof(*b->all));
		}
		struct counter_change *c = &b->all[b->nall++];
		memset(c, 0, sizeof(*c));
		c->panel = panel;
		c->tasks = cell->tasks;
		c->jpm_change_pct = cell_change(cell);
		memcpy(c->source, keys[i].source, sizeof(c->source));
		memcpy(c->name, keys[i].name, sizeof(c->name));
		memcpy(c->unit, keys[i].unit, sizeof(c->unit));
		c->per_job = keys[i].figure < 0 || point_figures[keys[i].figure].per_job;
		c->v = v;
		c->scaled = scaled;
		/* more of it per job costs throughput: it explains a drop when it rose, a gain when it fell */
		c->explains = isfinite(c->jpm_change_pct) && c->jpm_change_pct != 0 && v.diff != 0 &&
			      (v.diff > 0) == (c->jpm_change_pct < 0);
	}
	free(keys);
}

static int by_rank(const void *x, const void *y)
{
	const struct counter_change *a = x, *b = y;
	if (a->panel != b->panel)
		return a->panel < b->panel ? -1 : 1;
	if (a->tasks != b->tasks)
		return a->tasks < b->tasks ? -1 : 1;
	if (a->explains != b->explains)
		return a->explains ? -1 : 1;
	double ma = fabs(a->v.change_pct), mb = fabs(b->v.change_pct);
	if (ma != mb)
		return ma > mb ? -1 : 1;
	int s = strcmp(a->source, b->source);
	return s ? s : strcmp(a->name, b->name);
}

int counter_model_build(struct store *st, const struct compare_model *m, struct counter_model *out)
{
	memset(out, 0, sizeof(*out));
	struct cbuild b = {.st = st, .m = m};
	int rc = 0;
	for (size_t s = 0; s < m->nsides && rc == 0; s++)
		for (size_t i = 0; i < m->sides[s].nruns && rc == 0; i++)
			rc = load_run(&b, m->sides[s].runs[i]);
	for (size_t p = 0; rc == 0 && m->nsides >= 2 && p < m->npanels; p++)
		for (size_t c = 0; c < m->panels[p].ncells; c++)
			test_cell(&b, p, &m->panels[p].cells[c], &out->cells_with_counters);
	/* one correction over every counter tested, as over every Jobs/Min cell */
	double *p = xcalloc(b.nall + 1, sizeof(double)), *adj = xcalloc(b.nall + 1, sizeof(double));
	for (size_t i = 0; i < b.nall; i++)
		p[i] = b.all[i].v.p;
	if (m->correction == COMPARE_BH)
		verdict_bh(p, b.nall, adj);
	else
		verdict_holm(p, b.nall, adj);
	out->tested = b.nall;
	out->moved = xcalloc(b.nall + 1, sizeof(*out->moved));
	for (size_t i = 0; i < b.nall; i++) {
		b.all[i].p_adj = adj[i];
		if (adj[i] < m->alpha)
			out->moved[out->nmoved++] = b.all[i];
	}
	qsort(out->moved, out->nmoved, sizeof(*out->moved), by_rank);
	free(p);
	free(adj);
	free(b.all);
	for (size_t i = 0; i < b.nruns; i++) {
		for (size_t j = 0; j < b.runs[i].n; j++)
			free(b.runs[i].c[j]);
		free(b.runs[i].c);
		free(b.runs[i].nc);
		free(b.runs[i].pts);
	}
	free(b.runs);
	return rc;
}

void counter_model_free(struct counter_model *cm)
{
	free(cm->moved);
	memset(cm, 0, sizeof(*cm));
}
