/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs a --point-hook command over one point: started on the engine's RELEASED event in a process
 * group and output directory of its own, stopped on FINISHED (or KILL) with SIGINT, then SIGKILL. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config/cfg.h"
#include "engine/command.h"
#include "measure/measure.h"
#include "run/accounting.h"
#include "run/point_hook.h"
#include "util/util.h"

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

int point_hook_dir(const struct point_hook_place *at, char *dir, size_t len, char *why, size_t whylen)
{
	const char *db = at->db;
	char wl[65], var[65], parent[PATH_MAX];
	name_part(wl, sizeof(wl), at->workload);
	name_part(var, sizeof(var), at->variant ? at->variant : "");
	const char *slash = strrchr(db, '/');
	int w = snprintf(parent, sizeof(parent), "%.*s%sreaim-run-%lld-hook", slash ? (int)(slash - db) : 0, db,
			 slash ? "/" : "", (long long)at->run_id);
	if (w < 0 || (size_t)w >= sizeof(parent)) {
		snprintf(why, whylen, "the hook directory beside %s is too long a path", db);
		return -1;
	}
	if (mkdir(parent, 0755) < 0 && errno != EEXIST) {
		snprintf(why, whylen, "mkdir %s: %s", parent, strerror(errno));
		return -1;
	}
	w = snprintf(dir, len, "%s/%s-osync-%s-tasks-%d-round-%d%s%s", parent, wl, at->osync ? "on" : "off",
		     at->tasks, at->round + 1, var[0] ? "-" : "", var);
	if (w < 0 || (size_t)w >= len) {
		snprintf(why, whylen, "the hook directory under %s is too long a path", parent);
		return -1;
	}
	if (mkdir(dir, 0755) < 0) { /* a new one per point: never write into what another made */
		snprintf(why, whylen, "mkdir %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void start(struct point_hook *h)
{
	char out_path[sizeof(h->dir) + 16];
	snprintf(out_path, sizeof(out_path), "%s/hook.out", h->dir);
	int out = open(out_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		snprintf(h->end, sizeof(h->end), "not started: creating hook.out there: %s", strerror(errno));
		log_warn("--point-hook %s", h->end);
		return;
	}
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
		setpgid(0, 0); /* its own group: SIGINT reaches what it starts, not the tasks */
		if (chdir(h->dir) < 0)
			_exit(126);
		engine_command_exec(reaim, out, h->command, env, max_fd);
	}
	int err = errno;
	free(env);
	for (size_t i = 0; vars[i]; i++)
		free(vars[i]);
	close(out);
	if (pid < 0) {
		snprintf(h->end, sizeof(h->end), "not started: fork: %s", strerror(err));
		log_warn("--point-hook %s", h->end);
		return;
	}
	setpgid(pid, pid); /* as the child does: whichever runs first, the group exists before a signal */
	h->pid = pid;
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

/* Wait for the hook's shell up to timeout_s: 1 when reaped (status set), 0 at the timeout, -1 when it
 * is no longer our child to wait for (the engine reaped it with the tasks). */
static int wait_shell(pid_t pid, double timeout_s, int *status)
{
	uint64_t until = clock_now_ns() + (uint64_t)(timeout_s * 1e9);
	long nap_us = 200;
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);
		if (w == pid)
			return 1;
		if (w < 0 && errno != EINTR)
			return -1;
		if (clock_now_ns() >= until)
			return 0;
		struct timespec ts = {0, nap_us * 1000};
		nanosleep(&ts, NULL);
		nap_us = nap_us < 20000 ? nap_us * 2 : 20000;
	}
}

static void stop(struct point_hook *h)
{
	if (!h->pid)
		return;
	uint64_t stopping = clock_now_ns();
	double ran = (double)(stopping - h->started_ns) / 1e9;
	char how[120];
	int status;
	int gone = wait_shell(h->pid, 0, &status);
	if (gone == 1) {
		describe_status(how, sizeof(how), status);
		snprintf(h->end, sizeof(h->end), "ended by itself before the point did (%s)", how);
	} else if (gone < 0) {
		snprintf(h->end, sizeof(h->end), "ended by itself before the point did");
	} else {
		kill(-h->pid, SIGINT);
		gone = wait_shell(h->pid, POINT_HOOK_STOP_S, &status);
		if (gone == 0) {
			kill(-h->pid, SIGKILL);
			gone = wait_shell(h->pid, POINT_HOOK_STOP_S, &status);
			snprintf(h->end, sizeof(h->end), "stopped after %.2f s: killed, not ended %g s after SIGINT", ran,
				 POINT_HOOK_STOP_S);
		} else if (gone == 1) {
			describe_status(how, sizeof(how), status);
			snprintf(h->end, sizeof(h->end), "stopped after %.2f s with SIGINT: %s", ran, how);
		} else {
			snprintf(h->end, sizeof(h->end), "stopped after %.2f s with SIGINT", ran);
		}
	}
	/* what it started and left behind goes with it: nothing of the hook outlives the point */
	kill(-h->pid, SIGKILL);
	h->pid = 0;
	h->stop_s = (double)(clock_now_ns() - stopping) / 1e9;
}

static void on_event(void *arg, enum engine_event ev)
{
	struct point_hook *h = arg;
	if (h->next)
		h->next->fn(h->next->arg, ev);
	if (ev == ENGINE_RELEASE) /* the wall clock of the release, to line a trace up with the window */
		clock_gettime(CLOCK_REALTIME, &h->release);
	else if (ev == ENGINE_RELEASED)
		start(h);
	else if (ev == ENGINE_FINISHED || ev == ENGINE_KILL)
		stop(h);
}

void point_hook_init(struct point_hook *h, const char *command, int tasks, const char *dir,
		     const struct engine_hook *next, const struct accounting *acct)
{
	memset(h, 0, sizeof(*h));
	h->hook = (struct engine_hook){on_event, h};
	h->next = next;
	h->acct = acct;
	h->command = command;
	h->tasks = tasks;
	snprintf(h->dir, sizeof(h->dir), "%s", dir);
}

void point_hook_finish(struct point_hook *h)
{
	stop(h);
}
