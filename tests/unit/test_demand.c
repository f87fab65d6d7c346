/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks others' demand: procs_running parsed, the window's figures on counters worked by hand, a
 * window taken over a fixture /proc (the reader and the run's load not counted as others), and a live
 * window that sees a CPU-bound child of ours as a runnable other. */
#include "config.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/demand.h"
#include "measure/procstat.h"
#include "tap.h"
#include "testfs.h"
#include "util/util.h"

static const char stat_running[] = "cpu  100 0 50 700 0 0 0 0 0 0\n"
				   "cpu0 50 0 25 350 0 0 0 0 0 0\n"
				   "cpu1 50 0 25 350 0 0 0 0 0 0\n"
				   "ctxt 10\nprocesses 20\nprocs_running 4\nprocs_blocked 0\n";

static void parse_running(void)
{
	struct sys_counters c;
	is_int(procstat_parse_stat(stat_running, &c), 0, "stat with procs_running parses");
	is_int(c.procs_running, 4, "procs_running read");
	is_int(procstat_parse_stat("cpu  1 0 0 1 0 0 0 0\ncpu0 1 0 0 1 0 0 0 0\nctxt 1\nprocesses 2\n", &c), 0, "stat without it parses");
	is_int(c.procs_running, -1, "procs_running absent: -1");
}

static void figures(void)
{
	is_near(demand_pct(3, 2), 150, 1e-12, "three runnable on two CPUs demand 150 %, not capped");
	is_near(demand_pct(-0.5, 2), 0, 0, "a negative count is none");
	ok(isnan(demand_pct(1, 0)), "no CPU count: NaN");
	ok(isnan(demand_pct(NAN, 4)), "unknown runnable: NaN");
	is_near(demand_mean(10, 30), 20, 1e-12, "both windows: their mean");
	is_near(demand_mean(NAN, 30), 30, 0, "only the after window: it");
	is_near(demand_mean(10, NAN), 10, 0, "only the before window: it");
	ok(isnan(demand_mean(NAN, NAN)), "neither: NaN");
}

static void from_counters(void)
{
	/* 2 CPUs at 100 Hz over 0.5 s: user 40 system 20 idle 30 steal 10 jiffies; busy 0.6 s of 1 CPU-s */
	struct sys_counters a = {0}, b = {0};
	static const unsigned long long add[8] = {40, 0, 20, 30, 0, 0, 0, 10};
	for (int i = 0; i < 8; i++)
		b.cpu[i] = a.cpu[i] + add[i];
	b.ncpus = 2;
	a.ndevices = b.ndevices = 2; /* sda busy 250 of the 500 ms, sdb 100 */
	a.dev_io_ticks_ms[0] = 1000, b.dev_io_ticks_ms[0] = 1250;
	a.dev_io_ticks_ms[1] = 7000, b.dev_io_ticks_ms[1] = 7100;
	struct demand_tally t = {.wall_s = 0.5, .readings = 4, .runnable_sum = 6, .in_flight_sum = 10,
				 .have_disks = 1, .own_cpu_s = 0.2};
	struct demand_window w;
	demand_from(&a, &b, 100, &t, &w);
	is_near(w.runnable, 1.5, 1e-12, "runnable: 6 over 4 readings");
	is_near(w.busy_pct, 40, 1e-9, "others' CPU: (0.6 - 0.2) s over 2 CPUs x 0.5 s = 40 %");
	is_near(w.steal_pct, 10, 1e-9, "steal: 10 of 100 jiffies");
	is_near(w.in_flight, 2.5, 1e-12, "in flight: 10 over 4 readings");
	is_int(w.ncpus, 2, "CPUs of the later reading");
	is_near(w.disk_busy_pct, 50, 1e-9, "the busiest disk: busy 250 of 500 ms = 50 %");
	b.dev_io_ticks_ms[0] = 900;
	demand_from(&a, &b, 100, &t, &w);
	is_near(w.disk_busy_pct, 20, 1e-9, "a disk whose busy time steps back counts 0; the other's 20 %");
	t.runnable_sum = NAN;
	t.have_disks = 0;
	demand_from(&a, &b, 100, &t, &w);
	ok(isnan(w.runnable), "a reading without procs_running: runnable unknown");
	ok(isnan(w.in_flight), "no disks: in flight unknown");
	ok(isnan(w.disk_busy_pct), "no disks: busy share unknown");
	t.readings = 0;
	t.runnable_sum = 0;
	demand_from(&a, &b, 100, &t, &w);
	ok(isnan(w.runnable), "no reading: runnable unknown");
}

static int one_runnable(void *arg)
{
	(void)arg;
	return 1;
}

static void fixture_window(void)
{
	char root[] = "/tmp/reaim-demand-XXXXXX";
	if (!mkdtemp(root)) {
		skip("a window over a fixture /proc", "mkdtemp failed");
		return;
	}
	/* 4 runnable: the reader, one thread of the run's load, two others; sda keeps 3 in flight */
	int put = test_put(root, "stat", stat_running);
	put |= test_put(root, "diskstats", "   8       0 sda 10 0 80 5 20 0 160 9 3 12 14\n");
	ok(put == 0, "fixture /proc written");
	const char *const devices[] = {"sda"};
	struct demand_probe p = {.proc_root = root, .seconds = 0.02, .every_s = 0.005, .devices = devices,
				 .ndevices = 1, .own = {.runnable = one_runnable}};
	struct demand_window w;
	char err[256] = "";
	is_int(demand_window_take(&p, &w, err, sizeof(err)), 0, "a window over the fixture is taken");
	ok(w.readings >= 1 && w.wall_s >= 0.02, "it read through its length");
	is_near(w.runnable, 2, 1e-12, "two others: the reader and the load are the run's");
	is_near(demand_pct(w.runnable, w.ncpus), 100, 1e-12, "two runnable others on two CPUs: 100 %");
	is_near(w.in_flight, 3, 1e-12, "sda's 3 requests in flight");
	is_near(w.disk_busy_pct, 0, 0, "its busy time did not move: 0 %");
	const char *const absent[] = {"sdz"};
	p.devices = absent;
	is_int(demand_window_take(&p, &w, err, sizeof(err)), -1, "a disk of the run not listed fails");
	ok(strstr(err, "diskstats") != NULL, "its reason names diskstats");
	char *rm = xasprintf("rm -rf '%s'", root);
	ok(system(rm) == 0, "fixture removed");
	free(rm);
}

static void live_window(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		skip("a live window", "fork failed");
		return;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		volatile unsigned long x = 0;
		for (;;)
			x++;
	}
	struct demand_probe p = {.seconds = 0.2, .every_s = 0.005};
	struct demand_window w;
	char err[256] = "";
	int rc = demand_window_take(&p, &w, err, sizeof(err));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	is_int(rc, 0, "a live window over /proc");
	if (rc < 0) {
		printf("# %s\n", err);
		return;
	}
	if (isnan(w.runnable)) {
		skip("a CPU-bound child is a runnable other", "this kernel's /proc/stat has no procs_running");
		return;
	}
	/* the child is runnable (running or queued) at every reading; others only add */
	ok(w.runnable >= 0.8, "a CPU-bound child is a runnable other");
	printf("# runnable %.2f, others' CPU %.1f %%\n", w.runnable, w.busy_pct);
}

int main(void)
{
	tap_case(parse_running);
	tap_case(figures);
	tap_case(from_counters);
	tap_case(fixture_window);
	tap_case(live_window);
	return done_testing();
}
