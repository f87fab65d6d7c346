/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's accounting: a cgroup per point (the parent forks the tasks from inside it), the figures a
 * point gets from it and from the sampler, a kill at the end of every point that spares no descendant,
 * reaping what the subreaper adopted, and the quiet check before the first point. */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/accounting.h"
#include "run/addon.h"
#include "run/runner.h"
#include "engine/engine.h"
#include "measure/cgroup.h"
#include "measure/cputopo.h"
#include "measure/load.h"
#include "measure/measure.h"
#include "util/util.h"

/* The run's disks: whole disks under its dirs (blkio counts only where it set a limit). */
#define MAX_DISKS 8
/* How long the end of a point waits for a killed point to empty, and for the last zombies. */
#define EMPTY_WAIT_NS 2000000000ull
#define ZOMBIE_WAIT_NS 50000000ull
/* cgroup CPU and wait4 CPU of a point are the same time measured twice; more apart than this is a bug
 * or a process wait4 did not see (an orphan reaped by reaim), worth a warning. */
#define CROSS_CHECK_PCT 3.0
#define CROSS_CHECK_MIN_S 0.01

struct accounting {
	struct cgroup_run *run; /* NULL: wait4 only */
	char desc[1400]; /* said at the start: the run cgroup's path included */
	char kind[1400]; /* stored as an environment fact: the same text without per-run names */
	struct engine_hook hook;
	dev_t disks[MAX_DISKS];
	size_t ndisks;
	unsigned seq;
	unsigned side_seq;      /* the cgroups made beside the points */
	int lock_fd;            /* held for the run: says to other runs that its cgroup is alive */
	char lock_path[200];
	int stuck; /* could not leave a point's cgroup: no more cgroups, and never kill through one */
	/* --cpus: the CPUs the points of the block going on are confined to (ncpus 0: none), how a
	 * point's cgroup confines them (an environment fact), and this process's own affinity, which
	 * entering and leaving a cpuset resets */
	int cpus[CPU_SETSIZE];
	size_t ncpus;
	char confinement[700];
	cpu_set_t own_cpus;
	int confined; /* the point going on has a cpuset: restore own_cpus after leaving it */
	/* the point going on (or just over) */
	struct cgroup_point *point;
	int seen;                      /* FORKING came for the point accounting_point is about */
	int inside;                    /* the forking process is in the point's cgroup (between FORKING and FORKED) */
	pid_t forker;                  /* the process that forks the point's tasks: the forker, or 0 (reaim) */
	double self_before_s;          /* our own CPU when we moved in */
	double parent_inside_s;        /* our own CPU while we were in the point, charged to it */
	double self_release_s, self_end_s;
	int have_release, have_end;
	struct cgroup_stats at_release, at_end;
};

/* This process's CPU time, every thread (the sampler and progress threads too). */
static double self_cpu_s(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return NAN;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

static void nap_ms(long ms)
{
	struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
	nanosleep(&t, NULL);
}

/* Reap every child that has exited (orphans of the tasks, adopted as their subreaper); how many. */
static int reap_exited(void)
{
	int n = 0;
	pid_t w;
	while ((w = waitpid(-1, NULL, WNOHANG)) > 0 || (w < 0 && errno == EINTR))
		n += w > 0;
	return n;
}

/* The whole disks under the plan's dirs, each once. */
static void find_disks(struct accounting *a, const struct plan *p)
{
	for (size_t w = 0; w < p->nwl; w++) {
		const struct str_list *dirs = &p->wl[w].opts.dirs;
		for (size_t d = 0; d < dirs->count && a->ndisks < MAX_DISKS; d++) {
			struct stat sb;
			unsigned dma, dmi;
			if (stat(dirs->v[d], &sb) < 0 || major(sb.st_dev) == 0 ||
			    cgroup_disk_of(major(sb.st_dev), minor(sb.st_dev), &dma, &dmi) < 0)
				continue; /* tmpfs, overlay: no disk of its own */
			dev_t disk = makedev(dma, dmi);
			size_t k = 0;
			while (k < a->ndisks && a->disks[k] != disk)
				k++;
			if (k == a->ndisks)
				a->disks[a->ndisks++] = disk;
		}
	}
}

/* ---- the moments of a point ---- */

/* --cpus: the point's cpuset before anyone enters it; where it cannot be made the tasks are confined
 * by their affinity alone, which is said, and stored as the run's confinement. */
static void confine_point(struct accounting *a)
{
	a->confined = 0;
	if (a->ncpus == 0 || cgroup_run_cpuset(a->run) == CGROUP_CPUSET_NONE)
		return;
	char err[600];
	if (sched_getaffinity(0, sizeof(a->own_cpus), &a->own_cpus) < 0) {
		snprintf(err, sizeof(err), "cannot read reaim's own CPUs: %s", strerror(errno));
	} else if (cgroup_point_cpus(a->point, a->cpus, a->ncpus, err, sizeof(err)) == 0) {
		a->confined = 1;
		return;
	}
	log_warn("%s; this point's tasks are confined by their affinity alone", err);
	snprintf(a->confinement, sizeof(a->confinement), "affinity only at some points: %s", err);
}

/* Out of a point's cpuset (v1: a move of its own) and, as moving in and out of a cpuset set our CPUs
 * to the cpuset's, back to our own CPUs on every thread. */
static void leave_cpuset(struct accounting *a)
{
	if (!a->confined)
		return;
	if (cgroup_run_send_home_cpuset(a->run, a->forker ? a->forker : getpid()) < 0)
		log_warn("cannot leave the cpuset of cgroup %s: %s", cgroup_point_path(a->point), strerror(errno));
	if (a->forker ? sched_setaffinity(a->forker, sizeof(a->own_cpus), &a->own_cpus) < 0
		      : cputopo_set_all_threads(&a->own_cpus) < 0)
		log_warn("cannot restore reaim's own CPUs after a cpuset: %s", strerror(errno));
}

static void on_forking(struct accounting *a)
{
	char err[600], name[32];
	a->seen = 1;
	a->have_release = a->have_end = 0;
	a->parent_inside_s = 0;
	a->self_release_s = a->self_end_s = NAN;
	if (!a->run || a->stuck)
		return;
	snprintf(name, sizeof(name), "point-%u", ++a->seq);
	if (cgroup_point_create(a->run, name, &a->point, err, sizeof(err)) < 0) {
		log_warn("%s; this point is accounted by wait4 only", err);
		a->point = NULL;
		return;
	}
	confine_point(a);
	/* Forked from inside the point, every task starts in it: two moves of ours per point rather than
	 * one per task, each of which would hold the cgroup lock every fork on the machine waits for. */
	a->self_before_s = self_cpu_s();
	/* the forker, when it forks the tasks: it moves in, reaim stays where it is */
	a->forker = engine_forking_pid();
	if (cgroup_point_attach(a->point, a->forker) == 0) {
		a->inside = 1;
		return;
	}
	log_warn("cannot move into cgroup %s: %s; this point is accounted by wait4 only", cgroup_point_path(a->point),
		 strerror(errno));
	/* perhaps half way (in v2 but not in v1): back home before the point goes */
	int left = cgroup_run_send_home(a->run, a->forker ? a->forker : getpid());
	leave_cpuset(a);
	if (left < 0) {
		log_error("cannot leave cgroup %s: %s; no more cgroups in this run", cgroup_point_path(a->point),
			  strerror(errno));
		a->stuck = 1;
		return;
	}
	if (cgroup_point_destroy(a->point, err, sizeof(err)) < 0)
		log_warn("%s", err);
	a->point = NULL;
}

static void on_forked(struct accounting *a)
{
	if (!a->inside)
		return;
	a->inside = 0;
	int left = cgroup_run_send_home(a->run, a->forker ? a->forker : getpid()), e = errno;
	/* not the cpuset's move after it: not in the point */
	double inside_s = a->forker ? engine_forking_cpu_s() : self_cpu_s() - a->self_before_s;
	leave_cpuset(a);
	if (left < 0) {
		log_error("cannot leave cgroup %s: %s; no more cgroups in this run", cgroup_point_path(a->point),
			  strerror(e));
		a->stuck = 1;
		return;
	}
	a->parent_inside_s = inside_s;
}

static void on_release(struct accounting *a)
{
	a->self_release_s = self_cpu_s();
	if (a->point && !a->stuck && cgroup_point_read(a->point, &a->at_release) == 0)
		a->have_release = 1;
}

static void on_kill(struct accounting *a)
{
	if (a->point && !a->stuck && cgroup_point_kill(a->point) < 0)
		log_warn("cannot kill the processes of cgroup %s: %s", cgroup_point_path(a->point), strerror(errno));
}

/* The point is over: its last figures, then kill whatever its tasks left running (a script's background
 * job, a grandchild in a session of its own), reap all of it and remove the point's cgroup. */
static void on_reaped(struct accounting *a)
{
	a->self_end_s = self_cpu_s();
	if (!a->point || a->stuck) {
		reap_exited();
		return;
	}
	if (cgroup_point_read(a->point, &a->at_end) == 0)
		a->have_end = 1;
	if (cgroup_point_kill(a->point) < 0)
		log_warn("cannot kill the processes of cgroup %s: %s", cgroup_point_path(a->point), strerror(errno));
	uint64_t until = clock_now_ns() + EMPTY_WAIT_NS;
	int left;
	for (;;) {
		reap_exited();
		left = cgroup_point_count(a->point);
		if (left <= 0 || clock_now_ns() > until)
			break;
		nap_ms(1);
	}
	if (left > 0)
		log_warn("%d processes of cgroup %s outlived the kill", left, cgroup_point_path(a->point));
	/* a process leaves the cgroup before its parent hears of its exit: wait for the last zombies */
	until = clock_now_ns() + ZOMBIE_WAIT_NS;
	/* (the forker lives on: with it, only the zombies there are now) */
	pid_t w;
	while ((w = waitpid(-1, NULL, WNOHANG)) > 0 || (w == 0 && !engine_forker_alive()) || (w < 0 && errno == EINTR)) {
		if (clock_now_ns() > until)
			break;
		nap_ms(1);
	}
	char err[600];
	if (cgroup_point_destroy(a->point, err, sizeof(err)) < 0)
		log_warn("%s", err);
	a->point = NULL;
}

static void on_event(void *arg, enum engine_event ev)
{
	struct accounting *a = arg;
	switch (ev) {
	case ENGINE_FORKING: on_forking(a); break;
	case ENGINE_FORKED: on_forked(a); break;
	case ENGINE_RELEASE: on_release(a); break;
	case ENGINE_KILL: on_kill(a); break;
	case ENGINE_REAPED: on_reaped(a); break;
	case ENGINE_RELEASED:
	case ENGINE_FINISHED: break; /* the cgroup's readings frame the sampler's period, not the tasks' */
	}
}

/* ---- the run ---- */

/* Liveness of a run cgroup is a lock its run holds on a file named after it, never its pid: a pid
 * says nothing across pid namespaces (a run inside `unshare --pid` sees none of ours), and pids are
 * reused. The directory is one every run on the machine agrees on. */
static const char *lock_dir(void)
{
	return access("/run/lock", W_OK) == 0 ? "/run/lock" : "/tmp";
}

static void lock_path_of(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.cgroup.lock", lock_dir(), name);
}

/* A run cgroup "reaim-PID-XXXXXX" whose run is gone: its lock file is there and free (with no lock
 * file it is unmarked: the sweep removes only v1 twins no live run could own). Every other name
 * (other programs', tests', a live run's) is left alone. The lock file stays until the sweep
 * has removed the run's cgroups from every hierarchy (swept_run), so each hierarchy's pass judges
 * alike. */
static int stale_run(const char *name)
{
	long pid;
	int end = 0;
	char path[200];
	if (sscanf(name, "reaim-%ld-%*6[A-Za-z0-9]%n", &pid, &end) != 1 || name[end] != '\0')
		return 0;
	lock_path_of(name, path, sizeof(path));
	int fd, gone = lock_file_stale(path, &fd);
	if (gone == 1)
		close(fd);
	return gone == 1 ? CGROUP_RUN_DEAD : gone < 0 ? CGROUP_RUN_UNMARKED : CGROUP_RUN_ALIVE;
}

/* Every cgroup of a dead run is gone: a later run must not judge by a lock nobody holds. */
static void swept_run(const char *name)
{
	char path[200];
	lock_path_of(name, path, sizeof(path));
	int fd;
	if (lock_file_stale(path, &fd) == 1) {
		unlink(path);
		close(fd);
	}
}

/* The run cgroup's name, unique even across pid namespaces, with its lock taken. */
static int take_run_name(struct accounting *a, char *name, size_t len)
{
	static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned long long r = clock_now_ns() ^ ((unsigned long long)getpid() << 20);
	char tag[7];
	for (int i = 0; i < 6; i++, r /= 62)
		tag[i] = alnum[r % 62];
	tag[6] = '\0';
	snprintf(name, len, "reaim-%ld-%s", (long)getpid(), tag);
	lock_path_of(name, a->lock_path, sizeof(a->lock_path));
	a->lock_fd = lock_file_create(a->lock_path, 0);
	return a->lock_fd >= 0 ? 0 : -1;
}

struct accounting *accounting_open(const struct plan *p)
{
	struct accounting *a = xcalloc(1, sizeof(*a));
	a->lock_fd = -1;
	a->hook = (struct engine_hook){on_event, a};
	char sub[200] = "";
	if (cgroup_set_subreaper() < 0)
		snprintf(sub, sizeof(sub), "; not a child subreaper (%s): orphans of the tasks go to init",
			 strerror(errno));
	find_disks(a, p);
	char name[48], why[600];
	struct cgroup_run_config cfg = {.name = name, .disks = a->disks, .ndisks = a->ndisks, .stale = stale_run,
					.swept = swept_run};
	if (take_run_name(a, name, sizeof(name)) < 0)
		snprintf(why, sizeof(why), "cannot create a lock file for the run cgroup in %s: %s", lock_dir(),
			 strerror(errno));
	else if (cgroup_run_open(&cfg, &a->run, why, sizeof(why)) == 0) {
		snprintf(a->desc, sizeof(a->desc), "cgroup v2 at %s %s%s", cgroup_run_dir(a->run),
			 cgroup_run_traits(a->run), sub);
		snprintf(a->kind, sizeof(a->kind), "cgroup v2 %s%s", cgroup_run_traits(a->run), sub);
		snprintf(a->confinement, sizeof(a->confinement), "%s", cgroup_run_cpuset_text(a->run));
		int swept = cgroup_run_swept(a->run);
		if (swept)
			log_debug("accounting: removed %d cgroup%s left by runs that died", swept, swept == 1 ? "" : "s");
		return a;
	}
	snprintf(a->desc, sizeof(a->desc),
		 "wait4 and /proc/stat only (no cgroups: %s): no cgroup CPU, I/O, memory peak or pressure, "
		 "and a point's processes are killed by process group%s",
		 why, sub);
	memcpy(a->kind, a->desc, sizeof(a->kind));
	snprintf(a->confinement, sizeof(a->confinement), "affinity only: no cgroups");
	return a;
}

void accounting_confine(struct accounting *a, const int *cpus, size_t n)
{
	if (!a)
		return;
	a->ncpus = n < ARRAY_SIZE(a->cpus) ? n : ARRAY_SIZE(a->cpus);
	if (a->ncpus)
		memcpy(a->cpus, cpus, a->ncpus * sizeof(int));
}

const char *accounting_confinement(const struct accounting *a)
{
	return a->confinement;
}

const char *accounting_describe(const struct accounting *a)
{
	return a->desc;
}

const char *accounting_kind(const struct accounting *a)
{
	return a->kind;
}

const char *accounting_run_dir(const struct accounting *a)
{
	return a && a->run && !a->stuck ? cgroup_run_dir(a->run) : NULL;
}

const char *accounting_point_cgroup(const struct accounting *a)
{
	return a && a->point && !a->stuck ? cgroup_point_path(a->point) : NULL;
}

struct cgroup_point *accounting_side_cgroup(struct accounting *a, const char *name, char *err, size_t errlen)
{
	if (!a || !a->run || a->stuck) {
		snprintf(err, errlen, "%s", !a || !a->run ? "the run has no cgroups" : "the run left its cgroups");
		return NULL;
	}
	char full[64];
	snprintf(full, sizeof(full), "%.40s-%u", name, ++a->side_seq);
	struct cgroup_point *cg;
	return cgroup_side_create(a->run, full, &cg, err, errlen) == 0 ? cg : NULL;
}

const struct engine_hook *accounting_hook(struct accounting *a)
{
	return a ? &a->hook : NULL;
}

void accounting_close(struct accounting *a)
{
	if (!a)
		return;
	if (a->point && !a->stuck) {
		on_kill(a);
		on_reaped(a);
	}
	reap_exited();
	char err[600] = "";
	if (a->run && !a->stuck && cgroup_run_close(a->run, err, sizeof(err)) < 0)
		log_warn("%s", err);
	if (a->lock_fd >= 0) {
		unlink(a->lock_path);
		close(a->lock_fd);
	}
	free(a);
}

/* ---- a point's figures ---- */

static void set_nan(struct store_point *p)
{
	double *all[] = {&p->cgroup_cpu_s,     &p->io_read_bytes,    &p->io_write_bytes,     &p->io_read_ios,
			 &p->io_write_ios,     &p->mem_peak_bytes,   &p->psi_cpu_some_pct,   &p->psi_cpu_full_pct,
			 &p->psi_io_some_pct,  &p->psi_io_full_pct,  &p->psi_mem_some_pct,   &p->psi_mem_full_pct,
			 &p->outside_cpu_pct,  &p->steal_pct,        &p->outside_read_bytes, &p->outside_write_bytes,
			 &p->io_read_kbs,      &p->io_write_kbs};
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		*all[i] = NAN;
	p->noisy = 0;
	p->noise[0] = '\0';
}

/* The point's own I/O on the run's disks between the release and the end. */
static void own_io(const struct accounting *a, struct store_point *p)
{
	if (!(a->at_release.have & a->at_end.have & CGROUP_HAVE_IO))
		return;
	p->io_read_bytes = p->io_write_bytes = p->io_read_ios = p->io_write_ios = 0;
	for (size_t i = 0; i < a->ndisks; i++) {
		struct cgroup_io_dev x, y;
		cgroup_io_of(&a->at_release, major(a->disks[i]), minor(a->disks[i]), &x);
		cgroup_io_of(&a->at_end, major(a->disks[i]), minor(a->disks[i]), &y);
		p->io_read_bytes += y.rbytes > x.rbytes ? (double)(y.rbytes - x.rbytes) : 0;
		p->io_write_bytes += y.wbytes > x.wbytes ? (double)(y.wbytes - x.wbytes) : 0;
		p->io_read_ios += y.rios > x.rios ? (double)(y.rios - x.rios) : 0;
		p->io_write_ios += y.wios > x.wios ? (double)(y.wios - x.wios) : 0;
	}
}

/* The cgroup's figures; returns the run's own CPU between the release and the end (NaN if unknown). */
static double cgroup_figures(const struct accounting *a, const struct engine_result *r, const char *what,
			     struct store_point *p)
{
	struct cgroup_figures life, span;
	cgroup_figures_between(NULL, &a->at_end, 0, &life);
	/* the same span as wait4's: the tasks' whole lives, less what we spent forking them from inside */
	p->cgroup_cpu_s = fmax(0, life.cpu_s - a->parent_inside_s);
	if (a->at_end.have & CGROUP_HAVE_MEM)
		p->mem_peak_bytes = life.mem_peak_bytes;
	double wait4_s = r->user_s + r->sys_s;
	if (r->valid && fabs(p->cgroup_cpu_s - wait4_s) > CROSS_CHECK_MIN_S &&
	    fabs(p->cgroup_cpu_s - wait4_s) > CROSS_CHECK_PCT / 100 * wait4_s)
		log_warn("%s: the cgroup's CPU time %.3f s and wait4's %.3f s differ by %.1f %%", what, p->cgroup_cpu_s,
			 wait4_s, wait4_s > 0 ? 100 * (p->cgroup_cpu_s - wait4_s) / wait4_s : 100.0);
	if (!a->have_release)
		return NAN;
	cgroup_figures_between(&a->at_release, &a->at_end, 0, &span);
	double *some[] = {&p->psi_cpu_some_pct, &p->psi_io_some_pct, &p->psi_mem_some_pct};
	double *full[] = {&p->psi_cpu_full_pct, &p->psi_io_full_pct, &p->psi_mem_full_pct};
	for (int k = 0; k < CGROUP_PSI_N; k++) {
		*some[k] = span.psi_some_pct[k];
		*full[k] = span.psi_full_pct[k];
	}
	own_io(a, p);
	return span.cpu_s;
}

void accounting_point(struct accounting *a, const struct engine_result *r, double noise_limit, const char *what,
		      struct store_point *p)
{
	set_nan(p);
	double own_s = NAN, self_s = 0;
	if (a && a->seen && a->have_end)
		own_s = cgroup_figures(a, r, what, p);
	if (!isfinite(own_s)) /* wait4 also counts the tasks' set-up before the release: a little high */
		own_s = r->user_s + r->sys_s;
	if (a && a->seen && isfinite(a->self_end_s - a->self_release_s))
		self_s = a->self_end_s - a->self_release_s;
	if (a)
		a->seen = 0;
	if (p->real_s > 0) { /* the tasks' own I/O a second, beside the machine's in the sampler's figures */
		p->io_read_kbs = p->io_read_bytes / 1024 / p->real_s;
		p->io_write_kbs = p->io_write_bytes / 1024 / p->real_s;
	}
	if (!r->sampled)
		return;
	double period = r->sys.avg.t_s;
	p->outside_cpu_pct = sampler_outside_cpu_pct(&r->sys, own_s + self_s);
	p->steal_pct = r->sys.steal_pct;
	if (isfinite(p->io_read_bytes)) {
		/* the sampler's totals on the dirs' devices, less the run's own */
		p->outside_read_bytes = fmax(0, r->sys.avg.read_kbs * 1024 * period - p->io_read_bytes);
		p->outside_write_bytes = fmax(0, r->sys.avg.write_kbs * 1024 * period - p->io_write_bytes);
	}
	long hz = sysconf(_SC_CLK_TCK);
	p->noisy = load_noise(p->outside_cpu_pct, p->steal_pct, noise_limit,
			      load_resolution_pct(hz > 0 ? (double)hz : 100, period), p->noise, sizeof(p->noise));
}

/* The accounting as a point's add-on: its cgroup made, read and removed at the engine's moments; its
 * figures into the row of a point whose tasks ran. */
static void addon_during(struct addon_point *p, void *state, enum engine_event ev)
{
	(void)state;
	const struct engine_hook *h = accounting_hook(p->rn->acct);
	if (h)
		h->fn(h->arg, ev);
}

static void addon_store(struct addon_point *p, void *state)
{
	(void)state;
	if (!p->ran)
		return;
	char what[120];
	snprintf(what, sizeof(what), "%s, %d tasks", p->at->wl->name, p->at->point->tasks);
	accounting_point(p->rn->acct, p->res, p->at->wl->opts.noise_limit, what, p->out);
}

const struct point_addon accounting_addon = {.name = "accounting", .during = addon_during, .store = addon_store};

/* ---- before the run ---- */

int accounting_quiet_check(double seconds, double limit_pct, int require)
{
	struct load_quiet q;
	char err[300], desc[1024];
	if (load_quiet_check(NULL, seconds, &q, err, sizeof(err)) < 0) {
		if (require) {
			log_error("cannot tell whether the machine is quiet (--require-quiet): %s", err);
			return -1;
		}
		log_warn("no quiet check: %s", err);
		return 0;
	}
	load_quiet_describe(&q, desc, sizeof(desc));
	long hz = sysconf(_SC_CLK_TCK);
	double slack = load_resolution_pct(hz > 0 ? (double)hz : 100, q.wall_s);
	if (!(q.busy_pct > limit_pct + slack) && !(q.steal_pct > limit_pct + slack)) {
		log_debug("quiet check: %s", desc);
		return 0;
	}
	if (require) {
		log_error("the machine is not quiet (over %g %%, --require-quiet): %s", limit_pct, desc);
		return -1;
	}
	log_warn_wrapped("the machine is busy before the run (over %g %% of it): %s; points measured in such load are "
			 "marked noisy",
		 limit_pct, desc);
	return 0;
}
