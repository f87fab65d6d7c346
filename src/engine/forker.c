/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reaim's side of the forker: a program (reaim-forker) exec'd once a run, before the database and the
 * threads exist, that forks every point's tasks. A task forked from it copies a small process (a few
 * dozen mappings) instead of the whole of reaim with its libraries (some two hundred): fork and exit
 * cost less for each. reaim keeps the gates, the timing, the accounting and the kills; the forker reaps
 * the tasks (its children) and reports each exit over a socketpair. Without the program (a copied
 * reaim) reaim forks the tasks itself, as it always did. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/forker.h"
#include "util/util.h"

static pid_t forker_pid;
static int forker_sock = -1;
static pid_t point_forker;   /* who forks the current point: the forker, or 0 (reaim) */
static double last_cpu_s;
static char request[FORKER_REQUEST_MAX]; /* the point's, packed when it is chosen */
static size_t request_len;

/* ---- reaim's side ---- */

int engine_forker_start(void)
{
	int sv[2];
	if (forker_pid > 0)
		return 0;
	char *path = find_helper("reaim-forker");
	if (!path) {
		log_debug("no reaim-forker beside reaim or in its libexec dir: reaim forks the tasks itself");
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		log_debug("no forker, reaim forks the tasks itself: socketpair: %s", strerror(errno));
		free(path);
		return -1;
	}
	char fd[16];
	snprintf(fd, sizeof(fd), "%d", sv[1]);
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) { /* it dies with reaim, and its tasks with it (their own PR_SET_PDEATHSIG) */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent || fcntl(sv[1], F_SETFD, 0) < 0)
			_exit(127);
		execl(path, "reaim-forker", fd, (char *)NULL);
		_exit(127);
	}
	int err = errno;
	free(path);
	close(sv[1]);
	if (pid < 0) {
		log_debug("no forker, reaim forks the tasks itself: fork: %s", strerror(err));
		close(sv[0]);
		return -1;
	}
	uint32_t ready = 0; /* it says so once it runs: an exec that failed closes the socket instead */
	while (recv(sv[0], &ready, sizeof(ready), 0) < 0 && errno == EINTR)
		;
	if (ready != FORKER_READY) {
		log_debug("no forker, reaim forks the tasks itself: reaim-forker did not start");
		close(sv[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	forker_pid = pid;
	forker_sock = sv[0];
	return 0;
}

void engine_forker_stop(void)
{
	if (forker_pid <= 0)
		return;
	close(forker_sock);
	forker_sock = -1;
	while (waitpid(forker_pid, NULL, 0) < 0 && errno == EINTR)
		;
	forker_pid = 0;
}

pid_t engine_forking_pid(void) { return point_forker; }

int engine_forker_alive(void) { return forker_pid > 0; }

double engine_forking_cpu_s(void) { return last_cpu_s; }

int forker_fd(void) { return point_forker ? forker_sock : -1; }

static size_t pack_request(const struct task_args *proto, int tasks, char *buf);

int forker_choose(const struct task_args *proto, int tasks)
{
	/* a unit test's hook runs in reaim's tasks only; a request too long for a message stays here too */
	request_len = forker_pid > 0 && !engine_test_hook ? pack_request(proto, tasks, request) : 0;
	point_forker = request_len ? forker_pid : 0;
	return point_forker != 0;
}

/* Append a string ('y' and NUL-terminated, or 'n' for NULL) at *at; -1 when it does not fit. */
static int pack_string(char *buf, size_t *at, const char *str)
{
	size_t len = str ? strlen(str) + 1 : 0;
	if (*at + 1 + len > FORKER_REQUEST_MAX)
		return -1;
	buf[(*at)++] = str ? 'y' : 'n';
	memcpy(buf + *at, str ? str : "", len);
	*at += len;
	return 0;
}

/* The request for proto's point into buf; its length, or 0 when it does not fit. */
static size_t pack_request(const struct task_args *proto, int tasks, char *buf)
{
	const struct point_shm *s = &proto->shm;
	const struct engine_point *pt = proto->pt;
	char *base = (char *)s->gates;
	struct forker_request *r = (struct forker_request *)(void *)buf;
	*r = (struct forker_request){
		.type = FORKER_FORK, .tasks = (uint32_t)tasks, .osync = pt->osync, .task_cores = pt->opts->task_cores,
		.sync_mode = pt->opts->sync_mode, .jobs_per_task = pt->opts->jobs_per_task, .seed = pt->seed,
		.has_perf = pt->perf != NULL, .shm_perf = s->perf != NULL, .confined = proto->confine != NULL,
		.shm_len = s->len, .stats_at = (size_t)((char *)s->stats - base), .slots_at = (size_t)((char *)s->slots - base),
		.failures_at = (size_t)((char *)s->failures - base), .perf_at = s->perf ? (size_t)((char *)s->perf - base) : 0,
		.mem = proto->mem, .ntests = pt->wf->count, .nsources = proto->nsources,
		.ncpus = proto->cpus ? proto->ncpus : 0, .dio_align = proto->dio_align, .file_kib = proto->file_kib,
		.ipc_key = proto->ipc_key,
	};
	if (pt->perf)
		r->perf = *pt->perf;
	if (proto->confine)
		r->confine = *proto->confine;
	size_t at = sizeof(*r);
	if (at + (r->ncpus + r->ntests) * sizeof(int) > FORKER_REQUEST_MAX)
		return 0;
	for (size_t c = 0; c < r->ncpus; c++, at += sizeof(int))
		memcpy(buf + at, &proto->cpus[c], sizeof(int));
	for (size_t t = 0; t < r->ntests; t++, at += sizeof(int))
		memcpy(buf + at, &pt->wf->entries[t].weight, sizeof(int));
	int rc = 0;
	for (size_t t = 0; t < r->ntests; t++)
		rc |= pack_string(buf, &at, pt->wf->entries[t].test->name);
	for (size_t d = 0; d < proto->nsources; d++)
		rc |= pack_string(buf, &at, proto->point_dirs[d]);
	for (size_t d = 0; d < proto->nsources; d++)
		rc |= pack_string(buf, &at, proto->sources[d]);
	rc |= pack_string(buf, &at, proto->exec_helper);
	rc |= pack_string(buf, &at, proto->script_dir);
	return rc ? 0 : at;
}

/* The forker is gone: nothing it forked can be reported any more (its tasks die with it). */
static void forker_lost(void)
{
	log_error("the forker (pid %ld) is gone; reaim forks the tasks itself from now on", (long)forker_pid);
	close(forker_sock);
	forker_sock = -1;
	kill(forker_pid, SIGKILL);
	waitpid(forker_pid, NULL, 0);
	forker_pid = 0;
}

int forker_fork(const struct task_args *proto, size_t *started, int *fork_err)
{
	*started = 0;
	*fork_err = 0;
	int fds[3] = {proto->shm.fd, proto->ready_fd, proto->done_fd};
	char ctl[CMSG_SPACE(sizeof(fds))];
	memset(ctl, 0, sizeof(ctl));
	struct iovec iov = {request, request_len};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(c), fds, sizeof(fds));
	ssize_t n = sendmsg(forker_sock, &mh, MSG_NOSIGNAL);
	struct forker_reply rep;
	while (n >= 0 && (n = recv(forker_sock, &rep, sizeof(rep), 0)) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(rep) || rep.type != FORKER_FORKED) {
		forker_lost();
		point_forker = 0;
		return -1;
	}
	if (rep.started == 0 && rep.fork_errno == EINVAL) { /* it could not use the request (another version) */
		log_warn("reaim-forker could not fork a point's tasks (is it the same version as reaim?); reaim "
			 "forks them itself from now on");
		forker_lost();
		point_forker = 0;
		return -1;
	}
	*started = rep.started;
	*fork_err = rep.fork_errno;
	last_cpu_s = rep.cpu_s;
	return 0;
}

void forker_leave(void)
{
	uint32_t type = FORKER_LEAVE;
	if (forker_sock >= 0)
		send(forker_sock, &type, sizeof(type), MSG_NOSIGNAL);
}

int forker_read_exits(int block, void (*fn)(void *arg, const struct forker_exit *e), void *arg)
{
	struct forker_exits m;
	ssize_t n = forker_sock >= 0 ? recv(forker_sock, &m, sizeof(m), block ? 0 : MSG_DONTWAIT) : 0;
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (n < (ssize_t)(2 * sizeof(uint32_t)) || m.type != FORKER_EXITS || m.count > FORKER_EXITS_MAX) {
		if (forker_sock >= 0)
			forker_lost();
		return -1;
	}
	for (uint32_t i = 0; i < m.count; i++)
		fn(arg, &m.e[i]);
	return (int)m.count;
}
