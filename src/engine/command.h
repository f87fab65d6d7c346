/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A shell command run between points (a variant's set-up): /bin/sh -c with its output captured,
 * a time limit, and stop signals honoured. */
#ifndef REAIM_ENGINE_COMMAND_H
#define REAIM_ENGINE_COMMAND_H

#include <stddef.h>

/* The most output kept (the start of it); the rest is dropped and said so. */
#define ENGINE_COMMAND_OUTPUT_MAX 4096

struct engine_command_result {
	int status;            /* the shell's wait status (WIFEXITED ...), when it ended by itself */
	int timed_out;         /* killed at the time limit */
	int interrupted;       /* a stop signal came: killed, the run is interrupted */
	double seconds;        /* how long it ran */
	char output[ENGINE_COMMAND_OUTPUT_MAX + 32]; /* stdout and stderr together, NUL-terminated */
};

/* Run `command` with /bin/sh -c, stdin from /dev/null, stdout and stderr into an unlinked file
 * (a background process it starts may keep writing; nothing of ours waits on it), the
 * environment plus the NAME=VALUE strings of env (NULL-terminated, may be NULL). A process the
 * command leaves in the background is neither waited for nor killed. 0 when the shell ran to its
 * end (or was stopped: see timed_out, interrupted), -1 when it could not be started (err says why). */
int engine_command_run(const char *command, const char *const *env, double timeout_s,
		       struct engine_command_result *out, char *err, size_t errlen);
/* Whether the result is success: the shell exited 0, in time. */
int engine_command_ok(const struct engine_command_result *r);
/* "exited with status 3", "killed by signal 9 (Killed)", "timed out after 60 s", "interrupted". */
void engine_command_describe(const struct engine_command_result *r, char *buf, size_t len);

#endif
