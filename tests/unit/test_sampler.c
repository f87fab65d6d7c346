/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the system sampler: its /proc parsers on literal texts, the interval figures against
 * values computed by hand, a run over fixture files, and a live run that burns CPU and forks. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/measure.h"
#include "measure/sampler.h"
#include "tap.h"

static const char stat_text[] =
	"cpu  100 20 50 700 30 5 15 80 0 0\n"
	"cpu0 50 10 25 350 15 2 7 40 0 0\n"
	"cpu1 50 10 25 350 15 3 8 40 0 0\n"
	"intr 123456 44 0 9 0 0 0 0 0 0 0 0 0 0\n"
	"ctxt 987654\n"
	"btime 1700000000\n"
	"processes 4321\n"
	"procs_running 2\n"
	"procs_blocked 0\n"
	"softirq 5 1 1 1 1 1 0 0 0 0 0\n";

static const char vmstat_text[] =
	"nr_free_pages 12345\n"
	"pgfaultx 99\n"
	"pgfault 14571334\n"
	"pgmajfault 2407\n"
	"pswpin 3\n"
	"pswpout 4\n"
	"pgmajfault_extra 7\n";

/* two disks with partitions, a device nobody asks for, and a 4-field partition line of old kernels */
static const char diskstats_text[] =
	"   8       0 sda 1000 10 20000 500 2000 20 40000 800 0 1200 1300 0 0 0 0 0 0\n"
	"   8       1 sda1 900 5 18000 450 1900 10 38000 700 0 1100 1150 0 0 0 0\n"
	"   8       2 sda2 10 20 30 40\n"
	"   8      16 sdb 7 0 56 1 0 0 0 0 0 3 1\n"
	" 259       0 nvme0n1 100 0 800 10 200 0 1600 20 0 50 30\n"
	" 259       1 nvme0n1p2 10 0 80 1 20 0 160 2 0 5 3\n"
	"   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0\n";

static void parse_stat(void)
{
	struct sys_counters c;
	is_int(procstat_parse_stat(stat_text, &c), 0, "stat parses");
	unsigned long long want[8] = {100, 20, 50, 700, 30, 5, 15, 80};
	int same = 1;
	for (int i = 0; i < 8; i++)
		same &= c.cpu[i] == want[i];
	ok(same, "stat: the aggregate cpu line, not cpu0, in user..steal order");
	is_int(c.ctxt, 987654, "stat: ctxt");
	is_int(c.processes, 4321, "stat: processes (forks since boot)");
	is_int(c.ncpus, 2, "stat: two cpuN lines");
	is_int(procstat_parse_stat("cpu  1 2 3 4 5 6 7\nctxt 1\nprocesses 2\n", &c), 0, "stat of a kernel without steal");
	is_int(c.cpu[6], 7, "softirq read");
	is_int(c.cpu[7], 0, "missing steal is 0");
	is_int(procstat_parse_stat("cpu0 1 2 3 4\nctxt 1\nprocesses 2\n", &c), -1, "no aggregate cpu line");
	is_int(procstat_parse_stat("cpu  1 2 3 4\nprocesses 2\n", &c), -1, "no ctxt line");
	is_int(procstat_parse_stat("", &c), -1, "empty text");
}

static void parse_vmstat(void)
{
	struct sys_counters c;
	is_int(procstat_parse_vmstat(vmstat_text, &c), 0, "vmstat parses");
	is_int(c.pgfault, 14571334, "vmstat: pgfault, not pgfaultx");
	is_int(c.pgmajfault, 2407, "vmstat: pgmajfault, not pgmajfault_extra");
	is_int(c.pswpin, 3, "vmstat: pswpin");
	is_int(c.pswpout, 4, "vmstat: pswpout");
	is_int(procstat_parse_vmstat("pgfault 5\npgmajfault 1\n", &c), 0, "vmstat without swap counters");
	is_int(c.pswpin + c.pswpout, 0, "absent swap counters are 0");
	is_int(procstat_parse_vmstat("pgmajfault 1\n", &c), -1, "no pgfault");
}

static void parse_diskstats(void)
{
	struct sys_counters c;
	const char *const want[] = {"sda1", "nvme0n1p2"};
	is_int(procstat_parse_diskstats(diskstats_text, want, 2, &c), 0, "diskstats parses");
	is_int(c.rd_ios, 900 + 10, "rd_ios of the two partitions only");
	is_int(c.rd_sectors, 18000 + 80, "rd_sectors summed");
	is_int(c.wr_ios, 1900 + 20, "wr_ios summed");
	is_int(c.wr_sectors, 38000 + 160, "wr_sectors summed");
	is_int(c.io_ticks_ms, 1100 + 5, "io_ticks summed");
	is_int(c.io_ticks_max_ms, 1100, "io_ticks max");
	is_int(c.ndevices, 2, "two devices tracked");
	is_int(c.dev_io_ticks_ms[0], 1100, "per-device io_ticks, in the order asked (sda1)");
	is_int(c.dev_io_ticks_ms[1], 5, "per-device io_ticks (nvme0n1p2)");

	const char *const disk[] = {"sda"};
	is_int(procstat_parse_diskstats(diskstats_text, disk, 1, &c), 0, "whole disk");
	is_int(c.rd_sectors, 20000, "sda is not sda1: names match whole");
	const char *const missing[] = {"sda1", "sdc"};
	is_int(procstat_parse_diskstats(diskstats_text, missing, 2, &c), -1, "a missing device fails");
	is_int(c.rd_ios, 900, "the found device is still counted");
	const char *const old[] = {"sda2"};
	is_int(procstat_parse_diskstats(diskstats_text, old, 1, &c), -1, "a 4-field partition line has no counters");
	is_int(procstat_parse_diskstats(diskstats_text, NULL, 0, &c), 0, "no devices asked");
	is_int(c.rd_ios + c.io_ticks_ms + c.ndevices, 0, "no devices: zero");
}

/* Counters for the delta checks: 2 CPUs at HZ 100 over 1 s, disks over 0.5 s. */
static void delta(void)
{
	struct sys_counters a = {0}, b;
	for (int i = 0; i < 8; i++)
		a.cpu[i] = 1000 * (unsigned long long)(i + 1);
	a.ctxt = 50000, a.processes = 900, a.pgfault = 7000, a.pgmajfault = 70, a.pswpin = 1, a.pswpout = 2;
	a.rd_ios = 10, a.rd_sectors = 4096, a.wr_ios = 20, a.wr_sectors = 8192;
	a.ndevices = 2, a.dev_io_ticks_ms[0] = 1000, a.dev_io_ticks_ms[1] = 3000;
	b = a;
	unsigned long long add[8] = {50, 10, 30, 90, 10, 2, 4, 4}; /* 200 jiffies = 2 CPUs x 1 s */
	for (int i = 0; i < 8; i++)
		b.cpu[i] += add[i];
	struct sys_sample s;
	sampler_delta(&a, &b, 1.0, &s);
	is_near(s.user_pct, 25, 1e-12, "user 50 of 200 jiffies = 25%");
	is_near(s.nice_pct, 5, 1e-12, "nice 5%");
	is_near(s.sys_pct, 15, 1e-12, "system 15%");
	is_near(s.idle_pct, 45, 1e-12, "idle 45%");
	is_near(s.iowait_pct, 5, 1e-12, "iowait 5%");
	is_near(s.irq_pct, 1, 1e-12, "irq 1%");
	is_near(s.softirq_pct, 2, 1e-12, "softirq 2%");
	is_near(s.steal_pct, 2, 1e-12, "steal 2%");
	is_near(s.t_s, 1.0, 0, "t_s is the interval");

	b = a;
	b.rd_sectors += 2048, b.wr_sectors += 1024, b.rd_ios += 100, b.wr_ios += 50;
	b.dev_io_ticks_ms[0] += 250, b.dev_io_ticks_ms[1] += 400;
	b.ctxt += 1000, b.processes += 20, b.pgfault += 500, b.pgmajfault += 5, b.pswpin += 1, b.pswpout += 2;
	sampler_delta(&a, &b, 0.5, &s);
	is_near(s.read_kbs, 2048, 1e-9, "2048 sectors over 0.5 s = 2048 KB/s");
	is_near(s.write_kbs, 1024, 1e-9, "1024 sectors over 0.5 s = 1024 KB/s");
	is_near(s.read_iops, 200, 1e-9, "read IOPS");
	is_near(s.write_iops, 100, 1e-9, "write IOPS");
	is_near(s.util_pct, 80, 1e-9, "util: the busier device, 400 ms of 500, not the sum");
	is_near(s.ctxt_per_s, 2000, 1e-9, "context switches/s");
	is_near(s.forks_per_s, 40, 1e-9, "forks/s");
	is_near(s.pgfault_per_s, 1000, 1e-9, "page faults/s");
	is_near(s.pgmajfault_per_s, 10, 1e-9, "major faults/s");
	is_near(s.swap_in_per_s, 2, 1e-9, "swap-ins/s");
	is_near(s.swap_out_per_s, 4, 1e-9, "swap-outs/s");
	is_near(s.idle_pct + s.user_pct, 0, 0, "no jiffies: no shares, not NaN");

	b.dev_io_ticks_ms[1] = a.dev_io_ticks_ms[1] + 700;
	sampler_delta(&a, &b, 0.5, &s);
	is_near(s.util_pct, 100, 0, "util clamps at 100");
	b = a;
	b.cpu[0] += 100, b.cpu[3] -= 50; /* NO_HZ idle stepping back */
	sampler_delta(&a, &b, 1.0, &s);
	is_near(s.user_pct, 100, 0, "a counter going back counts as 0, shares stay in 0..100");
	is_near(s.idle_pct, 0, 0, "idle going back is 0, not negative");
	b = a;
	b.processes += 5;
	sampler_delta(&a, &b, 0, &s);
	is_near(s.forks_per_s, 0, 0, "dt 0 gives 0, not inf");

	struct sys_counters x = {0}, y = {0};
	x.io_ticks_max_ms = 100, y.io_ticks_max_ms = 350;
	sampler_delta(&x, &y, 0.5, &s);
	is_near(s.util_pct, 50, 1e-9, "without a per-device breakdown util comes from io_ticks_max_ms");
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char tmp[512], path[512];
	snprintf(tmp, sizeof(tmp), "%s/.%s", dir, name);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	int bad = fputs(text, f) < 0;
	bad |= fclose(f) != 0;
	return bad ? -1 : rename(tmp, path); /* atomic, as a reader of /proc would see it */
}

/* Start and stop over fixture files changed in between: exact summary, prompt stop at a long interval. */
static void fixture_run(void)
{
	char dir[] = "/tmp/reaim-sampler-XXXXXX";
	if (!mkdtemp(dir)) {
		skip("fixture run", "mkdtemp failed");
		return;
	}
	const char *const devs[] = {"sda1"};
	struct sampler_config cfg = {.interval_s = 10, .devices = devs, .ndevices = 1, .proc_root = dir};
	struct sampler *s;
	char err[256] = "";
	is_int(sampler_start(&cfg, &s, err, sizeof(err)), -1, "missing fixture files fail to start");
	ok(strstr(err, "/stat") != NULL, "the reason names the file");
	printf("# %s\n", err);

	ok(write_file(dir, "stat", "cpu  1000 0 500 8000 100 0 0 0\nctxt 5000\nprocesses 300\n") == 0 &&
		   write_file(dir, "vmstat", "pgfault 100\npgmajfault 1\n") == 0 &&
		   write_file(dir, "diskstats", "8 1 sda1 10 0 100 0 10 0 100 0 0 10 0\n") == 0,
	   "fixtures written");
	const char *const nodev[] = {"sdz"};
	struct sampler_config bad = cfg;
	bad.devices = nodev;
	is_int(sampler_start(&bad, &s, err, sizeof(err)), -1, "an unknown device fails to start");
	ok(strstr(err, "sdz") != NULL, "the reason names the device");
	printf("# %s\n", err);
	bad = cfg;
	bad.interval_s = -1;
	is_int(sampler_start(&bad, &s, err, sizeof(err)), -1, "a negative interval is refused");

	if (sampler_start(&cfg, &s, err, sizeof(err)) != 0) {
		ok(0, "start on fixtures");
		printf("# %s\n", err);
		return;
	}
	ok(1, "start on fixtures");
	write_file(dir, "stat", "cpu  1100 0 550 8040 110 0 0 0\nctxt 6000\nprocesses 320\n");
	write_file(dir, "vmstat", "pgfault 600\npgmajfault 3\n");
	write_file(dir, "diskstats", "8 1 sda1 12 0 2148 0 10 0 100 0 0 10 0\n");
	struct sys_summary sum;
	struct sys_sample *series = (struct sys_sample *)&sum; /* must come back NULL */
	size_t n = 99;
	uint64_t t0 = clock_now_ns();
	sampler_stop(s, &sum, &series, &n);
	double stop_s = (double)(clock_now_ns() - t0) / 1e9;
	ok(stop_s < 0.1, "stop at a 10 s interval returns at once");
	is_int(sum.nsamples, 1, "only the final reading");
	is_int(n, 0, "a sliver of an interval stays out of the series");
	ok(series == NULL, "an empty series comes back NULL");
	is_near(sum.avg.user_pct, 50, 1e-9, "summary: first to last reading, user 100 of 200 jiffies");
	is_near(sum.avg.sys_pct, 25, 1e-9, "summary: system");
	is_near(sum.avg.idle_pct, 20, 1e-9, "summary: idle");
	is_near(sum.avg.iowait_pct, 5, 1e-9, "summary: iowait");
	ok(sum.avg.t_s > 0, "summary: t_s is the period");
	is_near(sum.avg.forks_per_s * sum.avg.t_s, 20, 1e-6, "summary: 20 forks over the period");
	is_near(sum.avg.read_kbs * sum.avg.t_s, 1024, 1e-6, "summary: 2048 sectors = 1024 KB over the period");
	is_near(sum.avg.pgfault_per_s * sum.avg.t_s, 500, 1e-6, "summary: page faults over the period");
	ok(sum.sampler_cpu_pct >= 0, "thread CPU known");
	/* busy = user 100 + system 50 jiffies; the fixture lists no cpuN lines, so no CPU count */
	long hz = sysconf(_SC_CLK_TCK);
	is_near(sum.busy_cpu_s, 150.0 / (double)hz, 1e-9, "summary: busy CPU seconds = 150 jiffies");
	is_near(sum.steal_pct, 0, 0, "summary: no steal");
	is_int(sum.ncpus, 0, "summary: no cpuN lines, no CPU count");
	ok(isnan(sampler_outside_cpu_pct(&sum, 0)), "outside share unknown without a CPU count");
	sum.ncpus = 2;
	/* the fixture's period is a fraction of a millisecond, so 1.5 s of busy time clamps at 100 % */
	is_near(sampler_outside_cpu_pct(&sum, 0), 100, 0, "outside share: all busy time is outside, clamped to 100 %");
	is_near(sampler_outside_cpu_pct(&sum, 150.0 / (double)hz), 0, 1e-9, "outside share: all busy time is ours");
	const char *names[] = {"stat", "vmstat", "diskstats"};
	for (size_t i = 0; i < 3; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* Burn CPU in this thread for about sec seconds. */
static void burn(double sec)
{
	uint64_t end = clock_now_ns() + (uint64_t)(sec * 1e9);
	volatile unsigned long x = 0;
	while (clock_now_ns() < end)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i * x + 1;
}

/* Each entry starts where the one before ended: the series covers the run without gaps. */
static int contiguous(const struct sys_sample *v, size_t n)
{
	double prev = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i].dt_s > 0) || fabs(v[i].t_s - v[i].dt_s - prev) > 1e-6 || v[i].t_s <= prev)
			return 0;
		prev = v[i].t_s;
	}
	return 1;
}

static void live_run(void)
{
	char dev[64];
	is_int(sampler_device_of("/proc", dev, sizeof(dev)), -1, "/proc is on no block device");
	int have_dev = sampler_device_of("/var/tmp", dev, sizeof(dev)) == 0;
	printf("# /var/tmp is on %s\n", have_dev ? dev : "no block device");
	const char *const devs[] = {dev};
	struct sampler_config cfg = {.interval_s = 0.02, .devices = devs, .ndevices = have_dev ? 1 : 0};
	struct sampler *s;
	char err[256] = "";
	if (sampler_start(&cfg, &s, err, sizeof(err)) != 0) {
		ok(0, "live start");
		printf("# %s\n", err);
		return;
	}
	ok(1, "live start");
	int forked = 0;
	fflush(stdout);
	for (int i = 0; i < 20; i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0 && waitpid(pid, NULL, 0) == pid)
			forked++;
	}
	is_int(forked, 20, "20 children forked and reaped while sampling");
	burn(0.3);
	struct sys_summary sum;
	struct sys_sample *series = NULL;
	size_t n = 0;
	uint64_t t0 = clock_now_ns();
	sampler_stop(s, &sum, &series, &n);
	double stop_s = (double)(clock_now_ns() - t0) / 1e9;
	printf("# stop %.2f ms, %zu readings, %zu in series, user %.1f%% sys %.1f%% idle %.1f%%, "
	       "%.0f forks/s, util %.1f%%, sampler CPU %.2f%%\n",
	       stop_s * 1e3, sum.nsamples, n, sum.avg.user_pct, sum.avg.sys_pct, sum.avg.idle_pct,
	       sum.avg.forks_per_s, sum.avg.util_pct, sum.sampler_cpu_pct);
	ok(stop_s < 0.1, "stop returns within 100 ms");
	ok(sum.nsamples >= 5, "at least 5 readings in 0.3 s at 20 ms");
	ok(n >= 5 && series != NULL, "a series of them");
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double floor_pct = ncpu > 4 ? 40.0 / (double)ncpu : 10.0; /* one busy CPU of ncpu */
	ok(sum.avg.user_pct > floor_pct, "burning one CPU shows as user time");
	ok(sum.sampler_cpu_pct >= 0 && sum.sampler_cpu_pct < 5, "the sampler costs under 5% of a CPU");
	ok(sum.avg.forks_per_s * sum.avg.t_s >= 20 - 1e-6, "the 20 forks are counted");
	ok(contiguous(series, n), "series times increase, each interval following the last");
	ok(n > 0 && fabs(series[n - 1].t_s - sum.avg.t_s) < 0.011, "the series ends where the summary does");
	double share = sum.avg.user_pct + sum.avg.nice_pct + sum.avg.sys_pct + sum.avg.idle_pct +
		       sum.avg.iowait_pct + sum.avg.irq_pct + sum.avg.softirq_pct + sum.avg.steal_pct;
	is_near(share, 100, 1e-6, "the CPU shares add up to 100%");
	ok(sum.ncpus == (unsigned)ncpu, "live: the CPU count matches the online CPUs");
	ok(sum.busy_cpu_s > 0.1, "live: the 0.3 s burn shows as busy CPU seconds");
	is_near(sum.steal_pct, sum.avg.steal_pct, 1e-9, "live: steal in the summary is the period's");
	double outside = sampler_outside_cpu_pct(&sum, 0);
	ok(outside >= 0 && outside <= 100, "live: outside share in 0..100 %");
	printf("# busy %.3f CPU-s over %.3f s on %u CPUs, steal %.1f%%\n", sum.busy_cpu_s, sum.avg.t_s, sum.ncpus,
	       sum.steal_pct);
	free(series);
}

/* A series capped at 8 entries is halved by merging pairs and still covers the whole run. */
static void decimation(void)
{
	struct sampler_config cfg = {.interval_s = 0.005, .series_max = 8};
	struct sampler *s;
	char err[256] = "";
	if (sampler_start(&cfg, &s, err, sizeof(err)) != 0) {
		ok(0, "decimation start");
		printf("# %s\n", err);
		return;
	}
	burn(0.25);
	struct sys_summary sum;
	struct sys_sample *series = NULL;
	size_t n = 0;
	sampler_stop(s, &sum, &series, &n);
	printf("# %zu readings kept as %zu entries, the last %.1f ms long\n", sum.nsamples, n,
	       n ? series[n - 1].dt_s * 1e3 : 0.0);
	ok(sum.nsamples > 8, "more readings than the series holds");
	ok(n >= 2 && n <= 8, "the series stays within its cap");
	ok(contiguous(series, n), "decimated series still contiguous from 0");
	ok(n > 0 && fabs(series[n - 1].t_s - sum.avg.t_s) < 0.03, "and reaches the end of the run");
	ok(n > 1 && series[0].dt_s > 0.015, "early entries merged to a coarser step");
	free(series);
}

int main(void)
{
	tap_case(parse_stat);
	tap_case(parse_vmstat);
	tap_case(parse_diskstats);
	tap_case(delta);
	tap_case(fixture_run);
	tap_case(live_run);
	tap_case(decimation);
	return done_testing();
}
