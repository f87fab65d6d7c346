/* Checks made before anything is forked or stored: the disk dirs, the helper programs, and
 * the system limits the largest point would hit. Each refusal names the limit, the value
 * needed and the setting to change. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli.h"
#include "config/cfg.h"
#include "util/util.h"

/* The largest task count a workload can reach. */
static long long max_tasks_of(const struct run_opts *o)
{
	long long m = 0;
	for (size_t i = 0; i < o->tasks.count; i++)
		m = o->tasks.n[i] > m ? o->tasks.n[i] : m;
	if (o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK || o->mode == MODE_PEAK)
		m = o->max_tasks > m ? o->max_tasks : m;
	return o->mode == MODE_SINGLE ? 1 : m;
}

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

static int check_dir(const char *dir, const char *wl, unsigned flags, long long need_kib)
{
	struct stat st;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		log_error("disk dir %s: %s", dir, errno ? strerror(errno) : "not a directory");
		return -1;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		log_error("disk dir %s is not writable: %s", dir, strerror(errno));
		return -1;
	}
	struct statvfs vfs;
	if (need_kib > 0 && statvfs(dir, &vfs) == 0) {
		long long free_kib = (long long)(vfs.f_bavail * (vfs.f_frsize / 1024.0));
		if (free_kib < need_kib) {
			log_error("workload %s needs about %lld MiB in %s at its largest point, but only %lld MiB "
				  "are free (lower FILESIZE/POOLSIZE or the task counts, or use another -d DIR)",
				  wl, need_kib / 1024, dir, free_kib / 1024);
			return -1;
		}
	}
	if (flags & TF_DIRECT) {
		char *probe = xasprintf("%s/.reaim-dio-probe-%ld", dir, (long)getpid());
		int fd = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_DIRECT | O_CLOEXEC, 0600);
		int err = errno;
		if (fd >= 0)
			close(fd);
		unlink(probe);
		free(probe);
		if (fd < 0 && err == EINVAL) {
			log_error("workload %s uses O_DIRECT tests, but %s does not support O_DIRECT "
				  "(use -d on a disk filesystem, or drop the disk_dio_* tests)", wl, dir);
			return -1;
		}
	}
	return 0;
}

/* Processes, files and IPC objects the largest point needs, against the system's limits. */
static int check_limits(const char *wl, long long tasks, unsigned flags, int sysv)
{
	int rc = 0;
	/* fork_test, exec_test and the shell scripts add a few short-lived processes per task */
	long long procs = tasks * ((flags & TF_FORKS) ? 4 : 1) + 16;
	struct rlimit rl;
	if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (long long)rl.rlim_cur < procs) {
		log_error("workload %s: %lld tasks need up to %lld processes, but RLIMIT_NPROC is %llu "
			  "(raise it with `ulimit -u %lld`)", wl, tasks, procs, (unsigned long long)rl.rlim_cur, procs);
		rc = -1;
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
	if (sysv && read_numbers("/proc/sys/kernel/shmmni", v, 1) == 1 && v[0] < tasks) {
		log_error("workload %s: shared_memory in %lld tasks needs %lld SysV segments at once, but "
			  "kernel.shmmni is %lld (raise it with `sysctl kernel.shmmni=%lld`)", wl, tasks, tasks, v[0], tasks);
		rc = -1;
	}
	/* kernel.sem: SEMMSL SEMMNS SEMOPM SEMMNI */
	if (sysv && read_numbers("/proc/sys/kernel/sem", v, 4) == 4 && (v[3] < tasks || v[1] < tasks)) {
		log_error("workload %s: shared_memory in %lld tasks needs %lld semaphore sets, but kernel.sem is "
			  "'%lld %lld %lld %lld' (raise SEMMNS and SEMMNI, e.g. `sysctl -w kernel.sem=\"%lld %lld %lld %lld\"`)",
			  wl, tasks, tasks, v[0], v[1], v[2], v[3], v[0], tasks > v[1] ? tasks : v[1], v[2],
			  tasks > v[3] ? tasks : v[3]);
		rc = -1;
	}
	if ((flags & TF_NET) && read_numbers("/proc/sys/net/ipv4/ip_local_port_range", v, 2) == 2 &&
	    v[1] - v[0] + 1 < tasks * 2) {
		log_error("workload %s: tcp_test/udp_test in %lld tasks need %lld ephemeral ports, but "
			  "net.ipv4.ip_local_port_range has %lld", wl, tasks, tasks * 2, v[1] - v[0] + 1);
		rc = -1;
	}
	return rc;
}

int preflight(const struct plan *p)
{
	int rc = 0;
	for (size_t w = 0; w < p->nwl; w++) {
		const struct workload *wl = &p->wl[w];
		const struct run_opts *o = &wl->opts;
		unsigned flags = workfile_flags(&wl->wf);
		long long tasks = max_tasks_of(o);
		long long per_dir = (tasks + (long long)o->dirs.count - 1) / (long long)o->dirs.count;
		/* at most one file of n KiB per task at a time, plus the shared source per dir */
		long long need = (flags & TF_SIZED) ? plan_file_kib(o, (int)tasks) * (per_dir + 1) : 0;
		for (size_t d = 0; d < o->dirs.count; d++)
			if (check_dir(o->dirs.v[d], wl->name, flags, need) < 0)
				rc = -1;
		if (check_limits(wl->name, tasks, flags, (flags & TF_SYSV) != 0) < 0)
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
