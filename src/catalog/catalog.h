/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The contract between the engine and the AIM test catalog: one call is one job. */
#ifndef REAIM_CATALOG_CATALOG_H
#define REAIM_CATALOG_CATALOG_H

#include <stddef.h>
#include <stdint.h>

enum test_status { TEST_OK = 0, TEST_FAIL = 1, TEST_SKIP = 2 };

/* What the classic [sync] points of the disk tests do. */
enum sync_mode { SYNC_FSYNC = 0, SYNC_NONE = 1, SYNC_GLOBAL = 2 };

/* Flags describing what a test touches; the engine checks limits from them. */
enum test_flag {
	TF_DISK = 1u << 0,    /* does file I/O in the disk dirs */
	TF_SYNC = 1u << 1,    /* honours the O_SYNC toggle */
	TF_DIRECT = 1u << 2,  /* needs O_DIRECT */
	TF_FORKS = 1u << 3,   /* creates processes */
	TF_NET = 1u << 4,     /* uses loopback sockets */
	TF_SYSV = 1u << 5,    /* uses System V IPC */
	TF_SOURCE = 1u << 6,  /* reads the shared source file */
	TF_CPU = 1u << 7,     /* pure computation in user space */
	TF_SCRATCH = 1u << 8, /* uses the task's scratch dir (implied by TF_DISK) */
	TF_SIZED = 1u << 9,   /* one call's file is n KiB: throughput is calls/s x n */
	TF_HALF = 1u << 10,   /* with TF_SIZED: the file is n/2 KiB */
};

/* Everything a test may use; set up by the engine once per task. */
struct test_ctx {
	const char *scratch;    /* the task's own scratch directory (absolute); NULL when no
				 * test of the mix has TF_DISK or TF_SCRATCH */
	int scratch_fd;         /* O_DIRECTORY fd of scratch, for *at() calls; -1 with NULL */
	const char *source;     /* shared read-only source file of file_kib KiB */
	long file_kib;          /* n: per-task file size in KiB */
	int osync;              /* nonzero: sync_* tests open with O_SYNC */
	enum sync_mode sync_mode;
	size_t dio_align;       /* O_DIRECT alignment the filesystem needs */
	const char *exec_helper; /* tiny program exec_test runs */
	const char *script_dir; /* directory holding the shell_rtns_* scripts */
	unsigned task_index;
	uint64_t rng;           /* per-task random state; use test_rand() */
	/* SysV IPC: the task's own key (no other object used it when the run began), and a flag
	 * in shared memory a test sets while it holds objects under that key, so the engine
	 * removes them if the task is killed before it does */
	int32_t ipc_key;
	uint32_t *ipc_busy;
	/* set by test_fail() / test_skip() */
	int err;
	char why[160];
};

struct test_def;

/* One job. self is the test's own catalog row, so one body can serve several rows that
 * differ only in their flags and param (the disk tests). */
typedef enum test_status (*test_fn)(struct test_ctx *ctx, const struct test_def *self);

struct test_def {
	const char *name;
	test_fn run;
	long ops_per_call;
	const char *units;      /* what one op is, e.g. "adds", "KiB" */
	const char *desc;       /* one line */
	unsigned flags;         /* enum test_flag */
	/* Elementary operations per call (e.g. single adds) for the plausibility
	 * check that a compiler did not delete the work; 0 = not checked. */
	uint64_t elem_ops;
	/* What a shared body needs beyond the flags (its family's own type); NULL if none. */
	const void *param;
};

/* Optional per-family set-up, run once per task for each of the family's tests in the mix
 * before the release, so one-off set-up (a directory tree to look things up in) is not
 * charged to the first job. */
typedef enum test_status (*test_prepare_fn)(struct test_ctx *ctx, const struct test_def *t);

struct test_family {
	const char *name;
	const struct test_def *tests;
	size_t count;
	test_prepare_fn prepare; /* NULL: nothing to prepare */
};

/* Record a failure: err is an errno value (0 if none), why says what was being done. */
enum test_status test_fail(struct test_ctx *ctx, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
enum test_status test_skip(struct test_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* xorshift64*: fast, deterministic per task, good enough for offsets and orders. */
uint64_t test_rand(struct test_ctx *ctx);
/* Uniform in [0, bound) without modulo bias worth caring about at our sizes. */
uint64_t test_rand_below(struct test_ctx *ctx, uint64_t bound);

/* Keep a computed value alive so -O2 cannot delete the loop that made it. */
#define test_keep(v) __asm__ volatile("" : : "g"(v) : "memory")

/* Disk family (disk.c): whether a disk row's pattern reads the shared source, which its
 * TF_SOURCE flag must say too; -1 for a row of another family. */
int test_disk_reads_source(const struct test_def *t);
/* The data a disk test writes: n bytes of "reaim disk data\n" over and over. */
void test_disk_fill(char *buf, size_t n);

/* Registry (registry.c): every family, and lookup over all of them. */
extern const struct test_family *const test_families[];
extern const size_t test_family_count;
const struct test_def *test_find(const char *name);
const char *test_family_of(const struct test_def *t);
/* The family a test belongs to. */
const struct test_family *test_family_struct_of(const struct test_def *t);
size_t test_count(void);
/* i-th test over all families in catalog order, or NULL. */
const struct test_def *test_at(size_t i);

#endif
