/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim lab-install CLIENT DIR`: puts reaim where a test lab's client looks for classic re-aim-7
 * (or AIM's programs), so that the client's own scripts run it without building anything. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "util/util.h"

enum lab_kind {
	LAB_LINK,  /* a symbolic link to this reaim (a name it answers to, as AIM's programs) */
	LAB_MIXES, /* a directory with every stock mix as workfile.NAME */
	LAB_TEXT,  /* a file with this text */
};

struct lab_item {
	enum lab_kind kind;
	const char *path; /* under DIR */
	const char *text; /* LAB_TEXT */
};

/* Where each client looks (docs/lab.md): LKP's $BENCHMARK_ROOT/PROGRAM, mmtests' installed
 * source dir (its shellpack skips the install when the dir is there), autotest's test srcdir
 * with the .version its setup() is skipped for (version 1, pickled as Python 2 wrote it). */
#define MMTESTS_DIR "work/sources/reaim-7.0.1.13-installed"
#define AUTOTEST_DIR "tmp/reaim/src"
static const struct lab_item lkp_items[] = {
	{.kind = LAB_LINK, .path = "reaim/reaim"},
	{.kind = LAB_MIXES, .path = "reaim/data"},
	{.kind = LAB_LINK, .path = "aim7/multitask"},
	{.kind = LAB_MIXES, .path = "aim7/workfiles"},
	{.kind = LAB_LINK, .path = "aim9/singleuser"},
};
static const struct lab_item mmtests_items[] = {
	{.kind = LAB_LINK, .path = MMTESTS_DIR "/src/reaim"},
	{.kind = LAB_MIXES, .path = MMTESTS_DIR "/data"},
	{.kind = LAB_TEXT, .path = MMTESTS_DIR "/data/workfile.page_test", .text = "10 page_test\n"},
};
static const struct lab_item autotest_items[] = {
	{.kind = LAB_LINK, .path = AUTOTEST_DIR "/reaim"},
	{.kind = LAB_MIXES, .path = AUTOTEST_DIR "/data"},
	{.kind = LAB_TEXT, .path = AUTOTEST_DIR "/.version", .text = "I1\n."},
};

static const struct lab_client {
	const char *name, *dir; /* dir: what DIR is for this client */
	const struct lab_item *items;
	size_t count;
} lab_clients[] = {
	{.name = "lkp", .dir = "LKP's $BENCHMARK_ROOT (/lkp/benchmarks)", .items = lkp_items,
	 .count = ARRAY_SIZE(lkp_items)},
	{.name = "mmtests", .dir = "the mmtests checkout (at 6c93ff57, the last with reaim)", .items = mmtests_items,
	 .count = ARRAY_SIZE(mmtests_items)},
	{.name = "autotest", .dir = "autotest's client directory ($AUTODIR)", .items = autotest_items,
	 .count = ARRAY_SIZE(autotest_items)},
};

static const struct lab_client *lab_client_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(lab_clients); i++)
		if (strcmp(lab_clients[i].name, name) == 0)
			return &lab_clients[i];
	return NULL;
}

/* One directory, 0755 as the umask allows but never closed to its owner (out_file_mode). */
static int make_dir(const char *path)
{
	if (mkdir(path, 0755) < 0)
		return errno == EEXIST ? 0 : -1;
	return chmod(path, out_file_mode(0755)); /* only a directory this call made */
}

/* mkdir -p of path's parent directories, then of path itself when dir is set. */
static int make_dirs(char *path, int dir)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		int rc = make_dir(path);
		*s = '/';
		if (rc < 0)
			return -1;
	}
	return dir ? make_dir(path) : 0;
}

/* A link to target at path; one already there pointing at target is kept, anything else is left
 * alone and refused (it is not ours to replace). */
static int put_link(const char *path, const char *target)
{
	char have[PATH_MAX];
	if (symlink(target, path) == 0)
		return 0;
	if (errno != EEXIST) {
		log_error("%s: %s", path, strerror(errno));
		return -1;
	}
	ssize_t n = readlink(path, have, sizeof(have) - 1);
	if (n > 0) {
		have[n] = '\0';
		if (strcmp(have, target) == 0)
			return 0;
	}
	log_error("%s is already there and is not a link to %s: remove it, or install elsewhere", path, target);
	return -1;
}

/* A new file with text; one already there with that text is kept, anything else refused. */
static int put_text(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST) {
		char why[160];
		int line;
		/* never waits: a fifo or a device there is refused, not opened for a writer to come */
		char *have = read_input_file(path, len, why, sizeof(why), &line);
		int same = have && strlen(have) == len && memcmp(have, text, len) == 0;
		free(have);
		if (same)
			return 0;
		struct stat sb;
		if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
			log_error("%s is already there and is not a regular file: remove it, or install elsewhere", path);
		else
			log_error("%s is already there with other content: remove it, or install elsewhere", path);
		return -1;
	}
	if (fd < 0) {
		log_error("%s: %s", path, strerror(errno));
		return -1;
	}
	if (out_file_fchmod(fd, 0644) < 0) {
		log_error("%s: %s", path, strerror(errno));
		close(fd);
		unlink(path); /* ours: created by this call */
		return -1;
	}
	ssize_t w = write(fd, text, len);
	int err = w < 0 ? errno : 0;
	if (close(fd) < 0 && !err)
		err = errno;
	if (w != (ssize_t)len || err) {
		log_error("%s: %s", path, err ? strerror(err) : "short write");
		unlink(path); /* ours: created by this call */
		return -1;
	}
	return 0;
}

/* Every stock mix, as workfile.NAME in dir (classic's names, which the clients' scripts use). */
static int put_mixes(const char *dir)
{
	char **names = data_names("workfiles", NULL, 0);
	int rc = names[0] ? 0 : -1;
	if (rc < 0)
		log_error("no stock mixes found (REAIM_DATADIR or the installed data directory)");
	for (size_t i = 0; names[i] && rc == 0; i++) {
		char *src = find_data_file("workfiles", names[i]), why[160];
		int line;
		char *text = src ? read_input_file(src, INPUT_FILE_MAX, why, sizeof(why), &line) : NULL;
		char *dst = xasprintf("%s/workfile.%s", dir, names[i]);
		if (!text) {
			log_error("%s: %s", src ? src : names[i], src ? why : strerror(ENOENT));
			rc = -1;
		} else {
			rc = put_text(dst, text, strlen(text));
		}
		free(dst);
		free(text);
		free(src);
	}
	free_names(names);
	return rc;
}

/* This program, by an absolute path that stays valid (the links point at it): the path
 * /proc/self/exe names, and still this very file. A binary deleted (or replaced) since it started
 * has no such path: the kernel names it "PATH (deleted)", a link to which would lead nowhere. */
static int self_path(char *out, size_t len)
{
	struct stat me, there;
	ssize_t n = readlink("/proc/self/exe", out, len - 1);
	if (n <= 0 || (size_t)n >= len - 1) {
		log_error("cannot find this program's path (/proc/self/exe): %s",
			  n < 0 ? strerror(errno) : "too long");
		return -1;
	}
	out[n] = '\0';
	if (stat("/proc/self/exe", &me) < 0) {
		log_error("cannot find this program's file (/proc/self/exe): %s", strerror(errno));
		return -1;
	}
	if (stat(out, &there) < 0 || there.st_dev != me.st_dev || there.st_ino != me.st_ino) {
		char *shown = text_escape(out);
		log_error("this program's file was deleted or replaced since it started (/proc/self/exe names "
			  "'%s'): links to it would lead nowhere; run lab-install from the reaim to install", shown);
		free(shown);
		return -1;
	}
	return 0;
}

static int lab_install(const struct lab_client *c, const char *dir)
{
	char self[PATH_MAX];
	if (self_path(self, sizeof(self)) < 0)
		return -1;
	for (size_t i = 0; i < c->count; i++) {
		const struct lab_item *it = &c->items[i];
		char *path = xasprintf("%s/%s", dir, it->path);
		int rc = make_dirs(path, it->kind == LAB_MIXES);
		if (rc < 0)
			log_error("%s: %s", path, strerror(errno));
		else if (it->kind == LAB_LINK)
			rc = put_link(path, self);
		else if (it->kind == LAB_MIXES)
			rc = put_mixes(path);
		else
			rc = put_text(path, it->text, strlen(it->text));
		if (rc == 0)
			printf("%s\n", path);
		free(path);
		if (rc < 0)
			return -1;
	}
	return 0;
}

struct lab_args {
	struct cli_list words;
};

const struct cli_opt cmd_lab_install_opts[] = {
	CLI_OPT_OPERANDS("CLIENT DIR", struct lab_args, words, 2, 2,
			 "lkp DIR: DIR/{reaim,aim7,aim9} ($BENCHMARK_ROOT); mmtests DIR: "
			 "DIR/" MMTESTS_DIR "; autotest DIR: DIR/" AUTOTEST_DIR " with its .version"),
	CLI_OPT_END,
};

enum outcome cmd_lab_install(const struct command *self, int argc, char **argv)
{
	struct lab_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	const struct lab_client *c = lab_client_find(a.words.v[0]);
	if (!c) {
		char *shown = text_escape(a.words.v[0]);
		log_error("unknown client '%s'; lab-install knows:", shown);
		for (size_t i = 0; i < ARRAY_SIZE(lab_clients); i++)
			fprintf(stderr, "  %-9s DIR is %s\n", lab_clients[i].name, lab_clients[i].dir);
		free(shown);
		out = OUT_USAGE;
	} else if (lab_install(c, a.words.v[1]) < 0) {
		out = OUT_FAILED;
	}
	cli_free(self->opts, &a);
	return out;
}
