/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "fs_meta" test family: file creation, links, lookups, directory reads and system queries. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"

#define CREAT_ROUNDS 1000
#define LINK_COUNT 7
#define LINK_ROUNDS 9
#define READDIR_CALLS 10000
#define MISC_ROUNDS 10

#define NEW_FILE_FLAGS (O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC | O_NOFOLLOW)

/* Create (or truncate) name in dir_fd and close it again; 0 or -1 with errno. */
static int touch_at(int dir_fd, const char *name, int extra_flags)
{
	int fd = openat(dir_fd, name, NEW_FILE_FLAGS | extra_flags, 0644);
	if (fd < 0)
		return -1;
	return close(fd);
}

/* unlinkat that treats an already missing name as done, for clean-up paths. */
static int unlink_if_there(int dir_fd, const char *name, int flags)
{
	if (unlinkat(dir_fd, name, flags) == 0 || errno == ENOENT)
		return 0;
	return -1;
}

/* Clean-up step that carries on after a failure and keeps the first errno in *first_err. */
static void remove_noting(int dir_fd, const char *name, int flags, int *first_err)
{
	if (unlink_if_there(dir_fd, name, flags) != 0 && *first_err == 0)
		*first_err = errno;
}

static enum test_status creat_clo(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	static const char name[] = "creat_clo.tmp";

	for (int i = 0; i < CREAT_ROUNDS; i++) {
		if (touch_at(ctx->scratch_fd, name, 0) != 0) {
			int err = errno;
			unlink_if_there(ctx->scratch_fd, name, 0);
			return test_fail(ctx, err, "creat_clo: create+close %s, round %d", name, i);
		}
	}
	if (unlinkat(ctx->scratch_fd, name, 0) != 0)
		return test_fail(ctx, errno, "creat_clo: unlink %s", name);
	return TEST_OK;
}

/*
 * link_test names its files by absolute paths under the task's scratch dir, as classic passed
 * absolute paths under its disk dir: every call walks the whole path (6 components under a
 * disk dir such as /var/tmp), where a name relative to an open dir would walk one.
 */
#define LINK_NAMES (LINK_COUNT + 1)

/* Path of link i (0 is the original file) in the scratch dir. */
static void link_path(char *buf, size_t len, const char *dir, int i)
{
	snprintf(buf, len, "%s/link_test.%d", dir, i);
}

/* Remove the original and every link that exists; 0 or the errno of the first failure. */
static int link_cleanup(size_t len, char names[][len])
{
	int err = 0;

	for (int i = 0; i < LINK_NAMES; i++)
		if (unlink(names[i]) != 0 && errno != ENOENT && err == 0)
			err = errno;
	return err;
}

/* The body of link_test over its paths; leaves clean-up to the caller. */
static enum test_status link_work(struct test_ctx *ctx, size_t len, char names[][len])
{
	const char *base = names[0];
	struct stat st;

	int fd = open(base, NEW_FILE_FLAGS | O_EXCL, 0644);
	if (fd < 0 || close(fd) != 0)
		return test_fail(ctx, errno, "link_test: create %s", base);
	for (int i = 1; i <= LINK_COUNT; i++)
		if (link(base, names[i]) != 0)
			return test_fail(ctx, errno, "link_test: link %s", names[i]);
	for (int round = 0; round < LINK_ROUNDS; round++) {
		for (int i = 1; i <= LINK_COUNT; i++) {
			if (unlink(names[i]) != 0)
				return test_fail(ctx, errno, "link_test: unlink %s", names[i]);
			if (link(base, names[i]) != 0)
				return test_fail(ctx, errno, "link_test: relink %s", names[i]);
		}
	}
	if (lstat(base, &st) != 0)
		return test_fail(ctx, errno, "link_test: stat %s", base);
	if (st.st_nlink != LINK_COUNT + 1)
		return test_fail(ctx, 0, "link_test: %s has %lu links, expected %d", base,
				 (unsigned long)st.st_nlink, LINK_COUNT + 1);
	return TEST_OK;
}

static enum test_status link_test(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	size_t len = strlen(ctx->scratch) + sizeof("/link_test.") + 4;
	char names[LINK_NAMES][len];
	for (int i = 0; i < LINK_NAMES; i++)
		link_path(names[i], len, ctx->scratch, i);
	enum test_status st = link_work(ctx, len, names);
	int err = link_cleanup(len, names);
	if (err != 0 && st == TEST_OK)
		return test_fail(ctx, err, "link_test: remove the links");
	return st;
}

/*
 * disk_src's tree: 25 files and 4 dirs at the top, each dir holding 16 files
 * and 3 subdirs, each subdir holding 20 files: 329 zero-length files and 16
 * directories, 345 entries.  Files are numbered 0..328 in that order.
 */
enum {
	SRC_TOP_FILES = 25,
	SRC_DIRS = 4,
	SRC_DIR_FILES = 16,
	SRC_SUBDIRS = 3,
	SRC_SUB_FILES = 20,
	SRC_MID_FILES = SRC_DIRS * SRC_DIR_FILES,
	SRC_LEAF_FILES = SRC_DIRS * SRC_SUBDIRS * SRC_SUB_FILES,
	SRC_FILES = SRC_TOP_FILES + SRC_MID_FILES + SRC_LEAF_FILES,
	SRC_PRESENT = 57,  /* names looked up that exist */
	SRC_ABSENT = 43,   /* names looked up that do not, then created and removed */
};

/*
 * The tree is built by a task's first call and left for the engine to remove
 * with the scratch dir, so calls time the lookups rather than the layout.  It
 * is built under src_tmp and renamed to src_root only once complete, so
 * src_root existing means the tree is whole.
 */
static const char src_root[] = "disk_src.d";
static const char src_tmp[] = "disk_src.d.tmp";

#define SRC_DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* Path (relative to the tree root) of file i of the tree. */
static void src_file_path(char *buf, size_t len, unsigned i)
{
	if (i < SRC_TOP_FILES) {
		snprintf(buf, len, "f%02u", i);
		return;
	}
	i -= SRC_TOP_FILES;
	if (i < SRC_MID_FILES) {
		snprintf(buf, len, "d%u/f%02u", i / SRC_DIR_FILES, i % SRC_DIR_FILES);
		return;
	}
	i -= SRC_MID_FILES;
	snprintf(buf, len, "d%u/s%u/f%02u", i / (SRC_SUBDIRS * SRC_SUB_FILES),
		 i / SRC_SUB_FILES % SRC_SUBDIRS, i % SRC_SUB_FILES);
}

/* Path of absent name j: spread over the leaf dirs, never clashing with a file. */
static void src_absent_path(char *buf, size_t len, unsigned j)
{
	snprintf(buf, len, "d%u/s%u/new%02u", j % SRC_DIRS, j / SRC_DIRS % SRC_SUBDIRS, j);
}

/* Path of directory k: 0..3 the top dirs, then the subdirs of each. */
static void src_dir_path(char *buf, size_t len, unsigned k)
{
	if (k < SRC_DIRS)
		snprintf(buf, len, "d%u", k);
	else
		snprintf(buf, len, "d%u/s%u", (k - SRC_DIRS) / SRC_SUBDIRS,
			 (k - SRC_DIRS) % SRC_SUBDIRS);
}

/* Lay the tree out under tree_fd; 0 or -1 with errno and the failing path in buf. */
static int src_build(int tree_fd, char *buf, size_t len)
{
	for (unsigned k = 0; k < SRC_DIRS * (1 + SRC_SUBDIRS); k++) {
		src_dir_path(buf, len, k);
		if (mkdirat(tree_fd, buf, 0755) != 0)
			return -1;
	}
	for (unsigned i = 0; i < SRC_FILES; i++) {
		src_file_path(buf, len, i);
		if (touch_at(tree_fd, buf, O_EXCL) != 0)
			return -1;
	}
	return 0;
}

/* Remove what exists of the tree under name, name included; 0 or the first failure's errno. */
static int src_teardown(int scratch_fd, const char *name, int tree_fd)
{
	char path[32];
	int err = 0;

	/* Absent names are only ever created in a complete tree, so a partial one holds none. */
	for (unsigned i = 0; i < SRC_FILES; i++) {
		src_file_path(path, sizeof(path), i);
		remove_noting(tree_fd, path, 0, &err);
	}
	/* Subdirectories come after their parents in the list, so walk it backwards. */
	for (unsigned k = SRC_DIRS * (1 + SRC_SUBDIRS); k-- > 0;) {
		src_dir_path(path, sizeof(path), k);
		remove_noting(tree_fd, path, AT_REMOVEDIR, &err);
	}
	remove_noting(scratch_fd, name, AT_REMOVEDIR, &err);
	return err;
}

/* Remove a partial tree a failed or interrupted build left under src_tmp; 0 or -1 with errno. */
static int src_remove_leftover(int scratch_fd)
{
	int tmp_fd = openat(scratch_fd, src_tmp, SRC_DIR_FLAGS);
	if (tmp_fd < 0)
		return errno == ENOENT ? 0 : -1;
	int err = src_teardown(scratch_fd, src_tmp, tmp_fd);
	close(tmp_fd);
	errno = err;
	return err == 0 ? 0 : -1;
}

/* Build the tree under src_tmp and rename it to src_root; on success *tree_fd is open on it. */
static enum test_status src_lay_out(struct test_ctx *ctx, int *tree_fd)
{
	int scratch_fd = ctx->scratch_fd;
	char path[32];
	enum test_status st;

	if (src_remove_leftover(scratch_fd) != 0)
		return test_fail(ctx, errno, "disk_src: remove leftover %s", src_tmp);
	if (mkdirat(scratch_fd, src_tmp, 0755) != 0)
		return test_fail(ctx, errno, "disk_src: mkdir %s", src_tmp);
	int fd = openat(scratch_fd, src_tmp, SRC_DIR_FLAGS);
	if (fd < 0) {
		int err = errno;
		unlinkat(scratch_fd, src_tmp, AT_REMOVEDIR);
		return test_fail(ctx, err, "disk_src: open %s", src_tmp);
	}
	if (src_build(fd, path, sizeof(path)) != 0) {
		st = test_fail(ctx, errno, "disk_src: lay out %s/%s", src_tmp, path);
	} else if (renameat(scratch_fd, src_tmp, scratch_fd, src_root) != 0) {
		st = test_fail(ctx, errno, "disk_src: rename %s to %s", src_tmp, src_root);
	} else {
		/* An open fd follows its directory to the new name. */
		*tree_fd = fd;
		return TEST_OK;
	}
	/* Best effort; whatever stays under src_tmp is removed by the next build. */
	src_teardown(scratch_fd, src_tmp, fd);
	close(fd);
	return st;
}

/* The lookups: present names stat'ed, absent ones created exclusively and removed, in random order. */
static enum test_status src_lookups(struct test_ctx *ctx, int tree_fd)
{
	unsigned order[SRC_PRESENT + SRC_ABSENT];
	char path[32];
	struct stat st;

	for (unsigned i = 0; i < SRC_PRESENT + SRC_ABSENT; i++)
		order[i] = i;
	for (unsigned i = SRC_PRESENT + SRC_ABSENT - 1; i > 0; i--) {
		unsigned j = (unsigned)test_rand_below(ctx, i + 1);
		unsigned t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (unsigned i = 0; i < SRC_PRESENT + SRC_ABSENT; i++) {
		unsigned k = order[i];
		if (k < SRC_PRESENT) {
			/* Spread the 57 present names evenly over all 329 files. */
			src_file_path(path, sizeof(path), k * SRC_FILES / SRC_PRESENT);
			if (fstatat(tree_fd, path, &st, AT_SYMLINK_NOFOLLOW) != 0)
				return test_fail(ctx, errno, "disk_src: stat %s/%s", src_root, path);
			if (!S_ISREG(st.st_mode) || st.st_size != 0)
				return test_fail(ctx, 0, "disk_src: %s/%s is not an empty file",
						 src_root, path);
			continue;
		}
		src_absent_path(path, sizeof(path), k - SRC_PRESENT);
		if (touch_at(tree_fd, path, O_EXCL) != 0) {
			int err = errno;
			/* The tree outlives the call: a file whose close failed must go. */
			unlink_if_there(tree_fd, path, 0);
			return test_fail(ctx, err, "disk_src: create %s/%s", src_root, path);
		}
		if (unlinkat(tree_fd, path, 0) != 0)
			return test_fail(ctx, errno, "disk_src: unlink %s/%s", src_root, path);
	}
	return TEST_OK;
}

/* Lay the tree out if this task has not yet, then do only the lookups; the tree stays. */
static enum test_status disk_src(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	enum test_status st;
	int tree_fd = openat(ctx->scratch_fd, src_root, SRC_DIR_FLAGS);

	if (tree_fd < 0) {
		if (errno != ENOENT)
			return test_fail(ctx, errno, "disk_src: open %s", src_root);
		st = src_lay_out(ctx, &tree_fd);
		if (st != TEST_OK)
			return st;
	}
	st = src_lookups(ctx, tree_fd);
	if (close(tree_fd) != 0 && st == TEST_OK)
		st = test_fail(ctx, errno, "disk_src: close %s", src_root);
	return st;
}

/* Before the release: disk_src's tree is laid out once per task, outside the timed jobs. */
static enum test_status fs_meta_prepare(struct test_ctx *ctx, const struct test_def *t)
{
	if (t->run != disk_src)
		return TEST_OK;
	int tree_fd = openat(ctx->scratch_fd, src_root, SRC_DIR_FLAGS);
	if (tree_fd < 0) {
		enum test_status st = src_lay_out(ctx, &tree_fd);
		if (st != TEST_OK)
			return st;
	}
	close(tree_fd);
	return TEST_OK;
}

/* The system directory dir_rtns_1 lists: a large one if present, / as the last resort. */
static DIR *open_system_dir(const char **which)
{
	static const char *const candidates[] = { "/usr/bin", "/etc", "/" };
	DIR *dir = NULL;

	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]) && dir == NULL; i++) {
		*which = candidates[i];
		dir = opendir(candidates[i]);
	}
	return dir;
}

static enum test_status dir_rtns_1(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	const char *which = NULL;
	unsigned long sum = 0;
	DIR *dir = open_system_dir(&which);

	if (dir == NULL)
		return test_fail(ctx, errno, "dir_rtns_1: opendir %s", which);
	for (int i = 0; i < READDIR_CALLS; i++) {
		errno = 0;
		const struct dirent *de = readdir(dir);
		if (de != NULL) {
			sum += (unsigned char)de->d_name[0];
			continue;
		}
		if (errno != 0) {
			int err = errno;
			closedir(dir);
			return test_fail(ctx, err, "dir_rtns_1: readdir %s", which);
		}
		rewinddir(dir);
	}
	test_keep(sum);
	if (closedir(dir) != 0)
		return test_fail(ctx, errno, "dir_rtns_1: closedir %s", which);
	return TEST_OK;
}

/* Found, or an error that only means "no such entry" (POSIX allows these for the *_r calls). */
static int lookup_fine(int rc)
{
	return rc == 0 || rc == ENOENT || rc == ESRCH || rc == EBADF || rc == EPERM;
}

/* The user and group database lookups; a missing entry is fine, a broken lookup is not. */
static enum test_status misc_lookups(struct test_ctx *ctx, unsigned long *sum)
{
	char buf[8192];
	struct passwd pw, *pwp;
	struct group gr, *grp;
	int rc;

	rc = getpwnam_r("root", &pw, buf, sizeof(buf), &pwp);
	if (!lookup_fine(rc))
		return test_fail(ctx, rc, "misc_rtns_1: getpwnam root");
	*sum += rc == 0 && pwp != NULL ? (unsigned long)pwp->pw_uid + 1 : 0;
	rc = getpwuid_r(0, &pw, buf, sizeof(buf), &pwp);
	if (!lookup_fine(rc))
		return test_fail(ctx, rc, "misc_rtns_1: getpwuid 0");
	*sum += rc == 0 && pwp != NULL ? strlen(pwp->pw_name) : 0;
	rc = getgrgid_r(0, &gr, buf, sizeof(buf), &grp);
	if (!lookup_fine(rc))
		return test_fail(ctx, rc, "misc_rtns_1: getgrgid 0");
	*sum += rc == 0 && grp != NULL ? strlen(grp->gr_name) : 0;
	return TEST_OK;
}

/* One round of the process-environment queries a shell user's tools make. */
static enum test_status misc_round(struct test_ctx *ctx, unsigned long *sum)
{
	char cwd[PATH_MAX];
	gid_t groups[256];
	struct tms tms;
	struct utsname uts;

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return test_fail(ctx, errno, "misc_rtns_1: getcwd");
	*sum += (unsigned long)getuid() + getegid() + getgid() + geteuid();
	const char *path = getenv("PATH");
	*sum += path != NULL ? strlen(path) : 0;
	int ngroups = getgroups((int)(sizeof(groups) / sizeof(groups[0])), groups);
	if (ngroups < 0 && errno == EINVAL)
		ngroups = getgroups(0, NULL);  /* more groups than we have room for */
	if (ngroups < 0)
		return test_fail(ctx, errno, "misc_rtns_1: getgroups");
	*sum += (unsigned long)ngroups;
	enum test_status st = misc_lookups(ctx, sum);
	if (st != TEST_OK)
		return st;
	if (times(&tms) == (clock_t)-1)
		return test_fail(ctx, errno, "misc_rtns_1: times");
	*sum += (unsigned long)isatty(0);
	if (uname(&uts) != 0)
		return test_fail(ctx, errno, "misc_rtns_1: uname");
	*sum += strlen(uts.release);
	clock_t c = clock();
	if (c == (clock_t)-1)
		return test_fail(ctx, 0, "misc_rtns_1: clock");
	*sum += (unsigned long)c;
	return TEST_OK;
}

static enum test_status misc_rtns_1(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	unsigned long sum = 0;

	for (int i = 0; i < MISC_ROUNDS; i++) {
		enum test_status st = misc_round(ctx, &sum);
		if (st != TEST_OK)
			return st;
	}
	test_keep(sum);
	return TEST_OK;
}

static const struct test_def tests[] = {
	{ .name = "creat_clo", .run = creat_clo, .ops_per_call = CREAT_ROUNDS, .units = "creates", .flags = TF_DISK,
	  .desc = "create+close one file 1,000 times, then unlink it" },
	{ .name = "link_test", .run = link_test, .ops_per_call = LINK_ROUNDS * LINK_COUNT, .units = "relinks", .flags = TF_DISK,
	  .desc = "a file and 7 hard links; 9 rounds of unlink+relink of each link" },
	{ .name = "disk_src", .run = disk_src, .ops_per_call = 75, .units = "lookups", .flags = TF_DISK,
	  .desc = "stat 57 names, create+unlink 43 absent ones, shuffled; 345-entry tree built once per task" },
	{ .name = "dir_rtns_1", .run = dir_rtns_1, .ops_per_call = READDIR_CALLS, .units = "readdirs",
	  .desc = "10,000 readdir() calls over a system directory, rewinding at its end" },
	{ .name = "misc_rtns_1", .run = misc_rtns_1, .ops_per_call = MISC_ROUNDS, .units = "rounds",
	  .desc = "10 rounds of getcwd, get*id, getenv, getgroups, passwd/group lookups, times, uname, clock" },
};

const struct test_family test_family_fs_meta = { "fs_meta", tests, sizeof(tests) / sizeof(tests[0]), fs_meta_prepare };
