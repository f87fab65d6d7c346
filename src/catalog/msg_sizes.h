/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The IPC message-size cycle (1..4096 B, mean about 718 B), the exchange loops over it and
 * their small helpers: defined in ipc.c, shared with net.c so both move the same messages. */
#ifndef REAIM_CATALOG_MSG_SIZES_H
#define REAIM_CATALOG_MSG_SIZES_H

#include "catalog/catalog.h"

/* The largest message in the cycle; a buffer this big holds any of them. */
#define IPC_MSG_MAX 4096

/* A one-way channel: messages are written to wfd and read back from rfd. */
struct ipc_link {
	int wfd;
	int rfd;
	/* < 0: block in read(). Otherwise rfd is a socket: recv(MSG_DONTWAIT), and when
	 * nothing is there yet, poll at most this long before failing with ETIMEDOUT. */
	int timeout_ms;
	const char *what; /* names the channel in failure messages */
};

/* Size of the i-th message of a call. */
size_t ipc_msg_size(unsigned i);
/* count messages through a byte stream, each read back in full and compared. */
enum test_status ipc_stream_pairs(struct test_ctx *ctx, const struct ipc_link *l, unsigned count);
/* count datagrams, each received whole and compared. */
enum test_status ipc_dgram_pairs(struct test_ctx *ctx, const struct ipc_link *l, unsigned count);
/* Wait until fd is readable; 0, ETIMEDOUT after timeout_ms, or poll's errno. */
int ipc_wait_readable(int fd, int timeout_ms);
/* Close every fd >= 0; a close error turns an ok st into a failure, else st is kept. */
enum test_status ipc_close_all(struct test_ctx *ctx, enum test_status st, const int *fds, size_t n);

#endif
