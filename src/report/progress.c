/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress display thread. It formats into a local buffer and write()s to fd 2; forked tasks
 * never call into this module, so its lock being held at a fork does them no harm. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure/measure.h"
#include "report/progress.h"
#include "util/util.h"

/* Owned by this module; the lock guards everything below it. */
static struct {
	int on, stop, running;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	char workload[48];
	int osync, tasks, repeat, repeats;
	size_t index, total, done;
	uint64_t run_start, point_start, done_ns;
} pg = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

static void fmt_time(char *buf, size_t len, double s)
{
	if (s < 60)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)s / 60, (int)s % 60);
	else /* in doubles: an ETA of many points can pass INT_MAX seconds */
		snprintf(buf, len, "%.0fh%02dm", floor(s / 3600), (int)(fmod(s, 3600) / 60));
}

/* Draw the line; called with the lock held. */
static void draw(void)
{
	uint64_t now = clock_now_ns();
	char line[200], elapsed[16], eta[32] = "";
	double run_s = (double)(now - pg.run_start) / 1e9;
	fmt_time(elapsed, sizeof(elapsed), run_s);
	if (pg.done > 0 && pg.total > pg.done) {
		char left[16];
		double per_point = (double)pg.done_ns / 1e9 / (double)pg.done;
		double into_point = (double)(now - pg.point_start) / 1e9;
		double left_s = per_point * (double)(pg.total - pg.done) - into_point;
		fmt_time(left, sizeof(left), left_s > 0 ? left_s : 0);
		snprintf(eta, sizeof(eta), ", ETA %s", left);
	}
	int n = snprintf(line, sizeof(line), "\r\033[K[%s, O_SYNC %s] %d tasks (point %zu of %zu), repeat %d/%d, "
			 "elapsed %s%s", pg.workload, pg.osync ? "on" : "off", pg.tasks, pg.index, pg.total,
			 pg.repeat, pg.repeats, elapsed, eta);
	if (n > 0 && write(STDERR_FILENO, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1) < 0)
		pg.on = 0; /* stderr went away: stop drawing */
}

static void *run(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pg.lock);
	while (!pg.stop) {
		if (pg.on && pg.running)
			draw();
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_cond_timedwait(&pg.wake, &pg.lock, &until);
	}
	pthread_mutex_unlock(&pg.lock);
	return NULL;
}

void progress_start(int enabled, size_t total_points)
{
	if (!enabled || !isatty(STDERR_FILENO))
		return;
	pg.on = 1;
	pg.total = total_points;
	pg.run_start = clock_now_ns();
	if (pthread_create(&pg.thread, NULL, run, NULL) != 0)
		pg.on = 0;
}

void progress_point(const char *workload, int osync, int tasks, size_t index, int repeat, int repeats)
{
	if (!pg.on)
		return;
	pthread_mutex_lock(&pg.lock);
	char *safe = text_escape(workload);
	snprintf(pg.workload, sizeof(pg.workload), "%s", safe);
	free(safe);
	pg.osync = osync;
	pg.tasks = tasks;
	pg.index = index;
	pg.total = index > pg.total ? index : pg.total;
	pg.repeat = repeat;
	pg.repeats = repeats;
	pg.point_start = clock_now_ns();
	pg.running = 1;
	pthread_cond_signal(&pg.wake);
	pthread_mutex_unlock(&pg.lock);
}

void progress_point_done(void)
{
	if (!pg.on)
		return;
	pthread_mutex_lock(&pg.lock);
	pg.done++;
	pg.done_ns += clock_now_ns() - pg.point_start;
	pg.running = 0; /* no redraw until the next point: the table row is printed now */
	if (write(STDERR_FILENO, "\r\033[K", 4) < 0)
		pg.on = 0;
	pthread_mutex_unlock(&pg.lock);
}

void progress_stop(void)
{
	if (!pg.on)
		return;
	pthread_mutex_lock(&pg.lock);
	pg.stop = 1;
	pthread_cond_signal(&pg.wake);
	pthread_mutex_unlock(&pg.lock);
	pthread_join(pg.thread, NULL);
	if (write(STDERR_FILENO, "\r\033[K", 4) < 0)
		pg.on = 0;
	pg.on = 0;
}
