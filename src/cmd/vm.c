/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim vm`: kernels compared across boots, each booted in turn under QEMU, interleaved, each boot
 * one run labelled with its kernel's name. The words only; vm/ boots. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "engine/engine.h"
#include "store/store.h"
#include "util/util.h"
#include "vm/vm.h"

struct vm_args {
	struct cli_list kernels, run;
	long long boots, mem, cpus;
	int icount;
	const char *order, *root, *db, *accel;
	double timeout;
};

static const char *const order_names[] = {"ABBA", "random", NULL};
static const char *const accel_names[] = {"auto", "kvm", "tcg", NULL};

const struct cli_opt cmd_vm_opts[] = {
	CLI_OPT_LIST(0, "kernel", "NAME=IMAGE[:CMDLINE]", struct vm_args, kernels,
		     "a kernel to boot: its name (the label of its runs), its image (bzImage or vmlinuz) and what "
		     "its command line adds; give two or more to compare them",
		     .flags = CLI_REQUIRED, .complete = CLI_COMPLETE_FILE),
	CLI_OPT_INT(0, "boots", "N", struct vm_args, boots, 0, 10000, NULL,
		    "boots in all, a multiple of the kernels (default: two per kernel)"),
	CLI_OPT_CHOICE(0, "order", "ORDER", struct vm_args, order, cli_choices_from_names, "ABBA",
		       "the order of boots: ABBA (balanced blocks: AB BA BA AB ...) or random (each round shuffled)",
		       .data = order_names),
	CLI_OPT_STRING(0, "root", "host|IMAGE", struct vm_args, root,
		       "the guest's root: the host's, read-only over virtio-9p (default), or a raw ext4 image holding "
		       "reaim (writes are dropped)",
		       .def = "host", .complete = CLI_COMPLETE_FILE),
	CMD_OPT_DB(struct vm_args),
	CLI_OPT_DOUBLE(0, "timeout", "S", struct vm_args, timeout, 1, 1e6, "600",
		       "seconds a boot may take before it is killed (and retried once)"),
	CLI_OPT_INT(0, "mem", "MIB", struct vm_args, mem, 128, 1 << 22, "1024", "the guest's memory in MiB"),
	CLI_OPT_INT(0, "cpus", "N", struct vm_args, cpus, 1, 256, "2", "the guest's CPUs"),
	CLI_OPT_CHOICE(0, "accel", "ACCEL", struct vm_args, accel, cli_choices_from_names, "auto",
		       "the accelerator: kvm, tcg (emulated), or auto: KVM where a short probe boot under it works, "
		       "its answer remembered until the host reboots ($REAIM_KVM_DEVICE names another device than "
		       "/dev/kvm)",
		       .data = accel_names),
	CLI_OPT_FLAG(0, "icount", struct vm_args, icount,
		     "the guests' clock counts instructions (QEMU -icount, TCG, 1 ns each): Jobs/Min becomes the "
		     "work executed, repeatable to about 1 % a boot on a quiet host, but blind to what costs time "
		     "without instructions (TLB flushes, cache misses, devices)"),
	CLI_OPT_OPERANDS("-- RUN-OPTIONS", struct vm_args, run, 0, -1,
			 "the options of the `reaim run` each guest runs, after -- (its --label is the kernel's NAME)"),
	CLI_OPT_END,
};

static int vm_cancelled(void *unused)
{
	(void)unused;
	engine_poll_signals();
	return engine_interrupted();
}

/* The kernels from their --kernel words; 0, or -1 after saying which word is wrong. */
static int parse_kernels(const struct vm_args *a, struct vm_kernel *k)
{
	char err[1024];
	for (size_t i = 0; i < a->kernels.count; i++) {
		if (vm_kernel_parse(a->kernels.v[i], &k[i], err, sizeof(err)) < 0) {
			log_error("%s", err);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (strcmp(k[j].name, k[i].name) == 0) {
				log_error("--kernel %s: the name %s is given twice (each kernel's runs are labelled with its "
					  "name)", a->kernels.v[i], k[i].name);
				return -1;
			}
	}
	return 0;
}

/* The guests' run words, checked here as their reaim run will check them: a word it refuses (an option
 * misspelt, a suite missing, a word left before --) is said before the first boot, not after it. */
static enum outcome run_words_check(const struct command *self, const struct vm_args *a)
{
	const struct command *run = cmd_find(self->all, "run");
	char **argv = xcalloc(a->run.count + 2, sizeof(*argv));
	argv[0] = (char *)"run";
	for (size_t i = 0; i < a->run.count; i++)
		argv[i + 1] = (char *)a->run.v[i];
	enum outcome out = cmd_run_check(run, (int)a->run.count + 1, argv);
	if (out != OUT_OK)
		log_error("the guests' reaim run would refuse these options (the words after --, and any word "
			  "before it that is not reaim vm's own)");
	free(argv);
	return out;
}

/* Everything the boots need that the words decide; OUT_OK, or OUT_USAGE after saying why. */
static enum outcome prepare(const struct command *self, const struct vm_args *a, struct vm_request *rq, char **qemu,
			    char **busybox)
{
	char err[1024];
	size_t nk = a->kernels.count;
	rq->boots = a->boots ? (size_t)a->boots : 2 * nk;
	if (rq->boots % nk) {
		log_error("--boots %zu is not a multiple of the %zu kernels: each kernel boots as often as the others",
			  rq->boots, nk);
		return OUT_USAGE;
	}
	if (parse_kernels(a, rq->kernels) < 0)
		return OUT_USAGE;
	if (a->icount && strcmp(a->accel, "kvm") == 0) {
		log_error("--icount counts instructions under TCG: it cannot be had with --accel kvm");
		return OUT_USAGE;
	}
	int fd = strcmp(a->accel, "kvm") == 0 ? open(vm_kvm_device(), O_RDWR | O_CLOEXEC) : -2;
	if (fd == -1) {
		log_error("--accel kvm: cannot open %s: %s", vm_kvm_device(), strerror(errno));
		return OUT_USAGE;
	}
	if (fd >= 0)
		close(fd);
	if (vm_run_args_check((char *const *)a->run.v, a->run.count, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return OUT_USAGE;
	}
	if (strcmp(a->root, "host") == 0 && run_words_check(self, a) != OUT_OK)
		return OUT_USAGE; /* an image's root holds its own suites and workfiles */
	if (strcmp(a->root, "host") != 0 && access(a->root, R_OK) != 0) {
		log_error("--root %s: %s (give host or a raw disk image)", a->root, strerror(errno));
		return OUT_USAGE;
	}
	const char *q = getenv("REAIM_QEMU");
	if (!(*qemu = vm_which(q && *q ? q : "qemu-system-x86_64"))) {
		log_error("%s not found: install QEMU (apt-get install qemu-system-x86)", q && *q ? q : "qemu-system-x86_64");
		return OUT_USAGE;
	}
	if (!(*busybox = vm_busybox(err, sizeof(err)))) {
		log_error("%s", err);
		return OUT_USAGE;
	}
	return OUT_OK;
}

/* What the boots stored, and how to compare them. */
static void say_done(const struct vm_args *a, const struct vm_summary *sum, const char *db)
{
	printf("reaim vm: %zu of %zu boots stored in %s (%s)", sum->stored, sum->stored + sum->failed, db, sum->accel);
	if (sum->retried)
		printf(", %zu retried", sum->retried);
	if (sum->failed)
		printf(", %zu failed twice (stored as failed runs)", sum->failed);
	printf("\n");
	if (a->kernels.count >= 2 && sum->stored) {
		printf("compare them: reaim compare");
		for (size_t i = 0; i < a->kernels.count && i < 8; i++) {
			const char *eq = strchr(a->kernels.v[i], '=');
			printf(" %.*s", (int)(eq - a->kernels.v[i]), a->kernels.v[i]);
		}
		printf("%s%s\n", a->db ? " --db " : "", a->db ? a->db : "");
	}
}

enum outcome cmd_vm(const struct command *self, int argc, char **argv)
{
	struct vm_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	struct vm_kernel *k = xcalloc(a.kernels.count, sizeof(*k));
	char *qemu = NULL, *busybox = NULL, *reaim = realpath("/proc/self/exe", NULL), *cache = NULL, *line = NULL;
	struct vm_request rq = {.kernels = k, .nkernels = a.kernels.count, .reaim = reaim};
	out = prepare(self, &a, &rq, &qemu, &busybox);
	if (out == OUT_OK && engine_init() < 0) {
		log_error("cannot set up the stop signals: %s", strerror(errno));
		out = OUT_FAILED;
	}
	if (out == OUT_OK) {
		cache = vm_cache_dir();
		line = cmd_join_args(self, argc, argv);
		rq.order = strcmp(a.order, "random") == 0 ? VM_ORDER_RANDOM : VM_ORDER_ABBA;
		rq.seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32;
		rq.root_image = strcmp(a.root, "host") == 0 ? NULL : a.root;
		rq.db = store_db_path(a.db);
		rq.timeout_s = a.timeout;
		rq.mem_mib = a.mem;
		rq.cpus = (int)a.cpus;
		rq.icount = a.icount;
		rq.accel = strcmp(a.accel, "kvm") == 0 ? VM_ACCEL_KVM : strcmp(a.accel, "tcg") == 0 ? VM_ACCEL_TCG : VM_ACCEL_AUTO;
		rq.kvm_device = vm_kvm_device();
		rq.run_args = (char *const *)a.run.v;
		rq.nrun_args = a.run.count;
		rq.qemu = qemu;
		rq.reaim = reaim ? reaim : "reaim";
		rq.command_line = line;
		rq.cache_dir = cache;
		rq.busybox = busybox;
		rq.cancelled = vm_cancelled;
		struct vm_summary sum;
		char err[1024];
		int rc = vm_run(&rq, &sum, err, sizeof(err));
		if (rc < 0)
			log_error("%s", err);
		else
			say_done(&a, &sum, rq.db);
		out = sum.interrupted ? OUT_INTERRUPTED : rc == -2 ? OUT_USAGE : rc != 0 ? OUT_FAILED : OUT_OK;
	}
	for (size_t i = 0; i < a.kernels.count; i++)
		vm_kernel_free(&k[i]);
	free(k);
	free(qemu);
	free(busybox);
	free(reaim);
	free(cache);
	free(line);
	cli_free(self->opts, &a);
	return out;
}
