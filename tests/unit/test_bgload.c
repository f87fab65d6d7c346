/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Background loads (--load): their sizes from memory and disk, each one's units of work counted
 * while it runs, and nothing of it left after the stop. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/cfg.h"
#include "engine/bgload.h"
#include "tap.h"
#include "util/util.h"

static int never(void)
{
	return 0;
}

/* The names --load accepts against the engine's table. */
static void names(void)
{
	ok(bgload_find("io") && bgload_find("mem") && bgload_find("list") && !bgload_find("no_load") &&
	   !bgload_find("cache"), "the loads by name");
	int named = 1;
	size_t nn = 1, runner = 0;
	for (; load_names[nn]; nn++) {
		if (strcmp(load_names[nn], LOAD_CACHE) == 0)
			runner++; /* the point run twice: the runner's, no process beside it */
		else
			named &= bgload_find(load_names[nn]) != NULL;
	}
	ok(named && runner == 1 && nn - 2 == bgload_count,
	   "every name --load accepts is a load the engine runs, or cache, the runner's");
}

/* The machine's room: memory total, free and available, and the free space of the disk (KiB). */
#define ROOM(total, free, avail, disk)                                                                                 \
	(&(const struct bgload_room){.mem_total_kib = (total),                                                         \
				     .mem_free_kib = (free),                                                           \
				     .mem_available_kib = (avail),                                                     \
				     .disk_free_kib = (disk)})

/* A load's files in dir, no cgroup, a minute to start. */
#define SETUP(where) (&(const struct bgload_setup){.dir = (where), .timeout_s = 60, .stop = never})

/* How much a load makes, from memory and free space. */
static void sizes(void)
{
	char why[300];
	const long long G = 1024 * 1024; /* KiB in a GiB */
	const struct bgload_def *io = bgload_find("io"), *mem = bgload_find("mem"), *list = bgload_find("list");
	is_int(bgload_size_from(io, ROOM(16 * G, 8 * G, 12 * G, 100 * G), -1, why, sizeof(why)), 2048,
	       "io: 1/8 of memory");
	is_int(bgload_size_from(io, ROOM(16 * G, 8 * G, 12 * G, 4 * G), -1, why, sizeof(why)), 1024,
	       "io: at most a quarter of the free space");
	is_int(bgload_size_from(io, ROOM(16 * G, 8 * G, 12 * G, 100 * G), 64, why, sizeof(why)), 64, "the cap");
	ok(bgload_size_from(io, ROOM(16 * G, 8 * G, 12 * G, 32 * 1024), -1, why, sizeof(why)) < 0 &&
		   strstr(why, "no space"),
	   "io without the space refuses, saying so");
	is_int(bgload_size_from(mem, ROOM(16 * G, 2 * G, 4 * G, 100 * G), -1, why, sizeof(why)), 2252,
	       "mem: a tenth more than is free, within MemAvailable less the margin");
	is_int(bgload_size_from(mem, ROOM(16 * G, 8 * G, 8 * G, 100 * G), -1, why, sizeof(why)), 6553,
	       "mem: never beyond MemAvailable less a tenth of memory");
	ok(bgload_size_from(mem, ROOM(16 * G, 1 * G, 1 * G + 1024, 100 * G), -1, why, sizeof(why)) < 0 &&
		   strstr(why, "not enough memory"),
	   "mem without the memory refuses, saying so");
	is_int(bgload_size_from(list, ROOM(16 * G, 8 * G, 12 * G, 1), -1, why, sizeof(why)), 0, "list has no size");
}

/* Each load started, counting its work, and stopped with nothing left; the faults said. */
static void start_stop(void)
{
	char why[300];
	const struct bgload_def *io = bgload_find("io"), *list = bgload_find("list");
	char tmpl[] = "/tmp/reaim-bgload-XXXXXX";
	char *dir = mkdtemp(tmpl);
	ok(dir != NULL, "a temp dir");
	if (!dir)
		return;
	setenv("REAIM_LOAD_MAX_MIB", "16", 1);
	for (size_t i = 0; i < bgload_count; i++) {
		const struct bgload_def *d = &bgload_table[i];
		struct bgload *l;
		char what[120];
		int rc = bgload_start(d, SETUP(dir), &l, why, sizeof(why));
		snprintf(what, sizeof(what), "%s: starts", d->name);
		ok(rc == 0, what);
		if (rc < 0) {
			printf("#   %s\n", why);
			continue;
		}
		bgload_mark_start(l);
		usleep(400000);
		bgload_mark_end(l);
		struct bgload_result r;
		rc = bgload_stop(l, &r, why, sizeof(why));
		snprintf(what, sizeof(what), "%s: stops cleanly", d->name);
		ok(rc == 0, what);
		snprintf(what, sizeof(what), "%s: counts its units of work (%s) in the window", d->name, d->unit);
		ok(r.units > 0, what);
		printf("#   %s: %.0f %s, %.2f s CPU over %.2f s\n", d->name, r.units, d->unit, r.cpu_s, r.wall_s);
		char *left = xasprintf("%s/load-%s", dir, d->name);
		struct stat st;
		snprintf(what, sizeof(what), "%s: its files are gone", d->name);
		ok(stat(left, &st) < 0 && errno == ENOENT, what);
		free(left);
	}
	struct bgload *l;
	char *missing = xasprintf("%s/none", dir);
	ok(bgload_start(list, SETUP(missing), &l, why, sizeof(why)) < 0 && l == NULL && strstr(why, "list"),
	   "a load that cannot start says why");
	free(missing);
	setenv("REAIM_LOAD_MAX_MIB", "x", 1);
	ok(bgload_start(io, SETUP(dir), &l, why, sizeof(why)) < 0 && strstr(why, "REAIM_LOAD_MAX_MIB"),
	   "a cap that is not a number is refused");
	ok(rmdir(dir) == 0, "nothing left in the dir");
}

/* The first child listed in /proc/PID/task/PID/children (the load's leader is this test's only
 * child; a worker, its leader's), or -1. */
static pid_t first_child(pid_t of)
{
	char *path = xasprintf("/proc/%d/task/%d/children", (int)of, (int)of), *text = read_text_file(path, 4096);
	pid_t pid = text && *text ? (pid_t)atoi(text) : -1;
	free(path);
	free(text);
	return pid;
}

/* A load whose processes die while its point runs makes the stop fail, saying so, whoever reaped
 * the leader (the engine reaps any child of reaim while its tasks run) and whichever process died. */
static void died(void)
{
	char why[300];
	const struct bgload_def *process = bgload_find("process");
	char tmpl[] = "/tmp/reaim-bgload-XXXXXX";
	char *dir = mkdtemp(tmpl);
	ok(dir != NULL, "a temp dir");
	if (!dir)
		return;
	setenv("REAIM_LOAD_MAX_MIB", "16", 1);
	static const char *const cases[] = {"its whole group killed and reaped by a wait for any child",
					    "its leader killed, not reaped", "one worker killed"};
	for (int c = 0; c < 3; c++) {
		struct bgload *l;
		if (bgload_start(process, SETUP(dir), &l, why, sizeof(why)) < 0) {
			ok(0, why);
			continue;
		}
		bgload_mark_start(l);
		usleep(200000);
		pid_t leader = first_child(getpid()), worker = leader > 0 ? first_child(leader) : -1;
		char what[160];
		snprintf(what, sizeof(what), "%s: the leader and a worker found", cases[c]);
		ok(leader > 0 && worker > 0, what);
		if (c == 0 && leader > 0) {
			kill(-leader, SIGKILL);
			while (waitpid(-1, NULL, 0) < 0 && errno == EINTR)
				;
		} else if (c == 1 && leader > 0) {
			kill(leader, SIGKILL);
		} else if (worker > 0) {
			kill(worker, SIGKILL);
		}
		usleep(200000);
		bgload_mark_end(l);
		struct bgload_result r;
		int rc = bgload_stop(l, &r, why, sizeof(why));
		snprintf(what, sizeof(what), "%s: the stop fails, saying so", cases[c]);
		ok(rc < 0 && strstr(why, "ended before the point did"), what);
		printf("#   %s\n", why);
	}
	ok(rmdir(dir) == 0, "nothing left in the dir");
}

int main(void)
{
	tap_case(names);
	tap_case(sizes);
	tap_case(start_stop);
	tap_case(died);
	return done_testing();
}
