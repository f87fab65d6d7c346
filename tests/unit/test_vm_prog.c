/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What travels with the guest (the program share: the binary, its data, the files the run words
 * name that the guest would not see) and the KVM probe's answer remembered per host boot, QEMU
 * binary and device. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "testfs.h"
#include "vm/vm.h"

static char *cat(const char *root, const char *rel)
{
	char *p = xasprintf("%s/%s", root, rel), *text = read_text_file(p, 65536);
	free(p);
	return text;
}

static void prog_share(void)
{
	char root[] = "/tmp/reaim-test-prog.XXXXXX";
	ok(mkdtemp(root) != NULL, "a directory of its own (under /tmp, which the guest mounts its own)");
	test_put(root, "data/suites/mine.cfg", "[mine]\n");
	test_put(root, "mix", "10 add_int\n");
	test_put(root, "bin/reaim", "#!/bin/sh\n");
	char *datadir = xasprintf("%s/data", root);
	setenv("REAIM_DATADIR", datadir, 1);
	free(datadir);
	char *mix = xasprintf("%s/mix", root), *opt = xasprintf("--workfile=%s", mix), *bin = xasprintf("%s/bin/reaim", root);
	char *args[] = {"-f", mix, opt, "-t", "1,2", "/bin/sh", NULL};
	char *share = xasprintf("%s/share", root), **guest = NULL, err[512] = "";
	int rc = vm_prog_make(share, bin, args, 6, &guest, err, sizeof(err));
	is_int(rc, 0, "made");
	if (rc)
		printf("# %s\n", err);
	char *text = cat(share, "reaim");
	is_str(text, "#!/bin/sh\n", "the binary");
	free(text);
	struct stat sb;
	char *p = xasprintf("%s/reaim", share);
	ok(stat(p, &sb) == 0 && (sb.st_mode & 0111) == 0111, "executable");
	free(p);
	text = cat(share, "data/suites/mine.cfg");
	is_str(text, "[mine]\n", "a suite the host's reaim finds, by its name");
	free(text);
	text = cat(share, "files/2/mix");
	is_str(text, "10 add_int\n", "a file a word names, copied");
	free(text);
	is_str(guest[1], VM_PROG_GUEST "/files/2/mix", "and named by its place in the guest");
	is_str(guest[2], "--workfile=" VM_PROG_GUEST "/files/3/mix", "the same after --OPT=");
	is_str(guest[4], "1,2", "a word that is no file: as it is");
	is_str(guest[5], "/bin/sh", "a file the guest sees: as it is");
	ok(guest[6] == NULL, "as many words");
	vm_argv_free(guest);
	char *fifo = xasprintf("%s/fifo", root), *to = xasprintf("%s/copy", root);
	ok(mkfifo(fifo, 0600) == 0 && vm_copy_file(fifo, to, 0644, err, sizeof(err)) < 0 && strstr(err, "not a regular file"),
	   "a FIFO is refused at once, never read");
	ok(access(to, F_OK) != 0, "and nothing made");
	free(fifo);
	free(to);
	char *bad[] = {"-f", mix, NULL};
	ok(vm_prog_make(share, "/nonexistent/reaim", bad, 2, &guest, err, sizeof(err)) < 0 && strstr(err, "/nonexistent/reaim"),
	   "a binary that cannot be read: named");
	vm_argv_free(guest);
	unsetenv("REAIM_DATADIR");
	free(mix);
	free(opt);
	free(bin);
	free(share);
	remove_tree(root);
}

static void accel_memory(void)
{
	char root[] = "/tmp/reaim-test-accel.XXXXXX";
	ok(mkdtemp(root) != NULL, "a cache of its own");
	test_put(root, "qemu", "#!/bin/sh\n");
	char *qemu = xasprintf("%s/qemu", root), what[256];
	char *key = vm_accel_key(qemu, "/dev/kvm"), *key2 = vm_accel_key(qemu, "/other/kvm");
	ok(key && key2 && strcmp(key, key2) != 0, "the device is part of the key");
	is_int(vm_accel_recall(root, key, what, sizeof(what)), -1, "nothing remembered yet");
	vm_accel_remember(root, key, 0, "KVM did not boot a guest within 20 s (it hung)");
	vm_accel_remember(root, key2, 1, "a KVM guest booted in 2.0 s");
	is_int(vm_accel_recall(root, key, what, sizeof(what)), 0, "TCG remembered");
	is_str(what, "KVM did not boot a guest within 20 s (it hung)", "with what happened");
	is_int(vm_accel_recall(root, key2, what, sizeof(what)), 1, "another device's answer beside it");
	vm_accel_remember(root, key, 1, "a KVM guest\tbooted\n");
	is_int(vm_accel_recall(root, key, what, sizeof(what)), 1, "answered again: replaced");
	is_str(what, "a KVM guest booted ", "tabs and newlines kept out of the file");
	struct timespec t[2] = {{.tv_sec = 1000000000}, {.tv_sec = 1000000000}};
	utimensat(AT_FDCWD, qemu, t, 0);
	char *key3 = vm_accel_key(qemu, "/dev/kvm");
	ok(key3 && strcmp(key3, key) != 0, "another QEMU binary (its mtime): another key");
	is_int(vm_accel_recall(root, key3, what, sizeof(what)), -1, "which must be probed");
	test_put(root, "accel", "0000 old-boot\ttcg\tgone\n");
	vm_accel_remember(root, key3, 0, "x");
	char *text = cat(root, "accel");
	ok(text && !strstr(text, "old-boot"), "an earlier host boot's answers dropped");
	free(text);
	ok(vm_accel_key("/nonexistent/qemu", "/dev/kvm") == NULL, "no QEMU: no key, nothing remembered");
	free(key);
	free(key2);
	free(key3);
	free(qemu);
	remove_tree(root);
}

int main(void)
{
	tap_case(prog_share);
	tap_case(accel_memory);
	return done_testing();
}
