/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a `reaim vm` killed outright leaves behind (its temporary directory of shares, consoles and
 * QEMU's scratch files; a QEMU the kernel did not end; a file half written into the cache), swept by
 * the next `reaim vm` once the lock its owner held while it lived is free. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/vm.h"

unsigned long long vm_proc_start(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	char *text = read_text_file(path, 4096);
	if (!text)
		return 0;
	/* the command name (field 2) may hold spaces and parentheses: count fields after its last ')' */
	char *p = strrchr(text, ')');
	unsigned long long start = 0;
	for (int field = 2; p && *p && field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (p && field == 21)
			start = strtoull(p + 1, NULL, 10);
	}
	free(text);
	return start;
}

/* PATH made (or emptied) holding TEXT; -1 with the reason in err. */
int vm_write_file(const char *path, const char *text, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t n = strlen(text);
	if (fd < 0 || write(fd, text, n) != (ssize_t)n) {
		set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (close(fd) < 0) {
		set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int vm_owner_write(const char *path, pid_t pid, char *err, size_t errlen)
{
	unsigned long long start = vm_proc_start(pid);
	if (start == 0) {
		set_err(err, errlen, "cannot read the start time of process %ld", (long)pid);
		return -1;
	}
	char line[64];
	snprintf(line, sizeof(line), "%ld %llu\n", (long)pid, start);
	return vm_write_file(path, line, err, errlen);
}

int vm_owner_lock(const char *work, char *err, size_t errlen)
{
	/* locked under another name, then renamed: no sweeper ever sees an owner not yet locked */
	char *fresh = xasprintf("%s/%s.new", work, VM_OWNER_FILE), *owner = xasprintf("%s/%s", work, VM_OWNER_FILE);
	char line[32];
	int fd = lock_file_create(fresh, 1);
	snprintf(line, sizeof(line), "%ld\n", (long)getpid());
	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line) || rename(fresh, owner) < 0) {
		set_err(err, errlen, "cannot make the owner lock %s: %s", owner, strerror(errno));
		if (fd >= 0) {
			unlink(fresh);
			close(fd);
		}
		fd = -1;
	}
	free(fresh);
	free(owner);
	return fd;
}

int vm_owner_alive(const char *path, pid_t *pid)
{
	char *text = read_text_file(path, 128);
	long p = 0;
	unsigned long long start = 0;
	int ok = text && sscanf(text, "%ld %llu", &p, &start) == 2 && p > 0 && start > 0;
	free(text);
	if (!ok)
		return -1;
	if (pid)
		*pid = (pid_t)p;
	/* the same pid with another start time is another process: the owner's pid was reused */
	return vm_proc_start((pid_t)p) == start;
}

/* A QEMU of a dead owner's boot that is still running (the kernel's PR_SET_PDEATHSIG ends it; this
 * is for one that escaped it): its process group killed. */
static void sweep_qemus(const char *work)
{
	DIR *d = opendir(work);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *rec = xasprintf("%s/%s/%s", work, e->d_name, VM_QEMU_FILE);
		pid_t pid;
		if (vm_owner_alive(rec, &pid) == 1 && getpgid(pid) == pid && kill(-pid, SIGKILL) == 0)
			log_info("killed QEMU (process %ld) of a reaim vm that is gone", (long)pid);
		free(rec);
	}
	closedir(d);
}

size_t vm_sweep(const char *tmpdir)
{
	DIR *d = opendir(tmpdir);
	size_t swept = 0;
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, VM_WORK_PREFIX, strlen(VM_WORK_PREFIX)) != 0)
			continue;
		char *work = xasprintf("%s/%s", tmpdir, e->d_name), *owner = xasprintf("%s/%s", work, VM_OWNER_FILE);
		struct stat sb;
		int fd = -1;
		/* ours alone, a directory, and its owner's lock free (held by nobody, in any pid namespace; no
		 * owner file: one being made now); the lock is ours while we remove it */
		if (lstat(work, &sb) == 0 && S_ISDIR(sb.st_mode) && sb.st_uid == geteuid() &&
		    lock_file_stale(owner, &fd) == 1) {
			char *text = read_text_file(owner, 64);
			long pid = text ? atol(text) : 0;
			free(text);
			sweep_qemus(work);
			if (remove_tree(work) == 0) {
				log_info("removed %s, left by reaim vm process %ld, which is gone", work, pid);
				swept++;
			} else {
				log_warn("cannot remove %s (left by reaim vm process %ld): %s", work, pid,
					 strerror(errno));
			}
			close(fd);
		}
		free(work);
		free(owner);
	}
	closedir(d);
	return swept;
}

/* Between the path and the writer's pid in the name of a cache file being written. */
#define CACHE_TMP ".tmp-"

char *vm_cache_tmp(const char *path)
{
	return xasprintf("%s" CACHE_TMP "%ld-XXXXXX", path, (long)getpid());
}

int vm_cache_tmp_open(char *tmp)
{
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0 && errno != ENOLCK && errno != EOPNOTSUPP) {
		int e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
		return -1;
	}
	return fd;
}

size_t vm_sweep_cache(const char *cache_dir)
{
	DIR *d = opendir(cache_dir);
	size_t swept = 0;
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *t = strstr(e->d_name, CACHE_TMP);
		char *end;
		long pid = t ? strtol(t + strlen(CACHE_TMP), &end, 10) : 0;
		if (pid <= 0 || *end != '-' || strlen(end) != 7)
			continue;
		char proc[64];
		snprintf(proc, sizeof(proc), "/proc/%ld", pid);
		if (access(proc, F_OK) == 0)
			continue; /* its writer (before it took its lock), or a process with its pid: left alone */
		char *path = xasprintf("%s/%s", cache_dir, e->d_name);
		struct stat sb;
		int fd = -1;
		/* and its lock free: a writer in another pid namespace holds it while it writes */
		if (lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == geteuid() &&
		    lock_file_stale(path, &fd) == 1 && unlink(path) == 0) {
			log_info("removed %s, left half written by reaim vm process %ld, which is gone", path, pid);
			swept++;
		}
		if (fd >= 0)
			close(fd);
		free(path);
	}
	closedir(d);
	return swept;
}
