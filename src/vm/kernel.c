/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A --kernel NAME=IMAGE[:CMDLINE] parsed and checked: the name, the image (an x86 boot image, its
 * release and checksum) and the command line it adds. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/vm.h"

/* The x86 boot protocol's header: "HdrS" at 0x202, the version string's offset (less 0x200) at 0x20e. */
#define HDR_MAGIC_AT 0x202
#define HDR_VERSION_AT 0x20e
#define HDR_BASE 0x200

static int pread_all(int fd, void *buf, size_t n, off_t at)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(fd, (char *)buf + got, n - got, at + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

int vm_image_release(const char *image, char *release, size_t len, char *err, size_t errlen)
{
	/* O_NONBLOCK: a FIFO is refused by fstat below, never waited on for a writer */
	int fd = open(image, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		set_err(err, errlen, "cannot open kernel image %s: %s", image, strerror(errno));
		return -1;
	}
	struct stat sb;
	char magic[4];
	unsigned char off[2];
	char text[128] = "";
	int rc = -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		set_err(err, errlen, "kernel image %s is not a regular file", image);
	else if (pread_all(fd, magic, sizeof(magic), HDR_MAGIC_AT) < 0 || memcmp(magic, "HdrS", 4) != 0)
		set_err(err, errlen, "%s is not a kernel image: no \"HdrS\" boot header at 0x202 (give a bzImage "
				     "or vmlinuz, not vmlinux)", image);
	else if (pread_all(fd, off, sizeof(off), HDR_VERSION_AT) < 0)
		set_err(err, errlen, "%s: the boot header is cut short", image);
	else {
		off_t at = HDR_BASE + (off_t)(off[0] | off[1] << 8);
		ssize_t n = at + 1 < sb.st_size ? pread(fd, text, sizeof(text) - 1, at) : -1;
		text[n > 0 ? n : 0] = '\0';
		size_t w = strcspn(text, " \t\n");
		/* an image without a version string (an old protocol) is still a kernel */
		snprintf(release, len, "%.*s", (int)w, w ? text : "unknown");
		for (char *p = release; *p; p++)
			if (*p < 0x21 || *p > 0x7e)
				*p = '?';
		rc = 0;
	}
	close(fd);
	return rc;
}

/* A name a label can be and a shell word needs no quotes for. */
static int name_ok(const char *s, size_t n)
{
	if (n == 0 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '.' || s[i] == '_' || s[i] == '-'))
			return 0;
	return 1;
}

/* What the kernel's command line may not hold: it is passed as one word, and the kernel does not
 * unquote words the way a shell does. */
static const char *cmdline_bad(const char *c)
{
	for (const unsigned char *p = (const unsigned char *)c; *p; p++) {
		if (*p == '"' || *p == '\'')
			return "a quote (the kernel splits its command line at blanks and does not unquote)";
		if (*p < 0x20 || *p == 0x7f)
			return "a control character";
	}
	return strlen(c) > 1024 ? "over 1024 characters" : NULL;
}

int vm_kernel_parse(const char *spec, struct vm_kernel *k, char *err, size_t errlen)
{
	memset(k, 0, sizeof(*k));
	const char *eq = strchr(spec, '=');
	if (!eq) {
		set_err(err, errlen, "--kernel %s: give NAME=IMAGE[:CMDLINE]", spec);
		return -1;
	}
	if (!name_ok(spec, (size_t)(eq - spec))) {
		set_err(err, errlen, "--kernel %s: the name '%.*s' must be 1 to 64 letters, digits, '.', '_' or '-'",
			spec, (int)(eq - spec), spec);
		return -1;
	}
	const char *img = eq + 1, *colon = strchr(img, ':');
	size_t ilen = colon ? (size_t)(colon - img) : strlen(img);
	if (ilen == 0) {
		set_err(err, errlen, "--kernel %s: no image after '='", spec);
		return -1;
	}
	const char *cmd = colon ? colon + 1 : "";
	const char *why = cmdline_bad(cmd);
	if (why) {
		set_err(err, errlen, "--kernel %s: the command line holds %s", spec, why);
		return -1;
	}
	k->name = xasprintf("%.*s", (int)(eq - spec), spec);
	k->image = xasprintf("%.*s", (int)ilen, img);
	k->cmdline = xstrdup(cmd);
	char why_img[512];
	if (vm_image_release(k->image, k->release, sizeof(k->release), why_img, sizeof(why_img)) < 0) {
		set_err(err, errlen, "--kernel %s: %s", spec, why_img);
		vm_kernel_free(k);
		return -1;
	}
	if (sha256_file(k->image, k->sha256) < 0) {
		set_err(err, errlen, "--kernel %s: cannot read %s: %s", spec, k->image, strerror(errno));
		vm_kernel_free(k);
		return -1;
	}
	return 0;
}

void vm_kernel_free(struct vm_kernel *k)
{
	free(k->name);
	free(k->image);
	free(k->cmdline);
	free(k->modules);
	memset(k, 0, sizeof(*k));
}
