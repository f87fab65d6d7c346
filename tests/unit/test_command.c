/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks a variant's command: its status and output, a background process it leaves (not waited
 * for, not killed), the time limit (which kills the command's whole process group), the environment, no inherited descriptor or blocked signal,
 * and long output cut; and the rule every signal to a child follows: only while it is unreaped, with
 * a pidfd and without. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/command.h"
#include "tap.h"

static struct engine_command_result r;
static char err[256];

/* Whether pid ends (gone, or a zombie of whoever adopted it) within 2 s. */
static int gone(pid_t pid)
{
	for (int i = 0; i < 200; i++) {
		char path[64], state = 0;
		snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
		FILE *f = fopen(path, "r");
		if (!f)
			return 1;
		int got = fscanf(f, "%*d (%*[^)]) %c", &state);
		fclose(f);
		if (got == 1 && state == 'Z')
			return 1;
		struct timespec ts = {0, 10000000};
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	return 0;
}

static void nap_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};
	nanosleep(&ts, NULL);
}

/* A child leading a process group with a member that outlives it: signalled through the group while
 * the leader is unreaped (a zombie included: its pid holds the group's id), never once it is reaped. */
static void child_rule(int no_pidfd)
{
	char what[160];
	const char *mode = no_pidfd ? "without a pidfd" : "with a pidfd";
	engine_test_no_pidfd = no_pidfd;
	int p[2];
	if (pipe(p) < 0) {
		ok(0, "pipe");
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		pid_t member = fork();
		if (member == 0) {
			pause();
			_exit(0);
		}
		if (write(p[1], &member, sizeof(member)) != (ssize_t)sizeof(member))
			_exit(1);
		pause();
		_exit(0);
	}
	setpgid(pid, pid);
	struct engine_child c;
	engine_child_open(&c, pid);
	if (no_pidfd)
		ok(c.pidfd < 0, "the test switch takes no pidfd");
	pid_t member = 0;
	if (read(p[0], &member, sizeof(member)) != (ssize_t)sizeof(member))
		member = 0;
	close(p[0]);
	close(p[1]);
	snprintf(what, sizeof(what), "%s: a running child is running", mode);
	is_int(engine_child_state(&c), 1, what);
	kill(pid, SIGTERM);
	int state = 1;
	for (int i = 0; i < 200 && (state = engine_child_state(&c)) == 1; i++)
		nap_ms(10);
	snprintf(what, sizeof(what), "%s: once it ended it is unreaped (its status still to take)", mode);
	is_int(state, 0, what);
	snprintf(what, sizeof(what), "%s: the group of an unreaped leader is signalled", mode);
	is_int(engine_child_signal(&c, SIGKILL, 1), 0, what);
	snprintf(what, sizeof(what), "%s: ... and its member is gone", mode);
	ok(member > 0 && gone(member), what);
	/* a wait for any child takes it, as the engine's reap of its tasks can */
	int status;
	pid_t w = waitpid(-1, &status, 0);
	snprintf(what, sizeof(what), "%s: a wait for any child reaped it", mode);
	ok(w == pid, what);
	snprintf(what, sizeof(what), "%s: reaped elsewhere, it is known as reaped", mode);
	is_int(engine_child_state(&c), -1, what);
	errno = 0;
	int rc = engine_child_signal(&c, SIGKILL, 1);
	snprintf(what, sizeof(what), "%s: its old group id is never signalled (ESRCH)", mode);
	ok(rc < 0 && errno == ESRCH, what);
	rc = engine_child_signal(&c, 0, 0);
	snprintf(what, sizeof(what), "%s: nor its old pid", mode);
	ok(rc < 0 && errno == ESRCH, what);
	engine_child_close(&c);
	engine_test_no_pidfd = 0;
}

static int run(const char *cmd, const char *const *env, double timeout_s)
{
	return engine_command_run(cmd, env, timeout_s, &r, err, sizeof(err));
}

/* A command's status and output, captured together. */
static void status_output(void)
{
	char how[128];
	is_int(run("echo out; echo err >&2; exit 3", NULL, 10), 0, "a failing command ran");
	is_int(engine_command_ok(&r), 0, "... and is not ok");
	engine_command_describe(&r, how, sizeof(how));
	is_str(how, "exited with status 3", "... its status named");
	is_str(r.output, "out\nerr", "stdout and stderr captured together");

	is_int(run("true", NULL, 10), 0, "true runs");
	ok(engine_command_ok(&r) && r.output[0] == '\0', "... ok, no output");
}

/* A process the command leaves behind is neither waited for nor killed. */
static void background(void)
{
	/* the background sleep keeps the output file open: the command must still end at once */
	is_int(run("sleep 30 & echo $!", NULL, 10), 0, "a command that leaves a process behind");
	ok(r.seconds < 5, "... is not waited for");
	pid_t bg = (pid_t)atol(r.output);
	ok(bg > 0 && kill(bg, 0) == 0, "... nor killed");
	if (bg > 0)
		kill(bg, SIGKILL);
}

/* The time limit stops the command and its whole process group. */
static void time_limit(void)
{
	is_int(run("sleep 30", NULL, 0.3), 0, "a command past its time limit");
	ok(r.timed_out && r.seconds < 5 && !engine_command_ok(&r), "... is stopped and not ok");
	/* what the shell runs at the limit goes with it: a background job and a grandchild */
	is_int(run("sleep 30 & echo $!; sh -c 'echo $$; exec sleep 30'", NULL, 0.5), 0, "a command with children past its limit");
	char *end;
	pid_t bg_job = (pid_t)strtol(r.output, &end, 10), grandchild = (pid_t)strtol(end, NULL, 10);
	ok(r.timed_out && bg_job > 0 && grandchild > 0, "... timed out, its children's pids said");
	ok(bg_job > 0 && gone(bg_job), "... its background job is killed");
	ok(grandchild > 0 && gone(grandchild), "... and the grandchild it was waiting for");
}

/* The extra environment reaches the command; our descriptors and blocked signals do not. */
static void inherited(void)
{
	char how[128];
	const char *const env[] = {"REAIM_VARIANT=mq", NULL};
	run("echo \"$REAIM_VARIANT\"", env, 10);
	is_str(r.output, "mq", "the extra environment reaches the command");

	/* a descriptor of ours without close-on-exec, and a blocked SIGTERM, are not inherited */
	int fd = open("/dev/null", O_RDONLY);
	ok(fd >= 0 && dup2(fd, 77) == 77, "descriptor 77 open here");
	run("[ -e /proc/self/fd/77 ] && echo leaked || echo closed", NULL, 10);
	is_str(r.output, "closed", "... and closed in the command");
	close(77);
	close(fd);
	sigset_t term;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
	run("kill -TERM $$; sleep 5; echo survived", NULL, 10);
	engine_command_describe(&r, how, sizeof(how));
	ok(strstr(how, "killed by signal 15") != NULL, "a blocked SIGTERM here is not blocked in the command");
	sigprocmask(SIG_UNBLOCK, &term, NULL);
}

/* Long output is cut and control bytes are masked. */
static void output_cut(void)
{
	run("head -c 10000 /dev/zero | tr '\\000' a; printf '\\001'", NULL, 10);
	ok(strlen(r.output) < ENGINE_COMMAND_OUTPUT_MAX + 32 && strstr(r.output, "[... cut]") != NULL,
	   "long output is cut, and says so");
	run("printf 'a\\033[2Jb'", NULL, 10);
	is_str(r.output, "a?[2Jb", "control bytes do not reach the terminal");
}

int main(void)
{
	tap_case(status_output);
	tap_case(background);
	tap_case(time_limit);
	tap_case(inherited);
	tap_case(output_cut);
	tap_case(child_rule, 0);
	tap_case(child_rule, 1);
	return done_testing();
}
