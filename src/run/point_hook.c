/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs a --point-hook command over one point: started on the engine's RELEASED event in a cgroup,
 * process group and output directory of its own, stopped on FINISHED (or KILL) with SIGINT, then
 * killed with all it started; a signal goes only to what reaim still owns. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config/cfg.h"
#include "measure/cgroup.h"
#include "engine/command.h"
#include "measure/measure.h"
#include "run/accounting.h"
#include "run/addon.h"
#include "run/point_hook.h"
#include "run/runner.h"
#include "engine/engine.h"
#include "store/figures.h"
#include "util/util.h"

/* One point's hook. */
struct point_hook {
	struct accounting *acct;        /* for the point's cgroup and the hook's own; NULL: none */
	const char *command;
	int tasks;
	char dir[STORE_TEXT_LEN];       /* its working directory, absolute (stored with the point, so no
					 * longer); its output goes to dir/hook.out */
	int dirfd;                      /* that directory, opened as it was made; -1 once closed */
	struct timespec release;        /* CLOCK_REALTIME just before the tasks were released */
	struct engine_child child;      /* the hook's first process; pid 0: not started (or stopped) */
	struct cgroup_point *cg;        /* the hook's own cgroup, NULL without: then its process group
					 * alone, and only while its first process is unreaped */
	uint64_t started_ns;
	double stop_s;                  /* how long stopping it took (SIGINT to its end) */
	int failed;                     /* it could not be started: end says why */
	char end[STORE_TEXT_LEN];       /* how it ended, once stopped ("" before) */
};

int point_hook_wanted(const struct run_opts *o, int tasks)
{
	if (!o->point_hook || !o->point_hook[0])
		return 0;
	if (o->point_hook_tasks.count == 0)
		return 1;
	for (size_t i = 0; i < o->point_hook_tasks.count; i++)
		if (o->point_hook_tasks.n[i] == tasks)
			return 1;
	return 0;
}

/* A name part from user text (a workload or variant name): letters, digits and ._+- kept, the rest '_'. */
static void name_part(char *out, size_t len, const char *in)
{
	size_t i = 0;
	for (; in[i] && i + 1 < len; i++)
		out[i] = (char)((isalnum((unsigned char)in[i]) || strchr("._+-", in[i])) ? in[i] : '_');
	out[i] = '\0';
}

/* Whether the schedule can have a point of n tasks: one of its points (the listed counts, a growing
 * mode's doublings, single mode's one task), or for peak's search any count from the first to the
 * most it may reach. */
static int schedule_has(const struct schedule_workload *sw, long long n)
{
	for (size_t i = 0; i < sw->npts; i++)
		if (sw->pts[i].tasks == n)
			return 1;
	return sw->wl->opts.mode == MODE_PEAK && sw->npts && n >= sw->pts[0].tasks && n <= sw->reach.tasks;
}

int point_hook_check(const struct schedule_workload *sw, char *err, size_t errlen)
{
	const struct run_opts *o = &sw->wl->opts;
	const char *workload = sw->wl->name;
	if (!o->point_hook || !o->point_hook[0])
		return 0;
	for (size_t i = 0; i < o->point_hook_tasks.count; i++) {
		if (schedule_has(sw, o->point_hook_tasks.n[i]))
			continue;
		char *list = tasks_format(&o->tasks);
		snprintf(err, errlen, "workload %s: --point-hook-tasks %d: no point of its plan (%s tasks %s%s) has %d tasks, "
			 "so its hook would never run", workload, o->point_hook_tasks.n[i], mode_names[o->mode],
			 list, o->mode == MODE_SWEEP || o->mode == MODE_SINGLE ? "" : " and what it grows to",
			 o->point_hook_tasks.n[i]);
		free(list);
		return -1;
	}
	return 0;
}

/* The hook directories' parent beside the database, opened without following a link, and refused
 * unless it is a directory of this user that nobody else may write to (a shared directory such as
 * /tmp may hold one planted by someone else). -1 with why. */
static int open_parent(const char *base, const char *name, char *err, size_t errlen)
{
	int bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", base, strerror(errno));
		return -1;
	}
	if (mkdirat(bfd, name, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "mkdir %s/%s: %s", base, name, strerror(errno));
		close(bfd);
		return -1;
	}
	int pfd = openat(bfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int saved_errno = errno;
	close(bfd);
	if (pfd < 0) {
		snprintf(err, errlen, "%s/%s: %s", base, name,
			 saved_errno == ELOOP || saved_errno == ENOTDIR ? "not a directory (a symbolic link is never followed)" : strerror(saved_errno));
		return -1;
	}
	struct stat sb;
	const char *refused = NULL;
	if (fstat(pfd, &sb) < 0)
		refused = strerror(errno);
	else if (sb.st_uid != geteuid())
		refused = "owned by another user";
	else if (sb.st_mode & (S_IWGRP | S_IWOTH))
		refused = "writable by others";
	if (refused) {
		snprintf(err, errlen, "%s/%s: %s: not used for hook output", base, name, refused);
		close(pfd);
		return -1;
	}
	return pfd;
}

int point_hook_dir(const struct point_hook_where *at, char *dir, size_t len, int *dirfd, char *err, size_t errlen)
{
	const char *db = at->db;
	*dirfd = -1;
	/* absolute: the hook runs in the directory and is told its path ($REAIM_POINT_DIR) */
	const char *slash = strrchr(db, '/'), *file = slash ? slash + 1 : db;
	char base[PATH_MAX], cwd[PATH_MAX];
	int w;
	if (db[0] == '/') {
		w = snprintf(base, sizeof(base), "%.*s", slash == db ? 1 : (int)(slash - db), db);
	} else if (!getcwd(cwd, sizeof(cwd))) {
		snprintf(err, errlen, "the working directory (the database %s is named relative to it): %s", db,
			 strerror(errno));
		return -1;
	} else {
		w = snprintf(base, sizeof(base), "%s%s%.*s", cwd, slash ? "/" : "", slash ? (int)(slash - db) : 0, db);
	}
	if (w < 0 || (size_t)w >= sizeof(base)) {
		snprintf(err, errlen, "the directory of the database %s is too long a path", db);
		return -1;
	}
	/* named after the database, so two databases in one directory keep apart */
	size_t stem_len = strlen(file);
	if (stem_len > 3 && strcmp(file + stem_len - 3, ".db") == 0)
		stem_len -= 3;
	char stem[65], parent[128], wl[65], var[65], name[NAME_MAX + 1];
	char *stem_text = xasprintf("%.*s", (int)stem_len, file);
	name_part(stem, sizeof(stem), stem_text);
	free(stem_text);
	snprintf(parent, sizeof(parent), "%s-run-%lld-hook", stem, (long long)at->run_id);
	name_part(wl, sizeof(wl), at->workload);
	name_part(var, sizeof(var), at->variant ? at->variant : "");
	int pfd = open_parent(base, parent, err, errlen);
	if (pfd < 0)
		return -1;
	/* a new directory per point: never one another point (a repeated task count, a workload name
	 * that reads the same here, another database's run) made */
	w = snprintf(name, sizeof(name), "%s-osync-%s-tasks-%d-round-%d%s%s", wl, at->osync ? "on" : "off",
		     at->tasks, at->round + 1, var[0] ? "-" : "", var);
	size_t stem_end = (size_t)w;
	int made = -1, saved_errno = 0;
	for (int k = 1; k <= 1000 && made < 0; k++) {
		if (k > 1)
			snprintf(name + stem_end, sizeof(name) - stem_end, ".%d", k);
		made = mkdirat(pfd, name, 0755);
		saved_errno = errno;
		if (made < 0 && saved_errno != EEXIST)
			break;
	}
	if (made < 0) {
		snprintf(err, errlen, "mkdir %s/%s/%s: %s", base, parent, name, strerror(saved_errno));
		close(pfd);
		return -1;
	}
	*dirfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	saved_errno = errno;
	close(pfd);
	if (*dirfd < 0) {
		snprintf(err, errlen, "open %s/%s/%s: %s", base, parent, name, strerror(saved_errno));
		return -1;
	}
	w = snprintf(dir, len, "%s/%s/%s", strcmp(base, "/") == 0 ? "" : base, parent, name);
	if (w < 0 || (size_t)w >= len) {
		snprintf(err, errlen, "the hook directory %s/%s/%s is too long a path (at most %zu bytes)", base, parent,
			 name, len - 1);
		close(*dirfd);
		*dirfd = -1;
		return -1;
	}
	return 0;
}

static void not_started(struct point_hook *h, const char *fmt, const char *what)
{
	snprintf(h->end, sizeof(h->end), fmt, what);
	h->failed = 1;
	log_error("--point-hook %s", h->end);
}

static void start(struct point_hook *h)
{
	int out = openat(h->dirfd, "hook.out", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		not_started(h, "not started: creating hook.out there: %s", strerror(errno));
		return;
	}
	char why[600];
	h->cg = accounting_side_cgroup(h->acct, "hook", why, sizeof(why));
	if (!h->cg)
		log_debug("--point-hook without a cgroup of its own (%s): it is stopped by its process group", why);
	const struct timespec now = h->release;
	const char *cg = h->acct ? accounting_point_cgroup(h->acct) : NULL;
	char *vars[] = {xasprintf("REAIM_POINT_TASKS=%d", h->tasks), xasprintf("REAIM_POINT_CGROUP=%s", cg ? cg : ""),
			xasprintf("REAIM_POINT_DIR=%s", h->dir),
			xasprintf("REAIM_POINT_RELEASE=%lld.%09ld", (long long)now.tv_sec, now.tv_nsec), NULL};
	char **env = engine_command_environment((const char *const *)vars);
	int max_fd = engine_command_max_fd();
	fflush(NULL);
	pid_t reaim = getpid(), pid = fork();
	if (pid == 0) {
		/* in its cgroup before it starts anything, so nothing it starts is outside (the parent
		 * moves it too, whichever runs first) */
		if (h->cg)
			(void)cgroup_point_attach(h->cg, 0);
		setpgid(0, 0); /* its own group: SIGINT reaches what it starts, not the tasks */
		if (fchdir(h->dirfd) < 0)
			_exit(126);
		engine_command_exec(reaim, out, h->command, env, max_fd);
	}
	int err = errno;
	free(env);
	for (size_t i = 0; vars[i]; i++)
		free(vars[i]);
	close(out);
	if (pid < 0) {
		not_started(h, "not started: fork: %s", strerror(err));
		return;
	}
	engine_child_open(&h->child, pid); /* before anything waits: the pid is still our child's */
	setpgid(pid, pid); /* as the child does: whichever runs first, the group exists before a signal */
	if (h->cg && cgroup_point_attach(h->cg, pid) < 0)
		log_warn("--point-hook: cannot move it into cgroup %s: %s; what it leaves in the background may "
			 "outlive the point", cgroup_point_path(h->cg), strerror(errno));
	h->started_ns = clock_now_ns();
}

static void describe_status(char *buf, size_t len, int status)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "ended with wait status %d", status);
}

/* Wait up to timeout_s for the hook's first process to end, without reaping it (its pid holds its
 * group's id for the kill that follows): its engine_child_state then. A stop signal arriving
 * meanwhile cuts the wait to POINT_HOOK_STOP_INTERRUPTED_S. */
static int wait_end(const struct point_hook *h, double timeout_s)
{
	uint64_t start = clock_now_ns(), until = start + (uint64_t)(timeout_s * 1e9);
	int was_interrupted = engine_interrupted() != 0;
	long nap_us = 200;
	for (;;) {
		int state = engine_child_state(&h->child);
		if (state != 1)
			return state;
		uint64_t now = clock_now_ns();
		if (now >= until)
			return 1;
		engine_poll_signals();
		if (!was_interrupted && engine_interrupted()) {
			was_interrupted = 1;
			uint64_t soon = now + (uint64_t)(POINT_HOOK_STOP_INTERRUPTED_S * 1e9);
			until = soon < until ? soon : until;
		}
		struct timespec ts = {0, nap_us * 1000};
		nanosleep(&ts, NULL);
		nap_us = nap_us < 20000 ? nap_us * 2 : 20000;
	}
}

/* SIGKILL all of the hook that reaim still owns: its cgroup, and its process group while its first
 * process is unreaped (running, or a zombie whose pid keeps the group's id from being reused). */
static void kill_hook(const struct point_hook *h)
{
	if (h->cg && cgroup_point_kill(h->cg) < 0)
		log_warn("--point-hook: cannot kill the processes of cgroup %s: %s", cgroup_point_path(h->cg),
			 strerror(errno));
	if (engine_child_signal(&h->child, SIGKILL, 1) < 0 && errno != ESRCH)
		log_warn("--point-hook: cannot kill its process group %ld: %s", (long)h->child.pid, strerror(errno));
}

static void stop(struct point_hook *h)
{
	if (!h->child.pid)
		return;
	uint64_t stopping = clock_now_ns();
	double ran = (double)(stopping - h->started_ns) / 1e9, grace = 0;
	enum { ENDED, STOPPED, KILLED } how_ended = ENDED;
	int state = engine_child_state(&h->child);
	if (state == 1) {
		engine_child_signal(&h->child, SIGINT, 1);
		grace = engine_interrupted() ? POINT_HOOK_STOP_INTERRUPTED_S : POINT_HOOK_STOP_S;
		state = wait_end(h, grace);
		how_ended = STOPPED;
		if (state == 1) {
			kill_hook(h);
			state = wait_end(h, POINT_HOOK_STOP_S);
			how_ended = KILLED;
		}
	}
	/* what it started and left behind goes with it: nothing of the hook outlives the point */
	kill_hook(h);
	int status = 0, reaped = 0;
	if (state == 0) /* ended, not reaped: its status is ours to take */
		while (!(reaped = waitpid(h->child.pid, &status, 0) == h->child.pid) && errno == EINTR)
			;
	char how[120] = "";
	if (reaped)
		describe_status(how, sizeof(how), status);
	if (how_ended == KILLED)
		snprintf(h->end, sizeof(h->end), "stopped after %.2f s: killed, not ended %g s after SIGINT", ran, grace);
	else if (how_ended == STOPPED)
		snprintf(h->end, sizeof(h->end), "stopped after %.2f s with SIGINT%s%s", ran, reaped ? ": " : "", how);
	else /* reaped by a wait for any child before it was looked at: its status is gone */
		snprintf(h->end, sizeof(h->end), "ended by itself before the point did%s%s%s", reaped ? " (" : "", how,
			 reaped ? ")" : "");
	engine_child_close(&h->child);
	h->stop_s = (double)(clock_now_ns() - stopping) / 1e9;
}

/* The hook's part of the engine's moments, after the accounting's and the counters'. */
static void moment(struct point_hook *h, enum engine_event ev)
{
	if (ev == ENGINE_RELEASE) /* the wall clock of the release, to line a trace up with the window */
		clock_gettime(CLOCK_REALTIME, &h->release);
	else if (ev == ENGINE_RELEASED)
		start(h);
	else if (ev == ENGINE_FINISHED || ev == ENGINE_KILL)
		stop(h);
}

/* Ready a hook for one point (it takes dirfd), to start at the point's release. */
static void point_hook_init(struct point_hook *h, const char *command, int tasks, const char *dir, int dirfd,
		     struct accounting *acct)
{
	memset(h, 0, sizeof(*h));
	h->acct = acct;
	h->command = command;
	h->tasks = tasks;
	h->dirfd = dirfd;
	snprintf(h->dir, sizeof(h->dir), "%s", dir);
}

/* How long the end waits for the hook's cgroup to empty after the kill. */
#define EMPTY_WAIT_NS 2000000000ull
#define ZOMBIE_WAIT_NS 50000000ull

/* After the point: stop it if it still runs (a point that never reached its end), kill what is left
 * in its cgroup, reap it and remove the cgroup. */
static void point_hook_finish(struct point_hook *h)
{
	stop(h);
	if (h->cg) {
		/* the point is over and its tasks reaped: what died of the hook (a daemon it started, adopted
		 * by reaim as the subreaper) may be reaped here with any other child */
		uint64_t until = clock_now_ns() + EMPTY_WAIT_NS;
		int left;
		for (;;) {
			if (cgroup_point_kill(h->cg) < 0)
				log_warn("--point-hook: cannot kill the processes of cgroup %s: %s", cgroup_point_path(h->cg),
					 strerror(errno));
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
			left = cgroup_point_count(h->cg);
			if (left <= 0 || clock_now_ns() > until)
				break;
			struct timespec ts = {0, 1000000};
			nanosleep(&ts, NULL);
		}
		if (left > 0)
			log_warn("--point-hook: %d processes of cgroup %s outlived the kill", left, cgroup_point_path(h->cg));
		/* a process leaves the cgroup before its parent hears of its exit: the last zombies */
		until = clock_now_ns() + ZOMBIE_WAIT_NS;
		pid_t w; /* the forker lives on: with it, only the zombies there are now */
		while (((w = waitpid(-1, NULL, WNOHANG)) > 0 || (w == 0 && !engine_forker_alive())) && clock_now_ns() < until) {
			struct timespec ts = {0, 1000000};
			nanosleep(&ts, NULL);
		}
		char err[600];
		if (cgroup_point_destroy(h->cg, err, sizeof(err)) < 0)
			log_warn("--point-hook: %s", err);
		h->cg = NULL;
	}
	if (h->dirfd >= 0)
		close(h->dirfd);
	h->dirfd = -1;
}

/* ---- the hook as a point's add-on ---- */

/* How the hook ended, as stored and said. */
static const char *hook_end_text(const struct point_hook *h)
{
	return h->end[0] ? h->end : "never started: the tasks were not released";
}

struct hooked {
	struct point_hook ph;
	int on; /* the hook runs over this point */
};

/* --point-hook over this point, when it asks for its task count: its dir made, to run from the
 * release. A hook that cannot be readied fails the run, not the point (its output is what the run was
 * for; the run goes on). */
static int addon_before(struct addon_point *p, void *state, char *whyp, size_t whylen)
{
	struct hooked *s = state;
	const struct point_at *at = p->at;
	const struct workload *wl = at->wl;
	int tasks = at->point->tasks;
	(void)whyp;
	(void)whylen;
	if (!point_hook_wanted(&wl->opts, tasks))
		return 0;
	char why[PATH_MAX + 200], dir[sizeof(s->ph.dir)], tag[VARIANT_NAME_MAX + 32];
	int dirfd;
	size_t ncpus = p->rn->ncpus;
	/* a point of a --cpus block says its count too: the same point at another count is another dir */
	if (ncpus)
		snprintf(tag, sizeof(tag), "%s%scpus-%zu", at->variant, at->variant[0] ? "-" : "", ncpus);
	else
		snprintf(tag, sizeof(tag), "%s", at->variant);
	const struct point_hook_where where = {.db = p->rn->db, .run_id = p->rn->run_id, .workload = wl->name,
					       .osync = at->osync, .tasks = tasks, .round = at->repeat, .variant = tag};
	if (point_hook_dir(&where, dir, sizeof(dir), &dirfd, why, sizeof(why)) < 0) {
		log_error("%s, %d tasks: --point-hook not run: %s", wl->name, tasks, why);
		addon_run_failed(p, "--point-hook not run: ", why);
		return 0;
	}
	point_hook_init(&s->ph, wl->opts.point_hook, tasks, dir, dirfd, p->rn->acct);
	s->on = 1;
	return 0;
}

static void addon_during(struct addon_point *p, void *state, enum engine_event ev)
{
	struct hooked *s = state;
	(void)p;
	if (s->on)
		moment(&s->ph, ev);
}

/* The hook's end, kept with the point; its stop (perf writing its data) is in the finish phase, and
 * not the engine's stall. */
static void addon_after(struct addon_point *p, void *state)
{
	struct hooked *s = state;
	struct engine_result *res = p->res;
	int tasks = p->at->point->tasks;
	if (!s->on)
		return;
	point_hook_finish(&s->ph);
	if (s->ph.failed)
		addon_run_failed(p, "--point-hook ", s->ph.end);
	res->phases.finish_s = fmax(0, res->phases.finish_s - s->ph.stop_s);
	res->overhead_warning = engine_overhead_check(&res->phases, tasks, res->overhead_note, sizeof(res->overhead_note));
	log_info("%s, %d tasks: --point-hook %s; its output is in %s", p->at->wl->name, tasks, hook_end_text(&s->ph),
		 s->ph.dir);
}

static void addon_store(struct addon_point *p, void *state)
{
	struct hooked *s = state;
	if (!s->on)
		return;
	snprintf(p->out->hook_dir, sizeof(p->out->hook_dir), "%s", s->ph.dir);
	snprintf(p->out->hook_end, sizeof(p->out->hook_end), "%s", hook_end_text(&s->ph));
}

const struct point_addon point_hook_addon = {.name = "point hook", .state_size = sizeof(struct hooked),
					     .before = addon_before, .during = addon_during, .after = addon_after,
					     .store = addon_store};
