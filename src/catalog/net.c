/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "net" test family: the TCP and UDP loopback jobs from the AIM catalog, on 127.0.0.1 only. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "catalog/msg_sizes.h"
#include "catalog/catalog.h"

#define TCP_PAIRS 89
#define UDP_DATAGRAMS 99
/* Loopback never takes this long; past it a lost datagram fails the job instead of hanging it. */
#define WAIT_MS 10000

/* A socket bound to 127.0.0.1 on an ephemeral port (fixed ports collide between tasks),
 * with *addr set to where it is bound; the fd, or -1 with errno set. */
static int loopback_socket(int type, struct sockaddr_in *addr)
{
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	addr->sin_port = htons(0);
	socklen_t len = sizeof(*addr);
	if (bind(fd, (const struct sockaddr *)addr, sizeof(*addr)) != 0 ||
	    getsockname(fd, (struct sockaddr *)addr, &len) != 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* Listen, connect and accept, TCP_NODELAY on both ends. fds = { client, accepted, listener };
 * NULL, or what failed with errno set. */
static const char *tcp_open(int fds[3])
{
	struct sockaddr_in addr;
	int one = 1;

	fds[2] = loopback_socket(SOCK_STREAM, &addr);
	if (fds[2] < 0)
		return "creating the listening socket on 127.0.0.1";
	if (listen(fds[2], 1) != 0)
		return "listening on 127.0.0.1";
	/* The client is not bound: a port connect() picks may be shared with TIME_WAIT
	 * connections to other listeners, a port bind() picks may not. */
	fds[0] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fds[0] < 0)
		return "creating the client socket";
	if (connect(fds[0], (const struct sockaddr *)&addr, sizeof(addr)) != 0)
		return "connecting to the listener on 127.0.0.1";
	int err = ipc_wait_readable(fds[2], WAIT_MS);
	if (err != 0) {
		errno = err;
		return "waiting for the connection to accept";
	}
	fds[1] = accept4(fds[2], NULL, NULL, SOCK_CLOEXEC);
	if (fds[1] < 0)
		return "accepting the connection";
	if (setsockopt(fds[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0 ||
	    setsockopt(fds[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0)
		return "setting TCP_NODELAY";
	return NULL;
}

/* A fresh connection per call, 89 messages from the client to the accepted end. */
static enum test_status tcp_test(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	int fds[3] = { -1, -1, -1 };
	enum test_status st;
	const char *step = tcp_open(fds);

	if (step != NULL) {
		st = test_fail(ctx, errno, "%s", step);
	} else {
		const struct ipc_link l = { fds[0], fds[1], WAIT_MS, "TCP connection" };
		st = ipc_stream_pairs(ctx, &l, TCP_PAIRS);
	}
	/* Client first: the side that closes first keeps the TIME_WAIT, harmless on the client's
	 * port but on the listener's it would take that port from bind(0) for a minute, and
	 * hundreds of tasks would run out of ephemeral ports. */
	return ipc_close_all(ctx, st, fds, 3);
}

/* Two UDP sockets on 127.0.0.1 connected to each other; fds = { sender, receiver };
 * NULL, or what failed with errno set. */
static const char *udp_open(int fds[2])
{
	struct sockaddr_in a, b;

	fds[0] = loopback_socket(SOCK_DGRAM, &a);
	if (fds[0] < 0)
		return "creating the sending UDP socket on 127.0.0.1";
	fds[1] = loopback_socket(SOCK_DGRAM, &b);
	if (fds[1] < 0)
		return "creating the receiving UDP socket on 127.0.0.1";
	/* Connected both ways so the receiver drops whatever else lands on its port. */
	if (connect(fds[0], (const struct sockaddr *)&b, sizeof(b)) != 0 ||
	    connect(fds[1], (const struct sockaddr *)&a, sizeof(a)) != 0)
		return "connecting the UDP sockets";
	return NULL;
}

static enum test_status udp_test(struct test_ctx *ctx, const struct test_def *self)
{
	(void)self;
	int fds[2] = { -1, -1 };
	enum test_status st;
	const char *step = udp_open(fds);

	if (step != NULL) {
		st = test_fail(ctx, errno, "%s", step);
	} else {
		const struct ipc_link l = { fds[0], fds[1], WAIT_MS, "UDP socket" };
		st = ipc_dgram_pairs(ctx, &l, UDP_DATAGRAMS);
	}
	return ipc_close_all(ctx, st, fds, 2);
}

static const struct test_def tests[] = {
	{ .name = "tcp_test", .run = tcp_test, .ops_per_call = 90, .units = "messages", .flags = TF_NET,
	  .desc = "listen+connect+accept on 127.0.0.1, TCP_NODELAY, 89 write+read pairs" },
	{ .name = "udp_test", .run = udp_test, .ops_per_call = 100, .units = "datagrams", .flags = TF_NET,
	  .desc = "two UDP sockets on 127.0.0.1, 99 datagrams" },
};

const struct test_family test_family_net = { "net", tests, sizeof(tests) / sizeof(tests[0]), NULL };
