/* SPDX-License-Identifier: GPL-2.0-or-later */
/* File-system helpers: whole-file reads, finding shipped data, removing our own trees. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

char *read_text_file(const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct strbuf sb = {0};
	char chunk[4096];
	ssize_t n;
	strbuf_add(&sb, "", 0);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			strbuf_free(&sb);
			errno = e;
			return NULL;
		}
		if (sb.len + (size_t)n > max) {
			close(fd);
			strbuf_free(&sb);
			errno = EFBIG;
			return NULL;
		}
		strbuf_add(&sb, chunk, (size_t)n);
	}
	close(fd);
	return sb.buf;
}

/* What kind of non-regular file a mode is, for the refusal message. */
static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a fifo" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int open_input(const char *path, char *err, size_t errlen)
{
	/* O_NONBLOCK: opening a fifo must not wait for a writer; it is refused below */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), fl;
	struct stat st;
	if (fd < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0)
		snprintf(err, errlen, "fstat: %s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(err, errlen, "%s, not a regular file", file_kind(st.st_mode));
	else if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		snprintf(err, errlen, "fcntl: %s", strerror(errno));
	else
		return fd;
	close(fd);
	return -1;
}

char *read_input_file(const char *path, size_t max, char *err, size_t errlen, int *err_line)
{
	*err_line = 0;
	int fd = open_input(path, err, errlen);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "fstat: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	if ((unsigned long long)st.st_size > max) {
		snprintf(err, errlen, "%lld bytes, more than the %zu allowed", (long long)st.st_size, max);
		close(fd);
		return NULL;
	}
	struct strbuf sb = {0};
	char chunk[4096];
	ssize_t n;
	strbuf_add(&sb, "", 0);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || sb.len + (size_t)n > max) {
			if (n < 0)
				snprintf(err, errlen, "read: %s", strerror(errno));
			else
				snprintf(err, errlen, "grew past the %zu bytes allowed while being read", max);
			close(fd);
			strbuf_free(&sb);
			return NULL;
		}
		strbuf_add(&sb, chunk, (size_t)n);
	}
	close(fd);
	/* a NUL would silently end the text every parser sees: refuse it, with its line */
	const char *nul = memchr(sb.buf, '\0', sb.len);
	if (nul) {
		*err_line = 1;
		for (const char *c = sb.buf; c < nul; c++)
			*err_line += *c == '\n';
		snprintf(err, errlen, "contains a NUL byte (a binary file?)");
		strbuf_free(&sb);
		return NULL;
	}
	return sb.buf;
}

const char *exe_dir(void)
{
	static char dir[PATH_MAX];
	if (!dir[0]) {
		ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
		if (n <= 0)
			return NULL;
		dir[n] = '\0';
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
	}
	return dir;
}

static int running_uninstalled(void)
{
	const char *d = exe_dir();
	return d && strcmp(d, ABS_TOP_BUILDDIR) == 0;
}

static char *try_path(const char *base, const char *subdir, const char *name)
{
	if (!base)
		return NULL;
	char *p = subdir ? xasprintf("%s/%s/%s", base, subdir, name) : xasprintf("%s/%s", base, name);
	if (access(p, F_OK) == 0)
		return p;
	free(p);
	return NULL;
}

/* Beside a build that was copied or moved (its tree holds suites/ beside the binary), and an install
 * moved whole (PREFIX/bin/reaim, PREFIX/share/reaim): the configure-time paths no longer hold. */
static char *moved_data_dir(int installed)
{
	const char *d = exe_dir();
	if (!d)
		return NULL;
	return installed ? xasprintf("%s/../share/%s", d, PACKAGE) : xstrdup(d);
}

char *find_data_file(const char *subdir, const char *name)
{
	char *p;
	if ((p = try_path(getenv("REAIM_DATADIR"), subdir, name)))
		return p;
	if (running_uninstalled()) {
		if ((p = try_path(ABS_TOP_BUILDDIR, subdir, name)) || (p = try_path(ABS_TOP_SRCDIR, subdir, name)))
			return p;
	}
	for (int installed = 0; installed < 2 && !p; installed++) {
		char *base = moved_data_dir(installed);
		p = try_path(base, subdir, name);
		free(base);
	}
	return p ? p : try_path(PKGDATADIR, subdir, name);
}

static void add_names(const char *dir, const char *suffix, char ***names, size_t *n)
{
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	size_t sl = suffix ? strlen(suffix) : 0;
	while (d && (e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len <= sl || (suffix && strcmp(e->d_name + len - sl, suffix) != 0))
			continue;
		*names = xrealloc(*names, (*n + 2) * sizeof(char *));
		(*names)[(*n)++] = xasprintf("%.*s", (int)(len - sl), e->d_name);
	}
	if (d)
		closedir(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **data_names(const char *subdir, const char *suffix, int local)
{
	char *moved = moved_data_dir(0), *moved_installed = moved_data_dir(1);
	const char *bases[] = {local ? "." : NULL, getenv("REAIM_DATADIR"),
			       running_uninstalled() ? ABS_TOP_BUILDDIR : NULL,
			       running_uninstalled() ? ABS_TOP_SRCDIR : NULL, PKGDATADIR, moved, moved_installed};
	char **names = xcalloc(1, sizeof(char *));
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(bases); i++) {
		if (!bases[i])
			continue;
		char *dir = xasprintf("%s/%s", bases[i], subdir);
		add_names(dir, suffix, &names, &n);
		free(dir);
	}
	free(moved);
	free(moved_installed);
	qsort(names, n, sizeof(char *), by_name);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && strcmp(names[k - 1], names[i]) == 0)
			free(names[i]);
		else
			names[k++] = names[i];
	}
	names[k] = NULL;
	return names;
}

void free_names(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

void data_suggest(const char *subdir, const char *suffix, int local, const char *word, char *out, size_t len)
{
	char **names = data_names(subdir, suffix, local);
	size_t n = 0;
	while (names[n])
		n++;
	long k = closest_name(word, (const char *const *)names, n);
	snprintf(out, len, k >= 0 ? "; did you mean %s?" : "", k >= 0 ? names[k] : "");
	free_names(names);
}

char *find_helper(const char *name)
{
	char *p;
	if ((p = try_path(getenv("REAIM_LIBEXECDIR"), NULL, name)) || (p = try_path(exe_dir(), NULL, name)))
		return p;
	return try_path(PKGLIBEXECDIR, NULL, name);
}

static int remove_at(int parent, const char *name)
{
	if (unlinkat(parent, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (remove_at(dirfd(d), e->d_name) < 0)
			rc = -1;
	}
	closedir(d);
	if (rc == 0 && unlinkat(parent, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

int pid_is_reaim(long pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	char *comm = read_text_file(path, 64);
	int alive = comm && strncmp(comm, "reaim", 5) == 0;
	free(comm);
	return alive;
}

int remove_tree(const char *path)
{
	return remove_at(AT_FDCWD, path);
}

/* The directory part of path and its last name, split at the last slash. */
static void split_path(const char *path, char **dir, const char **base)
{
	const char *slash = strrchr(path, '/');
	*dir = slash ? xasprintf("%.*s", slash == path ? 1 : (int)(slash - path), path) : xstrdup(".");
	*base = slash ? slash + 1 : path;
}

/* realpath(3), except that the last name may be missing, or a link to a missing file (a file
 * about to be created through it): links followed as open(O_CREAT) follows them. */
char *path_resolve(const char *path)
{
	char *cur = xstrdup(path);
	for (int hops = 0; hops < 40; hops++) {
		char *real = realpath(cur, NULL), *dir;
		const char *base;
		if (real || errno != ENOENT) {
			int e = errno;
			free(cur);
			errno = e;
			return real;
		}
		split_path(cur, &dir, &base);
		char target[PATH_MAX];
		ssize_t n = readlink(cur, target, sizeof(target) - 1);
		if (n < 0 && errno != EINVAL && errno != ENOENT) {
			int e = errno;
			free(dir);
			free(cur);
			errno = e;
			return NULL;
		}
		if (n >= 0) { /* a link to what is not there yet: go on from its target */
			target[n] = '\0';
			char *next = target[0] == '/' ? xstrdup(target) : xasprintf("%s/%s", dir, target);
			free(dir);
			free(cur);
			cur = next;
			continue;
		}
		/* no such name: its directory must be there */
		int named = *base && strcmp(base, ".") != 0 && strcmp(base, "..") != 0;
		char *rdir = named ? realpath(dir, NULL) : NULL;
		int e = named ? errno : ENOENT;
		if (rdir)
			real = xasprintf("%s%s%s", rdir, strcmp(rdir, "/") == 0 ? "" : "/", base);
		free(rdir);
		free(dir);
		free(cur);
		errno = e;
		return real;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

/* What a marker file holds at most: past it, it starts over (and says each thing once more). */
#define SAID_MAX 65536

int said_before(const char *marker, const char *key)
{
	int fd = open(marker, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
	if (fd < 0)
		return -1;
	struct stat sb;
	char *text = NULL;
	int rc = -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || flock(fd, LOCK_EX) < 0)
		goto out;
	if (sb.st_size > SAID_MAX && ftruncate(fd, 0) < 0)
		goto out;
	size_t len = sb.st_size > SAID_MAX ? 0 : (size_t)sb.st_size, got = 0;
	text = xmalloc(len + 1);
	while (got < len) {
		ssize_t n = pread(fd, text + got, len - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	text[got] = '\0';
	/* one key a line: a newline inside one would split it */
	char *line = xasprintf("%s\n", key);
	for (char *c = line; c[1]; c++)
		if (*c == '\n')
			*c = ' ';
	size_t kl = strlen(line);
	for (const char *at = text; at && *at; at = strchr(at, '\n'), at = at ? at + 1 : NULL)
		if (strncmp(at, line, kl) == 0) {
			rc = 1;
			break;
		}
	if (rc != 1) {
		ssize_t w = pwrite(fd, line, kl, (off_t)got);
		rc = w == (ssize_t)kl ? 0 : -1;
	}
	free(line);
out:
	free(text);
	close(fd);
	return rc;
}
