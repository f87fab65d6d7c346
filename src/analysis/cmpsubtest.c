/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Subtests by their share of the change in total job time, per panel. */
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

/* ---- subtests: each one's share of the change in total job time ---- */

/* Test names and, per replicate of a side, each test's total job time summed over the cells. */
struct units {
	size_t n;                 /* replicates */
	double *v;                /* [test * n + unit] */
	size_t ntests;            /* tests this side met; the others read as 0 */
};

struct names {
	char (*v)[32];
	size_t n;
};

static size_t name_index(struct names *nm, const char *name)
{
	for (size_t i = 0; i < nm->n; i++)
		if (strcmp(nm->v[i], name) == 0)
			return i;
	nm->v = xrealloc(nm->v, (nm->n + 1) * sizeof(*nm->v));
	snprintf(nm->v[nm->n], sizeof(nm->v[0]), "%s", name);
	return nm->n++;
}

/* The point of a run at (tasks, round) in a side's share of a block, or -1. */
static long point_at(const struct crun *r, const struct compare_side *s, const struct key *k, int tasks, int round)
{
	for (size_t j = 0; j < r->n; j++)
		if (r->pts[j].tasks == tasks && r->pts[j].repeat == round && cmp_matches(s, k, &r->pts[j]))
			return (long)j;
	return -1;
}

/* The cells of a panel a subtest's change sums over: its key and the task counts both sides have. */
struct cells {
	const struct key *k;
	const int *tasks;
	size_t nt;
};

static int has_all(const struct crun *r, const struct compare_side *s, const struct cells *cs)
{
	const struct key *k = cs->k;
	const int *tasks = cs->tasks;
	size_t nt = cs->nt;
	for (size_t t = 0; t < nt; t++) {
		int found = 0;
		for (size_t j = 0; j < r->n && !found; j++)
			found = r->pts[j].tasks == tasks[t] && cmp_matches(s, k, &r->pts[j]);
		if (!found)
			return 0;
	}
	return 1;
}

/* Add w times each of a point's tests' total job time to replicate u of out, whose n is the
 * replicates (names grow as met). */
static void add_tests(const struct store_test *t, size_t nt, double w, struct names *nm, struct units *out, size_t u)
{
	for (size_t i = 0; i < nt; i++) {
		size_t x = name_index(nm, t[i].name);
		while (out->ntests <= x) {
			out->v = xrealloc(out->v, (out->ntests + 1) * out->n * sizeof(double));
			memset(out->v + out->ntests * out->n, 0, out->n * sizeof(double));
			out->ntests++;
		}
		if (isfinite(t[i].total_s))
			out->v[x * out->n + u] += w * t[i].total_s;
	}
}

/* The rounds of run r of a side (and, paired, of the other side's only run) that measured every cell. */
static size_t full_rounds(struct build *b, const struct crun *r, const struct compare_side *s,
			  const struct compare_side *also, const struct cells *cs, int **out)
{
	const struct key *k = cs->k;
	const int *tasks = cs->tasks;
	size_t nt = cs->nt;
	int most = -1;
	for (size_t j = 0; j < r->n; j++)
		most = r->pts[j].repeat > most ? r->pts[j].repeat : most;
	*out = xcalloc((size_t)(most + 2), sizeof(int));
	size_t n = 0;
	for (int round = 0; round <= most; round++) {
		int ok = 1;
		for (size_t t = 0; t < nt && ok; t++)
			ok = point_at(r, s, k, tasks[t], round) >= 0 &&
			     (!also || point_at(cmp_run_of(b, also->runs[0]), also, k, tasks[t], round) >= 0);
		if (ok)
			(*out)[n++] = round;
	}
	return n;
}

/* A side's replicates of each test's total job time over the cells: its runs (two or more that
 * measured every cell: each run's mean per cell, summed), else its one run's full rounds. With
 * paired rounds, `rounds` gives them (the same for both sides). */
static void side_units(struct build *b, const struct compare_side *s, const struct cells *cs, const int *rounds,
		       size_t nrounds, struct names *nm, struct units *out)
{
	const struct key *k = cs->k;
	const int *tasks = cs->tasks;
	size_t nt = cs->nt;
	size_t *full = xcalloc(s->nruns + 1, sizeof(size_t)), nfull = 0;
	for (size_t i = 0; !rounds && i < s->nruns; i++)
		if (has_all(cmp_run_of(b, s->runs[i]), s, cs))
			full[nfull++] = i;
	int *own = NULL;
	if (!rounds && nfull == 1)
		nrounds = full_rounds(b, cmp_run_of(b, s->runs[full[0]]), s, NULL, cs, &own), rounds = own;
	size_t nunits = rounds ? nrounds : nfull, ntests;
	*out = (struct units){.n = nunits};
	for (size_t u = 0; u < nunits; u++) {
		struct crun *r = cmp_run_of(b, s->runs[rounds ? (own ? full[0] : 0) : full[u]]);
		for (size_t t = 0; t < nt; t++) {
			if (rounds) {
				long j = point_at(r, s, k, tasks[t], rounds[u]);
				const struct store_test *tests = j >= 0 ? cmp_tests_of(b, r, (size_t)j, &ntests) : NULL;
				if (tests)
					add_tests(tests, ntests, 1, nm, out, u);
				continue;
			}
			size_t cnt = 0;
			for (size_t j = 0; j < r->n; j++)
				cnt += r->pts[j].tasks == tasks[t] && cmp_matches(s, k, &r->pts[j]);
			for (size_t j = 0; j < r->n; j++)
				if (r->pts[j].tasks == tasks[t] && cmp_matches(s, k, &r->pts[j])) {
					const struct store_test *tests = cmp_tests_of(b, r, j, &ntests);
					add_tests(tests, ntests, 1.0 / (double)cnt, nm, out, u);
				}
		}
	}
	free(own);
	free(full);
}

static double unit(const struct units *u, size_t test, size_t i)
{
	return test < u->ntests ? u->v[test * u->n + i] : 0;
}

/* The change of one test (or of all, test == SIZE_MAX) between the sides' replicates. */
static void subtest_change(const struct compare_model *m, const struct units *a, const struct units *b,
			   size_t test, size_t ntests, int paired, struct compare_subtest *out)
{
	double *va = xcalloc(a->n + 1, sizeof(double)), *vb = xcalloc(b->n + 1, sizeof(double));
	for (size_t i = 0; i < a->n; i++)
		for (size_t t = 0; t < ntests; t++)
			va[i] += test == SIZE_MAX || t == test ? unit(a, t, i) : 0;
	for (size_t i = 0; i < b->n; i++)
		for (size_t t = 0; t < ntests; t++)
			vb[i] += test == SIZE_MAX || t == test ? unit(b, t, i) : 0;
	out->base_s = cmp_mean_of(va, a->n);
	out->delta_s = cmp_mean_of(vb, b->n) - out->base_s;
	out->na = a->n;
	out->nb = b->n;
	struct verdict v;
	int rc = paired ? verdict_paired(va, vb, a->n, m->alpha, VERDICT_POWER, &v)
			: verdict_welch_samples(va, a->n, vb, b->n, m->alpha, VERDICT_POWER, &v);
	out->p = rc == 0 ? v.p : NAN;
	out->noise = rc != 0 || !(v.p < m->alpha);
	free(va);
	free(vb);
}

static int by_delta(const void *x, const void *y)
{
	double a = fabs(((const struct compare_subtest *)x)->delta_s), c = fabs(((const struct compare_subtest *)y)->delta_s);
	return (a < c) - (a > c);
}

void cmp_panel_subtests(struct build *b, const struct key *k, struct compare_panel *pn)
{
	const struct compare_side *sa = &b->m->sides[0], *sb = &b->m->sides[pn->side];
	int *tasks = xcalloc(pn->ncells + 1, sizeof(int));
	size_t nt = 0;
	for (size_t i = 0; i < pn->ncells; i++)
		if (pn->cells[i].present)
			tasks[nt++] = pn->cells[i].tasks;
	int paired = b->m->kind != COMPARE_GROUPS;
	int *rounds = NULL;
	const struct cells cs = {.k = k, .tasks = tasks, .nt = nt};
	size_t nrounds = paired && nt ? full_rounds(b, cmp_run_of(b, sa->runs[0]), sa, sb, &cs, &rounds) : 0;
	struct names nm = {0};
	struct units ua = {0}, ub = {0};
	if (nt) {
		side_units(b, sa, &cs, paired ? rounds : NULL, nrounds, &nm, &ua);
		side_units(b, sb, &cs, paired ? rounds : NULL, nrounds, &nm, &ub);
	}
	if (ua.n && ub.n) {
		pn->subs = xcalloc(nm.n + 1, sizeof(*pn->subs));
		subtest_change(b->m, &ua, &ub, SIZE_MAX, nm.n, paired, &pn->total);
		snprintf(pn->total.name, sizeof(pn->total.name), "all");
		double moved = 0; /* every test's change, whichever way */
		for (size_t t = 0; t < nm.n; t++) {
			struct compare_subtest *st = &pn->subs[pn->nsubs++];
			subtest_change(b->m, &ua, &ub, t, nm.n, paired, st);
			snprintf(st->name, sizeof(st->name), "%s", nm.v[t]);
			moved += fabs(st->delta_s);
		}
		/* a share of all the movement, signed by the test's own direction (+: more job time): shares of a
		 * tiny net change made of large opposite moves stay within +-100 % */
		for (size_t t = 0; t < pn->nsubs; t++)
			pn->subs[t].share_pct = moved > 0 ? 100 * pn->subs[t].delta_s / moved : NAN;
		pn->total.share_pct = moved > 0 ? 100 * pn->total.delta_s / moved : NAN; /* the net, of the movement */
		qsort(pn->subs, pn->nsubs, sizeof(*pn->subs), by_delta);
	}
	free(ua.v);
	free(ub.v);
	free(nm.v);
	free(rounds);
	free(tasks);
}
