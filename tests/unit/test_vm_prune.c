/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The vm cache kept to the kernels used last: the oldest of each kind go, never one in use, never a
 * file of another name. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "util/util.h"
#include "vm/vm.h"

static char dir[] = "/tmp/reaim-test-prune.XXXXXX";

/* A cache file named name, last used `age` seconds ago. */
static char *put(const char *name, long age)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	struct timespec t[2];
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= age;
	t[1] = t[0];
	utimensat(AT_FDCWD, path, t, 0);
	return path;
}

static int there(const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int yes = access(path, F_OK) == 0;
	free(path);
	return yes;
}

static char *vmlinux(int i)
{
	return xasprintf("vmlinux-6.1.0-%d-amd64-%016x", i, i);
}

static void clear(void)
{
	char *cmd = xasprintf("rm -rf %s/*", dir);
	if (system(cmd) != 0)
		printf("# cannot empty %s\n", dir);
	free(cmd);
}

/* Ten kernels, the keep newest stay, whichever kind. */
static void keeps_the_newest(void)
{
	for (int i = 0; i < 10; i++) {
		char *v = vmlinux(i), *r = xasprintf("initramfs-6.1.0-%d-amd64-%016x.cpio.gz", i, i);
		free(put(v, 1000 - i * 10));
		free(put(r, 1000 - i * 10));
		free(v);
		free(r);
	}
	is_int((long long)vm_prune_cache(dir, NULL, 0, 4), 12, "6 of each kind removed");
	int kept = 1, gone = 1;
	for (int i = 0; i < 10; i++) {
		char *v = vmlinux(i), *r = xasprintf("initramfs-6.1.0-%d-amd64-%016x.cpio.gz", i, i);
		kept &= i < 6 || (there(v) && there(r));
		gone &= i >= 6 || (!there(v) && !there(r));
		free(v);
		free(r);
	}
	ok(kept && gone, "the 4 used last are kept, the older removed");
	clear();
}

/* The files this command uses are marked used now and kept, however old, even past keep. */
static void never_one_in_use(void)
{
	char *old = put("vmlinux-6.1.0-1-amd64-00000000000000aa", 100000);
	char *older = put("initramfs-6.1.0-1-amd64-00000000000000aa.cpio.gz", 200000);
	char *other = put("initramfs-6.1.0-9-amd64-00000000000000cc.cpio.gz", 10);
	char *use[] = {NULL, old, "/elsewhere/vmlinux-6.1.0-2-amd64-00000000000000bb", older};
	for (int i = 2; i < 5; i++) {
		char *v = vmlinux(i);
		free(put(v, 10));
		free(v);
	}
	is_int((long long)vm_prune_cache(dir, use, 4, 0), 4, "the 4 not in use removed, with none to keep");
	struct stat sb;
	ok(stat(old, &sb) == 0 && sb.st_mtime >= time(NULL) - 60 && stat(older, &sb) == 0,
	   "those in use are kept and marked used now");
	ok(access(other, F_OK) < 0, "an initramfs not in use goes");
	free(old);
	free(older);
	free(other);
	clear();
}

/* A file another live reaim vm holds (vm_cache_hold) stays, past keep and not in this one's use; let
 * go, it goes. A file pruned before the hold took: no hold. */
static void never_one_held(void)
{
	char *held = put("initramfs-6.1.0-1-amd64-00000000000000aa.cpio.gz", 100000);
	char *free_one = put("initramfs-6.1.0-2-amd64-00000000000000bb.cpio.gz", 100000);
	int fd = vm_cache_hold(held);
	ok(fd >= 0, "held");
	is_int((long long)vm_prune_cache(dir, NULL, 0, 0), 1, "only the one not held removed");
	ok(there("initramfs-6.1.0-1-amd64-00000000000000aa.cpio.gz"), "the held one is kept");
	if (fd >= 0)
		close(fd);
	is_int((long long)vm_prune_cache(dir, NULL, 0, 0), 1, "let go, it is removed");
	ok(vm_cache_hold(held) == -1, "a file gone: no hold");
	free(held);
	free(free_one);
	clear();
}

/* Names no cache writer gives: a user's file, one being written, another key length. */
static void only_its_own_names(void)
{
	const char *foreign[] = {"vmlinux-mine", "vmlinux-6.1-00000000000000zz", "vmlinux-6.1-00000000000000aa.tmp-12-abcdef",
				 "initramfs-6.1-00000000000000aa.img", "vmlinux-6.1-0000000000000aaa0", "notes"};
	for (size_t i = 0; i < ARRAY_SIZE(foreign); i++)
		free(put(foreign[i], 5000));
	is_int((long long)vm_prune_cache(dir, NULL, 0, 0), 0, "nothing removed, even with nothing to keep");
	int all = 1;
	for (size_t i = 0; i < ARRAY_SIZE(foreign); i++)
		all &= there(foreign[i]);
	ok(all, "every file of another name is still there");
	clear();
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("Bail out! cannot make %s\n", dir);
		return 1;
	}
	tap_case(keeps_the_newest);
	tap_case(never_one_in_use);
	tap_case(never_one_held);
	tap_case(only_its_own_names);
	rmdir(dir);
	return done_testing();
}
