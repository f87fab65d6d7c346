/* SPDX-License-Identifier: GPL-2.0-or-later */
/* This process's cgroup, found from /proc/self/mountinfo and /proc/self/cgroup (the one parser of
 * both, for the limits checked up front and the run's own cgroups): the directory of a controller's
 * files in cgroup v2, or in the v1 hierarchy that holds the controller (the hybrid layout mounts
 * cgroup2 without controllers beside the v1 ones). Paths live on the heap, never on the stack. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Whether a comma-separated list holds a word. */
static int list_has(const char *list, size_t len, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = list, *end = list + len; p < end;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);
		if (n == wl && strncmp(p, word, wl) == 0)
			return 1;
		p += n + 1;
	}
	return 0;
}

int cgroup_mount_parse(const char *mountinfo, const char *v1_controller, struct cgroup_mount *out)
{
	*out = (struct cgroup_mount){0};
	struct mountinfo_entry e;
	int rc;
	for (const char *p = mountinfo; (rc = mountinfo_next(&p, &e)) >= 0; mountinfo_entry_free(&e)) {
		if (rc == 0)
			continue;
		if (v1_controller ? strcmp(e.fstype, "cgroup") == 0 && list_has(e.options, strlen(e.options), v1_controller)
				  : strcmp(e.fstype, "cgroup2") == 0) {
			out->point = e.point;
			out->root = e.root;
			e.point = e.root = NULL;
			mountinfo_entry_free(&e);
			return 0;
		}
	}
	return -1;
}

void cgroup_mount_free(struct cgroup_mount *m)
{
	free(m->point);
	free(m->root);
	*m = (struct cgroup_mount){0};
}

char *cgroup_self_parse(const char *self, const char *v1_controller)
{
	for (const char *line = self; line && *line;) {
		/* HIERARCHY-ID:CONTROLLERS:PATH; cgroup2 is "0::PATH" */
		const char *eol = strchr(line, '\n'), *end = eol ? eol : line + strlen(line);
		const char *c1 = memchr(line, ':', (size_t)(end - line));
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
		if (c2) {
			size_t clen = (size_t)(c2 - c1 - 1);
			int match = v1_controller ? list_has(c1 + 1, clen, v1_controller)
						  : clen == 0 && c1 - line == 1 && line[0] == '0';
			if (match)
				return c2 + 1 < end && c2[1] == '/' ? xasprintf("%.*s", (int)(end - c2 - 1), c2 + 1) : NULL;
		}
		line = eol ? eol + 1 : NULL;
	}
	return NULL;
}

char *cgroup_dir_of(const char *mountinfo, const char *self, const char *v1_controller, char **mount)
{
	struct cgroup_mount m;
	if (mount)
		*mount = NULL;
	if (cgroup_mount_parse(mountinfo, v1_controller, &m) < 0)
		return NULL;
	char *path = cgroup_self_parse(self, v1_controller), *dir = NULL;
	/* the mount shows the hierarchy from its root down; our path is absolute in the hierarchy */
	size_t rl = strlen(m.root);
	const char *rel = path;
	if (path && strcmp(m.root, "/") != 0)
		rel = strncmp(path, m.root, rl) == 0 && (path[rl] == '/' || !path[rl]) ? path + rl : NULL;
	if (rel)
		dir = xasprintf("%s%s", m.point, strcmp(rel, "/") == 0 ? "" : rel);
	if (dir && mount) {
		*mount = m.point;
		m.point = NULL;
	}
	free(path);
	cgroup_mount_free(&m);
	return dir;
}

/* The directory for a hierarchy from this process's files, or NULL. */
static char *dir_for(const char *controller, char **mount)
{
	char *mi = read_text_file("/proc/self/mountinfo", CGROUP_PROC_FILE_MAX);
	char *self = read_text_file("/proc/self/cgroup", CGROUP_PROC_FILE_MAX);
	char *dir = mi && self ? cgroup_dir_of(mi, self, controller, mount) : NULL;
	free(mi);
	free(self);
	return dir;
}

void cgroup_dir_free(struct cgroup_dir *cg)
{
	free(cg->mount);
	free(cg->dir);
	*cg = (struct cgroup_dir){0};
}

int cgroup_find(const char *controller, struct cgroup_dir *out)
{
	*out = (struct cgroup_dir){0};
	/* v2 first, if it holds the controller (pure v2, or hybrid with it enabled there) */
	if ((out->dir = dir_for(NULL, &out->mount))) {
		char *file = xasprintf("%s/cgroup.controllers", out->dir);
		char *ctl = read_text_file(file, 4096);
		free(file);
		for (char *c = ctl; c && *c; c++)
			*c = *c == ' ' || *c == '\n' ? ',' : *c; /* space-separated there */
		int has = ctl && list_has(ctl, strlen(ctl), controller);
		free(ctl);
		if (has) {
			out->v2 = 1;
			return 0;
		}
		cgroup_dir_free(out);
	}
	if ((out->dir = dir_for(controller, &out->mount)))
		return 0;
	errno = ENOENT;
	return -1;
}

/* A cgroup file holding a number or "max"; -1 for "max", -2 if unreadable. */
static long long read_limit(const char *dir, const char *name)
{
	char *file = xasprintf("%s/%s", dir, name);
	char *text = read_text_file(file, 256);
	free(file);
	if (!text)
		return -2;
	long long v = strncmp(text, "max", 3) == 0 ? -1 : strtoll(text, NULL, 10);
	free(text);
	return v;
}

int cgroup_headroom(const struct cgroup_dir *cg, const char *limit_file, const char *usage_file,
		    long long unlimited_from, struct cgroup_limit *out)
{
	*out = (struct cgroup_limit){.headroom = -1};
	char *dir = xstrdup(cg->dir);
	size_t mount_len = strlen(cg->mount);
	/* a limit anywhere above us counts too: walk up to the mount */
	for (;;) {
		long long max = read_limit(dir, limit_file), used = read_limit(dir, usage_file);
		if (max >= 0 && max < unlimited_from && used >= 0) {
			long long left = max > used ? max - used : 0;
			if (out->headroom < 0 || left < out->headroom) {
				out->headroom = left;
				out->max = max;
				out->used = used;
				free(out->file);
				out->file = xasprintf("%s/%s", dir, limit_file);
			}
		}
		char *slash = strrchr(dir, '/');
		if (strlen(dir) <= mount_len || !slash)
			break;
		*slash = '\0';
	}
	free(dir);
	return out->headroom >= 0 ? 1 : 0;
}
