/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "process" test family: fork, fork+exec and shell-script jobs from the AIM catalog. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog/catalog.h"

#define FORK_ROUNDS 100
#define EXEC_ROUNDS 5

/* What a child does between fork and _exit; only async-signal-safe calls after fork. */
struct child_plan {
	const char *path;   /* program to exec; NULL: _exit(0) at once */
	char *const *argv;  /* built before fork */
	int dir_fd;         /* directory to enter first, or -1 */
	int via_child;      /* exec in a grandchild and pass its status on, as system() did */
};

/* Exit codes a child uses to say why it never ran the program (like the shells do). */
enum { CHILD_CHDIR_FAILED = 126, CHILD_EXEC_FAILED = 127 };

/* In the child: fork the exec into a grandchild, wait for it and exit as it did. */
static void pass_on(const struct child_plan *plan)
{
	int status;
	pid_t pid = fork();
	if (pid < 0)
		_exit(CHILD_EXEC_FAILED);
	if (pid == 0) {
		execv(plan->path, plan->argv);
		_exit(CHILD_EXEC_FAILED);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			_exit(CHILD_EXEC_FAILED);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* Fork, run the plan in the child, reap it; 0 with *status set, or -1 with errno. */
static int run_child(const struct child_plan *plan, int *status)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (plan->path == NULL)
			_exit(0);
		if (plan->dir_fd >= 0 && fchdir(plan->dir_fd) != 0)
			_exit(CHILD_CHDIR_FAILED);
		if (plan->via_child)
			pass_on(plan);
		execv(plan->path, plan->argv);
		_exit(CHILD_EXEC_FAILED);
	}
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	return 0;
}

/* A wait status in words, for failure messages. */
static const char *describe_status(int status, char *buf, size_t len)
{
	if (WIFEXITED(status)) {
		int code = WEXITSTATUS(status);
		snprintf(buf, len, "exit status %d%s", code,
			 code == CHILD_EXEC_FAILED ? " (exec failed?)" :
			 code == CHILD_CHDIR_FAILED ? " (chdir failed?)" : "");
	} else if (WIFSIGNALED(status)) {
		snprintf(buf, len, "killed by signal %d", WTERMSIG(status));
	} else {
		snprintf(buf, len, "wait status %#x", (unsigned)status);
	}
	return buf;
}

/* Run the plan once and turn anything but a clean exit 0 into a test failure. */
static enum test_status run_checked(struct test_ctx *ctx, const struct child_plan *plan,
				    const char *what)
{
	int status;
	char desc[64];

	if (run_child(plan, &status) != 0)
		return test_fail(ctx, errno, "fork/wait for %s", what);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return test_fail(ctx, 0, "%s: %s", what, describe_status(status, desc, sizeof(desc)));
	return TEST_OK;
}

static enum test_status fork_test(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	const struct child_plan plan = { NULL, NULL, -1, 0 };

	for (int i = 0; i < FORK_ROUNDS; i++) {
		enum test_status st = run_checked(ctx, &plan, "forked child");
		if (st != TEST_OK)
			return st;
	}
	return TEST_OK;
}

/* The path of <script_dir>/<name>.sh in script; a failure if there is none. */
static enum test_status script_path(struct test_ctx *ctx, const char *name, char *script, size_t len)
{
	if (ctx->script_dir == NULL)
		return test_fail(ctx, EINVAL, "%s: no script directory configured", name);
	/* The child changes directory before exec, so a relative path would miss. */
	if (ctx->script_dir[0] != '/')
		return test_fail(ctx, EINVAL, "%s: script directory %s is not absolute", name, ctx->script_dir);
	int n = snprintf(script, len, "%s/%s.sh", ctx->script_dir, name);
	if (n < 0 || (size_t)n >= len)
		return test_fail(ctx, ENAMETOOLONG, "%s: script path too long", name);
	return TEST_OK;
}

/* Classic's exec_test: 5 times, fork and exec its "true" script (a shell listing its
 * directory, here the task's scratch dir), so one program load is a shell and an ls. */
static enum test_status exec_test(struct test_ctx *ctx, const struct test_def *self)
{
	char sh[] = "sh", script[PATH_MAX];
	char *const argv[] = { sh, script, NULL };
	const struct child_plan plan = { "/bin/sh", argv, ctx->scratch_fd, 0 };
	enum test_status st = script_path(ctx, self->name, script, sizeof(script));
	for (int i = 0; i < EXEC_ROUNDS && st == TEST_OK; i++)
		st = run_checked(ctx, &plan, script);
	return st;
}

/* shell_rtns_1..3: the script named after the test with classic's load argument 9, started
 * as classic's system() in a forked child did: a child, then "sh -c" running the script. */
static enum test_status shell_job(struct test_ctx *ctx, const struct test_def *self)
{
	char sh[] = "sh", dash_c[] = "-c", cmd[] = "sh \"$0\" 9", script[PATH_MAX];
	char *const argv[] = { sh, dash_c, cmd, script, NULL };
	const struct child_plan plan = { "/bin/sh", argv, ctx->scratch_fd, 1 };
	enum test_status st = script_path(ctx, self->name, script, sizeof(script));
	return st == TEST_OK ? run_checked(ctx, &plan, script) : st;
}

static const struct test_def tests[] = {
	{ .name = "fork_test", .run = fork_test, .ops_per_call = FORK_ROUNDS, .units = "forks", .flags = TF_FORKS,
	  .desc = "fork a child that exits at once and wait for it, 100 times" },
	{ .name = "exec_test", .run = exec_test, .ops_per_call = EXEC_ROUNDS, .units = "execs", .flags = TF_FORKS | TF_SCRATCH,
	  .desc = "fork and exec classic's \"true\" script (sh running ls -l) and wait, 5 times" },
	{ .name = "shell_rtns_1", .run = shell_job, .ops_per_call = 1, .units = "scripts", .flags = TF_FORKS | TF_SCRATCH,
	  .desc = "run classic's aim_1 script (ls -l) as its system() did and wait" },
	{ .name = "shell_rtns_2", .run = shell_job, .ops_per_call = 1, .units = "scripts", .flags = TF_FORKS | TF_SCRATCH,
	  .desc = "run classic's aim_2 script (sleep 5, as classic's load argument 9 asks) and wait" },
	{ .name = "shell_rtns_3", .run = shell_job, .ops_per_call = 1, .units = "scripts", .flags = TF_FORKS | TF_SCRATCH,
	  .desc = "run classic's aim_3 script (ls -l) as its system() did and wait" },
};

const struct test_family test_family_process = { "process", tests, sizeof(tests) / sizeof(tests[0]), NULL };
