/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel a boot hands QEMU: the bzImage's own vmlinux, taken out of it once and cached, when it
 * has a PVH entry (QEMU then starts it there). Under TCG the image's decompressor and real-mode
 * set-up are emulated instruction by instruction: about 12 s of every boot of Debian's kernel. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "vm/vm.h"

/* The x86 boot protocol: setup_sects at 0x1f1 (0 means 4), payload_offset and payload_length at
 * 0x248 and 0x24c (protocol 2.08 and later), from the end of the real-mode set-up. */
#define HDR_SETUP_SECTS 0x1f1
#define HDR_PAYLOAD 0x248
/* Xen's ELF note for a 32-bit physical entry: what QEMU's -kernel looks for to boot a vmlinux. */
#define XEN_ELFNOTE_PHYS32_ENTRY 18

/* The payload of a bzImage: where it starts, its length. -1 for an image without one. */
static int payload_of(int fd, off_t *at, size_t *len)
{
	unsigned char sects, p[8];
	if (pread(fd, &sects, 1, HDR_SETUP_SECTS) != 1 || pread(fd, p, 8, HDR_PAYLOAD) != 8)
		return -1;
	uint32_t off = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	uint32_t n = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
	*at = (off_t)((sects ? sects : 4) + 1) * 512 + off;
	*len = n;
	return n ? 0 : -1;
}

/* gzip: inflated with zlib from the payload into out. */
static int inflate_gzip(int fd, off_t at, int out)
{
	if (lseek(fd, at, SEEK_SET) < 0)
		return -1;
	int dupfd = dup(fd);
	gzFile z = dupfd < 0 ? NULL : gzdopen(dupfd, "rb");
	if (!z) {
		if (dupfd >= 0)
			close(dupfd);
		return -1;
	}
	char buf[65536];
	int n, rc = 0;
	while ((n = gzread(z, buf, sizeof(buf))) > 0 && rc == 0)
		rc = write(out, buf, (size_t)n) == n ? 0 : -1;
	gzclose(z);
	return n < 0 ? -1 : rc;
}

/* xz: `xz -dc --single-stream` (the bzImage's own format, Debian's choice) from the payload into out. */
static int inflate_xz(int fd, off_t at, int out)
{
	if (lseek(fd, at, SEEK_SET) < 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (dup2(fd, 0) < 0 || dup2(out, 1) < 0 || devnull < 0 || dup2(devnull, 2) < 0)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		execlp("xz", "xz", "-dc", "--single-stream", (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int vm_elf_has_pvh(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	Elf64_Ehdr h;
	int found = 0;
	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || memcmp(h.e_ident, ELFMAG, SELFMAG) != 0 ||
	    h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_phentsize != sizeof(Elf64_Phdr))
		h.e_phnum = 0;
	for (unsigned i = 0; i < h.e_phnum && !found; i++) {
		Elf64_Phdr ph;
		if (pread(fd, &ph, sizeof(ph), (off_t)(h.e_phoff + i * sizeof(ph))) != (ssize_t)sizeof(ph) ||
		    ph.p_type != PT_NOTE || ph.p_filesz > (1u << 20))
			continue;
		char *notes = xmalloc(ph.p_filesz + 1);
		if (pread(fd, notes, ph.p_filesz, (off_t)ph.p_offset) == (ssize_t)ph.p_filesz)
			for (size_t o = 0; o + sizeof(Elf64_Nhdr) <= ph.p_filesz && !found;) {
				Elf64_Nhdr nh;
				memcpy(&nh, notes + o, sizeof(nh));
				size_t name = o + sizeof(nh), desc = name + ((nh.n_namesz + 3) & ~3u);
				found = nh.n_type == XEN_ELFNOTE_PHYS32_ENTRY && nh.n_namesz == 4 && name + 4 <= ph.p_filesz &&
					memcmp(notes + name, "Xen", 4) == 0;
				o = desc + ((nh.n_descsz + 3) & ~3u);
			}
		free(notes);
	}
	close(fd);
	return found;
}

/* The payload inflated into path (written beside it and renamed into place): 0, or -1. */
static int extract(const char *image, const char *path)
{
	int fd = open(image, O_RDONLY | O_CLOEXEC);
	off_t at;
	size_t len;
	unsigned char magic[6];
	if (fd < 0)
		return -1;
	int rc = payload_of(fd, &at, &len) == 0 && pread(fd, magic, 6, at) == 6 ? 0 : -1;
	char *tmp = vm_cache_tmp(path);
	int out = rc == 0 ? vm_cache_tmp_open(tmp) : -1;
	if (out >= 0) {
		if (magic[0] == 0x1f && magic[1] == 0x8b)
			rc = inflate_gzip(fd, at, out);
		else if (memcmp(magic, "\xfd" "7zXZ", 6) == 0)
			rc = inflate_xz(fd, at, out);
		else
			rc = -1; /* another compression: the bzImage boots as it is */
		if (close(out) < 0)
			rc = -1;
		if (rc == 0 && (!vm_elf_has_pvh(tmp) || rename(tmp, path) < 0))
			rc = -1;
		if (rc < 0)
			unlink(tmp);
	} else {
		rc = -1;
	}
	close(fd);
	free(tmp);
	return rc;
}

char *vm_pvh_kernel(const struct vm_kernel *k, const char *cache_dir)
{
	char *path = xasprintf("%s/vmlinux-%s-%.16s", cache_dir, k->release, k->sha256);
	if (access(path, R_OK) == 0 || extract(k->image, path) == 0)
		return path;
	free(path);
	return NULL;
}
