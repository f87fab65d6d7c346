/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the CPU throttling reader on fake cgroup trees: cpu.stat parsed in both versions (v1's
 * throttled_time in ns), every level from our cgroup up to the mount summed (a cap on a parent counts),
 * a hybrid layout's cgroup2 without the cpu controller left out, pure v2, and nothing at all. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/throttle.h"
#include "tap.h"
#include "testfs.h"
#include "util/util.h"

static void parse(void)
{
	double nr, us;
	ok(throttle_parse("usage_usec 5\nnr_periods 10\nnr_throttled 4\nthrottled_usec 1500\n", 0, &nr, &us) == 0 &&
		   nr == 4 && us == 1500,
	   "v2 cpu.stat: nr_throttled and throttled_usec");
	ok(throttle_parse("nr_periods 10\nnr_throttled 3\nthrottled_time 2500000\nnr_bursts 0\n", 1, &nr, &us) == 0 &&
		   nr == 3 && us == 2500,
	   "v1 cpu.stat: throttled_time in ns, as µs");
	ok(throttle_parse("usage_usec 5\nuser_usec 3\nsystem_usec 2\n", 0, &nr, &us) < 0,
	   "cgroup2 without the cpu controller counts no throttling");
}

/* The hybrid layout: cgroup2 without controllers, v1 cpu,cpuacct; our cgroup /box/run, a cap on /box. */
static void hybrid(const char *root)
{
	test_put(root, "proc/self/mountinfo",
		 "30 20 0:26 / /sys/fs/cgroup/unified rw,nosuid shared:9 - cgroup2 cgroup2 rw\n"
		 "31 20 0:27 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:10 - cgroup cgroup rw,cpu,cpuacct\n"
		 "32 20 0:28 / /sys/fs/cgroup/cpuset rw,nosuid shared:11 - cgroup cgroup rw,cpuset\n");
	test_put(root, "proc/self/cgroup", "3:cpuset:/\n2:cpu,cpuacct:/box/run\n0::/box/run\n");
	test_put(root, "sys/fs/cgroup/unified/box/run/cpu.stat", "usage_usec 10\nuser_usec 5\nsystem_usec 5\n");
	test_put(root, "sys/fs/cgroup/unified/cpu.stat", "usage_usec 10\nuser_usec 5\nsystem_usec 5\n");
	test_put(root, "sys/fs/cgroup/cpu,cpuacct/cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n");
	test_put(root, "sys/fs/cgroup/cpu,cpuacct/box/cpu.stat", "nr_periods 90\nnr_throttled 70\nthrottled_time 7000000\n");
	test_put(root, "sys/fs/cgroup/cpu,cpuacct/box/run/cpu.stat", "nr_periods 9\nnr_throttled 2\nthrottled_time 1000\n");
	test_put(root, "sys/fs/cgroup/cpuset/cpu.stat", "nr_throttled 1000\nthrottled_time 1000\n");
	struct throttle t;
	throttle_open(root, &t);
	ok(t.n == 3 && t.nv1 == 3 && t.nv2 == 0, "hybrid: our v1 cgroup, its parent and the root; cgroup2 has none");
	struct throttle_reading r;
	throttle_read(&t, &r);
	ok(r.have && r.nr_throttled == 72 && fabs(r.throttled_usec - 7001) < 1e-9,
	   "the levels summed: the parent's cap counts (72 periods, 7001 µs)");
	test_put(root, "sys/fs/cgroup/cpu,cpuacct/box/cpu.stat", "nr_periods 95\nnr_throttled 75\nthrottled_time 9000000\n");
	throttle_read(&t, &r);
	ok(r.nr_throttled == 77 && fabs(r.throttled_usec - 9001) < 1e-9, "read again: the new values");
	char *gone = xasprintf("%s/sys/fs/cgroup/cpu,cpuacct/box/run/cpu.stat", root);
	unlink(gone);
	free(gone);
	throttle_read(&t, &r);
	ok(r.have && r.nr_throttled == 75, "a level gone: the others still read");
	throttle_free(&t);
}

/* Pure v2 with the cpu controller: our cgroup and its parent, the root without nr_throttled. */
static void pure_v2(const char *root)
{
	test_put(root, "proc/self/mountinfo", "30 20 0:26 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw\n");
	test_put(root, "proc/self/cgroup", "0::/user.slice/job\n");
	test_put(root, "sys/fs/cgroup/cpu.stat", "usage_usec 10\nuser_usec 5\nsystem_usec 5\n");
	test_put(root, "sys/fs/cgroup/user.slice/cpu.stat",
		 "usage_usec 10\nnr_periods 40\nnr_throttled 30\nthrottled_usec 600000\n");
	test_put(root, "sys/fs/cgroup/user.slice/job/cpu.stat",
		 "usage_usec 10\nnr_periods 4\nnr_throttled 0\nthrottled_usec 0\n");
	struct throttle t;
	throttle_open(root, &t);
	ok(t.n == 2 && t.nv2 == 2 && t.nv1 == 0, "pure v2: our cgroup and its parent");
	struct throttle_reading r;
	throttle_read(&t, &r);
	ok(r.have && r.nr_throttled == 30 && r.throttled_usec == 600000, "the parent's throttling counted");
	throttle_free(&t);
}

static void nothing(const char *root)
{
	struct throttle t;
	throttle_open(root, &t);
	struct throttle_reading r;
	throttle_read(&t, &r);
	ok(t.n == 0 && !r.have, "no /proc/self, no cgroups: no files, nothing read, no error");
	throttle_free(&t);
}

int main(void)
{
	char tmpl[] = "/tmp/reaim-throttle-XXXXXX";
	char *root = mkdtemp(tmpl);
	if (!root)
		return 1;
	tap_case(parse);
	char *a = xasprintf("%s/none", root), *b = xasprintf("%s/hybrid", root), *c = xasprintf("%s/v2", root);
	ok(mkdir(a, 0700) == 0 && mkdir(b, 0700) == 0 && mkdir(c, 0700) == 0, "a fake tree each");
	tap_case(nothing, a);
	tap_case(hybrid, b);
	tap_case(pure_v2, c);
	free(a);
	free(b);
	free(c);
	char *cmd = xasprintf("rm -rf '%s'", root);
	ok(system(cmd) == 0, "fake trees removed");
	free(cmd);
	return done_testing();
}
