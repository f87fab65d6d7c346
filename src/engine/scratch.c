/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scratch space: a private root per disk dir for the run, a dir per point with the shared
 * source file and one dir per task, all removed by the run that made them. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/internal.h"
#include "util/util.h"

/* The marker that tells a later run this directory is reaim's scratch and may be swept once
 * nobody holds its lock. */
#define SCRATCH_MARK ".reaim-scratch"

/* Create the marker locked: it is written and locked under a temporary name, then renamed, so
 * a sweeper never sees the marker of a live run unlocked. */
static int mark_root(const char *root, int32_t ipc_key, int *lock_fd)
{
	char *tmp = xasprintf("%s/%s.new", root, SCRATCH_MARK), *path = xasprintf("%s/%s", root, SCRATCH_MARK);
	/* a filesystem without flock (some FUSE ones) leaves the root unlocked: a sweeper cannot
	 * lock it either, so it is never swept, which errs on the safe side */
	int fd = lock_file_create(tmp, 1);
	int rc = fd < 0 ? -1 : 0;
	if (rc == 0) {
		char text[96];
		int n = snprintf(text, sizeof(text), "reaim scratch of pid %ld\nipc_key %ld\n", (long)getpid(),
				 (long)ipc_key);
		if (write(fd, text, (size_t)n) != n || rename(tmp, path) < 0)
			rc = -1;
	}
	if (rc < 0 && fd >= 0) {
		int e = errno;
		close(fd);
		unlink(tmp);
		errno = e;
		fd = -1;
	}
	free(tmp);
	free(path);
	*lock_fd = fd;
	return rc;
}

/* A base for the run's SysV keys with no object of the next TASKS_MAX keys in use. A key, not
 * IPC_PRIVATE: a task killed between creating an object and removing it leaves one the parent
 * (or a later run's sweep) can find by its key. */
static int32_t pick_ipc_key(void)
{
	struct sysv_obj *sem = NULL, *shm = NULL;
	size_t nsem = 0, nshm = 0;
	sysv_list(SYSV_SEM, &sem, &nsem);
	sysv_list(SYSV_SHM, &shm, &nshm);
	int32_t base = 0;
	for (int attempt = 0; attempt < 64 && base == 0; attempt++) {
		uint32_t r;
		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			r = (uint32_t)(clock_now_ns() ^ ((uint64_t)getpid() << 16)) * 2654435761u;
		base = 0x10000000 + (int32_t)(r % (0x60000000u - TASKS_MAX));
		for (size_t i = 0; i < nsem && base; i++)
			if (sem[i].key >= base && sem[i].key - base < TASKS_MAX)
				base = 0;
		for (size_t i = 0; i < nshm && base; i++)
			if (shm[i].key >= base && shm[i].key - base < TASKS_MAX)
				base = 0;
	}
	free(sem);
	free(shm);
	return base ? base : 0x10000000;
}

int engine_scratch_create(const struct str_list *dirs, struct engine_scratch *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->roots = xcalloc(dirs->count, sizeof(char *));
	s->locks = xcalloc(dirs->count, sizeof(int));
	s->ipc_key = pick_ipc_key();
	for (size_t i = 0; i < dirs->count; i++) {
		/* absolute, because tasks work inside their own dir, not the caller's */
		char *dir = realpath(dirs->v[i], NULL);
		if (!dir) {
			snprintf(err, errlen, "disk dir %s: %s", dirs->v[i], strerror(errno));
			engine_scratch_destroy(s);
			return -1;
		}
		char *tmpl = xasprintf("%s/reaim-%ld-XXXXXX", dir, (long)getpid());
		free(dir);
		if (!mkdtemp(tmpl)) {
			snprintf(err, errlen, "cannot create a scratch dir in %s: %s", dirs->v[i], strerror(errno));
			free(tmpl);
			engine_scratch_destroy(s);
			return -1;
		}
		s->locks[s->count] = -1;
		s->roots[s->count++] = tmpl;
		if (mark_root(tmpl, s->ipc_key, &s->locks[s->count - 1]) < 0) {
			snprintf(err, errlen, "cannot write in %s: %s", tmpl, strerror(errno));
			engine_scratch_destroy(s);
			return -1;
		}
	}
	s->exec_helper = find_helper("reaim-exec-helper");
	char *script = find_data_file("scripts", "shell_rtns_1.sh");
	if (script) {
		*strrchr(script, '/') = '\0';
		s->script_dir = script;
	}
	return 0;
}

/* The SysV key base a dead run's marker recorded, or 0. */
static int32_t marked_ipc_key(int fd)
{
	char text[128];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	const char *k = strstr(text, "\nipc_key ");
	return k ? (int32_t)strtol(k + strlen("\nipc_key "), NULL, 10) : 0;
}

void engine_scratch_sweep(const struct str_list *dirs)
{
	for (size_t i = 0; i < dirs->count; i++) {
		DIR *d = opendir(dirs->v[i]);
		struct dirent *e;
		while (d && (e = readdir(d)) != NULL) {
			long pid;
			char tail[16];
			struct stat st;
			/* our names: reaim-PID-XXXXXX, with the six characters mkdtemp chose */
			if (sscanf(e->d_name, "reaim-%ld-%15s", &pid, tail) != 2 || strlen(tail) != 6)
				continue;
			if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
			    st.st_uid != geteuid())
				continue;
			char *mark = xasprintf("%s/%s", e->d_name, SCRATCH_MARK);
			int fd = openat(dirfd(d), mark, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
			free(mark);
			if (fd < 0)
				continue; /* named like ours but not made by reaim: not ours to remove */
			/* the run that made it holds this lock while it lives, in any pid namespace and
			 * whatever its name; a lock we can take means it is gone */
			if (!lock_fd_stale(fd)) {
				close(fd);
				continue;
			}
			int32_t key = marked_ipc_key(fd);
			int objs = key ? sysv_remove_keys(key, TASKS_MAX) : 0;
			char *path = xasprintf("%s/%s", dirs->v[i], e->d_name);
			if (remove_tree(path) == 0)
				log_warn("removed %s, left by a reaim process (pid %ld) that died", path, pid);
			if (objs)
				log_warn("removed %d System V IPC object%s its tasks left", objs, objs > 1 ? "s" : "");
			free(path);
			close(fd);
		}
		if (d)
			closedir(d);
	}
}

void engine_scratch_destroy(struct engine_scratch *s)
{
	for (size_t i = 0; i < s->count; i++) {
		if (remove_tree(s->roots[i]) < 0)
			log_warn("could not remove scratch dir %s: %s", s->roots[i], strerror(errno));
		free(s->roots[i]);
		if (s->locks[i] >= 0)
			close(s->locks[i]); /* after the removal: until then the root is still ours */
	}
	free(s->roots);
	free(s->locks);
	free(s->exec_helper);
	free(s->script_dir);
	memset(s, 0, sizeof(*s));
}

/* Write the shared read-only source file (n KiB) and flush it, so laying it out is not
 * charged to the tasks that read it. */
static int lay_out_source(const char *path, long long kib, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "create %s: %s", path, strerror(errno));
		return -1;
	}
	char block[1024];
	for (size_t i = 0; i < sizeof(block); i++)
		block[i] = (char)('a' + i % 26);
	for (long long k = 0; k < kib; k++) {
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block)) {
			snprintf(err, errlen, "write %s: %s", path, errno ? strerror(errno) : "short write");
			close(fd);
			return -1;
		}
	}
	if (fsync(fd) < 0 || close(fd) < 0) {
		snprintf(err, errlen, "flush %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The O_DIRECT alignment dir's filesystem wants. Filesystems answer STATX_DIOALIGN for
 * regular files only (ext4 says nothing for a directory), so an unnamed file is asked. */
static size_t dio_alignment(const char *dir)
{
#ifdef STATX_DIOALIGN
	struct statx sx;
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	int rc = fd >= 0 ? statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx)
			 : statx(AT_FDCWD, dir, 0, STATX_DIOALIGN, &sx);
	if (fd >= 0)
		close(fd);
	if (rc == 0 && (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align > 0)
		return sx.stx_dio_offset_align > sx.stx_dio_mem_align ? sx.stx_dio_offset_align
								      : sx.stx_dio_mem_align;
#else
	(void)dir;
#endif
	return 4096;
}

/* One syncfs per disk dir before a point (as classic's sync before each load), so dirty data
 * left by the last point, the last run or anything else on that filesystem is not written
 * back during this one; outside any measured time. */
static void flush_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || syncfs(fd) < 0)
		log_warn("syncfs %s: %s", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* --pin: the CPUs this process may run on, in order; NULL if none could be read. */
static int *allowed_cpus(size_t *n)
{
	cpu_set_t set;
	*n = 0;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return NULL;
	int *cpus = xcalloc((size_t)CPU_COUNT(&set) + 1, sizeof(int));
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[(*n)++] = c;
	return cpus;
}

/* --pin's CPUs (the point's under --cpus, else every allowed one; NULL without --pin) and the set
 * --cpus confines every task to (empty without it). */
static int *point_cpus(const struct engine_point *pt, size_t *n, cpu_set_t *confine)
{
	CPU_ZERO(confine);
	for (size_t i = 0; i < pt->ncpus; i++)
		CPU_SET(pt->cpus[i], confine);
	*n = 0;
	if (!pt->opts->pin)
		return NULL;
	if (!pt->cpus)
		return allowed_cpus(n);
	int *cpus = xcalloc(pt->ncpus + 1, sizeof(int));
	memcpy(cpus, pt->cpus, pt->ncpus * sizeof(int));
	*n = pt->ncpus;
	return cpus;
}

/* --drop-caches: write dirty data back, then drop the clean page cache, dentries and inodes,
 * so every point starts from the same cold caches rather than what the last one left. */
static int drop_caches(char *err, size_t errlen)
{
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		snprintf(err, errlen, "--drop-caches: /proc/sys/vm/drop_caches: %s%s", strerror(errno),
			 errno == EACCES || errno == EPERM ? " (it needs root)" : "");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return close(fd);
}

/* Each root's point dir (only made when the mix touches files) and, with source_kib >= 0, the
 * source file the disk tests copy from; 0, or -1 with the reason in res. */
static int make_point_dirs(const struct engine_scratch *s, unsigned seq, int need_dirs, long long source_kib,
			   char **point_dirs, char **sources, struct engine_result *res)
{
	for (size_t d = 0; d < s->count; d++) {
		point_dirs[d] = xasprintf("%s/p%u", s->roots[d], seq);
		if (need_dirs && mkdir(point_dirs[d], 0700) < 0) {
			snprintf(res->reason, sizeof(res->reason), "mkdir %s: %s", point_dirs[d], strerror(errno));
			free(point_dirs[d]);
			point_dirs[d] = NULL;
			return -1;
		}
		sources[d] = xasprintf("%s/source", point_dirs[d]);
		if (source_kib >= 0 && lay_out_source(sources[d], source_kib, res->reason, sizeof(res->reason)) < 0)
			return -1;
	}
	return 0;
}

int engine_run_point(const struct engine_point *pt, const struct engine_scratch *s,
		     struct engine_result *res)
{
	static unsigned point_seq;
	uint64_t begin_ns = clock_now_ns();
	memset(res, 0, sizeof(*res));
	res->valid = 1;
	BUG_ON(pt->jobs_per_task == 0 || pt->file_kib <= 0); /* a point made without its schedule's facts */
	res->jobs_per_task = pt->jobs_per_task;
	res->tests = xcalloc(pt->wf->count, sizeof(*res->tests));
	long long kib = pt->file_kib;
	unsigned flags = workfile_flags(pt->wf);
	int need_source = (flags & TF_SOURCE) != 0;
	/* a mix that touches no file needs no point dir: two metadata operations saved a point */
	int need_dirs = (flags & (TF_SOURCE | TF_DISK | TF_SCRATCH)) != 0;
	unsigned seq = point_seq++;

	char **point_dirs = xcalloc(s->count, sizeof(char *));
	char **sources = xcalloc(s->count, sizeof(char *));
	int rc = 0;
	if (pt->opts->drop_caches && drop_caches(res->reason, sizeof(res->reason)) < 0)
		rc = -1;
	for (size_t d = 0; d < s->count && (flags & TF_DISK) && !engine_interrupted(); d++)
		flush_dir(s->roots[d]); /* a stop must not wait for writeback */
	if (rc == 0)
		rc = make_point_dirs(s, seq, need_dirs, need_source ? kib : -1, point_dirs, sources, res);
	size_t ncpus = 0;
	cpu_set_t confine;
	int *cpus = rc == 0 ? point_cpus(pt, &ncpus, &confine) : NULL;
	if (rc == 0 && pt->opts->pin && ncpus == 0) {
		snprintf(res->reason, sizeof(res->reason), "--pin: cannot read the CPUs allowed: %s", strerror(errno));
		rc = -1;
	}
	if (rc == 0) {
		struct task_args proto = {
			.cpus = cpus,
			.ncpus = ncpus,
			.confine = pt->cpus ? &confine : NULL,
			.pt = pt,
			.point_dirs = (const char *const *)point_dirs,
			.sources = (const char *const *)sources,
			.nsources = s->count,
			.file_kib = kib,
			.dio_align = dio_alignment(s->roots[0]),
			.exec_helper = s->exec_helper,
			.script_dir = s->script_dir,
			.ipc_key = s->ipc_key,
		};
		res->phases.setup_s = (double)(clock_now_ns() - begin_ns) / 1e9;
		rc = engine_fork_point(pt, &proto, res);
	}
	uint64_t cleanup_ns = clock_now_ns();
	if (rc < 0) {
		res->valid = 0;
		res->fatal = 1;
	}
	for (size_t d = 0; d < s->count; d++) {
		if (need_dirs && point_dirs[d] && remove_tree(point_dirs[d]) < 0)
			log_warn("could not remove %s: %s", point_dirs[d], strerror(errno));
		free(point_dirs[d]);
		free(sources[d]);
	}
	free(point_dirs);
	free(sources);
	free(cpus);
	uint64_t end_ns = clock_now_ns();
	res->phases.cleanup_s = (double)(end_ns - cleanup_ns) / 1e9;
	res->point_overhead_s = (double)(end_ns - begin_ns) / 1e9 - res->real_s;
	res->overhead_warning = engine_overhead_check(&res->phases, pt->tasks, res->overhead_note,
						      sizeof(res->overhead_note));
	log_debug("%d tasks: overhead %.1f ms: set-up %.1f, start %.1f, finish %.1f, clean-up %.1f",
		  pt->tasks, res->point_overhead_s * 1e3, res->phases.setup_s * 1e3, res->phases.start_s * 1e3,
		  res->phases.finish_s * 1e3, res->phases.cleanup_s * 1e3);
	return rc;
}
