/* SPDX-License-Identifier: GPL-2.0-or-later */
/* QEMU's cgroups: each boot's QEMU in a cgroup of its own under one of this reaim vm, so a helper it
 * forks, or a QEMU that daemonises out of its process group, ends with its boot; what a reaim vm
 * killed outright left is killed by the next one's sweep, which knows its owner gone by a lock. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure/cgroup.h"
#include "measure/measure.h"
#include "vm/vm.h"

struct vm_group {
	struct cgroup_run *run;
	char name[64];
	char lock_path[256];
	int lock_fd;
};

/* Where the lock of a cgroup is: one place for every reaim vm of the machine, whatever its TMPDIR. */
static void lock_path_of(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.cgroup.lock", access("/run/lock", W_OK) == 0 ? "/run/lock" : "/tmp", name);
}

/* A cgroup "reaim-vm-PID-XXXXXX" whose reaim vm is gone: its lock file there and free. Any other name
 * (a run's, another program's, a live reaim vm's) is left alone. */
static int stale_vm(const char *name)
{
	long pid;
	int end = 0;
	char path[256];
	if (sscanf(name, "reaim-vm-%ld-%*6[A-Za-z0-9]%n", &pid, &end) != 1 || name[end] != '\0')
		return CGROUP_RUN_ALIVE;
	lock_path_of(name, path, sizeof(path));
	int fd, gone = lock_file_stale(path, &fd);
	if (gone == 1)
		close(fd);
	return gone == 1 ? CGROUP_RUN_DEAD : gone < 0 ? CGROUP_RUN_UNMARKED : CGROUP_RUN_ALIVE;
}

/* Its cgroups are gone everywhere: the lock that said it was dead may go. */
static void swept_vm(const char *name)
{
	char path[256];
	int fd;
	lock_path_of(name, path, sizeof(path));
	if (lock_file_stale(path, &fd) == 1) {
		unlink(path);
		close(fd);
	}
}

struct vm_group *vm_group_open(char *err, size_t errlen)
{
	static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	struct vm_group *g = xcalloc(1, sizeof(*g));
	unsigned long long r = clock_now_ns() ^ ((unsigned long long)getpid() << 20);
	char tag[7];
	for (int i = 0; i < 6; i++, r /= 62)
		tag[i] = alnum[r % 62];
	tag[6] = '\0';
	snprintf(g->name, sizeof(g->name), "reaim-vm-%ld-%s", (long)getpid(), tag);
	lock_path_of(g->name, g->lock_path, sizeof(g->lock_path));
	if ((g->lock_fd = lock_file_create(g->lock_path, 0)) < 0) {
		set_err(err, errlen, "cannot create the lock file %s: %s", g->lock_path, strerror(errno));
		free(g);
		return NULL;
	}
	struct cgroup_run_config cfg = {.name = g->name, .stale = stale_vm, .swept = swept_vm, .no_cpuset = 1};
	if (cgroup_run_open(&cfg, &g->run, err, errlen) < 0) {
		unlink(g->lock_path);
		close(g->lock_fd);
		free(g);
		return NULL;
	}
	int swept = cgroup_run_swept(g->run);
	if (swept)
		log_info("killed and removed %d cgroup%s of reaim vm commands that are gone", swept, swept == 1 ? "" : "s");
	return g;
}

const char *vm_group_dir(const struct vm_group *g)
{
	return cgroup_run_dir(g->run);
}

int vm_group_boot(struct vm_group *g, const char *name, struct cgroup_point **out, char *err, size_t errlen)
{
	return cgroup_side_create(g->run, name, out, err, errlen);
}

void vm_group_close(struct vm_group *g)
{
	if (!g)
		return;
	char err[256];
	if (cgroup_run_close(g->run, err, sizeof(err)) < 0)
		log_warn("%s", err);
	else
		unlink(g->lock_path); /* gone everywhere: no sweep needs the lock */
	close(g->lock_fd);
	free(g);
}
