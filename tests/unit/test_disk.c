/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the disk tests against their definitions: the bytes each call reads and writes
 * (from /proc/self/io), and the O_SYNC toggle as the kernel reports it (/proc/self/fdinfo). */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "catalog/catalog.h"
#include "util/util.h"

static char dir[] = "/var/tmp/reaim-disk-XXXXXX";
static struct test_ctx ctx;

struct io { long long rchar, wchar; };

/* rchar and wchar of this process, less what reading /proc/self/io itself added. */
static struct io io_now(void)
{
	static long long self_read;
	char buf[512];
	int fd = open("/proc/self/io", O_RDONLY);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	struct io v = {0, 0};
	char *r = strstr(buf, "rchar:"), *w = strstr(buf, "wchar:");
	if (r)
		v.rchar = atoll(r + 6);
	if (w)
		v.wchar = atoll(w + 6);
	v.rchar -= self_read;
	self_read += n > 0 ? n : 0;
	return v;
}

static void lay_out_source(long long kib)
{
	ctx.source = xasprintf("%s/source", dir);
	int fd = open(ctx.source, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	char block[1024];
	memset(block, 'x', sizeof(block));
	for (long long i = 0; i < kib; i++)
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			break;
	close(fd);
}

/* expected KiB read and written by one call, for n = ctx.file_kib */
struct expect { const char *name; double read_n, write_n; };
static const struct expect expected[] = {
	{"disk_rr", 1, 1},       {"disk_rw", 0, 2},        {"disk_rd", 1, 1},      {"disk_wrt", 0, 1},
	{"disk_cp", 1, 1},       {"disk_brr", 1, 1},       {"disk_brw", 0, 2},     {"disk_brd", 1, 0},
	{"disk_bwrt", 0, 1},     {"disk_bcp", 1, 1},       {"sync_disk_wrt", 0, 0.5},
	{"sync_disk_rw", 0, 1},  {"sync_disk_cp", 0.5, 0.5}, {"sync_disk_update", 0.5, 1.5},
	{"disk_dio_rr", 1, 1},   {"disk_dio_rw", 0, 2},    {"disk_dio_rd", 1, 0},  {"disk_dio_wrt", 0, 1},
	{"disk_dio_cp", 1, 1},
};

static void bytes_per_call(long long n)
{
	ctx.file_kib = n;
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		const struct test_def *t = test_find(expected[i].name);
		struct io a = io_now();
		enum test_status r = t->run(&ctx, t);
		struct io b = io_now();
		long long want_r = (long long)(expected[i].read_n * (double)n * 1024);
		long long want_w = (long long)(expected[i].write_n * (double)n * 1024);
		char what[160];
		snprintf(what, sizeof(what), "%s, n = %lld KiB: read %lld B, wrote %lld B", t->name, n,
			 b.rchar - a.rchar, b.wchar - a.wchar);
		if (r == TEST_SKIP) {
			skip(t->name, ctx.why);
			continue;
		}
		ok(r == TEST_OK && b.rchar - a.rchar == want_r && b.wchar - a.wchar == want_w, what);
	}
}

/* ---- O_SYNC as the kernel sees it ---- */

static volatile int polling;
static volatile int seen_open, seen_osync;

/* Look for an fd open on a file in the scratch dir and read its flags from fdinfo. */
static void *poll_fds(void *arg)
{
	(void)arg;
	while (polling) {
		DIR *d = opendir("/proc/self/fd");
		struct dirent *e;
		while (d && (e = readdir(d)) != NULL) {
			char link[512], target[512], info[600];
			snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
			ssize_t n = readlink(link, target, sizeof(target) - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			if (strncmp(target, dir, strlen(dir)) != 0 || strstr(target, "source") || !strstr(target, "sync"))
				continue;
			snprintf(info, sizeof(info), "/proc/self/fdinfo/%s", e->d_name);
			char *text = read_text_file(info, 4096);
			char *flags = text ? strstr(text, "flags:") : NULL;
			if (flags) {
				long f = strtol(flags + 6, NULL, 8);
				seen_open = 1;
				seen_osync = (f & O_SYNC) == O_SYNC;
			}
			free(text);
		}
		if (d)
			closedir(d);
	}
	return NULL;
}

static int osync_seen(const char *test, int osync, long long n)
{
	ctx.osync = osync;
	ctx.file_kib = n;
	for (int attempt = 0; attempt < 50; attempt++) {
		pthread_t th;
		seen_open = seen_osync = 0;
		polling = 1;
		pthread_create(&th, NULL, poll_fds, NULL);
		enum test_status r = test_find(test)->run(&ctx, test_find(test));
		polling = 0;
		pthread_join(th, NULL);
		if (r != TEST_OK)
			return -1;
		if (seen_open)
			return seen_osync;
	}
	return -1;
}

/* The written data is the pattern, byte for byte, at any buffer size. */
static void fill_pattern(long long n)
{
	static const char pattern[] = "reaim disk data\n";
	char *buf = calloc((size_t)n + 1, 1), *want = calloc((size_t)n + 1, 1);
	for (long long i = 0; i < n; i++)
		want[i] = pattern[i % (long long)(sizeof(pattern) - 1)];
	buf[n] = 'X';
	test_disk_fill(buf, (size_t)n);
	ok(memcmp(buf, want, (size_t)n) == 0 && buf[n] == 'X', "the pattern, byte for byte, nothing past it");
	free(buf);
	free(want);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	ctx.scratch = dir;
	ctx.scratch_fd = open(dir, O_RDONLY | O_DIRECTORY);
	ctx.rng = 7;
	ctx.osync = 1;
	ctx.sync_mode = SYNC_FSYNC;
	ctx.dio_align = 4096;
	lay_out_source(1024);

	static const long long fill_sizes[] = {1, 15, 16, 17, 1000, 1024, 4096};
	for (size_t i = 0; i < sizeof(fill_sizes) / sizeof(fill_sizes[0]); i++)
		tap_case(fill_pattern, fill_sizes[i]);
	tap_case(bytes_per_call, 64);
	tap_case(bytes_per_call, 1000);
	ctx.sync_mode = SYNC_NONE;
	tap_case(bytes_per_call, 20);
	/* classic's machine-wide sync points: two tests only, a sync() can be slow on a busy box */
	ctx.sync_mode = SYNC_GLOBAL;
	ctx.file_kib = 8;
	ok(test_find("disk_rr")->run(&ctx, test_find("disk_rr")) == TEST_OK, "disk_rr with global sync points");
	ok(test_find("disk_cp")->run(&ctx, test_find("disk_cp")) == TEST_OK, "disk_cp with global sync points");
	ctx.sync_mode = SYNC_FSYNC;

	/* one body for every disk test, its flags in one place: the row */
	const struct test_family *fam = test_family_struct_of(test_find("disk_rr"));
	int one_body = 1, source_agrees = 1;
	for (size_t i = 0; i < fam->count; i++) {
		const struct test_def *t = &fam->tests[i];
		one_body &= t->run == fam->tests[0].run && t->param != NULL;
		if (test_disk_reads_source(t) != !!(t->flags & TF_SOURCE)) {
			printf("# %s: TF_SOURCE disagrees with its pattern\n", t->name);
			source_agrees = 0;
		}
	}
	ok(one_body, "every disk test is the one body with its pattern as param");
	ok(source_agrees, "TF_SOURCE is set exactly on the rows whose pattern reads the source");
	is_int(test_disk_reads_source(test_find("sieve")), -1, "a row of another family is not a disk row");

	is_int(osync_seen("sync_disk_wrt", 1, 256), 1, "osync on: sync_disk_wrt's file is open with O_SYNC");
	is_int(osync_seen("sync_disk_wrt", 0, 8192), 0, "osync off: opened without O_SYNC");
	is_int(osync_seen("sync_disk_update", 1, 256), 1, "osync on: sync_disk_update uses O_SYNC");
	is_int(osync_seen("sync_disk_update", 0, 8192), 0, "osync off: sync_disk_update without O_SYNC");

	/* link_test walks classic's absolute paths under the scratch dir (this process works
	 * elsewhere), never names relative to the dir's fd */
	int scratch_fd = ctx.scratch_fd;
	ctx.scratch_fd = -1;
	ok(test_find("link_test")->run(&ctx, test_find("link_test")) == TEST_OK,
	   "link_test by absolute paths, without the scratch dir's fd");
	ctx.scratch_fd = scratch_fd;

	close(ctx.scratch_fd);
	unlink(ctx.source);
	free((char *)ctx.source);
	ok(rmdir(dir) == 0, "scratch left empty by every call");
	return done_testing();
}
