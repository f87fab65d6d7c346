/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernels compared across boots: each kernel booted in turn under QEMU, interleaved, each boot one
 * run of the guest's reaim, brought back and stored with the boot's facts. */
#ifndef REAIM_VM_VM_H
#define REAIM_VM_VM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/util.h"

/* One --kernel NAME=IMAGE[:CMDLINE]. */
struct vm_kernel {
	char *name, *image, *cmdline;  /* cmdline: what the user adds, "" for none */
	char sha256[SHA256_HEX_LEN + 1];
	char release[128];             /* the first word of the image's version string */
	char *modules;                 /* its modules directory, NULL when none was found */
};
/* Parse a --kernel value into k (strings allocated; free with vm_kernel_free): a name of letters,
 * digits, '.', '_' and '-', an image that is a readable x86 kernel (the "HdrS" magic of the boot
 * protocol at 0x202), a command line without quotes or control characters. 0, or -1 with the
 * reason, naming the spec, in err. */
int vm_kernel_parse(const char *spec, struct vm_kernel *k, char *err, size_t errlen);
void vm_kernel_free(struct vm_kernel *k);
/* The image's version string's first word (the release) from its boot header; 0 or -1 with err. */
int vm_image_release(const char *image, char *release, size_t len, char *err, size_t errlen);

/* ---- the order of boots (schedule.c) ---- */
enum vm_order { VM_ORDER_ABBA, VM_ORDER_RANDOM };
/* The kernel of each of nboots boots (a multiple of nkernels) into out. ABBA: round r runs the
 * kernels forward or backward as the Thue-Morse sequence says (AB BA BA AB BA AB AB BA ...), so a
 * drift that is linear or quadratic in time falls on every kernel alike; random: each round a
 * permutation drawn from seed. */
void vm_schedule(size_t nkernels, size_t nboots, enum vm_order order, uint64_t seed, size_t *out);

enum vm_result { VM_BOOT_OK, VM_BOOT_FAILED, VM_BOOT_STOP };
/* One attempt at a planned boot. */
struct vm_attempt {
	size_t slot;      /* the planned boot, from 0 */
	size_t kernel;
	int attempt;      /* 1, or 2 for the retry */
	enum vm_result result;
};
/* The boot callback: boot kernel a->kernel for slot a->slot. */
typedef enum vm_result (*vm_boot_fn)(void *arg, const struct vm_attempt *a);
/* Boot the planned order: a failed boot is retried once at once, in its own place, so the kernels
 * keep the planned order (ABBA stays ABBA) and each its count; failed twice, it stays failed and the
 * rest go on. Stops at VM_BOOT_STOP. log (room for 2 * nboots) gets every attempt; returns how many. */
size_t vm_sequence(const size_t *order, size_t nboots, vm_boot_fn boot, void *arg, struct vm_attempt *log);

/* ---- the guest's initramfs (initramfs.c) ---- */
/* The modules a guest needs from its kernel's tree (the rest are built in), host root or image. */
/* Find k's modules directory: beside its image (IMAGE/../lib/modules/RELEASE, as a Debian package
 * unpacks) or the host's /lib/modules/RELEASE. */
void vm_find_modules(struct vm_kernel *k);
/* The modules named, with what they depend on (their .modinfo "depends="), in load order, as paths
 * under dir; names not found are taken as built in. 0, or -1 with err. */
int vm_module_order(const char *dir, const char *const *names, size_t n, char ***paths, size_t *npaths,
		    char *err, size_t errlen);
/* A static busybox: $REAIM_BUSYBOX, else /bin/busybox or /usr/bin/busybox; checked to be an ELF
 * program without an interpreter. Allocated path, or NULL with err. */
char *vm_busybox(char *err, size_t errlen);
/* The initramfs for k (busybox, the init script, its modules), built once into cache_dir and
 * reused: its path (allocated), or NULL with err. */
char *vm_initramfs(const struct vm_kernel *k, int image_root, const char *busybox, const char *cache_dir,
		   char *err, size_t errlen);
/* The text of the init script every initramfs carries (for tests). */
extern const char vm_init_script[];

/* ---- the kernel QEMU starts (pvh.c) ---- */
/* 1 when path is an ELF vmlinux with a PVH entry (Xen's PHYS32_ENTRY note), which QEMU's -kernel
 * boots directly. */
int vm_elf_has_pvh(const char *path);
/* k's vmlinux taken out of its bzImage (gzip with zlib, xz with `xz -dc`) into cache_dir once, when
 * it has a PVH entry: its path (allocated), or NULL when the bzImage is to be booted as it is. */
char *vm_pvh_kernel(const struct vm_kernel *k, const char *cache_dir);

/* ---- QEMU (qemu.c) ---- */
struct vm_qemu {
	const char *program;        /* qemu-system-x86_64, or $REAIM_QEMU */
	const char *kernel, *initrd, *cmdline;
	const char *root_image;     /* NULL: the host's root over 9p */
	const char *share;          /* the results directory the guest writes */
	const char *prog;           /* the program share (vm_prog_make), read-only; NULL: none */
	const char *console;        /* where the serial console is written */
	int kvm;
	int icount;                 /* guest time counts instructions (TCG only): -icount shift=0,sleep=off */
	long long mem_mib;
	int cpus;
};
/* The argument vector QEMU runs with (NULL-terminated, allocated; free with vm_argv_free). */
char **vm_qemu_argv(const struct vm_qemu *q);
void vm_argv_free(char **argv);
/* argv as one line a shell reads back. */
char *vm_argv_join(char *const *argv);
/* How a boot ended. */
struct vm_wait {
	int timed_out, cancelled;
	int status;                 /* wait status */
	double wall_s, cpu_s;       /* QEMU's wall and CPU time */
	double host_outside_pct;    /* the host's CPU not QEMU's over the boot, % of the machine; NaN */
};
struct cgroup_point;
/* How a boot's QEMU is watched and ended. */
struct vm_watch {
	double timeout_s;
	int (*cancelled)(void *);         /* polled; NULL: never */
	void *arg;
	const struct cgroup_point *group; /* the boot's cgroup (vm_group_boot), NULL: none */
};
/* Run argv in its own process group and how->group (both killed at the end, at timeout_s, when
 * cancelled(arg) says so, and by the kernel when reaim dies), stdout and stderr into dir/console,
 * its scratch files (a -snapshot overlay) in dir ($TMPDIR), its pid recorded in dir/VM_QEMU_FILE.
 * 0 with w filled, or -1 with err when it could not be started. */
int vm_qemu_run(char *const *argv, const char *dir, const struct vm_watch *how, struct vm_wait *w, char *err,
		size_t errlen);

/* ---- QEMU's cgroups (group.c) ---- */
struct vm_group;
/* A cgroup of this reaim vm ("reaim-vm-PID-XXXXXX" under its own, locked in /run/lock or /tmp so the
 * next one knows it gone), the ones of reaim vm commands that are gone killed and removed first;
 * NULL with err when no cgroup2 can be made here (then QEMU is held by its process group alone). */
struct vm_group *vm_group_open(char *err, size_t errlen);
const char *vm_group_dir(const struct vm_group *g);
/* A cgroup for one boot's QEMU; 0, or -1 with err. */
int vm_group_boot(struct vm_group *g, const char *name, struct cgroup_point **out, char *err, size_t errlen);
/* Remove the cgroups (every boot's destroyed first) and the lock; NULL is passed over. */
void vm_group_close(struct vm_group *g);
/* The path of program (a name looked up on PATH, or a path), allocated; NULL when it cannot run. */
char *vm_which(const char *program);
/* The last n lines of a console file, control characters dropped (allocated). */
char *vm_console_tail(const char *path, size_t n);

/* ---- the accelerator (accel.c) ---- */
enum vm_accel { VM_ACCEL_AUTO, VM_ACCEL_KVM, VM_ACCEL_TCG };
/* The KVM device: $REAIM_KVM_DEVICE (a stand-in, for tests), else /dev/kvm. */
const char *vm_kvm_device(void);
/* What a probe's answer holds for: this host boot (its boot_id), the QEMU binary (path and mtime) and
 * the device. Allocated, or NULL when it cannot be known (then the probe is not remembered). */
char *vm_accel_key(const char *qemu, const char *device);
/* The answer remembered for key in cache_dir: 1 KVM, 0 TCG (what happened into what), -1 none. */
int vm_accel_recall(const char *cache_dir, const char *key, char *what, size_t len);
/* Remember the answer for key (the earlier host boots' answers dropped); a failure is warned of. */
void vm_accel_remember(const char *cache_dir, const char *key, int kvm, const char *what);

/* ---- what the guest runs (prog.c) ---- */
/* Where the guest mounts the program share: under its own /run, which it does not take from the host. */
#define VM_PROG_GUEST "/run/reaim-prog"
/* 1 when a guest on the host's root does not see path: it mounts its own /tmp, /run, /var/tmp (and
 * /proc, /sys, /dev). */
int vm_guest_hides(const char *path);
/* Copy from (a regular file, else refused at once) to a new file to; 0, or -1 with err. */
int vm_copy_file(const char *from, const char *to, mode_t mode, char *err, size_t errlen);
/* Make dir the program share: the reaim binary, reaim-exec-helper and reaim-forker (those the host has), the
 * suites, workfiles and scripts the host's reaim finds (data/SUBDIR/NAME), and each file a run word
 * names that the guest would not see on the host's root (files/N/NAME, N the word's place). The run
 * words as the guest gives them into *guest_args (NULL-terminated, allocated; free with vm_argv_free
 * even on failure). 0, or -1 with err. */
int vm_prog_make(const char *dir, const char *reaim, char *const *args, size_t n, char ***guest_args, char *err,
		 size_t errlen);

/* ---- what a killed reaim vm left (sweep.c) ---- */
/* The temporary directory of a `reaim vm` is $TMPDIR/VM_WORK_PREFIX.XXXXXX, holding VM_OWNER_FILE,
 * locked (flock) by its owner for as long as it lives and reading its pid; each boot's directory in
 * it holds VM_QEMU_FILE, "PID STARTTIME" of its QEMU. */
#define VM_WORK_PREFIX "reaim-vm."
#define VM_OWNER_FILE "owner"
#define VM_QEMU_FILE "qemu.pid"
/* A process's start time (clock ticks after boot, /proc/PID/stat), 0 when there is none. */
unsigned long long vm_proc_start(pid_t pid);
/* Record pid and its start time in path; 0, or -1 with err. */
/* PATH made (or emptied) holding TEXT; -1 with the reason in err. */
int vm_write_file(const char *path, const char *text, char *err, size_t errlen);
int vm_owner_write(const char *path, pid_t pid, char *err, size_t errlen);
/* Make work's owner file, locked by this process: the descriptor to hold (closed at exit, or when
 * the directory is gone), or -1 with err. */
int vm_owner_lock(const char *work, char *err, size_t errlen);
/* 1 when the process path records is still running (same pid, same start time), 0 when it has
 * gone, -1 when path holds no record (missing, being written). The pid into *pid when not NULL. */
int vm_owner_alive(const char *path, pid_t *pid);
/* Remove what each `reaim vm` whose owner is gone (its owner lock free) left in tmpdir (and kill a
 * QEMU of it still running), said; only this user's directories, never one whose owner lives, in
 * whatever pid namespace. Returns how many. */
size_t vm_sweep(const char *tmpdir);
/* The name a file written into the cache has until it is renamed into place: path, ".tmp-", the
 * writer's pid and mkostemp's XXXXXX (allocated). */
char *vm_cache_tmp(const char *path);
/* mkostemp(tmp) locked (flock) for as long as the writer holds it open: the descriptor, or -1. */
int vm_cache_tmp_open(char *tmp);
/* Remove the cache's files of that name whose writer has gone (no process here has its pid and none
 * holds its lock); how many. */
size_t vm_sweep_cache(const char *cache_dir);
/* The kernels a cache keeps: a vmlinux and an initramfs each, the ones used last. */
#define VM_CACHE_KEEP 8
/* Hold path (a file in the cache this command boots) against pruning: a shared lock for as long as
 * the descriptor returned is open; -1 when the file is gone (pruned before the lock was taken). */
int vm_cache_hold(const char *path);
/* Mark the cache's files in use (NULL entries and paths outside cache_dir are passed over) as used
 * now, then remove all but the keep newest vmlinux and initramfs images, never one in use here or held
 * by any live reaim vm (vm_cache_hold); how many were removed. */
size_t vm_prune_cache(const char *cache_dir, char *const *use, size_t nuse, size_t keep);

/* ---- the whole of `reaim vm` (vm.c) ---- */
struct vm_request {
	struct vm_kernel *kernels;
	size_t nkernels, boots;
	enum vm_order order;
	uint64_t seed;
	const char *root_image;     /* NULL: the host's root */
	const char *db;             /* where the runs are stored */
	double timeout_s;
	long long mem_mib;
	int cpus;
	int icount;                 /* the guests' clock counts instructions, 1 ns each (TCG, never KVM) */
	enum vm_accel accel;        /* auto: KVM where a probe boot works (remembered per host boot) */
	const char *kvm_device;     /* /dev/kvm or its stand-in */
	char *const *run_args;      /* the options of the guest's `reaim run` */
	size_t nrun_args;
	const char *qemu;           /* the QEMU program */
	const char *reaim;          /* the host's reaim program, which travels to the guest (a root image: its own) */
	const char *command_line;   /* this command's, stored with a failed boot */
	const char *cache_dir;      /* initramfs cache (NULL: none, built for this command only) */
	const char *busybox;        /* the static busybox the initramfs carries */
	int (*cancelled)(void *);
	void *cancel_arg;
};
struct vm_summary {
	size_t stored, failed, retried, attempts;
	int interrupted;
	const char *accel;          /* "kvm" or "tcg" */
};
/* Boot every planned boot and store each boot's run in rq->db. 0 when every boot was stored, 1 when
 * some failed (stored as failed), -1 with err when it could not be done at all, -2 with err when the
 * guest's reaim refused the run's options. */
int vm_run(const struct vm_request *rq, struct vm_summary *sum, char *err, size_t errlen);
/* Where initramfs images are kept between commands: $XDG_CACHE_HOME/reaim, else ~/.cache/reaim,
 * made when missing; NULL when neither can be made (then each command builds its own). */
char *vm_cache_dir(void);
/* The options of the guest's run may not set these: the boot sets them. */
int vm_run_args_check(char *const *args, size_t n, char *err, size_t errlen);

#endif
