/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which CPUs a point confined to N CPUs runs on: one per core before a second SMT sibling of any,
 * from the topology in sysfs. */
#ifndef REAIM_MEASURE_CPUTOPO_H
#define REAIM_MEASURE_CPUTOPO_H

#include <sched.h>
#include <stddef.h>

/* The CPUs this process may use (its affinity), ascending, into cpus[max]; how many, or -1 with errno. */
int cputopo_allowed(int *cpus, size_t max);

/* Order allowed[0..n) so that a prefix of any length is spread over cores before SMT siblings:
 * each CPU ranked by its place among its allowed siblings (thread_siblings_list under
 * SYSROOT/devices/system/cpu/cpuN/topology, sysroot "/sys"), then by package and core, then by
 * number. A CPU whose topology cannot be read counts as a core of its own. out gets n CPUs. */
void cputopo_order(const char *sysroot, const int *allowed, size_t n, int *out);

/* The first `count` CPUs of that order; 0, or -1 with the reason when fewer are allowed. */
int cputopo_choose(const char *sysroot, int count, int *out, char *err, size_t errlen);

/* A CPU list ("0-3,8,10-11") parsed into a bitmap of max bits: 0, or -1 for text that is not one. */
int cputopo_parse_list(const char *text, unsigned char *bits, size_t max);

/* Set the affinity of every thread of this process (entering and leaving a cpuset resets them);
 * 0, or -1 with errno. */
int cputopo_set_all_threads(const cpu_set_t *set);

#endif
