/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cache kept to the kernels used last: a bisection boots a new kernel at every step, and each
 * leaves a 60-70 MB vmlinux and an initramfs behind. A file a live reaim vm holds (a shared flock,
 * for its whole life) is never removed. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/vm.h"

/* The kinds of file the cache holds, each kept to its own count: vmlinux-RELEASE-KEY and
 * initramfs-RELEASE-KEY.cpio.gz, KEY 16 hex digits (vm_pvh_kernel's and vm_initramfs's names). */
static const struct cache_kind {
	const char *prefix, *suffix;
} cache_kinds[] = {{"vmlinux-", ""}, {"initramfs-", ".cpio.gz"}};

#define CACHE_KEY_LEN 16

/* A name the cache's writers give, and no other: a file of the user's is never one to prune. */
static int cache_name(const char *name, const struct cache_kind *k)
{
	size_t n = strlen(name), pre = strlen(k->prefix), suf = strlen(k->suffix);
	if (n < pre + 1 + CACHE_KEY_LEN + 1 + suf || strncmp(name, k->prefix, pre) != 0 ||
	    strcmp(name + n - suf, k->suffix) != 0)
		return 0;
	const char *key = name + n - suf - CACHE_KEY_LEN;
	if (key[-1] != '-')
		return 0;
	for (size_t i = 0; i < CACHE_KEY_LEN; i++)
		if (!strchr("0123456789abcdef", key[i]))
			return 0;
	return 1;
}

struct cached {
	char *path;
	struct timespec used;
};

static int newest_first(const void *a, const void *b)
{
	const struct timespec *x = &((const struct cached *)a)->used, *y = &((const struct cached *)b)->used;
	if (x->tv_sec != y->tv_sec)
		return x->tv_sec < y->tv_sec ? 1 : -1;
	return x->tv_nsec < y->tv_nsec ? 1 : x->tv_nsec > y->tv_nsec ? -1 : 0;
}

static int in_use(const char *path, char *const *use, size_t nuse)
{
	for (size_t i = 0; i < nuse; i++)
		if (use[i] && strcmp(use[i], path) == 0)
			return 1;
	return 0;
}

/* The cache's finished files of one kind that are ours (a name being written ends otherwise). */
static size_t list_kind(const char *cache_dir, const struct cache_kind *kind, struct cached **out)
{
	DIR *d = opendir(cache_dir);
	size_t n = 0;
	*out = NULL;
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!cache_name(e->d_name, kind))
			continue;
		char *path = xasprintf("%s/%s", cache_dir, e->d_name);
		struct stat sb;
		if (lstat(path, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid()) {
			free(path);
			continue;
		}
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n++] = (struct cached){.path = path, .used = sb.st_mtim};
	}
	closedir(d);
	return n;
}

int vm_cache_hold(const char *path)
{
	struct stat a, b;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* shared: every live reaim vm holds it at once; a pruner's exclusive try fails while any does */
	if ((flock(fd, LOCK_SH) < 0 && errno != ENOLCK && errno != EOPNOTSUPP) || fstat(fd, &a) < 0 ||
	    stat(path, &b) < 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		close(fd); /* pruned (or replaced) before the lock was ours */
		return -1;
	}
	return fd;
}

/* Remove a cache file no live reaim vm holds: 1 removed, 0 held, -1 with errno. */
static int remove_unheld(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = flock(fd, LOCK_EX | LOCK_NB) < 0 ? (errno == EWOULDBLOCK ? 0 : -1) : unlink(path) == 0 ? 1 : -1;
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

size_t vm_prune_cache(const char *cache_dir, char *const *use, size_t nuse, size_t keep)
{
	size_t len = strlen(cache_dir);
	for (size_t i = 0; i < nuse; i++)
		if (use[i] && strncmp(use[i], cache_dir, len) == 0 && use[i][len] == '/' &&
		    utimensat(AT_FDCWD, use[i], NULL, 0) < 0)
			log_warn("cannot mark %s as used: %s", use[i], strerror(errno));
	size_t removed = 0;
	for (size_t k = 0; k < ARRAY_SIZE(cache_kinds); k++) {
		struct cached *c;
		size_t n = list_kind(cache_dir, &cache_kinds[k], &c);
		if (n)
			qsort(c, n, sizeof(*c), newest_first);
		for (size_t i = 0; i < n; i++) {
			int rc = i >= keep && !in_use(c[i].path, use, nuse) ? remove_unheld(c[i].path) : 0;
			if (rc == 1) {
				log_info("removed %s from the cache, which keeps the %zu kernels used last", c[i].path, keep);
				removed++;
			} else if (rc < 0 && errno != ENOENT) {
				log_warn("cannot remove %s from the cache: %s", c[i].path, strerror(errno));
			}
			free(c[i].path);
		}
		free(c);
	}
	return removed;
}
