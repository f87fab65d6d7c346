/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Lock files: how a run tells others it is alive, by a lock it holds for its whole life, never by
 * its pid or process name (which say nothing across pid namespaces, through a link with another
 * name, or once a pid is reused). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

/* A filesystem that cannot lock at all (some FUSE ones) says so with one of these. */
static int cannot_lock(int err)
{
	return err == ENOLCK || err == EOPNOTSUPP || err == ENOSYS;
}

int lock_file_create(const char *path, int best_effort)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0 || (best_effort && cannot_lock(errno)))
		return fd;
	int e = errno;
	close(fd);
	unlink(path);
	errno = e;
	return -1;
}

/* Shared, so testers never take each other for the owner, and it works on a read-only descriptor
 * (NFS emulates flock with POSIX locks, where an exclusive one needs write access). */
int lock_fd_stale(int fd)
{
	return flock(fd, LOCK_SH | LOCK_NB) == 0;
}

int lock_file_stale(const char *path, int *fd)
{
	struct stat sb;
	*fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0)
		return errno == ENOENT ? -1 : 0;
	if (fstat(*fd, &sb) == 0 && S_ISREG(sb.st_mode) && lock_fd_stale(*fd))
		return 1;
	close(*fd);
	*fd = -1;
	return 0;
}
