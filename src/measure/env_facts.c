/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reads the environment facts that tell two kernels with one `uname -r` apart and the settings that
 * shape a point (limits, writeback, queues), each under a root so tests can use a fake tree. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "measure/cgroup.h"
#include "measure/env_facts.h"
#include "util/env.h"
#include "util/util.h"

/* A kernel config is a few hundred KiB; anything past this is not one. */
#define CONFIG_MAX (8u << 20)
/* A control or sysctl file holds a line or a few (io.max: one per device). */
#define SMALL_MAX 4096

/* ROOT/REL's text, NULL when unreadable. */
static char *read_under(const char *root, const char *rel)
{
	char *path = xasprintf("%s%s", root, rel);
	char *text = read_text_file(path, SMALL_MAX);
	free(path);
	return text;
}

/* A small file's text with its lines joined by "; " and its trailing white space cut. */
static char *one_line(char *text)
{
	if (!text)
		return NULL;
	size_t n = strlen(text);
	while (n && (text[n - 1] == '\n' || text[n - 1] == ' ' || text[n - 1] == '\t'))
		text[--n] = '\0';
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (char *line = text, *nl; line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		strbuf_addf(&sb, "%s%.*s", line == text ? "" : "; ", (int)(nl ? (size_t)(nl - line) : strlen(line)), line);
	}
	free(text);
	return sb.buf;
}

/* The whole of a gzip file, NULL when it cannot be read or is too large. */
static char *read_gzip(const char *path)
{
	gzFile z = gzopen(path, "rb");
	if (!z)
		return NULL;
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	char chunk[16384];
	int n, bad = 0;
	while ((n = gzread(z, chunk, sizeof(chunk))) > 0 && !bad) {
		if (sb.len + (size_t)n > CONFIG_MAX)
			bad = 1;
		else
			strbuf_add(&sb, chunk, (size_t)n);
	}
	bad |= n < 0;
	bad |= gzclose(z) != Z_OK;
	if (bad || sb.len == 0) {
		strbuf_free(&sb);
		return NULL;
	}
	return sb.buf;
}

char *env_facts_kernel_config(const char *root, const char *release)
{
	char *path = xasprintf("%s/proc/config.gz", root);
	char *text = read_gzip(path);
	free(path);
	if (text || !release)
		return text;
	path = xasprintf("%s/boot/config-%s", root, release);
	text = read_text_file(path, CONFIG_MAX);
	free(path);
	if (text && !*text) {
		free(text);
		return NULL;
	}
	return text;
}

char *env_facts_config_hash(const char *config)
{
	/* FNV-1a: a fingerprint to tell two configs apart, not a defence against forgery */
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)config; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return xasprintf("fnv1a64:%016llx", (unsigned long long)h);
}

/* Whether the config sets NAME=y. */
static int config_yes(const char *config, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = config; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, name, n) == 0 && strncmp(p + n, "=y", 2) == 0 && (p[n + 2] == '\n' || !p[n + 2]))
			return 1;
	return 0;
}

char *env_facts_preempt(const char *root, const char *config)
{
	/* debugfs lists the models with the running one in parentheses: "none voluntary (full) lazy" */
	char *list = read_under(root, "/sys/kernel/debug/sched/preempt");
	char *open = list ? strchr(list, '(') : NULL, *close = open ? strchr(open, ')') : NULL;
	if (close) {
		char *model = xasprintf("%.*s (dynamic)", (int)(close - open - 1), open + 1);
		free(list);
		return model;
	}
	free(list);
	if (!config)
		return NULL;
	/* most specific first: an RT or lazy build also sets CONFIG_PREEMPT-like neighbours */
	static const struct {
		const char *option, *model;
	} models[] = {
		{.option = "CONFIG_PREEMPT_RT", .model = "rt"},
		{.option = "CONFIG_PREEMPT_LAZY", .model = "lazy"},
		{.option = "CONFIG_PREEMPT", .model = "full"},
		{.option = "CONFIG_PREEMPT_VOLUNTARY", .model = "voluntary"},
		{.option = "CONFIG_PREEMPT_NONE", .model = "none"},
	};
	int dynamic = config_yes(config, "CONFIG_PREEMPT_DYNAMIC");
	if (dynamic) { /* the build's default unless the command line chose: preempt=full */
		char *cmdline = read_under(root, "/proc/cmdline");
		char *p = cmdline;
		while (p && (p = strstr(p, "preempt=")) && p != cmdline && p[-1] != ' ')
			p++;
		char *model = p ? xasprintf("%.*s (dynamic, preempt= on the command line)", (int)strcspn(p + 8, " \n"), p + 8)
				: NULL;
		free(cmdline);
		if (model)
			return model;
	}
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		if (config_yes(config, models[i].option))
			return xasprintf("%s%s", models[i].model, dynamic ? " (dynamic)" : "");
	return NULL;
}

void env_facts_cpu(struct env_list *env, const char *root)
{
	char *smt = one_line(read_under(root, "/sys/devices/system/cpu/smt/control"));
	env_add(env, "cpu.smt_control", smt);
	free(smt);
	char *boost = one_line(read_under(root, "/sys/devices/system/cpu/cpufreq/boost"));
	const char *value = boost ? (strcmp(boost, "0") == 0 ? "off" : "on") : NULL;
	if (!boost) {
		boost = one_line(read_under(root, "/sys/devices/system/cpu/intel_pstate/no_turbo"));
		value = boost ? (strcmp(boost, "0") == 0 ? "on" : "off") : NULL;
	}
	env_add(env, "cpu.boost", value);
	free(boost);
}

void env_facts_vm(struct env_list *env, const char *root)
{
	static const char *const knobs[] = {"dirty_ratio", "dirty_background_ratio", "dirty_bytes",
					     "dirty_background_bytes", "dirty_expire_centisecs", "swappiness",
					     "overcommit_memory"};
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++) {
		char *rel = xasprintf("/proc/sys/vm/%s", knobs[i]), *key = xasprintf("vm.%s", knobs[i]);
		char *v = one_line(read_under(root, rel));
		env_add(env, key, v);
		free(v);
		free(key);
		free(rel);
	}
}

/* The limits looked for: the hierarchy (NULL: cgroup2, else the v1 controller), the file, and the
 * value that means no limit, which a parent's limit overrides as the walk goes up (NULL: the
 * file is read in our own cgroup only, as it already says what applies). */
struct start_limit {
	const char *controller;
	const char *file;
	const char *unset;
};
static const struct start_limit limits[] = {
	{.controller = NULL, .file = "cpu.max", .unset = "max 100000"},
	{.controller = NULL, .file = "cpu.weight", .unset = "100"},
	{.controller = NULL, .file = "cpuset.cpus.effective", .unset = NULL},
	{.controller = NULL, .file = "memory.max", .unset = "max"},
	{.controller = NULL, .file = "memory.high", .unset = "max"},
	{.controller = NULL, .file = "io.max", .unset = ""},
	{.controller = NULL, .file = "pids.max", .unset = "max"},
	{.controller = "cpu", .file = "cpu.cfs_quota_us", .unset = "-1"},
	{.controller = "cpu", .file = "cpu.cfs_period_us", .unset = "100000"},
	{.controller = "cpu", .file = "cpu.shares", .unset = "1024"},
	{.controller = "cpuset", .file = "cpuset.effective_cpus", .unset = NULL},
	{.controller = "memory", .file = "memory.limit_in_bytes", .unset = "max"},
	{.controller = "blkio", .file = "blkio.throttle.read_bps_device", .unset = ""},
	{.controller = "blkio", .file = "blkio.throttle.write_bps_device", .unset = ""},
	{.controller = "blkio", .file = "blkio.throttle.read_iops_device", .unset = ""},
	{.controller = "blkio", .file = "blkio.throttle.write_iops_device", .unset = ""},
	{.controller = "pids", .file = "pids.max", .unset = "max"},
};

/* A v1 memory limit of 2^63 rounded down to a page is the kernel's "no limit". */
static char *limit_value(const struct start_limit *l, char *text)
{
	char *v = one_line(text);
	if (v && l->controller && strcmp(l->controller, "memory") == 0 && strtoull(v, NULL, 10) >= (1ull << 62)) {
		free(v);
		v = xstrdup("max");
	}
	return v;
}

/* One limit: from DIR (our cgroup) up to TOP (the hierarchy's root), the first value that is set. */
static char *limit_walk(const struct start_limit *l, const char *dir, const char *top)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s", dir);
	char *seen = NULL;
	for (;;) {
		char *file = xasprintf("%s/%s", path, l->file);
		char *v = limit_value(l, read_text_file(file, SMALL_MAX));
		free(file);
		if (v && (!l->unset || strcmp(v, l->unset) != 0)) {
			free(seen);
			return v;
		}
		if (v && !seen)
			seen = v; /* the file exists: without a limit above, the fact is "unset" */
		else
			free(v);
		char *slash = strrchr(path, '/');
		if (!l->unset || strlen(path) <= strlen(top) || !slash)
			return seen;
		*slash = '\0';
	}
}

void env_facts_cgroup(struct env_list *env, const char *root)
{
	char *mi = read_under(root, "/proc/self/mountinfo"), *self = read_under(root, "/proc/self/cgroup");
	if (!mi || !self) {
		free(mi);
		free(self);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(limits); i++) {
		const struct start_limit *l = &limits[i];
		char *mnt = NULL, *dir = cgroup_dir_of(mi, self, l->controller, &mnt);
		if (!dir) {
			free(mnt);
			continue;
		}
		char *full = xasprintf("%s%s", root, dir), *top = xasprintf("%s%s", root, mnt);
		char *v = limit_walk(l, full, top);
		char *key = xasprintf("cgroup.%s%s", l->controller ? "v1." : "", l->file);
		env_add(env, key, v ? (*v ? v : "none") : NULL);
		free(key);
		free(v);
		free(full);
		free(top);
		free(dir);
		free(mnt);
	}
	free(mi);
	free(self);
}

void env_facts_queue(struct env_list *env, const char *prefix, const char *queue_dir)
{
	static const char *const settings[] = {"scheduler",  "rotational",     "nr_requests", "read_ahead_kb",
						"wbt_lat_usec", "max_sectors_kb", "write_cache"};
	for (size_t i = 0; i < ARRAY_SIZE(settings); i++) {
		char *path = xasprintf("%s/%s", queue_dir, settings[i]), *key = xasprintf("%s.%s", prefix, settings[i]);
		char *v = one_line(read_text_file(path, SMALL_MAX));
		env_add(env, key, v);
		free(v);
		free(key);
		free(path);
	}
}

char *env_facts_queue_dir(const char *root, const char *dir)
{
	struct stat st;
	if (stat(dir, &st) < 0)
		return NULL;
	/* a partition's queue lives in its parent disk's directory */
	static const char *const candidates[] = {"queue", "../queue"};
	for (size_t i = 0; i < ARRAY_SIZE(candidates); i++) {
		char *q = xasprintf("%s/sys/dev/block/%u:%u/%s", root, major(st.st_dev), minor(st.st_dev), candidates[i]);
		char *sched = xasprintf("%s/scheduler", q);
		int here = access(sched, R_OK) == 0;
		free(sched);
		if (here)
			return q;
		free(q);
	}
	return NULL;
}

void env_facts_collect(struct env_list *env, char *const *dirs, size_t ndirs, char **config)
{
	struct utsname u;
	*config = env_facts_kernel_config("", uname(&u) == 0 ? u.release : NULL);
	if (*config) {
		char *hash = env_facts_config_hash(*config);
		env_add(env, "kernel.config", hash);
		free(hash);
	}
	char *preempt = env_facts_preempt("", *config);
	env_add(env, "sched.preempt", preempt);
	free(preempt);
	env_facts_cpu(env, "");
	env_facts_vm(env, "");
	env_facts_cgroup(env, "");
	for (size_t i = 0; i < ndirs; i++) {
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "dir%zu", i);
		char *q = env_facts_queue_dir("", dirs[i]);
		if (q)
			env_facts_queue(env, prefix, q);
		free(q);
	}
}
