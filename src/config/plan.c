/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan resolved once into its schedule (each workload's points in order, with their file sizes,
 * jobs per task, rounds and looks, its blocks and how many points they store), and the per-task job
 * lists (classic rounding). */
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

/* The loads of a workload in the order they run: no_load first, then each named once, in the order
 * given; how many (1 without --load: no_load alone). names[LOADS_MAX]. */
static size_t load_order(const struct run_opts *o, const char **names)
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

/* P: every test's jobs of a task, summed. */
static size_t jobs_per_task(const struct workfile *wf, long long jobs)
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
			uint16_t *test, size_t room)
{
	long long h = total_weight(wf);
	size_t k = 0;
	for (size_t i = 0; i < wf->count; i++)
		for (size_t c = jobs_for(wf, i, jobs, h); c > 0; c--) {
			BUG_ON(k >= room); /* room was not P of these jobs: a point's facts out of date */
			test[k++] = (uint16_t)i;
		}
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
	out->count = jobs_per_task(wf, jobs);
	out->test = xmalloc(out->count * sizeof(*out->test));
	plan_job_list_fill(wf, jobs, seed, task, out->test, out->count);
}

void job_list_free(struct job_list *jl)
{
	free(jl->test);
	jl->test = NULL;
	jl->count = 0;
}

struct schedule_rounds schedule_rounds_of(const struct run_opts *o)
{
	struct schedule_rounds r = {.least = o->repeat, .most = o->repeat, .looks = 1};
	if (o->precision <= 0)
		return r;
	r.least = o->repeat > PLAN_PRECISION_MIN_ROUNDS ? o->repeat : PLAN_PRECISION_MIN_ROUNDS;
	r.most = o->max_repeat > r.least ? o->max_repeat : r.least;
	r.looks = r.most - r.least + 1;
	return r;
}

struct schedule_point schedule_point_of(const struct workfile *wf, const struct run_opts *o, int tasks)
{
	long long kib = o->filesize_kib;
	if (o->poolsize_kib > 0 && tasks > 0)
		kib += o->poolsize_kib / tasks;
	return (struct schedule_point){.tasks = tasks, .file_kib = kib > 0 ? kib : 1,
				       .jobs_per_task = jobs_per_task(wf, o->jobs_per_task)};
}

static int growing(const struct run_opts *o)
{
	return o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK;
}

/* The task counts a round runs: single mode's one task; the listed counts; a growing mode's
 * doublings of the last one while they stay within --max-tasks, each marked grown. */
static void workload_points(struct schedule_workload *sw)
{
	const struct workload *wl = sw->wl;
	const struct run_opts *o = &wl->opts;
	size_t cap = o->tasks.count + 1;
	sw->pts = xcalloc(cap, sizeof(*sw->pts));
	if (o->mode == MODE_SINGLE) {
		sw->pts[sw->npts++] = schedule_point_of(&wl->wf, o, 1);
		sw->nlisted = sw->npts;
		sw->reach = sw->pts[0];
		return;
	}
	int most = 0;
	for (size_t i = 0; i < o->tasks.count; i++) {
		sw->pts[sw->npts++] = schedule_point_of(&wl->wf, o, o->tasks.n[i]);
		most = o->tasks.n[i] > most ? o->tasks.n[i] : most;
	}
	sw->nlisted = sw->npts;
	for (long long t = o->tasks.count ? o->tasks.n[o->tasks.count - 1] : 0; growing(o) && t > 0 && t <= o->max_tasks / 2;) {
		t *= 2;
		if (sw->npts == cap)
			sw->pts = xrealloc(sw->pts, (cap *= 2) * sizeof(*sw->pts));
		sw->pts[sw->npts] = schedule_point_of(&wl->wf, o, (int)t);
		sw->pts[sw->npts++].grown = 1;
		most = (int)t > most ? (int)t : most;
	}
	/* a peak search tries counts from the first listed up to --max-tasks, the listed others never */
	if (o->mode == MODE_PEAK)
		most = o->max_tasks > o->tasks.n[0] ? (int)o->max_tasks : o->tasks.n[0];
	sw->reach = schedule_point_of(&wl->wf, o, most);
}

/* The loads in their order; points per task count and round: one per variant and load (no_load
 * included), or one; and the runs they take, the cache load's point twice (its cold pass unstored). */
static void workload_arms(struct schedule_workload *sw)
{
	const struct run_opts *o = &sw->wl->opts;
	sw->nloads = o->loads.count ? load_order(o, sw->loads) : 0;
	size_t loads = sw->nloads ? sw->nloads : 1, passes = loads;
	for (size_t i = 0; i < sw->nloads; i++)
		passes += strcmp(sw->loads[i], LOAD_CACHE) == 0;
	size_t variants = o->variants.count ? o->variants.count : 1;
	sw->arms = variants * loads;
	sw->passes = variants * passes;
}

/* The blocks in the order they run: a block per --cpus count (in the order listed), and per O_SYNC
 * setting, off first, but where a sweep interleaves on and off as two more arms of one block. */
static void workload_blocks(struct schedule_workload *sw)
{
	const struct run_opts *o = &sw->wl->opts;
	if (o->mode == MODE_SINGLE) { /* each test alone, on when O_SYNC is on at all */
		sw->blocks = xcalloc(1, sizeof(*sw->blocks));
		sw->blocks[sw->nblocks++] = (struct schedule_block){.of = sw, .osync = o->osync != OSYNC_OFF, .arms = 1};
		return;
	}
	int interleave = o->osync == OSYNC_BOTH && o->mode == MODE_SWEEP;
	size_t nosync = o->osync == OSYNC_BOTH && !interleave ? 2 : 1, ncpus = o->cpus.count ? o->cpus.count : 1;
	sw->blocks = xcalloc(ncpus * nosync, sizeof(*sw->blocks));
	for (size_t c = 0; c < ncpus; c++)
		for (size_t k = 0; k < nosync; k++)
			sw->blocks[sw->nblocks++] = (struct schedule_block){
				.of = sw,
				.osync = interleave ? -1 : nosync == 2 ? (int)k : o->osync,
				.cpus = o->cpus.count ? o->cpus.n[c] : 0,
				.arms = sw->arms * (interleave ? 2 : 1),
			};
}

/* How many points the workload stores: a sweep exactly, or from its least rounds to its most;
 * crossover and quick at most its every doubling; a peak search at least one task count's rounds,
 * single mode a row per test, the rest unknown. */
static void workload_count(struct schedule_workload *sw)
{
	const struct run_opts *o = &sw->wl->opts;
	size_t grown = sw->npts - sw->nlisted, least = 0, most = 0;
	for (size_t b = 0; b < sw->nblocks; b++) {
		least += sw->nlisted * (size_t)sw->rounds.least * sw->blocks[b].arms;
		most += sw->nlisted * (size_t)sw->rounds.most * sw->blocks[b].arms + grown * (size_t)o->repeat;
	}
	sw->count = least == most ? PLAN_EXACT : PLAN_AT_MOST;
	if (growing(o))
		sw->count = PLAN_AT_MOST; /* it may stop at its first task count, so only its most is a bound */
	if (o->mode == MODE_PEAK || o->mode == MODE_SINGLE) {
		sw->count = PLAN_UNKNOWN;
		least = o->mode == MODE_SINGLE ? sw->wl->wf.count : (size_t)o->repeat * sw->nblocks;
		most = 0;
	}
	sw->least_points = least;
	sw->most_points = most;
}

void schedule_make(const struct plan *p, struct schedule *s)
{
	*s = (struct schedule){.plan = p, .nwl = p->nwl, .count = PLAN_EXACT};
	s->wl = xcalloc(p->nwl + 1, sizeof(*s->wl));
	for (size_t w = 0; w < p->nwl; w++) {
		struct schedule_workload *sw = &s->wl[w];
		sw->wl = &p->wl[w];
		sw->rounds = schedule_rounds_of(&sw->wl->opts);
		workload_points(sw);
		workload_arms(sw);
		workload_blocks(sw);
		workload_count(sw);
		s->count = sw->count > s->count ? sw->count : s->count;
		s->points += sw->most_points;
		s->least_points += sw->least_points;
	}
	if (s->count == PLAN_UNKNOWN)
		s->points = 0;
}

void schedule_free(struct schedule *s)
{
	for (size_t w = 0; w < s->nwl; w++) {
		free(s->wl[w].pts);
		free(s->wl[w].blocks);
	}
	free(s->wl);
	*s = (struct schedule){0};
}
