/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --load as a point's add-on: the point's background load started before its tasks and stopped after
 * them, its units and CPU counted from the release to the last task's finish, what it did kept with
 * the point; the cache load's cold first run. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bgload.h"
#include "run/accounting.h"
#include "run/addon.h"
#include "run/runner.h"
#include "util/util.h"

/* A point's load: NULL when it has none (no_load, the cache load, or one that did not start). */
struct point_load {
	struct bgload *load;
	struct bgload_result r;
	int stopped;              /* r is what the stopped load did */
};

/* The cache load's first run (contest's cacherun): the same point once, its tasks accounted and killed
 * as any point's but nothing sampled, counted or stored, so the measured run that follows finds the
 * page cache, dentries and allocator as this one left them. 0, or -1 with the reason. */
static int cold_pass(struct runner *rn, const struct engine_point *pt, const struct engine_scratch *scratch, char *err,
		     size_t errlen)
{
	struct engine_point cold = *pt;
	cold.sampler = NULL;
	cold.perf = NULL;
	cold.hook = accounting_hook(rn->acct); /* a point cgroup, killed with it; no point hook, no counters */
	struct engine_result res;
	engine_run_point(&cold, scratch, &res);
	int rc = res.valid ? 0 : -1;
	if (rc < 0)
		snprintf(err, errlen, "cache: the first (cold) run: %.240s", res.reason);
	engine_result_free(&res);
	return rc;
}

/* Start the point's load (not no_load) before its tasks, on the run's first disk dir, in a cgroup of
 * its own under the run cgroup; the cache load runs the point once cold instead. 0, or -1 with the
 * reason: the point is not measured as asked. */
static int addon_before(struct addon_point *p, void *state, char *err, size_t errlen)
{
	struct point_load *s = state;
	const char *load = p->at->load;
	if (load && strcmp(load, LOAD_CACHE) == 0)
		return cold_pass(p->rn, p->pt, p->at->scratch, err, errlen);
	if (!load || strcmp(load, BGLOAD_NONE) == 0)
		return 0;
	const struct bgload_def *d = bgload_find(load);
	if (!d) {
		snprintf(err, errlen, "unknown load %s (the loads are %s)", load, bgload_list_text());
		return -1;
	}
	const char *run_cg = accounting_run_dir(p->rn->acct);
	char *cg = run_cg ? xasprintf("%s/load-%s", run_cg, d->name) : NULL;
	const struct bgload_setup at = {.dir = p->at->scratch->roots[0], .cgroup_dir = cg, .timeout_s = 120,
					.stop = engine_interrupted};
	int rc = bgload_start(d, &at, &s->load, err, errlen);
	free(cg);
	if (rc < 0)
		return -1;
	p->load = s->load;
	return 0;
}

/* The load's window is marked at the tasks' own moments, ahead of what else hears them. */
static void addon_early(struct addon_point *p, void *state, enum engine_event ev)
{
	struct point_load *s = state;
	(void)p;
	if (!s->load)
		return;
	if (ev == ENGINE_RELEASED)
		bgload_mark_start(s->load);
	else if (ev == ENGINE_FINISHED || ev == ENGINE_KILL)
		bgload_mark_end(s->load);
}

/* Stop the point's load: a load that ended early makes the point invalid. */
static void addon_after(struct addon_point *p, void *state)
{
	struct point_load *s = state;
	if (!s->load)
		return;
	char why[300];
	s->r.units = s->r.cpu_s = s->r.read_bytes = s->r.write_bytes = NAN;
	s->r.wall_s = 0;
	if (bgload_stop(s->load, &s->r, why, sizeof(why)) < 0 && p->res->valid) {
		p->res->valid = 0;
		snprintf(p->res->reason, sizeof(p->res->reason), "%s", why);
	}
	p->load = s->load = NULL;
	s->stopped = 1;
}

/* The load's name with every point of a --load block, what it did where it ran (NaN where not). */
static void addon_store(struct addon_point *p, void *state)
{
	struct point_load *s = state;
	const char *load = p->at->load;
	struct store_point *out = p->out;
	const struct bgload_result none = {.units = NAN, .cpu_s = NAN, .read_bytes = NAN, .write_bytes = NAN};
	const struct bgload_result *r = s->stopped ? &s->r : &none;
	snprintf(out->load, sizeof(out->load), "%s", load ? load : "");
	out->load_units = r->units;
	out->load_cpu_pct = r->wall_s > 0 ? 100 * r->cpu_s / r->wall_s : NAN;
	out->load_read_bytes = r->read_bytes;
	out->load_write_bytes = r->write_bytes;
}

const struct point_addon load_addon = {.name = "load", .state_size = sizeof(struct point_load),
				       .before = addon_before, .early = addon_early, .after = addon_after,
				       .store = addon_store};
