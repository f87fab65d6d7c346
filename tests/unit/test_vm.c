/* SPDX-License-Identifier: GPL-2.0-or-later */
/* reaim vm below its words: the order of boots, the retry of a failed boot and the balance it keeps,
 * the --kernel words, QEMU's command line, the console's tail, the codecs (SHA-256, base64), and the
 * sweep of what a killed reaim vm left (by its owner's lock), and the vmlinux taken
 * out of a bzImage to boot at its PVH entry. */
#include "config.h"

#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "tap.h"
#include "testfs.h"
#include "vm/vm.h"

static char *order_text(const size_t *o, size_t n)
{
	static char buf[256];
	for (size_t i = 0; i < n && i < sizeof(buf) - 1; i++)
		buf[i] = (char)('A' + o[i]);
	buf[n < sizeof(buf) - 1 ? n : sizeof(buf) - 1] = '\0';
	return buf;
}

static void schedule(void)
{
	size_t o[64];
	vm_schedule(2, 8, VM_ORDER_ABBA, 0, o);
	is_str(order_text(o, 8), "ABBABAAB", "two kernels, 8 boots: ABBA BAAB");
	vm_schedule(2, 4, VM_ORDER_ABBA, 0, o);
	is_str(order_text(o, 4), "ABBA", "4 boots: ABBA");
	vm_schedule(3, 12, VM_ORDER_ABBA, 0, o);
	is_str(order_text(o, 12), "ABCCBACBAABC", "three kernels: forward and backward rounds");
	/* balance: in 16 boots of 2 kernels, each kernel's mean position is the same */
	vm_schedule(2, 16, VM_ORDER_ABBA, 0, o);
	double pos[2] = {0, 0}, pos2[2] = {0, 0};
	for (size_t i = 0; i < 16; i++) {
		pos[o[i]] += (double)i;
		pos2[o[i]] += (double)(i * i);
	}
	ok(pos[0] == pos[1] && pos2[0] == pos2[1], "ABBA blocks cancel a linear and a quadratic drift");
	size_t r1[60], r2[60];
	vm_schedule(3, 60, VM_ORDER_RANDOM, 42, r1);
	vm_schedule(3, 60, VM_ORDER_RANDOM, 42, r2);
	ok(memcmp(r1, r2, sizeof(r1)) == 0, "random: the same seed gives the same order");
	int perm = 1, differs = 0;
	for (size_t r = 0; r < 20; r++) {
		unsigned seen = 0;
		for (size_t i = 0; i < 3; i++)
			seen |= 1u << r1[3 * r + i];
		perm &= seen == 7;
		differs |= r1[3 * r] != r1[0] || r1[3 * r + 1] != r1[1];
	}
	ok(perm, "random: every round boots each kernel once");
	ok(differs, "random: rounds differ");
}

/* A stand-in for a boot: fails the attempts listed, stops at one. */
struct fake {
	int fail[16];      /* attempt numbers (1-based over all calls) that fail */
	int stop_at;       /* call that returns STOP (0: none) */
	int calls;
	char seq[64];      /* kernels of the boots that succeeded, in order */
	size_t nseq;
};

static enum vm_result fake_boot(void *arg, const struct vm_attempt *a)
{
	struct fake *f = arg;
	f->calls++;
	if (f->calls == f->stop_at)
		return VM_BOOT_STOP;
	for (size_t i = 0; i < 16 && f->fail[i]; i++)
		if (f->fail[i] == f->calls)
			return VM_BOOT_FAILED;
	f->seq[f->nseq++] = (char)('A' + a->kernel);
	f->seq[f->nseq] = '\0';
	return VM_BOOT_OK;
}

static void retry(void)
{
	size_t o[8];
	struct vm_attempt log[16];
	vm_schedule(2, 8, VM_ORDER_ABBA, 0, o);
	struct fake f = {.fail = {3}};
	size_t n = vm_sequence(o, 8, fake_boot, &f, log);
	is_int(n, 9, "one failed boot: 9 attempts for 8 boots");
	is_str(f.seq, "ABBABAAB", "the retry takes the failed boot's place: the order stays balanced");
	ok(log[2].result == VM_BOOT_FAILED && log[3].slot == 2 && log[3].attempt == 2 && log[3].kernel == log[2].kernel,
	   "the retry is the same slot and kernel, attempt 2, at once");
	struct fake g = {.fail = {2, 3}};
	n = vm_sequence(o, 8, fake_boot, &g, log);
	is_int(n, 9, "a boot that fails twice is not tried a third time");
	is_str(g.seq, "ABABAAB", "and the others go on in their places");
	ok(log[1].result == VM_BOOT_FAILED && log[2].result == VM_BOOT_FAILED && log[3].slot == 2,
	   "both attempts of the second boot are logged as failed");
	struct fake h = {.stop_at = 4};
	n = vm_sequence(o, 8, fake_boot, &h, log);
	is_int(n, 4, "a stop (Ctrl-C) ends the sequence at once");
	is_str(h.seq, "ABB", "with the boots before it kept");
}

/* A file with the x86 boot header's magic and a version string, as a bzImage has. */
static char *fake_image(const char *dir, const char *name, int magic)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "wb");
	unsigned char img[0x400] = {0};
	if (magic)
		memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = 0x00; /* the version string at 0x200 + 0x100 */
	img[0x20f] = 0x01;
	strcpy((char *)img + 0x300, "6.1.0-test-amd64 (builder@host) #1 SMP");
	fwrite(img, 1, sizeof(img), f);
	fclose(f);
	return p;
}

static void kernel_words(void)
{
	char dir[] = "/tmp/reaim-test-vm.XXXXXX";
	if (!mkdtemp(dir)) {
		ok(0, "temporary directory");
		return;
	}
	char *img = fake_image(dir, "bzImage", 1), *bad = fake_image(dir, "vmlinux", 0);
	char *spec = xasprintf("base=%s:pti=on mitigations=off", img), err[1024];
	struct vm_kernel k;
	ok(vm_kernel_parse(spec, &k, err, sizeof(err)) == 0, "NAME=IMAGE:CMDLINE parses");
	is_str(k.name, "base", "the name");
	is_str(k.image, img, "the image");
	is_str(k.cmdline, "pti=on mitigations=off", "the command line, blanks and all");
	is_str(k.release, "6.1.0-test-amd64", "the release from the boot header");
	is_int(strlen(k.sha256), 64, "the image's SHA-256");
	vm_kernel_free(&k);
	free(spec);
	spec = xasprintf("a=%s", bad);
	ok(vm_kernel_parse(spec, &k, err, sizeof(err)) < 0 && strstr(err, "not a kernel image") && strstr(err, bad),
	   "an image without HdrS is refused, by name");
	free(spec);
	ok(vm_kernel_parse("a=/no/such/image", &k, err, sizeof(err)) < 0 && strstr(err, "/no/such/image"),
	   "a missing image is refused, by name");
	spec = xasprintf("a=%s:foo=\"x y\"", img);
	ok(vm_kernel_parse(spec, &k, err, sizeof(err)) < 0 && strstr(err, "quote"), "a quote in the command line");
	free(spec);
	spec = xasprintf("a b=%s", img);
	ok(vm_kernel_parse(spec, &k, err, sizeof(err)) < 0 && strstr(err, "name"), "a name with a blank");
	free(spec);
	ok(vm_kernel_parse(img, &k, err, sizeof(err)) < 0 && strstr(err, "NAME=IMAGE"), "no NAME=");
	char *argv[] = {"-s", "quick", "--label=x", NULL};
	ok(vm_run_args_check(argv, 3, err, sizeof(err)) < 0 && strstr(err, "--label"), "the run may not set --label");
	ok(vm_run_args_check(argv, 2, err, sizeof(err)) == 0, "other run options pass");
	unlink(img);
	unlink(bad);
	free(img);
	free(bad);
	rmdir(dir);
}

static void put(const char *path, const char *bytes, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(bytes, 1, n, f);
		fclose(f);
	}
}

static void modules(void)
{
	char dir[] = "/tmp/reaim-test-mods.XXXXXX";
	if (!mkdtemp(dir)) {
		ok(0, "temporary directory");
		return;
	}
	char *sub = xasprintf("%s/kernel", dir), *sub2 = xasprintf("%s/kernel/drivers", dir);
	mkdir(sub, 0755);
	mkdir(sub2, 0755);
	char *f1 = xasprintf("%s/virtio_pci.ko", sub2), *f2 = xasprintf("%s/virtio.ko", sub),
	     *f3 = xasprintf("%s/virtio_ring.ko", sub), *f4 = xasprintf("%s/9pnet-virtio.ko", sub);
	static const char m1[] = "ELF...\0license=GPL\0depends=virtio,virtio_ring\0name=virtio_pci\0";
	static const char m2[] = "ELF...\0depends=\0name=virtio\0";
	static const char m3[] = "ELF...\0depends=virtio\0name=virtio_ring\0";
	static const char m4[] = "ELF...\0depends=virtio_ring,9pnet\0";
	put(f1, m1, sizeof(m1));
	put(f2, m2, sizeof(m2));
	put(f3, m3, sizeof(m3));
	put(f4, m4, sizeof(m4));
	const char *want[] = {"virtio_pci", "9pnet_virtio", "9p"};
	char **paths, err[256];
	size_t n;
	ok(vm_module_order(dir, want, 3, &paths, &n, err, sizeof(err)) == 0, "the modules are found");
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (size_t i = 0; i < n; i++) {
		const char *b = strrchr(paths[i], '/');
		strbuf_addf(&sb, "%s%s", i ? " " : "", b + 1);
		free(paths[i]);
	}
	free(paths);
	is_str(sb.buf, "virtio.ko virtio_ring.ko virtio_pci.ko 9pnet-virtio.ko",
	       "each after what it depends on, once; '-' and '_' alike; what is missing is built in");
	strbuf_free(&sb);
	unlink(f1);
	unlink(f2);
	unlink(f3);
	unlink(f4);
	rmdir(sub2);
	rmdir(sub);
	ok(vm_module_order(dir, want, 3, &paths, &n, err, sizeof(err)) < 0 && strstr(err, "no kernel modules"),
	   "a modules directory without modules is said");
	rmdir(dir);
	free(f1);
	free(f2);
	free(f3);
	free(f4);
	free(sub);
	free(sub2);
}

static void qemu_line(void)
{
	struct vm_qemu q = {.program = "qemu-system-x86_64", .kernel = "/k/bz", .initrd = "/c/i.gz",
			    .cmdline = "console=ttyS0 pti=on", .share = "/tmp/s", .console = "/tmp/s/console",
			    .mem_mib = 512, .cpus = 2};
	char **argv = vm_qemu_argv(&q);
	char *line = vm_argv_join(argv);
	ok(strstr(line, "-accel tcg") && strstr(line, "-m 512 -smp 2") && strstr(line, "-no-reboot"),
	   "TCG, memory, CPUs, and a reboot ends QEMU");
	ok(strstr(line, "-append 'console=ttyS0 pti=on'") != NULL, "the command line is one word, quoted for a shell");
	ok(strstr(line, "path=/,security_model=none,readonly=on") && strstr(line, "mount_tag=reaimout"),
	   "the host's root read-only and the results share");
	ok(!strstr(line, "-icount"), "the host's clock unless asked");
	free(line);
	vm_argv_free(argv);
	q.icount = 1;
	argv = vm_qemu_argv(&q);
	line = vm_argv_join(argv);
	ok(strstr(line, "-accel tcg -icount shift=0,sleep=off") != NULL, "--icount: TCG on an instruction clock");
	free(line);
	vm_argv_free(argv);
	q.kvm = 1;
	q.root_image = "/img/root.ext4";
	argv = vm_qemu_argv(&q);
	line = vm_argv_join(argv);
	ok(strstr(line, "-accel kvm -cpu host") && strstr(line, "file=/img/root.ext4,if=virtio,format=raw,snapshot=on") &&
		   !strstr(line, "reaimroot") && !strstr(line, "-icount"),
	   "KVM, and an image root in place of the host's");
	free(line);
	vm_argv_free(argv);
}

static void console_tail(void)
{
	char path[] = "/tmp/reaim-test-console.XXXXXX";
	int fd = mkstemp(path);
	const char text[] = "one\ntwo\nthree\x1b[0m\nfour\n\n";
	ok(fd >= 0 && write(fd, text, sizeof(text) - 1) == (ssize_t)sizeof(text) - 1, "a console file");
	close(fd);
	char *t = vm_console_tail(path, 2);
	is_str(t, "three[0m\nfour", "the last two lines, control characters dropped");
	free(t);
	t = vm_console_tail(path, 10);
	is_str(t, "one\ntwo\nthree[0m\nfour", "fewer lines than asked: all of them");
	free(t);
	unlink(path);
}

static void codecs(void)
{
	char hex[SHA256_HEX_LEN + 1];
	struct sha256 s;
	sha256_init(&s);
	sha256_add(&s, "abc", 3);
	sha256_hex(&s, hex);
	is_str(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "SHA-256 of abc");
	sha256_init(&s);
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	for (size_t i = 0; i < strlen(m); i++)
		sha256_add(&s, m + i, 1); /* byte by byte: the block boundary */
	sha256_hex(&s, hex);
	is_str(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "SHA-256 of two blocks");
	struct { const char *in, *out; } b64[] = {
		{"", ""}, {"Zg==", "f"}, {"Zm8=", "fo"}, {"Zm9v", "foo"}, {"Zm9vYg==", "foob"},
		{"Zm9v\nYmE=\n", "fooba"}, {"Zm9vYmFy", "foobar"}, {"Zm9vYg", "foob"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(b64); i++) {
		struct base64 d = {0};
		struct strbuf sb = {0};
		strbuf_add(&sb, "", 0);
		int rc = base64_decode(&d, b64[i].in, strlen(b64[i].in), &sb);
		rc |= base64_finish(&d);
		char what[64];
		snprintf(what, sizeof(what), "base64 '%s'", b64[i].out);
		ok(rc == 0 && sb.len == strlen(b64[i].out) && memcmp(sb.buf, b64[i].out, sb.len) == 0, what);
		strbuf_free(&sb);
	}
	const char *bad[] = {"Zm9v!", "Z", "Zg=a", "Zg=", "=Zg"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct base64 d = {0};
		struct strbuf sb = {0};
		int rc = base64_decode(&d, bad[i], strlen(bad[i]), &sb);
		if (rc == 0)
			rc = base64_finish(&d);
		char what[64];
		snprintf(what, sizeof(what), "base64 '%s' is refused", bad[i]);
		ok(rc < 0, what);
		strbuf_free(&sb);
	}
	/* in pieces, split anywhere */
	struct base64 d = {0};
	struct strbuf sb = {0};
	ok(base64_decode(&d, "Zm9vY", 5, &sb) == 0 && base64_decode(&d, "mFy", 3, &sb) == 0 && base64_finish(&d) == 0 &&
		   sb.len == 6 && memcmp(sb.buf, "foobar", 6) == 0,
	   "base64 in pieces");
	strbuf_free(&sb);
}

/* A process that has come and gone: its pid is no one's (for the few microseconds this test needs). */
static pid_t dead_pid(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	int status;
	while (pid > 0 && waitpid(pid, &status, 0) < 0)
		;
	return pid;
}

/* The work directories of three reaim vm: one whose owner is gone, one whose owner lives (us), one
 * whose owner's pid now belongs to another process, and one without an owner yet. */
static void sweep(void)
{
	char root[] = "/tmp/reaim-test-sweep.XXXXXX";
	ok(mkdtemp(root) != NULL, "a TMPDIR of its own");
	unsigned long long me = vm_proc_start(getpid());
	ok(me > 0, "our own start time from /proc");
	char err[256], *path = xasprintf("%s/me", root);
	ok(vm_owner_write(path, getpid(), err, sizeof(err)) == 0 && vm_owner_alive(path, NULL) == 1,
	   "a QEMU record of a live process: alive");
	free(path);
	/* an owner that died: its file is there, its lock free */
	test_put(root, "reaim-vm.dead/owner", "12345\n");
	/* a stand-in QEMU that outlived its reaim: in its own process group, as vm_qemu_run starts it */
	pid_t qemu = fork();
	if (qemu == 0) {
		setpgid(0, 0);
		pause();
		_exit(0);
	}
	setpgid(qemu, qemu);
	path = xasprintf("%s/reaim-vm.dead/boot-1-1", root);
	test_put(root, "reaim-vm.dead/boot-1-1/console", "boot\n");
	char *rec = xasprintf("%s/qemu.pid", path);
	ok(qemu > 0 && vm_owner_write(rec, qemu, err, sizeof(err)) == 0, "a QEMU's record");
	free(rec);
	free(path);
	/* a live owner: its lock held, whatever pid its file names (one of another pid namespace) */
	char *live = xasprintf("%s/reaim-vm.live", root);
	mkdir(live, 0700);
	int held = vm_owner_lock(live, err, sizeof(err));
	ok(held >= 0, "an owner lock made");
	char *own = xasprintf("%s/owner", live);
	ok(vm_write_file(own, "999999999\n", err, sizeof(err)) == 0, "naming a pid no process here has");
	free(own);
	test_put(root, "reaim-vm.new/boot-1-1/console", "");
	test_put(root, "other/owner", "1\n");
	is_int((long long)vm_sweep(root), 1, "one swept: the dead owner's");
	const char *kept[] = {"reaim-vm.live/owner", "reaim-vm.new/boot-1-1/console", "other/owner"};
	for (size_t i = 0; i < ARRAY_SIZE(kept); i++) {
		char *p = xasprintf("%s/%s", root, kept[i]), what[96];
		snprintf(what, sizeof(what), "kept: %s", kept[i]);
		ok(access(p, F_OK) == 0, what);
		free(p);
	}
	path = xasprintf("%s/reaim-vm.dead", root);
	ok(access(path, F_OK) != 0, "removed: reaim-vm.dead");
	free(path);
	int status = 0;
	pid_t got = qemu > 0 ? waitpid(qemu, &status, 0) : -1;
	ok(got == qemu && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the QEMU it left is killed");
	if (got != qemu && qemu > 0) {
		kill(qemu, SIGKILL);
		waitpid(qemu, &status, 0);
	}
	is_int((long long)vm_sweep(root), 0, "a second sweep finds nothing");
	close(held);
	is_int((long long)vm_sweep(root), 1, "its owner's lock let go: swept");
	ok(access(live, F_OK) != 0, "removed: reaim-vm.live");
	free(live);
	path = xasprintf("%s/nope", root);
	ok(vm_owner_alive(path, NULL) == -1, "no record: not known, never swept");
	free(path);
	remove_tree(root);
}

/* The cache: a file half written by a reaim that has gone, one being written now, finished ones. */
static void sweep_cache(void)
{
	char root[] = "/tmp/reaim-test-cache.XXXXXX";
	ok(mkdtemp(root) != NULL, "the cache: a directory of its own");
	pid_t gone = dead_pid();
	char *path, name[128];
	snprintf(name, sizeof(name), "cache/initramfs-6.1.cpio.gz.tmp-%ld-a1b2c3", (long)gone);
	test_put(root, name, "half");
	test_put(root, "cache/vmlinux-6.1-0123", "done");
	test_put(root, "cache/notes.tmp-12x-a1b2c3", "not ours");
	char *cache = xasprintf("%s/cache", root), *mine = xasprintf("%s/vmlinux-6.1-4567", cache);
	char *tmp = vm_cache_tmp(mine);
	int fd = mkostemp(tmp, 0);
	ok(fd >= 0 && close(fd) == 0, "a cache file being written, named by vm_cache_tmp");
	/* a writer in another pid namespace: its pid is none here, its lock held */
	char *far = xasprintf("%s/initramfs-6.2.cpio.gz.tmp-%ld-d4e5f6", cache, (long)gone);
	int far_fd = open(far, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	ok(far_fd >= 0 && flock(far_fd, LOCK_EX) == 0, "a file written in another pid namespace, locked");
	is_int((long long)vm_sweep_cache(cache), 1, "the cache: one half-written file of a writer that has gone");
	ok(access(far, F_OK) == 0, "the locked one is kept, though no process here has its pid");
	close(far_fd);
	free(far);
	path = xasprintf("%s/%s", root, name);
	ok(access(path, F_OK) != 0 && access(tmp, F_OK) == 0, "it is removed; the one being written is kept");
	free(path);
	path = xasprintf("%s/cache/vmlinux-6.1-0123", root);
	char *other = xasprintf("%s/cache/notes.tmp-12x-a1b2c3", root);
	ok(access(path, F_OK) == 0 && access(other, F_OK) == 0, "finished files and other names are kept");
	free(path);
	free(other);
	free(tmp);
	free(mine);
	free(cache);
	remove_tree(root);
}

/* A vmlinux as far as QEMU looks: an ELF64 header, one PT_NOTE, and in it Xen's PHYS32_ENTRY note
 * (type 18) when pvh, else another note. Its bytes into buf; their count. */
static size_t fake_vmlinux(unsigned char *buf, int pvh)
{
	Elf64_Ehdr h = {.e_type = ET_EXEC, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
			.e_phoff = sizeof(Elf64_Ehdr), .e_ehsize = sizeof(Elf64_Ehdr),
			.e_phentsize = sizeof(Elf64_Phdr), .e_phnum = 1};
	memcpy(h.e_ident, ELFMAG, SELFMAG);
	h.e_ident[EI_CLASS] = ELFCLASS64;
	h.e_ident[EI_DATA] = ELFDATA2LSB;
	h.e_ident[EI_VERSION] = EV_CURRENT;
	Elf64_Nhdr nh = {.n_namesz = 4, .n_descsz = 4, .n_type = pvh ? 18 : 1};
	size_t note_at = sizeof(h) + sizeof(Elf64_Phdr), note_len = sizeof(nh) + 8;
	Elf64_Phdr ph = {.p_type = PT_NOTE, .p_offset = note_at, .p_filesz = note_len};
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), &ph, sizeof(ph));
	memcpy(buf + note_at, &nh, sizeof(nh));
	memcpy(buf + note_at + sizeof(nh), "Xen\0\x00\x10\x00\x01", 8);
	return note_at + note_len;
}

/* A bzImage whose payload is elf gzipped: setup_sects 1 (the payload 1024 bytes in), "HdrS",
 * payload_offset 0 and payload_length at 0x248 and 0x24c. 0, or -1. */
static int fake_bzimage(const char *path, const unsigned char *elf, size_t n)
{
	unsigned char head[1024] = {0};
	head[0x1f1] = 1;
	memcpy(head + 0x202, "HdrS", 4);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, head, sizeof(head)) != (ssize_t)sizeof(head))
		return -1;
	gzFile z = gzdopen(dup(fd), "wb");
	if (!z || gzwrite(z, elf, (unsigned)n) != (int)n || gzclose(z) != Z_OK)
		return -1;
	off_t end = lseek(fd, 0, SEEK_END);
	uint32_t len = (uint32_t)(end - 1024);
	unsigned char le[4] = {len & 0xff, len >> 8 & 0xff, len >> 16 & 0xff, len >> 24 & 0xff};
	int rc = pwrite(fd, le, 4, 0x24c) == 4 ? 0 : -1;
	return close(fd) < 0 ? -1 : rc;
}

static void pvh(void)
{
	char root[] = "/tmp/reaim-test-pvh.XXXXXX";
	ok(mkdtemp(root) != NULL, "pvh: a directory of its own");
	unsigned char elf[512];
	size_t n = fake_vmlinux(elf, 1);
	char *image = xasprintf("%s/bzImage", root), *cache = xasprintf("%s/cache", root);
	mkdir(cache, 0755);
	ok(fake_bzimage(image, elf, n) == 0, "pvh: a bzImage with a gzipped vmlinux");
	struct vm_kernel k = {.image = image, .release = "6.1.0-fake", .sha256 = "0123456789abcdef0123"};
	char *got = vm_pvh_kernel(&k, cache), *want = xasprintf("%s/vmlinux-6.1.0-fake-0123456789abcdef", cache);
	is_str(got, want, "pvh: the vmlinux, cached by release and checksum");
	char *text = got ? read_text_file(got, 4096) : NULL;
	ok(text && memcmp(text, elf, SELFMAG) == 0 && vm_elf_has_pvh(got), "pvh: the ELF, with its PVH entry");
	free(text);
	free(got);
	unlink(image);
	got = vm_pvh_kernel(&k, cache);
	is_str(got, want, "pvh: taken from the cache the next time");
	free(got);
	unlink(want);
	n = fake_vmlinux(elf, 0);
	fake_bzimage(image, elf, n);
	ok(vm_pvh_kernel(&k, cache) == NULL, "pvh: a vmlinux without the PVH note: the bzImage boots as it is");
	ok(rmdir(cache) == 0, "pvh: and nothing is left in the cache (it is empty)");
	ok(!vm_elf_has_pvh(image), "pvh: a bzImage is no ELF");
	free(want);
	free(image);
	free(cache);
	remove_tree(root);
}

int main(void)
{
	tap_case(schedule);
	tap_case(retry);
	tap_case(kernel_words);
	tap_case(modules);
	tap_case(qemu_line);
	tap_case(console_tail);
	tap_case(codecs);
	tap_case(sweep);
	tap_case(sweep_cache);
	tap_case(pvh);
	return done_testing();
}
