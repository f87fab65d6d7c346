/* Derived plan figures: per-task file size and the per-task job lists (classic rounding). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "config/cfg.h"
#include "util/util.h"

long long plan_file_kib(const struct run_opts *o, int tasks)
{
	long long n = o->filesize_kib;
	if (o->poolsize_kib > 0 && tasks > 0)
		n += o->poolsize_kib / tasks;
	return n > 0 ? n : 1;
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
