/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim vm` below its words: the KVM probe, each boot's scripts and share, QEMU, and the boot's run
 * brought back, given the boot's facts and merged into the database (or stored as a failed boot). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/cgroup.h"
#include "store/store.h"
#include "util/env.h"
#include "vm/vm.h"

/* A KVM guest is at its init in a few seconds; one that is not by then will not be. */
#define KVM_PROBE_S 20.0
/* Console lines kept with a failed boot. */
#define TAIL_LINES 12
/* What every boot's command line carries before the user's: the console, an exit rather than a hang
 * on a panic, a lockup or a hung task, and our init. no_timer_check: on a busy host a TCG guest's
 * timer can miss the IO-APIC check at boot, which then panics ("IO-APIC + timer doesn't work").
 * cryptomgr.notests: the crypto algorithms' self-tests at boot (3-6 s of a TCG boot of Debian's
 * kernel) check the algorithms, not anything a run measures. */
#define BASE_CMDLINE                                                                                       \
	"console=ttyS0 panic=-1 softlockup_panic=1 hung_task_panic=1 no_timer_check cryptomgr.notests "      \
	"rdinit=/init quiet"

/* Options the boot sets for the guest's run. */
static const char *const owned_options[] = {"--label", "--db", "-h", "--help"};

int vm_run_args_check(char *const *args, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < ARRAY_SIZE(owned_options); j++) {
			size_t l = strlen(owned_options[j]);
			if (strncmp(args[i], owned_options[j], l) == 0 && (args[i][l] == '\0' || args[i][l] == '=')) {
				set_err(err, errlen, "run option %s is set by reaim vm (each boot's run is labelled with its "
						     "kernel's NAME and stored in --db)", owned_options[j]);
				return -1;
			}
		}
	return 0;
}

/* What a run of the whole command shares. */
struct vm_state {
	const struct vm_request *rq;
	struct store *st;
	char *work;         /* the temporary directory of shares and consoles */
	char **initrd;      /* per kernel */
	char **boot_kernel; /* per kernel: its vmlinux with a PVH entry, NULL: the image itself */
	int kvm;
	char *prog;         /* the program share, NULL with a root image */
	int owner_fd;       /* the owner lock of work, held while it lives */
	struct vm_group *group; /* QEMU's cgroups, NULL: its process group alone */
	int *held;          /* per kernel, its vmlinux's and initramfs's lock in the cache (-1: none) */
	char **run_args;    /* the run words as the guest gives them */
	size_t *order;
	struct vm_summary *sum;
	char fatal[1024];   /* a reason to stop every boot */
	int refused;        /* the guest's reaim refused the run's options */
};

static void shell_word(struct strbuf *sb, const char *w)
{
	char *argv[] = {(char *)w, NULL};
	char *q = vm_argv_join(argv);
	strbuf_addf(sb, "%s", q);
	free(q);
}

/* The guest's root and the writable places a run needs on a read-only one, then the run (guest.sh,
 * in the guest's root), its status and database into the share. Sourced by the init script. */
static char *boot_script(const struct vm_request *rq)
{
	struct strbuf sb = {0};
	strbuf_addf(&sb, "# written by reaim vm for one boot; sourced by the initramfs's init\n");
	if (rq->root_image)
		strbuf_addf(&sb, "mount -t ext4 /dev/vda /newroot || mount /dev/vda /newroot || "
				 "echo 'reaim-vm: cannot mount the root image'\n");
	else
		strbuf_addf(&sb, "mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro,cache=loose reaimroot "
				 "/newroot || echo 'reaim-vm: cannot mount the host root'\n");
	strbuf_addf(&sb,
		    "for d in tmp run var/tmp; do mount -t tmpfs tmpfs /newroot/$d; done\n"
		    "mount -t proc proc /newroot/proc\n"
		    "mount -t sysfs sysfs /newroot/sys\n"
		    "mount -t devtmpfs devtmpfs /newroot/dev\n"
		    "mkdir -p /newroot/dev/shm /newroot/dev/pts\n"
		    "mount -t tmpfs tmpfs /newroot/dev/shm\n"
		    "mount -t devpts devpts /newroot/dev/pts\n"
		    "mount -t cgroup2 cgroup2 /newroot/sys/fs/cgroup 2>/dev/null\n"
		    "mkdir -p /newroot/run/lock /newroot/run/reaim-out\n"
		    "mount --bind /out /newroot/run/reaim-out\n");
	if (!rq->root_image)
		strbuf_addf(&sb, "mkdir -p /newroot" VM_PROG_GUEST "\n"
				 "mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro reaimprog /newroot" VM_PROG_GUEST
				 " || echo 'reaim-vm: cannot mount the program share'\n");
	strbuf_addf(&sb,
		    "ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up\n"
		    "hostname reaim-vm\n"
		    "chroot /newroot /bin/sh /run/reaim-out/guest.sh\n"
		    "rc=$?\n"
		    "cp /newroot/tmp/reaim.db /out/reaim.db 2>/dev/null\n"
		    "echo $rc >/out/rc\n"
		    "umount /newroot/run/reaim-out\n");
	return sb.buf;
}

/* The run inside the guest: the same reaim, in the same directory, labelled with the kernel's name. */
static char *guest_script(const struct vm_state *s, const struct vm_kernel *k)
{
	static const char *const pass[] = {"PATH", "LANG", "LC_ALL"};
	const struct vm_request *rq = s->rq;
	struct strbuf sb = {0};
	char cwd[4096];
	strbuf_addf(&sb, "# written by reaim vm: the guest's run\ncd ");
	shell_word(&sb, getcwd(cwd, sizeof(cwd)) ? cwd : "/");
	strbuf_addf(&sb, " 2>/dev/null || cd /\nunset REAIM_DB TMPDIR\nexport HOME=/root TERM=dumb\n");
	for (size_t i = 0; i < ARRAY_SIZE(pass); i++) {
		const char *v = getenv(pass[i]);
		if (!v)
			continue;
		strbuf_addf(&sb, "export %s=", pass[i]);
		shell_word(&sb, v);
		strbuf_addf(&sb, "\n");
	}
	/* the host's reaim and its data travel on the program share; an image's root has its own */
	if (!rq->root_image)
		strbuf_addf(&sb, "export REAIM_DATADIR=" VM_PROG_GUEST "/data REAIM_LIBEXECDIR=" VM_PROG_GUEST "\n");
	/* into a file, then the console: on the console (a terminal) the run would draw its progress line */
	shell_word(&sb, rq->root_image ? rq->reaim : VM_PROG_GUEST "/reaim");
	strbuf_addf(&sb, " run");
	for (size_t i = 0; i < rq->nrun_args; i++) {
		strbuf_addf(&sb, " ");
		shell_word(&sb, s->run_args[i]);
	}
	strbuf_addf(&sb, " --label ");
	shell_word(&sb, k->name);
	strbuf_addf(&sb, " --db /tmp/reaim.db </dev/null >/tmp/reaim.out 2>&1\nrc=$?\ncat /tmp/reaim.out\nexit $rc\n");
	return sb.buf;
}

static char *kernel_cmdline(const struct vm_kernel *k)
{
	return xasprintf("%s%s%s", BASE_CMDLINE, *k->cmdline ? " " : "", k->cmdline);
}

/* One boot to make: its share dir, the kernel (an index of the request's), the scripts the guest
 * runs (guest_sh may be NULL) and its time limit. */
struct boot {
	const char *dir;
	size_t kernel;
	const char *boot_sh, *guest_sh;
	double timeout_s;
};

/* QEMU in a cgroup of its own named after its boot's directory, where this command has cgroups. */
static int run_qemu(struct vm_state *s, char *const *argv, const char *dir, double timeout_s, struct vm_wait *w,
		    char *err, size_t errlen)
{
	struct cgroup_point *pt = NULL;
	const char *slash = strrchr(dir, '/');
	if (s->group && vm_group_boot(s->group, slash ? slash + 1 : dir, &pt, err, errlen) < 0)
		return -1;
	const struct vm_watch how = {
		.timeout_s = timeout_s, .cancelled = s->rq->cancelled, .arg = s->rq->cancel_arg, .group = pt};
	int rc = vm_qemu_run(argv, dir, &how, w, err, errlen);
	char why[256];
	if (pt && cgroup_point_destroy(pt, why, sizeof(why)) < 0)
		log_warn("%s", why);
	return rc;
}

/* One boot's QEMU, its share dir made and its scripts written; -1 with err. */
static int boot_qemu(struct vm_state *s, const struct boot *b, struct vm_wait *w, char **qemu_line, char *err,
		     size_t errlen)
{
	const char *dir = b->dir, *boot_sh = b->boot_sh, *guest_sh = b->guest_sh;
	size_t kernel = b->kernel;
	double timeout_s = b->timeout_s;
	const struct vm_request *rq = s->rq;
	const struct vm_kernel *k = &rq->kernels[kernel];
	if (mkdir(dir, 0755) < 0) {
		set_err(err, errlen, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	char *bs = xasprintf("%s/boot.sh", dir), *gs = xasprintf("%s/guest.sh", dir);
	char *console = xasprintf("%s/console", dir), *cmdline = kernel_cmdline(k);
	int rc = vm_write_file(bs, boot_sh, err, errlen);
	if (rc == 0 && guest_sh)
		rc = vm_write_file(gs, guest_sh, err, errlen);
	if (rc == 0) {
		struct vm_qemu q = {.program = rq->qemu,
				    .kernel = s->boot_kernel[kernel] ? s->boot_kernel[kernel] : k->image, .initrd = s->initrd[kernel],
				    .cmdline = cmdline, .root_image = rq->root_image, .share = dir, .prog = s->prog,
				    .console = console, .kvm = s->kvm, .icount = rq->icount, .mem_mib = rq->mem_mib,
				    .cpus = rq->cpus};
		char **argv = vm_qemu_argv(&q);
		if (qemu_line)
			*qemu_line = vm_argv_join(argv);
		rc = run_qemu(s, argv, dir, timeout_s, w, err, errlen);
		vm_argv_free(argv);
	}
	free(bs);
	free(gs);
	free(console);
	free(cmdline);
	return rc;
}

/* A probe boot under KVM: 1 when it reached the guest's init, 0 when it hung or failed, -1 when it
 * could not be tried or was interrupted (an answer not to remember); what happened in what. */
static int probe_boot(struct vm_state *s, char *what, size_t len)
{
	char *dir = xasprintf("%s/kvm-probe", s->work), *probe = xasprintf("%s/probe", dir);
	char err[512];
	double limit = s->rq->timeout_s < KVM_PROBE_S ? s->rq->timeout_s : KVM_PROBE_S;
	struct vm_wait w;
	s->kvm = 1;
	const struct boot b = {.dir = dir, .kernel = 0, .boot_sh = "echo ok >/out/probe\n", .timeout_s = limit};
	int rc = boot_qemu(s, &b, &w, NULL, err, sizeof(err)), ok = 0;
	if (rc < 0)
		snprintf(what, len, "KVM could not be tried: %s", err);
	else if (w.cancelled)
		snprintf(what, len, "the KVM probe was interrupted");
	else if ((ok = access(probe, F_OK) == 0))
		snprintf(what, len, "a KVM guest booted in %.1f s", w.wall_s);
	else if (w.timed_out)
		snprintf(what, len, "KVM did not boot a guest within %.0f s (it hung)", limit);
	else {
		char *console = xasprintf("%s/console", dir), *tail = vm_console_tail(console, 1);
		snprintf(what, len, "KVM failed at once: QEMU exited with status %d after %.1f s%s%s",
			 WIFEXITED(w.status) ? WEXITSTATUS(w.status) : 128 + WTERMSIG(w.status), w.wall_s,
			 *tail ? ": " : "", tail);
		free(console);
		free(tail);
	}
	s->kvm = 0;
	remove_tree(dir);
	free(dir);
	free(probe);
	return rc < 0 || w.cancelled ? -1 : ok;
}

/* The accelerator: TCG for --icount and --accel tcg; KVM for --accel kvm (its device must open); for
 * auto, KVM where the device opens and a short boot reaches the guest's init, as remembered for this
 * host boot or probed now, said once. -1 with err: --accel kvm with no device. */
static int choose_accel(struct vm_state *s, char *err, size_t errlen)
{
	const struct vm_request *rq = s->rq;
	if (rq->icount) {
		log_info("--icount: the guests run under TCG, their clock counting instructions (1 ns each): "
			 "Jobs/Min is the work the kernel and tasks execute, not the host's time");
		return 0;
	}
	if (rq->accel == VM_ACCEL_TCG) {
		log_info("--accel tcg: the guests run under TCG, emulated");
		return 0;
	}
	int fd = open(rq->kvm_device, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		if (rq->accel == VM_ACCEL_KVM) {
			set_err(err, errlen, "--accel kvm: cannot open %s: %s", rq->kvm_device, strerror(errno));
			return -1;
		}
		log_info("no usable KVM (%s: %s): the guests run under TCG, emulated (slower; timing is TCG's)",
			 rq->kvm_device, strerror(errno));
		return 0;
	}
	close(fd);
	if (rq->accel == VM_ACCEL_KVM) {
		s->kvm = 1;
		log_info("--accel kvm: the guests run under KVM");
		return 0;
	}
	char what[768], *key = rq->cache_dir ? vm_accel_key(rq->qemu, rq->kvm_device) : NULL;
	int kvm = key ? vm_accel_recall(rq->cache_dir, key, what, sizeof(what)) : -1;
	if (kvm >= 0) {
		log_info("the guests run under %s: as the KVM probe found earlier in this host's boot (%s); "
			 "--accel kvm|tcg chooses", kvm ? "KVM" : "TCG", what);
	} else {
		int found = probe_boot(s, what, sizeof(what));
		kvm = found == 1;
		if (key && found >= 0)
			vm_accel_remember(rq->cache_dir, key, kvm, what);
		if (!(rq->cancelled && rq->cancelled(rq->cancel_arg)))
			log_info("%s: the guests run under %s%s", what, kvm ? "KVM" : "TCG, emulated (slower)",
				 kvm || found < 0 ? "" : " (remembered until the host reboots; --accel kvm tries it anyway)");
	}
	s->kvm = kvm;
	free(key);
	return 0;
}

/* The facts of one boot, stored with its run: the declared difference (boot.kernel, boot.image,
 * boot.image_sha256, boot.cmdline), the accelerator, and how the boot went (boot.index, .attempt, .qemu,
 * .wall_s, .host_outside_pct ...: different at every boot, so compare does not hold them against a run). */
static void boot_facts(struct env_list *e, const struct vm_state *s, const struct vm_attempt *a,
		       const char *qemu_line, const struct vm_wait *w)
{
	const struct vm_request *rq = s->rq;
	const struct vm_kernel *k = &rq->kernels[a->kernel];
	char buf[64];
	memset(e, 0, sizeof(*e));
	env_add(e, "boot.kernel", k->name);
	env_add(e, "boot.image", k->image);
	env_add(e, "boot.image_sha256", k->sha256);
	env_add(e, "boot.cmdline", k->cmdline);
	env_add(e, "boot.accel", s->kvm ? "kvm" : "tcg");
	env_add(e, "boot.clock", rq->icount ? "icount" : "host");
	snprintf(buf, sizeof(buf), "%zu", a->slot + 1);
	env_add(e, "boot.index", buf);
	snprintf(buf, sizeof(buf), "%zu", rq->boots);
	env_add(e, "boot.count", buf);
	snprintf(buf, sizeof(buf), "%d", a->attempt);
	env_add(e, "boot.attempt", buf);
	if (rq->order == VM_ORDER_RANDOM)
		snprintf(buf, sizeof(buf), "random (seed %llu)", (unsigned long long)rq->seed);
	env_add(e, "boot.order", rq->order == VM_ORDER_RANDOM ? buf : "ABBA");
	env_add(e, "boot.qemu", qemu_line);
	snprintf(buf, sizeof(buf), "%.1f", w->wall_s);
	env_add(e, "boot.wall_s", buf);
	if (isfinite(w->host_outside_pct)) {
		snprintf(buf, sizeof(buf), "%.1f", w->host_outside_pct);
		env_add(e, "boot.host_outside_pct", buf);
	}
}

/* The boot's database: its one run, labelled with the kernel's name, given the boot's facts and
 * merged into ours. */
static int bring_home(struct vm_state *s, const char *db, const struct store_gift *g, char *err, size_t errlen)
{
	int rc = store_give_facts(db, g, err, errlen);
	size_t copied, skipped;
	if (rc == 0 && store_merge(s->st, db, &copied, &skipped) < 0) {
		set_err(err, errlen, "%s", store_error(s->st));
		rc = -1;
	}
	return rc;
}

/* A boot that failed twice: a run with its facts and the console's last lines, status failed. */
static int store_failed(struct vm_state *s, const char *name, const struct env_list *facts, const char *reason)
{
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	char *uuid = read_text_file("/proc/sys/kernel/random/uuid", 64);
	if (!uuid)
		uuid = xasprintf("vm-%ld-%lld", (long)getpid(), (long long)time(NULL));
	uuid[strcspn(uuid, "\n")] = '\0';
	struct store_run r = {.uuid = uuid, .label = name, .suite_name = "", .suite_text = "",
			      .command_line = s->rq->command_line, .version = PACKAGE_VERSION, .mode = "boot",
			      .pid = getpid(), .host = host};
	int64_t id;
	int rc = store_run_begin(s->st, &r, facts, &id);
	if (rc == 0)
		rc = store_run_finish(s->st, id, "failed", reason);
	if (rc < 0)
		log_error("%s", store_error(s->st));
	free(uuid);
	return rc;
}

/* What the boot's share says: 0 with the run back, 1 for a failed boot (why in err), -1 for a guest
 * that cannot run the options at all (every boot would fail alike). */
static int judge_boot(const char *dir, const struct vm_wait *w, double timeout_s, char *err, size_t errlen)
{
	char *rcpath = xasprintf("%s/rc", dir), *db = xasprintf("%s/reaim.db", dir);
	char *rct = read_text_file(rcpath, 64);
	int grc = rct ? atoi(rct) : -1, out = 1;
	if (w->timed_out)
		set_err(err, errlen, "no power-off within %.0f s (--timeout): killed", timeout_s);
	else if (!rct)
		set_err(err, errlen, "the guest never ran reaim (QEMU exited with status %d)",
			WIFEXITED(w->status) ? WEXITSTATUS(w->status) : 128 + WTERMSIG(w->status));
	else if (grc == 1 || grc == 126 || grc == 127) {
		if (grc == 1)
			set_err(err, errlen, "the guest's reaim run refused its options (exit 1)");
		else
			set_err(err, errlen, "the guest could not start reaim (exit %d)", grc);
		out = -1;
	} else if ((grc != 0 && grc != 2) || access(db, R_OK) != 0)
		set_err(err, errlen, "the guest's reaim run exited %d%s", grc,
			access(db, R_OK) != 0 ? " and left no database" : "");
	else
		out = 0;
	free(rct);
	free(rcpath);
	free(db);
	return out;
}

/* Console lines, each a message of its own (messages escape a newline). */
static void say_lines(const char *text)
{
	for (const char *l = text, *nl; *l; l = nl ? nl + 1 : l + strlen(l)) {
		nl = strchr(l, '\n');
		log_warn("  | %.*s", (int)(nl ? (size_t)(nl - l) : strlen(l)), l);
	}
}

/* One attempt at a planned boot (vm_sequence's callback). */
static enum vm_result boot_one(void *arg, const struct vm_attempt *a)
{
	struct vm_state *s = arg;
	const struct vm_request *rq = s->rq;
	const struct vm_kernel *k = &rq->kernels[a->kernel];
	if (s->fatal[0] || (rq->cancelled && rq->cancelled(rq->cancel_arg))) {
		s->sum->interrupted |= !s->fatal[0];
		return VM_BOOT_STOP;
	}
	s->sum->attempts++;
	log_info("boot %zu of %zu%s: %s", a->slot + 1, rq->boots, a->attempt > 1 ? ", again" : "", k->name);
	char *dir = xasprintf("%s/boot-%zu-%d", s->work, a->slot + 1, a->attempt);
	char *bs = boot_script(rq), *gs = guest_script(s, k), *qemu_line = NULL, *db = xasprintf("%s/reaim.db", dir);
	char err[1024];
	struct vm_wait w;
	enum vm_result res = VM_BOOT_OK;
	const struct boot b = {
		.dir = dir, .kernel = a->kernel, .boot_sh = bs, .guest_sh = gs, .timeout_s = rq->timeout_s};
	const time_t t0 = time(NULL);
	if (boot_qemu(s, &b, &w, &qemu_line, s->fatal, sizeof(s->fatal)) < 0) {
		res = VM_BOOT_STOP;
		goto out;
	}
	if (w.cancelled) {
		s->sum->interrupted = 1;
		res = VM_BOOT_STOP;
		goto out;
	}
	struct env_list facts;
	boot_facts(&facts, s, a, qemu_line, &w);
	int judged = judge_boot(dir, &w, rq->timeout_s, err, sizeof(err));
	/* on the instruction clock the guest's time runs at its own pace: the run's times are the host's */
	const struct store_gift g = {.name = k->name, .whose = "the guest's database", .facts = &facts,
				     .started_s = rq->icount ? t0 : 0, .finished_s = rq->icount ? time(NULL) : 0};
	if (judged == 0 && bring_home(s, db, &g, err, sizeof(err)) < 0)
		judged = 1;
	if (judged != 0) {
		char *console = xasprintf("%s/console", dir), *tail = vm_console_tail(console, TAIL_LINES);
		log_warn("boot %zu of %zu (%s) failed: %s; the console's last lines:", a->slot + 1, rq->boots, k->name,
			 err);
		say_lines(tail);
		if (judged < 0) {
			snprintf(s->fatal, sizeof(s->fatal), "%s", err);
			s->refused = 1;
		}
		else if (a->attempt > 1) {
			char *reason = xasprintf("boot failed twice: %s; console: %s", err, tail);
			store_failed(s, k->name, &facts, reason);
			free(reason);
			s->sum->failed++;
		} else {
			s->sum->retried++;
		}
		free(console);
		free(tail);
		res = judged < 0 ? VM_BOOT_STOP : VM_BOOT_FAILED;
	} else {
		s->sum->stored++;
		log_info("boot %zu of %zu: %s stored (%.1f s, %s)", a->slot + 1, rq->boots, k->name, w.wall_s,
			 s->kvm ? "kvm" : "tcg");
	}
	env_free(&facts);
out:
	remove_tree(dir);
	free(dir);
	free(bs);
	free(gs);
	free(qemu_line);
	free(db);
	return res;
}

char *vm_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *base = xdg && *xdg ? xstrdup(xdg) : home && *home ? xasprintf("%s/.cache", home) : NULL;
	if (!base)
		return NULL;
	char *dir = xasprintf("%s/reaim", base);
	if ((mkdir(base, 0755) < 0 && errno != EEXIST) || (mkdir(dir, 0755) < 0 && errno != EEXIST)) {
		free(dir);
		dir = NULL;
	}
	free(base);
	return dir;
}

/* A temporary directory for the boots' shares, its owner lock held (in *owner_fd); first, what a reaim vm killed
 * outright left in its place is swept. */
static char *make_work_dir(int *owner_fd, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	tmp = tmp && *tmp ? tmp : "/tmp";
	vm_sweep(tmp);
	char *dir = xasprintf("%s/%sXXXXXX", tmp, VM_WORK_PREFIX);
	if (!mkdtemp(dir)) {
		set_err(err, errlen, "cannot make a directory %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	if ((*owner_fd = vm_owner_lock(dir, err, errlen)) < 0) {
		remove_tree(dir);
		free(dir);
		return NULL;
	}
	return dir;
}

/* Kernel i's vmlinux (when it has a PVH entry) and initramfs, taken from the cache or made (said the
 * first time); 0, or -1 with err. */
static int build_one(struct vm_state *s, size_t i, int say, char *err, size_t errlen)
{
	const struct vm_request *rq = s->rq;
	struct vm_kernel *k = &rq->kernels[i];
	free(s->boot_kernel[i]);
	free(s->initrd[i]);
	s->boot_kernel[i] = vm_pvh_kernel(k, rq->cache_dir ? rq->cache_dir : s->work);
	if (s->boot_kernel[i] && say)
		log_info("%s boots at its PVH entry: its vmlinux, taken out of %s once (%s), so the emulated "
			 "decompressor does not run at every boot", k->name, k->image, s->boot_kernel[i]);
	if (!k->modules)
		vm_find_modules(k);
	if (!k->modules && say)
		log_info("note: no modules of %s (%s) found beside %s or in /lib/modules: its virtio and 9p "
			 "drivers must be built in", k->name, k->release, k->image);
	char why[512];
	s->initrd[i] = vm_initramfs(k, rq->root_image != NULL, rq->busybox, rq->cache_dir ? rq->cache_dir : s->work,
				    why, sizeof(why));
	if (!s->initrd[i]) {
		set_err(err, errlen, "%s: %s", k->name, why);
		return -1;
	}
	return 0;
}

/* Each kernel's files, each held by a lock for this command's life (so no other reaim vm prunes
 * them); one a pruner removed between its making and its lock is made again. */
static int build_initrds(struct vm_state *s, char *err, size_t errlen)
{
	const struct vm_request *rq = s->rq;
	s->initrd = xcalloc(rq->nkernels, sizeof(*s->initrd));
	s->boot_kernel = xcalloc(rq->nkernels, sizeof(*s->boot_kernel));
	s->held = xcalloc(2 * rq->nkernels, sizeof(*s->held));
	for (size_t i = 0; i < 2 * rq->nkernels; i++)
		s->held[i] = -1;
	for (size_t i = 0; i < rq->nkernels; i++) {
		int *h = &s->held[2 * i];
		for (int attempt = 0; attempt < 3 && (h[1] < 0 || (s->boot_kernel[i] && h[0] < 0)); attempt++) {
			if (h[0] >= 0)
				close(h[0]);
			if (h[1] >= 0)
				close(h[1]);
			h[0] = h[1] = -1;
			if (build_one(s, i, attempt == 0, err, errlen) < 0)
				return -1;
			h[0] = s->boot_kernel[i] ? vm_cache_hold(s->boot_kernel[i]) : -1;
			h[1] = vm_cache_hold(s->initrd[i]);
		}
		if (h[1] < 0 || (s->boot_kernel[i] && h[0] < 0)) {
			set_err(err, errlen, "%s: its files in the cache were removed as soon as made, three times",
				rq->kernels[i].name);
			return -1;
		}
	}
	return 0;
}

/* The cache kept to the kernels used last, this command's among them. */
static void prune_cache(const struct vm_state *s)
{
	size_t n = s->rq->nkernels;
	char **use = xcalloc(2 * n, sizeof(*use));
	for (size_t i = 0; i < n; i++) {
		use[2 * i] = s->boot_kernel[i];
		use[2 * i + 1] = s->initrd[i];
	}
	vm_prune_cache(s->rq->cache_dir, use, 2 * n, VM_CACHE_KEEP);
	free(use);
}

/* The program share (host root) or the run words as they are (an image's root holds its reaim). */
static int make_prog(struct vm_state *s, char *err, size_t errlen)
{
	const struct vm_request *rq = s->rq;
	if (rq->root_image) {
		s->run_args = xcalloc(rq->nrun_args + 1, sizeof(*s->run_args));
		for (size_t i = 0; i < rq->nrun_args; i++)
			s->run_args[i] = xstrdup(rq->run_args[i]);
		return 0;
	}
	s->prog = xasprintf("%s/prog", s->work);
	return vm_prog_make(s->prog, rq->reaim, rq->run_args, rq->nrun_args, &s->run_args, err, errlen);
}

int vm_run(const struct vm_request *rq, struct vm_summary *sum, char *err, size_t errlen)
{
	struct vm_state s = {.rq = rq, .sum = sum, .owner_fd = -1};
	memset(sum, 0, sizeof(*sum));
	sum->accel = "tcg";
	int rc = -1;
	if (store_open_cancellable(rq->db, rq->cancelled, rq->cancel_arg, &s.st, err, errlen) < 0)
		return -1;
	if (rq->cache_dir)
		vm_sweep_cache(rq->cache_dir);
	if (!(s.work = make_work_dir(&s.owner_fd, err, errlen)) || build_initrds(&s, err, errlen) < 0)
		goto out;
	if (rq->cache_dir)
		prune_cache(&s);
	if (make_prog(&s, err, errlen) < 0)
		goto out;
	s.order = xcalloc(rq->boots, sizeof(*s.order));
	vm_schedule(rq->nkernels, rq->boots, rq->order, rq->seed, s.order);
	struct strbuf plan = {0};
	for (size_t i = 0; i < rq->boots; i++)
		strbuf_addf(&plan, "%s%s", i ? " " : "", rq->kernels[s.order[i]].name);
	log_info("%zu boots in this order: %s", rq->boots, plan.buf);
	strbuf_free(&plan);
	char why[600];
	if (!(s.group = vm_group_open(why, sizeof(why))))
		log_info("QEMU is held by its process group (no cgroup of its own: %s)", why);
	else
		log_debug("QEMU runs in a cgroup of its own under %s", vm_group_dir(s.group));
	if (choose_accel(&s, err, errlen) < 0)
		goto out;
	sum->accel = s.kvm ? "kvm" : "tcg";
	if (rq->cancelled && rq->cancelled(rq->cancel_arg)) {
		sum->interrupted = 1;
		rc = 0;
		goto out;
	}
	struct vm_attempt *log = xcalloc(2 * rq->boots, sizeof(*log));
	vm_sequence(s.order, rq->boots, boot_one, &s, log);
	free(log);
	if (s.fatal[0]) {
		set_err(err, errlen, "%s", s.fatal);
		rc = s.refused ? -2 : -1;
	} else
		rc = sum->failed ? 1 : 0;
out:
	if (s.work && remove_tree(s.work) < 0)
		log_warn("cannot remove %s: %s", s.work, strerror(errno));
	for (size_t i = 0; s.initrd && i < rq->nkernels; i++) {
		free(s.initrd[i]);
		free(s.boot_kernel[i]);
	}
	free(s.initrd);
	free(s.boot_kernel);
	vm_group_close(s.group);
	if (s.owner_fd >= 0)
		close(s.owner_fd);
	for (size_t i = 0; s.held && i < 2 * rq->nkernels; i++)
		if (s.held[i] >= 0)
			close(s.held[i]);
	free(s.held);
	free(s.work);
	free(s.prog);
	vm_argv_free(s.run_args);
	free(s.order);
	store_close(s.st);
	return rc;
}
