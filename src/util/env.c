/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reads the environment fingerprint from uname, /proc and /sys. Missing facts are
 * recorded as absent rather than failing the run. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/env.h"
#include "util/util.h"

void env_add(struct env_list *env, const char *key, const char *value)
{
	if (!value)
		return;
	env->items = xrealloc(env->items, (env->count + 1) * sizeof(*env->items));
	env->items[env->count].key = xstrdup(key);
	char *v = xstrdup(value);
	size_t n = strlen(v);
	while (n && isspace((unsigned char)v[n - 1]))
		v[--n] = '\0';
	env->items[env->count++].value = v;
}

static void add_file(struct env_list *env, const char *key, const char *path)
{
	char *text = read_text_file(path, 1 << 16);
	env_add(env, key, text);
	free(text);
}

/* The value after "field<spaces>:" in a /proc text file such as cpuinfo. */
static char *proc_field(const char *path, const char *field)
{
	char *text = read_text_file(path, 1 << 22);
	if (!text)
		return NULL;
	char *out = NULL;
	for (char *line = text; line && !out; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		size_t fl = strlen(field);
		if (strncmp(line, field, fl) == 0 && (line[fl] == ' ' || line[fl] == '\t' || line[fl] == ':')) {
			char *colon = strchr(line, ':');
			char *end = strchr(line, '\n');
			if (colon && (!end || colon < end)) {
				colon++;
				while (*colon == ' ' || *colon == '\t')
					colon++;
				out = end ? xasprintf("%.*s", (int)(end - colon), colon) : xstrdup(colon);
			}
		}
	}
	free(text);
	return out;
}

/* The mount holding dir: the longest mount point that prefixes its real path. */
static void add_mount(struct env_list *env, const char *prefix, const char *dir)
{
	char *real = realpath(dir, NULL);
	char *mounts = read_text_file("/proc/self/mounts", 1 << 22);
	if (!real || !mounts) {
		free(real);
		free(mounts);
		return;
	}
	char best_dev[256] = "", best_fs[64] = "", best_opts[512] = "";
	size_t best_len = 0;
	char *save = NULL;
	for (char *line = strtok_r(mounts, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dev[256], mnt[1024], fs[64], opts[512];
		if (sscanf(line, "%255s %1023s %63s %511s", dev, mnt, fs, opts) != 4)
			continue;
		size_t ml = strlen(mnt);
		int under = strncmp(real, mnt, ml) == 0 && (real[ml] == '/' || real[ml] == '\0' || ml == 1);
		if (under && ml >= best_len) {
			best_len = ml;
			snprintf(best_dev, sizeof(best_dev), "%s", dev);
			snprintf(best_fs, sizeof(best_fs), "%s", fs);
			snprintf(best_opts, sizeof(best_opts), "%s", opts);
		}
	}
	char key[128];
	snprintf(key, sizeof(key), "%s.path", prefix);
	env_add(env, key, real);
	snprintf(key, sizeof(key), "%s.fstype", prefix);
	env_add(env, key, best_fs);
	snprintf(key, sizeof(key), "%s.mount_options", prefix);
	env_add(env, key, best_opts);
	snprintf(key, sizeof(key), "%s.device", prefix);
	env_add(env, key, best_dev);
	free(real);
	free(mounts);
}

/* A small sysfs file's first word, or NULL. */
static char *sys_word(const char *path)
{
	char *t = read_text_file(path, 64);
	if (t)
		t[strcspn(t, " \t\n")] = '\0';
	return t;
}

/* A small sysfs file's first word as a number, or -1. */
static long sys_long(const char *path)
{
	char *w = sys_word(path), *end = NULL;
	long v = w ? strtol(w, &end, 10) : -1;
	if (w && (end == w || *end))
		v = -1;
	free(w);
	return v;
}

/* Sysfs counts taken as far as this: a real machine runs one or two monitors. */
#define DAMON_MAX 64

/* One monitor's context: " (OPERATIONS: ACTION, ...)". */
static void damon_context(struct strbuf *out, const char *ctx)
{
	char *path = xasprintf("%s/operations", ctx);
	char *ops = sys_word(path);
	free(path);
	strbuf_addf(out, " (%s", ops ? ops : "?");
	free(ops);
	path = xasprintf("%s/schemes/nr_schemes", ctx);
	long nschemes = sys_long(path);
	free(path);
	for (long k = 0; k < nschemes && k < DAMON_MAX; k++) {
		path = xasprintf("%s/schemes/%ld/action", ctx, k);
		char *action = sys_word(path);
		free(path);
		strbuf_addf(out, "%s%s", k ? ", " : ": ", action ? action : "?");
		free(action);
	}
	strbuf_addf(out, ")");
}

char *env_damon(const char *sys)
{
	static const char *const modules[] = {"damon_reclaim", "damon_lru_sort", "damon_stat"};
	char *kd = xasprintf("%s/kernel/mm/damon/admin/kdamonds", sys);
	char *path = xasprintf("%s/nr_kdamonds", kd);
	long n = sys_long(path);
	free(path);
	int present = n >= 0;
	struct strbuf out = {0};
	for (long i = 0; i < n && i < DAMON_MAX; i++) {
		path = xasprintf("%s/%ld/state", kd, i);
		char *state = sys_word(path);
		free(path);
		if (state && strcmp(state, "on") == 0) {
			strbuf_addf(&out, "%skdamond %ld on", out.len ? "; " : "", i);
			path = xasprintf("%s/%ld/contexts/nr_contexts", kd, i);
			long nctx = sys_long(path);
			free(path);
			for (long c = 0; c < nctx && c < DAMON_MAX; c++) {
				char *ctx = xasprintf("%s/%ld/contexts/%ld", kd, i, c);
				damon_context(&out, ctx);
				free(ctx);
			}
		}
		free(state);
	}
	for (size_t m = 0; m < sizeof(modules) / sizeof(modules[0]); m++) {
		path = xasprintf("%s/module/%s/parameters/enabled", sys, modules[m]);
		char *enabled = read_text_file(path, 16);
		free(path);
		present |= enabled != NULL;
		if (enabled && enabled[0] == 'Y')
			strbuf_addf(&out, "%s%s on", out.len ? "; " : "", modules[m]);
		free(enabled);
	}
	free(kd);
	if (!out.len && present)
		strbuf_addf(&out, "off");
	return out.buf;
}

void env_collect(struct env_list *env, char *const *dirs, size_t ndirs)
{
	struct utsname u;
	char buf[256];
	memset(env, 0, sizeof(*env));
	if (gethostname(buf, sizeof(buf)) == 0)
		env_add(env, "hostname", buf);
	if (uname(&u) == 0) {
		env_add(env, "kernel.release", u.release);
		env_add(env, "kernel.version", u.version);
		env_add(env, "machine", u.machine);
	}
	add_file(env, "kernel.cmdline", "/proc/cmdline");
	char *model = proc_field("/proc/cpuinfo", "model name");
	env_add(env, "cpu.model", model);
	free(model);
	snprintf(buf, sizeof(buf), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	env_add(env, "cpu.online", buf);
	add_file(env, "cpu.smt", "/sys/devices/system/cpu/smt/active");
	add_file(env, "cpu.governor", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	char *mem = proc_field("/proc/meminfo", "MemTotal");
	env_add(env, "memory.total", mem);
	free(mem);
	char *swap = proc_field("/proc/meminfo", "SwapTotal");
	env_add(env, "swap.total", swap);
	free(swap);
	add_file(env, "thp.enabled", "/sys/kernel/mm/transparent_hugepage/enabled");
	char *damon = env_damon("/sys");
	env_add(env, "mm.damon", damon);
	free(damon);
	for (size_t i = 0; i < ndirs; i++) {
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "dir%zu", i);
		add_mount(env, prefix, dirs[i]);
	}
}

void env_free(struct env_list *env)
{
	for (size_t i = 0; i < env->count; i++) {
		free(env->items[i].key);
		free(env->items[i].value);
	}
	free(env->items);
	memset(env, 0, sizeof(*env));
}
