/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf_event_open counters of a point's tasks: the event table, opening them for a cgroup (per
 * CPU) or inherited in a task, reading them with their enabled/running times, and scaling. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "measure/perfctr.h"
#include "util/util.h"

#define SW(n, c, u) {.name = n, .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_##c, .unit = u}
#define HW(n, c) {.name = n, .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_##c, .unit = "events", .hardware = 1}
const struct perfctr_event perfctr_events[PERFCTR_MAX] = {
	SW("task-clock", TASK_CLOCK, "ns"),
	SW("context-switches", CONTEXT_SWITCHES, "events"),
	SW("cpu-migrations", CPU_MIGRATIONS, "events"),
	SW("page-faults", PAGE_FAULTS, "events"),
	SW("minor-faults", PAGE_FAULTS_MIN, "events"),
	SW("major-faults", PAGE_FAULTS_MAJ, "events"),
	HW("cycles", CPU_CYCLES),
	HW("instructions", INSTRUCTIONS),
	HW("cache-references", CACHE_REFERENCES),
	HW("cache-misses", CACHE_MISSES),
	HW("branch-misses", BRANCH_MISSES),
};

/* What read() returns with PERF_FORMAT_TOTAL_TIME_ENABLED | _RUNNING and no group. */
struct reading {
	uint64_t value, enabled_ns, running_ns;
};

void perfctr_add(struct perfctr_count *c, uint64_t value, uint64_t enabled_ns, uint64_t running_ns)
{
	c->enabled_ns += enabled_ns;
	c->running_ns += running_ns;
	c->readings++;
	if (running_ns == 0)
		return;
	c->value += running_ns >= enabled_ns ? (double)value : (double)value * (double)enabled_ns / (double)running_ns;
}

double perfctr_running_pct(const struct perfctr_count *c)
{
	if (!c->readings)
		return NAN;
	if (c->enabled_ns == 0 || c->running_ns >= c->enabled_ns)
		return 100;
	return 100.0 * (double)c->running_ns / (double)c->enabled_ns;
}

void perfctr_sum(struct perfctr_count *a, const struct perfctr_count *b)
{
	a->value += b->value;
	a->enabled_ns += b->enabled_ns;
	a->running_ns += b->running_ns;
	a->readings += b->readings;
}

static int open_event(const struct perfctr_event *e, pid_t pid, int cpu, unsigned long flags, int inherit)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = e->type;
	a.config = e->config;
	a.disabled = 1;
	a.inherit = (unsigned)inherit;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1, flags | PERF_FLAG_FD_CLOEXEC);
}

static int read_one(int fd, struct reading *r)
{
	ssize_t n;
	do
		n = read(fd, r, sizeof(*r));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(*r) ? 0 : -1;
}

unsigned perfctr_probe(unsigned mask, int cgroup_fd, int errs[PERFCTR_MAX])
{
	unsigned opened = 0;
	for (size_t i = 0; i < PERFCTR_MAX; i++) {
		errs[i] = 0;
		if (!(mask & (1u << i)))
			continue;
		int fd = cgroup_fd >= 0 ? open_event(&perfctr_events[i], cgroup_fd, 0, PERF_FLAG_PID_CGROUP, 0)
					: open_event(&perfctr_events[i], 0, -1, 0, 1);
		if (fd < 0) {
			errs[i] = errno;
			continue;
		}
		close(fd);
		opened |= 1u << i;
	}
	return opened;
}

/* Why an errno usually comes back from perf_event_open. */
static const char *hint_of(int err, int hardware)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP: return hardware ? "no PMU: a VM without a virtual one, or no driver" : "not supported";
	case EACCES:
	case EPERM: return "not permitted: kernel.perf_event_paranoid, a container or seccomp";
	case ENOSYS: return "perf_event_open missing or filtered (seccomp)";
	case EMFILE: return "out of file descriptors";
	default: return NULL;
	}
}

void perfctr_describe_failures(unsigned tried, const int errs[PERFCTR_MAX], char *buf, size_t len)
{
	size_t at = 0;
	unsigned said = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < PERFCTR_MAX && at < len; i++) {
		if (!(tried & (1u << i)) || !errs[i] || (said & (1u << i)))
			continue;
		/* every event failing with the same errno is named in one group */
		at += (size_t)snprintf(buf + at, len - at, "%s", at ? "; " : "");
		const char *sep = "";
		int hw = 0;
		for (size_t k = i; k < PERFCTR_MAX && at < len; k++)
			if ((tried & (1u << k)) && errs[k] == errs[i]) {
				at += (size_t)snprintf(buf + at, len - at, "%s%s", sep, perfctr_events[k].name);
				sep = ", ";
				said |= 1u << k;
				hw |= perfctr_events[k].hardware;
			}
		const char *hint = hint_of(errs[i], hw);
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, ": %s%s%s%s", strerror(errs[i]), hint ? " (" : "",
					       hint ? hint : "", hint ? ")" : "");
	}
}

unsigned perfctr_task_open(const struct perfctr_task *t, int fds[PERFCTR_MAX])
{
	unsigned opened = 0;
	for (size_t i = 0; i < PERFCTR_MAX; i++) {
		fds[i] = -1;
		if (t && (t->mask & (1u << i)) && (fds[i] = open_event(&perfctr_events[i], 0, -1, 0, 1)) >= 0)
			opened |= 1u << i;
	}
	return opened;
}

void perfctr_task_enable(void) { prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0); }
void perfctr_task_disable(void) { prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0); }

void perfctr_task_read(unsigned opened, int fds[PERFCTR_MAX], struct perfctr_count out[PERFCTR_MAX])
{
	memset(out, 0, PERFCTR_MAX * sizeof(*out));
	for (size_t i = 0; i < PERFCTR_MAX; i++) {
		struct reading r;
		if (!(opened & (1u << i)) || fds[i] < 0)
			continue;
		if (read_one(fds[i], &r) == 0)
			perfctr_add(&out[i], r.value, r.enabled_ns, r.running_ns);
		close(fds[i]);
		fds[i] = -1;
	}
}

struct perfctr_cgroup {
	unsigned mask;
	int *fds;   /* nfds of them: for each event of mask, one per CPU that opened */
	int *event; /* the event of each fd */
	size_t nfds;
};

/* Online CPUs: 0 .. the configured count, those a counter opens on (an offline one says ENODEV). */
static long cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	return n > 0 ? n : 1;
}

int perfctr_cgroup_open(const char *cgroup_dir, unsigned mask, struct perfctr_cgroup **out, char *err, size_t errlen)
{
	*out = NULL;
	long ncpu = cpu_count();
	size_t nev = 0;
	for (size_t i = 0; i < PERFCTR_MAX; i++)
		nev += (mask >> i) & 1u;
	struct rlimit rl;
	size_t want = nev * (size_t)ncpu;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && want > rl.rlim_cur / 2) {
		set_err(err, errlen, "%zu counters (%zu events x %ld CPUs) would take more than half of the %llu file "
			"descriptors allowed", want, nev, ncpu, (unsigned long long)rl.rlim_cur);
		return -1;
	}
	int cg = open(cgroup_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg < 0) {
		set_err(err, errlen, "%s: %s", cgroup_dir, strerror(errno));
		return -1;
	}
	struct perfctr_cgroup *g = xcalloc(1, sizeof(*g));
	g->mask = mask;
	g->fds = xcalloc(want + 1, sizeof(int));
	g->event = xcalloc(want + 1, sizeof(int));
	int rc = 0;
	for (size_t i = 0; i < PERFCTR_MAX && rc == 0; i++) {
		if (!(mask & (1u << i)))
			continue;
		for (long cpu = 0; cpu < ncpu; cpu++) {
			int fd = open_event(&perfctr_events[i], cg, (int)cpu, PERF_FLAG_PID_CGROUP, 0);
			if (fd < 0 && errno == ENODEV)
				continue; /* an offline CPU */
			if (fd < 0) {
				set_err(err, errlen, "%s on CPU %ld for %s: %s", perfctr_events[i].name, cpu, cgroup_dir,
					strerror(errno));
				rc = -1;
				break;
			}
			g->fds[g->nfds] = fd;
			g->event[g->nfds++] = (int)i;
		}
	}
	close(cg);
	if (rc < 0) {
		perfctr_cgroup_close(g);
		return -1;
	}
	*out = g;
	return 0;
}

int perfctr_cgroup_enable(struct perfctr_cgroup *g)
{
	for (size_t k = 0; k < g->nfds; k++)
		if (ioctl(g->fds[k], PERF_EVENT_IOC_ENABLE, 0) < 0)
			return -1;
	return 0;
}

void perfctr_cgroup_read(struct perfctr_cgroup *g, struct perfctr_count out[PERFCTR_MAX])
{
	memset(out, 0, PERFCTR_MAX * sizeof(*out));
	for (size_t k = 0; k < g->nfds; k++) {
		struct reading r;
		if (read_one(g->fds[k], &r) == 0)
			perfctr_add(&out[g->event[k]], r.value, r.enabled_ns, r.running_ns);
	}
}

void perfctr_cgroup_close(struct perfctr_cgroup *g)
{
	if (!g)
		return;
	for (size_t k = 0; k < g->nfds; k++)
		close(g->fds[k]);
	free(g->fds);
	free(g->event);
	free(g);
}
