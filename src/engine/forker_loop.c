/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The forker's side (the reaim-forker program, exec'd once a run by reaim): it holds the task code and
 * little else, so forking a task copies a small process. It forks each point's tasks as reaim asks,
 * reaps them (they are its children) and reports every exit status and CPU time; reaim keeps the
 * gates, the timing, the accounting and the kills. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "engine/forker.h"
#include "util/util.h"

struct pid_index {
	pid_t pid;
	unsigned index;
};

/* One point's tasks, in the forker. */
struct fpoint {
	struct task_args a;
	struct engine_point pt;
	struct workfile wf;
	struct run_opts opts;
	struct perfctr_task perf;
	cpu_set_t confine;
	char *req;                /* the request, which the strings, CPUs and weights are read from */
	const char **strs;
	void *shm_base;
	size_t started, alive, next;
	int *reaped;
	struct pid_index *index;  /* by pid, for wait4(-1)'s answers */
	int in_order, active;
};

static double self_cpu_s(void)
{
	struct rusage r;
	if (getrusage(RUSAGE_SELF, &r) < 0)
		return 0;
	return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

static int cmp_index(const void *x, const void *y)
{
	const struct pid_index *a = x, *b = y;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

/* The request's strings (NULL for 'n'); -1 when it is cut short. */
static int unpack_strings(const char *at, const char *end, const char **out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (at >= end)
			return -1;
		if (*at++ == 'n') {
			out[i] = NULL;
			continue;
		}
		const char *nul = memchr(at, '\0', (size_t)(end - at));
		if (!nul)
			return -1;
		out[i] = at;
		at = nul + 1;
	}
	return 0;
}

/* The mix and the options a task reads, from the request: the tests by name, from our own catalog. */
static int build_mix(struct fpoint *p, const struct forker_request *r, const int *weights)
{
	p->wf.count = r->ntests;
	p->wf.entries = xcalloc(r->ntests + 1, sizeof(*p->wf.entries));
	for (size_t t = 0; t < r->ntests; t++) {
		p->wf.entries[t].test = p->strs[t] ? test_find(p->strs[t]) : NULL;
		p->wf.entries[t].weight = weights[t];
		if (!p->wf.entries[t].test)
			return -1;
	}
	p->opts.task_cores = r->task_cores;
	p->opts.sync_mode = r->sync_mode;
	p->opts.jobs_per_task = r->jobs_per_task;
	p->pt = (struct engine_point){.wf = &p->wf, .opts = &p->opts, .tasks = (int)r->tasks, .osync = r->osync,
				      .seed = r->seed, .perf = r->has_perf ? &p->perf : NULL};
	p->perf = r->perf;
	return 0;
}

/* The task_args the request describes, in the forker's address space; -1 on a malformed one. */
static int build_args(struct fpoint *p, const char *req, size_t len, int shm_fd)
{
	const struct forker_request *r = (const struct forker_request *)(const void *)req;
	size_t ints = (r->ncpus + r->ntests) * sizeof(int), nstr = r->ntests + 2 * r->nsources + 2;
	if (len < sizeof(*r) || r->ncpus > CPU_SETSIZE || r->ntests > 65536 || r->nsources > 4096 ||
	    len < sizeof(*r) + ints)
		return -1;
	p->strs = xcalloc(nstr, sizeof(char *));
	const int *cpus = (const int *)(const void *)(req + sizeof(*r));
	if (unpack_strings(req + sizeof(*r) + ints, req + len, p->strs, nstr) < 0 || build_mix(p, r, cpus + r->ncpus) < 0)
		return -1;
	p->shm_base = mmap(NULL, r->shm_len, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
	if (p->shm_base == MAP_FAILED)
		return -1;
	char *base = p->shm_base;
	const char **paths = p->strs + r->ntests;
	p->confine = r->confine;
	p->a = (struct task_args){
		.pt = &p->pt,
		.shm = {(struct point_gates *)(void *)base, (struct shared_stats *)(void *)(base + r->stats_at),
			(struct task_slot *)(void *)(base + r->slots_at), (struct task_failure *)(void *)(base + r->failures_at),
			r->shm_perf ? (struct perfctr_count *)(void *)(base + r->perf_at) : NULL, r->shm_len, -1},
		.mem = r->mem,
		.point_dirs = paths,
		.sources = paths + r->nsources,
		.nsources = r->nsources,
		.file_kib = r->file_kib,
		.dio_align = r->dio_align,
		.exec_helper = paths[2 * r->nsources],
		.script_dir = paths[2 * r->nsources + 1],
		.ipc_key = r->ipc_key,
		.parent = getpid(),
		.cpus = r->ncpus ? cpus : NULL,
		.ncpus = r->ncpus,
		.confine = r->confined ? &p->confine : NULL,
	};
	p->a.mem.base = mmap(NULL, r->mem.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p->a.mem.base == MAP_FAILED ? -1 : 0;
}

static void send_all(int sock, const void *msg, size_t len)
{
	while (send(sock, msg, len, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

/* Fork the point's tasks, their pids into their slots (shared memory), and say how many started.
 * Between two forks the forker writes only its stack and the shared mapping, as reaim did. */
static void fork_tasks(struct fpoint *p, uint32_t tasks, int sock, int sfd)
{
	double cpu0 = self_cpu_s();
	struct forker_reply rep = {.type = FORKER_FORKED};
	for (unsigned i = 0; i < tasks; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			rep.fork_errno = errno;
			break;
		}
		if (pid == 0) {
			close(sock); /* the task holds nothing of the forker's but the point */
			close(sfd);
			struct task_args a = p->a;
			a.index = i;
			task_main(&a);
		}
		p->a.shm.slots[i].pid = pid;
		rep.started++;
	}
	p->started = p->alive = rep.started;
	p->active = 1;
	p->reaped = xcalloc(p->started + 1, sizeof(int));
	p->index = xcalloc(p->started + 1, sizeof(*p->index));
	for (size_t i = 0; i < p->started; i++)
		p->index[i] = (struct pid_index){p->a.shm.slots[i].pid, (unsigned)i};
	qsort(p->index, p->started, sizeof(*p->index), cmp_index);
	rep.cpu_s = self_cpu_s() - cpu0;
	send_all(sock, &rep, sizeof(rep));
}

static void end_point(struct fpoint *p)
{
	if (p->shm_base && p->shm_base != MAP_FAILED)
		munmap(p->shm_base, p->a.shm.len);
	if (p->a.mem.base && p->a.mem.base != MAP_FAILED)
		munmap(p->a.mem.base, p->a.mem.len);
	if (p->active) {
		close(p->a.ready_fd);
		close(p->a.done_fd);
	}
	free(p->wf.entries);
	free(p->strs);
	free(p->req);
	free(p->reaped);
	free(p->index);
	*p = (struct fpoint){0};
}

/* Reap what has exited (everything, with block) and report it; by pid in fork order once reaim said
 * the tasks may leave, as engine.c's reap does and for the same reason (wait4(-1) is quadratic). */
static void reap_tasks(struct fpoint *p, int sock, int block)
{
	struct forker_exits m = {.type = FORKER_EXITS};
	while (p->alive > 0) {
		int status;
		struct rusage ru;
		size_t i = p->next;
		if (p->in_order && p->reaped[i]) {
			p->next++;
			continue;
		}
		pid_t pid = wait4(p->in_order ? p->a.shm.slots[i].pid : -1, &status, block ? 0 : WNOHANG, &ru);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid <= 0)
			break;
		if (!p->in_order) {
			struct pid_index key = {.pid = pid}, *hit = bsearch(&key, p->index, p->started, sizeof(key), cmp_index);
			if (!hit || p->reaped[hit->index])
				continue;
			i = hit->index;
		}
		p->reaped[i] = 1;
		p->alive--;
		m.e[m.count++] = (struct forker_exit){(uint32_t)i, status,
						      (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
						      (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec};
		if (m.count == FORKER_EXITS_MAX) {
			send_all(sock, &m, sizeof(m));
			m.count = 0;
		}
	}
	if (m.count)
		send_all(sock, &m, sizeof(m));
	if (p->alive == 0)
		end_point(p);
}

/* One message from reaim: 0, or -1 when reaim is gone (or done). A request the forker cannot use is
 * answered with none started (EINVAL), and reaim forks that point itself. */
static int handle(struct fpoint *p, int sock, int sfd)
{
	char *req = xmalloc(FORKER_REQUEST_MAX);
	char ctl[CMSG_SPACE(3 * sizeof(int))];
	struct iovec iov = {req, FORKER_REQUEST_MAX};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl)};
	ssize_t n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	uint32_t type = n >= (ssize_t)sizeof(uint32_t) ? *(uint32_t *)(void *)req : 0;
	int fds[3] = {-1, -1, -1};
	struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&mh) : NULL;
	if (c && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(fds)))
		memcpy(fds, CMSG_DATA(c), sizeof(fds));
	if (type == FORKER_FORK && !p->active && fds[0] >= 0 && build_args(p, req, (size_t)n, fds[0]) == 0) {
		close(fds[0]);
		p->req = req;
		p->a.ready_fd = fds[1];
		p->a.done_fd = fds[2];
		fork_tasks(p, ((struct forker_request *)(void *)req)->tasks, sock, sfd);
		return 0;
	}
	for (size_t i = 0; i < 3; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (type == FORKER_FORK) {
		if (!p->active)
			end_point(p); /* what build_args made of it */
		struct forker_reply rep = {.type = FORKER_FORKED, .fork_errno = EINVAL};
		send_all(sock, &rep, sizeof(rep));
	} else if (type == FORKER_LEAVE) {
		p->in_order = 1;
	}
	free(req);
	return n > 0 || (n < 0 && errno == EINTR) ? 0 : -1;
}

void forker_main(int sock)
{
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	/* SIGCHLD read from a signal fd; the stop signals stay blocked as reaim blocked them (a Ctrl-C is
	 * reaim's to act on, and it kills the tasks itself) */
	int sfd = sigprocmask(SIG_BLOCK, &chld, NULL) == 0 ? signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK) : -1;
	struct fpoint p = {0};
	uint32_t ready = FORKER_READY;
	if (sfd < 0 || fcntl(sock, F_SETFD, FD_CLOEXEC) < 0)
		_exit(1); /* reaim sees the socket close and forks the tasks itself */
	send_all(sock, &ready, sizeof(ready));
	for (int rc = 0; rc == 0;) {
		struct pollfd pf[2] = {{.fd = sock, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			break;
		struct signalfd_siginfo si;
		while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
			;
		if (p.active)
			reap_tasks(&p, sock, 0);
		if (pf[0].revents)
			rc = handle(&p, sock, sfd);
		if (p.active) /* reaim may have said the tasks can leave: the zombies, in fork order */
			reap_tasks(&p, sock, 0);
	}
	/* reaim is done or gone: nothing of ours outlives it */
	for (size_t i = 0; p.active && i < p.started; i++)
		if (!p.reaped[i] && kill(-p.a.shm.slots[i].pid, SIGKILL) < 0)
			kill(p.a.shm.slots[i].pid, SIGKILL);
	if (p.active)
		reap_tasks(&p, sock, 1);
	_exit(0);
}
