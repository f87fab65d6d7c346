/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine's floor for one load point: fork N processes that count themselves in and wait
 * on one futex, release them together, let them exit and reap them, doing nothing else.
 * build: cc -O2 -o fork_floor bench/fork_floor.c
 * usage: fork_floor N [ROUNDS] [FORKERS] [REAP]
 *   FORKERS (default 1): how many processes fork the tasks, each its share; above 1 they are
 *   children of this one, which is their subreaper: the tasks become its children when their
 *   forker exits, as if one process had forked them all.
 *   REAP: "pid" (default) reaps each task by pid in fork order, "any" with wait4(-1), which
 *   walks every child per call.
 * Prints, per round, milliseconds from the first fork to all ready, from the release to
 * the last exit reaped, and in all. */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct gates {
	uint32_t ready, go;
	pid_t pids[]; /* each forker writes its tasks' pids here */
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void futex(uint32_t *w, int op, uint32_t v)
{
	syscall(SYS_futex, w, op, v, NULL, NULL, 0);
}

static void task(struct gates *g, int n)
{
	if (__atomic_add_fetch(&g->ready, 1, __ATOMIC_SEQ_CST) == (uint32_t)n)
		futex(&g->ready, FUTEX_WAKE, 1);
	while (__atomic_load_n(&g->go, __ATOMIC_ACQUIRE) == 0)
		futex(&g->go, FUTEX_WAIT, 0);
	_exit(0);
}

/* Fork tasks [lo, hi); 0, or -1 after a failed fork. */
static int fork_tasks(struct gates *g, int n, int lo, int hi)
{
	for (int i = lo; i < hi; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return -1;
		}
		if (pid == 0)
			task(g, n);
		g->pids[i] = pid;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	int forkers = argc > 3 ? atoi(argv[3]) : 1;
	int by_pid = argc > 4 ? strcmp(argv[4], "any") != 0 : 1;
	struct gates *g = n > 0 ? mmap(NULL, sizeof(*g) + (size_t)n * sizeof(pid_t), PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0)
				: MAP_FAILED;
	if (n < 1 || rounds < 1 || forkers < 1 || forkers > n || g == MAP_FAILED) {
		fprintf(stderr, "usage: fork_floor N [ROUNDS] [FORKERS] [pid|any]\n");
		return 1;
	}
	if (forkers > 1 && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		perror("PR_SET_CHILD_SUBREAPER");
		return 1;
	}
	printf("tasks start_ms finish_ms total_ms\n");
	for (int r = 0; r < rounds; r++) {
		g->ready = g->go = 0;
		uint64_t t0 = now_ns();
		if (forkers == 1 && fork_tasks(g, n, 0, n) < 0)
			return 1;
		/* the forkers run side by side; each exits once its tasks are forked */
		for (int f = 0; forkers > 1 && f < forkers; f++) {
			pid_t pid = fork();
			if (pid < 0) {
				perror("fork");
				return 1;
			}
			if (pid == 0)
				_exit(fork_tasks(g, n, n * f / forkers, n * (f + 1) / forkers) < 0);
		}
		for (int f = 0; forkers > 1 && f < forkers; f++) {
			int status;
			if (wait(&status) < 0 || status != 0) {
				fprintf(stderr, "a forker failed\n");
				return 1;
			}
		}
		uint32_t c;
		while ((c = __atomic_load_n(&g->ready, __ATOMIC_ACQUIRE)) < (uint32_t)n)
			futex(&g->ready, FUTEX_WAIT, c);
		uint64_t t1 = now_ns();
		__atomic_store_n(&g->go, 1, __ATOMIC_RELEASE);
		futex(&g->go, FUTEX_WAKE, INT_MAX);
		struct rusage ru;
		for (int i = 0; i < n; i++)
			if (wait4(by_pid ? g->pids[i] : -1, NULL, 0, &ru) < 0) {
				perror("wait4");
				return 1;
			}
		uint64_t t2 = now_ns();
		printf("%d %.2f %.2f %.2f\n", n, (double)(t1 - t0) / 1e6, (double)(t2 - t1) / 1e6,
		       (double)(t2 - t0) / 1e6);
	}
	return 0;
}
