/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Others' demand around a point, from two windows where the run has nothing running but its load. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/addon.h"
#include "run/others.h"
#include "util/util.h"

static int load_runnable(void *arg)
{
	return bgload_runnable(arg);
}

static double load_cpu_s(void *arg)
{
	return bgload_cpu_s(arg);
}

void others_window(const struct bgload *load, const char *const *devices, size_t ndevices, struct demand_window *w,
		   int *have)
{
	struct demand_probe p = {.seconds = OTHERS_WINDOW_S, .every_s = OTHERS_EVERY_S, .devices = devices,
				 .ndevices = ndevices};
	if (load)
		p.own = (struct demand_own){.runnable = load_runnable, .cpu_s = load_cpu_s, .arg = (void *)load};
	char err[300];
	*have = demand_window_take(&p, w, err, sizeof(err)) == 0;
	if (!*have)
		log_debug("others' demand: %s", err);
}

/* A window's figure, or NaN where it was not measured. */
static double seen(int have, double v)
{
	return have ? v : NAN;
}

/* Others' I/O marks a point noisy as their CPU does: their busy time of the run's disks while the run
 * was idle is what the run's own I/O cannot have caused. */
static void disk_noise(double busy_pct, double limit_pct, struct store_point *out)
{
	if (!(busy_pct > limit_pct))
		return;
	size_t used = strlen(out->noise);
	snprintf(out->noise + used, sizeof(out->noise) - used, "%sothers kept the run's disks busy %.1f %% of the time "
		 "it was idle", used ? "; " : "", busy_pct);
	out->noisy = 1;
}

void others_store(const struct others_windows *o, double noise_limit, struct store_point *out)
{
	const struct demand_window *b = &o->before, *a = &o->after;
	out->others_demand_pct = demand_mean(seen(o->have_before, demand_pct(b->runnable, b->ncpus)),
					     seen(o->have_after, demand_pct(a->runnable, a->ncpus)));
	out->others_idle_cpu_pct = demand_mean(seen(o->have_before, b->busy_pct), seen(o->have_after, a->busy_pct));
	out->others_in_flight = demand_mean(seen(o->have_before, b->in_flight), seen(o->have_after, a->in_flight));
	out->others_disk_busy_pct =
		demand_mean(seen(o->have_before, b->disk_busy_pct), seen(o->have_after, a->disk_busy_pct));
	disk_noise(out->others_disk_busy_pct, noise_limit, out);
}

/* ---- others' demand as a point's add-on ---- */

/* Others' demand where the run cannot move it: a window just before the point's tasks (the last
 * before), one just after them (the first after), where the point is sampled. */
static int addon_before(struct addon_point *p, void *state, char *err, size_t errlen)
{
	struct others_windows *o = state;
	(void)err;
	(void)errlen;
	if (p->pt->sampler)
		others_window(p->load, p->devices, p->ndevices, &o->before, &o->have_before);
	return 0;
}

static void addon_after(struct addon_point *p, void *state)
{
	struct others_windows *o = state;
	if (p->ran && p->pt->sampler)
		others_window(p->load, p->devices, p->ndevices, &o->after, &o->have_after);
}

static void addon_store(struct addon_point *p, void *state)
{
	others_store(state, p->at->wl->opts.noise_limit, p->out);
}

const struct point_addon others_addon = {.name = "others' demand", .state_size = sizeof(struct others_windows),
					 .before = addon_before, .after = addon_after, .store = addon_store};
