/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPUs a point confined to N CPUs runs on (--cpus): spread over cores before SMT siblings,
 * from the topology the kernel gives in sysfs. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/cputopo.h"
#include "util/util.h"

int cputopo_allowed(int *cpus, size_t max)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	size_t n = 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return (int)n;
}

int cputopo_parse_list(const char *text, unsigned char *bits, size_t max)
{
	memset(bits, 0, (max + 7) / 8);
	const char *p = text;
	while (*p && *p != '\n') {
		char *end;
		errno = 0;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (end == p || errno)
			return -1;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || errno || b < a)
				return -1;
		}
		if (b >= max)
			return -1;
		for (unsigned long c = a; c <= b; c++)
			bits[c / 8] |= (unsigned char)(1u << (c % 8));
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return 0;
}

/* One number from SYSROOT/devices/system/cpu/cpuN/topology/NAME; -1 when it cannot be read. */
static long topo_number(const char *sysroot, int cpu, const char *name)
{
	char *path = xasprintf("%s/devices/system/cpu/cpu%d/topology/%s", sysroot, cpu, name);
	char *text = read_text_file(path, 64);
	free(path);
	long v = -1;
	if (text) {
		char *end;
		long x = strtol(text, &end, 10);
		if (end != text)
			v = x;
	}
	free(text);
	return v;
}

struct ranked {
	int cpu, rank;
	long package, core;
};

static int by_rank(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;
	if (a->rank != b->rank)
		return (a->rank > b->rank) - (a->rank < b->rank);
	if (a->package != b->package)
		return (a->package > b->package) - (a->package < b->package);
	if (a->core != b->core)
		return (a->core > b->core) - (a->core < b->core);
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

void cputopo_order(const char *sysroot, const int *allowed, size_t n, int *out)
{
	struct ranked *r = xcalloc(n + 1, sizeof(*r));
	unsigned char bits[CPU_SETSIZE / 8];
	for (size_t i = 0; i < n; i++) {
		r[i].cpu = allowed[i];
		r[i].package = topo_number(sysroot, allowed[i], "physical_package_id");
		r[i].core = topo_number(sysroot, allowed[i], "core_id");
		char *path = xasprintf("%s/devices/system/cpu/cpu%d/topology/thread_siblings_list", sysroot, allowed[i]);
		char *text = read_text_file(path, 4096);
		free(path);
		/* its rank: how many allowed siblings come before it (a CPU alone on its core ranks 0) */
		if (text && cputopo_parse_list(text, bits, CPU_SETSIZE) == 0)
			for (size_t k = 0; k < n; k++)
				if (allowed[k] < allowed[i] && allowed[k] >= 0 && allowed[k] < CPU_SETSIZE &&
				    (bits[allowed[k] / 8] >> (allowed[k] % 8) & 1))
					r[i].rank++;
		free(text);
		if (r[i].core < 0) /* no topology: a core of its own */
			r[i].core = allowed[i];
	}
	qsort(r, n, sizeof(*r), by_rank);
	for (size_t i = 0; i < n; i++)
		out[i] = r[i].cpu;
	free(r);
}

int cputopo_choose(const char *sysroot, int count, int *out, char *err, size_t errlen)
{
	int *allowed = xcalloc(CPU_SETSIZE, sizeof(int));
	int n = cputopo_allowed(allowed, CPU_SETSIZE);
	if (n < 0) {
		set_err(err, errlen, "cannot read the CPUs reaim may use: %s", strerror(errno));
		free(allowed);
		return -1;
	}
	if (count > n) {
		set_err(err, errlen, "%d CPUs asked, but reaim may use only %d (its affinity: online CPUs, taskset or "
			"a cpuset)",
			count, n);
		free(allowed);
		return -1;
	}
	int *order = xcalloc((size_t)n + 1, sizeof(int));
	cputopo_order(sysroot, allowed, (size_t)n, order);
	memcpy(out, order, (size_t)count * sizeof(int));
	free(order);
	free(allowed);
	return 0;
}

int cputopo_set_all_threads(const cpu_set_t *set)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	int rc = 0, e = 0;
	struct dirent *t;
	while ((t = readdir(d)) != NULL) {
		char *end;
		long tid = strtol(t->d_name, &end, 10);
		/* a thread that ended meanwhile is no failure */
		if (end != t->d_name && *end == '\0' && tid > 0 && sched_setaffinity((pid_t)tid, sizeof(*set), set) < 0 &&
		    errno != ESRCH) {
			e = errno;
			rc = -1;
		}
	}
	closedir(d);
	errno = e;
	return rc;
}
