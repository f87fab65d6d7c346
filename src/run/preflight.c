/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks made before anything is forked or stored: the disk dirs, the helper programs, and
 * the system limits the largest point would hit. Each refusal names the limit, the value
 * needed and the setting to change. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "measure/cputopo.h"
#include "run/run.h"
#include "config/cfg.h"
#include "run/point_hook.h"
#include "util/util.h"

/* Read up to n numbers from a /proc/sys file; how many were read. */
static int read_numbers(const char *path, long long *v, int n)
{
	char *text = read_text_file(path, 4096);
	int got = 0;
	char *p = text, *end;
	while (text && got < n) {
		long long x = strtoll(p, &end, 10);
		if (end == p)
			break;
		v[got++] = x;
		p = end;
	}
	free(text);
	return got;
}

/* A size as a person reads it: KiB below 10 MiB, so a small need is never "0 MiB". */
static void kib_text(char *buf, size_t len, long long kib)
{
	if (kib >= 10 * 1024)
		snprintf(buf, len, "%lld MiB", kib / 1024);
	else
		snprintf(buf, len, "%lld KiB", kib);
}

/* What every task does in a disk dir whatever its mix: a scratch dir of its own, a file in it.
 * Tried once here with names of our own (mkdtemp), so /proc, /sys, a read-only or full
 * filesystem is refused before anything is forked or stored; -1 after saying why. */
static int probe_dir(const char *dir)
{
	char *tmp = xasprintf("%s/.reaim-probe-XXXXXX", dir), *file = NULL;
	const char *step = "cannot create a directory there";
	int ok = 0, fd = -1;
	if (mkdtemp(tmp)) {
		chmod(tmp, 0700); /* as the run makes its own: a caller's umask 0777 must not lock us out */
		file = xasprintf("%s/f", tmp);
		step = "cannot create a file there";
		fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			step = "cannot write a file there";
			ok = write(fd, "x", 1) == 1;
		}
	}
	int err = errno;
	if (fd >= 0) {
		close(fd);
		unlink(file);
	}
	if (file)
		rmdir(tmp);
	if (!ok)
		log_error("disk dir %s: the tasks cannot work there: %s: %s", dir, step, strerror(err));
	free(file);
	free(tmp);
	return ok ? 0 : -1;
}

static int check_dir(const char *dir, const char *wl, unsigned flags, long long need_kib, long long need_inodes)
{
	struct stat st;
	errno = 0;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		log_error("disk dir %s: %s", dir, errno ? strerror(errno) : "not a directory");
		return -1;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		log_error("disk dir %s is not writable: %s", dir, strerror(errno));
		return -1;
	}
	if (probe_dir(dir) < 0)
		return -1;
	struct statvfs vfs;
	if (statvfs(dir, &vfs) == 0) {
		long long free_kib = (long long)((double)vfs.f_bavail * ((double)vfs.f_frsize / 1024.0));
		char need[32], have[32];
		kib_text(need, sizeof(need), need_kib);
		kib_text(have, sizeof(have), free_kib);
		if (need_kib > 0 && free_kib < need_kib) {
			log_error("workload %s needs about %s in %s at its largest point, but only %s "
				  "are free (lower FILESIZE/POOLSIZE or the task counts, or use another -d DIR)",
				  wl, need, dir, have);
			return -1;
		}
		/* f_files 0: the filesystem keeps no count (btrfs) */
		if (vfs.f_files > 0 && (long long)vfs.f_favail < need_inodes) {
			log_error("workload %s needs about %lld inodes in %s at its largest point (a dir and a file "
				  "per task), but only %llu are free (use another -d DIR, or fewer tasks per dir)",
				  wl, need_inodes, dir, (unsigned long long)vfs.f_favail);
			return -1;
		}
	}
	if (flags & TF_DIRECT) {
		/* a probe of our own, made unique with O_EXCL by mkostemp: only it is ever removed */
		char *probe = xasprintf("%s/.reaim-dio-probe-XXXXXX", dir);
		int fd = mkostemp(probe, O_CLOEXEC);
		if (fd < 0) {
			log_error("disk dir %s: cannot create a probe file: %s", dir, strerror(errno));
			free(probe);
			return -1;
		}
		close(fd);
		fd = open(probe, O_RDONLY | O_DIRECT | O_CLOEXEC);
		int err = errno;
		if (fd >= 0)
			close(fd);
		if (unlink(probe) < 0)
			log_warn("could not remove the probe file %s: %s", probe, strerror(errno));
		free(probe);
		if (fd < 0 && err == EINVAL) {
			log_error("workload %s uses O_DIRECT tests, but %s does not support O_DIRECT "
				  "(use -d on a disk filesystem, or drop the disk_dio_* tests)", wl, dir);
			return -1;
		}
	}
	return 0;
}

/* Threads of every process whose real uid is ours: what RLIMIT_NPROC counts against us. */
static long long user_threads(void)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	long long n = 0;
	struct dirent *e;
	uid_t me = getuid();
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		char path[64];
		snprintf(path, sizeof(path), "/proc/%.20s/status", e->d_name);
		char *text = read_text_file(path, 1 << 16);
		const char *uid = text ? strstr(text, "\nUid:") : NULL, *thr = text ? strstr(text, "\nThreads:") : NULL;
		if (uid && thr && strtoul(uid + 5, NULL, 10) == me)
			n += strtoll(thr + 9, NULL, 10);
		free(text);
	}
	closedir(d);
	return n;
}

/* Open descriptors of this process now. */
static long long open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	long long n = 0;
	while (readdir(d))
		n++;
	closedir(d);
	return n - 2; /* . and .. */
}

/* This process's address space (VmSize), in KiB, or -1. */
static long long vm_size_kib(void)
{
	char *text = read_text_file("/proc/self/status", 1 << 16);
	const char *v = text ? strstr(text, "\nVmSize:") : NULL;
	long long kib = v ? strtoll(v + 8, NULL, 10) : -1;
	free(text);
	return kib;
}

/* The cgroup's pids and memory limits (every level up to the mount), against what the largest
 * point adds. */
static int check_cgroup(const char *wl, long long tasks, long long procs, long long mem_kib)
{
	int rc = 0;
	struct cgroup_dir cg;
	struct cgroup_limit lim = {0};
	if (cgroup_find("pids", &cg) == 0 && cgroup_headroom(&cg, "pids.max", "pids.current", LLONG_MAX, &lim) == 1 &&
	    lim.headroom < procs) {
		log_error("workload %s: %lld tasks need up to %lld processes, but the cgroup (v%d) allows %lld more "
			  "(%s is %lld, %lld in use; raise it, or run outside this cgroup)", wl, tasks, procs,
			  cg.v2 ? 2 : 1, lim.headroom, lim.file, lim.max, lim.used);
		rc = -1;
	}
	cgroup_dir_free(&cg);
	free(lim.file);
	lim.file = NULL;
	/* v1 reports no limit as a huge number rounded to the page: anything past 2^60 is none */
	if (cgroup_find("memory", &cg) == 0 &&
	    cgroup_headroom(&cg, cg.v2 ? "memory.max" : "memory.limit_in_bytes",
			    cg.v2 ? "memory.current" : "memory.usage_in_bytes", 1LL << 60, &lim) == 1 &&
	    lim.headroom / 1024 < mem_kib) {
		log_error("workload %s: %lld tasks need about %lld MiB of memory, but the cgroup (v%d) has %lld MiB "
			  "left (%s is %lld MiB, %lld MiB in use; raise it, or lower the task count or FILESIZE)", wl,
			  tasks, mem_kib / 1024, cg.v2 ? 2 : 1, lim.headroom >> 20, lim.file, lim.max >> 20, lim.used >> 20);
		rc = -1;
	}
	cgroup_dir_free(&cg);
	free(lim.file);
	return rc;
}

/* System V objects already in use count against the limits the tests need. */
static int check_sysv(const char *wl, long long tasks)
{
	int rc = 0;
	struct sysv_obj *objs;
	size_t nsets = 0, nsegs = 0;
	long long sems = 0, seg_pages = 0, page_kib = sysconf(_SC_PAGESIZE) / 1024;
	if (sysv_list(SYSV_SEM, &objs, &nsets) == 0) {
		for (size_t i = 0; i < nsets; i++)
			sems += (long long)objs[i].size;
		free(objs);
	}
	if (sysv_list(SYSV_SHM, &objs, &nsegs) == 0) {
		for (size_t i = 0; i < nsegs; i++)
			seg_pages += (long long)((objs[i].size + 4095) / 4096);
		free(objs);
	}
	long long v[4];
	if (read_numbers("/proc/sys/kernel/shmmni", v, 1) == 1 && v[0] - (long long)nsegs < tasks) {
		log_error("workload %s: shared_memory in %lld tasks needs %lld SysV segments at once, but kernel.shmmni "
			  "is %lld and %zu are in use (ipcs -m; raise it with `sysctl kernel.shmmni=%lld`)", wl, tasks,
			  tasks, v[0], nsegs, tasks + (long long)nsegs);
		rc = -1;
	}
	long long pages = tasks * (64 / (page_kib > 0 ? page_kib : 4));
	if (read_numbers("/proc/sys/kernel/shmall", v, 1) == 1 && v[0] >= 0 && v[0] - seg_pages < pages) {
		log_error("workload %s: shared_memory in %lld tasks needs %lld pages of SysV shared memory, but "
			  "kernel.shmall is %lld and %lld are in use (ipcs -m; raise it with `sysctl kernel.shmall=%lld`)",
			  wl, tasks, pages, v[0], seg_pages, pages + seg_pages);
		rc = -1;
	}
	/* kernel.sem: SEMMSL SEMMNS SEMOPM SEMMNI */
	if (read_numbers("/proc/sys/kernel/sem", v, 4) == 4 &&
	    (v[3] - (long long)nsets < tasks || v[1] - sems < tasks)) {
		long long mns = tasks + sems > v[1] ? tasks + sems : v[1], mni = tasks + (long long)nsets > v[3] ? tasks + (long long)nsets : v[3];
		log_error("workload %s: shared_memory in %lld tasks needs %lld semaphore sets, but kernel.sem is "
			  "'%lld %lld %lld %lld' with %zu sets (%lld semaphores) in use (ipcs -s; raise SEMMNS and SEMMNI, "
			  "e.g. `sysctl -w kernel.sem=\"%lld %lld %lld %lld\"`)",
			  wl, tasks, tasks, v[0], v[1], v[2], v[3], nsets, sems, v[0], mns, v[2], mni);
		rc = -1;
	}
	return rc;
}

/* Per-task memory beyond what it shares with the parent: measured at 0.5 to 1.9 MiB of private
 * pages (RssAnon) over the alltests mix, the sieve's 1 MB buffer the largest part. The disk
 * tests' page cache is not counted: the cgroup reclaims it rather than failing. */
#define TASK_MEM_KIB 2048
/* Descriptors the run holds open besides those inherited (database, signalfd, eventfds, sampler
 * files) plus what one test opens at once (sockets, pipes, two files): every task inherits the
 * parent's descriptors and adds its test's. */
#define RUN_FDS 32
#define TEST_FDS 16

/* Processes, files, memory and IPC objects the largest point needs, against the limits. */
static int check_limits(const struct run_opts *o, const char *wl, const struct schedule_point *reach, unsigned flags)
{
	int rc = 0;
	long long tasks = reach->tasks;
	/* fork_test, exec_test and the shell scripts add a few short-lived processes per task */
	long long procs = tasks * ((flags & TF_FORKS) ? 4 : 1) + 16;
	struct rlimit rl;
	if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		long long have = user_threads(), limit = (long long)rl.rlim_cur;
		have = have > 0 ? have : 0;
		if (limit < procs + have) {
			log_error("workload %s: %lld tasks need up to %lld processes, but RLIMIT_NPROC is %lld (raise it "
				  "with `ulimit -u %lld`): your user already has %lld processes and threads", wl, tasks, procs,
				  limit, procs + have, have);
			rc = -1;
		}
	}
	long long v[4];
	if (read_numbers("/proc/sys/kernel/pid_max", v, 1) == 1 && v[0] < procs + 1000) {
		log_error("workload %s: %lld tasks need up to %lld processes, but kernel.pid_max is %lld "
			  "(raise it with `sysctl kernel.pid_max=%lld`)", wl, tasks, procs, v[0], procs * 2);
		rc = -1;
	}
	if (read_numbers("/proc/sys/kernel/threads-max", v, 1) == 1 && v[0] < procs + 1000) {
		log_error("workload %s: %lld tasks need up to %lld threads, but kernel.threads-max is %lld "
			  "(raise it with `sysctl kernel.threads-max=%lld`)", wl, tasks, procs, v[0], procs * 2);
		rc = -1;
	}
	long long files = tasks * 8;
	if (read_numbers("/proc/sys/fs/file-max", v, 1) == 1 && v[0] < files) {
		log_error("workload %s: %lld tasks may hold %lld open files, but fs.file-max is %lld "
			  "(raise it with `sysctl fs.file-max=%lld`)", wl, tasks, files, v[0], files * 2);
		rc = -1;
	}
	long long fds = open_fds() + RUN_FDS + (long long)o->dirs.count + TEST_FDS;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (long long)rl.rlim_cur < fds) {
		log_error("workload %s: reaim and each task need up to %lld open files, but RLIMIT_NOFILE is %llu "
			  "(raise it with `ulimit -n %lld`)", wl, fds, (unsigned long long)rl.rlim_cur, fds * 2);
		rc = -1;
	}
	/* each task starts as a copy of reaim's address space, then its tests allocate */
	long long vm = vm_size_kib();
	if (vm > 0 && getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (long long)(rl.rlim_cur / 1024) < vm + 32 * TASK_MEM_KIB) {
		log_error("workload %s: each task needs about %lld MiB of address space, but RLIMIT_AS is %llu MiB "
			  "(raise it with `ulimit -v %lld`)", wl, (vm + 32 * TASK_MEM_KIB) / 1024,
			  (unsigned long long)(rl.rlim_cur >> 20), (vm + 32 * TASK_MEM_KIB) * 2);
		rc = -1;
	}
	long long file_kib = (flags & TF_SIZED) ? reach->file_kib : 0;
	if (check_cgroup(wl, tasks, procs, tasks * TASK_MEM_KIB) < 0)
		rc = -1;
	/* a task's file beyond the file-size limit would kill it with SIGXFSZ mid-point */
	if ((flags & TF_SIZED) && getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (long long)(rl.rlim_cur / 1024) < file_kib) {
		log_error("workload %s: the disk tests write files of %lld KiB, but RLIMIT_FSIZE is %llu KiB "
			  "(raise it with `ulimit -f`, or lower FILESIZE/POOLSIZE)", wl, file_kib,
			  (unsigned long long)(rl.rlim_cur / 1024));
		rc = -1;
	}
	if ((flags & TF_SYSV) && check_sysv(wl, tasks) < 0)
		rc = -1;
	if ((flags & TF_NET) && read_numbers("/proc/sys/net/ipv4/ip_local_port_range", v, 2) == 2 &&
	    v[1] - v[0] + 1 < tasks * 2) {
		log_error("workload %s: tcp_test/udp_test in %lld tasks need %lld ephemeral ports, but "
			  "net.ipv4.ip_local_port_range has %lld", wl, tasks, tasks * 2, v[1] - v[0] + 1);
		rc = -1;
	}
	return rc;
}

/* Inherited settings that do not stop a run but change what it measures or how it ends. */
static void warn_inherited(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_CPU, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		log_warn("RLIMIT_CPU is %llu s: reaim or a task that uses that much CPU time is killed "
			 "(raise it with `ulimit -t unlimited`)", (unsigned long long)rl.rlim_cur);
	cpu_set_t set;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && online > 0 && CPU_COUNT(&set) < online)
		log_warn("reaim may use only %d of the %ld online CPUs (its CPU affinity: taskset, numactl or a "
			 "cpuset), and so may its tasks", CPU_COUNT(&set), online);
}

/* --cpus: every count within the CPUs reaim may use (the online ones, less its affinity or cpuset). */
static int check_cpus(const struct run_opts *o, const char *wl)
{
	if (!o->cpus.count)
		return 0;
	int *allowed = xcalloc(CPU_SETSIZE, sizeof(int));
	int n = cputopo_allowed(allowed, CPU_SETSIZE), rc = 0;
	free(allowed);
	if (n < 0) {
		log_error("%s: --cpus: cannot read the CPUs reaim may use: %s", wl, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < o->cpus.count; i++)
		if (o->cpus.n[i] > n) {
			log_error("%s: --cpus %d: reaim may use only %d CPU%s here (online CPUs less its affinity or "
				  "cpuset)", wl, o->cpus.n[i], n, n == 1 ? "" : "s");
			rc = -1;
		}
	return rc;
}

int preflight(const struct schedule *s)
{
	int rc = 0;
	warn_inherited();
	for (size_t w = 0; w < s->nwl; w++) {
		const struct schedule_workload *sw = &s->wl[w];
		const struct workload *wl = sw->wl;
		const struct run_opts *o = &wl->opts;
		unsigned flags = workfile_flags(&wl->wf);
		long long tasks = sw->reach.tasks; /* the most its points reach: what room is checked for */
		long long per_dir = (tasks + (long long)o->dirs.count - 1) / (long long)o->dirs.count;
		/* at most one file of n KiB per task at a time, plus the shared source per dir */
		long long need = (flags & TF_SIZED) ? sw->reach.file_kib * (per_dir + 1) : 0;
		for (size_t d = 0; d < o->dirs.count; d++)
			if (check_dir(o->dirs.v[d], wl->name, flags, need, 2 * per_dir + 2) < 0)
				rc = -1;
		if (check_limits(o, wl->name, &sw->reach, flags) < 0)
			rc = -1;
		char why[400];
		if (point_hook_check(sw, why, sizeof(why)) < 0) {
			log_error("%s", why);
			rc = -1;
		}
		if (check_cpus(o, wl->name) < 0)
			rc = -1;
		if (o->drop_caches && access("/proc/sys/vm/drop_caches", W_OK) < 0) {
			log_error("%s: --drop-caches needs root (/proc/sys/vm/drop_caches: %s)", wl->name,
				  strerror(errno));
			rc = -1;
		}
		if (flags & TF_FORKS) {
			char *helper = find_helper("reaim-exec-helper");
			char *script = find_data_file("scripts", "shell_rtns_1.sh");
			if (!helper || !script) {
				log_error("the exec_test helper or the shell_rtns scripts were not found "
					  "(looked beside %s and in %s)", exe_dir() ? exe_dir() : "the binary", PKGDATADIR);
				rc = -1;
			}
			free(helper);
			free(script);
		}
	}
	return rc;
}
