/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A shell command run between points (a variant's set-up): /bin/sh -c with its output captured,
 * a time limit, and stop signals honoured. */
#ifndef REAIM_ENGINE_COMMAND_H
#define REAIM_ENGINE_COMMAND_H

#include <stddef.h>
#include <sys/types.h>

/* The most output kept (the start of it); the rest is dropped and said so. */
#define ENGINE_COMMAND_OUTPUT_MAX 4096

struct engine_command_result {
	int status;            /* the shell's wait status (WIFEXITED ...), when it ended by itself */
	int timed_out;         /* killed at the time limit */
	int interrupted;       /* a stop signal came: killed, the run is interrupted */
	double seconds;        /* how long it ran */
	char output[ENGINE_COMMAND_OUTPUT_MAX + 32]; /* stdout and stderr together, NUL-terminated */
};

/* Run `command` with /bin/sh -c in a process group of its own, stdin from /dev/null, stdout and
 * stderr into an unlinked file (a background process it starts may keep writing; nothing of ours
 * waits on it), the environment plus the NAME=VALUE strings of env (NULL-terminated, may be NULL).
 * A process the command leaves in the background when it ends by itself is neither waited for nor
 * killed; at the time limit or a stop signal the whole group is killed. 0 when the shell ran to its
 * end (or was stopped: see timed_out, interrupted), -1 when it could not be started (err says why). */
int engine_command_run(const char *command, const char *const *env, double timeout_s,
		       struct engine_command_result *out, char *err, size_t errlen);
/* The pieces of the fork a command runs in, for a caller that keeps it running (the point hook):
 * environ followed by the extra strings, for execve (built before the fork, as the child must not
 * allocate; the strings are shared, only the array is new); the file descriptors to close; and, in the
 * child between fork and exec (async-signal-safe calls only), stdin from /dev/null, stdout and stderr
 * to out_fd, nothing of ours open above 2, default signals unblocked, its own process group, then
 * /bin/sh -c command under a process of ours that ends the group when reaim (pid reaim) dies. */
char **engine_command_environment(const char *const *extra);
int engine_command_max_fd(void);
__attribute__((noreturn)) void engine_command_exec(pid_t reaim, int out_fd, const char *command, char **env,
						 int max_fd);
/* A child of ours named so that a signal reaches it, or its process group, only while it is not
 * reaped: while a child is unreaped its pid (and so its group's id, when it leads one) cannot be
 * given to another process. A pidfd pins the process where the kernel has them (Linux 5.3); without
 * one, waitid(WNOWAIT) asks whether the pid is still an unreaped child of ours. Either answer holds
 * until the next wait of this process, so children are reaped by one thread only. */
struct engine_child {
	pid_t pid;
	int pidfd; /* -1: none (an older kernel, or engine_test_no_pidfd) */
};
/* Name a child just forked, before anything waits: 0, always (without a pidfd it falls back). */
int engine_child_open(struct engine_child *c, pid_t pid);
/* 1 while it runs, 0 once it ended but is not reaped (a zombie whose status is still to take),
 * -1 once it is reaped (by whoever: a wait for any child takes it too). */
int engine_child_state(const struct engine_child *c);
/* Send sig to the child's process group (group: 1) or the child alone, only while it is unreaped;
 * 0, or -1 with errno (ESRCH once it is reaped). */
int engine_child_signal(const struct engine_child *c, int sig, int group);
void engine_child_close(struct engine_child *c);
/* Test instrumentation, 0 in the program: nonzero makes engine_child_open take no pidfd. */
extern int engine_test_no_pidfd;

/* Whether the result is success: the shell exited 0, in time. */
int engine_command_ok(const struct engine_command_result *r);
/* "exited with status 3", "killed by signal 9 (Killed)", "timed out after 60 s", "interrupted". */
void engine_command_describe(const struct engine_command_result *r, char *buf, size_t len);

#endif
