/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the cgroup parsers on literal texts of hybrid, pure v2 and container machines, the figures
 * between readings by hand, and, where cgroups are writable, real points: CPU against wait4, memory
 * peak, I/O, and a kill that leaves no process or zombie, with and without cgroup.kill. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/cgroup.h"
#include "measure/cputopo.h"
#include "measure/measure.h"
#include "tap.h"
#include "testfs.h"
#include "util/util.h"

/* This machine's layout: v1 controllers, cgroup2 at /sys/fs/cgroup/unified with none. */
static const char mi_hybrid[] =
	"24 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
static const char self_hybrid[] =
	"9:name=systemd:/\n8:pids:/\n7:blkio:/\n4:memory:/process_api/25c3\n2:cpuacct:/\n1:cpu:/\n0::/\n";

/* A current distribution: pure v2, with optional fields before the separator. */
static const char mi_v2[] =
	"22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw\n"
	"30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
	"rw,nsdelegate,memory_recursiveprot\n";
static const char self_v2[] = "0::/user.slice/user-1000.slice/session-2.scope\n";

/* A container whose cgroup2 mount shows a subtree, at a path with a blank in it. */
static const char mi_container[] =
	"500 400 0:40 /docker/abc /sys/fs/my\\040cgroup ro,nosuid - cgroup2 cgroup rw\n"
	"501 400 0:41 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n";

/* One mount lookup: its point and root joined as "POINT ROOT", or "none". */
static char *mount_of(const char *mi, const char *controller)
{
	struct cgroup_mount m;
	if (cgroup_mount_parse(mi, controller, &m) < 0)
		return xstrdup("none");
	char *s = xasprintf("%s %s", m.point, m.root);
	cgroup_mount_free(&m);
	return s;
}

static void is_mount(const char *mi, const char *controller, const char *want, const char *what)
{
	char *got = mount_of(mi, controller);
	is_str(got, want, what);
	free(got);
}

static void is_self(const char *self, const char *controller, const char *want, const char *what)
{
	char *got = cgroup_self_parse(self, controller);
	is_str(got ? got : "none", want, what);
	free(got);
}

static void parse_mounts(void)
{
	is_mount(mi_hybrid, NULL, "/sys/fs/cgroup/unified /", "hybrid: cgroup2 at unified, not /sys/fs/cgroup");
	is_mount(mi_hybrid, "blkio", "/sys/fs/cgroup/blkio /", "hybrid: v1 blkio mount");
	is_mount(mi_hybrid, "memory", "/sys/fs/cgroup/memory /", "hybrid: v1 memory mount");
	is_mount(mi_hybrid, "systemd", "none", "name=systemd is not the controller 'systemd'");
	is_mount(mi_hybrid, "io", "none", "no v1 'io' controller");
	is_mount(mi_v2, NULL, "/sys/fs/cgroup /", "v2: found past optional fields");
	is_mount(mi_v2, "blkio", "none", "v2: no v1 blkio");
	is_mount(mi_container, NULL, "/sys/fs/my cgroup /docker/abc", "container: \\040 decoded to a blank, the subtree it shows");
	is_mount(mi_container, "cpuacct", "/sys/fs/cgroup/cpu,cpuacct /", "co-mounted v1 controllers: cpuacct in cpu,cpuacct");
	is_mount("", NULL, "none", "empty mountinfo");
	is_mount("garbage\n1 2 x - cgroup2 c rw\n41 31 0:38 / /u rw - cgroup2 cgroup2 rw", NULL, "/u /",
		 "lines that do not parse are passed over; a last line without a newline is read");

	is_self(self_hybrid, NULL, "/", "self: v2 line of a hybrid machine, at the v2 root");
	is_self(self_hybrid, "memory", "/process_api/25c3", "self: v1 memory path");
	is_self(self_hybrid, "blkio", "/", "self: blkio at its root");
	is_self(self_v2, NULL, "/user.slice/user-1000.slice/session-2.scope", "self: pure v2, a session scope");
	is_self(self_v2, "memory", "none", "self: no v1 memory on pure v2");
	is_self("1:cpu,cpuacct:/a\n", "cpuacct", "/a", "self: co-mounted controllers");
	is_self("10::/x\n", NULL, "none", "self: only hierarchy 0 is cgroup2");
	is_self("0::\n", NULL, "none", "self: an empty path is none");
}

/* The files as the kernel shows them, read from a fake /proc: the directory of our cgroup in each
 * hierarchy, and paths longer than PATH_MAX, which no stack buffer has to hold. */
static void own_dirs(const char *tmp)
{
	char *root = xasprintf("%s/proc", tmp);
	mkdir(root, 0700);
	test_put(root, "self/mountinfo", mi_hybrid);
	test_put(root, "self/cgroup", self_hybrid);
	char *mi_path = xasprintf("%s/self/mountinfo", root), *self_path = xasprintf("%s/self/cgroup", root);
	char *mi = read_text_file(mi_path, CGROUP_PROC_FILE_MAX), *self = read_text_file(self_path, CGROUP_PROC_FILE_MAX);
	char *mount = NULL, *dir = cgroup_dir_of(mi, self, NULL, &mount);
	is_str(dir, "/sys/fs/cgroup/unified", "hybrid: our v2 cgroup is the root of unified");
	is_str(mount, "/sys/fs/cgroup/unified", "and its mount");
	free(dir);
	free(mount);
	dir = cgroup_dir_of(mi, self, "memory", NULL);
	is_str(dir, "/sys/fs/cgroup/memory/process_api/25c3", "hybrid: our v1 memory cgroup");
	free(dir);
	free(mi);
	free(self);

	/* a container that mounts a subtree: our path is below its root, or outside what is mounted */
	test_put(root, "self/mountinfo", mi_container);
	test_put(root, "self/cgroup", "0::/docker/abc/inner\n");
	mi = read_text_file(mi_path, CGROUP_PROC_FILE_MAX);
	self = read_text_file(self_path, CGROUP_PROC_FILE_MAX);
	dir = cgroup_dir_of(mi, self, NULL, NULL);
	is_str(dir, "/sys/fs/my cgroup/inner", "container: the path below the mount's root");
	free(dir);
	free(self);
	test_put(root, "self/cgroup", "0::/docker/abcd\n");
	self = read_text_file(self_path, CGROUP_PROC_FILE_MAX);
	ok(cgroup_dir_of(mi, self, NULL, NULL) == NULL, "container: a cgroup outside the mounted subtree is none");
	free(self);
	free(mi);

	/* 6000-byte paths: the parser allocates what it reads */
	struct strbuf deep = {0};
	for (int i = 0; i < 1000; i++)
		strbuf_add(&deep, "/abcde", 6);
	char *long_mi = xasprintf("41 31 0:38 %s /sys/fs/cgroup%s rw - cgroup2 cgroup2 rw\n", deep.buf, deep.buf);
	char *long_self = xasprintf("0::%s/x\n", deep.buf);
	test_put(root, "self/mountinfo", long_mi);
	test_put(root, "self/cgroup", long_self);
	mi = read_text_file(mi_path, CGROUP_PROC_FILE_MAX);
	self = read_text_file(self_path, CGROUP_PROC_FILE_MAX);
	dir = cgroup_dir_of(mi, self, NULL, NULL);
	char *want = xasprintf("/sys/fs/cgroup%s/x", deep.buf);
	is_str(dir, want, "paths past PATH_MAX are read whole");
	free(want);
	free(dir);
	free(mi);
	free(self);
	free(long_mi);
	free(long_self);
	strbuf_free(&deep);
	free(mi_path);
	free(self_path);
	free(root);
}

static void parse_files(void)
{
	is_int(cgroup_controller_listed("cpuset cpu io memory pids\n", "cpuset"), 1, "controllers: cpuset listed first");
	is_int(cgroup_controller_listed("cpu io memory cpuset\n", "cpuset"), 1, "controllers: cpuset listed last");
	is_int(cgroup_controller_listed("cpu io memory\n", "cpuset"), 0, "controllers: pure v2 without cpuset passed down");
	is_int(cgroup_controller_listed("\n", "cpuset"), 0, "controllers: hybrid, cgroup2 has none");
	is_int(cgroup_controller_listed(NULL, "io"), 0, "controllers: no file");
	is_int(cgroup_controller_listed("cpusetx cpu\n", "cpuset"), 0, "controllers: a longer name is not it");
	struct cgroup_cpu c;
	is_int(cgroup_parse_cpu_stat("usage_usec 300123\nuser_usec 290000\nsystem_usec 10123\nnr_periods 0\n"
				     "core_sched.force_idle_usec 0\n",
				     &c),
	       0, "cpu.stat parses");
	ok(c.usage_usec == 300123 && c.user_usec == 290000 && c.system_usec == 10123, "cpu.stat: the three counters");
	is_int(cgroup_parse_cpu_stat("usage_usec 1\nuser_usec 1\n", &c), -1, "cpu.stat without system_usec");
	is_int(cgroup_parse_cpu_stat("usage_usecs 1\nuser_usec 1\nsystem_usec 1\n", &c), -1, "cpu.stat: keys match whole");

	struct cgroup_io_dev d[4];
	size_t n;
	is_int(cgroup_parse_io_stat("254:0 rbytes=4096 wbytes=1048576 rios=1 wios=8 dbytes=0 dios=0\n"
				    "8:16 rbytes=10 wbytes=20 rios=30 wios=40 dbytes=0 dios=0 cost.usage=5 cost.wait=0\n",
				    d, 4, &n),
	       0, "io.stat parses");
	is_int(n, 2, "io.stat: two disks");
	ok(d[0].major == 254 && d[0].minor == 0 && d[0].rbytes == 4096 && d[0].wbytes == 1048576 && d[0].rios == 1 &&
		   d[0].wios == 8,
	   "io.stat: vda's counters");
	ok(d[1].major == 8 && d[1].minor == 16 && d[1].wios == 40, "io.stat: sdb's, past the cost fields");
	is_int(cgroup_parse_io_stat("", d, 4, &n), 0, "io.stat empty (no I/O yet)");
	is_int(n, 0, "io.stat: no disks");
	is_int(cgroup_parse_io_stat("254:0 rbytes=x\n", d, 4, &n), -1, "io.stat: bad number");
	is_int(cgroup_parse_io_stat("vda rbytes=1\n", d, 4, &n), -1, "io.stat: no MAJ:MIN");
	is_int(cgroup_parse_io_stat("1:0 rbytes=1\n2:0 rbytes=1\n", d, 1, &n), -1, "io.stat: more disks than room");

	/* the kernel's text for 4 MiB + 8 KiB written in 11 requests */
	static const char bytes[] = "254:0 Read 8192\n254:0 Write 4202496\n254:0 Sync 4202496\n254:0 Async 0\n"
				    "254:0 Discard 0\n254:0 Total 4210688\nTotal 4210688\n";
	static const char ios[] = "254:0 Read 2\n254:0 Write 11\n254:0 Sync 13\n254:0 Async 0\n254:0 Discard 0\n"
				  "254:0 Total 13\nTotal 13\n";
	is_int(cgroup_parse_blkio(bytes, ios, d, 4, &n), 0, "blkio v1 parses");
	ok(n == 1 && d[0].major == 254 && d[0].rbytes == 8192 && d[0].wbytes == 4202496 && d[0].rios == 2 &&
		   d[0].wios == 11,
	   "blkio v1: Read and Write of vda, bytes and requests");
	is_int(cgroup_parse_blkio("Total 0\n", "Total 0\n", d, 4, &n), 0, "blkio v1 with no I/O yet");
	is_int(n, 0, "blkio v1: no disks");
	is_int(cgroup_parse_blkio("254:0 Read\n", "", d, 4, &n), -1, "blkio v1: missing number");

	struct cgroup_psi psi;
	is_int(cgroup_parse_pressure("some avg10=1.50 avg60=0.30 avg300=0.00 total=123456\n"
				     "full avg10=0.10 avg60=0.00 avg300=0.00 total=7890\n",
				     &psi),
	       0, "pressure parses");
	ok(psi.some_usec == 123456 && psi.full_usec == 7890 && psi.has_full, "pressure: some and full totals");
	is_int(cgroup_parse_pressure("some avg10=0.00 avg60=0.00 avg300=0.00 total=5\n", &psi), 0, "pressure without full");
	ok(psi.some_usec == 5 && !psi.has_full, "pressure: no full line is said");
	is_int(cgroup_parse_pressure("some avg10=0.00\n", &psi), -1, "pressure without total");
	is_int(cgroup_parse_pressure("", &psi), -1, "empty pressure");

	unsigned long long v;
	is_int(cgroup_parse_u64("33554432\n", &v), 0, "memory.peak parses");
	is_int(v, 33554432, "memory.peak value");
	is_int(cgroup_parse_u64("max\n", &v), -1, "'max' is not a number");
	is_int(cgroup_parse_u64("12 3\n", &v), -1, "two numbers refused");
}

static void figures(void)
{
	struct cgroup_stats a = {0}, b = {0};
	a.have = b.have = CGROUP_HAVE_CPU | CGROUP_HAVE_IO | CGROUP_HAVE_MEM | CGROUP_HAVE_PSI_CPU | CGROUP_HAVE_PSI_IO;
	a.t_ns = 1000000000ull;
	b.t_ns = 3000000000ull; /* 2 s apart */
	a.cpu = (struct cgroup_cpu){100000, 80000, 20000};
	b.cpu = (struct cgroup_cpu){1600000, 1280000, 320000};
	a.ndevs = 1;
	a.io[0] = (struct cgroup_io_dev){254, 0, 1000, 2000, 1, 2};
	b.ndevs = 2;
	b.io[0] = (struct cgroup_io_dev){8, 0, 500, 0, 5, 0}; /* a disk first seen in b */
	b.io[1] = (struct cgroup_io_dev){254, 0, 5096, 1050576, 2, 10};
	b.mem_peak_bytes = 64u << 20;
	a.psi[CGROUP_PSI_IO] = (struct cgroup_psi){.some_usec = 100000, .full_usec = 50000, .has_full = 1};
	b.psi[CGROUP_PSI_IO] = (struct cgroup_psi){.some_usec = 560000, .full_usec = 250000, .has_full = 1};
	b.psi[CGROUP_PSI_CPU] = (struct cgroup_psi){.some_usec = 4000000}; /* more than the wall: clamped */
	struct cgroup_figures f;
	cgroup_figures_between(&a, &b, 0, &f);
	is_near(f.cpu_s, 1.5, 1e-12, "cpu 1.5 s");
	is_near(f.user_s, 1.2, 1e-12, "user 1.2 s");
	is_near(f.sys_s, 0.3, 1e-12, "system 0.3 s");
	is_near(f.read_bytes, 500 + 4096, 0, "read bytes over both disks");
	is_near(f.write_bytes, 1048576, 0, "write bytes");
	is_near(f.read_ios, 5 + 1, 0, "read requests");
	is_near(f.write_ios, 8, 0, "write requests");
	is_near(f.mem_peak_bytes, 64 << 20, 0, "memory peak from b");
	/* io some: 460000 us of 2 s = 23 %; full: 200000 us = 10 % */
	is_near(f.psi_some_pct[CGROUP_PSI_IO], 23, 1e-9, "tasks stalled on I/O 23 % of the time");
	is_near(f.psi_full_pct[CGROUP_PSI_IO], 10, 1e-9, "all tasks stalled on I/O 10 %");
	is_near(f.psi_some_pct[CGROUP_PSI_CPU], 100, 0, "a stall longer than the wall clamps to 100 %");
	ok(isnan(f.psi_full_pct[CGROUP_PSI_CPU]), "no full line: NaN");
	ok(isnan(f.psi_some_pct[CGROUP_PSI_MEM]), "memory pressure not read: NaN");
	cgroup_figures_between(NULL, &b, 4, &f);
	is_near(f.cpu_s, 1.6, 1e-12, "from creation: all of b's cpu");
	is_near(f.psi_some_pct[CGROUP_PSI_IO], 14, 1e-9, "from creation over a given 4 s: 560000 us = 14 %");
	cgroup_figures_between(NULL, &b, 0, &f);
	ok(isnan(f.psi_some_pct[CGROUP_PSI_IO]), "from creation with no wall time: no share");
	struct cgroup_io_dev one;
	is_int(cgroup_io_of(&b, 254, 0, &one), 0, "vda found");
	is_int(one.wbytes, 1050576, "vda's own bytes");
	is_int(cgroup_io_of(&b, 9, 9, &one), -1, "an unlisted disk");
	is_int(one.wbytes + one.rbytes, 0, "... is zeros");
}

/* Burn this process's CPU for sec seconds of its own CPU time. */
static void burn_cpu(double sec)
{
	struct timespec ts;
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i ^ x;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9 < sec);
}

/* The child of the accounting check: into the point, 0.3 s of CPU, 32 MiB touched, 1 MiB written direct. */
static void accounting_child(const struct cgroup_point *p, const char *file)
{
	if (cgroup_point_attach(p, 0) < 0)
		_exit(10);
	burn_cpu(0.3);
	size_t len = 32u << 20;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		_exit(11);
	memset(m, 1, len);
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		/* the mapping is page aligned, as O_DIRECT needs */
		ssize_t w = write(fd, m, 1u << 20);
		int bad = w != (ssize_t)(1u << 20) || fsync(fd) != 0;
		close(fd);
		if (bad)
			_exit(12);
	}
	_exit(0);
}

static void accounting(struct cgroup_run *run)
{
	char err[512] = "";
	struct cgroup_point *p;
	if (cgroup_point_create(run, "point-1", &p, err, sizeof(err)) < 0) {
		ok(0, "point created");
		printf("# %s\n", err);
		return;
	}
	ok(access(cgroup_point_path(p), F_OK) == 0, "point directory exists");
	struct cgroup_point *dup;
	is_int(cgroup_point_create(run, "point-1", &dup, err, sizeof(err)), -1, "the same point twice is refused");
	ok(access(cgroup_point_path(p), F_OK) == 0, "... and the first survives the refusal");
	char file[64];
	snprintf(file, sizeof(file), "/var/tmp/reaim-cgtest-%ld", (long)getpid());
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		accounting_child(p, file);
	int status = -1;
	struct rusage ru;
	pid_t w = pid > 0 ? wait4(pid, &status, 0, &ru) : -1;
	unlink(file);
	ok(w == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0, "accounting child ran in the point");
	if (w != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		printf("# child status %d\n", status);
		cgroup_point_destroy(p, err, sizeof(err));
		return;
	}
	struct cgroup_stats st;
	is_int(cgroup_point_read(p, &st), 0, "point read");
	struct cgroup_figures f;
	cgroup_figures_between(NULL, &st, 1, &f);
	double rus = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
		     (double)ru.ru_stime.tv_usec / 1e6;
	printf("# cgroup cpu %.4f s (user %.4f sys %.4f), wait4 %.4f s, peak %.1f MiB, read %.0f write %.0f bytes\n",
	       f.cpu_s, f.user_s, f.sys_s, rus, f.mem_peak_bytes / 1048576, f.read_bytes, f.write_bytes);
	ok(rus >= 0.3, "wait4: the child burned its 0.3 s");
	ok(fabs(f.cpu_s - rus) <= 0.02 * rus + 0.002, "cgroup cpu.stat agrees with wait4 within 2 %");
	ok(fabs(f.user_s + f.sys_s - f.cpu_s) <= 0.01 * f.cpu_s + 0.002, "user + system = usage");
	unsigned have = cgroup_run_have(run);
	if (have & CGROUP_HAVE_MEM)
		ok((st.have & CGROUP_HAVE_MEM) && f.mem_peak_bytes >= 32.0 * 1048576 && f.mem_peak_bytes < 1024.0 * 1048576,
		   "memory peak covers the 32 MiB touched");
	else
		skip("memory peak", "not available here");
	struct stat sb;
	unsigned dma, dmi;
	if ((have & CGROUP_HAVE_IO) && stat("/var/tmp", &sb) == 0 && major(sb.st_dev) != 0 &&
	    cgroup_disk_of(major(sb.st_dev), minor(sb.st_dev), &dma, &dmi) == 0) {
		struct cgroup_io_dev d;
		cgroup_io_of(&st, dma, dmi, &d);
		ok((st.have & CGROUP_HAVE_IO) && d.wbytes >= 1048576 && d.wios >= 1,
		   "the 1 MiB direct write is counted on /var/tmp's disk");
	} else {
		skip("I/O of the point", "no I/O accounting or /var/tmp is not on a disk");
	}
	int psi_ok = 1;
	for (int k = 0; k < CGROUP_PSI_N; k++)
		if (have & (CGROUP_HAVE_PSI_CPU << k))
			psi_ok &= f.psi_some_pct[k] >= 0 && f.psi_some_pct[k] <= 100;
	ok(psi_ok, "pressure shares in 0..100 %");
	is_int(cgroup_point_count(p), 0, "no process left in the point");
	is_int(cgroup_point_destroy(p, err, sizeof(err)), 0, "point removed");
}

/* Burn sec more seconds of this process's CPU time. */
static void burn_more(double sec)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	burn_cpu((double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + sec);
}

static double self_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

/* The parent forks from inside the point and leaves: the child is counted in full, the parent only
 * while it was in, and nothing of it after it left. */
static void fork_from_inside(struct cgroup_run *run)
{
	char err[512] = "";
	struct cgroup_point *p;
	if (cgroup_point_create(run, "inside", &p, err, sizeof(err)) < 0) {
		ok(0, "inside: point created");
		printf("# %s\n", err);
		return;
	}
	char *before = read_text_file("/proc/self/cgroup", 65536);
	double t0 = self_cpu();
	is_int(cgroup_point_attach(p, 0), 0, "inside: the parent moves in");
	char *in = read_text_file("/proc/self/cgroup", 65536);
	ok(in && strstr(in, "/inside\n") != NULL, "inside: /proc/self/cgroup shows the point");
	burn_more(0.05); /* the parent's own work while inside: charged to the point, subtracted below */
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		burn_cpu(0.2);
		_exit(0);
	}
	is_int(cgroup_run_leave(run), 0, "inside: the parent leaves");
	double inside = self_cpu() - t0;
	char *after = read_text_file("/proc/self/cgroup", 65536);
	ok(before && after && strcmp(before, after) == 0, "inside: back in the cgroups it came from");
	burn_more(0.1); /* after leaving: not the point's */
	struct rusage ru;
	int status;
	pid_t w = pid > 0 ? wait4(pid, &status, 0, &ru) : -1;
	ok(w == pid && WIFEXITED(status), "inside: the child ran");
	struct cgroup_stats st;
	is_int(cgroup_point_read(p, &st), 0, "inside: point read");
	struct cgroup_figures f;
	cgroup_figures_between(NULL, &st, 1, &f);
	double child = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
		       (double)ru.ru_stime.tv_usec / 1e6;
	printf("# cgroup %.4f s, parent inside %.4f s, child (wait4) %.4f s\n", f.cpu_s, inside, child);
	ok(inside >= 0.05 && child >= 0.2, "inside: both burned what they were asked to");
	/* 2 % and 10 ms: the moves in and out are charged at the next accounting tick either side, which
	 * an ASan build's fork (its shadow mappings copied) makes milliseconds; the parent's 50 ms
	 * inside and 100 ms after still tell apart */
	ok(fabs(f.cpu_s - inside - child) <= 0.02 * child + 0.01,
	   "inside: cgroup CPU = the child's + the parent's while inside, 2 % and 10 ms");
	is_int(cgroup_point_count(p), 0, "inside: the point is empty");
	is_int(cgroup_point_destroy(p, err, sizeof(err)), 0, "inside: the point is removed");
	free(before);
	free(in);
	free(after);
}

/* How many CPUs the calling process may run on, or -1. */
static int own_cpu_count(void)
{
	cpu_set_t set;
	return sched_getaffinity(0, sizeof(set), &set) < 0 ? -1 : CPU_COUNT(&set);
}

/* A point confined to one CPU by the run's cpuset: a child forked from inside cannot widen its
 * affinity back to every CPU, and the parent gets its own CPUs back after leaving. */
static void cpuset_point(struct cgroup_run *run)
{
	printf("# %s\n", cgroup_run_cpuset_text(run));
	int cpus[CPU_SETSIZE];
	int n = cputopo_allowed(cpus, CPU_SETSIZE);
	if (cgroup_run_cpuset(run) == CGROUP_CPUSET_NONE || n < 2) {
		ok(strncmp(cgroup_run_cpuset_text(run), "affinity only: ", 15) == 0, "no cpuset: the reason is said");
		skip("a point confined by a cpuset", n < 2 ? "one CPU" : cgroup_run_cpuset_text(run));
		return;
	}
	char err[512] = "";
	struct cgroup_point *p;
	if (cgroup_point_create(run, "cpuset", &p, err, sizeof(err)) < 0) {
		ok(0, "cpuset: point created");
		printf("# %s\n", err);
		return;
	}
	is_int(cgroup_point_cpus(p, &cpus[n - 1], 1, err, sizeof(err)), 0, "cpuset: the point confined to one CPU");
	is_int(cgroup_point_cpus(p, cpus, 1, err, sizeof(err)), -1, "cpuset: ... only once");
	cpu_set_t own;
	is_int(sched_getaffinity(0, sizeof(own), &own), 0, "cpuset: our own CPUs read");
	char *before = read_text_file("/proc/self/cgroup", 65536);
	is_int(cgroup_point_attach(p, 0), 0, "cpuset: the parent moves in");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		cpu_set_t all;
		CPU_ZERO(&all);
		for (int i = 0; i < n; i++)
			CPU_SET(cpus[i], &all);
		(void)sched_setaffinity(0, sizeof(all), &all); /* the escape a cpuset refuses or narrows */
		cpu_set_t got;
		_exit(sched_getaffinity(0, sizeof(got), &got) == 0 && CPU_COUNT(&got) == 1 && CPU_ISSET(cpus[n - 1], &got)
			      ? 0 : 1);
	}
	is_int(cgroup_run_leave(run), 0, "cpuset: the parent leaves");
	is_int(cgroup_run_leave_cpuset(run), 0, "cpuset: ... its cpuset too");
	char *after = read_text_file("/proc/self/cgroup", 65536);
	ok(before && after && strcmp(before, after) == 0, "cpuset: back in the cgroups it came from, every hierarchy");
	free(before);
	free(after);
	is_int(cputopo_set_all_threads(&own), 0, "cpuset: our own CPUs set back");
	is_int(own_cpu_count(), CPU_COUNT(&own), "cpuset: ... all of them");
	int status = 0;
	ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "cpuset: a task asking for every CPU still runs on the one");
	is_int(cgroup_point_destroy(p, err, sizeof(err)), 0, "cpuset: the point is removed");
}

/* A child that joins the point and leaves a tree behind: a grandchild, and a great-grandchild in a
 * session of its own whose parent exits (so it is orphaned onto the subreaper). */
static void tree_child(const struct cgroup_point *p)
{
	if (cgroup_point_attach(p, 0) < 0)
		_exit(10);
	if (fork() == 0) {
		if (fork() == 0) {
			setsid();
			for (;;)
				pause();
		}
		_exit(0);
	}
	if (fork() == 0)
		for (;;)
			pause();
	for (;;)
		pause();
}

/* Reap every child until none is left or the deadline passes; how many were reaped. */
static int reap_all(double seconds)
{
	uint64_t until = clock_now_ns() + (uint64_t)(seconds * 1e9);
	int n = 0;
	for (;;) {
		pid_t w = waitpid(-1, NULL, WNOHANG);
		if (w > 0) {
			n++;
			continue;
		}
		if (w < 0 && errno == ECHILD)
			return n;
		if (clock_now_ns() > until)
			return -1;
		usleep(2000);
	}
}

/* side: a cgroup beside the points (a point hook's), made in cgroup2 alone */
static void kill_tree(struct cgroup_run *run, const char *what, int side)
{
	char err[512] = "", name[64];
	snprintf(name, sizeof(name), "kill-%s", what);
	for (char *c = name; *c; c++)
		*c = *c == ' ' ? '-' : *c;
	struct cgroup_point *p;
	if ((side ? cgroup_side_create(run, name, &p, err, sizeof(err)) : cgroup_point_create(run, name, &p, err, sizeof(err))) < 0) {
		ok(0, "kill point created");
		printf("# %s\n", err);
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		tree_child(p);
	/* the tree is the child, its sleeping child and the orphan (its other child exits at once) */
	int n = -1;
	for (int i = 0; i < 400 && (n = cgroup_point_count(p)) != 3; i++)
		usleep(5000);
	char msg[128];
	snprintf(msg, sizeof(msg), "%s: three processes in the point", what);
	is_int(n, 3, msg);
	snprintf(msg, sizeof(msg), "%s: kill", what);
	is_int(cgroup_point_kill(p), 0, msg);
	int reaped = reap_all(2);
	snprintf(msg, sizeof(msg), "%s: every process reaped by us (subreaper), none left to init", what);
	ok(reaped >= 3, msg);
	snprintf(msg, sizeof(msg), "%s: the point is empty", what);
	is_int(cgroup_point_count(p), 0, msg);
	snprintf(msg, sizeof(msg), "%s: the point is removed", what);
	is_int(cgroup_point_destroy(p, err, sizeof(err)), 0, msg);
}

/* The pid of a process that existed and is gone. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static char stale_name[64];
static int is_stale(const char *name)
{
	return strcmp(name, stale_name) == 0;
}

/* A run that died leaves its run cgroup with a process still in a point: the next run kills it and
 * removes the cgroups before making its own. */
static void stale(void)
{
	char why[512] = "", err[512] = "", name[64];
	snprintf(stale_name, sizeof(stale_name), "reaim-test-%ld-dead%ld", (long)getpid(), (long)dead_pid());
	struct cgroup_run_config cfg = {.name = stale_name};
	struct cgroup_run *old;
	if (cgroup_run_open(&cfg, &old, why, sizeof(why)) < 0) {
		skip("stale run cgroups", why);
		return;
	}
	struct cgroup_point *p;
	if (cgroup_point_create(old, "point-1", &p, err, sizeof(err)) < 0) {
		ok(0, "stale: a point");
		cgroup_run_close(old, err, sizeof(err));
		return;
	}
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", cgroup_point_path(p));
	*strrchr(dir, '/') = '\0';
	fflush(stdout);
	pid_t left = fork();
	if (left == 0) {
		if (cgroup_point_attach(p, 0) < 0)
			_exit(10);
		signal(SIGTERM, SIG_IGN);
		for (;;)
			pause();
	}
	for (int i = 0; i < 400 && cgroup_point_count(p) != 1; i++)
		usleep(5000);
	is_int(cgroup_point_count(p), 1, "stale: a process is left in the dead run's point");
	free(p); /* as a run that died would: nothing removed */
	free(old);
	snprintf(name, sizeof(name), "reaim-test-%ld-next", (long)getpid());
	cfg = (struct cgroup_run_config){.name = name, .stale = is_stale};
	struct cgroup_run *next;
	is_int(cgroup_run_open(&cfg, &next, why, sizeof(why)), 0, "stale: the next run opens");
	int status = 0;
	ok(waitpid(left, &status, 0) == left && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	   "stale: the process left behind was killed");
	ok(access(dir, F_OK) != 0, "stale: the dead run's cgroups are removed");
	is_int(cgroup_run_swept(next), 1, "stale: ... and counted");
	ok(strstr(cgroup_run_traits(next), "removed") == NULL, "stale: ... but not in the description, a fact of the machine");
	printf("# %s\n", cgroup_run_traits(next));
	is_int(cgroup_run_close(next, err, sizeof(err)), 0, "stale: the next run closes");
}

/* The sweep over fake hierarchies (plain directories): a dead run's cgroups go from v2 and both v1
 * twins, a v1 leftover without its v2 twin too, a live run's stay; each name is judged once, and
 * its mark of death is let go only when it is gone from every hierarchy. */
static int asked_dead, asked_alive, asked_stuck, asked_v1only, swept_dead, swept_stuck, swept_v1only, swept_other;
static int fake_stale(const char *name)
{
	if (strcmp(name, "reaim-1-dead") == 0)
		return ++asked_dead, 1;
	if (strcmp(name, "reaim-2-stuck") == 0)
		return ++asked_stuck, 1;
	if (strcmp(name, "reaim-3-v1only") == 0)
		return ++asked_v1only, 1;
	if (strncmp(name, "reaim-4-", 8) == 0)
		return CGROUP_RUN_UNMARKED;
	++asked_alive;
	return 0;
}

static void fake_swept(const char *name)
{
	if (strcmp(name, "reaim-1-dead") == 0)
		swept_dead++;
	else if (strcmp(name, "reaim-2-stuck") == 0)
		swept_stuck++;
	else if (strcmp(name, "reaim-3-v1only") == 0)
		swept_v1only++;
	else if (strcmp(name, "reaim-4-orphan") != 0)
		swept_other++;
}

static int exists(const char *root, const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel);
	int there = access(path, F_OK) == 0;
	free(path);
	return there;
}

/* mkdir -p ROOT/REL */
static void make_dirs(const char *root, const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel);
	for (char *slash = strchr(path + strlen(root) + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		mkdir(path, 0700);
		if (!slash)
			break;
		*slash = '/';
	}
	free(path);
}

static void sweep_fake(const char *tmp)
{
	char *root = xasprintf("%s/cg", tmp);
	mkdir(root, 0700);
	static const char *const hier[] = {"unified", "blkio", "memory"};
	for (size_t h = 0; h < ARRAY_SIZE(hier); h++) {
		char rel[128];
		snprintf(rel, sizeof(rel), "%s/reaim-1-dead/point-1", hier[h]);
		make_dirs(root, rel);
		snprintf(rel, sizeof(rel), "%s/reaim-9-alive/point-1", hier[h]);
		make_dirs(root, rel);
	}
	/* a dead run whose v1 memory cgroup cannot be removed (here: a file in it) */
	make_dirs(root, "unified/reaim-2-stuck");
	test_put(root, "memory/reaim-2-stuck/busy", "");
	/* a v1 leftover of a dead run whose v2 cgroup is gone already */
	make_dirs(root, "blkio/reaim-3-v1only");
	/* no mark either way (its lock file is gone): a v1 twin without a v2 cgroup goes, one with stays */
	make_dirs(root, "memory/reaim-4-orphan");
	make_dirs(root, "unified/reaim-4-twin");
	make_dirs(root, "memory/reaim-4-twin");
	char *v2 = xasprintf("%s/unified", root), *blkio = xasprintf("%s/blkio", root), *mem = xasprintf("%s/memory", root);
	const struct cgroup_sweep_base bases[] = {{v2, 1}, {blkio, 0}, {mem, 0}, {NULL, 0}};
	struct cgroup_run_config cfg = {.name = "reaim-0-me", .stale = fake_stale, .swept = fake_swept};
	int removed = cgroup_sweep(&cfg, bases, ARRAY_SIZE(bases));
	is_int(removed, 2, "fake sweep: two dead runs removed from v2");
	ok(!exists(root, "unified/reaim-1-dead") && !exists(root, "blkio/reaim-1-dead") &&
	   !exists(root, "memory/reaim-1-dead"), "fake sweep: the dead run is gone from v2 and both v1 twins");
	ok(!exists(root, "blkio/reaim-3-v1only"), "fake sweep: a v1 leftover without its v2 twin goes too");
	ok(exists(root, "unified/reaim-9-alive") && exists(root, "blkio/reaim-9-alive") && exists(root, "memory/reaim-9-alive"),
	   "fake sweep: a live run's cgroups stay");
	ok(asked_dead == 1 && asked_stuck == 1 && asked_v1only == 1 && asked_alive == 1,
	   "fake sweep: each name judged once, whatever the number of hierarchies");
	ok(swept_dead == 1 && swept_v1only == 1 && swept_other == 0, "fake sweep: a run gone everywhere is let go once");
	ok(exists(root, "memory/reaim-2-stuck") && swept_stuck == 0,
	   "fake sweep: a run with a cgroup left keeps its mark, for a later sweep");
	ok(!exists(root, "memory/reaim-4-orphan"), "fake sweep: an unmarked v1 cgroup with no v2 cgroup of its name goes");
	ok(exists(root, "unified/reaim-4-twin") && exists(root, "memory/reaim-4-twin"),
	   "fake sweep: an unmarked one with a v2 cgroup stays, in both");
	free(v2);
	free(blkio);
	free(mem);
	free(root);
}

static void refusals(void)
{
	struct cgroup_run *r;
	char why[512] = "";
	struct cgroup_run_config cfg = {.name = "a/b"};
	is_int(cgroup_run_open(&cfg, &r, why, sizeof(why)), -1, "a name with a slash is refused");
	cfg = (struct cgroup_run_config){.name = "..", .parent = "/tmp"};
	is_int(cgroup_run_open(&cfg, &r, why, sizeof(why)), -1, "'..' is refused");
	cfg = (struct cgroup_run_config){.name = "reaim-x", .parent = "/tmp"};
	is_int(cgroup_run_open(&cfg, &r, why, sizeof(why)), -1, "a parent that is not cgroup2 is refused");
	ok(strstr(why, "/tmp is not a cgroup v2 directory") != NULL, "... saying so");
	printf("# %s\n", why);
}

static void live(void)
{
	char why[512] = "", name[64];
	snprintf(name, sizeof(name), "reaim-test-%ld", (long)getpid());
	dev_t disks[1];
	size_t ndisks = 0;
	struct stat sb;
	unsigned dma, dmi;
	if (stat("/var/tmp", &sb) == 0 && major(sb.st_dev) != 0 &&
	    cgroup_disk_of(major(sb.st_dev), minor(sb.st_dev), &dma, &dmi) == 0)
		disks[ndisks++] = makedev(dma, dmi);
	struct cgroup_run_config cfg = {.name = name, .disks = disks, .ndisks = ndisks};
	struct cgroup_run *run;
	if (cgroup_run_open(&cfg, &run, why, sizeof(why)) < 0) {
		printf("# cgroups not usable here: %s\n", why);
		skip("real cgroup points", why);
		return;
	}
	printf("# %s\n", cgroup_run_traits(run));
	ok(strstr(cgroup_run_traits(run), name) == NULL && strstr(cgroup_run_dir(run), name) != NULL,
	   "the run cgroup's name is in its dir, not in its traits");
	ok(cgroup_run_layout(run) != CGROUP_NONE, "a layout is named");
	ok(cgroup_run_have(run) & CGROUP_HAVE_CPU, "CPU from cpu.stat");
	struct cgroup_run *twice;
	char why2[512] = "";
	is_int(cgroup_run_open(&cfg, &twice, why2, sizeof(why2)), -1, "the same run cgroup twice is refused");
	ok(strstr(why2, "already exists") != NULL, "... saying it exists");
	is_int(cgroup_set_subreaper(), 0, "subreaper set");
	accounting(run);
	fork_from_inside(run);
	cpuset_point(run);
	kill_tree(run, "cgroup.kill", 0);
	kill_tree(run, "hook cgroup.kill", 1);
	stale();
	char err[512] = "";
	is_int(cgroup_run_close(run, err, sizeof(err)), 0, "run cgroup removed");
	if (err[0])
		printf("# %s\n", err);

	/* the fallback for kernels without cgroup.kill */
	snprintf(name, sizeof(name), "reaim-test-%ld-nokill", (long)getpid());
	cfg = (struct cgroup_run_config){.name = name, .no_kill_file = 1, .no_cpuset = 1};
	if (cgroup_run_open(&cfg, &run, why, sizeof(why)) < 0) {
		ok(0, "second run cgroup");
		printf("# %s\n", why);
		return;
	}
	ok(strstr(cgroup_run_traits(run), "kill by cgroup.procs") != NULL, "the fallback kill is described");
	is_int(cgroup_run_cpuset(run), CGROUP_CPUSET_NONE, "cpusets off: none");
	cpuset_point(run);
	ok(strstr(cgroup_run_cpuset_text(run), "turned off") != NULL, "cpusets off: said so");
	kill_tree(run, "cgroup.procs loop", 0);
	kill_tree(run, "hook cgroup.procs loop", 1);
	is_int(cgroup_run_close(run, err, sizeof(err)), 0, "second run cgroup removed");
}

int main(void)
{
	tap_case(parse_mounts);
	char tmp[] = "/tmp/reaim-cgparse-XXXXXX";
	if (!mkdtemp(tmp))
		return 1;
	tap_case(own_dirs, tmp);
	tap_case(sweep_fake, tmp);
	if (remove_tree(tmp) < 0)
		printf("# could not remove %s\n", tmp);
	tap_case(parse_files);
	tap_case(figures);
	tap_case(refusals);
	tap_case(live);
	return done_testing();
}
