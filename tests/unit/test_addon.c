/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the walk of a point's add-ons over a table of fakes that write down each call: befores in
 * order, each engine moment to every early part in reverse then every during in order, afters in
 * reverse, stores in order; a before that fails stops the walk, only the begun ones are ended; each
 * add-on's state its own, zeroed. Then the load's and others' add-ons of a point whose load did not
 * start: NaN, never a zero; and the order of the real tables. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/addon.h"
#include "util/util.h"
#include "tap.h"

static char calls[1024];
static const char *failing; /* the add-on whose before fails, or NULL */

/* Each fake's state: its name, and whether its before saw it zeroed. */
struct fake {
	const char *name;
	int zeroed;
};

static void note(const char *name, const char *op, int ev)
{
	size_t used = strlen(calls);
	if (ev < 0)
		snprintf(calls + used, sizeof(calls) - used, "%s%s.%s", used ? " " : "", name, op);
	else
		snprintf(calls + used, sizeof(calls) - used, "%s%s.%s:%d", used ? " " : "", name, op, ev);
}

static int fake_before(struct addon_point *p, void *state, char *why, size_t len, const char *name)
{
	struct fake *f = state;
	(void)p;
	f->zeroed = f->name == NULL;
	f->name = name;
	note(name, "before", -1);
	if (failing && strcmp(failing, name) == 0) {
		snprintf(why, len, "%s could not begin", name);
		return -1;
	}
	return 0;
}

static const char *name_of(void *state)
{
	const struct fake *f = state;
	return f->name ? f->name : "?";
}

static void fake_early(struct addon_point *p, void *state, enum engine_event ev)
{
	(void)p;
	note(name_of(state), "early", (int)ev);
}

static void fake_during(struct addon_point *p, void *state, enum engine_event ev)
{
	(void)p;
	note(name_of(state), "during", (int)ev);
}

static void fake_after(struct addon_point *p, void *state)
{
	(void)p;
	note(name_of(state), "after", -1);
}

static void fake_store(struct addon_point *p, void *state)
{
	(void)p;
	note(name_of(state), "store", -1);
}

static int before_a(struct addon_point *p, void *s, char *why, size_t len) { return fake_before(p, s, why, len, "a"); }
static int before_b(struct addon_point *p, void *s, char *why, size_t len) { return fake_before(p, s, why, len, "b"); }
static int before_c(struct addon_point *p, void *s, char *why, size_t len) { return fake_before(p, s, why, len, "c"); }

static const struct point_addon fake_a = {.name = "a", .state_size = sizeof(struct fake), .before = before_a,
					  .during = fake_during, .after = fake_after, .store = fake_store};
/* b hears the moments early too, and has no after */
static const struct point_addon fake_b = {.name = "b", .state_size = sizeof(struct fake), .before = before_b,
					  .early = fake_early, .during = fake_during, .store = fake_store};
static const struct point_addon fake_c = {.name = "c", .state_size = sizeof(struct fake), .before = before_c,
					  .early = fake_early, .during = fake_during, .after = fake_after,
					  .store = fake_store};
static const struct point_addon *const fakes[] = {&fake_a, &fake_b, &fake_c};

/* A whole point: befores, two moments, afters, stores. */
static void in_order(void)
{
	struct engine_point pt = {0};
	struct addon_point p = {.pt = &pt};
	struct addon_walk w;
	calls[0] = '\0';
	failing = NULL;
	addon_walk_init(&w, fakes, ARRAY_SIZE(fakes), &p);
	char why[100] = "";
	is_int(addon_walk_before(&w, why, sizeof(why)), 0, "every before succeeds: 0");
	ok(p.ran, "the point runs");
	ok(pt.hook == &w.hook, "the engine's hook is the walk's");
	is_str(calls, "a.before b.before c.before", "befores in table order");
	calls[0] = '\0';
	pt.hook->fn(pt.hook->arg, ENGINE_RELEASE);
	pt.hook->fn(pt.hook->arg, ENGINE_REAPED);
	char want[300];
	snprintf(want, sizeof(want),
		 "c.early:%d b.early:%d a.during:%d b.during:%d c.during:%d c.early:%d b.early:%d a.during:%d b.during:%d "
		 "c.during:%d",
		 ENGINE_RELEASE, ENGINE_RELEASE, ENGINE_RELEASE, ENGINE_RELEASE, ENGINE_RELEASE, ENGINE_REAPED, ENGINE_REAPED,
		 ENGINE_REAPED, ENGINE_REAPED, ENGINE_REAPED);
	is_str(calls, want, "each moment: the early parts in reverse, then every during in order");
	calls[0] = '\0';
	addon_walk_after(&w);
	is_str(calls, "c.after a.after", "afters in reverse (b has none)");
	calls[0] = '\0';
	addon_walk_store(&w);
	is_str(calls, "a.store b.store c.store", "stores in table order");
	int zeroed = 1;
	for (size_t i = 0; i < ARRAY_SIZE(fakes); i++)
		zeroed &= ((struct fake *)w.state[i])->zeroed;
	ok(zeroed && w.state[0] != w.state[1] && w.state[1] != w.state[2], "each add-on its own state, zeroed");
	addon_walk_free(&w);
}

/* b's before fails: c never begins, b is not ended, a is; every store still writes its row. */
static void failing_before(void)
{
	struct engine_point pt = {0};
	struct addon_point p = {.pt = &pt};
	struct addon_walk w;
	calls[0] = '\0';
	failing = "b";
	addon_walk_init(&w, fakes, ARRAY_SIZE(fakes), &p);
	char why[100] = "";
	is_int(addon_walk_before(&w, why, sizeof(why)), -1, "b's before fails: -1");
	is_str(why, "b could not begin", "with b's reason");
	ok(!p.ran, "the point does not run");
	is_str(calls, "a.before b.before", "c's before is never called");
	calls[0] = '\0';
	pt.hook->fn(pt.hook->arg, ENGINE_KILL);
	snprintf(why, sizeof(why), "a.during:%d", ENGINE_KILL);
	is_str(calls, why, "a moment reaches the begun one alone");
	calls[0] = '\0';
	addon_walk_after(&w);
	is_str(calls, "a.after", "only the begun one is ended");
	calls[0] = '\0';
	addon_walk_store(&w);
	is_str(calls, "a.store b.store ?.store", "every store is called, c's on a state its before never saw");
	addon_walk_free(&w);
	failing = NULL;
}

/* A point whose load did not start: its load's name kept, the load's and others' figures NaN. */
static void not_started(void)
{
	struct workload wl = {.name = "w"};
	wl.opts.noise_limit = 10;
	const struct schedule_point point = {.tasks = 1};
	const struct point_at at = {.wl = &wl, .point = &point, .variant = "", .load = "nosuchload"};
	struct engine_point pt = {0};
	struct engine_result res = {0};
	struct store_point out = {.load_units = 0, .others_demand_pct = 0};
	struct store_point_rows rows = {0};
	struct addon_point p = {.at = &at, .pt = &pt, .res = &res, .out = &out, .rows = &rows};
	static const struct point_addon *const table[] = {&load_addon, &others_addon};
	struct addon_walk w;
	addon_walk_init(&w, table, ARRAY_SIZE(table), &p);
	char why[300] = "";
	is_int(addon_walk_before(&w, why, sizeof(why)), -1, "an unknown load does not begin");
	ok(strstr(why, "unknown load nosuchload") != NULL, "it says which load");
	addon_walk_after(&w);
	addon_walk_store(&w);
	is_str(out.load, "nosuchload", "the point keeps its load's name");
	ok(isnan(out.load_units) && isnan(out.load_cpu_pct) && isnan(out.load_read_bytes), "the load's figures NaN");
	ok(isnan(out.others_demand_pct) && isnan(out.others_disk_busy_pct), "others' demand NaN: no window taken");
	addon_walk_free(&w);
}

/* The measured point's order: its CPUs and cgroup before the counters count in it, the hook and the
 * view readied before the load starts, others' windows nearest the tasks; a warm-up's CPUs and cgroup. */
static void the_tables(void)
{
	char names[300] = "";
	for (size_t i = 0; i < point_addons_count; i++) {
		size_t used = strlen(names);
		snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "", point_addons[i]->name);
	}
	is_str(names, "cpus, accounting, counters, point hook, view, load, others' demand", "a point's add-ons in order");
	ok(bare_point_addons_count == 2 && bare_point_addons[0] == &confine_addon &&
		   bare_point_addons[1] == &accounting_addon,
	   "a warm-up's: its CPUs and its cgroup");
}

int main(void)
{
	tap_case(in_order);
	tap_case(failing_before);
	tap_case(not_started);
	tap_case(the_tables);
	return done_testing();
}
