/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest's initramfs: a static busybox, an init script and the kernel's own modules for virtio
 * and 9p (a distribution kernel has them as modules), as a gzipped newc cpio cached per kernel. */
#include "config.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "vm/vm.h"

/* The guest's first process. It loads the modules, mounts the results share and runs the boot's
 * script from it (written by the host for each boot), so one initramfs serves every boot of a
 * kernel; whatever happens, it powers off (panic=-1 turns a panic into an exit too). */
const char vm_init_script[] =
	"#!/bin/busybox sh\n"
	"# reaim vm: the guest's first process\n"
	"/bin/busybox --install -s /bin\n"
	"export PATH=/bin\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs devtmpfs /dev\n"
	"for m in /lib/modules/*.ko; do\n"
	"\t[ -e \"$m\" ] || continue\n"
	"\tinsmod \"$m\" || echo \"reaim-vm: insmod $m failed\"\n"
	"done\n"
	"if mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 reaimout /out; then\n"
	"\t. /out/boot.sh\n"
	"else\n"
	"\techo \"reaim-vm: cannot mount the results share\"\n"
	"fi\n"
	"sync\n"
	"echo \"reaim-vm: powering off\"\n"
	"poweroff -f\n"
	"sleep 5\n";

/* What the guest loads: virtio over PCI, then 9p (the shares), and the block and ext4 drivers for a
 * root image; with what these depend on. */
static const char *const host_root_modules[] = {"virtio_pci", "9pnet_virtio", "9p"};
static const char *const image_root_modules[] = {"virtio_pci", "9pnet_virtio", "9p", "virtio_blk",
						 "crc32c_generic", "ext4"};

void vm_find_modules(struct vm_kernel *k)
{
	char *dir = xstrdup(k->image);
	char *slash = strrchr(dir, '/');
	const char *base = slash ? (*slash = '\0', dir) : ".";
	char *cand[] = {
		xasprintf("%s/../lib/modules/%s", base, k->release),
		xasprintf("%s/lib/modules/%s", base, k->release),
		xasprintf("/lib/modules/%s", k->release),
	};
	for (size_t i = 0; i < ARRAY_SIZE(cand); i++) {
		struct stat sb;
		if (!k->modules && stat(cand[i], &sb) == 0 && S_ISDIR(sb.st_mode))
			k->modules = realpath(cand[i], NULL);
		free(cand[i]);
	}
	free(dir);
}

/* A module's name from its file name: "9pnet_virtio.ko" -> "9pnet_virtio", '-' as '_'. */
static char *module_name(const char *file)
{
	const char *dot = strstr(file, ".ko");
	if (!dot || strcmp(dot, ".ko") != 0)
		return NULL; /* compressed modules (.ko.xz, .ko.zst) are not read */
	char *n = xasprintf("%.*s", (int)(dot - file), file);
	for (char *p = n; *p; p++)
		if (*p == '-')
			*p = '_';
	return n;
}

struct modmap {
	char **name, **path;
	size_t n;
};

/* Every .ko under dir, by name. */
static void map_modules(const char *dir, struct modmap *m, int depth)
{
	DIR *d = depth < 12 ? opendir(dir) : NULL;
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		struct stat sb;
		char *name;
		if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			map_modules(p, m, depth + 1);
		} else if (S_ISREG(sb.st_mode) && (name = module_name(e->d_name))) {
			m->name = xrealloc(m->name, (m->n + 1) * sizeof(*m->name));
			m->path = xrealloc(m->path, (m->n + 1) * sizeof(*m->path));
			m->name[m->n] = name;
			m->path[m->n++] = p;
			continue;
		}
		free(p);
	}
	closedir(d);
}

/* The "depends=" of a module's .modinfo: the strings there are NUL-separated key=value. */
static char *module_depends(const char *path)
{
	char *bytes;
	size_t n;
	FILE *f = fopen(path, "rbe");
	if (!f)
		return NULL;
	struct strbuf sb = {0};
	char chunk[65536];
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		strbuf_add(&sb, chunk, n);
	fclose(f);
	bytes = sb.buf;
	char *dep = NULL;
	for (size_t i = 0; bytes && i + 9 < sb.len && !dep; i++)
		if (bytes[i] == '\0' && memcmp(bytes + i + 1, "depends=", 8) == 0)
			dep = xstrdup(bytes + i + 9);
	strbuf_free(&sb);
	return dep;
}

/* Add name and, first, what it depends on, to the load order (each once). */
static int add_module(const struct modmap *m, const char *name, char ***out, size_t *nout, int depth)
{
	size_t i = 0;
	while (i < m->n && strcmp(m->name[i], name) != 0)
		i++;
	if (i == m->n || depth > 32)
		return 0; /* built in, or a loop in broken metadata */
	for (size_t j = 0; j < *nout; j++)
		if (strcmp((*out)[j], m->path[i]) == 0)
			return 0;
	char *deps = module_depends(m->path[i]);
	for (char *save = NULL, *d = deps ? strtok_r(deps, ",", &save) : NULL; d; d = strtok_r(NULL, ",", &save)) {
		for (char *p = d; *p; p++)
			if (*p == '-')
				*p = '_';
		add_module(m, d, out, nout, depth + 1);
	}
	free(deps);
	*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
	(*out)[(*nout)++] = xstrdup(m->path[i]);
	return 0;
}

int vm_module_order(const char *dir, const char *const *names, size_t n, char ***paths, size_t *npaths,
		    char *err, size_t errlen)
{
	struct modmap m = {0};
	*paths = NULL;
	*npaths = 0;
	map_modules(dir, &m, 0);
	if (m.n == 0) {
		set_err(err, errlen, "no kernel modules (.ko) under %s", dir);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		add_module(&m, names[i], paths, npaths, 0);
	for (size_t i = 0; i < m.n; i++) {
		free(m.name[i]);
		free(m.path[i]);
	}
	free(m.name);
	free(m.path);
	return 0;
}

/* 1 when path is an ELF program that needs no interpreter (statically linked). */
static int static_elf(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	Elf64_Ehdr h;
	int ok = read(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) && memcmp(h.e_ident, ELFMAG, SELFMAG) == 0 &&
		 h.e_ident[EI_CLASS] == ELFCLASS64 && h.e_phentsize == sizeof(Elf64_Phdr);
	for (unsigned i = 0; ok && i < h.e_phnum; i++) {
		Elf64_Phdr ph;
		if (pread(fd, &ph, sizeof(ph), (off_t)(h.e_phoff + i * sizeof(ph))) != (ssize_t)sizeof(ph) ||
		    ph.p_type == PT_INTERP)
			ok = 0;
	}
	close(fd);
	return ok;
}

char *vm_busybox(char *err, size_t errlen)
{
	const char *env = getenv("REAIM_BUSYBOX");
	const char *cand[] = {env && *env ? env : "/bin/busybox", "/usr/bin/busybox"};
	for (size_t i = 0; i < (env && *env ? 1u : ARRAY_SIZE(cand)); i++) {
		if (access(cand[i], X_OK) != 0)
			continue;
		if (static_elf(cand[i]))
			return xstrdup(cand[i]);
		set_err(err, errlen, "%s is not a statically linked program: the guest's initramfs needs "
				     "busybox-static (apt-get install busybox-static)", cand[i]);
		return NULL;
	}
	set_err(err, errlen, "no busybox for the guest's initramfs: apt-get install busybox-static");
	return NULL;
}

/* One newc cpio entry; data may be NULL for a directory or a device. */
static int cpio_entry(gzFile z, const char *name, unsigned mode, unsigned rmajor, unsigned rminor, const void *data,
		      size_t size)
{
	static unsigned ino = 1;
	static const char zeros[4];
	size_t nlen = strlen(name) + 1;
	char hdr[111];
	snprintf(hdr, sizeof(hdr), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", ino++, mode, 0u, 0u,
		 S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned)size, 0u, 0u, rmajor, rminor, (unsigned)nlen, 0u);
	size_t head = 110 + nlen;
	if (gzwrite(z, hdr, 110) != 110 || gzwrite(z, name, (unsigned)nlen) != (int)nlen ||
	    gzwrite(z, zeros, (unsigned)((4 - head % 4) % 4)) < 0)
		return -1;
	if (size && (gzwrite(z, data, (unsigned)size) != (int)size || gzwrite(z, zeros, (unsigned)((4 - size % 4) % 4)) < 0))
		return -1;
	return 0;
}

/* A file's bytes into an entry. */
static int cpio_file(gzFile z, const char *name, unsigned mode, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rbe");
	if (!f) {
		set_err(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	struct strbuf sb = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		strbuf_add(&sb, chunk, n);
	int bad = ferror(f);
	fclose(f);
	int rc = bad ? -1 : cpio_entry(z, name, mode, 0, 0, sb.buf, sb.len);
	if (rc < 0)
		set_err(err, errlen, "cannot copy %s into the initramfs", path);
	strbuf_free(&sb);
	return rc;
}

/* The whole archive into z. */
static int cpio_write(gzFile z, const char *busybox, char *const *mods, size_t nmods, char *err, size_t errlen)
{
	static const char *const dirs[] = {"bin", "dev", "proc", "sys", "lib", "lib/modules", "newroot", "out"};
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (cpio_entry(z, dirs[i], S_IFDIR | 0755, 0, 0, NULL, 0) < 0)
			goto bad;
	/* the kernel opens /dev/console for init before devtmpfs is mounted */
	if (cpio_entry(z, "dev/console", S_IFCHR | 0600, 5, 1, NULL, 0) < 0 ||
	    cpio_entry(z, "init", S_IFREG | 0755, 0, 0, vm_init_script, strlen(vm_init_script)) < 0)
		goto bad;
	if (cpio_file(z, "bin/busybox", S_IFREG | 0755, busybox, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < nmods; i++) {
		const char *base = strrchr(mods[i], '/');
		char *name = xasprintf("lib/modules/%03zu-%s", i, base ? base + 1 : mods[i]);
		int rc = cpio_file(z, name, S_IFREG | 0644, mods[i], err, errlen);
		free(name);
		if (rc < 0)
			return -1;
	}
	if (cpio_entry(z, "TRAILER!!!", 0, 0, 0, NULL, 0) < 0)
		goto bad;
	return 0;
bad:
	set_err(err, errlen, "cannot write the initramfs");
	return -1;
}

/* The cache key: the kernel, the init script, busybox and the modules taken. */
static void initramfs_key(const struct vm_kernel *k, int image_root, const char *busybox, char *const *mods,
			  size_t nmods, char key[SHA256_HEX_LEN + 1])
{
	char bb[SHA256_HEX_LEN + 1] = "";
	if (sha256_file(busybox, bb) < 0)
		bb[0] = '\0';
	struct sha256 s;
	sha256_init(&s);
	sha256_add(&s, k->sha256, strlen(k->sha256));
	sha256_add(&s, image_root ? "image" : "host", image_root ? 5 : 4);
	sha256_add(&s, vm_init_script, strlen(vm_init_script));
	sha256_add(&s, bb, strlen(bb));
	for (size_t i = 0; i < nmods; i++)
		sha256_add(&s, mods[i], strlen(mods[i]) + 1);
	sha256_hex(&s, key);
}

char *vm_initramfs(const struct vm_kernel *k, int image_root, const char *busybox, const char *cache_dir,
		   char *err, size_t errlen)
{
	char **mods = NULL;
	size_t nmods = 0;
	const char *const *want = image_root ? image_root_modules : host_root_modules;
	size_t nwant = image_root ? ARRAY_SIZE(image_root_modules) : ARRAY_SIZE(host_root_modules);
	if (k->modules && vm_module_order(k->modules, want, nwant, &mods, &nmods, err, errlen) < 0)
		return NULL;
	char key[SHA256_HEX_LEN + 1];
	initramfs_key(k, image_root, busybox, mods, nmods, key);
	char *path = xasprintf("%s/initramfs-%s-%.16s.cpio.gz", cache_dir, k->release, key);
	char *tmp = NULL;
	if (access(path, R_OK) == 0)
		goto done;
	tmp = vm_cache_tmp(path);
	int fd = vm_cache_tmp_open(tmp);
	gzFile z = fd < 0 ? NULL : gzdopen(fd, "wb6");
	if (!z) {
		set_err(err, errlen, "cannot write an initramfs in %s: %s", cache_dir, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(path);
		path = NULL;
		goto done;
	}
	int rc = cpio_write(z, busybox, mods, nmods, err, errlen);
	if (gzclose(z) != Z_OK && rc == 0) {
		set_err(err, errlen, "cannot write the initramfs %s", tmp);
		rc = -1;
	}
	if (rc == 0 && rename(tmp, path) < 0) {
		set_err(err, errlen, "cannot rename %s into place: %s", tmp, strerror(errno));
		rc = -1;
	}
	if (rc < 0) {
		unlink(tmp);
		free(path);
		path = NULL;
	}
done:
	free(tmp);
	for (size_t i = 0; i < nmods; i++)
		free(mods[i]);
	free(mods);
	return path;
}
