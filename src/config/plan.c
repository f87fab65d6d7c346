/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Derived plan figures: per-task file size, the number of points and the per-task job lists
 * (classic rounding). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"
#include "util/util.h"

void plan_notes(const struct plan *p)
{
	for (size_t w = 0; w < p->nwl; w++) {
		int said = 0;
		for (size_t k = 0; k < w && !said; k++)
			said = strcmp(p->wl[k].wf.path, p->wl[w].wf.path) == 0;
		if (!said)
			workfile_note(&p->wl[w].wf);
	}
}

long long plan_file_kib(const struct run_opts *o, int tasks)
{
	long long n = o->filesize_kib;
	if (o->poolsize_kib > 0 && tasks > 0)
		n += o->poolsize_kib / tasks;
	return n > 0 ? n : 1;
}

void plan_rounds(const struct run_opts *o, long long *least, long long *most)
{
	*least = *most = o->repeat;
	if (o->precision <= 0)
		return;
	/* two equal samples prove nothing: --precision takes at least three rounds */
	*least = o->repeat > PLAN_PRECISION_MIN_ROUNDS ? o->repeat : PLAN_PRECISION_MIN_ROUNDS;
	*most = o->max_repeat > *least ? o->max_repeat : *least;
}

long long plan_looks(const struct run_opts *o)
{
	long long least, most;
	plan_rounds(o, &least, &most);
	return o->precision > 0 ? most - least + 1 : 1;
}

size_t plan_loads(const struct run_opts *o, const char **names)
{
	size_t n = 0;
	names[n++] = load_names[0];
	for (size_t i = 0; i < o->loads.count; i++)
		for (const char *p = o->loads.v[i];; p++) {
			size_t len = strcspn(p, ",");
			for (size_t k = 0; load_names[k]; k++) {
				size_t seen = 0;
				while (seen < n && strcmp(names[seen], load_names[k]) != 0)
					seen++;
				if (strlen(load_names[k]) == len && strncmp(load_names[k], p, len) == 0 && seen == n &&
				    n < LOADS_MAX)
					names[n++] = load_names[k];
			}
			p += len;
			if (!*p)
				break;
		}
	return n;
}

size_t plan_arms(const struct run_opts *o)
{
	const char *names[LOADS_MAX];
	return (o->variants.count ? o->variants.count : 1) * (o->loads.count ? plan_loads(o, names) : 1);
}

size_t plan_passes(const struct run_opts *o)
{
	const char *names[LOADS_MAX];
	size_t loads = o->loads.count ? plan_loads(o, names) : 1, passes = loads;
	for (size_t i = 0; o->loads.count && i < loads; i++)
		passes += strcmp(names[i], LOAD_CACHE) == 0;
	return (o->variants.count ? o->variants.count : 1) * passes;
}

size_t plan_cpu_counts(const struct run_opts *o)
{
	return o->cpus.count ? o->cpus.count : 1;
}

long long plan_max_tasks(const struct run_opts *o)
{
	long long m = 0;
	for (size_t i = 0; i < o->tasks.count; i++)
		m = o->tasks.n[i] > m ? o->tasks.n[i] : m;
	if (o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK || o->mode == MODE_PEAK)
		m = o->max_tasks > m ? o->max_tasks : m;
	return o->mode == MODE_SINGLE ? 1 : m;
}

void plan_points_range(const struct run_opts *o, size_t *least, size_t *most)
{
	long long lo, hi;
	plan_rounds(o, &lo, &hi);
	size_t listed = o->tasks.count * (size_t)lo * plan_arms(o);
	*least = listed;
	*most = o->tasks.count * (size_t)hi * plan_arms(o);
	if ((o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK) && o->tasks.count) {
		long long tasks = o->tasks.n[o->tasks.count - 1];
		for (size_t np = listed; tasks * 2 <= o->max_tasks && np < listed + PLAN_GROW_POINTS;
		     np += (size_t)o->repeat) {
			tasks *= 2;
			*most += (size_t)o->repeat;
		}
	}
	*least *= plan_cpu_counts(o); /* each CPU count is a block of its own */
	*most *= plan_cpu_counts(o);
}

enum plan_count plan_points(const struct plan *p, size_t *n)
{
	enum plan_count kind = PLAN_EXACT;
	*n = 0;
	for (size_t w = 0; w < p->nwl; w++) {
		const struct run_opts *o = &p->wl[w].opts;
		size_t least, most;
		if (o->mode == MODE_PEAK || o->mode == MODE_SINGLE)
			kind = PLAN_UNKNOWN;
		plan_points_range(o, &least, &most);
		/* a growing mode may stop at its first task count, so only its most is a bound */
		if (o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK || least != most)
			kind = kind == PLAN_UNKNOWN ? kind : PLAN_AT_MOST;
		*n += most * (o->osync == OSYNC_BOTH ? 2 : 1);
	}
	return kind;
}

/* c_t = round(h_t / H * J), at least 1 for a listed test. */
static size_t jobs_for(const struct workfile *wf, size_t i, long long jobs, long long total_weight)
{
	long long c = llround((double)wf->entries[i].weight * (double)jobs / (double)total_weight);
	return c < 1 ? 1 : (size_t)c;
}

static long long total_weight(const struct workfile *wf)
{
	long long h = 0;
	for (size_t i = 0; i < wf->count; i++)
		h += wf->entries[i].weight;
	return h;
}

size_t plan_jobs_per_task(const struct workfile *wf, long long jobs)
{
	long long h = total_weight(wf);
	size_t p = 0;
	for (size_t i = 0; i < wf->count; i++)
		p += jobs_for(wf, i, jobs, h);
	return p;
}

/* splitmix64: turns (seed, task) into well-spread independent streams. */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void plan_job_list_fill(const struct workfile *wf, long long jobs, uint64_t seed, unsigned task,
			uint16_t *test)
{
	long long h = total_weight(wf);
	size_t k = 0;
	for (size_t i = 0; i < wf->count; i++)
		for (size_t c = jobs_for(wf, i, jobs, h); c > 0; c--)
			test[k++] = (uint16_t)i;
	uint64_t state = seed ^ ((uint64_t)task * 0xd1b54a32d192ed03ull);
	for (size_t i = k; i > 1; i--) {
		size_t j = (size_t)(mix(&state) % i);
		uint16_t t = test[i - 1];
		test[i - 1] = test[j];
		test[j] = t;
	}
}

void plan_job_list(const struct workfile *wf, long long jobs, uint64_t seed, unsigned task,
		   struct job_list *out)
{
	out->count = plan_jobs_per_task(wf, jobs);
	out->test = xmalloc(out->count * sizeof(*out->test));
	plan_job_list_fill(wf, jobs, seed, task, out->test);
}

void job_list_free(struct job_list *jl)
{
	free(jl->test);
	jl->test = NULL;
	jl->count = 0;
}
