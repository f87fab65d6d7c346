/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Outside load: machine CPU time from /proc/stat against the run's own, steal time, and a quiet
 * check that reads every /proc/PID/stat twice to name what keeps the machine busy. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure/load.h"
#include "measure/measure.h"
#include "measure/procstat.h"
#include "util/util.h"

/* /proc/PID/stat is one line of a few hundred bytes; /proc/stat grows with CPUs and interrupts. */
#define PID_STAT_MAX 4096
#define PROC_STAT_MAX (16u << 20)

/* A counter's growth; one that stepped back (NO_HZ idle, iowait) grew by nothing. */
static double grew(unsigned long long a, unsigned long long b)
{
	return b > a ? (double)(b - a) : 0.0;
}

void load_between(const struct sys_counters *a, const struct sys_counters *b, double hz, struct load_share *out)
{
	*out = (struct load_share){.ncpus = b->ncpus};
	if (!(hz > 0))
		return;
	double d[8], total = 0;
	for (size_t i = 0; i < ARRAY_SIZE(d); i++) {
		d[i] = grew(a->cpu[i], b->cpu[i]);
		total += d[i];
	}
	/* user nice system idle iowait irq softirq steal: idle and iowait are the only idle states,
	 * and steal is not this machine's work */
	out->busy_cpu_s = (d[0] + d[1] + d[2] + d[5] + d[6]) / hz;
	out->steal_cpu_s = d[7] / hz;
	out->total_cpu_s = total / hz;
	if (total > 0) {
		out->busy_pct = 100 * (d[0] + d[1] + d[2] + d[5] + d[6]) / total;
		out->steal_pct = 100 * d[7] / total;
	}
}

double load_outside_cpu_pct(double busy_cpu_s, double own_cpu_s, unsigned ncpus, double wall_s)
{
	if (ncpus == 0 || !(wall_s > 0) || !isfinite(busy_cpu_s) || !isfinite(own_cpu_s) || !isfinite(wall_s))
		return NAN;
	double x = 100 * (busy_cpu_s - own_cpu_s) / ((double)ncpus * wall_s);
	/* /proc/stat counts in ticks while the run's CPU is exact: a quiet machine can come out a little below 0 */
	return x < 0 ? 0 : x > 100 ? 100 : x;
}

double load_resolution_pct(double hz, double wall_s)
{
	if (!(hz > 0) || !(wall_s > 0))
		return NAN;
	return 100 * 2 / (hz * wall_s);
}

int load_noise(double outside_pct, double steal_pct, double limit_pct, double resolution_pct, char *reason,
	       size_t reasonlen)
{
	double slack = isfinite(resolution_pct) && resolution_pct > 0 ? resolution_pct : 0;
	int outside = outside_pct > limit_pct + slack, steal = steal_pct > limit_pct + slack;
	if (reasonlen)
		reason[0] = '\0';
	if (!outside && !steal)
		return 0;
	int w = 0;
	if (outside && reasonlen)
		w = snprintf(reason, reasonlen, "outside load %.1f %% of the machine", outside_pct);
	if (steal && w >= 0 && (size_t)w < reasonlen)
		snprintf(reason + w, reasonlen - (size_t)w, "%ssteal %.1f %% of CPU time", outside ? "; " : "", steal_pct);
	return 1;
}

/* The next blank-separated field; NULL at the end of the text. */
static const char *next_field(const char *p, const char **end)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n')
		return NULL;
	const char *q = p;
	while (*q && *q != ' ' && *q != '\t' && *q != '\n')
		q++;
	*end = q;
	return p;
}

static int field_u64(const char *p, const char *end, unsigned long long *v)
{
	if (p == end || *p < '0' || *p > '9')
		return -1;
	char *stop;
	errno = 0;
	*v = strtoull(p, &stop, 10);
	return errno || stop != end ? -1 : 0;
}

int load_parse_pid_stat(const char *text, struct load_pid *out)
{
	*out = (struct load_pid){0};
	char *stop;
	errno = 0;
	long pid = strtol(text, &stop, 10);
	/* the name sits between the first '(' and the last ')', and may itself hold either */
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	if (errno || stop == text || pid <= 0 || !open || !close || close < open)
		return -1;
	size_t len = (size_t)(close - open - 1);
	if (len >= sizeof(out->comm))
		len = sizeof(out->comm) - 1;
	memcpy(out->comm, open + 1, len);
	out->comm[len] = '\0';
	out->pid = pid;
	/* after the name, field 3 (state) is index 0: utime is field 14, stime 15, starttime 22 */
	enum { F_UTIME = 11, F_STIME = 12, F_START = 19 };
	unsigned long long ut = 0, st = 0;
	int have = 0;
	const char *p = close + 1, *end;
	for (int k = 0; k <= F_START && (p = next_field(p, &end)) != NULL; k++, p = end) {
		if (k == F_UTIME)
			have += field_u64(p, end, &ut) == 0;
		else if (k == F_STIME)
			have += field_u64(p, end, &st) == 0;
		else if (k == F_START)
			have += field_u64(p, end, &out->start_ticks) == 0;
	}
	if (have != 3)
		return -1;
	out->cpu_ticks = ut + st;
	return 0;
}

static int by_pid(const void *x, const void *y)
{
	long a = ((const struct load_pid *)x)->pid, b = ((const struct load_pid *)y)->pid;
	return (a > b) - (a < b);
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

int load_read_stat(const char *proc_root, struct sys_counters *c, char *err, size_t errlen)
{
	char *path = xasprintf("%s/stat", proc_root ? proc_root : "/proc");
	char *text = read_text_file(path, PROC_STAT_MAX);
	int rc = -1;
	if (!text)
		set_err(err, errlen, "%s: %s", path, strerror(errno));
	else if ((rc = procstat_parse_stat(text, c)) < 0)
		set_err(err, errlen, "%s: not in the expected format", path);
	free(text);
	free(path);
	return rc;
}

int load_snapshot_take(const char *proc_root, struct load_snapshot *s, char *err, size_t errlen)
{
	*s = (struct load_snapshot){0};
	const char *root = proc_root ? proc_root : "/proc";
	s->t_ns = clock_now_ns();
	if (load_read_stat(root, &s->stat, err, errlen) < 0)
		return -1;
	DIR *d = opendir(root);
	if (!d) {
		set_err(err, errlen, "%s: %s", root, strerror(errno));
		return -1;
	}
	size_t cap = 0;
	struct dirent *e;
	errno = 0;
	while ((e = readdir(d)) != NULL) {
		if (!all_digits(e->d_name))
			continue;
		char *p = xasprintf("%s/%s/stat", root, e->d_name);
		char *t = read_text_file(p, PID_STAT_MAX);
		free(p);
		struct load_pid one;
		/* a process that exits between readdir and the read is simply not part of the picture */
		if (t && load_parse_pid_stat(t, &one) == 0) {
			if (s->nprocs == cap) {
				cap = cap ? 2 * cap : 256;
				s->procs = xrealloc(s->procs, cap * sizeof(*s->procs));
			}
			s->procs[s->nprocs++] = one;
		}
		free(t);
		errno = 0;
	}
	int e_read = errno;
	(void)closedir(d);
	if (e_read) {
		set_err(err, errlen, "%s: %s", root, strerror(e_read));
		load_snapshot_free(s);
		return -1;
	}
	qsort(s->procs, s->nprocs, sizeof(*s->procs), by_pid);
	return 0;
}

void load_snapshot_free(struct load_snapshot *s)
{
	free(s->procs);
	s->procs = NULL;
	s->nprocs = 0;
}

static int by_cpu_desc(const void *x, const void *y)
{
	double a = ((const struct load_proc *)x)->cpu_pct, b = ((const struct load_proc *)y)->cpu_pct;
	if (a != b)
		return a < b ? 1 : -1;
	return strcmp(((const struct load_proc *)x)->comm, ((const struct load_proc *)y)->comm);
}

size_t load_proc_usage(const struct load_snapshot *a, const struct load_snapshot *b, double hz, long self_pid,
		       struct load_proc *out, size_t max)
{
	double wall = b->t_ns > a->t_ns ? (double)(b->t_ns - a->t_ns) / 1e9 : 0;
	if (!(hz > 0) || !(wall > 0) || max == 0)
		return 0;
	/* one entry per name; the busiest process of each is kept in best[] to name its pid */
	struct load_proc *names = xmalloc((b->nprocs ? b->nprocs : 1) * sizeof(*names));
	double *best = xmalloc((b->nprocs ? b->nprocs : 1) * sizeof(*best));
	size_t nn = 0;
	for (size_t i = 0; i < b->nprocs; i++) {
		const struct load_pid *now = &b->procs[i];
		if (now->pid == self_pid)
			continue;
		const struct load_pid *then = bsearch(now, a->procs, a->nprocs, sizeof(*a->procs), by_pid);
		double ticks = then && then->start_ticks == now->start_ticks ? grew(then->cpu_ticks, now->cpu_ticks)
									       : (double)now->cpu_ticks;
		if (ticks <= 0)
			continue;
		double pct = 100 * ticks / hz / wall;
		size_t k = 0;
		while (k < nn && strcmp(names[k].comm, now->comm) != 0)
			k++;
		if (k == nn) {
			names[nn] = (struct load_proc){.pid = now->pid};
			memcpy(names[nn].comm, now->comm, sizeof(names[nn].comm));
			best[nn++] = 0;
		}
		names[k].nprocs++;
		names[k].cpu_pct += pct;
		if (pct > best[k]) {
			best[k] = pct;
			names[k].pid = now->pid;
		}
	}
	qsort(names, nn, sizeof(*names), by_cpu_desc);
	size_t n = nn < max ? nn : max;
	memcpy(out, names, n * sizeof(*out));
	free(best);
	free(names);
	return n;
}

void load_quiet_between(const struct load_snapshot *a, const struct load_snapshot *b, double hz, long self_pid,
			struct load_quiet *out)
{
	*out = (struct load_quiet){0};
	struct load_share sh;
	load_between(&a->stat, &b->stat, hz, &sh);
	out->wall_s = b->t_ns > a->t_ns ? (double)(b->t_ns - a->t_ns) / 1e9 : 0;
	out->busy_pct = sh.busy_pct;
	out->steal_pct = sh.steal_pct;
	out->ncpus = sh.ncpus;
	out->ntop = load_proc_usage(a, b, hz, self_pid, out->top, LOAD_TOP_MAX);
}

int load_quiet_check(const char *proc_root, double seconds, struct load_quiet *out, char *err, size_t errlen)
{
	*out = (struct load_quiet){0};
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0) {
		set_err(err, errlen, "sysconf(_SC_CLK_TCK): %s", strerror(errno));
		return -1;
	}
	if (!(seconds > 0 && seconds <= 3600)) {
		set_err(err, errlen, "quiet check: %g s is outside (0, 3600]", seconds);
		return -1;
	}
	struct load_snapshot a, b;
	if (load_snapshot_take(proc_root, &a, err, errlen) < 0)
		return -1;
	struct timespec left = {.tv_sec = (time_t)seconds, .tv_nsec = (long)((seconds - floor(seconds)) * 1e9)};
	while (nanosleep(&left, &left) < 0 && errno == EINTR)
		;
	if (load_snapshot_take(proc_root, &b, err, errlen) < 0) {
		load_snapshot_free(&a);
		return -1;
	}
	load_quiet_between(&a, &b, (double)hz, (long)getpid(), out);
	load_snapshot_free(&a);
	load_snapshot_free(&b);
	return 0;
}

void load_quiet_describe(const struct load_quiet *q, char *buf, size_t len)
{
	if (len == 0)
		return;
	/* the machine's busy share and the processes' in one unit, % of a CPU as top gives it, so the
	 * names can be set against the whole (the whole also holds processes that came and went) */
	int w = snprintf(buf, len, "busy %.0f%% of a CPU (%.1f%% of %u CPU%s), steal %.1f%%", q->busy_pct * q->ncpus,
			 q->busy_pct, q->ncpus, q->ncpus == 1 ? "" : "s", q->steal_pct);
	for (size_t i = 0; i < q->ntop && w >= 0 && (size_t)w < len; i++) {
		const struct load_proc *p = &q->top[i];
		const char *lead = i ? "," : "; the busiest, in % of a CPU:";
		int k;
		if (p->nprocs > 1)
			k = snprintf(buf + w, len - (size_t)w, "%s %s %.0f%% (%u processes)", lead, p->comm, p->cpu_pct,
				     p->nprocs);
		else
			k = snprintf(buf + w, len - (size_t)w, "%s %s %.0f%% (pid %ld)", lead, p->comm, p->cpu_pct, p->pid);
		if (k < 0)
			break;
		w += k;
	}
}
