/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The environment fingerprint stored with every run, so runs weeks apart can be compared. */
#ifndef REAIM_UTIL_ENV_H
#define REAIM_UTIL_ENV_H

#include <stddef.h>

struct env_item {
	char *key, *value;
};
struct env_list {
	struct env_item *items;
	size_t count;
};

/* Machine-wide facts plus, for each disk dir, its filesystem, mount options and device
 * (measure/env_facts.c adds the kernel's identity, limits and each disk's queue). */
void env_collect(struct env_list *env, char *const *dirs, size_t ndirs);
/* Append KEY=VALUE, trailing white space cut; a NULL value adds nothing. */
void env_add(struct env_list *env, const char *key, const char *value);
void env_free(struct env_list *env);
/* The DAMON monitors running under SYS (/sys): "kdamond 0 on (paddr: pageout); damon_reclaim on",
 * "off", or NULL where the kernel has no DAMON. A kdamond checks pages through the reverse map,
 * whose cost grows with the processes mapping a page: with thousands of tasks it can take a
 * CPU's worth of time from a run (docs/PERFORMANCE.md). */
char *env_damon(const char *sys);

#endif
