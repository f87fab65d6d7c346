/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --cpus: the CPUs chosen from a fake sysfs topology (cores before SMT siblings), CPU list parsing,
 * and the scaling figure over stored points. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/scaling.h"
#include "measure/cputopo.h"
#include "tap.h"
#include "testfs.h"
#include "util/util.h"

/* One CPU's topology files under root. */
static void put_cpu(const char *root, int cpu, int package, int core, const char *siblings)
{
	char rel[128], v[32];
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	snprintf(v, sizeof(v), "%d\n", package);
	test_put(root, rel, v);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_id", cpu);
	snprintf(v, sizeof(v), "%d\n", core);
	test_put(root, rel, v);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	snprintf(v, sizeof(v), "%s\n", siblings);
	test_put(root, rel, v);
}

static int same(const int *a, const int *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i]) {
			printf("#   at %zu: got %d, want %d\n", i, a[i], b[i]);
			return 0;
		}
	return 1;
}

static struct store_point point(int cpus, int tasks, double jpm, int valid)
{
	struct store_point p;
	memset(&p, 0, sizeof(p));
	p.cpus = cpus;
	p.tasks = tasks;
	p.jobs_per_min = jpm;
	p.valid = valid;
	p.osync = 1;
	return p;
}

/* The order CPUs are taken in, from fake sysfs topologies under root: cores before SMT siblings. */
static void order(const char *root)
{
	char *intel = xasprintf("%s/intel", root), *amd = xasprintf("%s/amd", root);
	char *two = xasprintf("%s/two", root);
	ok(mkdir(intel, 0700) == 0 && mkdir(amd, 0700) == 0 && mkdir(two, 0700) == 0, "the fake sysfs roots");
	/* 4 cores x 2 threads: siblings numbered apart (0,4) and side by side (0,1) */
	for (int c = 0; c < 8; c++) {
		char sib[16];
		snprintf(sib, sizeof(sib), "%d,%d", c % 4, c % 4 + 4);
		put_cpu(intel, c, 0, c % 4, sib);
		snprintf(sib, sizeof(sib), "%d-%d", c / 2 * 2, c / 2 * 2 + 1);
		put_cpu(amd, c, 0, c / 2, sib);
	}
	const int all[] = {0, 1, 2, 3, 4, 5, 6, 7};
	int out[8];
	cputopo_order(intel, all, 8, out);
	ok(same(out, (const int[]){0, 1, 2, 3, 4, 5, 6, 7}, 8), "siblings numbered apart: the four cores first");
	cputopo_order(amd, all, 8, out);
	ok(same(out, (const int[]){0, 2, 4, 6, 1, 3, 5, 7}, 8), "siblings side by side: one per core, then the second threads");
	const int some[] = {1, 2, 3, 5, 7};
	cputopo_order(amd, some, 5, out);
	ok(same(out, (const int[]){1, 2, 5, 7, 3}, 5),
	   "a sibling whose twin is not allowed is its core's first; a core's second thread comes last");
	/* two packages of two cores with one thread each */
	put_cpu(two, 0, 0, 0, "0");
	put_cpu(two, 1, 1, 0, "1");
	put_cpu(two, 2, 0, 1, "2");
	put_cpu(two, 3, 1, 1, "3");
	cputopo_order(two, (const int[]){0, 1, 2, 3}, 4, out);
	ok(same(out, (const int[]){0, 2, 1, 3}, 4), "no SMT: by package, then core");
	char *none = xasprintf("%s/none", root);
	cputopo_order(none, (const int[]){3, 1, 2}, 3, out);
	ok(same(out, (const int[]){1, 2, 3}, 3), "no topology: each CPU a core of its own, by number");
	free(intel);
	free(amd);
	free(two);
	free(none);

}

/* CPU lists parsed, and the CPUs this process may use chosen. */
static void lists(void)
{
	unsigned char bits[4];
	ok(cputopo_parse_list("0-3,8,10-11\n", bits, 32) == 0 && bits[0] == 0x0f && bits[1] == 0x0d,
	   "a CPU list with ranges");
	ok(cputopo_parse_list("3-1", bits, 32) < 0, "a backwards range is refused");
	ok(cputopo_parse_list("0,x", bits, 32) < 0, "a word is refused");
	ok(cputopo_parse_list("40", bits, 32) < 0, "a CPU beyond the bitmap is refused");

	int allowed[1024];
	int n = cputopo_allowed(allowed, 1024);
	ok(n >= 1, "this process may use at least one CPU");
	char why[200];
	int chosen[1024];
	ok(cputopo_choose("/sys", n, chosen, why, sizeof(why)) == 0, "as many CPUs as allowed can be chosen");
	ok(cputopo_choose("/sys", n + 1, chosen, why, sizeof(why)) < 0 && strstr(why, "may use only"),
	   "one more than allowed is refused, saying how many are");
}

/* Jobs/Min at each CPU count over one CPU. */
static void scaling(void)
{
	/* scaling: Jobs/Min at 2 CPUs over 1, per task count, means of the valid rounds */
	struct store_point pts[] = {point(1, 2, 100, 1), point(1, 2, 110, 1), point(1, 4, 100, 1),
				    point(2, 2, 210, 1), point(2, 2, 0, 0),   point(2, 4, 150, 1)};
	struct scaling sc;
	ok(scaling_of(pts, ARRAY_SIZE(pts), &sc) == 0 && sc.ncpus == 2 && sc.cpus[0] == 1 && sc.cpus[1] == 2,
	   "two CPU counts, ascending");
	ok(sc.nrows == 2 && sc.rows[0].tasks == 2, "a row per task count");
	is_near(sc.rows[0].jpm[0], 105, 1e-9, "the mean of the rounds at 1 CPU");
	is_near(sc.rows[0].ratio[1], 2, 1e-9, "2 CPUs over 1 (an invalid point left out)");
	is_near(sc.rows[1].ratio[1], 1.5, 1e-9, "at 4 tasks");
	is_int(sc.rows[0].n[1], 1, "valid points counted");
	scaling_free(&sc);
	struct store_point one[] = {point(0, 2, 100, 1), point(0, 4, 100, 1)};
	ok(scaling_of(one, 2, &sc) == 1 && sc.nrows == 0, "one CPU count: nothing to say");
}

int main(void)
{
	char tmpl[] = "/tmp/reaim-cputopo-XXXXXX";
	char *root = mkdtemp(tmpl);
	ok(root != NULL, "a temp dir for the fake sysfs");
	if (!root)
		return done_testing();
	tap_case(order, root);
	tap_case(lists);
	tap_case(scaling);
	char *cmd = xasprintf("rm -rf '%s'", root);
	ok(system(cmd) == 0, "the fake sysfs removed");
	free(cmd);
	return done_testing();
}
