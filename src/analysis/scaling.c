/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scaling over CPU counts (--cpus): Jobs/Min at N CPUs over Jobs/Min at the smallest count, per
 * task count, O_SYNC setting and variant, from stored points. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/scaling.h"
#include "util/util.h"

static int by_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	return (a > b) - (a < b);
}

/* The row of a point's setting and task count, made when new. */
static struct scaling_row *row_of(struct scaling *s, const struct store_point *p)
{
	for (size_t i = 0; i < s->nrows; i++) {
		struct scaling_row *r = &s->rows[i];
		if (r->osync == p->osync && r->tasks == p->tasks && strcmp(r->variant, p->variant) == 0)
			return r;
	}
	s->rows = xrealloc(s->rows, (s->nrows + 1) * sizeof(*s->rows));
	struct scaling_row *r = &s->rows[s->nrows++];
	memset(r, 0, sizeof(*r));
	r->osync = p->osync;
	r->tasks = p->tasks;
	snprintf(r->variant, sizeof(r->variant), "%.63s", p->variant);
	r->jpm = xcalloc(s->ncpus, sizeof(double));
	r->ratio = xcalloc(s->ncpus, sizeof(double));
	r->n = xcalloc(s->ncpus, sizeof(size_t));
	return r;
}

int scaling_of(const struct store_point *pts, size_t n, struct scaling *s)
{
	memset(s, 0, sizeof(*s));
	s->cpus = xcalloc(n + 1, sizeof(int));
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < s->ncpus && s->cpus[k] != pts[i].cpus)
			k++;
		if (k == s->ncpus)
			s->cpus[s->ncpus++] = pts[i].cpus;
	}
	qsort(s->cpus, s->ncpus, sizeof(int), by_int);
	/* an unconfined point (0) is not a count to scale against */
	if (s->ncpus < 2 || s->cpus[0] == 0) {
		scaling_free(s);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct scaling_row *r = row_of(s, &pts[i]);
		size_t k = 0;
		while (s->cpus[k] != pts[i].cpus)
			k++;
		if (pts[i].valid) {
			r->jpm[k] += pts[i].jobs_per_min;
			r->n[k]++;
		}
	}
	for (size_t i = 0; i < s->nrows; i++) {
		struct scaling_row *r = &s->rows[i];
		for (size_t k = 0; k < s->ncpus; k++)
			r->jpm[k] = r->n[k] ? r->jpm[k] / (double)r->n[k] : NAN;
		for (size_t k = 0; k < s->ncpus; k++)
			r->ratio[k] = r->n[0] && r->jpm[0] > 0 ? r->jpm[k] / r->jpm[0] : NAN;
	}
	return 0;
}

void scaling_free(struct scaling *s)
{
	for (size_t i = 0; i < s->nrows; i++) {
		free(s->rows[i].jpm);
		free(s->rows[i].ratio);
		free(s->rows[i].n);
	}
	free(s->rows);
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}

/* The mean of a figure over valid points (NaN ones left out); NaN without any. */
static double mean_of(const struct store_point *pts, size_t n, const char *load, int tasks, size_t offset)
{
	double sum = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double v;
		memcpy(&v, (const char *)&pts[i] + offset, sizeof(v));
		if (pts[i].valid && pts[i].tasks == tasks && strcmp(pts[i].load, load) == 0 && isfinite(v)) {
			sum += v;
			k++;
		}
	}
	return k ? sum / (double)k : NAN;
}

size_t loads_table(const struct store_point *pts, size_t n, struct load_row **rows)
{
	*rows = NULL;
	size_t nr = 0;
	for (size_t i = 0; i < n; i++) {
		if (!pts[i].load[0])
			continue;
		size_t k = 0;
		while (k < nr && !(strcmp((*rows)[k].load, pts[i].load) == 0 && (*rows)[k].tasks == pts[i].tasks))
			k++;
		if (k == nr) {
			*rows = xrealloc(*rows, (nr + 1) * sizeof(**rows));
			memset(&(*rows)[nr], 0, sizeof(**rows));
			snprintf((*rows)[nr].load, sizeof((*rows)[nr].load), "%.31s", pts[i].load);
			(*rows)[nr].tasks = pts[i].tasks;
			nr++;
		}
		(*rows)[k].n += pts[i].valid != 0;
	}
	for (size_t k = 0; k < nr; k++) {
		struct load_row *r = &(*rows)[k];
		r->jpm = mean_of(pts, n, r->load, r->tasks, offsetof(struct store_point, jobs_per_min));
		r->units = mean_of(pts, n, r->load, r->tasks, offsetof(struct store_point, load_units));
		r->cpu_pct = mean_of(pts, n, r->load, r->tasks, offsetof(struct store_point, load_cpu_pct));
		double base = mean_of(pts, n, "no_load", r->tasks, offsetof(struct store_point, jobs_per_min));
		/* contest's Ratio is of times: the job under the load over no_load; here of Jobs/Min, base over it */
		r->ratio = isfinite(base) && r->jpm > 0 ? base / r->jpm : NAN;
	}
	return nr;
}
