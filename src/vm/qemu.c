/* SPDX-License-Identifier: GPL-2.0-or-later */
/* QEMU for one boot: its command line, and running it in a process group (and a cgroup where there
 * is one) reaim owns and ends (at the end of the boot, at its timeout, on a stop signal; the kernel
 * ends it if reaim dies). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/cgroup.h"
#include "measure/load.h"
#include "measure/measure.h"
#include "vm/vm.h"

struct argv_buf {
	char **v;
	size_t n;
};

static void push(struct argv_buf *a, char *s)
{
	a->v = xrealloc(a->v, (a->n + 2) * sizeof(*a->v));
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

char **vm_qemu_argv(const struct vm_qemu *q)
{
	struct argv_buf a = {0};
	const char *fixed[] = {"-nodefaults", "-no-user-config", "-display", "none", "-no-reboot", "-monitor", "none"};
	push(&a, xstrdup(q->program));
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		push(&a, xstrdup(fixed[i]));
	push(&a, xstrdup("-accel"));
	push(&a, xstrdup(q->kvm ? "kvm" : "tcg"));
	if (q->kvm) {
		push(&a, xstrdup("-cpu"));
		push(&a, xstrdup("host"));
	} else if (q->icount) {
		/* shift 0: 1 ns of guest time per instruction; sleep off: idle time is skipped, not waited */
		push(&a, xstrdup("-icount"));
		push(&a, xstrdup("shift=0,sleep=off"));
	}
	push(&a, xstrdup("-m"));
	push(&a, xasprintf("%lld", q->mem_mib));
	push(&a, xstrdup("-smp"));
	push(&a, xasprintf("%d", q->cpus));
	push(&a, xstrdup("-kernel"));
	push(&a, xstrdup(q->kernel));
	push(&a, xstrdup("-initrd"));
	push(&a, xstrdup(q->initrd));
	push(&a, xstrdup("-append"));
	push(&a, xstrdup(q->cmdline));
	push(&a, xstrdup("-chardev"));
	push(&a, xasprintf("file,id=console,path=%s,append=on", q->console));
	push(&a, xstrdup("-serial"));
	push(&a, xstrdup("chardev:console"));
	if (q->root_image) {
		push(&a, xstrdup("-drive"));
		push(&a, xasprintf("file=%s,if=virtio,format=raw,snapshot=on", q->root_image));
	} else {
		push(&a, xstrdup("-fsdev"));
		push(&a, xstrdup("local,id=reaimroot,path=/,security_model=none,readonly=on,multidevs=remap"));
		push(&a, xstrdup("-device"));
		push(&a, xstrdup("virtio-9p-pci,fsdev=reaimroot,mount_tag=reaimroot"));
	}
	if (q->prog) {
		push(&a, xstrdup("-fsdev"));
		push(&a, xasprintf("local,id=reaimprog,path=%s,security_model=none,readonly=on", q->prog));
		push(&a, xstrdup("-device"));
		push(&a, xstrdup("virtio-9p-pci,fsdev=reaimprog,mount_tag=reaimprog"));
	}
	push(&a, xstrdup("-fsdev"));
	push(&a, xasprintf("local,id=reaimout,path=%s,security_model=none", q->share));
	push(&a, xstrdup("-device"));
	push(&a, xstrdup("virtio-9p-pci,fsdev=reaimout,mount_tag=reaimout"));
	return a.v;
}

void vm_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

char *vm_argv_join(char *const *argv)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (size_t i = 0; argv[i]; i++) {
		const char *w = argv[i];
		int plain = *w != '\0';
		for (const char *p = w; *p && plain; p++)
			plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *p) != NULL;
		strbuf_addf(&sb, "%s", i ? " " : "");
		if (plain) {
			strbuf_addf(&sb, "%s", w);
			continue;
		}
		strbuf_add(&sb, "'", 1);
		for (const char *p = w; *p; p++)
			if (*p == '\'')
				strbuf_add(&sb, "'\\''", 4);
			else
				strbuf_add(&sb, p, 1);
		strbuf_add(&sb, "'", 1);
	}
	return sb.buf;
}

/* The child: its own process group (and cgroup, when there is one), killed when reaim dies, output
 * into the console file, scratch files in the boot's directory. */
static void child(char *const *argv, int console, pid_t parent, const char *dir, const struct cgroup_point *group)
{
	if (setpgid(0, 0) < 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent ||
	    setenv("TMPDIR", dir, 1) < 0 || (group && cgroup_point_attach(group, 0) < 0))
		_exit(127);
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(console, 1) < 0 || dup2(console, 2) < 0)
		_exit(127);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	execvp(argv[0], argv);
	dprintf(2, "reaim vm: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Wait for pid, ending its group at the deadline or when cancelled. The group is killed before QEMU
 * is reaped, so its id cannot have gone to another process meanwhile; whatever QEMU left in it goes
 * with it, and whatever left the group but not the cgroup (a daemon) goes with the cgroup. */
static void watch(pid_t pid, const struct vm_watch *how, struct vm_wait *w, struct rusage *ru)
{
	double timeout_s = how->timeout_s;
	int (*cancelled)(void *) = how->cancelled;
	void *arg = how->arg;
	uint64_t t0 = clock_now_ns();
	for (;;) {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno != EINTR)
			break;
		if (si.si_pid == pid)
			break;
		double el = (double)(clock_now_ns() - t0) / 1e9;
		if (cancelled && cancelled(arg))
			w->cancelled = 1;
		else if (el > timeout_s)
			w->timed_out = 1;
		if (w->cancelled || w->timed_out)
			break;
		struct timespec ts = {0, 50 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);
	if (how->group && cgroup_point_kill(how->group) < 0)
		log_warn("cannot kill QEMU's cgroup %s: %s", cgroup_point_path(how->group), strerror(errno));
	while (wait4(pid, &w->status, 0, ru) < 0)
		if (errno != EINTR) {
			w->status = -1;
			break;
		}
	w->wall_s = (double)(clock_now_ns() - t0) / 1e9;
}

int vm_qemu_run(char *const *argv, const char *dir, const struct vm_watch *how, struct vm_wait *w, char *err,
		size_t errlen)
{
	memset(w, 0, sizeof(*w));
	w->host_outside_pct = NAN;
	char *console = xasprintf("%s/console", dir);
	int fd = open(console, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		set_err(err, errlen, "cannot open %s: %s", console, strerror(errno));
		free(console);
		return -1;
	}
	free(console);
	struct sys_counters a, b;
	char why[256];
	int have_a = load_read_stat(NULL, &a, why, sizeof(why)) == 0;
	fflush(NULL);
	pid_t parent = getpid(), pid = fork();
	if (pid < 0) {
		set_err(err, errlen, "cannot fork for %s: %s", argv[0], strerror(errno));
		close(fd);
		return -1;
	}
	if (pid == 0)
		child(argv, fd, parent, dir, how->group);
	close(fd);
	setpgid(pid, pid); /* either side may get here first; EACCES after the exec is fine */
	/* for the next reaim vm, should this one be killed outright and QEMU outlive it */
	char *rec = xasprintf("%s/%s", dir, VM_QEMU_FILE), why_rec[256];
	if (vm_owner_write(rec, pid, why_rec, sizeof(why_rec)) < 0)
		log_warn("%s", why_rec);
	free(rec);
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	watch(pid, how, w, &ru);
	w->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
		   (double)ru.ru_stime.tv_usec / 1e6;
	if (have_a && load_read_stat(NULL, &b, why, sizeof(why)) == 0) {
		struct load_share ls;
		load_between(&a, &b, (double)sysconf(_SC_CLK_TCK), &ls);
		w->host_outside_pct = load_outside_cpu_pct(ls.busy_cpu_s, w->cpu_s, ls.ncpus, w->wall_s);
	}
	return 0;
}

char *vm_console_tail(const char *path, size_t n)
{
	FILE *f = fopen(path, "rbe");
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	if (!f)
		return sb.buf;
	long start = 0;
	if (fseek(f, 0, SEEK_END) == 0) {
		long size = ftell(f);
		start = size > 16384 ? size - 16384 : 0;
	}
	if (fseek(f, start, SEEK_SET) < 0)
		start = 0;
	int c;
	while ((c = fgetc(f)) != EOF) {
		char ch = (char)c;
		if (c == '\n' || c == '\t' || (c >= 0x20 && c != 0x7f))
			strbuf_add(&sb, &ch, 1);
	}
	fclose(f);
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	size_t lines = 0, at = sb.len;
	while (at > 0 && lines < n)
		if (sb.buf[--at] == '\n')
			lines++;
	char *tail = xstrdup(sb.buf + (lines == n ? at + 1 : 0));
	strbuf_free(&sb);
	return tail;
}

char *vm_which(const char *program)
{
	if (strchr(program, '/'))
		return access(program, X_OK) == 0 ? xstrdup(program) : NULL;
	const char *path = getenv("PATH");
	char *copy = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin"), *found = NULL;
	for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *d ? d : ".", program);
		if (access(p, X_OK) == 0)
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}
