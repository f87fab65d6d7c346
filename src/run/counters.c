/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's counters of each point: /proc read at the release and when the last task is done
 * (the engine's RELEASE and FINISHED moments), perf_event_open's counts of the point's tasks over the
 * same window (for the point's cgroup, else inherited in each task), and both as counter rows. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/perfctr.h"
#include "measure/syscount.h"
#include "measure/throttle.h"
#include "run/accounting.h"
#include "run/addon.h"
#include "run/runner.h"
#include "run/counters.h"
#include "util/util.h"

/* How perf counts a point's tasks. */
enum perf_scope {
	PERF_NONE,   /* no event could be opened */
	PERF_CGROUP, /* the point's cgroup, a counter per CPU, opened by the parent */
	PERF_TASKS,  /* each task's own, inherited by its children, summed by the engine */
};

struct counters {
	struct accounting *acct;
	char *proc_root;
	char desc[600];
	char unopened[400];              /* the perf events that cannot be opened, and why ("" none) */
	enum perf_scope scope;
	struct perfctr_task task;        /* PERF_TASKS: what each task opens */
	unsigned mask;                   /* the events counted */
	int said_cgroup, said_scaled;    /* a warning said once per run */
	/* the point going on */
	struct syscount_reading at_release, at_done;
	int released, done;
	struct perfctr_cgroup *cg;       /* PERF_CGROUP: the point's counters */
	int perf_done;
	struct perfctr_count perf[PERFCTR_MAX];
	struct throttle throttle;        /* reaim's cgroup and its parents' cpu.stat */
	struct throttle_reading thr_release, thr_done;
};

static void point_begins(struct counters *c)
{
	syscount_reading_free(&c->at_release);
	syscount_reading_free(&c->at_done);
	c->released = c->done = c->perf_done = 0;
	c->thr_release = c->thr_done = (struct throttle_reading){0};
	if (c->scope != PERF_CGROUP)
		return;
	const char *dir = accounting_point_cgroup(c->acct);
	char err[300];
	if (!dir) {
		snprintf(err, sizeof(err), "the point has no cgroup of its own");
	} else if (perfctr_cgroup_open(dir, c->mask, &c->cg, err, sizeof(err)) == 0) {
		return;
	}
	if (!c->said_cgroup++)
		log_warn("perf counters are off for a point: %s", err);
}

static void point_ends(struct counters *c)
{
	perfctr_cgroup_close(c->cg);
	c->cg = NULL;
}

/* The counters of a point whose workload counts (the run's counters, or NULL), for its add-on. */
struct counted {
	struct counters *c;
};

/* Ours go before the point's cgroup is removed (ahead of the accounting), and after it is made. */
static void addon_early(struct addon_point *p, void *state, enum engine_event ev)
{
	struct counters *c = ((struct counted *)state)->c;
	(void)p;
	if (c && (ev == ENGINE_KILL || ev == ENGINE_REAPED))
		point_ends(c);
}

static void addon_during(struct addon_point *p, void *state, enum engine_event ev)
{
	struct counters *c = ((struct counted *)state)->c;
	(void)p;
	if (!c)
		return;
	switch (ev) {
	case ENGINE_FORKING: point_begins(c); break;
	case ENGINE_RELEASE:
		syscount_read(c->proc_root, &c->at_release);
		throttle_read(&c->throttle, &c->thr_release);
		c->released = 1;
		if (c->cg && perfctr_cgroup_enable(c->cg) < 0) {
			log_warn("perf counters are off for a point: enabling them: %s", strerror(errno));
			point_ends(c);
		}
		break;
	case ENGINE_FINISHED:
		if (c->cg) {
			perfctr_cgroup_read(c->cg, c->perf);
			c->perf_done = 1;
		}
		syscount_read(c->proc_root, &c->at_done);
		throttle_read(&c->throttle, &c->thr_done);
		c->done = c->released;
		break;
	case ENGINE_FORKED:
	case ENGINE_RELEASED:
	case ENGINE_KILL:
	case ENGINE_REAPED: break;
	}
}

/* Which events open, and how: for the run cgroup's points where there is one (a perf_event
 * controller on its hierarchy: cgroup2, or a hybrid layout without a v1 perf_event), else in each
 * task. Those that cannot are said once, with why. */
static void choose_perf(struct counters *c)
{
	int errs[PERFCTR_MAX], cg_errs[PERFCTR_MAX];
	const char *run_dir = accounting_run_dir(c->acct);
	int fd = run_dir ? open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	unsigned mask = 0, cg_mask = fd >= 0 ? perfctr_probe(PERFCTR_ALL, fd, cg_errs) : 0;
	if (fd >= 0)
		close(fd);
	if (cg_mask) {
		c->scope = PERF_CGROUP;
		mask = cg_mask;
		memcpy(errs, cg_errs, sizeof(errs));
	} else {
		mask = perfctr_probe(PERFCTR_ALL, -1, errs);
		c->scope = mask ? PERF_TASKS : PERF_NONE;
	}
	c->mask = mask;
	c->task.mask = c->scope == PERF_TASKS ? mask : 0;
	perfctr_describe_failures(PERFCTR_ALL & ~mask, errs, c->unopened, sizeof(c->unopened));
	size_t at = strlen(c->desc);
	at += (size_t)snprintf(c->desc + at, sizeof(c->desc) - at, "; perf %s",
			       c->scope == PERF_CGROUP ? "for each point's cgroup, per CPU:"
			       : c->scope == PERF_TASKS ? "inherited in each task:" : "none");
	for (size_t i = 0; i < PERFCTR_MAX && at < sizeof(c->desc); i++)
		if (mask & (1u << i))
			at += (size_t)snprintf(c->desc + at, sizeof(c->desc) - at, " %s", perfctr_events[i].name);
}

struct counters *counters_open(struct accounting *acct, const char *proc_root)
{
	struct counters *c = xcalloc(1, sizeof(*c));
	c->acct = acct;
	c->proc_root = proc_root ? xstrdup(proc_root) : NULL;
	struct syscount_reading r;
	syscount_read(proc_root, &r);
	size_t len = (size_t)snprintf(c->desc, sizeof(c->desc), "system counters from");
	for (size_t s = 0; s < SYSCOUNT_NSOURCES && len < sizeof(c->desc); s++)
		if (r.have & (1u << s))
			len += (size_t)snprintf(c->desc + len, sizeof(c->desc) - len, " %s",
						syscount_source_name((enum syscount_source)s));
	syscount_reading_free(&r);
	/* the cgroup reaim starts in: its points are made below it, so a cap on it or a parent caps them */
	throttle_open("", &c->throttle);
	if (c->throttle.n)
		len += (size_t)snprintf(c->desc + len, sizeof(c->desc) - len,
					"; CPU throttling from cpu.stat of %zu cgroup level%s (%s)", c->throttle.n,
					c->throttle.n == 1 ? "" : "s",
					c->throttle.nv1 && c->throttle.nv2 ? "v1 and v2" : c->throttle.nv1 ? "v1" : "v2");
	choose_perf(c);
	return c;
}

const struct perfctr_task *counters_task_events(const struct counters *c)
{
	return c && c->scope == PERF_TASKS ? &c->task : NULL;
}

const char *counters_unopened(const struct counters *c)
{
	return c->unopened;
}

const char *counters_describe(const struct counters *c) { return c ? c->desc : "off"; }

/* The point's perf counts, from its cgroup or its tasks. */
static const struct perfctr_count *perf_of(const struct counters *c, const struct engine_result *res)
{
	if (c->scope == PERF_CGROUP)
		return c->perf_done ? c->perf : NULL;
	return c->scope == PERF_TASKS && res->perf_counted ? res->perf : NULL;
}

struct store_counter *counters_point(struct counters *c, const struct engine_result *res, size_t *n)
{
	*n = 0;
	if (!c || !c->done)
		return NULL;
	size_t nrows;
	struct syscount_row *rows = syscount_delta(&c->at_release, &c->at_done, SYSCOUNT_TOP_DEFAULT, &nrows);
	/* the throttling of reaim's cgroup and its parents over the window */
	const struct {
		const char *name, *unit;
		double value;
	} thr[] = {
		{THROTTLE_COUNT, THROTTLE_COUNT_UNIT, c->thr_done.nr_throttled - c->thr_release.nr_throttled},
		{THROTTLE_USEC, THROTTLE_USEC_UNIT, c->thr_done.throttled_usec - c->thr_release.throttled_usec},
	};
	struct store_counter *out = xcalloc(nrows + PERFCTR_MAX + ARRAY_SIZE(thr), sizeof(*out));
	const struct perfctr_count *perf = perf_of(c, res);
	for (size_t i = 0; perf && i < PERFCTR_MAX; i++) {
		if (!(c->mask & (1u << i)) || !perf[i].readings)
			continue;
		struct store_counter *o = &out[(*n)++];
		snprintf(o->source, sizeof(o->source), "perf");
		snprintf(o->name, sizeof(o->name), "%s", perfctr_events[i].name);
		snprintf(o->unit, sizeof(o->unit), "%s", perfctr_events[i].unit);
		o->value = perf[i].value;
		o->running_pct = perfctr_running_pct(&perf[i]);
		if (o->running_pct < 100 && !c->said_scaled++)
			log_warn("perf counter %s was multiplexed (it counted %.1f %% of the window) and is scaled "
				 "up by enabled/running; each point's share is stored (running_pct)",
				 o->name, o->running_pct);
	}
	if (c->thr_release.have && c->thr_done.have) {
		for (size_t i = 0; i < ARRAY_SIZE(thr); i++) {
			struct store_counter *o = &out[(*n)++];
			snprintf(o->source, sizeof(o->source), "%s", THROTTLE_SOURCE);
			snprintf(o->name, sizeof(o->name), "%s", thr[i].name);
			snprintf(o->unit, sizeof(o->unit), "%s", thr[i].unit);
			o->value = thr[i].value;
			o->running_pct = NAN;
		}
	}
	for (size_t i = 0; i < nrows; i++) {
		struct store_counter *o = &out[(*n)++];
		snprintf(o->source, sizeof(o->source), "%s", rows[i].source);
		snprintf(o->name, sizeof(o->name), "%s", rows[i].name);
		snprintf(o->unit, sizeof(o->unit), "%s", rows[i].unit);
		o->value = rows[i].value;
		o->running_pct = NAN;
	}
	free(rows);
	return out;
}

void counters_close(struct counters *c)
{
	if (!c)
		return;
	point_ends(c);
	syscount_reading_free(&c->at_release);
	syscount_reading_free(&c->at_done);
	throttle_free(&c->throttle);
	free(c->proc_root);
	free(c);
}

/* A point counts with the run's counters when its workload asks: the perf events its tasks open. */
static int addon_before(struct addon_point *p, void *state, char *err, size_t errlen)
{
	struct counted *s = state;
	(void)err;
	(void)errlen;
	s->c = p->at->wl->opts.counters ? p->rn->counters : NULL;
	if (s->c)
		p->pt->perf = counters_task_events(s->c);
	return 0;
}

/* A point whose tasks ran keeps its counters as rows. */
static void addon_store(struct addon_point *p, void *state)
{
	struct counters *c = ((struct counted *)state)->c;
	if (c && p->ran)
		p->rows->counters = counters_point(c, p->res, &p->rows->ncounters);
}

const struct point_addon counters_addon = {.name = "counters", .state_size = sizeof(struct counted),
					   .before = addon_before, .early = addon_early, .during = addon_during,
					   .store = addon_store};
