/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cpu.stat's throttling of reaim's cgroup and its parents (cgroup v2 and the v1 cpu hierarchy), found
 * once from /proc/self/mountinfo and /proc/self/cgroup and read at each moment of a point. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/throttle.h"
#include "util/util.h"

/* cpu.stat is a dozen short lines */
#define CPU_STAT_MAX 4096

int throttle_parse(const char *text, int ns, double *nr, double *usec)
{
	int have_nr = 0;
	*nr = *usec = 0;
	const char *time_key = ns ? "throttled_time" : "throttled_usec";
	for (const char *line = text; line && *line;) {
		char key[32];
		double v;
		if (sscanf(line, "%31s %lf", key, &v) == 2) {
			if (strcmp(key, "nr_throttled") == 0) {
				*nr = v;
				have_nr = 1;
			} else if (strcmp(key, time_key) == 0) {
				*usec = ns ? v / 1000 : v;
			}
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	return have_nr ? 0 : -1;
}

/* Every level from dir up to the mount (top) whose cpu.stat counts throttling. */
static void add_levels(struct throttle *t, const char *root, const char *dir, const char *top, int ns)
{
	char *path = xasprintf("%s%s", root, dir);
	size_t stop = strlen(root) + strlen(top);
	for (;;) {
		char *file = xasprintf("%s/cpu.stat", path), *text = read_text_file(file, CPU_STAT_MAX);
		double nr, us;
		if (text && throttle_parse(text, ns, &nr, &us) == 0) {
			t->files = xrealloc(t->files, (t->n + 1) * sizeof(*t->files));
			t->ns = xrealloc(t->ns, (t->n + 1) * sizeof(*t->ns));
			t->files[t->n] = file;
			t->ns[t->n++] = ns;
			*(ns ? &t->nv1 : &t->nv2) += 1;
		} else {
			free(file);
		}
		free(text);
		char *slash = strrchr(path, '/');
		if (strlen(path) <= stop || !slash)
			break;
		*slash = '\0';
	}
	free(path);
}

void throttle_open(const char *root, struct throttle *t)
{
	*t = (struct throttle){0};
	char *p = xasprintf("%s/proc/self/mountinfo", root);
	char *mi = read_text_file(p, CGROUP_PROC_FILE_MAX);
	free(p);
	p = xasprintf("%s/proc/self/cgroup", root);
	char *self = read_text_file(p, CGROUP_PROC_FILE_MAX);
	free(p);
	/* cgroup2, then the v1 hierarchy of the cpu controller (only one of them has it) */
	static const char *const controllers[] = {NULL, "cpu"};
	for (size_t i = 0; mi && self && i < ARRAY_SIZE(controllers); i++) {
		char *mnt = NULL, *dir = cgroup_dir_of(mi, self, controllers[i], &mnt);
		if (dir)
			add_levels(t, root, dir, mnt, controllers[i] != NULL);
		free(dir);
		free(mnt);
	}
	free(mi);
	free(self);
}

void throttle_free(struct throttle *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->files[i]);
	free(t->files);
	free(t->ns);
	*t = (struct throttle){0};
}

void throttle_read(const struct throttle *t, struct throttle_reading *r)
{
	*r = (struct throttle_reading){0};
	for (size_t i = 0; i < t->n; i++) {
		char *text = read_text_file(t->files[i], CPU_STAT_MAX);
		double nr, us;
		if (text && throttle_parse(text, t->ns[i], &nr, &us) == 0) {
			r->nr_throttled += nr;
			r->throttled_usec += us;
			r->have = 1;
		}
		free(text);
	}
}
