/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The AIM disk I/O family: disk_*, sync_disk_* and disk_dio_* jobs, one body driven by each
 * test's row (its flags and its pattern). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"

#define BLOCK 1024		/* the classic I/O unit */
#define DIO_ALIGN_DEFAULT 4096	/* when the engine did not measure the filesystem */

/* How the test's own file gets its data; FILL_NONE reads the shared source instead. */
enum disk_fill { FILL_WRITE, FILL_COPY, FILL_NONE };

/* What a job does with its file once it is written and reopened; P_NONE ends the job there. */
enum second_phase { P_NONE, P_RAND_READ, P_RAND_WRITE, P_SEQ_READ, P_UPDATE };

/* Where classic re-aim put its [sync] points (a machine-wide `sync`) in a job. */
enum sync_point {
	SP_BEFORE = 1u << 0,  /* before anything is created (disk_cp) */
	SP_CREATED = 1u << 1, /* right after the file is created, still empty */
	SP_FILLED = 1u << 2,  /* after the file is written, before it is reopened */
	SP_END = 1u << 3,     /* at the end, the file already gone */
};

/*
 * A row's param: the classic sequence. What the row's flags say is not repeated here:
 * TF_SYNC (O_SYNC on the working fd, n/2 operations), TF_HALF (an n/2 KiB file) and
 * TF_DIRECT (O_DIRECT on the working fd and the source) come from the row itself.
 */
struct disk_pattern {
	enum disk_fill fill;
	enum second_phase second;
	unsigned syncs; /* enum sync_point */
};

/* One call's state, kept together so clean-up can undo whatever got done. */
struct disk_job {
	struct test_ctx *ctx;
	const struct test_def *self;
	const struct disk_pattern *pat;
	char *buf;
	size_t unit;		/* bytes per I/O */
	uint64_t blocks;	/* units in the task's file (or the part copied or read) */
	uint64_t ops;		/* operations of the second phase */
	uint64_t src_bytes;	/* size of the shared source */
	int fd;			/* the task's file */
	int src;		/* the shared source */
	bool made;		/* the task's file may exist and must be unlinked */
	char file[48];		/* its name in the scratch dir: the test's name */
	char path[160];		/* for messages */
};

/* The name to put in a message about fd. */
static const char *fd_name(const struct disk_job *j, int fd)
{
	return fd >= 0 && fd == j->src ? j->ctx->source : j->path;
}

/*
 * A classic [sync] point. global: classic's own, system("sync"): a shell running sync(1),
 * which flushes the whole machine. fsync: what the task itself changed, so tasks do not
 * flush each other's data: the file while it exists (fsync), the directory once it is gone
 * (the unlink), and nothing before the task has made anything.
 */
static enum test_status sync_point(struct disk_job *j, enum sync_point at)
{
	struct test_ctx *ctx = j->ctx;
	if (!(j->pat->syncs & at) || ctx->sync_mode == SYNC_NONE)
		return TEST_OK;
	if (ctx->sync_mode == SYNC_GLOBAL) {
		int status = system("sync");
		if (status == 0)
			return TEST_OK;
		return test_fail(ctx, status < 0 ? errno : 0, "running sync through the shell: %s %d",
				 status < 0 ? "error" : "status", status);
	}
	if (at == SP_BEFORE)
		return TEST_OK;
	if (at == SP_END) {
		if (fsync(ctx->scratch_fd) == 0)
			return TEST_OK;
		return test_fail(ctx, errno, "fsync of %s", ctx->scratch);
	}
	if (fsync(j->fd) == 0)
		return TEST_OK;
	return test_fail(ctx, errno, "fsync of %s", j->path);
}

/* Move one unit between the buffer and fd at block b, or at the file offset when b is
 * NO_BLOCK; the source may end short of a unit. */
#define NO_BLOCK UINT64_MAX
static enum test_status io_at(struct disk_job *j, int fd, uint64_t b, bool wr)
{
	size_t want = j->unit, done = 0;
	if (fd == j->src && b != NO_BLOCK && j->src_bytes - b * j->unit < want)
		want = (size_t)(j->src_bytes - b * j->unit);
	while (done < want) {
		ssize_t r;
		if (b == NO_BLOCK)
			r = wr ? write(fd, j->buf + done, j->unit - done) : read(fd, j->buf + done, j->unit - done);
		else
			r = wr ? pwrite(fd, j->buf + done, j->unit - done, (off_t)(b * j->unit + done))
			       : pread(fd, j->buf + done, j->unit - done, (off_t)(b * j->unit + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return test_fail(j->ctx, errno, "%s %s", wr ? "writing" : "reading", fd_name(j, fd));
		if (r == 0)
			return test_fail(j->ctx, 0, "%s %s", wr ? "no progress writing" : "unexpected end of",
					 fd_name(j, fd));
		done += (size_t)r;
	}
	return TEST_OK;
}

/* Read or write blocks 0..count-1 of fd in order, at the file offset as classic did. */
static enum test_status seq_pass(struct disk_job *j, int fd, uint64_t count, bool wr)
{
	enum test_status st = TEST_OK;
	for (uint64_t b = 0; b < count && st == TEST_OK; b++)
		st = io_at(j, fd, fd == j->src ? b : NO_BLOCK, wr);
	return st;
}

/* Position fd at block b: the lseek classic made before each random I/O. */
static enum test_status seek_to(struct disk_job *j, uint64_t b)
{
	if (lseek(j->fd, (off_t)(b * j->unit), SEEK_SET) >= 0)
		return TEST_OK;
	return test_fail(j->ctx, errno, "seeking in %s", j->path);
}

/* count operations at uniformly random blocks: seek and read, seek and overwrite, or seek,
 * read and write the block back (classic wrote the next block). */
static enum test_status rand_pass(struct disk_job *j, uint64_t count, bool rd, bool wr)
{
	enum test_status st = TEST_OK;
	for (uint64_t i = 0; i < count && st == TEST_OK; i++) {
		uint64_t b = test_rand_below(j->ctx, j->blocks);
		st = seek_to(j, b);
		if (rd && st == TEST_OK)
			st = io_at(j, j->fd, NO_BLOCK, false);
		if (wr && st == TEST_OK)
			st = rd ? io_at(j, j->fd, b, true) : io_at(j, j->fd, NO_BLOCK, true);
	}
	return st;
}

/* An open that failed: EINVAL with O_DIRECT means the filesystem cannot do it, which is a skip. */
static enum test_status open_failed(struct disk_job *j, int err, const char *name, const char *dir)
{
	if (err == EINVAL && (j->self->flags & TF_DIRECT))
		return test_skip(j->ctx, "O_DIRECT not supported on %s", dir);
	return test_fail(j->ctx, err, "opening %s", name);
}

static enum test_status open_source(struct disk_job *j)
{
	int flags = O_RDONLY | O_CLOEXEC | ((j->self->flags & TF_DIRECT) ? O_DIRECT : 0);
	j->src = open(j->ctx->source, flags);
	return j->src >= 0 ? TEST_OK : open_failed(j, errno, j->ctx->source, j->ctx->source);
}

/* Open (or create) the task's file; O_SYNC and O_DIRECT apply to the working open only
 * (classic filled the files of its random tests with plain buffered writes). */
static enum test_status open_own(struct disk_job *j, int how, bool create, bool working)
{
	unsigned tf = j->self->flags;
	int flags = how | O_NOFOLLOW | O_CLOEXEC;
	if (working && (tf & TF_DIRECT))
		flags |= O_DIRECT;
	if (working && (tf & TF_SYNC) && j->ctx->osync)
		flags |= O_SYNC;
	if (create)
		flags |= O_CREAT | O_EXCL;
	j->fd = openat(j->ctx->scratch_fd, j->file, flags, 0600);
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
			st = io_at(j, j->fd, NO_BLOCK, true);
	}
	if (st == TEST_OK)
		st = close_fd(j, &j->src);
	return st;
}

/* The file is written: [sync], close, reopen it and run the second phase on it. */
static enum test_status second_phase(struct disk_job *j)
{
	static const int mode[] = {
		[P_RAND_READ] = O_RDONLY, [P_RAND_WRITE] = O_WRONLY,
		[P_SEQ_READ] = O_RDONLY,  [P_UPDATE] = O_RDWR,
	};
	enum second_phase ph = j->pat->second;
	bool global = j->ctx->sync_mode == SYNC_GLOBAL;
	/* classic synced after the close; an fsync needs the file still open */
	enum test_status st = global ? TEST_OK : sync_point(j, SP_FILLED);
	if (st == TEST_OK)
		st = close_fd(j, &j->fd);
	if (st == TEST_OK && global)
		st = sync_point(j, SP_FILLED);
	if (st == TEST_OK)
		st = open_own(j, mode[ph], false, true);
	if (st != TEST_OK)
		return st;
	if (ph == P_SEQ_READ)
		return seq_pass(j, j->fd, j->ops, false);
	return rand_pass(j, j->ops, ph != P_RAND_WRITE, ph != P_RAND_READ);
}

/* Create the task's file, fill it (write or copy), run the second phase, close and unlink. */
static enum test_status file_job(struct disk_job *j)
{
	const struct disk_pattern *p = j->pat;
	bool reopen = p->second != P_NONE;
	enum test_status st = sync_point(j, SP_BEFORE);
	if (st == TEST_OK)
		st = open_own(j, O_WRONLY, true, !reopen);
	if (st == TEST_OK)
		st = sync_point(j, SP_CREATED);
	if (st == TEST_OK)
		st = p->fill == FILL_COPY ? copy_pass(j) : seq_pass(j, j->fd, j->blocks, true);
	if (st == TEST_OK && reopen)
		st = second_phase(j);
	if (st == TEST_OK)
		st = close_fd(j, &j->fd);
	if (st == TEST_OK && unlinkat(j->ctx->scratch_fd, j->file, 0) < 0)
		st = test_fail(j->ctx, errno, "unlinking %s", j->path);
	if (st == TEST_OK)
		j->made = false;
	return st;
}

/* disk_brd, disk_dio_rd: read the shared source start to end. */
static enum test_status source_job(struct disk_job *j)
{
	enum test_status st = open_source(j);
	if (st == TEST_OK)
		st = seq_pass(j, j->src, j->blocks, false);
	if (st == TEST_OK)
		st = close_fd(j, &j->src);
	return st;
}

void test_disk_fill(char *buf, size_t n)
{
	/* the pattern once, then the filled part copied onto the rest, doubling: a byte loop here
	 * cost 8,000 instructions a job, more than the user-space side of a job's 10 writes */
	static const char pattern[] = "reaim disk data\n";
	size_t have = sizeof(pattern) - 1 < n ? sizeof(pattern) - 1 : n;
	memcpy(buf, pattern, have);
	while (have < n) {
		size_t more = have < n - have ? have : n - have;
		memcpy(buf + have, buf, more);
		have += more;
	}
}

/* Sizes, unit and a patterned buffer for one call of row self. */
static enum test_status job_init(struct disk_job *j)
{
	struct test_ctx *ctx = j->ctx;
	unsigned tf = j->self->flags;
	if (ctx->file_kib < 1)
		return test_fail(ctx, EINVAL, "file size of %ld KiB", ctx->file_kib);
	if (j->pat == NULL)
		return test_fail(ctx, EINVAL, "%s has no disk pattern", j->self->name);
	uint64_t n = (uint64_t)ctx->file_kib, m = n / 2 ? n / 2 : 1;
	size_t align = ctx->dio_align ? ctx->dio_align : DIO_ALIGN_DEFAULT;
	j->unit = (tf & TF_DIRECT) && align > BLOCK ? align : BLOCK;
	j->src_bytes = n * BLOCK;
	j->blocks = (((tf & TF_HALF) ? m : n) * BLOCK + j->unit - 1) / j->unit;
	j->ops = (tf & TF_SYNC) ? m : j->blocks;
	snprintf(j->file, sizeof(j->file), "%s.tmp", j->self->name);
	snprintf(j->path, sizeof(j->path), "%s/%s", ctx->scratch, j->file);
	void *mem = NULL;
	int err = posix_memalign(&mem, j->unit, j->unit);
	if (err)
		return test_fail(ctx, err, "allocating a %zu-byte I/O buffer", j->unit);
	j->buf = mem;
	test_disk_fill(j->buf, j->unit);
	return TEST_OK;
}

/* Every disk test: one call of the pattern in its row, releasing whatever it made. */
static enum test_status disk_job(struct test_ctx *ctx, const struct test_def *self)
{
	struct disk_job j = { .ctx = ctx, .self = self, .pat = self->param, .fd = -1, .src = -1 };
	enum test_status st = job_init(&j);
	if (st == TEST_OK)
		st = j.pat->fill == FILL_NONE ? source_job(&j) : file_job(&j);
	if (st == TEST_OK)
		st = sync_point(&j, SP_END);
	if (j.fd >= 0)
		close(j.fd);
	if (j.src >= 0)
		close(j.src);
	if (j.made && unlinkat(ctx->scratch_fd, j.file, 0) < 0 && errno != ENOENT && st == TEST_OK)
		st = test_fail(ctx, errno, "unlinking %s", j.path);
	free(j.buf);
	return st;
}

/* The classic sequences, one per kind of job; the rows below pick one and add their flags. */
static const struct disk_pattern rand_read = { FILL_WRITE, P_RAND_READ, SP_FILLED | SP_END };
static const struct disk_pattern rand_write = { FILL_WRITE, P_RAND_WRITE, SP_FILLED | SP_END };
static const struct disk_pattern seq_read = { FILL_WRITE, P_SEQ_READ, SP_FILLED | SP_END };
static const struct disk_pattern seq_write = { FILL_WRITE, P_NONE, SP_CREATED | SP_END };
static const struct disk_pattern copy = { FILL_COPY, P_NONE, SP_BEFORE | SP_CREATED | SP_END };
static const struct disk_pattern b_rand_read = { FILL_WRITE, P_RAND_READ, 0 };
static const struct disk_pattern b_rand_write = { FILL_WRITE, P_RAND_WRITE, 0 };
static const struct disk_pattern b_source_read = { FILL_NONE, P_NONE, 0 };
static const struct disk_pattern b_seq_write = { FILL_WRITE, P_NONE, 0 };
static const struct disk_pattern b_copy = { FILL_COPY, P_NONE, 0 };
static const struct disk_pattern update = { FILL_WRITE, P_UPDATE, 0 };
static const struct disk_pattern dio_source_read = { FILL_NONE, P_NONE, SP_END };
static const struct disk_pattern dio_copy = { FILL_COPY, P_NONE, SP_CREATED | SP_END };

/* TF_SOURCE must be set exactly where the pattern copies or reads the source (unit-tested). */
#define D TF_DISK | TF_SIZED
static const struct test_def tests[] = {
	{ .name = "disk_rr", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D, .param = &rand_read,
	  .desc = "write n KiB, [sync], n random 1 KiB reads, [sync]" },
	{ .name = "disk_rw", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D, .param = &rand_write,
	  .desc = "write n KiB, [sync], n random 1 KiB overwrites, [sync]" },
	{ .name = "disk_rd", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D, .param = &seq_read,
	  .desc = "write n KiB, [sync], n sequential 1 KiB reads, [sync]" },
	{ .name = "disk_wrt", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D, .param = &seq_write,
	  .desc = "create, [sync], n sequential 1 KiB writes, [sync]" },
	{ .name = "disk_cp", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D | TF_SOURCE, .param = &copy,
	  .desc = "[sync], create, [sync], copy the shared source 1 KiB at a "
		  "time, [sync]" },
	{ .name = "disk_brr", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D, .param = &b_rand_read,
	  .desc = "disk_rr without sync points" },
	{ .name = "disk_brw", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D, .param = &b_rand_write,
	  .desc = "disk_rw without sync points" },
	{ .name = "disk_brd", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D | TF_SOURCE, .param = &b_source_read,
	  .desc = "n sequential 1 KiB reads of the shared source" },
	{ .name = "disk_bwrt", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D, .param = &b_seq_write,
	  .desc = "disk_wrt without sync points" },
	{ .name = "disk_bcp", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D | TF_SOURCE, .param = &b_copy,
	  .desc = "disk_cp without sync points" },
	{ .name = "sync_disk_wrt", .run = disk_job, .ops_per_call = 1, .units = "file of n/2 KiB", .flags = D | TF_HALF | TF_SYNC, .param = &b_seq_write,
	  .desc = "n/2 sequential 1 KiB writes, O_SYNC" },
	{ .name = "sync_disk_rw", .run = disk_job, .ops_per_call = 1, .units = "file of n/2 KiB", .flags = D | TF_HALF | TF_SYNC, .param = &b_rand_write,
	  .desc = "fill n/2 KiB, n/2 random 1 KiB overwrites, O_SYNC" },
	{ .name = "sync_disk_cp", .run = disk_job, .ops_per_call = 1, .units = "file of n/2 KiB", .flags = D | TF_HALF | TF_SYNC | TF_SOURCE, .param = &b_copy,
	  .desc = "copy n/2 KiB of the shared source, O_SYNC" },
	{ .name = "sync_disk_update", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D | TF_SYNC, .param = &update,
	  .desc = "fill n KiB, n/2 random 1 KiB read+write-back, O_SYNC" },
	{ .name = "disk_dio_rr", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D | TF_DIRECT, .param = &rand_read,
	  .desc = "disk_rr, the reads with O_DIRECT" },
	{ .name = "disk_dio_rw", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D | TF_DIRECT, .param = &rand_write,
	  .desc = "disk_rw, the overwrites with O_DIRECT" },
	{ .name = "disk_dio_rd", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D | TF_DIRECT | TF_SOURCE, .param = &dio_source_read,
	  .desc = "n sequential 1 KiB O_DIRECT reads of the shared "
		  "source, [sync]" },
	{ .name = "disk_dio_wrt", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D | TF_DIRECT, .param = &seq_write,
	  .desc = "disk_wrt with O_DIRECT" },
	{ .name = "disk_dio_cp", .run = disk_job, .ops_per_call = 1, .units = "file of n KiB", .flags = D | TF_DIRECT | TF_SOURCE, .param = &dio_copy,
	  .desc = "create, [sync], copy the shared source with O_DIRECT, "
		  "[sync]" },
};
#undef D

int test_disk_reads_source(const struct test_def *t)
{
	if (t->run != disk_job || t->param == NULL)
		return -1;
	const struct disk_pattern *p = t->param;
	return p->fill != FILL_WRITE;
}

const struct test_family test_family_disk = { "disk", tests, sizeof(tests) / sizeof(tests[0]), NULL };
