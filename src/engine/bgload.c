/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Background loads beside a point (--load): a leader process per load, in a process group (and a
 * cgroup) of its own, whose workers do one kind of work over and over, counting its units in a
 * shared page; stopped by SIGTERM, killed whole after a grace time, its files removed. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/bgload.h"
#include "measure/cgroup.h"
#include "measure/measure.h"
#include "util/util.h"

enum load_kind { LOAD_PROCESS, LOAD_IO, LOAD_READ, LOAD_LIST, LOAD_TAR, LOAD_MEM };

const struct bgload_def bgload_table[] = {
	[LOAD_PROCESS] = {.name = "process", .unit = "messages", .workers = 4,
			  .help = "four processes passing a 4 KiB message round a ring of pipes"},
	[LOAD_IO] = {.name = "io", .unit = "MiB written", .workers = 1,
		     .help = "rewriting a file of 1/8 of memory (at most a quarter of the free space), fdatasync'd each pass"},
	[LOAD_READ] = {.name = "read", .unit = "MiB read", .workers = 1,
		       .help = "reading back a file of 1/8 of memory, dropped from the page cache each pass"},
	[LOAD_LIST] = {.name = "list", .unit = "entries", .workers = 1,
		       .help = "walking a tree of 1,024 files (readdir and lstat of each), as ls -lR"},
	[LOAD_TAR] = {.name = "tar", .unit = "files", .workers = 1,
		      .help = "archiving a tree of 256 small files into one file and extracting it again"},
	[LOAD_MEM] = {.name = "mem", .unit = "MiB touched", .workers = 1,
		      .help = "touching more memory than is free, never beyond MemAvailable less a margin"},
};
const size_t bgload_count = ARRAY_SIZE(bgload_table);

const struct bgload_def *bgload_find(const char *name)
{
	for (size_t i = 0; i < bgload_count; i++)
		if (strcmp(bgload_table[i].name, name) == 0)
			return &bgload_table[i];
	return NULL;
}

const char *bgload_list_text(void)
{
	return BGLOAD_NONE ", process, io, read, list, tar, mem";
}

#define MIB (1024LL * 1024)
#define LOAD_MIN_MIB 16

long long bgload_size_from(const struct bgload_def *d, const struct bgload_room *room, long long cap_mib, char *err,
			   size_t errlen)
{
	long long mem_total_kib = room->mem_total_kib, mem_free_kib = room->mem_free_kib,
		  mem_available_kib = room->mem_available_kib, disk_free_kib = room->disk_free_kib;
	long long mib;
	switch ((enum load_kind)(d - bgload_table)) {
	case LOAD_IO:
	case LOAD_READ:
		mib = mem_total_kib / 8 / 1024;
		if (disk_free_kib / 4 / 1024 < mib)
			mib = disk_free_kib / 4 / 1024;
		if (cap_mib > 0 && cap_mib < mib)
			mib = cap_mib;
		if (mib < LOAD_MIN_MIB) {
			snprintf(err, errlen, "no space: %lld MiB free, the %s load needs at least %d MiB (a quarter of the free "
				 "space)", disk_free_kib / 1024, d->name, 4 * LOAD_MIN_MIB);
			return -1;
		}
		return mib;
	case LOAD_MEM: {
		/* more than is free, but never so much the kernel must reclaim what others need */
		long long margin = mem_total_kib / 10 > 256 * 1024 ? mem_total_kib / 10 : 256 * 1024;
		long long want = (mem_free_kib + mem_free_kib / 10) / 1024, bound = (mem_available_kib - margin) / 1024;
		mib = want < bound ? want : bound;
		if (cap_mib > 0 && cap_mib < mib)
			mib = cap_mib;
		if (mib < LOAD_MIN_MIB) {
			snprintf(err, errlen, "not enough memory: %lld MiB available, less a margin of %lld MiB", mem_available_kib / 1024,
				 margin / 1024);
			return -1;
		}
		return mib;
	}
	default: return 0;
	}
}

/* A line "Key: N kB" of /proc/meminfo, in KiB; -1 when absent. */
static long long meminfo_kib(const char *text, const char *key)
{
	const char *p = text ? strstr(text, key) : NULL;
	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

long long bgload_size_mib(const struct bgload_def *d, const char *dir, char *err, size_t errlen)
{
	char *mi = read_text_file("/proc/meminfo", 1 << 16);
	long long total = meminfo_kib(mi, "MemTotal:"), free_kib = meminfo_kib(mi, "MemFree:"),
		  avail = meminfo_kib(mi, "MemAvailable:");
	free(mi);
	struct statvfs v;
	long long disk = statvfs(dir, &v) == 0 ? (long long)(v.f_bavail * v.f_frsize / 1024) : -1;
	const char *cap_text = getenv("REAIM_LOAD_MAX_MIB");
	long long cap = -1;
	if (cap_text && parse_long(cap_text, 1, 1LL << 40, &cap) < 0) {
		snprintf(err, errlen, "$REAIM_LOAD_MAX_MIB is not a number of MiB: %.40s", cap_text);
		return -1;
	}
	if (total < 0 || avail < 0 || free_kib < 0 || disk < 0) {
		snprintf(err, errlen, "cannot read %s", disk < 0 ? "the free space of the disk dir" : "/proc/meminfo");
		return -1;
	}
	const struct bgload_room room = {.mem_total_kib = total, .mem_free_kib = free_kib, .mem_available_kib = avail,
					 .disk_free_kib = disk};
	return bgload_size_from(d, &room, cap, err, errlen);
}

/* The page the leader, its workers and reaim share. */
struct load_shm {
	uint64_t units;
	int ready, failed;
	int stopped;              /* the leader ended its workers because it was asked to */
	pid_t workers[8];         /* for the runnable count of a demand window */
	int nworkers;
	uint64_t read_bytes, write_bytes;
	char why[200];
};

struct bgload {
	const struct bgload_def *def;
	pid_t leader;
	struct load_shm *sh;
	char *dir, *cgroup;
	uint64_t start_ns, mark_ns[2];
	uint64_t units_at[2];
	unsigned long long cpu_at[2];
	int marked[2], cpu_marked[2];
	int ended;                /* reaped already (it died on its own) */
	int status;
	struct rusage ru;
};

static void add_units(struct load_shm *sh, uint64_t n)
{
	__atomic_add_fetch(&sh->units, n, __ATOMIC_RELAXED);
}

static void fail_now(struct load_shm *sh, const char *what, int err)
{
	snprintf(sh->why, sizeof(sh->why), "%s: %s", what, strerror(err));
	__atomic_store_n(&sh->failed, 1, __ATOMIC_RELEASE);
	_exit(1);
}

/* Write len bytes or die saying so. */
static void write_all(struct load_shm *sh, int fd, const char *buf, size_t len, const char *what)
{
	while (len) {
		ssize_t w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			fail_now(sh, what, w < 0 ? errno : ENOSPC);
		buf += w;
		len -= (size_t)w;
	}
}

/* A file of mib MiB (the read load's, laid out before it says ready). */
static void lay_out(struct load_shm *sh, const char *path, long long mib)
{
	static char chunk[1 << 20];
	memset(chunk, 0x5a, sizeof(chunk));
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		fail_now(sh, path, errno);
	for (long long i = 0; i < mib; i++)
		write_all(sh, fd, chunk, sizeof(chunk), path);
	if (fdatasync(fd) < 0 || close(fd) < 0)
		fail_now(sh, path, errno);
}

/* A tree of ndirs x nfiles files of size bytes under root. */
static void make_tree(struct load_shm *sh, const char *root, int ndirs, int nfiles, size_t size)
{
	char buf[4096];
	memset(buf, 'x', sizeof(buf));
	if (mkdir(root, 0700) < 0 && errno != EEXIST)
		fail_now(sh, root, errno);
	for (int d = 0; d < ndirs; d++) {
		char *dir = xasprintf("%s/d%02d", root, d);
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			fail_now(sh, dir, errno);
		for (int f = 0; f < nfiles; f++) {
			char *path = xasprintf("%s/f%03d", dir, f);
			int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (fd < 0)
				fail_now(sh, path, errno);
			write_all(sh, fd, buf, size < sizeof(buf) ? size : sizeof(buf), path);
			if (close(fd) < 0)
				fail_now(sh, path, errno);
			free(path);
		}
		free(dir);
	}
}

/* ---- the workers: each loops until it is killed ---- */

static void work_process(struct load_shm *sh, int (*ring)[2], int n, int me)
{
	char msg[4096];
	memset(msg, 'p', sizeof(msg));
	int in = ring[me][0], out = ring[(me + 1) % n][1];
	if (me == 0)
		write_all(sh, out, msg, sizeof(msg), "pipe");
	for (;;) {
		size_t got = 0;
		while (got < sizeof(msg)) {
			ssize_t r = read(in, msg + got, sizeof(msg) - got);
			if (r <= 0 && !(r < 0 && errno == EINTR))
				fail_now(sh, "pipe", r < 0 ? errno : EPIPE);
			got += r > 0 ? (size_t)r : 0;
		}
		write_all(sh, out, msg, sizeof(msg), "pipe");
		add_units(sh, 1);
	}
}

static void work_io(struct load_shm *sh, const char *path, long long mib)
{
	static char chunk[1 << 20];
	memset(chunk, 0xa5, sizeof(chunk));
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		fail_now(sh, path, errno);
	for (;;) {
		for (long long i = 0; i < mib; i++) {
			write_all(sh, fd, chunk, sizeof(chunk), path);
			add_units(sh, 1);
		}
		if (fdatasync(fd) < 0 || lseek(fd, 0, SEEK_SET) < 0)
			fail_now(sh, path, errno);
	}
}

static void work_read(struct load_shm *sh, const char *path)
{
	static char chunk[1 << 20];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail_now(sh, path, errno);
	for (;;) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); /* from the disk each pass, not the cache */
		if (lseek(fd, 0, SEEK_SET) < 0)
			fail_now(sh, path, errno);
		ssize_t r;
		size_t have = 0;
		while ((r = read(fd, chunk + have, sizeof(chunk) - have)) > 0 || (r < 0 && errno == EINTR)) {
			have += r > 0 ? (size_t)r : 0;
			if (have == sizeof(chunk)) {
				add_units(sh, 1);
				have = 0;
			}
		}
		if (r < 0)
			fail_now(sh, path, errno);
	}
}

/* Every entry under dir (readdir and lstat of each), counted; the count walked. */
static uint64_t walk(struct load_shm *sh, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		fail_now(sh, dir, errno);
	uint64_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			fail_now(sh, e->d_name, errno);
		add_units(sh, 1);
		n++;
		if (S_ISDIR(st.st_mode)) {
			char *sub = xasprintf("%s/%s", dir, e->d_name);
			n += walk(sh, sub);
			free(sub);
		}
	}
	closedir(d);
	return n;
}

static void work_list(struct load_shm *sh, const char *root)
{
	for (;;)
		walk(sh, root);
}

/* One archive of the tree (a header "name size\n" and the bytes of each file), then the tree
 * extracted from it anew: a unit per file archived and per file extracted. */
static void work_tar(struct load_shm *sh, const char *root, const char *archive, const char *out)
{
	char buf[4096];
	for (;;) {
		int a = open(archive, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (a < 0)
			fail_now(sh, archive, errno);
		for (int d = 0; d < 8; d++)
			for (int f = 0; f < 32; f++) {
				char *path = xasprintf("%s/d%02d/f%03d", root, d, f);
				int fd = open(path, O_RDONLY | O_CLOEXEC);
				ssize_t r = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
				if (r < 0)
					fail_now(sh, path, errno);
				close(fd);
				char head[64];
				int hl = snprintf(head, sizeof(head), "d%02d/f%03d %zd\n", d, f, r);
				write_all(sh, a, head, (size_t)hl, archive);
				write_all(sh, a, buf, (size_t)r, archive);
				free(path);
				add_units(sh, 1);
			}
		if (close(a) < 0)
			fail_now(sh, archive, errno);
		if (remove_tree(out) < 0 && errno != ENOENT)
			fail_now(sh, out, errno);
		FILE *in = fopen(archive, "re");
		if (!in || mkdir(out, 0700) < 0)
			fail_now(sh, out, errno);
		char name[32];
		long size;
		while (fscanf(in, "%31s %ld", name, &size) == 2 && fgetc(in) == '\n' && size >= 0 &&
		       (size_t)size <= sizeof(buf)) {
			if (fread(buf, 1, (size_t)size, in) != (size_t)size)
				fail_now(sh, archive, EIO);
			char *dir = xasprintf("%s/%.3s", out, name), *path = xasprintf("%s/%s", out, name);
			if (mkdir(dir, 0700) < 0 && errno != EEXIST)
				fail_now(sh, dir, errno);
			int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (fd < 0)
				fail_now(sh, path, errno);
			write_all(sh, fd, buf, (size_t)size, path);
			close(fd);
			free(dir);
			free(path);
			add_units(sh, 1);
		}
		fclose(in);
	}
}

static void work_mem(struct load_shm *sh, long long mib)
{
	size_t len = (size_t)mib * MIB;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		fail_now(sh, "mmap", errno);
	long page = sysconf(_SC_PAGESIZE);
	for (unsigned char v = 1;; v++)
		for (size_t off = 0; off < len; off += MIB) {
			for (size_t p = off; p < off + MIB && p < len; p += (size_t)page)
				m[p] = (char)v;
			add_units(sh, 1);
		}
}

/* ---- the leader ---- */

/* reaim died: end the load's whole group, the leader included. */
static void group_gone(int sig)
{
	(void)sig;
	kill(0, SIGKILL);
	_exit(128 + SIGKILL);
}

/* Die with the process above (the leader with reaim, a worker with the leader). */
static void die_with(pid_t parent, int whole_group)
{
	if (whole_group) {
		struct sigaction gone = {0};
		gone.sa_handler = group_gone;
		sigfillset(&gone.sa_mask);
		sigaction(SIGRTMIN, &gone, NULL);
	}
	if (prctl(PR_SET_PDEATHSIG, whole_group ? SIGRTMIN : SIGKILL) < 0 || getppid() != parent)
		whole_group ? group_gone(0) : _exit(1);
}

static void leader_io(struct load_shm *sh)
{
	char *io = read_text_file("/proc/self/io", 4096);
	const char *r = io ? strstr(io, "\nread_bytes:") : NULL, *w = io ? strstr(io, "\nwrite_bytes:") : NULL;
	sh->read_bytes = r ? strtoull(r + 12, NULL, 10) : 0;
	sh->write_bytes = w ? strtoull(w + 13, NULL, 10) : 0;
	free(io);
}

/* A worker that ended by itself (the load no longer does its work): said in the shared block. */
static int worker_gone(struct load_shm *sh, const struct bgload_def *d)
{
	int status;
	if (waitpid(-1, &status, WNOHANG) <= 0)
		return 0;
	if (!sh->failed)
		snprintf(sh->why, sizeof(sh->why), "a %s worker ended by itself (status %d)", d->name, status);
	__atomic_store_n(&sh->failed, 1, __ATOMIC_RELEASE);
	return 1;
}

__attribute__((noreturn)) static void leader(const struct bgload_def *d, const char *dir, const char *cg,
					     long long mib, pid_t reaim, struct load_shm *sh)
{
	setpgid(0, 0);
	die_with(reaim, 1);
	if (cg) { /* into its own cgroup before anything is forked: every worker starts there */
		char *procs = xasprintf("%s/cgroup.procs", cg);
		int fd = open(procs, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0", 1) != 1)
			fail_now(sh, procs, errno);
		close(fd);
		free(procs);
	}
	sigset_t term, none;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &term, NULL); /* SIGTERM waited for, never acted on */
	enum load_kind k = (enum load_kind)(d - bgload_table);
	char *file = xasprintf("%s/data", dir), *tree = xasprintf("%s/tree", dir), *archive = xasprintf("%s/a.tar", dir),
	     *out = xasprintf("%s/x", dir);
	int ring[8][2];
	if (k == LOAD_READ)
		lay_out(sh, file, mib);
	if (k == LOAD_LIST)
		make_tree(sh, tree, 16, 64, 0);
	if (k == LOAD_TAR)
		make_tree(sh, tree, 8, 32, 4096);
	for (int i = 0; k == LOAD_PROCESS && i < d->workers; i++)
		if (pipe(ring[i]) < 0)
			fail_now(sh, "pipe", errno);
	pid_t workers[8];
	int nw = 0;
	for (int i = 0; i < d->workers; i++) {
		pid_t pid = fork();
		if (pid < 0)
			fail_now(sh, "fork", errno);
		if (pid == 0) {
			sigprocmask(SIG_SETMASK, &none, NULL);
			signal(SIGTERM, SIG_DFL);
			die_with(getppid() == 1 ? 1 : getppid(), 0);
			switch (k) {
			case LOAD_PROCESS: work_process(sh, ring, d->workers, i); break;
			case LOAD_IO: work_io(sh, file, mib); break;
			case LOAD_READ: work_read(sh, file); break;
			case LOAD_LIST: work_list(sh, tree); break;
			case LOAD_TAR: work_tar(sh, tree, archive, out); break;
			case LOAD_MEM: work_mem(sh, mib); break;
			}
			_exit(0);
		}
		workers[nw++] = pid;
		sh->workers[sh->nworkers++] = pid;
	}
	__atomic_store_n(&sh->ready, 1, __ATOMIC_RELEASE);
	struct timespec second = {1, 0};
	for (;;) {
		int asked = sigtimedwait(&term, NULL, &second) >= 0;
		if (worker_gone(sh, d) || (!asked && getppid() != reaim))
			break;
		if (asked) {
			__atomic_store_n(&sh->stopped, 1, __ATOMIC_RELEASE);
			break;
		}
	}
	for (int i = 0; i < nw; i++)
		kill(workers[i], SIGKILL);
	while (wait(NULL) > 0 || errno == EINTR) /* their CPU and I/O are the leader's once reaped */
		;
	leader_io(sh);
	remove_tree(dir);
	_exit(sh->failed ? 1 : 0);
}

static uint64_t elapsed_ns(uint64_t since)
{
	return clock_now_ns() - since;
}

/* The load's cgroup's CPU so far, in microseconds; -1 without one. */
static int cgroup_cpu(const struct bgload *l, unsigned long long *usec)
{
	if (!l->cgroup)
		return -1;
	char *path = xasprintf("%s/cpu.stat", l->cgroup), *text = read_text_file(path, 4096);
	struct cgroup_cpu c;
	int rc = text && cgroup_parse_cpu_stat(text, &c) == 0 ? 0 : -1;
	free(path);
	free(text);
	if (rc == 0)
		*usec = c.usage_usec;
	return rc;
}

static void mark(struct bgload *l, int which)
{
	l->mark_ns[which] = clock_now_ns();
	l->units_at[which] = __atomic_load_n(&l->sh->units, __ATOMIC_RELAXED);
	l->cpu_marked[which] = cgroup_cpu(l, &l->cpu_at[which]) == 0;
	l->marked[which] = 1;
}

/* Whether /proc/PID/stat says the process is runnable (state R). */
static int runnable(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	char *text = read_text_file(path, 4096), *end = text ? strrchr(text, ')') : NULL;
	int r = end && end[1] == ' ' && end[2] == 'R';
	free(text);
	return r;
}

int bgload_runnable(const struct bgload *l)
{
	int n = runnable(l->leader);
	for (int i = 0; i < l->sh->nworkers && i < (int)ARRAY_SIZE(l->sh->workers); i++)
		n += runnable(l->sh->workers[i]);
	return n;
}

double bgload_cpu_s(const struct bgload *l)
{
	unsigned long long usec;
	return cgroup_cpu(l, &usec) == 0 ? (double)usec / 1e6 : NAN;
}

void bgload_mark_start(struct bgload *l)
{
	mark(l, 0);
}

void bgload_mark_end(struct bgload *l)
{
	mark(l, 1);
}

/* Kill whatever of the load is left (its group, its cgroup), reap the leader, remove what it made. */
static void take_down(struct bgload *l)
{
	if (!l->ended) {
		kill(-l->leader, SIGKILL);
		kill(l->leader, SIGKILL);
		while (wait4(l->leader, &l->status, 0, &l->ru) < 0 && errno == EINTR)
			;
		l->ended = 1;
	}
	if (l->cgroup) {
		char *kill_file = xasprintf("%s/cgroup.kill", l->cgroup);
		int fd = open(kill_file, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (write(fd, "1", 1) != 1)
				log_debug("%s: %s", kill_file, strerror(errno));
			close(fd);
		}
		free(kill_file);
		for (int i = 0; i < 100 && rmdir(l->cgroup) < 0 && errno == EBUSY; i++)
			usleep(10000);
	}
	if (remove_tree(l->dir) < 0 && errno != ENOENT)
		log_warn("load %s: removing %s: %s", l->def->name, l->dir, strerror(errno));
}

static void load_free(struct bgload *l)
{
	munmap(l->sh, sizeof(*l->sh));
	free(l->dir);
	free(l->cgroup);
	free(l);
}

int bgload_start(const struct bgload_def *d, const struct bgload_setup *at, struct bgload **out, char *err,
		 size_t errlen)
{
	const char *dir = at->dir, *cgroup_dir = at->cgroup_dir;
	double timeout_s = at->timeout_s;
	int (*stop)(void) = at->stop;
	*out = NULL;
	char size_why[200];
	long long mib = bgload_size_mib(d, dir, size_why, sizeof(size_why));
	if (mib < 0) {
		snprintf(err, errlen, "load %s could not start: %s", d->name, size_why);
		return -1;
	}
	struct bgload *l = xcalloc(1, sizeof(*l));
	l->def = d;
	l->sh = mmap(NULL, sizeof(*l->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (l->sh == MAP_FAILED) {
		snprintf(err, errlen, "load %s: mmap: %s", d->name, strerror(errno));
		free(l);
		return -1;
	}
	l->dir = xasprintf("%s/load-%s", dir, d->name);
	if (mkdir(l->dir, 0700) < 0) {
		snprintf(err, errlen, "load %s: mkdir %s: %s", d->name, l->dir, strerror(errno));
		load_free(l);
		return -1;
	}
	if (cgroup_dir) {
		l->cgroup = xstrdup(cgroup_dir);
		if (mkdir(l->cgroup, 0755) < 0) {
			log_debug("load %s: no cgroup of its own (%s: %s)", d->name, l->cgroup, strerror(errno));
			free(l->cgroup);
			l->cgroup = NULL;
		}
	}
	pid_t reaim = getpid();
	fflush(NULL);
	l->leader = fork();
	if (l->leader < 0) {
		snprintf(err, errlen, "load %s: fork: %s", d->name, strerror(errno));
		l->ended = 1;
		take_down(l);
		load_free(l);
		return -1;
	}
	if (l->leader == 0)
		leader(d, l->dir, l->cgroup, mib, reaim, l->sh);
	setpgid(l->leader, l->leader); /* both sides: the group exists before either goes on */
	l->start_ns = clock_now_ns();
	while (!__atomic_load_n(&l->sh->ready, __ATOMIC_ACQUIRE)) {
		int status;
		pid_t gone = waitpid(l->leader, &status, WNOHANG);
		const char *fault = gone == l->leader ? (l->sh->why[0] ? l->sh->why : "its leader ended before it was ready")
				    : (double)elapsed_ns(l->start_ns) / 1e9 > timeout_s ? "not ready within the time limit"
				    : stop && stop() ? "stopped"
						     : NULL;
		if (gone == l->leader)
			l->ended = 1;
		if (fault) {
			snprintf(err, errlen, "load %s could not start: %s", d->name, fault);
			take_down(l);
			load_free(l);
			return -1;
		}
		usleep(2000);
	}
	*out = l;
	return 0;
}

int bgload_stop(struct bgload *l, struct bgload_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (!l->marked[1])
		mark(l, 1);
	int died = 1;
	if (!l->ended) {
		/* the leader is reaim's child, so a wait for any child elsewhere (the engine's) may have
		 * reaped it already: then it is gone too, and its pid no longer ours to signal */
		pid_t w = waitpid(l->leader, &l->status, WNOHANG);
		died = w == l->leader || (w < 0 && errno == ECHILD);
		if (died)
			l->ended = 1;
		else
			kill(l->leader, SIGTERM);
	}
	uint64_t t0 = clock_now_ns();
	while (!l->ended && elapsed_ns(t0) < 5000000000ULL) {
		pid_t got = wait4(l->leader, &l->status, WNOHANG, &l->ru);
		if (got == l->leader || (got < 0 && errno == ECHILD))
			l->ended = 1;
		else
			usleep(2000);
	}
	int failed = died || __atomic_load_n(&l->sh->failed, __ATOMIC_ACQUIRE) ||
		     !__atomic_load_n(&l->sh->stopped, __ATOMIC_ACQUIRE);
	take_down(l);
	r->units = (double)(l->units_at[1] - (l->marked[0] ? l->units_at[0] : 0));
	r->window = l->cpu_marked[0] && l->cpu_marked[1];
	if (r->window) {
		r->cpu_s = (double)(l->cpu_at[1] - l->cpu_at[0]) / 1e6;
		r->wall_s = (double)(l->mark_ns[1] - l->mark_ns[0]) / 1e9;
	} else {
		r->cpu_s = (double)(l->ru.ru_utime.tv_sec + l->ru.ru_stime.tv_sec) +
			   (double)(l->ru.ru_utime.tv_usec + l->ru.ru_stime.tv_usec) / 1e6;
		r->wall_s = (double)elapsed_ns(l->start_ns) / 1e9;
	}
	r->read_bytes = (double)l->sh->read_bytes;
	r->write_bytes = (double)l->sh->write_bytes;
	if (failed)
		snprintf(err, errlen, "load %s ended before the point did: %s", l->def->name,
			 l->sh->why[0] ? l->sh->why : "its processes ended before it was asked to stop");
	load_free(l);
	return failed ? -1 : 0;
}
