/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the outside-load figures on counters worked by hand, the /proc/PID/stat parser on odd
 * names, the quiet check over fixture /proc trees, and a live check that finds a CPU-burning child. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/load.h"
#include "measure/measure.h"
#include "measure/sampler.h"
#include "tap.h"

static void share(void)
{
	/* 2 CPUs at 100 Hz for 1 s = 200 jiffies: user 60 nice 10 system 30 idle 70 iowait 10 irq 4
	 * softirq 6 steal 10. busy = 60+10+30+4+6 = 110 jiffies = 1.1 s = 55 %; steal 10 = 5 %. */
	struct sys_counters a = {0}, b = {0};
	static const unsigned long long add[8] = {60, 10, 30, 70, 10, 4, 6, 10};
	for (int i = 0; i < 8; i++) {
		a.cpu[i] = 5000 + 100 * (unsigned long long)i;
		b.cpu[i] = a.cpu[i] + add[i];
	}
	b.ncpus = 2;
	struct load_share sh;
	load_between(&a, &b, 100, &sh);
	is_near(sh.busy_cpu_s, 1.1, 1e-12, "busy = user+nice+system+irq+softirq = 1.1 s");
	is_near(sh.steal_cpu_s, 0.1, 1e-12, "steal 0.1 s");
	is_near(sh.total_cpu_s, 2.0, 1e-12, "total 2 CPU-seconds");
	is_near(sh.busy_pct, 55, 1e-12, "busy 55 % of the machine");
	is_near(sh.steal_pct, 5, 1e-12, "steal 5 %");
	is_int(sh.ncpus, 2, "ncpus from the later reading");
	/* the run used 0.69 s of the 1.1 s busy over 2 CPUs x 1 s: outside = 0.41 / 2 = 20.5 % */
	is_near(load_outside_cpu_pct(sh.busy_cpu_s, 0.69, 2, 1.0), 20.5, 1e-9, "outside = (1.1 - 0.69) / 2 = 20.5 %");
	is_near(load_outside_cpu_pct(1.0, 1.02, 2, 1.0), 0, 0, "own above busy (tick rounding) clamps to 0");
	is_near(load_outside_cpu_pct(9, 0, 2, 1.0), 100, 0, "clamped to 100");
	ok(isnan(load_outside_cpu_pct(1, 0, 0, 1)), "no CPU count: NaN");
	ok(isnan(load_outside_cpu_pct(1, 0, 2, 0)), "no wall time: NaN");
	ok(isnan(load_outside_cpu_pct(NAN, 0, 2, 1)), "NaN busy: NaN");
	b.cpu[3] = a.cpu[3] - 5; /* idle stepping back on NO_HZ */
	load_between(&a, &b, 100, &sh);
	is_near(sh.total_cpu_s, 1.3, 1e-12, "a counter stepping back counts 0");
	load_between(&a, &a, 100, &sh);
	is_near(sh.busy_pct + sh.steal_pct, 0, 0, "no jiffies: 0 %, not NaN");
	load_between(&a, &b, 0, &sh);
	is_near(sh.busy_cpu_s, 0, 0, "hz 0: nothing");
}

static void pid_stat(void)
{
	struct load_pid p;
	/* a name with a blank and a ')' in it; negative priority and nice; utime 1234 stime 56 start 98765 */
	static const char odd[] = "4242 (my prog) x) R 1 4242 4242 0 -1 4194560 100 0 0 0 1234 56 7 8 -20 -5 3 0 "
				  "98765 1000 200 18446744073709551615 0 0 0\n";
	is_int(load_parse_pid_stat(odd, &p), 0, "pid stat with an odd name parses");
	is_int(p.pid, 4242, "pid");
	is_str(p.comm, "my prog) x", "the name runs to the last ')'");
	is_int(p.cpu_ticks, 1234 + 56, "cpu = utime + stime, not the children's 7 + 8");
	is_int(p.start_ticks, 98765, "start time");
	static const char kworker[] = "77 (kworker/0:1H-kblockd) I 2 0 0 0 -1 69238880 0 0 0 0 0 3 0 0 0 -20 1 0 "
				      "12 0 0 18446744073709551615\n";
	is_int(load_parse_pid_stat(kworker, &p), 0, "a workqueue worker parses");
	is_str(p.comm, "kworker/0:1H-kblockd", "its long name is kept");
	is_int(p.cpu_ticks, 3, "its CPU");
	is_int(load_parse_pid_stat("12 (short) R 1 2 3\n", &p), -1, "a truncated line is refused");
	is_int(load_parse_pid_stat("x (a) R 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n", &p), -1,
	       "no pid is refused");
	is_int(load_parse_pid_stat("12 a R 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n", &p), -1,
	       "no parentheses is refused");
	is_int(load_parse_pid_stat("12 (a) R 1 2 3 4 5 6 7 8 9 10 x 12 13 14 15 16 17 18 19 20\n", &p), -1,
	       "a bad utime is refused");
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int bad = fputs(text, f) < 0;
	bad |= fclose(f) != 0;
	return bad ? -1 : 0;
}

/* A fake /proc under dir: a stat file and one PID/stat per entry. */
static int fake_proc(const char *dir, const char *stat, const char *const *pids, size_t n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/stat", dir);
	if (write_file(path, stat) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		long pid = strtol(pids[i], NULL, 10);
		snprintf(path, sizeof(path), "%s/%ld", dir, pid);
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -1;
		snprintf(path, sizeof(path), "%s/%ld/stat", dir, pid);
		if (write_file(path, pids[i]) < 0)
			return -1;
	}
	return 0;
}

static void remove_fake(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}

/* Two snapshots of fixture trees 2 s apart, judged by hand. */
static void quiet_fixtures(void)
{
	char da[] = "/tmp/reaim-load-a-XXXXXX", db[] = "/tmp/reaim-load-b-XXXXXX";
	if (!mkdtemp(da) || !mkdtemp(db)) {
		skip("quiet fixtures", "mkdtemp failed");
		return;
	}
	/* before: cc1 x2 (pids 10, 11), make (12), us (13), an idle sshd (14), a process that exits (15),
	 * and pid 16 which is reused by a new process in between */
#define PS(pid, name, ut, st, start) \
	pid " (" name ") R 1 1 1 0 -1 0 0 0 0 0 " ut " " st " 0 0 20 0 1 0 " start " 0 0\n"
	const char *before[] = {
		PS("10", "cc1", "100", "0", "500"), PS("11", "cc1", "50", "10", "600"),  PS("12", "make", "5", "5", "100"),
		PS("13", "reaim", "1", "1", "50"),  PS("14", "sshd", "3", "3", "10"),   PS("15", "gone", "9", "9", "20"),
		PS("16", "old", "500", "0", "30"),
	};
	/* 2 s later at 100 Hz: cc1 10 +150, cc1 11 +90, make +20, reaim +400 (left out: self),
	 * sshd +0, new pid 17 "ld" with 40 ticks, pid 16 reused by "cc1" (start 900) with 20 ticks */
	const char *after[] = {
		PS("10", "cc1", "240", "10", "500"), PS("11", "cc1", "120", "30", "600"), PS("12", "make", "15", "15", "100"),
		PS("13", "reaim", "201", "201", "50"), PS("14", "sshd", "3", "3", "10"), PS("16", "cc1", "15", "5", "900"),
		PS("17", "ld", "30", "10", "950"),
	};
#undef PS
	/* 2 CPUs x 2 s = 400 jiffies: user 250 nice 0 system 30 idle 90 iowait 10 irq 0 softirq 0 steal 20 */
	int okw = fake_proc(da, "cpu  1000 0 200 5000 100 0 0 50\ncpu0 1\ncpu1 1\nctxt 1\nprocesses 1\n", before, 7) == 0 &&
		  fake_proc(db, "cpu  1250 0 230 5090 110 0 0 70\ncpu0 1\ncpu1 1\nctxt 2\nprocesses 3\n", after, 7) == 0;
	ok(okw, "fixture trees written");
	struct load_snapshot a, b;
	char err[256] = "";
	if (!okw || load_snapshot_take(da, &a, err, sizeof(err)) < 0 || load_snapshot_take(db, &b, err, sizeof(err)) < 0) {
		ok(0, "snapshots taken");
		printf("# %s\n", err);
		remove_fake(da);
		remove_fake(db);
		return;
	}
	is_int(a.nprocs, 7, "seven processes read");
	ok(a.procs[0].pid == 10 && a.procs[6].pid == 16, "sorted by pid");
	is_int(a.stat.ncpus, 2, "two CPUs");
	b.t_ns = a.t_ns + 2000000000ull; /* the fixtures stand for a 2 s interval */
	struct load_quiet q;
	load_quiet_between(&a, &b, 100, 13, &q);
	is_near(q.wall_s, 2, 1e-9, "interval 2 s");
	is_near(q.busy_pct, 100.0 * 280 / 400, 1e-9, "busy 280 of 400 jiffies = 70 %");
	is_near(q.steal_pct, 5, 1e-9, "steal 20 of 400 = 5 %");
	is_int(q.ntop, 3, "three names used CPU (sshd none, reaim is us, 'gone' ended)");
	/* cc1: 150 + 90 + 20 (the reused pid, all its ticks) = 260 ticks = 2.6 s over 2 s = 130 % of a CPU */
	is_str(q.top[0].comm, "cc1", "busiest: cc1");
	is_near(q.top[0].cpu_pct, 130, 1e-9, "cc1 130 % of a CPU");
	is_int(q.top[0].nprocs, 3, "cc1 over three processes");
	is_int(q.top[0].pid, 10, "its busiest pid 10");
	is_str(q.top[1].comm, "ld", "then ld, new in between (all 40 ticks)");
	is_near(q.top[1].cpu_pct, 20, 1e-9, "ld 20 %");
	is_str(q.top[2].comm, "make", "then make");
	is_near(q.top[2].cpu_pct, 10, 1e-9, "make 10 %");
	char line[512];
	load_quiet_describe(&q, line, sizeof(line));
	printf("# %s\n", line);
	is_str(line,
	       "busy 140% of a CPU (70.0% of 2 CPUs), steal 5.0%; the busiest, in % of a CPU: cc1 130% (3 processes), "
	       "ld 20% (pid 17), make 10% (pid 12)",
	       "the warning names the load, the whole and each process in one unit (% of a CPU)");
	char small[20];
	load_quiet_describe(&q, small, sizeof(small));
	is_int(strlen(small), sizeof(small) - 1, "a short buffer is filled and terminated");
	struct load_proc one[1];
	is_int(load_proc_usage(&a, &b, 100, 13, one, 1), 1, "max 1 keeps only the busiest");
	is_str(one[0].comm, "cc1", "... which is cc1");
	load_quiet_between(&a, &b, 100, 0, &q);
	is_str(q.top[0].comm, "reaim", "without leaving out self, reaim's 400 ticks lead");
	load_snapshot_free(&a);
	load_snapshot_free(&b);
	ok(a.procs == NULL && a.nprocs == 0, "snapshot freed");

	char missing[600];
	snprintf(missing, sizeof(missing), "%s/none", da);
	is_int(load_snapshot_take(missing, &a, err, sizeof(err)), -1, "a missing proc root fails");
	ok(strstr(err, "none/stat") != NULL, "the reason names the file");
	char bad[600];
	snprintf(bad, sizeof(bad), "%s/stat", da);
	write_file(bad, "nothing here\n");
	is_int(load_snapshot_take(da, &a, err, sizeof(err)), -1, "a malformed stat fails");
	ok(strstr(err, "expected format") != NULL, "... saying so");
	remove_fake(da);
	remove_fake(db);
}

static int cpu_clock_s(clockid_t clk, double *s)
{
	struct timespec ts;
	if (clock_gettime(clk, &ts) != 0)
		return 0;
	*s = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	return 1;
}

/* The real /proc: a child burning a CPU under a name of its own is found and charged about right.
 * The name holds the child's pid: another checkout's test burning beside this one would share a
 * fixed name, and usage is summed by name. */
static void hog_name(pid_t pid, char *name, size_t len) { snprintf(name, len, "rhog%u", (unsigned)pid); }

static void quiet_live(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		skip("live quiet check", "fork failed");
		return;
	}
	if (pid == 0) {
		char name[16];
		hog_name(getpid(), name, sizeof(name));
		prctl(PR_SET_NAME, name);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		volatile unsigned long x = 0;
		for (;;)
			x++;
	}
	usleep(50000);
	/* the child's own CPU clock read around each snapshot bounds what the snapshots may charge it */
	clockid_t clk;
	double x1 = 0, x2 = 0, y1 = 0, y2 = 0;
	int have_clk = clock_getcpuclockid(pid, &clk) == 0;
	struct load_snapshot a, b;
	char err[256] = "";
	have_clk &= cpu_clock_s(clk, &x1);
	int rc = load_snapshot_take(NULL, &a, err, sizeof(err));
	have_clk &= cpu_clock_s(clk, &x2);
	usleep(400000);
	have_clk &= cpu_clock_s(clk, &y1);
	rc |= load_snapshot_take(NULL, &b, err, sizeof(err));
	have_clk &= cpu_clock_s(clk, &y2);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (rc < 0) {
		ok(0, "live snapshots");
		printf("# %s\n", err);
		return;
	}
	long hz = sysconf(_SC_CLK_TCK);
	static struct load_proc all[4096];
	size_t n = load_proc_usage(&a, &b, (double)hz, getpid(), all, 4096);
	const struct load_proc *hog = NULL;
	char name[16];
	hog_name(pid, name, sizeof(name));
	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i].comm, name) == 0)
			hog = &all[i];
	ok(hog != NULL, "live: the burning child is found by name");
	ok(hog && hog->pid == pid && hog->nprocs == 1, "live: with its pid");
	double wall = (double)(b.t_ns - a.t_ns) / 1e9, tick = 1.0 / (double)hz;
	double charged = hog ? hog->cpu_pct / 100 * wall : 0;
	if (hog)
		printf("# child charged %.3f s (%.0f%% of a CPU); its clock says %.3f .. %.3f s\n", charged,
		       hog->cpu_pct, y1 - x2, y2 - x1);
	if (have_clk)
		ok(charged >= y1 - x2 - 3 * tick && charged <= y2 - x1 + 3 * tick,
		   "live: the charge agrees with the child's CPU clock within three ticks (each of utime and stime is truncated)");
	else
		skip("live: the charge agrees with the child's CPU clock", "no CPU clock for the child");
	ok(hog && hog->cpu_pct <= 100 + 200.0 * tick / wall, "live: one thread uses at most one CPU");
	struct load_quiet q;
	load_quiet_between(&a, &b, (double)hz, getpid(), &q);
	ok(q.busy_pct > 0 && q.busy_pct <= 100, "live: the machine is busy");
	ok(q.ncpus >= 1, "live: CPUs counted");
	load_snapshot_free(&a);
	load_snapshot_free(&b);
	struct sys_counters c;
	is_int(load_read_stat(NULL, &c, err, sizeof(err)), 0, "the real /proc/stat reads");
	ok(c.ncpus == (unsigned)sysconf(_SC_NPROCESSORS_ONLN), "... with a line per online CPU");
	is_int(load_quiet_check(NULL, 0.05, &q, err, sizeof(err)), 0, "load_quiet_check runs");
	ok(q.wall_s >= 0.05, "... over at least the time asked");
	is_int(load_quiet_check(NULL, 0, &q, err, sizeof(err)), -1, "0 s is refused");
}

/* The noise verdict by hand: a 10 % limit, a 0.2 % resolution (100 Hz over 10 s). */
static void noise(void)
{
	char why[160];
	is_near(load_resolution_pct(100, 10), 0.2, 1e-12,
		"resolution: a tick per CPU at each end, 2 / (100 Hz x 10 s)");
	is_near(load_resolution_pct(100, 0.1), 20, 1e-9, "... 20 % over a 0.1 s point");
	ok(isnan(load_resolution_pct(0, 1)) && isnan(load_resolution_pct(100, 0)),
	   "... NaN without a clock or a period");
	is_int(load_noise(23.4, 0.5, 10, 0.2, why, sizeof(why)), 1, "outside 23.4 % over a 10 % limit is noise");
	is_str(why, "outside load 23.4 % of the machine", "... named with its figure");
	is_int(load_noise(2, 11.04, 10, 0.2, why, sizeof(why)), 1, "steal 11.04 % is noise");
	is_str(why, "steal 11.0 % of CPU time", "... named with its figure");
	is_int(load_noise(30, 40, 10, 0.2, why, sizeof(why)), 1, "both");
	is_str(why, "outside load 30.0 % of the machine; steal 40.0 % of CPU time", "... both named");
	is_int(load_noise(10.1, 0, 10, 0.2, why, sizeof(why)), 0, "within the resolution of the limit: not noise");
	is_str(why, "", "... and no reason");
	is_int(load_noise(10.3, 0, 10, 0.2, why, sizeof(why)), 1, "past the limit by more than the resolution: noise");
	is_int(load_noise(10.3, 0, 10, NAN, why, sizeof(why)), 1, "an unknown resolution counts as none");
	is_int(load_noise(NAN, NAN, 10, 0.2, why, sizeof(why)), 0, "unknown figures are not noise");
	is_int(load_noise(100, 100, 100, 0, why, sizeof(why)), 0, "a 100 % limit is never passed");
	char tiny[12];
	is_int(load_noise(50, 50, 10, 0, tiny, sizeof(tiny)), 1, "a short buffer still gets the verdict");
	is_str(tiny, "outside loa", "... and the reason cut to fit");
}

int main(void)
{
	tap_case(share);
	tap_case(noise);
	tap_case(pid_stat);
	tap_case(quiet_fixtures);
	tap_case(quiet_live);
	return done_testing();
}
