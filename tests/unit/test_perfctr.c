/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the perf counters: scaling a multiplexed reading, the running share, the once-said list of
 * events that cannot be opened, and (where perf_event_open allows it) a task's own inherited counters
 * counting a child's page faults between enable and disable only. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/perfctr.h"
#include "tap.h"

static size_t event_index(const char *name)
{
	for (size_t i = 0; i < PERFCTR_MAX; i++)
		if (strcmp(perfctr_events[i].name, name) == 0)
			return i;
	return PERFCTR_MAX;
}

static void scaling(void)
{
	struct perfctr_count c = {0};
	ok(isnan(perfctr_running_pct(&c)), "nothing read: NaN");
	perfctr_add(&c, 1000, 100, 100);
	is_near(c.value, 1000, 0, "a counter that ran all the time is not scaled");
	is_near(perfctr_running_pct(&c), 100, 0, "and ran 100 %");
	perfctr_add(&c, 500, 200, 50);
	is_near(c.value, 1000 + 500 * 4, 1e-9, "a reading multiplexed to a quarter is scaled by 4");
	is_near(perfctr_running_pct(&c), 100.0 * 150 / 300, 1e-9, "the sum's running share: 150 of 300 ns");
	perfctr_add(&c, 77, 100, 0);
	is_near(c.value, 3000, 1e-9, "a reading that never ran adds no value");
	is_int(c.readings, 3, "but is counted as a reading");
	struct perfctr_count d = {.value = 1, .enabled_ns = 2, .running_ns = 2, .readings = 1};
	perfctr_sum(&d, &c);
	ok(d.value == 3001 && d.enabled_ns == 402 && d.running_ns == 152 && d.readings == 4, "sums add every field");
	struct perfctr_count z = {0};
	perfctr_add(&z, 0, 0, 0);
	is_near(perfctr_running_pct(&z), 100, 0, "a window of no time is not multiplexed");
}

static void failures(void)
{
	int errs[PERFCTR_MAX] = {0};
	unsigned tried = 0;
	for (size_t i = 0; i < PERFCTR_MAX; i++)
		if (perfctr_events[i].hardware) {
			errs[i] = ENOENT;
			tried |= 1u << i;
		}
	errs[event_index("major-faults")] = EACCES;
	tried |= 1u << event_index("major-faults");
	char buf[600];
	perfctr_describe_failures(tried, errs, buf, sizeof(buf));
	ok(strstr(buf, "major-faults: Permission denied (not permitted: kernel.perf_event_paranoid") == buf,
	   "each errno once, with its hint, in table order");
	ok(strstr(buf, "; cycles, instructions, cache-references, cache-misses, branch-misses: No such file or directory "
		       "(no PMU") != NULL,
	   "the events failing alike grouped: no PMU");
	printf("# %s\n", buf);
	perfctr_describe_failures(0, errs, buf, sizeof(buf));
	is_str(buf, "", "nothing tried, nothing said");
	char tiny[16];
	perfctr_describe_failures(tried, errs, tiny, sizeof(tiny));
	ok(strlen(tiny) < sizeof(tiny), "a short buffer is cut, not overrun");
	is_int(PERFCTR_ALL, (1u << PERFCTR_MAX) - 1, "the mask of every event");
	int hw = 0, sw = 0;
	for (size_t i = 0; i < PERFCTR_MAX; i++)
		hw += perfctr_events[i].hardware, sw += !perfctr_events[i].hardware;
	ok(sw == 6 && hw == 5, "six software events, five hardware ones");
}

/* A child of the calling task touches pages: its faults count in the task's inherited counters. */
static void touch_in_child(size_t pages)
{
	pid_t pid = fork();
	if (pid == 0) {
		long page = sysconf(_SC_PAGESIZE);
		char *m = mmap(NULL, pages * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			_exit(1);
		for (size_t i = 0; i < pages; i++)
			m[i * (size_t)page] = 1;
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static void live(void)
{
	int errs[PERFCTR_MAX];
	unsigned can = perfctr_probe(PERFCTR_ALL, -1, errs);
	size_t minor = event_index("minor-faults"), clock = event_index("task-clock");
	if (!(can & (1u << minor)) || !(can & (1u << clock))) {
		char why[200];
		snprintf(why, sizeof(why), "perf_event_open refused: %s", strerror(errs[minor] ? errs[minor] : ENOSYS));
		skip("a task's inherited counters", why);
		return;
	}
	struct perfctr_task t = {.mask = can};
	int fds[PERFCTR_MAX];
	unsigned opened = perfctr_task_open(&t, fds);
	ok(opened == can, "the task opens what the probe found");
	touch_in_child(300); /* before the enable: not counted */
	perfctr_task_enable();
	touch_in_child(500);
	perfctr_task_disable();
	touch_in_child(300); /* after the disable: not counted */
	struct perfctr_count c[PERFCTR_MAX];
	perfctr_task_read(opened, fds, c);
	ok(c[minor].value >= 500 && c[minor].value < 800, "the child's faults between enable and disable, no others");
	printf("# minor faults %.0f, task-clock %.0f ns\n", c[minor].value, c[clock].value);
	ok(c[clock].value > 0 && perfctr_running_pct(&c[clock]) == 100, "task-clock counted, never multiplexed");
	ok(fds[minor] == -1 && fds[clock] == -1, "the counters are closed once read");
	for (size_t i = 0; i < PERFCTR_MAX; i++)
		if (!(can & (1u << i)))
			ok(errs[i] != 0 && c[i].readings == 0, perfctr_events[i].name);
}

int main(void)
{
	tap_case(scaling);
	tap_case(failures);
	tap_case(live);
	return done_testing();
}
