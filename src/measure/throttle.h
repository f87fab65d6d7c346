/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CFS bandwidth throttling that can slow a run down: cpu.stat's nr_throttled and throttled time of
 * the cgroup reaim starts in and of every parent up to its hierarchy's root, in cgroup v2 and in the v1
 * hierarchy with the cpu controller (a cap on any of them throttles the run). */
#ifndef REAIM_MEASURE_THROTTLE_H
#define REAIM_MEASURE_THROTTLE_H

#include <stddef.h>

/* The counter rows a point stores them as (source, names, units). */
#define THROTTLE_SOURCE "cgroup"
#define THROTTLE_COUNT "nr_throttled"
#define THROTTLE_COUNT_UNIT "periods"
#define THROTTLE_USEC "throttled_usec"
#define THROTTLE_USEC_UNIT "us"

/* The cpu.stat files that count throttling on the way from our cgroup up. */
struct throttle {
	char **files;
	int *ns;                  /* v1: throttled_time in ns; v2: throttled_usec */
	size_t n, nv1, nv2;       /* files, and of them in each version */
};

/* Find the files under root ("" for the machine, a fake tree in tests: its proc/self/mountinfo,
 * proc/self/cgroup and the cgroup directories they name): every level from this process's cgroup to
 * the mount whose cpu.stat has nr_throttled (cgroup2 without the cpu controller, as on a hybrid layout,
 * has none). Never fails: t->n 0 when there is none (no cgroups, no cpu controller). */
void throttle_open(const char *root, struct throttle *t);
void throttle_free(struct throttle *t);

struct throttle_reading {
	double nr_throttled;      /* summed over the levels */
	double throttled_usec;
	int have;                 /* some file was read */
};
/* The sums now; have 0 when no file could be read. */
void throttle_read(const struct throttle *t, struct throttle_reading *r);
/* One cpu.stat text: its nr_throttled and throttled time in µs (v1's throttled_time in ns when ns);
 * 0, or -1 when it has no nr_throttled. */
int throttle_parse(const char *text, int ns, double *nr, double *usec);

#endif
