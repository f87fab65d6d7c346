/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the environment facts on fake /proc and /sys trees: the kernel config (gzip and /boot),
 * its hash and option-by-option difference, the preemption model, SMT and boost, the vm knobs, the
 * cgroup limits (cgroup2 and v1, inherited from a parent) and a disk's queue settings. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "analysis/kconfig.h"
#include "measure/env_facts.h"
#include "report/report.h"
#include "tap.h"
#include "testfs.h"
#include "util/env.h"
#include "util/util.h"

/* The value of a fact, or NULL. */
static const char *fact(const struct env_list *env, const char *key)
{
	for (size_t i = 0; i < env->count; i++)
		if (strcmp(env->items[i].key, key) == 0)
			return env->items[i].value;
	return NULL;
}

static void put_gzip(const char *root, const char *rel, const char *text)
{
	test_put(root, rel, ""); /* its directories */
	char *path = xasprintf("%s/%s", root, rel);
	gzFile z = gzopen(path, "wb");
	ok(z && gzputs(z, text) == (int)strlen(text) && gzclose(z) == Z_OK, "config.gz written");
	free(path);
}

static const char config_a[] = "#\n# Automatically generated file; DO NOT EDIT.\n#\nCONFIG_HZ=250\n"
			       "CONFIG_PREEMPT_VOLUNTARY=y\n# CONFIG_PREEMPT is not set\nCONFIG_KASAN=y\n"
			       "CONFIG_LOCALVERSION=\"-a\"\n";
static const char config_b[] = "CONFIG_HZ=1000\nCONFIG_PREEMPT=y\nCONFIG_PREEMPT_DYNAMIC=y\n"
			       "# CONFIG_PREEMPT_VOLUNTARY is not set\n# CONFIG_KASAN is not set\n"
			       "CONFIG_LOCALVERSION=\"-a\"\nCONFIG_NEW=m";

static void kernel_config(const char *root)
{
	ok(env_facts_kernel_config(root, "6.1.0") == NULL, "config: none where neither file is");
	test_put(root, "boot/config-6.1.0", config_a);
	char *t = env_facts_kernel_config(root, "6.1.0");
	ok(t && strcmp(t, config_a) == 0, "config: /boot/config-RELEASE");
	free(t);
	put_gzip(root, "proc/config.gz", config_b);
	t = env_facts_kernel_config(root, "6.1.0");
	ok(t && strcmp(t, config_b) == 0, "config: /proc/config.gz first, decompressed");
	free(t);
	test_put(root, "proc/config.gz", "not gzip at all");
	t = env_facts_kernel_config(root, "6.1.0");
	/* zlib reads a file without a gzip header as it is: still the text, not a failure */
	ok(t && strcmp(t, "not gzip at all") == 0, "config: an uncompressed config.gz is read as it is");
	free(t);

	char *ha = env_facts_config_hash(config_a), *hb = env_facts_config_hash(config_b),
	     *ha2 = env_facts_config_hash(config_a);
	ok(strncmp(ha, "fnv1a64:", 8) == 0 && strlen(ha) == 8 + 16, "config hash: fnv1a64 and 16 hex digits");
	ok(strcmp(ha, ha2) == 0 && strcmp(ha, hb) != 0, "config hash: the same text alike, another not");
	free(ha);
	free(hb);
	free(ha2);

	struct kconfig_change *c;
	size_t n = kconfig_diff(config_a, config_b, &c);
	is_int(n, 6, "config diff: six options set otherwise");
	const char *want[][3] = {{"CONFIG_HZ", "250", "1000"},          {"CONFIG_KASAN", "y", "n"},
				 {"CONFIG_NEW", "n", "m"},              {"CONFIG_PREEMPT", "n", "y"},
				 {"CONFIG_PREEMPT_DYNAMIC", "n", "y"}, {"CONFIG_PREEMPT_VOLUNTARY", "y", "n"}};
	int all = n == 6;
	for (size_t i = 0; all && i < n; i++)
		all = strcmp(c[i].name, want[i][0]) == 0 && strcmp(c[i].a, want[i][1]) == 0 && strcmp(c[i].b, want[i][2]) == 0;
	ok(all, "config diff: by name, each side's value, not set and absent both 'n'");
	kconfig_changes_free(c, n);
	ok(kconfig_diff(config_a, config_a, &c) == 0, "config diff: none against itself");
	kconfig_changes_free(c, 0);
	n = kconfig_diff(config_a, config_b, &c);
	char *line = report_kconfig_line(c, n, 2);
	kconfig_changes_free(c, n);
	is_str(line, "CONFIG_HZ '1000' against '250', CONFIG_KASAN 'n' against 'y' and 4 more",
	       "config diff line: the other's value against the base's, then how many more");
	free(line);
}

static void preempt(const char *root)
{
	char *p = env_facts_preempt(root, config_a);
	is_str(p, "voluntary", "preempt: from the config");
	free(p);
	p = env_facts_preempt(root, config_b);
	is_str(p, "full (dynamic)", "preempt: a dynamic build's default");
	free(p);
	test_put(root, "proc/cmdline", "root=/dev/vda nopreempt=x preempt=none quiet\n");
	p = env_facts_preempt(root, config_b);
	is_str(p, "none (dynamic, preempt= on the command line)", "preempt: a dynamic build's boot choice");
	free(p);
	test_put(root, "sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
	p = env_facts_preempt(root, config_a);
	is_str(p, "full (dynamic)", "preempt: the running model from debugfs first");
	free(p);
	p = env_facts_preempt(root, NULL);
	is_str(p, "full (dynamic)", "preempt: debugfs alone is enough");
	free(p);
	char *cmd = xasprintf("rm -r '%s/sys/kernel/debug'", root);
	ok(system(cmd) == 0, "debugfs removed");
	free(cmd);
	ok(env_facts_preempt(root, NULL) == NULL, "preempt: unknown without config or debugfs");
}

static void cpu_and_vm(const char *root)
{
	struct env_list env = {0};
	env_facts_cpu(&env, root);
	ok(env.count == 0, "cpu: no facts where the files are missing");
	test_put(root, "sys/devices/system/cpu/smt/control", "on\n");
	test_put(root, "sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	env_facts_cpu(&env, root);
	is_str(fact(&env, "cpu.smt_control"), "on", "cpu: SMT control");
	is_str(fact(&env, "cpu.boost"), "off", "cpu: intel_pstate no_turbo 1 is boost off");
	env_free(&env);
	test_put(root, "sys/devices/system/cpu/cpufreq/boost", "1\n");
	env_facts_cpu(&env, root);
	is_str(fact(&env, "cpu.boost"), "on", "cpu: cpufreq boost first");
	env_free(&env);

	test_put(root, "proc/sys/vm/dirty_ratio", "20\n");
	test_put(root, "proc/sys/vm/dirty_background_ratio", "10\n");
	test_put(root, "proc/sys/vm/dirty_bytes", "0\n");
	test_put(root, "proc/sys/vm/dirty_expire_centisecs", "3000\n");
	test_put(root, "proc/sys/vm/swappiness", "60\n");
	test_put(root, "proc/sys/vm/overcommit_memory", "2\n");
	env_facts_vm(&env, root);
	ok(env.count == 6 && strcmp(fact(&env, "vm.dirty_ratio"), "20") == 0 &&
	   strcmp(fact(&env, "vm.dirty_expire_centisecs"), "3000") == 0 &&
	   strcmp(fact(&env, "vm.overcommit_memory"), "2") == 0 && !fact(&env, "vm.dirty_background_bytes"),
	   "vm: each knob there is, none made up");
	env_free(&env);
}

static void cgroups(const char *root)
{
	struct env_list env = {0};
	env_facts_cgroup(&env, root);
	ok(env.count == 0, "cgroup: nothing without /proc/self");
	/* a hybrid machine: cgroup2 at /sys/fs/cgroup/unified, v1 cpu and memory */
	test_put(root, "proc/self/mountinfo",
		 "30 20 0:26 / /sys/fs/cgroup/unified rw,nosuid shared:9 - cgroup2 cgroup2 rw\n"
		 "31 20 0:27 / /sys/fs/cgroup/cpu rw,nosuid shared:10 - cgroup cgroup rw,cpu\n"
		 "32 20 0:28 / /sys/fs/cgroup/memory rw,nosuid shared:11 - cgroup cgroup rw,memory\n");
	test_put(root, "proc/self/cgroup", "4:memory:/box/run\n2:cpu:/box/run\n0::/box/run\n");
	/* cgroup2: a cap set on the parent, the weight on our own cgroup */
	test_put(root, "sys/fs/cgroup/unified/box/cpu.max", "10000 100000\n");
	test_put(root, "sys/fs/cgroup/unified/box/run/cpu.max", "max 100000\n");
	test_put(root, "sys/fs/cgroup/unified/box/run/cpu.weight", "50\n");
	test_put(root, "sys/fs/cgroup/unified/box/run/memory.max", "max\n");
	test_put(root, "sys/fs/cgroup/unified/box/run/io.max", "");
	test_put(root, "sys/fs/cgroup/unified/box/io.max", "8:0 rbps=1048576 wbps=max\n8:16 riops=100\n");
	test_put(root, "sys/fs/cgroup/unified/box/run/cpuset.cpus.effective", "0-3\n");
	test_put(root, "sys/fs/cgroup/unified/cpuset.cpus.effective", "0-7\n");
	/* v1: a quota on our own cgroup, shares at the default; memory unlimited */
	test_put(root, "sys/fs/cgroup/cpu/box/run/cpu.cfs_quota_us", "20000\n");
	test_put(root, "sys/fs/cgroup/cpu/box/run/cpu.cfs_period_us", "100000\n");
	test_put(root, "sys/fs/cgroup/cpu/box/run/cpu.shares", "1024\n");
	test_put(root, "sys/fs/cgroup/cpu/cpu.shares", "1024\n");
	test_put(root, "sys/fs/cgroup/memory/box/run/memory.limit_in_bytes", "9223372036854771712\n");
	env_facts_cgroup(&env, root);
	is_str(fact(&env, "cgroup.cpu.max"), "10000 100000", "cgroup2: a parent's cpu.max applies");
	is_str(fact(&env, "cgroup.cpu.weight"), "50", "cgroup2: our own cpu.weight");
	is_str(fact(&env, "cgroup.memory.max"), "max", "cgroup2: no memory limit anywhere");
	ok(!fact(&env, "cgroup.memory.high") && !fact(&env, "cgroup.pids.max"), "cgroup2: no fact for a file not there");
	is_str(fact(&env, "cgroup.io.max"), "8:0 rbps=1048576 wbps=max; 8:16 riops=100",
	       "cgroup2: a parent's io.max, its lines joined");
	is_str(fact(&env, "cgroup.cpuset.cpus.effective"), "0-3", "cgroup2: the effective cpuset of our own cgroup");
	is_str(fact(&env, "cgroup.v1.cpu.cfs_quota_us"), "20000", "v1: our cfs quota");
	is_str(fact(&env, "cgroup.v1.cpu.cfs_period_us"), "100000", "v1: its period");
	is_str(fact(&env, "cgroup.v1.cpu.shares"), "1024", "v1: default shares");
	is_str(fact(&env, "cgroup.v1.memory.limit_in_bytes"), "max", "v1: the kernel's no-limit value is max");
	env_free(&env);
	/* the quota lifted: the fact says so, so two runs differ in it */
	test_put(root, "sys/fs/cgroup/cpu/box/run/cpu.cfs_quota_us", "-1\n");
	test_put(root, "sys/fs/cgroup/unified/box/cpu.max", "max 100000\n");
	env_facts_cgroup(&env, root);
	is_str(fact(&env, "cgroup.v1.cpu.cfs_quota_us"), "-1", "v1: no quota anywhere");
	is_str(fact(&env, "cgroup.cpu.max"), "max 100000", "cgroup2: no cap anywhere");
	env_free(&env);
}

static void queue(const char *root)
{
	struct env_list env = {0};
	char *q = xasprintf("%s/sys/block/vda/queue", root);
	test_put(root, "sys/block/vda/queue/scheduler", "none [mq-deadline] kyber\n");
	test_put(root, "sys/block/vda/queue/rotational", "0\n");
	test_put(root, "sys/block/vda/queue/nr_requests", "256\n");
	test_put(root, "sys/block/vda/queue/read_ahead_kb", "128\n");
	test_put(root, "sys/block/vda/queue/wbt_lat_usec", "75000\n");
	test_put(root, "sys/block/vda/queue/max_sectors_kb", "1280\n");
	test_put(root, "sys/block/vda/queue/write_cache", "write back\n");
	env_facts_queue(&env, "dir0", q);
	ok(env.count == 7 && strcmp(fact(&env, "dir0.scheduler"), "none [mq-deadline] kyber") == 0 &&
	   strcmp(fact(&env, "dir0.nr_requests"), "256") == 0 && strcmp(fact(&env, "dir0.read_ahead_kb"), "128") == 0 &&
	   strcmp(fact(&env, "dir0.wbt_lat_usec"), "75000") == 0 &&
	   strcmp(fact(&env, "dir0.max_sectors_kb"), "1280") == 0 &&
	   strcmp(fact(&env, "dir0.write_cache"), "write back") == 0 && strcmp(fact(&env, "dir0.rotational"), "0") == 0,
	   "queue: every setting, named by its dir");
	env_free(&env);
	free(q);
	ok(env_facts_queue_dir(root, root) == NULL, "queue: none for a dir on a device the tree does not have");
}

int main(void)
{
	char tmpl[] = "/tmp/reaim-envfacts-XXXXXX";
	char *root = mkdtemp(tmpl);
	if (!root)
		return 1;
	tap_case(kernel_config, root);
	tap_case(preempt, root);
	tap_case(cpu_and_vm, root);
	tap_case(cgroups, root);
	tap_case(queue, root);
	char *cmd = xasprintf("rm -rf '%s'", root);
	ok(system(cmd) == 0, "fake tree removed");
	free(cmd);
	return done_testing();
}
