/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What reaim and its forker (the reaim-forker program) say to each other over their socketpair: a
 * point's tasks asked for, how many started, and each one's exit as the forker reaps it. */
#ifndef REAIM_ENGINE_FORKER_H
#define REAIM_ENGINE_FORKER_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/internal.h"

enum forker_msg { FORKER_FORK = 1, FORKER_LEAVE, FORKER_FORKED, FORKER_EXITS, FORKER_READY };
#define FORKER_REQUEST_MAX 65536 /* within a socket's default send buffer */
#define FORKER_EXITS_MAX 128

/* A point's tasks: everything their task_args hold, by value, the mix by its tests' names (the forker
 * is another program: no pointer of reaim's means anything there). With it, SCM_RIGHTS: the shared
 * mapping's memfd, the ready and the done eventfds. */
struct forker_request {
	uint32_t type;
	uint32_t tasks;
	int osync, task_cores, sync_mode;
	long long jobs_per_task;
	uint64_t seed;
	struct perfctr_task perf;
	int has_perf, shm_perf, confined;
	size_t shm_len, stats_at, slots_at, failures_at, perf_at;
	struct task_memory mem;   /* its layout; the forker maps its own */
	size_t ntests, nsources, ncpus, dio_align;
	long long file_kib;
	int32_t ipc_key;
	cpu_set_t confine;
	/* then ncpus ints (the CPUs), ntests ints (the weights), then ntests + 2 * nsources + 2 strings: the
	 * tests' names, the point dirs, the source files, the exec helper and the script dir, each 'y' and
	 * NUL-terminated, or 'n' for NULL */
};

struct forker_reply {
	uint32_t type;
	uint32_t started;
	int32_t fork_errno;       /* of the fork that failed, when started < tasks */
	double cpu_s;             /* the forker's CPU time forking them */
};

struct forker_exits {
	uint32_t type;
	uint32_t count;
	struct forker_exit e[FORKER_EXITS_MAX];
};

/* The forker's life (forker_loop.c): fork what reaim asks for on sock, reap and report, until reaim
 * closes it or dies. */
__attribute__((noreturn)) void forker_main(int sock);

#endif
