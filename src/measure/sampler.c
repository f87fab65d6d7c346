/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System sampler: a thread reads /proc/stat, /proc/vmstat and /proc/diskstats at a fixed interval
 * during a load point and keeps a time series of CPU shares, disk throughput and VM event rates. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "measure/load.h"
#include "measure/measure.h"
#include "measure/procstat.h"
#include "measure/sampler.h"
#include "util/util.h"

/* Largest /proc file accepted when sizing the read buffer (a /proc/stat of thousands of CPUs). */
#define PROC_FILE_MAX (16u << 20)

/* The rate and share fields of a sample, for merging pairs when the series is decimated. */
#define SAMPLE_FIGURES(X)                                                                       \
	X(user_pct) X(nice_pct) X(sys_pct) X(iowait_pct) X(irq_pct) X(softirq_pct) X(steal_pct)  \
	X(idle_pct) X(read_kbs) X(write_kbs) X(read_iops) X(write_iops) X(util_pct)             \
	X(ctxt_per_s) X(forks_per_s) X(pgfault_per_s) X(pgmajfault_per_s) X(swap_in_per_s)      \
	X(swap_out_per_s)

/* The files read at each beat, and their names under the proc root. */
enum proc_file { PROC_STAT, PROC_VMSTAT, PROC_DISKSTATS, PROC_NFILES };
static const char *const proc_file_names[PROC_NFILES] = {"stat", "vmstat", "diskstats"};

struct sampler {
	/* set by sampler_start, read-only afterwards */
	char dev_names[SAMPLER_MAX_DEVICES][SAMPLER_DEV_NAME_MAX];
	const char *devs[SAMPLER_MAX_DEVICES];
	size_t ndevices;
	char paths[PROC_NFILES][PATH_MAX];
	int stop_fd;
	pthread_t thread;
	uint64_t t0_ns;
	struct sys_counters first;
	/* owned by the thread while it runs, by sampler_stop after the join: never shared, so no lock */
	char *buf;
	size_t bufcap;
	uint64_t period_ns;
	struct sys_counters prev;
	uint64_t prev_ns;
	struct sys_sample *series;
	size_t n, cap;
	size_t nreadings, errors;
	int cpu_known;
	uint64_t thread_cpu_ns, thread_wall_ns;
	double hz; /* USER_HZ, the unit of /proc/stat */
};

/* ---- the interval between two readings ---- */

/* The growth of a counter; a decrease counts as none, because the kernel's idle and iowait
 * jiffies can step backwards on NO_HZ kernels and a removed device resets its sums. */
static double grew(unsigned long long a, unsigned long long b)
{
	return b > a ? (double)(b - a) : 0.0;
}

static double clamp_pct(double x)
{
	return !(x > 0) ? 0 : x > 100 ? 100 : x;
}

void sampler_delta(const struct sys_counters *a, const struct sys_counters *b, double dt, struct sys_sample *out)
{
	*out = (struct sys_sample){0};
	out->t_s = out->dt_s = dt;
	double d[8], total = 0;
	for (size_t i = 0; i < ARRAY_SIZE(d); i++) {
		d[i] = grew(a->cpu[i], b->cpu[i]);
		total += d[i];
	}
	if (total > 0) {
		out->user_pct = clamp_pct(100.0 * d[0] / total);
		out->nice_pct = clamp_pct(100.0 * d[1] / total);
		out->sys_pct = clamp_pct(100.0 * d[2] / total);
		out->idle_pct = clamp_pct(100.0 * d[3] / total);
		out->iowait_pct = clamp_pct(100.0 * d[4] / total);
		out->irq_pct = clamp_pct(100.0 * d[5] / total);
		out->softirq_pct = clamp_pct(100.0 * d[6] / total);
		out->steal_pct = clamp_pct(100.0 * d[7] / total);
	}
	if (!(dt > 0))
		return;
	out->read_kbs = grew(a->rd_sectors, b->rd_sectors) * 512.0 / 1024.0 / dt;
	out->write_kbs = grew(a->wr_sectors, b->wr_sectors) * 512.0 / 1024.0 / dt;
	out->read_iops = grew(a->rd_ios, b->rd_ios) / dt;
	out->write_iops = grew(a->wr_ios, b->wr_ios) / dt;
	/* busy shares do not add up across devices (two half-busy disks are not one busy disk),
	 * so util is the busiest device's, as iostat shows per device */
	double busy_ms = 0;
	size_t nd = a->ndevices < b->ndevices ? a->ndevices : b->ndevices;
	if (nd > SAMPLER_MAX_DEVICES)
		nd = SAMPLER_MAX_DEVICES;
	for (size_t i = 0; i < nd; i++) {
		double g = grew(a->dev_io_ticks_ms[i], b->dev_io_ticks_ms[i]);
		busy_ms = g > busy_ms ? g : busy_ms;
	}
	if (nd == 0)
		busy_ms = grew(a->io_ticks_max_ms, b->io_ticks_max_ms);
	out->util_pct = clamp_pct(100.0 * busy_ms / (dt * 1000.0));
	out->ctxt_per_s = grew(a->ctxt, b->ctxt) / dt;
	out->forks_per_s = grew(a->processes, b->processes) / dt;
	out->pgfault_per_s = grew(a->pgfault, b->pgfault) / dt;
	out->pgmajfault_per_s = grew(a->pgmajfault, b->pgmajfault) / dt;
	out->swap_in_per_s = grew(a->pswpin, b->pswpin) / dt;
	out->swap_out_per_s = grew(a->pswpout, b->pswpout) / dt;
}

/* ---- the sampling thread ---- */

/* A whole /proc file into buf with open/read/close only: the thread runs while the main thread
 * forks, so it must not take the stdio or malloc locks a child could inherit held. */
static int read_into(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = 0;
	int rc = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -1;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == cap - 1) {
			char extra;
			while ((r = read(fd, &extra, 1)) < 0 && errno == EINTR)
				;
			if (r != 0) {
				/* grown past twice its size at start: refuse rather than parse half a file */
				errno = r < 0 ? errno : EFBIG;
				rc = -1;
			}
			break;
		}
	}
	int e = errno;
	/* a read-only descriptor has nothing to flush; close fails only for a bad fd, which we own */
	(void)close(fd);
	errno = e;
	buf[n] = '\0';
	return rc;
}

/* The text of one /proc file through the parser for its kind. */
static int parse_kind(const struct sampler *s, enum proc_file kind, const char *text, struct sys_counters *c)
{
	switch (kind) {
	case PROC_STAT:
		return procstat_parse_stat(text, c);
	case PROC_VMSTAT:
		return procstat_parse_vmstat(text, c);
	case PROC_DISKSTATS:
		return procstat_parse_diskstats(text, s->devs, s->ndevices, c);
	case PROC_NFILES:
		break;
	}
	return -1;
}

/* Read one /proc file and parse it; 0 or -1 with errno. */
static int read_one(struct sampler *s, enum proc_file kind, struct sys_counters *c)
{
	if (read_into(s->paths[kind], s->buf, s->bufcap) < 0)
		return -1;
	if (parse_kind(s, kind, s->buf, c) < 0) {
		errno = EBADMSG; /* a device went away, or the format changed under us */
		return -1;
	}
	return 0;
}

/* One reading of every counter, time-stamped just before it; 0 or -1 with errno. */
static int read_counters(struct sampler *s, struct sys_counters *c, uint64_t *when)
{
	*when = clock_now_ns();
	if (read_one(s, PROC_STAT, c) < 0 || read_one(s, PROC_VMSTAT, c) < 0)
		return -1;
	if (s->ndevices == 0)
		return procstat_parse_diskstats("", NULL, 0, c);
	return read_one(s, PROC_DISKSTATS, c);
}

/* Two adjacent samples as one, each figure weighted by its interval's length. */
static struct sys_sample merge(const struct sys_sample *a, const struct sys_sample *b)
{
	double w = a->dt_s + b->dt_s;
	double wa = w > 0 ? a->dt_s / w : 0.5, wb = w > 0 ? b->dt_s / w : 0.5;
	struct sys_sample m = {.t_s = b->t_s, .dt_s = w};
#define MERGE_FIGURE(f) m.f = wa * a->f + wb * b->f;
	SAMPLE_FIGURES(MERGE_FIGURE)
#undef MERGE_FIGURE
	return m;
}

/* Append without allocating; a full series is halved by merging pairs and the interval doubled,
 * so it keeps covering the whole run at a uniform, coarser step in fixed memory. */
static void series_append(struct sampler *s, const struct sys_sample *x)
{
	s->series[s->n++] = *x;
	if (s->n < s->cap)
		return;
	size_t j = 0;
	for (size_t i = 0; i + 1 < s->n; i += 2)
		s->series[j++] = merge(&s->series[i], &s->series[i + 1]);
	if (s->n % 2)
		s->series[j++] = s->series[s->n - 1];
	s->n = j;
	s->period_ns *= 2;
}

/* Read the counters and record the interval since the previous reading. A final reading shorter
 * than a tenth of the interval still ends the summary but stays out of the series: over a few
 * jiffies its shares and rates would be mostly rounding. */
static void take_sample(struct sampler *s, int final)
{
	struct sys_counters cur;
	uint64_t t;
	if (read_counters(s, &cur, &t) < 0) {
		s->errors++;
		return;
	}
	s->nreadings++;
	struct sys_sample x;
	sampler_delta(&s->prev, &cur, (double)(t - s->prev_ns) / 1e9, &x);
	x.t_s = (double)(t - s->t0_ns) / 1e9;
	s->prev = cur;
	s->prev_ns = t;
	if (!final || x.dt_s * 10 * 1e9 >= (double)s->period_ns)
		series_append(s, &x);
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

/* The thread: sleep in ppoll on the stop eventfd until the next beat, read, repeat. */
static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	struct timespec cpu0, cpu1;
	s->cpu_known = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0) == 0;
	uint64_t wall0 = clock_now_ns();
	/* beats on a fixed schedule from the baseline, so the series does not drift by the read time */
	uint64_t deadline = s->prev_ns + s->period_ns;
	for (;;) {
		uint64_t now = clock_now_ns();
		uint64_t wait = deadline > now ? deadline - now : 0;
		struct timespec ts = {.tv_sec = (time_t)(wait / 1000000000ull), .tv_nsec = (long)(wait % 1000000000ull)};
		struct pollfd pfd = {.fd = s->stop_fd, .events = POLLIN};
		int r = ppoll(&pfd, 1, &ts, NULL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			/* cannot wait: stop sampling rather than spin; sampler_stop still takes the last reading */
			s->errors++;
			break;
		}
		if (r > 0)
			break;
		take_sample(s, 0);
		deadline += s->period_ns;
		now = clock_now_ns();
		/* after a stall (a loaded or suspended host) skip the missed beats instead of bursting */
		if (deadline <= now)
			deadline = now + s->period_ns;
	}
	if (s->cpu_known && clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1) == 0)
		s->thread_cpu_ns = ts_ns(&cpu1) - ts_ns(&cpu0);
	else
		s->cpu_known = 0;
	s->thread_wall_ns = clock_now_ns() - wall0;
	return NULL;
}

static void sampler_free(struct sampler *s)
{
	if (s->stop_fd >= 0)
		(void)close(s->stop_fd);
	free(s->buf);
	free(s->series);
	free(s);
}

/* Copy the device names, rejecting what the parser could never match. */
static int take_devices(struct sampler *s, const struct sampler_config *cfg, char *err, size_t errlen)
{
	if (cfg->ndevices > SAMPLER_MAX_DEVICES) {
		set_err(err, errlen, "sampler: %zu devices given, at most %d", cfg->ndevices, SAMPLER_MAX_DEVICES);
		return -1;
	}
	if (cfg->ndevices > 0 && !cfg->devices) {
		set_err(err, errlen, "sampler: %zu devices but no names", cfg->ndevices);
		return -1;
	}
	for (size_t i = 0; i < cfg->ndevices; i++) {
		const char *d = cfg->devices[i];
		if (!d || !d[0] || strlen(d) >= SAMPLER_DEV_NAME_MAX || strpbrk(d, " \t\n")) {
			set_err(err, errlen, "sampler: bad block device name '%s'", d ? d : "(null)");
			return -1;
		}
		for (size_t j = 0; j < i; j++) {
			if (strcmp(s->dev_names[j], d) == 0) {
				set_err(err, errlen, "sampler: device %s given twice", d);
				return -1;
			}
		}
		memcpy(s->dev_names[i], d, strlen(d) + 1);
		s->devs[i] = s->dev_names[i];
	}
	s->ndevices = cfg->ndevices;
	return 0;
}

/* Check one /proc file parses now and return its size, to size the thread's fixed buffer. */
static int probe_file(const struct sampler *s, enum proc_file kind, size_t *len, char *err, size_t errlen)
{
	const char *path = s->paths[kind];
	char *text = read_text_file(path, PROC_FILE_MAX);
	if (!text) {
		set_err(err, errlen, "sampler: %s: %s", path, strerror(errno));
		return -1;
	}
	struct sys_counters c;
	int rc = parse_kind(s, kind, text, &c);
	if (rc < 0 && kind == PROC_DISKSTATS) {
		for (size_t i = 0; i < s->ndevices; i++) {
			if (procstat_parse_diskstats(text, &s->devs[i], 1, &c) < 0) {
				set_err(err, errlen, "sampler: block device %s is not in %s", s->devs[i], path);
				break;
			}
		}
	} else if (rc < 0) {
		set_err(err, errlen, "sampler: %s: not in the expected format", path);
	}
	*len = strlen(text);
	free(text);
	return rc;
}

/* Fill the /proc paths under root; -1 if one does not fit. */
static int set_paths(struct sampler *s, const char *root, char *err, size_t errlen)
{
	for (int k = 0; k < PROC_NFILES; k++) {
		int w = snprintf(s->paths[k], sizeof(s->paths[k]), "%s/%s", root, proc_file_names[k]);
		if (w < 0 || (size_t)w >= sizeof(s->paths[k])) {
			set_err(err, errlen, "sampler: proc root too long: %s", root);
			return -1;
		}
	}
	return 0;
}

int sampler_start(const struct sampler_config *cfg, struct sampler **out, char *err, size_t errlen)
{
	*out = NULL;
	double iv = cfg->interval_s == 0 ? 0.1 : cfg->interval_s;
	if (!(iv >= 0.001 && iv <= 3600)) {
		set_err(err, errlen, "sampler: interval %g s is outside 0.001 .. 3600 s", cfg->interval_s);
		return -1;
	}
	struct sampler *s = xcalloc(1, sizeof(*s));
	s->stop_fd = -1;
	s->period_ns = (uint64_t)llround(iv * 1e9);
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0) {
		set_err(err, errlen, "sampler: sysconf(_SC_CLK_TCK): %s", strerror(errno));
		goto fail;
	}
	s->hz = (double)hz;
	const char *root = cfg->proc_root ? cfg->proc_root : "/proc";
	if (take_devices(s, cfg, err, errlen) < 0 || set_paths(s, root, err, errlen) < 0)
		goto fail;

	size_t len, biggest = 0;
	for (int k = 0; k < (s->ndevices ? PROC_NFILES : PROC_DISKSTATS); k++) {
		if (probe_file(s, (enum proc_file)k, &len, err, errlen) < 0)
			goto fail;
		biggest = len > biggest ? len : biggest;
	}
	/* room for the files to grow (the interrupt counts in /proc/stat gain digits) */
	s->bufcap = 2 * biggest + 4096 > 65536 ? 2 * biggest + 4096 : 65536;
	s->buf = xmalloc(s->bufcap);

	/* one hour at the interval, allocated now so the thread never allocates; pages are only
	 * touched as the series fills; even, so decimation merges whole pairs */
	double hour = ceil(3600.0 / iv);
	size_t most = SAMPLER_SERIES_MAX;
	if (cfg->series_max > 0 && cfg->series_max < most)
		most = cfg->series_max;
	s->cap = hour < (double)most ? (size_t)hour : most;
	s->cap = s->cap < 2 ? 2 : s->cap + (s->cap % 2);
	s->series = xmalloc(s->cap * sizeof(*s->series));

	s->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (s->stop_fd < 0) {
		set_err(err, errlen, "sampler: eventfd: %s", strerror(errno));
		goto fail;
	}
	if (read_counters(s, &s->first, &s->t0_ns) < 0) {
		set_err(err, errlen, "sampler: first reading failed: %s", strerror(errno));
		goto fail;
	}
	s->prev = s->first;
	s->prev_ns = s->t0_ns;

	/* The thread blocks every signal: the engine takes SIGCHLD and SIGINT through a signalfd,
	 * and a process signal the kernel handed to this thread instead would never reach it. */
	sigset_t all, old;
	sigfillset(&all);
	int rc = pthread_sigmask(SIG_SETMASK, &all, &old);
	if (rc != 0) {
		set_err(err, errlen, "sampler: pthread_sigmask: %s", strerror(rc));
		goto fail;
	}
	rc = pthread_create(&s->thread, NULL, sampler_main, s);
	int rc2 = pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		set_err(err, errlen, "sampler: pthread_create: %s", strerror(rc));
		goto fail;
	}
	if (rc2 != 0) {
		/* the thread runs; the caller's mask stayed all-blocked, which it must learn about */
		set_err(err, errlen, "sampler: pthread_sigmask: %s", strerror(rc2));
		sampler_stop(s, NULL, NULL, NULL);
		return -1;
	}
	*out = s;
	return 0;
fail:
	sampler_free(s);
	return -1;
}

void sampler_stop(struct sampler *s, struct sys_summary *sum, struct sys_sample **series, size_t *n)
{
	if (sum)
		*sum = (struct sys_summary){0};
	if (series)
		*series = NULL;
	if (n)
		*n = 0;
	if (!s)
		return;
	uint64_t one = 1;
	ssize_t w;
	while ((w = write(s->stop_fd, &one, sizeof(one))) < 0 && errno == EINTR)
		;
	/* an eventfd write fails only on counter overflow, which one write cannot reach; should it
	 * anyway, cancel: the thread holds no lock and its cancellation points are its system calls */
	if (w != (ssize_t)sizeof(one))
		pthread_cancel(s->thread);
	int rc = pthread_join(s->thread, NULL);
	if (rc != 0)
		log_warn("sampler: pthread_join: %s", strerror(rc));
	if (w != (ssize_t)sizeof(one))
		s->cpu_known = 0;
	take_sample(s, 1);

	if (sum) {
		sampler_delta(&s->first, &s->prev, (double)(s->prev_ns - s->t0_ns) / 1e9, &sum->avg);
		sum->nsamples = s->nreadings;
		sum->errors = s->errors;
		sum->sampler_cpu_pct = s->cpu_known && s->thread_wall_ns > 0
					       ? 100.0 * (double)s->thread_cpu_ns / (double)s->thread_wall_ns
					       : -1;
		struct load_share sh;
		load_between(&s->first, &s->prev, s->hz, &sh);
		sum->busy_cpu_s = sh.busy_cpu_s;
		sum->steal_pct = sh.steal_pct;
		sum->ncpus = sh.ncpus;
	}
	if (series && s->n > 0) {
		/* give back the unused part of the hour's allocation */
		struct sys_sample *shrunk = realloc(s->series, s->n * sizeof(*s->series));
		*series = shrunk ? shrunk : s->series;
		s->series = NULL;
		if (n)
			*n = s->n;
	}
	sampler_free(s);
}

double sampler_outside_cpu_pct(const struct sys_summary *sum, double own_cpu_s)
{
	return load_outside_cpu_pct(sum->busy_cpu_s, own_cpu_s, sum->ncpus, sum->avg.t_s);
}

/* ---- which device holds a directory ---- */

/* The block device named as the source of the mount with this (anonymous) device number, for
 * file systems such as btrfs whose st_dev is not a block device; -1 if there is none. */
static int mount_source_dev(dev_t dev, dev_t *out)
{
	char *text = read_text_file("/proc/self/mountinfo", CGROUP_PROC_FILE_MAX);
	if (!text)
		return -1;
	int rc = -1, got;
	struct mountinfo_entry e;
	for (const char *p = text; rc < 0 && (got = mountinfo_next(&p, &e)) >= 0; mountinfo_entry_free(&e)) {
		struct stat st;
		if (got == 1 && makedev(e.major, e.minor) == dev && e.source[0] == '/' && stat(e.source, &st) == 0 &&
		    S_ISBLK(st.st_mode)) {
			*out = st.st_rdev;
			rc = 0;
		}
	}
	free(text);
	return rc;
}

int sampler_device_of(const char *dir, char *name, size_t len)
{
	struct stat st;
	if (stat(dir, &st) < 0)
		return -1;
	dev_t dev = st.st_dev;
	/* major 0 is an anonymous device: tmpfs, overlay, NFS (none) or btrfs (its mount source) */
	if (major(dev) == 0 && mount_source_dev(dev, &dev) < 0) {
		errno = ENODEV;
		return -1;
	}
	char *text = read_text_file("/proc/diskstats", PROC_FILE_MAX);
	if (!text)
		return -1;
	int rc = -1;
	errno = ENODEV;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned ma, mi;
		char dev_name[SAMPLER_DEV_NAME_MAX + 1];
		if (sscanf(line, "%u %u %32s", &ma, &mi, dev_name) != 3 || makedev(ma, mi) != dev)
			continue;
		if (strlen(dev_name) < len) {
			memcpy(name, dev_name, strlen(dev_name) + 1);
			rc = 0;
		} else {
			errno = ERANGE;
		}
		break;
	}
	free(text);
	return rc;
}
