/* SPDX-License-Identifier: GPL-2.0-or-later */
/* This process's cgroup, found from /proc/self/mountinfo and /proc/self/cgroup: the directory
 * of a controller's files in cgroup v2, or in the v1 hierarchy that holds the controller (the
 * hybrid layout mounts cgroup2 without controllers beside the v1 ones). */
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

/* The mount of a cgroup hierarchy: v2 (controller NULL) or the v1 one holding the controller.
 * Sets the mount point and the root of the hierarchy it shows (fields 5 and 4 of mountinfo). */
static int find_mount(const char *controller, char *mnt, size_t mlen, char *root, size_t rlen)
{
	char *text = read_text_file("/proc/self/mountinfo", 1 << 22);
	int found = 0;
	for (char *line = text, *next; line && *line && !found; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char r[4096], m[4096], fstype[64], super[1024];
		const char *sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2 ||
		    sscanf(sep + 3, "%63s %*s %1023s", fstype, super) != 2)
			continue;
		if (controller ? strcmp(fstype, "cgroup") == 0 && list_has(super, strlen(super), controller)
			       : strcmp(fstype, "cgroup2") == 0) {
			snprintf(mnt, mlen, "%s", m);
			snprintf(root, rlen, "%s", r);
			found = 1;
		}
	}
	free(text);
	return found ? 0 : -1;
}

/* This process's path in a hierarchy: the "0::" line for v2, else the line listing the controller. */
static int own_path(const char *controller, char *out, size_t len)
{
	char *text = read_text_file("/proc/self/cgroup", 1 << 16);
	int found = 0;
	for (char *line = text, *next; line && *line && !found; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		int match = controller ? list_has(c1 + 1, (size_t)(c2 - c1 - 1), controller)
				       : strncmp(line, "0::", 3) == 0;
		if (match) {
			snprintf(out, len, "%s", c2 + 1);
			found = 1;
		}
	}
	free(text);
	return found ? 0 : -1;
}

/* The directory for a hierarchy, or -1. */
static int dir_for(const char *controller, char *dir, size_t len, char *mnt, size_t mlen)
{
	char root[4096], path[4096];
	if (find_mount(controller, mnt, mlen, root, sizeof(root)) < 0 || own_path(controller, path, sizeof(path)) < 0)
		return -1;
	/* the mount shows the hierarchy from `root` down; our path is absolute in the hierarchy */
	const char *rel = path;
	size_t rl = strlen(root);
	if (strcmp(root, "/") != 0 && strncmp(path, root, rl) == 0 && (path[rl] == '/' || !path[rl]))
		rel = path + rl;
	snprintf(dir, len, "%s%s", mnt, strcmp(rel, "/") == 0 ? "" : rel);
	return 0;
}

int cgroup_find(const char *controller, struct cgroup_dir *out)
{
	memset(out, 0, sizeof(*out));
	char file[4200];
	/* v2 first, if it holds the controller (pure v2, or hybrid with it enabled there) */
	if (dir_for(NULL, out->dir, sizeof(out->dir), out->mount, sizeof(out->mount)) == 0) {
		snprintf(file, sizeof(file), "%s/cgroup.controllers", out->dir);
		char *ctl = read_text_file(file, 4096);
		for (char *c = ctl; c && *c; c++)
			*c = *c == ' ' || *c == '\n' ? ',' : *c; /* space-separated there */
		int has = ctl && list_has(ctl, strlen(ctl), controller);
		free(ctl);
		if (has) {
			out->v2 = 1;
			return 0;
		}
	}
	if (dir_for(controller, out->dir, sizeof(out->dir), out->mount, sizeof(out->mount)) == 0) {
		out->v2 = 0;
		return 0;
	}
	errno = ENOENT;
	return -1;
}

/* A cgroup file holding a number or "max"; -1 for "max", -2 if unreadable. */
static long long read_limit(const char *dir, const char *name)
{
	char file[4200];
	snprintf(file, sizeof(file), "%s/%s", dir, name);
	char *text = read_text_file(file, 256);
	if (!text)
		return -2;
	long long v = strncmp(text, "max", 3) == 0 ? -1 : strtoll(text, NULL, 10);
	free(text);
	return v;
}

int cgroup_headroom(const struct cgroup_dir *cg, const char *limit_file, const char *usage_file,
		    long long unlimited_from, struct cgroup_limit *out)
{
	memset(out, 0, sizeof(*out));
	out->headroom = -1;
	char dir[sizeof(cg->dir)];
	snprintf(dir, sizeof(dir), "%s", cg->dir);
	/* a limit anywhere above us counts too: walk up to the mount */
	for (;;) {
		long long max = read_limit(dir, limit_file), used = read_limit(dir, usage_file);
		if (max >= 0 && max < unlimited_from && used >= 0) {
			long long left = max > used ? max - used : 0;
			if (out->headroom < 0 || left < out->headroom) {
				out->headroom = left;
				out->max = max;
				out->used = used;
				snprintf(out->file, sizeof(out->file), "%s/%s", dir, limit_file);
			}
		}
		char *slash = strrchr(dir, '/');
		if (strlen(dir) <= strlen(cg->mount) || !slash)
			break;
		*slash = '\0';
	}
	return out->headroom >= 0 ? 1 : 0;
}
