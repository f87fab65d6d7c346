/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Builds the Jobs/Min curves of a stored run: one per workload, O_SYNC setting and variant, with the
 * repeats of each task count summarised. Invalid points never enter a curve. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/noise.h"
#include "analysis/curves.h"
#include "util/util.h"

void curve_free(struct curve *c)
{
	for (size_t i = 0; i < c->count; i++)
		free(c->points[i].samples);
	free(c->points);
	c->points = NULL;
	c->count = 0;
}

void curves_free(struct curve *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		curve_free(&c[i]);
	free(c);
}

#define FIELD(f) offsetof(struct store_point, f)

/* What a curve can show and compare can judge: every point figure marked PLOT or PLOT_UP in
 * store/figures.h, in its order, with the way a change counts as better. */
#define METRIC_ROW(name, label, group, up, unit) {#name, label, FIELD(name), STORE_FIG_##group == STORE_FIG_SYSTEM, up, unit},
#define METRIC_PLOT(name, label, group, unit) METRIC_ROW(name, label, group, 0, unit)
#define METRIC_PLOT_UP(name, label, group, unit) METRIC_ROW(name, label, group, 1, unit)
#define METRIC_NOPLOT(name, label, group, unit)
#define METRIC(name, type, unit, label, fmt, group, plot) METRIC_##plot(name, label, group, unit)
static const struct metric metrics[] = {
	STORE_POINT_FIGURES(METRIC)
	{NULL, NULL, 0, 0, 0, NULL},
};

const struct metric *metric_find(const char *name)
{
	for (const struct metric *m = metrics; m->name; m++)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}

const struct metric *metric_list(void) { return metrics; }

int metric_adds_up(const struct metric *m)
{
	/* an amount, or a disk's bandwidth, as the writeback posts add it over their cases; a rate of jobs at
	 * different task counts, a share or an index adds up to nothing */
	static const char *const units[] = {"s", "bytes", "KB/s", "IOs"};
	for (size_t i = 0; m->unit && i < ARRAY_SIZE(units); i++)
		if (strcmp(m->unit, units[i]) == 0)
			return 1;
	return 0;
}

static double metric_of(const struct store_point *p, const struct metric *m)
{
	double v;
	memcpy(&v, (const char *)p + m->offset, sizeof(v));
	return v;
}

/* Summaries of the valid repeats pts[s..e) that share one task count. */
static void summarise(const struct store_point *pts, size_t s, size_t e, const struct metric *m,
		      struct curve_point *cp)
{
	/* the curve's metric, then the times compare reports beside it */
	static const struct metric times[] = {{"real_s", NULL, FIELD(real_s), 0, 0, "s"}, {"user_s", NULL, FIELD(user_s), 0, 0, "s"},
					       {"sys_s", NULL, FIELD(sys_s), 0, 0, "s"}};
	const struct metric *fields[] = {m, &times[0], &times[1], &times[2]};
	struct summary *dest[] = {&cp->jpm, &cp->real_s, &cp->user_s, &cp->sys_s};
	double *v = xcalloc(e - s + 1, sizeof(double));
	cp->tasks = pts[s].tasks;
	/* a point counts if valid and its metric was measured (a cgroup figure of a run without cgroups was not) */
	for (size_t f = 0; f < ARRAY_SIZE(fields); f++) {
		size_t n = 0;
		for (size_t i = s; i < e; i++)
			if (pts[i].valid && !(m->sampled && !pts[i].sampled) && !isnan(metric_of(&pts[i], m)))
				v[n++] = metric_of(&pts[i], fields[f]);
		measure_summary(v, n, dest[f]);
		if (f == 0) { /* the metric's own values stay with the point, for rank tests */
			cp->samples = v;
			v = xcalloc(e - s + 1, sizeof(double));
		}
	}
	free(v);
	cp->noisy = noise_count_points(pts + s, e - s, 0, cp->noise, sizeof(cp->noise));
}

int curves_load(struct store *st, int64_t run_id, struct curve **out, size_t *nout)
{
	return curves_load_metric(st, run_id, &metrics[0], out, nout);
}

void curve_from_points(struct curve *c, const struct store_point *pts, size_t n, const struct metric *m)
{
	memset(c, 0, sizeof(*c));
	if (n == 0)
		return;
	snprintf(c->workload, sizeof(c->workload), "%s", pts[0].workload);
	snprintf(c->variant, sizeof(c->variant), "%.63s", pts[0].variant);
	snprintf(c->load, sizeof(c->load), "%.31s", pts[0].load);
	c->cpus = pts[0].cpus;
	c->osync = pts[0].osync;
	for (size_t i = 0, e; i < n; i = e) {
		for (e = i; e < n && pts[e].tasks == pts[i].tasks; e++)
			;
		struct curve_point cp;
		summarise(pts, i, e, m, &cp);
		if (cp.jpm.n > 0) {
			c->points = xrealloc(c->points, (c->count + 1) * sizeof(*c->points));
			c->points[c->count++] = cp;
		} else {
			free(cp.samples);
		}
	}
}

size_t curve_variants(const struct store_point *pts, size_t n, const char ***names)
{
	const char **v = xcalloc(n + 1, sizeof(*v));
	const struct store_point **first = xcalloc(n + 1, sizeof(*first));
	size_t nv = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < nv && strcmp(v[k], pts[i].variant) != 0)
			k++;
		if (k == nv) {
			v[nv] = pts[i].variant;
			first[nv++] = &pts[i];
		} else if (pts[i].id < first[k]->id) {
			first[k] = &pts[i];
		}
	}
	/* the order they first ran in: the first variant given is the base */
	for (size_t i = 1; i < nv; i++)
		for (size_t k = i; k > 0 && first[k]->id < first[k - 1]->id; k--) {
			const struct store_point *tp = first[k];
			const char *tn = v[k];
			first[k] = first[k - 1], v[k] = v[k - 1];
			first[k - 1] = tp, v[k - 1] = tn;
		}
	free(first);
	*names = v;
	return nv;
}

/* Whether two points belong to one arm of a block: the same variant, load and CPU count. */
static int same_arm(const struct store_point *a, const struct store_point *b)
{
	return strcmp(a->variant, b->variant) == 0 && strcmp(a->load, b->load) == 0 && a->cpus == b->cpus;
}

size_t curve_arms(const struct store_point *pts, size_t n, const struct store_point ***firstp)
{
	const struct store_point **first = xcalloc(n + 1, sizeof(*first));
	size_t na = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < na && !same_arm(first[k], &pts[i]))
			k++;
		if (k == na)
			first[na++] = &pts[i];
		else if (pts[i].id < first[k]->id)
			first[k] = &pts[i];
	}
	for (size_t i = 1; i < na; i++) /* the order they first ran in: the base first */
		for (size_t k = i; k > 0 && first[k]->id < first[k - 1]->id; k--) {
			const struct store_point *t = first[k];
			first[k] = first[k - 1];
			first[k - 1] = t;
		}
	*firstp = first;
	return na;
}

size_t curve_select_arm(const struct store_point *pts, size_t n, const struct store_point *arm, struct store_point *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (same_arm(&pts[i], arm))
			out[k++] = pts[i];
	return k;
}

/* "LABEL (run N, variant V, load L, 2 CPUs)": what sets a run's curve apart from its others. */
static void curve_label(struct curve *c, const struct store_run_row *run)
{
	struct strbuf sb = {0};
	strbuf_addf(&sb, "%s (run %lld", run->label, (long long)run->id);
	if (c->variant[0])
		strbuf_addf(&sb, ", variant %s", c->variant);
	if (c->load[0])
		strbuf_addf(&sb, ", %s", c->load);
	if (c->cpus)
		strbuf_addf(&sb, ", %d CPU%s", c->cpus, c->cpus == 1 ? "" : "s");
	strbuf_add(&sb, ")", 1);
	snprintf(c->label, sizeof(c->label), "%s", sb.buf);
	strbuf_free(&sb);
}

size_t curve_select_variant(const struct store_point *pts, size_t n, const char *variant, struct store_point *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(pts[i].variant, variant) == 0)
			out[k++] = pts[i];
	return k;
}

int curves_load_metric(struct store *st, int64_t run_id, const struct metric *m, struct curve **out, size_t *nout)
{
	return curves_load_quiet(st, run_id, m, 0, out, nout);
}

int curves_load_quiet(struct store *st, int64_t run_id, const struct metric *m, int skip_noisy, struct curve **out,
		      size_t *nout)
{
	struct store_run_row run;
	struct store_point *pts;
	size_t n;
	if (store_get_run(st, run_id, &run) < 0 || store_get_points(st, run_id, &pts, &n) < 0)
		return -1;
	for (size_t i = 0; i < n && skip_noisy; i++)
		if (noise_of_point(&pts[i]))
			pts[i].valid = 0; /* left out as compare --exclude-noisy leaves it out */
	struct curve *curves = NULL;
	struct store_point *one = xcalloc(n + 1, sizeof(*one));
	size_t nc = 0;
	for (size_t i = 0, e; i < n; i = e) {
		/* points come ordered by workload, osync (off first), tasks, repeat */
		for (e = i; e < n && pts[e].workload_id == pts[i].workload_id && pts[e].osync == pts[i].osync; e++)
			;
		const struct store_point **arms;
		size_t na = curve_arms(pts + i, e - i, &arms);
		curves = xrealloc(curves, (nc + na) * sizeof(*curves));
		for (size_t k = 0; k < na; k++) {
			struct curve *c = &curves[nc++];
			curve_from_points(c, one, curve_select_arm(pts + i, e - i, arms[k], one), m);
			curve_label(c, &run);
		}
		free(arms);
	}
	free(one);
	free(pts);
	*out = curves;
	*nout = nc;
	return 0;
}

const struct curve_point *curve_at(const struct curve *c, int tasks)
{
	for (size_t i = 0; i < c->count; i++)
		if (c->points[i].tasks == tasks)
			return &c->points[i];
	return NULL;
}

const struct curve_point *curve_peak(const struct curve *c)
{
	const struct curve_point *best = NULL;
	for (size_t i = 0; i < c->count; i++)
		if (!best || c->points[i].jpm.mean > best->jpm.mean)
			best = &c->points[i];
	return best;
}

/* A deep copy of one point. */
static void point_copy(struct curve_point *dst, const struct curve_point *src)
{
	*dst = *src;
	dst->samples = xcalloc(src->jpm.n + 1, sizeof(double));
	if (src->samples && src->jpm.n)
		memcpy(dst->samples, src->samples, src->jpm.n * sizeof(double));
}

void curve_merge(struct curve *out, const struct curve *const *in, size_t n)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	snprintf(out->workload, sizeof(out->workload), "%s", in[0]->workload);
	snprintf(out->variant, sizeof(out->variant), "%s", in[0]->variant);
	snprintf(out->load, sizeof(out->load), "%s", in[0]->load);
	out->cpus = in[0]->cpus;
	out->osync = in[0]->osync;
	const struct curve_point **at = xcalloc(n, sizeof(*at));
	for (int after = 0;;) {
		int tasks = 0; /* the next task count any run has */
		for (size_t r = 0; r < n; r++)
			for (size_t i = 0; i < in[r]->count; i++)
				if (in[r]->points[i].tasks > after && (!tasks || in[r]->points[i].tasks < tasks))
					tasks = in[r]->points[i].tasks;
		if (!tasks)
			break;
		after = tasks;
		size_t k = 0;
		for (size_t r = 0; r < n; r++)
			if ((at[k] = curve_at(in[r], tasks)) != NULL && at[k]->jpm.n > 0)
				k++;
		out->points = xrealloc(out->points, (out->count + 1) * sizeof(*out->points));
		struct curve_point *cp = &out->points[out->count++];
		if (k == 1) {
			point_copy(cp, at[0]);
			continue;
		}
		/* two or more runs: each run's mean is one sample, as compare takes them */
		memset(cp, 0, sizeof(*cp));
		cp->tasks = tasks;
		double *v = xcalloc(k + 1, sizeof(double));
		const size_t fields[] = {offsetof(struct curve_point, real_s), offsetof(struct curve_point, user_s),
					 offsetof(struct curve_point, sys_s)};
		for (size_t f = 0; f < ARRAY_SIZE(fields); f++) {
			for (size_t j = 0; j < k; j++)
				v[j] = ((const struct summary *)((const char *)at[j] + fields[f]))->mean;
			measure_summary(v, k, (struct summary *)((char *)cp + fields[f]));
		}
		for (size_t j = 0; j < k; j++) {
			v[j] = at[j]->jpm.mean;
			cp->noisy += at[j]->noisy;
			if (!cp->noise[0] && at[j]->noise[0])
				snprintf(cp->noise, sizeof(cp->noise), "%s", at[j]->noise);
		}
		measure_summary(v, k, &cp->jpm);
		cp->samples = v;
	}
	free(at);
}
