/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks where a --point-hook works and whether it can run: its directory absolute, a new one per
 * point (a repeated task count, two names that read the same, two databases side by side), a planted
 * link or a directory others may write refused; --point-hook-tasks against each mode's plan. */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/cfg.h"
#include "run/point_hook.h"
#include "store/figures.h"
#include "tap.h"
#include "util/util.h"

static char dir[STORE_TEXT_LEN], why[PATH_MAX + 200];

/* point_hook_dir for run 1 of DB at 2 tasks, round 1; its directory fd closed. */
static int hook_dir(const char *db, const char *workload, const char *variant)
{
	int fd = -1;
	const struct point_hook_where at = {.db = db, .run_id = 1, .workload = workload, .osync = 1, .tasks = 2,
					    .round = 0, .variant = variant};
	int rc = point_hook_dir(&at, dir, sizeof(dir), &fd, why, sizeof(why));
	if (rc == 0 && fd < 0)
		rc = -2;
	if (fd >= 0)
		close(fd);
	return rc;
}

/* An empty file made new. */
static int test_put_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	return fd < 0 ? -1 : close(fd);
}

static void dirs(const char *root)
{
	if (chdir(root) < 0) {
		ok(0, "chdir to the temp dir");
		return;
	}
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = '\0';
	char *want = xasprintf("%s/r-run-1-hook/wl-osync-on-tasks-2-round-1-v", cwd);
	is_int(hook_dir("r.db", "wl", "v"), 0, "a relative database: its hook dir is made");
	is_str(dir, want, "... absolute, named after the database, the workload, the point and the variant");
	struct stat sb;
	ok(stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode), "... and there");
	free(want);
	char first[sizeof(dir)];
	snprintf(first, sizeof(first), "%s", dir);
	is_int(hook_dir("r.db", "wl", "v"), 0, "the same point again (a repeated task count)");
	ok(strcmp(dir, first) != 0 && strstr(dir, "-round-1-v.2") != NULL, "... gets a directory of its own");
	is_int(hook_dir("r.db", "a b", NULL), 0, "workload 'a b'");
	snprintf(first, sizeof(first), "%s", dir);
	is_int(hook_dir("r.db", "a_b", NULL), 0, "workload 'a_b', the same in a file name");
	ok(strcmp(dir, first) != 0, "... gets a directory of its own");
	is_int(hook_dir("other.db", "wl", "v"), 0, "another database in the same directory");
	ok(strstr(dir, "/other-run-1-hook/") != NULL, "... keeps its hooks apart");
	char *abs_db = xasprintf("%s/abs.db", cwd);
	is_int(hook_dir(abs_db, "wl", NULL), 0, "an absolute database path");
	ok(strncmp(dir, cwd, strlen(cwd)) == 0 && strstr(dir, "/abs-run-1-hook/wl-osync-on-tasks-2-round-1") != NULL,
	   "... its hooks beside it");
	free(abs_db);

	/* a parent planted as a link (a shared directory such as /tmp) */
	ok(mkdir("target", 0755) == 0 && symlink("target", "l-run-1-hook") == 0, "a link planted where the hooks go");
	is_int(hook_dir("l.db", "wl", NULL), -1, "... is refused");
	ok(strstr(why, "l-run-1-hook") != NULL && strstr(why, "symbolic link is never followed") != NULL,
	   "... naming it and why");
	ok(rmdir("target") == 0, "... and nothing was made where it points");
	/* a parent others may write to */
	ok(mkdir("w-run-1-hook", 0755) == 0 && chmod("w-run-1-hook", 0777) == 0, "a hook parent writable by all");
	is_int(hook_dir("w.db", "wl", NULL), -1, "... is refused");
	ok(strstr(why, "writable by others") != NULL, "... saying so");
	/* a parent that is a file */
	ok(test_put_file("f-run-1-hook") == 0, "a file where the hooks go");
	is_int(hook_dir("f.db", "wl", NULL), -1, "... is refused");
}

static void opts(struct run_opts *o, int mode, const char *tasks, const char *hook_tasks, long long max_tasks)
{
	memset(o, 0, sizeof(*o));
	o->mode = mode;
	o->max_tasks = max_tasks;
	o->point_hook = xstrdup("true");
	if (tasks_parse(tasks, &o->tasks, NULL, 0) < 0 || tasks_parse(hook_tasks, &o->point_hook_tasks, NULL, 0) < 0)
		ok(0, "a task list parses");
}

static void done_opts(struct run_opts *o)
{
	free(o->point_hook);
	tasks_free(&o->tasks);
	tasks_free(&o->point_hook_tasks);
}

/* point_hook_check over the schedule of a plan of one workload "wl" with these options. */
static int check_opts(const struct run_opts *o)
{
	struct plan p = {.wl = &(struct workload){.name = (char *)"wl", .opts = *o}, .nwl = 1};
	struct schedule s;
	schedule_make(&p, &s);
	why[0] = '\0';
	int rc = point_hook_check(&s.wl[0], why, sizeof(why));
	schedule_free(&s);
	return rc;
}

static void check(int mode, const char *tasks, const char *hook_tasks, long long max_tasks, int want, const char *what)
{
	struct run_opts o;
	opts(&o, mode, tasks, hook_tasks, max_tasks);
	is_int(check_opts(&o), want, what);
	done_opts(&o);
}

/* Where each point's hook dir goes, in a temp dir removed after. */
static void hook_dirs(void)
{
	char tmpl[] = "/tmp/reaim-test-hook.XXXXXX";
	char *root = mkdtemp(tmpl);
	ok(root != NULL, "a temp dir");
	if (!root)
		return;
	dirs(root);
	char *cmd = xasprintf("rm -rf '%s'", root);
	if (chdir("/") < 0 || system(cmd) != 0)
		ok(0, "the temp dir removed");
	free(cmd);
}

/* --point-hook-tasks against the task counts each mode may measure. */
static void hook_tasks(void)
{
	check(MODE_SWEEP, "1,2", "5", 0, -1, "sweep -t 1,2: --point-hook-tasks 5 is refused");
	ok(strstr(why, "workload wl: --point-hook-tasks 5") != NULL && strstr(why, "1,2") != NULL,
	   "... naming the workload, the count and the plan's");
	check(MODE_SWEEP, "1,2", "2", 0, 0, "sweep -t 1,2: --point-hook-tasks 2 is taken");
	check(MODE_SWEEP, "1-8*2", "1,4,8", 0, 0, "sweep -t 1-8*2: 1, 4 and 8 are in it");
	check(MODE_CROSSOVER, "1,2", "16", 16, 0, "crossover to 16 tasks: 16, a doubling of the last, may run");
	check(MODE_CROSSOVER, "1,2", "6", 16, -1, "... 6 never does");
	check(MODE_PEAK, "1", "5", 8, 0, "peak's search from 1 to 8 may measure 5");
	check(MODE_PEAK, "1", "9", 8, -1, "... never 9");
	check(MODE_SINGLE, "1", "1", 0, 0, "single mode runs 1 task");
	struct run_opts o;
	opts(&o, MODE_SWEEP, "1,2", "5", 0);
	free(o.point_hook);
	o.point_hook = NULL;
	is_int(check_opts(&o), 0, "no hook: nothing to check");
	done_opts(&o);
}

int main(void)
{
	tap_case(hook_dirs);
	tap_case(hook_tasks);
	return done_testing();
}
