/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks a point's others_* figures from its two windows: their means where both were measured, the
 * one that was where not, and others' busy time of the run's disks marking the point noisy. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "run/others.h"
#include "tap.h"

static struct demand_window window(double runnable, double busy_pct, double disk_busy_pct)
{
	return (struct demand_window){.wall_s = 0.1, .readings = 20, .runnable = runnable, .busy_pct = busy_pct,
				      .steal_pct = 0, .in_flight = 1, .disk_busy_pct = disk_busy_pct, .ncpus = 2};
}

static void figures(void)
{
	struct others_windows o = {.before = window(1, 40, 2), .after = window(3, 60, 4), .have_before = 1,
				   .have_after = 1};
	struct store_point p = {0};
	others_store(&o, 10, &p);
	is_near(p.others_demand_pct, 100, 1e-9, "demand: 1 then 3 runnable on 2 CPUs, 100 % in the mean");
	is_near(p.others_idle_cpu_pct, 50, 1e-9, "others' CPU while the run was idle: 50 %");
	is_near(p.others_disk_busy_pct, 3, 1e-9, "others' busy time of the run's disks: 3 %");
	ok(!p.noisy && p.noise[0] == '\0', "3 % under a limit of 10: not noisy");
	o.have_before = 0;
	memset(&p, 0, sizeof(p));
	others_store(&o, 10, &p);
	is_near(p.others_demand_pct, 150, 1e-9, "only the after window: its 150 %");
	o.have_after = 0;
	others_store(&o, 10, &p);
	ok(isnan(p.others_demand_pct) && isnan(p.others_disk_busy_pct), "neither window: NaN");
}

static void disk_noise(void)
{
	struct others_windows o = {.before = window(0, 5, 30), .after = window(0, 5, 40), .have_before = 1,
				   .have_after = 1};
	struct store_point p = {0};
	others_store(&o, 10, &p);
	ok(p.noisy, "others kept the disks busy 35 % of the time: noisy");
	ok(strstr(p.noise, "others kept the run's disks busy 35.0 % of the time it was idle") != NULL, "and says so");
	struct store_point q = {.noisy = 1};
	strcpy(q.noise, "outside load 23.4 % of the machine");
	others_store(&o, 10, &q);
	is_str(q.noise, "outside load 23.4 % of the machine; others kept the run's disks busy 35.0 % of the time it was "
			"idle", "after the CPU's reason, joined");
	struct store_point r = {0};
	others_store(&o, 50, &r);
	ok(!r.noisy, "under a limit of 50: not noisy");
}

int main(void)
{
	tap_case(figures);
	tap_case(disk_noise);
	return done_testing();
}
