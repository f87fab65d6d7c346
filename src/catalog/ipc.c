/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "ipc" test family: pipe, fifo, UNIX socketpair, System V shared memory and signal
 * jobs from the AIM catalog, plus the message exchange loops net.c shares. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/msg_sizes.h"
#include "catalog/catalog.h"

#define PAIRS 99
#define SHM_BYTES (64 * 1024)
#define SHM_ROUNDS 100
#define SEM_WAIT_S 10
#define SIGNALS 1000

/* The message-size cycle: 1..4096 B with a mean of 719 B, small and large sizes mixed
 * so consecutive messages differ. */
static const unsigned short msg_sizes[] = {
	64, 1024, 1, 2048, 300, 128, 4096, 16, 512, 100, 1700, 8, 420, 256, 800, 32,
};

size_t ipc_msg_size(unsigned i)
{
	return msg_sizes[i % (sizeof(msg_sizes) / sizeof(msg_sizes[0]))];
}

/* A position-dependent pattern, so a misplaced byte shows up in the compare. */
static void fill_pattern(unsigned char *buf)
{
	for (size_t j = 0; j < IPC_MSG_MAX; j++)
		buf[j] = (unsigned char)(j * 31 + 7);
}

/* Mark both ends with the message number, so a stale or repeated message fails the compare. */
static void stamp(unsigned char *buf, size_t len, unsigned i)
{
	buf[0] = (unsigned char)i;
	buf[len - 1] = (unsigned char)~i;
}

/* Write all of buf, resuming after short writes; 0 or an errno. */
static int write_full(int fd, const unsigned char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int ipc_wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	for (;;) {
		int n = poll(&p, 1, timeout_ms);
		if (n > 0)
			return 0;
		if (n == 0)
			return ETIMEDOUT;
		if (errno != EINTR)
			return errno;
	}
}

/* One read from the link, never blocking longer than its timeout; bytes read, or -1 with errno. */
static ssize_t link_read(const struct ipc_link *l, void *buf, size_t len)
{
	for (;;) {
		ssize_t n = l->timeout_ms < 0 ? read(l->rfd, buf, len)
					      : recv(l->rfd, buf, len, MSG_DONTWAIT);
		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		if (l->timeout_ms < 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			return -1;
		/* Poll only when the data is not there yet: the common case stays one syscall. */
		int err = ipc_wait_readable(l->rfd, l->timeout_ms);
		if (err != 0) {
			errno = err;
			return -1;
		}
	}
}

/* Read exactly len bytes, resuming after short reads; 0, an errno, or -1 at end of stream. */
static int read_full(const struct ipc_link *l, unsigned char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = link_read(l, buf, len);
		if (n < 0)
			return errno;
		if (n == 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

enum test_status ipc_stream_pairs(struct test_ctx *ctx, const struct ipc_link *l, unsigned count)
{
	unsigned char out[IPC_MSG_MAX], in[IPC_MSG_MAX];

	fill_pattern(out);
	for (unsigned i = 0; i < count; i++) {
		size_t len = ipc_msg_size(i);
		stamp(out, len, i);
		int err = write_full(l->wfd, out, len);
		if (err != 0)
			return test_fail(ctx, err, "writing message %u (%zu B) to the %s", i, len, l->what);
		err = read_full(l, in, len);
		if (err < 0)
			return test_fail(ctx, 0, "the %s ended before message %u came back", l->what, i);
		if (err > 0)
			return test_fail(ctx, err, "reading message %u (%zu B) from the %s", i, len, l->what);
		if (memcmp(in, out, len) != 0)
			return test_fail(ctx, 0, "message %u (%zu B) came back changed from the %s", i, len,
					 l->what);
	}
	return TEST_OK;
}

enum test_status ipc_dgram_pairs(struct test_ctx *ctx, const struct ipc_link *l, unsigned count)
{
	unsigned char out[IPC_MSG_MAX], in[IPC_MSG_MAX];

	fill_pattern(out);
	for (unsigned i = 0; i < count; i++) {
		size_t len = ipc_msg_size(i);
		stamp(out, len, i);
		ssize_t n;
		while ((n = write(l->wfd, out, len)) < 0 && errno == EINTR)
			;
		if (n < 0)
			return test_fail(ctx, errno, "sending datagram %u (%zu B) on the %s", i, len, l->what);
		if ((size_t)n != len)
			return test_fail(ctx, 0, "the %s sent %zd of %zu B of datagram %u", l->what, n, len, i);
		n = link_read(l, in, sizeof(in));
		if (n < 0)
			return test_fail(ctx, errno, "receiving datagram %u (%zu B) from the %s", i, len,
					 l->what);
		if ((size_t)n != len || memcmp(in, out, len) != 0)
			return test_fail(ctx, 0, "datagram %u (%zu B) came back changed (%zd B) from the %s",
					 i, len, n, l->what);
	}
	return TEST_OK;
}

enum test_status ipc_close_all(struct test_ctx *ctx, enum test_status st, const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (fds[i] >= 0 && close(fds[i]) != 0 && st == TEST_OK)
			st = test_fail(ctx, errno, "closing descriptor %d", fds[i]);
	}
	return st;
}

static enum test_status pipe_cpy(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return test_fail(ctx, errno, "creating a pipe");
	const struct ipc_link l = { fds[1], fds[0], -1, "pipe" };
	return ipc_close_all(ctx, ipc_stream_pairs(ctx, &l, PAIRS), fds, 2);
}

/* Open both ends of the fifo without blocking: opening the read end alone blocks until a
 * writer appears, so it is opened O_NONBLOCK first and made blocking again afterwards.
 * fds = { read end, write end }; NULL, or what failed with errno set. */
static const char *open_fifo(int dir_fd, const char *name, int fds[2])
{
	fds[0] = openat(dir_fd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fds[0] < 0)
		return "opening the read end of";
	fds[1] = openat(dir_fd, name, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fds[1] < 0)
		return "opening the write end of";
	int fl = fcntl(fds[0], F_GETFL);
	if (fl < 0 || fcntl(fds[0], F_SETFL, fl & ~O_NONBLOCK) != 0)
		return "clearing O_NONBLOCK on";
	return NULL;
}

static enum test_status fifo_test(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	char name[40];
	snprintf(name, sizeof(name), "fifo_test.%ld", (long)getpid());
	if (mkfifoat(ctx->scratch_fd, name, 0600) != 0)
		return test_fail(ctx, errno, "mkfifo %s/%s", ctx->scratch, name);

	int fds[2] = { -1, -1 };
	const char *step = open_fifo(ctx->scratch_fd, name, fds);
	enum test_status st;
	if (step != NULL) {
		st = test_fail(ctx, errno, "%s the fifo %s/%s", step, ctx->scratch, name);
	} else {
		const struct ipc_link l = { fds[1], fds[0], -1, "fifo" };
		st = ipc_stream_pairs(ctx, &l, PAIRS);
	}
	st = ipc_close_all(ctx, st, fds, 2);
	/* Removed once closed, as classic did: unlinking an open fifo costs ext4 an orphan-list
	 * update; a task killed in between leaves it to the scratch dir's removal. */
	if (unlinkat(ctx->scratch_fd, name, 0) != 0 && st == TEST_OK)
		st = test_fail(ctx, errno, "unlinking the fifo %s/%s", ctx->scratch, name);
	return st;
}

/* 99 messages through an AF_UNIX socketpair of the given type. */
static enum test_status socketpair_test(struct test_ctx *ctx, int type, const char *what)
{
	int sv[2];
	if (socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, sv) != 0)
		return test_fail(ctx, errno, "creating the %s", what);
	const struct ipc_link l = { sv[0], sv[1], -1, what };
	enum test_status st = type == SOCK_STREAM ? ipc_stream_pairs(ctx, &l, PAIRS)
						  : ipc_dgram_pairs(ctx, &l, PAIRS);
	return ipc_close_all(ctx, st, sv, 2);
}

static enum test_status stream_pipe(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	return socketpair_test(ctx, SOCK_STREAM, "stream socketpair");
}

static enum test_status dgram_pipe(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	return socketpair_test(ctx, SOCK_DGRAM, "datagram socketpair");
}

/* semctl's fourth argument; glibc leaves the caller to define it. */
union sem_arg {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

/* P (delta -1) or V (+1) on the single semaphore; 0 or an errno. The wait is bounded:
 * nothing else uses the set, so a P that waits at all means something is badly wrong. */
static int sem_step(int semid, short delta)
{
	struct sembuf op = { .sem_num = 0, .sem_op = delta, .sem_flg = 0 };
	const struct timespec limit = { .tv_sec = SEM_WAIT_S, .tv_nsec = 0 };
	while (semtimedop(semid, &op, 1, &limit) != 0) {
		if (errno == EAGAIN)
			return ETIMEDOUT;
		if (errno != EINTR)
			return errno;
	}
	return 0;
}

/* The 100 guarded copies in and out of the segment, each verified. */
static enum test_status shm_exchanges(struct test_ctx *ctx, unsigned char *seg, int semid)
{
	unsigned char out[IPC_MSG_MAX], in[IPC_MSG_MAX];
	const union sem_arg one = { .val = 1 };

	if (semctl(semid, 0, SETVAL, one) != 0)
		return test_fail(ctx, errno, "setting the semaphore to 1");
	fill_pattern(out);
	for (unsigned i = 0; i < SHM_ROUNDS; i++) {
		size_t len = ipc_msg_size(i);
		/* at the segment's start, as classic: walking all of it would add 16 page faults */
		unsigned char *slot = seg;
		stamp(out, len, i);
		int err = sem_step(semid, -1);
		if (err == 0) {
			memcpy(slot, out, len);
			err = sem_step(semid, 1);
		}
		if (err == 0)
			err = sem_step(semid, -1);
		if (err == 0) {
			memcpy(in, slot, len);
			err = sem_step(semid, 1);
		}
		if (err != 0)
			return test_fail(ctx, err, "semop in exchange %u", i);
		if (memcmp(in, out, len) != 0)
			return test_fail(ctx, 0, "exchange %u (%zu B) came back changed", i, len);
	}
	return TEST_OK;
}

/* Running out of SysV ids is a configuration problem: say which sysctl to raise. */
static enum test_status sysv_fail(struct test_ctx *ctx, int err, const char *call, const char *limit)
{
	if (err == ENOSPC || err == ENOMEM)
		return test_fail(ctx, err, "%s: System V IPC limit reached (see %s)", call, limit);
	return test_fail(ctx, err, "%s", call);
}

/* Mark (or clear) that this task may hold SysV objects under its key; the engine removes
 * them by key after the point if the task died while the mark was up. */
static void ipc_hold(struct test_ctx *ctx, uint32_t busy)
{
	if (ctx->ipc_busy)
		__atomic_store_n(ctx->ipc_busy, busy, __ATOMIC_SEQ_CST);
}

static enum test_status shared_memory(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	/* the task's own key rather than IPC_PRIVATE: a task killed inside shmget or semget
	 * (Ctrl-C) leaves an object only its key can find */
	key_t key = ctx->ipc_key ? ctx->ipc_key : IPC_PRIVATE;
	ipc_hold(ctx, 1);
	int shmid = shmget(key, SHM_BYTES, IPC_CREAT | IPC_EXCL | 0600);
	if (shmid < 0) {
		int err = errno;
		ipc_hold(ctx, 0);
		if (err == EEXIST)
			return test_fail(ctx, err, "shmget: key %#x taken by another program", (unsigned)key);
		return sysv_fail(ctx, err, "shmget of 64 KiB", "kernel.shmmni, kernel.shmall");
	}
	unsigned char *seg = shmat(shmid, NULL, 0);
	if (seg == (void *)-1) {
		int err = errno;
		shmctl(shmid, IPC_RMID, NULL);
		ipc_hold(ctx, 0);
		return test_fail(ctx, err, "attaching the shm segment");
	}
	/* Removed at once: the kernel frees it at the detach, even if the task dies mid-call. */
	if (shmctl(shmid, IPC_RMID, NULL) != 0) {
		int err = errno;
		shmdt(seg);
		ipc_hold(ctx, 0);
		return test_fail(ctx, err, "removing the shm segment");
	}

	enum test_status st;
	int semid = semget(key, 1, IPC_CREAT | IPC_EXCL | 0600);
	if (semid < 0) {
		if (errno == EEXIST)
			st = test_fail(ctx, errno, "semget: key %#x taken by another program", (unsigned)key);
		else
			st = sysv_fail(ctx, errno, "semget of 1 semaphore", "kernel.sem");
	} else {
		st = shm_exchanges(ctx, seg, semid);
		if (semctl(semid, 0, IPC_RMID) != 0 && st == TEST_OK)
			st = test_fail(ctx, errno, "removing the semaphore set");
	}
	ipc_hold(ctx, 0);
	if (shmdt(seg) != 0 && st == TEST_OK)
		st = test_fail(ctx, errno, "detaching the shm segment");
	return st;
}

/* A handler cannot reach ctx, so its count lives here; signal_test resets it each call. */
static volatile sig_atomic_t sigusr2_count;

static void count_sigusr2(int sig)
{
	(void)sig;
	sigusr2_count++;
}

/* A signal sent to oneself with kill() while unblocked is delivered before kill() returns,
 * so the handler must have run exactly once per kill. */
static enum test_status signal_test(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	struct sigaction sa, old_sa;
	sigset_t usr2, old_mask;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = count_sigusr2;
	if (sigemptyset(&sa.sa_mask) != 0 || sigemptyset(&usr2) != 0 || sigaddset(&usr2, SIGUSR2) != 0)
		return test_fail(ctx, errno, "building signal sets");
	sigusr2_count = 0;
	if (sigaction(SIGUSR2, &sa, &old_sa) != 0)
		return test_fail(ctx, errno, "installing the SIGUSR2 handler");

	int err = 0;
	const char *step = NULL;
	if (sigprocmask(SIG_UNBLOCK, &usr2, &old_mask) != 0) {
		err = errno;
		step = "unblocking SIGUSR2";
	} else {
		pid_t me = getpid();
		for (unsigned i = 0; i < SIGNALS && step == NULL; i++) {
			if (kill(me, SIGUSR2) != 0) {
				err = errno;
				step = "sending SIGUSR2 to self";
			}
		}
		if (sigprocmask(SIG_SETMASK, &old_mask, NULL) != 0 && step == NULL) {
			err = errno;
			step = "restoring the signal mask";
		}
	}
	if (sigaction(SIGUSR2, &old_sa, NULL) != 0 && step == NULL) {
		err = errno;
		step = "restoring the SIGUSR2 action";
	}
	if (step != NULL)
		return test_fail(ctx, err, "%s", step);
	if (sigusr2_count != SIGNALS)
		return test_fail(ctx, 0, "the handler counted %d of %d signals", (int)sigusr2_count,
				 SIGNALS);
	return TEST_OK;
}

static const struct test_def tests[] = {
	{ .name = "pipe_cpy", .run = pipe_cpy, .ops_per_call = 100, .units = "messages",
	  .desc = "pipe(), 99 write+read pairs" },
	{ .name = "fifo_test", .run = fifo_test, .ops_per_call = 100, .units = "messages", .flags = TF_SCRATCH,
	  .desc = "mkfifo in the scratch dir, open both ends, 99 write+read pairs, unlink" },
	{ .name = "stream_pipe", .run = stream_pipe, .ops_per_call = 100, .units = "messages",
	  .desc = "socketpair(AF_UNIX, SOCK_STREAM), 99 write+read pairs" },
	{ .name = "dgram_pipe", .run = dgram_pipe, .ops_per_call = 100, .units = "datagrams",
	  .desc = "socketpair(AF_UNIX, SOCK_DGRAM), 99 send+receive pairs" },
	{ .name = "shared_memory", .run = shared_memory, .ops_per_call = SHM_ROUNDS, .units = "exchanges", .flags = TF_SYSV,
	  .desc = "SysV shm (64 KiB) + semaphore: 100 x (P, copy in, V, P, copy out, V), both removed" },
	{ .name = "signal_test", .run = signal_test, .ops_per_call = SIGNALS, .units = "signals",
	  .desc = "1000 x kill(self, SIGUSR2), counted by a handler" },
};

const struct test_family test_family_ipc = { "ipc", tests, sizeof(tests) / sizeof(tests[0]), NULL };
