/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the KVM probe found, remembered for the rest of the host's boot: a probe costs a guest's boot
 * (20 s where KVM hangs), and its answer holds until the host reboots or QEMU is replaced. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/vm.h"

/* The file in the cache: one line per key, "KEY\tkvm|tcg\tWHAT HAPPENED". */
#define ACCEL_FILE "accel"

const char *vm_kvm_device(void)
{
	const char *d = getenv("REAIM_KVM_DEVICE");
	return d && *d ? d : "/dev/kvm";
}

char *vm_accel_key(const char *qemu, const char *device)
{
	char *boot = read_text_file("/proc/sys/kernel/random/boot_id", 128);
	struct stat sb;
	if (!boot || stat(qemu, &sb) < 0) {
		free(boot);
		return NULL;
	}
	boot[strcspn(boot, "\n")] = '\0';
	/* tabs and newlines would end the key: a path holding one is never remembered */
	char *key = strpbrk(qemu, "\t\n") || strpbrk(device, "\t\n")
			    ? NULL
			    : xasprintf("%s %s@%lld.%09ld %s", boot, qemu, (long long)sb.st_mtim.tv_sec,
					sb.st_mtim.tv_nsec, device);
	free(boot);
	return key;
}

/* The line of the file for key, or NULL. */
static char *find_line(char *text, const char *key)
{
	size_t kl = strlen(key);
	for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, key, kl) == 0 && l[kl] == '\t')
			return l;
	return NULL;
}

int vm_accel_recall(const char *cache_dir, const char *key, char *what, size_t len)
{
	char *path = xasprintf("%s/" ACCEL_FILE, cache_dir), *text = read_text_file(path, 65536);
	free(path);
	char *l = text ? find_line(text, key) : NULL;
	int kvm = -1;
	if (l) {
		char *res = l + strlen(key) + 1, *tab = strchr(res, '\t'), *nl = strchr(res, '\n');
		if (tab && (!nl || tab < nl)) {
			kvm = strncmp(res, "kvm\t", 4) == 0 ? 1 : strncmp(res, "tcg\t", 4) == 0 ? 0 : -1;
			snprintf(what, len, "%.*s", (int)(nl ? nl - tab - 1 : (long)strlen(tab + 1)), tab + 1);
		}
	}
	free(text);
	return kvm;
}

void vm_accel_remember(const char *cache_dir, const char *key, int kvm, const char *what)
{
	char *path = xasprintf("%s/" ACCEL_FILE, cache_dir), *tmp = vm_cache_tmp(path);
	char *old = read_text_file(path, 65536), err[512];
	struct strbuf sb = {0};
	strbuf_addf(&sb, "%s\t%s\t", key, kvm ? "kvm" : "tcg");
	for (const char *c = what; *c; c++)
		strbuf_addf(&sb, "%c", *c == '\t' || *c == '\n' ? ' ' : *c);
	strbuf_addf(&sb, "\n");
	/* the other keys of this host boot stay (another QEMU, another device); an earlier boot's go */
	size_t boot_len = strcspn(key, " ");
	for (char *l = old, *nl; l && *l; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		if (strncmp(l, key, boot_len) == 0 && l[boot_len] == ' ' && !(strncmp(l, key, strlen(key)) == 0 &&
									      l[strlen(key)] == '\t'))
			strbuf_addf(&sb, "%.*s\n", (int)n, l);
	}
	int fd = vm_cache_tmp_open(tmp), ok = fd >= 0;
	ok = ok && write(fd, sb.buf, sb.len) == (ssize_t)sb.len;
	if (fd >= 0 && close(fd) < 0)
		ok = 0;
	ok = ok && rename(tmp, path) == 0;
	if (!ok) {
		snprintf(err, sizeof(err), "%s", strerror(errno));
		log_warn("cannot remember the KVM probe's answer in %s: %s", path, err);
		if (fd >= 0)
			unlink(tmp);
	}
	strbuf_free(&sb);
	free(old);
	free(tmp);
	free(path);
}
