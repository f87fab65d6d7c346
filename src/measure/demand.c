/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Others' demand in a window where the run has nothing running but its background load: /proc/stat's
 * procs_running (less the reader and the load) sampled through the window, the CPU others used over
 * it, and the requests in flight on the run's disks. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "measure/demand.h"
#include "measure/load.h"
#include "measure/measure.h"
#include "util/util.h"

/* /proc/diskstats holds a line per block device and partition. */
#define DISKSTATS_MAX (4u << 20)

double demand_pct(double runnable, unsigned ncpus)
{
	if (ncpus == 0 || !isfinite(runnable))
		return NAN;
	return 100 * (runnable < 0 ? 0 : runnable) / ncpus;
}

double demand_mean(double before, double after)
{
	if (isfinite(before) && isfinite(after))
		return (before + after) / 2;
	return isfinite(before) ? before : after;
}

void demand_from(const struct sys_counters *a, const struct sys_counters *b, double hz,
		 const struct demand_tally *t, struct demand_window *out)
{
	struct load_share sh;
	load_between(a, b, hz, &sh);
	double n = (double)t->readings;
	*out = (struct demand_window){.wall_s = t->wall_s, .readings = t->readings, .ncpus = sh.ncpus};
	out->runnable = n > 0 && isfinite(t->runnable_sum) ? t->runnable_sum / n : NAN;
	out->busy_pct = load_outside_cpu_pct(sh.busy_cpu_s, t->own_cpu_s, sh.ncpus, t->wall_s);
	out->steal_pct = sh.total_cpu_s > 0 ? sh.steal_pct : NAN;
	out->in_flight = t->have_disks && n > 0 ? t->in_flight_sum / n : NAN;
	out->disk_busy_pct = NAN;
	for (size_t d = 0; t->have_disks && d < b->ndevices && d < a->ndevices && t->wall_s > 0; d++) {
		double ms = b->dev_io_ticks_ms[d] >= a->dev_io_ticks_ms[d]
				    ? (double)(b->dev_io_ticks_ms[d] - a->dev_io_ticks_ms[d])
				    : 0;
		double pct = fmin(100, ms / (10 * t->wall_s));
		out->disk_busy_pct = isnan(out->disk_busy_pct) ? pct : fmax(out->disk_busy_pct, pct);
	}
}

/* One reading: /proc/stat, and the disks' counters when there are disks. */
static int read_counters(const struct demand_probe *p, struct sys_counters *c, char *err, size_t errlen)
{
	if (load_read_stat(p->proc_root, c, err, errlen) < 0)
		return -1;
	if (p->ndevices == 0)
		return 0;
	char *path = xasprintf("%s/diskstats", p->proc_root ? p->proc_root : "/proc");
	char *text = read_text_file(path, DISKSTATS_MAX);
	int rc = text && procstat_parse_diskstats(text, p->devices, p->ndevices, c) == 0 ? 0 : -1;
	if (rc < 0)
		snprintf(err, errlen, "%s: %s", path, text ? "a disk of the run is not listed" : strerror(errno));
	free(path);
	free(text);
	return rc;
}

/* The run's CPU so far that may run in a window: reaim's own threads (the reader among them) and
 * its load. */
static double own_cpu(const struct demand_own *o)
{
	struct rusage ru;
	double self = getrusage(RUSAGE_SELF, &ru) == 0 ? (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
								   (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6
						       : NAN;
	return self + (o->cpu_s ? o->cpu_s(o->arg) : 0);
}

int demand_window_take(const struct demand_probe *p, struct demand_window *out, char *err, size_t errlen)
{
	struct sys_counters first, now;
	double cpu0 = own_cpu(&p->own);
	uint64_t t0 = clock_now_ns();
	if (read_counters(p, &first, err, errlen) < 0)
		return -1;
	struct demand_tally t = {.have_disks = p->ndevices > 0};
	uint64_t span_ns = (uint64_t)(p->seconds * 1e9), step_ns = (uint64_t)(p->every_s * 1e9);
	if (step_ns == 0)
		step_ns = 5000000;
	for (;;) {
		struct timespec nap = {.tv_sec = (time_t)(step_ns / 1000000000u), .tv_nsec = (long)(step_ns % 1000000000u)};
		while (nanosleep(&nap, &nap) < 0 && errno == EINTR)
			;
		if (read_counters(p, &now, err, errlen) < 0)
			return -1;
		t.readings++;
		/* the reader is running as it reads; the run's load is the run's */
		int own = 1 + (p->own.runnable ? p->own.runnable(p->own.arg) : 0);
		t.runnable_sum = now.procs_running < 0 || !isfinite(t.runnable_sum)
					 ? NAN
					 : t.runnable_sum + fmax(0, (double)(now.procs_running - own));
		t.in_flight_sum += (double)now.in_flight;
		if (clock_now_ns() - t0 >= span_ns)
			break;
	}
	t.wall_s = (double)(clock_now_ns() - t0) / 1e9;
	t.own_cpu_s = own_cpu(&p->own) - cpu0;
	demand_from(&first, &now, (double)sysconf(_SC_CLK_TCK), &t, out);
	return 0;
}
