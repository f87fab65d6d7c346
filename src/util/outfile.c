/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output files (reports, plots, CSV): written beside the target and renamed into place, so a failed
 * write never destroys what was there; a device, FIFO or `-` is written in place, a symlink keeps. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

mode_t out_file_mode(mode_t mode)
{
	mode_t mask = umask(0);
	umask(mask);
	return (mode & ~mask & 07777) | (mode & 0700);
}

int out_file_fchmod(int fd, mode_t mode)
{
	return fchmod(fd, out_file_mode(mode));
}

static int fail(struct out_file *o, char *err, size_t errlen, const char *what, int e)
{
	set_err(err, errlen, "%s %s: %s", what, o->name, strerror(e));
	errno = e;
	return -1;
}

/* Open the temporary file beside target with the mode the target has (or a new file would get). */
static int open_beside(struct out_file *o, const struct stat *old, char *err, size_t errlen)
{
	const char *slash = strrchr(o->target, '/');
	o->tmp = slash ? xasprintf("%.*s/.%s.XXXXXX", (int)(slash - o->target), o->target, slash + 1)
		       : xasprintf(".%s.XXXXXX", o->target);
	int fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		return fail(o, err, errlen, "cannot write beside", e);
	}
	mode_t mode;
	if (old) {
		mode = old->st_mode & 07777;
		/* only root can give the file back its owner; anyone else keeps the file their own */
		if ((old->st_uid != geteuid() || old->st_gid != getegid()) && fchown(fd, old->st_uid, old->st_gid) < 0)
			mode &= 0777; /* no set-id bits on a file of another owner */
	} else {
		mode = out_file_mode(0666);
	}
	if (fchmod(fd, mode) < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return fail(o, err, errlen, "cannot write", e);
	}
	return 0;
}

/* A device, a fifo, or a new file through a dangling link: the file made gets out_file_mode. */
static int open_in_place(struct out_file *o, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) { /* made where the link leads (O_EXCL never follows a link) */
		char *file = path_resolve(path);
		fd = file ? open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666) : -1;
		free(file);
		if (fd >= 0 && out_file_fchmod(fd, 0666) < 0) {
			int e = errno;
			close(fd);
			return fail(o, err, errlen, "cannot write", e);
		}
	}
	if (fd < 0)
		return fail(o, err, errlen, "cannot write", errno);
	if (!(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		return fail(o, err, errlen, "cannot write", e);
	}
	return 0;
}

int out_file_open(struct out_file *o, const char *path, char *err, size_t errlen)
{
	*o = (struct out_file){.name = path};
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		return 0;
	}
	size_t len = strlen(path);
	if (len == 0 || path[len - 1] == '/')
		return fail(o, err, errlen, "cannot write", len ? EISDIR : ENOENT);
	struct stat st;
	if (lstat(path, &st) < 0) {
		if (errno != ENOENT)
			return fail(o, err, errlen, "cannot write", errno);
		o->target = xstrdup(path);
		if (open_beside(o, NULL, err, errlen) < 0) {
			free(o->target);
			o->target = NULL;
			return -1;
		}
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		/* the link stays; its target is replaced, or written through when it is not a regular file */
		char *real = realpath(path, NULL);
		if (!real)
			return errno == ENOENT ? open_in_place(o, path, err, errlen)
					       : fail(o, err, errlen, "cannot write", errno);
		if (stat(real, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(real);
			return S_ISDIR(st.st_mode) ? fail(o, err, errlen, "cannot write", EISDIR)
						   : open_in_place(o, path, err, errlen);
		}
		o->target = real;
	} else if (S_ISDIR(st.st_mode)) {
		return fail(o, err, errlen, "cannot write", EISDIR);
	} else if (!S_ISREG(st.st_mode)) {
		return open_in_place(o, path, err, errlen);
	} else {
		o->target = xstrdup(path);
	}
	/* a file the user could not write stays refused, as opening it would be */
	if (access(o->target, W_OK) < 0) {
		int e = errno;
		free(o->target);
		o->target = NULL;
		return fail(o, err, errlen, "cannot write", e);
	}
	if (open_beside(o, &st, err, errlen) < 0) {
		free(o->target);
		o->target = NULL;
		return -1;
	}
	return 0;
}

int out_file_close(struct out_file *o, int keep, char *err, size_t errlen)
{
	if (!o->f)
		return keep ? -1 : 0;
	int e = 0;
	if (fflush(o->f) != 0 || ferror(o->f))
		e = errno ? errno : EIO;
	/* the new file reaches the disk before it replaces the old one, so a crash leaves one of them */
	if (!e && keep && o->tmp && fsync(fileno(o->f)) < 0)
		e = errno;
	if (o->f != stdout && fclose(o->f) != 0 && !e)
		e = errno;
	o->f = NULL;
	int rc = 0;
	if (keep && e) {
		fail(o, err, errlen, "writing", e);
		rc = -1;
	}
	if (o->tmp) {
		if (keep && !e && rename(o->tmp, o->target) < 0) {
			fail(o, err, errlen, "replacing", errno);
			rc = -1;
		}
		if (!keep || rc < 0)
			unlink(o->tmp); /* only the file this call made */
	}
	free(o->tmp);
	free(o->target);
	o->tmp = o->target = NULL;
	return rc;
}
