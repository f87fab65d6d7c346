/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks output files: a new path and a regular file are replaced only when all was written, a
 * failed write keeps the old file, a symlink keeps and its target is replaced, a device or FIFO is
 * written in place and never unlinked, and no temporary file is left. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "testfs.h"
#include "util/util.h"

static char *slurp(const char *path)
{
	return read_text_file(path, 1 << 20);
}

/* How many entries of dir start with a dot (the temporary files). */
static int hidden_files(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	return n;
}

static int write_text(const char *path, const char *text, int keep, char *err, size_t errlen)
{
	struct out_file of;
	if (out_file_open(&of, path, err, errlen) < 0)
		return -1;
	fputs(text, of.f);
	return out_file_close(&of, keep, err, errlen);
}

/* In a child under RLIMIT_FSIZE of 4 KiB: write 64 KiB to path; the child's exit status is the
 * close's result (0 kept, 1 refused). */
static int write_past_limit(const char *path)
{
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		struct rlimit rl = {4096, 4096};
		setrlimit(RLIMIT_FSIZE, &rl);
		struct out_file of;
		char err[256];
		if (out_file_open(&of, path, err, sizeof(err)) < 0)
			_exit(2);
		for (int i = 0; i < 64 * 1024; i++)
			fputc('x', of.f);
		_exit(out_file_close(&of, 1, err, sizeof(err)) < 0 ? 1 : 0);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A new path and a regular file: replaced only when all was written, keeping the file's mode. */
static void regular(const char *dir)
{
	char err[512];
	char *file = xasprintf("%s/report.html", dir);

	is_int(write_text(file, "one\n", 1, err, sizeof(err)), 0, "a new path is written");
	char *text = slurp(file);
	is_str(text, "one\n", "with what was written");
	free(text);
	struct stat st;
	mode_t mask = umask(022);
	umask(mask);
	ok(stat(file, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask), "with the mode a new file gets");
	chmod(file, 0640);
	is_int(write_text(file, "two\n", 1, err, sizeof(err)), 0, "a regular file is replaced");
	text = slurp(file);
	is_str(text, "two\n", "by the new text");
	free(text);
	ok(stat(file, &st) == 0 && (st.st_mode & 0777) == 0640, "keeping its mode");
	is_int(write_text(file, "dropped\n", 0, err, sizeof(err)), 0, "a write given up");
	text = slurp(file);
	is_str(text, "two\n", "leaves the file as it was");
	free(text);
	is_int(hidden_files(dir), 0, "no temporary file is left");

	is_int(write_past_limit(file), 1, "a write past the file-size limit fails");
	text = slurp(file);
	is_str(text, "two\n", "and the previous file stays intact");
	free(text);
	is_int(hidden_files(dir), 0, "its temporary file is removed");
	unlink(file);
	free(file);
}

/* A symlink stays a symlink; the file it names gets the text, a dangling one's made. */
static void links(const char *dir)
{
	char err[512];
	struct stat st;
	char *text;
	char *target = xasprintf("%s/target.html", dir), *link = xasprintf("%s/link.html", dir);
	test_put(dir, "target.html", "old\n");
	ok(symlink("target.html", link) == 0, "a symlink to a file");
	is_int(write_text(link, "through\n", 1, err, sizeof(err)), 0, "written through the symlink");
	ok(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the link is still a link");
	text = slurp(target);
	is_str(text, "through\n", "and its target holds the text");
	free(text);
	is_int(write_past_limit(link), 1, "a failed write through the link");
	ok(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "keeps the link");
	text = slurp(target);
	is_str(text, "through\n", "and its target's text");
	free(text);
	char *dangling = xasprintf("%s/dangling", dir), *made = xasprintf("%s/made", dir);
	ok(symlink("made", dangling) == 0, "a dangling symlink");
	is_int(write_text(dangling, "new\n", 1, err, sizeof(err)), 0, "is written through");
	text = slurp(made);
	is_str(text, "new\n", "making the file it names");
	free(text);
	ok(lstat(dangling, &st) == 0 && S_ISLNK(st.st_mode), "and stays a link");
	unlink(link);
	unlink(target);
	unlink(dangling);
	unlink(made);
	free(target);
	free(link);
	free(dangling);
	free(made);
}

/* A device or a FIFO is written in place and never unlinked. */
static void in_place(const char *dir)
{
	char err[512];
	struct stat st;
	/* a device is written in place: /dev/full fails, and is never unlinked */
	is_int(write_text("/dev/full", "x\n", 1, err, sizeof(err)), -1, "a write to /dev/full fails");
	ok(strstr(err, "/dev/full") && strstr(err, "No space"), "naming the device and the reason");
	ok(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode), "and /dev/full is still there");
	char *fifo = xasprintf("%s/fifo", dir);
	ok(mkfifo(fifo, 0600) == 0, "a FIFO");
	int rd = open(fifo, O_RDONLY | O_NONBLOCK);
	is_int(write_text(fifo, "piped\n", 1, err, sizeof(err)), 0, "is written in place");
	char buf[16] = "";
	ok(rd >= 0 && read(rd, buf, sizeof(buf) - 1) == 6 && strcmp(buf, "piped\n") == 0, "its reader gets the text");
	if (rd >= 0)
		close(rd);
	ok(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode), "and the FIFO stays");
	unlink(fifo);
	free(fifo);
}

/* A directory, a path ending in /, a missing directory and a file the user cannot write are
 * refused, and nothing is left behind. */
static void refused(const char *dir)
{
	char err[512];
	char *file = xasprintf("%s/report.html", dir);
	test_put(dir, "report.html", "two\n");
	is_int(write_text(dir, "x", 1, err, sizeof(err)), -1, "a directory is refused");
	char *slash = xasprintf("%s/", file);
	is_int(write_text(slash, "x", 1, err, sizeof(err)), -1, "a path ending in / is refused");
	char *missing = xasprintf("%s/no/such/file", dir);
	is_int(write_text(missing, "x", 1, err, sizeof(err)), -1, "a path in a missing directory is refused");
	ok(strstr(err, missing) != NULL, "naming it");
	if (geteuid() != 0) {
		chmod(file, 0440);
		is_int(write_text(file, "x", 1, err, sizeof(err)), -1, "a file the user cannot write is refused");
		char *text = slurp(file);
		is_str(text, "two\n", "and left as it was");
		free(text);
	} else {
		skip("a file the user cannot write is refused", "root writes any file");
	}
	is_int(hidden_files(dir), 0, "no temporary file is left anywhere");
	unlink(file);
	free(file);
	free(slash);
	free(missing);
}

/* The umask applies, but never to the owner's bits. */
static void umask_bits(const char *dir)
{
	char err[512];
	mode_t old = umask(0777);
	is_int((int)out_file_mode(0666), 0600, "umask 0777: a file stays 0600");
	is_int((int)out_file_mode(0755), 0700, "umask 0777: a directory stays 0700");
	umask(0022);
	is_int((int)out_file_mode(0666), 0644, "umask 022: 0644");
	umask(0277);
	is_int((int)out_file_mode(0644), 0600, "umask 0277: the owner's write bit kept");
	umask(0777);
	char *masked = xasprintf("%s/masked", dir);
	ok(write_text(masked, "x\n", 1, err, sizeof(err)) == 0, "written under umask 0777");
	struct stat msb;
	is_int(stat(masked, &msb) == 0 ? (int)(msb.st_mode & 07777) : -1, 0600, "and its owner can read it");
	umask(old);
	unlink(masked);
	free(masked);
}

int main(void)
{
	char dir[] = "/tmp/reaim-outfile-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	tap_case(regular, dir);
	tap_case(links, dir);
	tap_case(in_place, dir);
	tap_case(refused, dir);
	tap_case(umask_bits, dir);
	ok(rmdir(dir) == 0, "nothing is left in the temp dir");
	return done_testing();
}
