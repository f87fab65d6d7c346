/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A variant's shell command, run between points: /bin/sh -c in a process group of its own with
 * the output in an unlinked file, waited for alone (never what it leaves in the background), with
 * a time limit, stopped with all its group by the limit, the run's stop signals or reaim's death. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/command.h"
#include "engine/engine.h"
#include "measure/measure.h"
#include "util/util.h"

extern char **environ;

static void set_errno_err(char *err, size_t len, const char *what)
{
	snprintf(err, len, "%s: %s", what, strerror(errno));
}

char **engine_command_environment(const char *const *extra)
{
	size_t n = 0, k = 0;
	while (environ && environ[n])
		n++;
	while (extra && extra[k])
		k++;
	char **env = xcalloc(n + k + 1, sizeof(*env));
	for (size_t i = 0; i < n; i++)
		env[i] = environ[i];
	for (size_t i = 0; i < k; i++)
		env[n + i] = (char *)extra[i];
	return env;
}

int engine_command_max_fd(void)
{
	struct rlimit rl;
	return getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536 ? (int)rl.rlim_cur
													  : 65536;
}

/* Sent to the command's first process when reaim dies (PR_SET_PDEATHSIG): a signal no command
 * is sent by us. */
#define COMMAND_PARENT_GONE_SIGNAL SIGRTMIN

/* reaim died while the command ran: end the command's whole group, ourselves included. */
static void group_gone(int sig)
{
	(void)sig;
	kill(0, SIGKILL);
	_exit(128 + SIGKILL);
}

static const int held_stops[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/* Between reaim and the shell: wait for it and end as it did, so its status is the command's; when
 * reaim dies first (even by SIGKILL) take the whole group along, as a task does. */
__attribute__((noreturn)) static void stand_between(pid_t reaim, char *const *argv, char **env)
{
	struct sigaction gone;
	memset(&gone, 0, sizeof(gone));
	gone.sa_handler = group_gone;
	sigfillset(&gone.sa_mask);
	if (sigaction(COMMAND_PARENT_GONE_SIGNAL, &gone, NULL) < 0 ||
	    prctl(PR_SET_PDEATHSIG, COMMAND_PARENT_GONE_SIGNAL) < 0)
		_exit(126);
	if (getppid() != reaim)
		group_gone(0);
	/* a stop signal sent to the group is the shell's to act on: held here, so this process still
	 * reports how the shell ended (a hook's perf writing its data after SIGINT) */
	sigset_t stops, before;
	sigemptyset(&stops);
	for (size_t i = 0; i < sizeof(held_stops) / sizeof(held_stops[0]); i++)
		sigaddset(&stops, held_stops[i]);
	sigprocmask(SIG_BLOCK, &stops, &before);
	pid_t sh = fork();
	if (sh < 0)
		_exit(126);
	if (sh == 0) {
		sigprocmask(SIG_SETMASK, &before, NULL);
		execve("/bin/sh", argv, env); /* the handler above goes with the exec */
		_exit(127);
	}
	int status;
	while (waitpid(sh, &status, 0) < 0)
		if (errno != EINTR)
			_exit(126);
	if (WIFSIGNALED(status)) {
		struct rlimit no_core = {0, 0};
		setrlimit(RLIMIT_CORE, &no_core); /* the shell's signal, not a second core */
		signal(WTERMSIG(status), SIG_DFL);
		sigprocmask(SIG_SETMASK, &before, NULL); /* a held stop signal may end us as it ended the shell */
		raise(WTERMSIG(status));
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 126);
}

/* In the child, between fork and exec: only async-signal-safe calls. */
void engine_command_exec(pid_t reaim, int out_fd, const char *command, char **env, int max_fd)
{
	/* its own group, so a time-out or a stop kills what the shell started along with it */
	if (setpgid(0, 0) < 0)
		_exit(126);
	int in = open("/dev/null", O_RDONLY);
	if (in < 0 || dup2(in, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
		_exit(126);
	/* nothing of ours (the database, the signal fd) is left open in what the command starts */
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3u, ~0u, 0u) < 0)
#endif
		for (int fd = 3; fd < max_fd; fd++)
			close(fd);
	/* the run blocks its stop signals to read them from a signalfd; the command must not inherit that */
	static const int reset[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE, SIGXFSZ, SIGQUIT};
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
		sigaction(reset[i], &dfl, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	char *const argv[] = {"sh", "-c", (char *)command, NULL};
	stand_between(reaim, argv, env);
}

/* Read back what the command wrote (its start, when long), without control bytes but newlines. */
static void read_output(int fd, struct engine_command_result *out)
{
	size_t n = 0;
	ssize_t got = 0;
	if (lseek(fd, 0, SEEK_SET) == 0)
		while (n < ENGINE_COMMAND_OUTPUT_MAX &&
		       ((got = read(fd, out->output + n, ENGINE_COMMAND_OUTPUT_MAX - n)) > 0 || (got < 0 && errno == EINTR)))
			n += got > 0 ? (size_t)got : 0;
	char more;
	int cut = n == ENGINE_COMMAND_OUTPUT_MAX && read(fd, &more, 1) == 1;
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)out->output[i] < 0x20 && out->output[i] != '\n' && out->output[i] != '\t') ||
		    out->output[i] == 0x7f)
			out->output[i] = '?';
	while (n > 0 && out->output[n - 1] == '\n')
		n--;
	out->output[n] = '\0';
	if (cut)
		snprintf(out->output + n, sizeof(out->output) - n, "\n[... cut]");
}

int engine_test_no_pidfd;

int engine_child_open(struct engine_child *c, pid_t pid)
{
	c->pid = pid;
	c->pidfd = -1;
#ifdef SYS_pidfd_open
	if (!engine_test_no_pidfd)
		c->pidfd = (int)syscall(SYS_pidfd_open, pid, 0u); /* ENOSYS before Linux 5.3: the fallback */
#endif
	return 0;
}

/* Whether the pidfd's process is still unreaped: 1, 0 (reaped), or -1 (cannot tell: no pidfd). */
static int pidfd_unreaped(const struct engine_child *c)
{
#ifdef SYS_pidfd_send_signal
	if (c->pidfd >= 0) {
		if (syscall(SYS_pidfd_send_signal, c->pidfd, 0, NULL, 0u) == 0)
			return 1; /* signal 0 reaches a zombie too: only the reap detaches the pid */
		if (errno == ESRCH)
			return 0;
	}
#endif
	return -1;
}

int engine_child_state(const struct engine_child *c)
{
	if (c->pid <= 0 || pidfd_unreaped(c) == 0)
		return -1;
	for (;;) {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0)
			return si.si_pid == c->pid ? 0 : 1;
		if (errno != EINTR)
			return -1; /* ECHILD: not a child of ours any more */
	}
}

int engine_child_signal(const struct engine_child *c, int sig, int group)
{
	if (engine_child_state(c) < 0) {
		errno = ESRCH;
		return -1;
	}
#ifdef SYS_pidfd_send_signal
	if (!group && c->pidfd >= 0)
		return (int)syscall(SYS_pidfd_send_signal, c->pidfd, sig, NULL, 0u);
#endif
	/* unreaped, so its pid is still its own: the group it leads is the one it made */
	return kill(group ? -c->pid : c->pid, sig);
}

void engine_child_close(struct engine_child *c)
{
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->pidfd = -1;
	c->pid = 0;
}

/* Kill the shell and every process of its group (what it is running: a `sleep`, a pipeline, a
 * background job that stayed in the group), and reap the shell: unreaped until then, so the group
 * is still its own. */
static void stop_shell(const struct engine_child *c, int *status)
{
	if (engine_child_signal(c, SIGKILL, 1) < 0)
		engine_child_signal(c, SIGKILL, 0); /* not yet in its group */
	while (waitpid(c->pid, status, 0) < 0 && errno == EINTR)
		;
}

int engine_command_run(const char *command, const char *const *env_extra, double timeout_s,
		       struct engine_command_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	/* a file, not a pipe: a background process keeps its copy, and nobody waits for its end */
	FILE *tmp = tmpfile();
	if (!tmp) {
		set_errno_err(err, errlen, "cannot create a file for the command's output");
		return -1;
	}
	int fd = fileno(tmp);
	int max_fd = engine_command_max_fd();
	char **env = engine_command_environment(env_extra);
	uint64_t start = clock_now_ns();
	fflush(NULL);
	pid_t reaim = getpid(), pid = fork();
	if (pid < 0) {
		set_errno_err(err, errlen, "cannot fork /bin/sh");
		free(env);
		fclose(tmp);
		return -1;
	}
	if (pid == 0)
		engine_command_exec(reaim, fd, command, env, max_fd);
	struct engine_child child;
	engine_child_open(&child, pid);
	/* also here, so the group exists whichever of the two runs first */
	if (setpgid(pid, pid) < 0 && errno != EACCES && errno != ESRCH)
		log_debug("setpgid of the command: %s", strerror(errno));
	free(env);
	uint64_t limit_ns = timeout_s > 0 ? (uint64_t)(timeout_s * 1e9) : UINT64_MAX;
	long nap_us = 200;
	for (;;) {
		pid_t w = waitpid(pid, &out->status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			set_errno_err(err, errlen, "waiting for /bin/sh");
			stop_shell(&child, &out->status);
			engine_child_close(&child);
			fclose(tmp);
			return -1;
		}
		engine_poll_signals();
		if (engine_interrupted()) {
			out->interrupted = 1;
			stop_shell(&child, &out->status);
			break;
		}
		if (clock_now_ns() - start >= limit_ns) {
			out->timed_out = 1;
			stop_shell(&child, &out->status);
			break;
		}
		/* most set-up commands take milliseconds: poll fast first, then every 20 ms */
		struct timespec ts = {0, nap_us * 1000};
		nanosleep(&ts, NULL);
		nap_us = nap_us < 20000 ? nap_us * 2 : 20000;
	}
	engine_child_close(&child);
	out->seconds = (double)(clock_now_ns() - start) / 1e9;
	read_output(fd, out);
	fclose(tmp);
	return 0;
}

int engine_command_ok(const struct engine_command_result *r)
{
	return !r->timed_out && !r->interrupted && WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
}

void engine_command_describe(const struct engine_command_result *r, char *buf, size_t len)
{
	if (r->interrupted)
		snprintf(buf, len, "interrupted");
	else if (r->timed_out)
		snprintf(buf, len, "timed out after %.0f s", r->seconds);
	else if (WIFEXITED(r->status))
		snprintf(buf, len, "exited with status %d%s", WEXITSTATUS(r->status),
			 WEXITSTATUS(r->status) == 127 ? " (command not found?)" : "");
	else if (WIFSIGNALED(r->status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(r->status), strsignal(WTERMSIG(r->status)));
	else
		snprintf(buf, len, "ended with wait status %d", r->status);
}
