/* The AIM disk I/O family: disk_*, sync_disk_* and disk_dio_* jobs on per-task files. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "catalog/catalog.h"

#define BLOCK 1024		/* the classic I/O unit */
#define DIO_ALIGN_DEFAULT 4096	/* when the engine did not measure the filesystem */

/* What a job does with its file once it is written; P_NONE ends the job there. */
enum second_phase { P_NONE, P_RAND_READ, P_RAND_WRITE, P_SEQ_READ, P_UPDATE };

enum plan_flag {
	PL_SYNC = 1u << 0,     /* has the classic [sync] points */
	PL_COPY = 1u << 1,     /* the file is written by copying the shared source */
	PL_OSYNC = 1u << 2,    /* sync_*: the working fd honours ctx->osync; m operations */
	PL_HALF = 1u << 3,     /* the file is m = n/2 KiB instead of n */
	PL_DIRECT = 1u << 4,   /* O_DIRECT on every open, aligned buffer and unit */
	PL_SRC_ONLY = 1u << 5, /* no file of its own: read the shared source */
};

/* One test's pattern; file is the name it uses in the scratch dir. */
struct disk_plan {
	const char *file;
	unsigned flags;
	enum second_phase second;
};

/* One call's state, kept together so clean-up can undo whatever got done. */
struct disk_job {
	struct test_ctx *ctx;
	const struct disk_plan *plan;
	char *buf;
	size_t unit;		/* bytes per I/O */
	uint64_t blocks;	/* units in the task's file (or the part copied) */
	uint64_t ops;		/* operations of the second phase */
	uint64_t src_bytes;	/* size of the shared source */
	int fd;			/* the task's file */
	int src;		/* the shared source */
	bool made;		/* the task's file may exist and must be unlinked */
	char path[160];		/* for messages */
};

/* The name to put in a message about fd. */
static const char *fd_name(const struct disk_job *j, int fd)
{
	return fd >= 0 && fd == j->src ? j->ctx->source : j->path;
}

/* A classic [sync] point: flush the task's own file, nothing, or the whole machine. */
static enum test_status sync_point(struct disk_job *j)
{
	if (!(j->plan->flags & PL_SYNC) || j->ctx->sync_mode == SYNC_NONE)
		return TEST_OK;
	if (j->ctx->sync_mode == SYNC_GLOBAL) {
		sync();
		return TEST_OK;
	}
	if (fsync(j->fd) == 0)
		return TEST_OK;
	return test_fail(j->ctx, errno, "fsync of %s", j->path);
}

/* Move one unit at block b between the buffer and fd; the source may end short of a unit. */
static enum test_status io_at(struct disk_job *j, int fd, uint64_t b, bool wr)
{
	uint64_t pos = b * j->unit;
	size_t want = j->unit, done = 0;
	if (fd == j->src && j->src_bytes - pos < want)
		want = (size_t)(j->src_bytes - pos);
	while (done < want) {
		off_t off = (off_t)(pos + done);
		ssize_t r = wr ? pwrite(fd, j->buf + done, j->unit - done, off)
			       : pread(fd, j->buf + done, j->unit - done, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return test_fail(j->ctx, errno, "%s %s at byte %lld", wr ? "writing" : "reading",
					 fd_name(j, fd), (long long)off);
		if (r == 0)
			return test_fail(j->ctx, 0, "%s %s at byte %lld",
					 wr ? "no progress writing" : "unexpected end of",
					 fd_name(j, fd), (long long)off);
		done += (size_t)r;
	}
	return TEST_OK;
}

/* Read or write blocks 0..count-1 of fd in order. */
static enum test_status seq_pass(struct disk_job *j, int fd, uint64_t count, bool wr)
{
	enum test_status st = TEST_OK;
	for (uint64_t b = 0; b < count && st == TEST_OK; b++)
		st = io_at(j, fd, b, wr);
	return st;
}

/* count operations at uniformly random blocks: read, overwrite, or read and write back the same block. */
static enum test_status rand_pass(struct disk_job *j, uint64_t count, bool rd, bool wr)
{
	enum test_status st = TEST_OK;
	for (uint64_t i = 0; i < count && st == TEST_OK; i++) {
		uint64_t b = test_rand_below(j->ctx, j->blocks);
		if (rd)
			st = io_at(j, j->fd, b, false);
		if (wr && st == TEST_OK)
			st = io_at(j, j->fd, b, true);
	}
	return st;
}

/* An open that failed: EINVAL with O_DIRECT means the filesystem cannot do it, which is a skip. */
static enum test_status open_failed(struct disk_job *j, int err, const char *name, const char *dir)
{
	if (err == EINVAL && (j->plan->flags & PL_DIRECT))
		return test_skip(j->ctx, "O_DIRECT not supported on %s", dir);
	return test_fail(j->ctx, err, "opening %s", name);
}

static enum test_status open_source(struct disk_job *j)
{
	int flags = O_RDONLY | O_CLOEXEC | ((j->plan->flags & PL_DIRECT) ? O_DIRECT : 0);
	j->src = open(j->ctx->source, flags);
	return j->src >= 0 ? TEST_OK : open_failed(j, errno, j->ctx->source, j->ctx->source);
}

/* Open (or create) the task's file; the working open is the one O_SYNC applies to. */
static enum test_status open_own(struct disk_job *j, int how, bool create, bool working)
{
	unsigned pf = j->plan->flags;
	int flags = how | O_NOFOLLOW | O_CLOEXEC;
	if (pf & PL_DIRECT)
		flags |= O_DIRECT;
	if (working && (pf & PL_OSYNC) && j->ctx->osync)
		flags |= O_SYNC;
	if (create)
		flags |= O_CREAT | O_EXCL;
	j->fd = openat(j->ctx->scratch_fd, j->plan->file, flags, 0600);
	int err = errno;
	/* A refused O_DIRECT open can leave the new file behind, so only EEXIST means "not ours". */
	if (create && !(j->fd < 0 && err == EEXIST))
		j->made = true;
	return j->fd >= 0 ? TEST_OK : open_failed(j, err, j->path, j->ctx->scratch);
}

/* Close *fd; close can report a deferred write-back error, so it is checked. */
static enum test_status close_fd(struct disk_job *j, int *fd)
{
	const char *name = fd_name(j, *fd);
	int r = close(*fd);
	*fd = -1;
	if (r < 0 && errno != EINTR)
		return test_fail(j->ctx, errno, "closing %s", name);
	return TEST_OK;
}

/* Copy the first blocks of the shared source into the task's file. */
static enum test_status copy_pass(struct disk_job *j)
{
	enum test_status st = open_source(j);
	for (uint64_t b = 0; b < j->blocks && st == TEST_OK; b++) {
		st = io_at(j, j->src, b, false);
		if (st == TEST_OK)
			st = io_at(j, j->fd, b, true);
	}
	if (st == TEST_OK)
		st = close_fd(j, &j->src);
	return st;
}

/* [sync], close, reopen the written file and run the plan's second phase on it. */
static enum test_status second_phase(struct disk_job *j)
{
	static const int mode[] = {
		[P_RAND_READ] = O_RDONLY, [P_RAND_WRITE] = O_WRONLY,
		[P_SEQ_READ] = O_RDONLY,  [P_UPDATE] = O_RDWR,
	};
	enum second_phase ph = j->plan->second;
	enum test_status st = sync_point(j);
	if (st == TEST_OK)
		st = close_fd(j, &j->fd);
	if (st == TEST_OK)
		st = open_own(j, mode[ph], false, true);
	if (st != TEST_OK)
		return st;
	if (ph == P_SEQ_READ)
		return seq_pass(j, j->fd, j->ops, false);
	return rand_pass(j, j->ops, ph != P_RAND_WRITE, ph != P_RAND_READ);
}

/* Create and write the task's file (fill or copy), run the second phase, [sync] and close. */
static enum test_status file_job(struct disk_job *j)
{
	const struct disk_plan *p = j->plan;
	bool reopen = p->second != P_NONE;
	enum test_status st = open_own(j, O_WRONLY, true, !reopen);
	if (st == TEST_OK && !reopen)
		st = sync_point(j);
	if (st == TEST_OK)
		st = (p->flags & PL_COPY) ? copy_pass(j) : seq_pass(j, j->fd, j->blocks, true);
	if (st == TEST_OK && reopen)
		st = second_phase(j);
	if (st == TEST_OK)
		st = sync_point(j);
	if (st == TEST_OK)
		st = close_fd(j, &j->fd);
	return st;
}

/* disk_brd: read the shared source start to end. */
static enum test_status source_job(struct disk_job *j)
{
	enum test_status st = open_source(j);
	if (st == TEST_OK)
		st = seq_pass(j, j->src, j->blocks, false);
	if (st == TEST_OK)
		st = close_fd(j, &j->src);
	return st;
}

/* Sizes, unit and a patterned buffer for one call of plan p. */
static enum test_status job_init(struct disk_job *j)
{
	struct test_ctx *ctx = j->ctx;
	unsigned pf = j->plan->flags;
	if (ctx->file_kib < 1)
		return test_fail(ctx, EINVAL, "file size of %ld KiB", ctx->file_kib);
	uint64_t n = (uint64_t)ctx->file_kib, m = n / 2 ? n / 2 : 1;
	size_t align = ctx->dio_align ? ctx->dio_align : DIO_ALIGN_DEFAULT;
	j->unit = (pf & PL_DIRECT) && align > BLOCK ? align : BLOCK;
	j->src_bytes = n * BLOCK;
	j->blocks = (((pf & PL_HALF) ? m : n) * BLOCK + j->unit - 1) / j->unit;
	j->ops = (pf & PL_OSYNC) ? m : j->blocks;
	snprintf(j->path, sizeof(j->path), "%s/%s", ctx->scratch, j->plan->file);
	void *mem = NULL;
	int err = posix_memalign(&mem, j->unit, j->unit);
	if (err)
		return test_fail(ctx, err, "allocating a %zu-byte I/O buffer", j->unit);
	j->buf = mem;
	static const char pattern[] = "reaim disk data\n";
	for (size_t i = 0; i < j->unit; i++)
		j->buf[i] = pattern[i % (sizeof(pattern) - 1)];
	return TEST_OK;
}

/* Run one call of plan p and release everything it made, whatever happened. */
static enum test_status run_plan(struct test_ctx *ctx, const struct disk_plan *p)
{
	struct disk_job j = { .ctx = ctx, .plan = p, .fd = -1, .src = -1 };
	enum test_status st = job_init(&j);
	if (st == TEST_OK)
		st = (p->flags & PL_SRC_ONLY) ? source_job(&j) : file_job(&j);
	if (j.fd >= 0)
		close(j.fd);
	if (j.src >= 0)
		close(j.src);
	if (j.made && unlinkat(ctx->scratch_fd, p->file, 0) < 0 && st == TEST_OK)
		st = test_fail(ctx, errno, "unlinking %s", j.path);
	free(j.buf);
	return st;
}

/* Each test is one plan: the file name is the test's, so messages say which test's file. */
#define DISK_TEST(name, flags, second)                                                    \
	static enum test_status name(struct test_ctx *ctx)                                 \
	{                                                                                  \
		static const struct disk_plan plan = { #name ".tmp", (flags), (second) }; \
		return run_plan(ctx, &plan);                                               \
	}

DISK_TEST(disk_rr, PL_SYNC, P_RAND_READ)
DISK_TEST(disk_rw, PL_SYNC, P_RAND_WRITE)
DISK_TEST(disk_rd, PL_SYNC, P_SEQ_READ)
DISK_TEST(disk_wrt, PL_SYNC, P_NONE)
DISK_TEST(disk_cp, PL_SYNC | PL_COPY, P_NONE)
DISK_TEST(disk_brr, 0, P_RAND_READ)
DISK_TEST(disk_brw, 0, P_RAND_WRITE)
DISK_TEST(disk_brd, PL_SRC_ONLY, P_NONE)
DISK_TEST(disk_bwrt, 0, P_NONE)
DISK_TEST(disk_bcp, PL_COPY, P_NONE)
DISK_TEST(sync_disk_wrt, PL_OSYNC | PL_HALF, P_NONE)
DISK_TEST(sync_disk_rw, PL_OSYNC | PL_HALF, P_RAND_WRITE)
DISK_TEST(sync_disk_cp, PL_OSYNC | PL_HALF | PL_COPY, P_NONE)
DISK_TEST(sync_disk_update, PL_OSYNC, P_UPDATE)
DISK_TEST(disk_dio_rr, PL_SYNC | PL_DIRECT, P_RAND_READ)
DISK_TEST(disk_dio_rw, PL_SYNC | PL_DIRECT, P_RAND_WRITE)
DISK_TEST(disk_dio_rd, PL_SYNC | PL_DIRECT, P_SEQ_READ)
DISK_TEST(disk_dio_wrt, PL_SYNC | PL_DIRECT, P_NONE)
DISK_TEST(disk_dio_cp, PL_SYNC | PL_DIRECT | PL_COPY, P_NONE)

/* ops_per_call is one job; its size in KiB (n or n/2) is only known at run time. */
static const struct test_def tests[] = {
	{ "disk_rr", disk_rr, 1, "file of n KiB", "write n KiB, [sync], n random 1 KiB reads", TF_DISK | TF_SIZED, 0 },
	{ "disk_rw", disk_rw, 1, "file of n KiB", "write n KiB, [sync], n random 1 KiB overwrites", TF_DISK | TF_SIZED, 0 },
	{ "disk_rd", disk_rd, 1, "file of n KiB", "write n KiB, [sync], n sequential 1 KiB reads", TF_DISK | TF_SIZED, 0 },
	{ "disk_wrt", disk_wrt, 1, "file of n KiB", "[sync], n sequential 1 KiB writes to a new file", TF_DISK | TF_SIZED, 0 },
	{ "disk_cp", disk_cp, 1, "file of n KiB", "[sync], copy the shared source 1 KiB at a time",
	  TF_DISK | TF_SIZED | TF_SOURCE, 0 },
	{ "disk_brr", disk_brr, 1, "file of n KiB", "disk_rr without sync points", TF_DISK | TF_SIZED, 0 },
	{ "disk_brw", disk_brw, 1, "file of n KiB", "disk_rw without sync points", TF_DISK | TF_SIZED, 0 },
	{ "disk_brd", disk_brd, 1, "file of n KiB", "n sequential 1 KiB reads of the shared source",
	  TF_DISK | TF_SIZED | TF_SOURCE, 0 },
	{ "disk_bwrt", disk_bwrt, 1, "file of n KiB", "disk_wrt without sync points", TF_DISK | TF_SIZED, 0 },
	{ "disk_bcp", disk_bcp, 1, "file of n KiB", "disk_cp without sync points", TF_DISK | TF_SIZED | TF_SOURCE, 0 },
	{ "sync_disk_wrt", sync_disk_wrt, 1, "file of n/2 KiB", "n/2 sequential 1 KiB writes, O_SYNC",
	  TF_DISK | TF_SIZED | TF_HALF | TF_SYNC, 0 },
	{ "sync_disk_rw", sync_disk_rw, 1, "file of n/2 KiB", "fill n/2 KiB, n/2 random 1 KiB overwrites, O_SYNC",
	  TF_DISK | TF_SIZED | TF_HALF | TF_SYNC, 0 },
	{ "sync_disk_cp", sync_disk_cp, 1, "file of n/2 KiB", "copy n/2 KiB of the shared source, O_SYNC",
	  TF_DISK | TF_SIZED | TF_HALF | TF_SYNC | TF_SOURCE, 0 },
	{ "sync_disk_update", sync_disk_update, 1, "file of n KiB",
	  "fill n KiB, n/2 random 1 KiB read+write-back, O_SYNC", TF_DISK | TF_SIZED | TF_SYNC, 0 },
	{ "disk_dio_rr", disk_dio_rr, 1, "file of n KiB", "disk_rr with O_DIRECT", TF_DISK | TF_SIZED | TF_DIRECT, 0 },
	{ "disk_dio_rw", disk_dio_rw, 1, "file of n KiB", "disk_rw with O_DIRECT", TF_DISK | TF_SIZED | TF_DIRECT, 0 },
	{ "disk_dio_rd", disk_dio_rd, 1, "file of n KiB", "disk_rd with O_DIRECT", TF_DISK | TF_SIZED | TF_DIRECT, 0 },
	{ "disk_dio_wrt", disk_dio_wrt, 1, "file of n KiB", "disk_wrt with O_DIRECT", TF_DISK | TF_SIZED | TF_DIRECT, 0 },
	{ "disk_dio_cp", disk_dio_cp, 1, "file of n KiB", "disk_cp with O_DIRECT",
	  TF_DISK | TF_SIZED | TF_DIRECT | TF_SOURCE, 0 },
};

const struct test_family test_family_disk = { "disk", tests, sizeof(tests) / sizeof(tests[0]), NULL };
