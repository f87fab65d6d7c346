/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the utilities: number parsing at and past every edge, edit distance, text buffers,
 * user text validation and escaping, whole-file and input-file reads (special files refused,
 * never waited on), tree removal that never follows a symlink, SysV listing, the cgroup
 * finder, lock files, words and numbers read in place, and the environment fingerprint. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ipc.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/measure.h"
#include "tap.h"
#include "testfs.h"
#include "util/env.h"
#include "util/util.h"

static const char *env_get(const struct env_list *e, const char *key)
{
	for (size_t i = 0; i < e->count; i++)
		if (strcmp(e->items[i].key, key) == 0)
			return e->items[i].value;
	return NULL;
}

/* path_resolve: one name for a file however it is reached, the last name allowed to be missing. */
static void test_path_resolve(const char *tmp)
{
	char *real = realpath(tmp, NULL); /* /tmp may itself be a link */
	char *sub = xasprintf("%s/real", tmp), *file = xasprintf("%s/real/data.db", real);
	char *link = xasprintf("%s/link.db", tmp), *chain = xasprintf("%s/chain.db", tmp);
	char *dirlink = xasprintf("%s/dirlink", tmp), *loop = xasprintf("%s/loop", tmp);
	ok(mkdir(sub, 0700) == 0 && symlink("real/data.db", link) == 0 && symlink("link.db", chain) == 0 &&
	   symlink("real", dirlink) == 0 && symlink("loop", loop) == 0, "path_resolve: links made");
	char *r = path_resolve(link);
	is_str(r, file, "path_resolve: a link to a file not made yet names where it will be");
	free(r);
	r = path_resolve(chain);
	is_str(r, file, "path_resolve: a chain of links to it too");
	free(r);
	int fd = open(file, O_CREAT | O_WRONLY, 0600);
	ok(fd >= 0, "path_resolve: the file made");
	close(fd);
	char *viadir = xasprintf("%s/dirlink/../real/./data.db", tmp);
	r = path_resolve(viadir);
	is_str(r, file, "path_resolve: through a linked directory, .. and .");
	free(r);
	r = path_resolve(link);
	is_str(r, file, "path_resolve: the link, once the file is there");
	free(r);
	char *missing = xasprintf("%s/nodir/x.db", tmp);
	errno = 0;
	ok(path_resolve(missing) == NULL && errno == ENOENT, "path_resolve: a missing directory is ENOENT");
	errno = 0;
	ok(path_resolve(loop) == NULL && errno == ELOOP, "path_resolve: a loop of links is ELOOP");
	unlink(file);
	unlink(link);
	unlink(chain);
	unlink(dirlink);
	unlink(loop);
	rmdir(sub);
	free(viadir);
	free(missing);
	free(real);
	free(sub);
	free(file);
	free(link);
	free(chain);
	free(dirlink);
	free(loop);
}

/* A fake /sys with DAMON's admin tree and modules: what mm.damon says of it. */
static void test_damon(const char *tmp)
{
	char *sys = xasprintf("%s/sys", tmp);
	mkdir(sys, 0700);
	ok(env_damon(sys) == NULL, "damon: a kernel without it has no fact");
	test_put(sys, "kernel/mm/damon/admin/kdamonds/nr_kdamonds", "2\n");
	test_put(sys, "kernel/mm/damon/admin/kdamonds/0/state", "off\n");
	test_put(sys, "kernel/mm/damon/admin/kdamonds/1/state", "off\n");
	char *d = env_damon(sys);
	is_str(d, "off", "damon: present, nothing on");
	free(d);
	test_put(sys, "kernel/mm/damon/admin/kdamonds/1/state", "on\n");
	test_put(sys, "kernel/mm/damon/admin/kdamonds/1/contexts/nr_contexts", "1\n");
	test_put(sys, "kernel/mm/damon/admin/kdamonds/1/contexts/0/operations", "paddr\n");
	test_put(sys, "kernel/mm/damon/admin/kdamonds/1/contexts/0/schemes/nr_schemes", "2\n");
	test_put(sys, "kernel/mm/damon/admin/kdamonds/1/contexts/0/schemes/0/action", "pageout\n");
	test_put(sys, "kernel/mm/damon/admin/kdamonds/1/contexts/0/schemes/1/action", "lru_prio\n");
	test_put(sys, "module/damon_reclaim/parameters/enabled", "Y\n");
	test_put(sys, "module/damon_stat/parameters/enabled", "N\n");
	d = env_damon(sys);
	is_str(d, "kdamond 1 on (paddr: pageout, lru_prio); damon_reclaim on", "damon: what runs, how, and which module");
	free(d);
	char *cmd = xasprintf("rm -rf '%s'", sys);
	ok(system(cmd) == 0, "damon: fake tree removed");
	free(cmd);
	free(sys);
}

static void break_invariant(int x)
{
	BUG_ON(x == 2);
}
enum { break_invariant_line = __LINE__ - 2 };

/* A broken invariant names the file, the line and the condition on stderr and aborts (in a
 * child without a core); a kept one goes on, its condition evaluated once. */
static void test_bug_on(void)
{
	int fds[2], calls = 0;
	BUG_ON(++calls == 2);
	ok(calls == 1, "BUG_ON of a kept invariant goes on, its condition evaluated once");
	if (pipe(fds) < 0) {
		ok(0, "pipe for BUG_ON's child");
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit none = {0, 0};
		setrlimit(RLIMIT_CORE, &none);
		dup2(fds[1], STDERR_FILENO);
		break_invariant(2);
		_exit(0);
	}
	close(fds[1]);
	char out[512] = "";
	size_t len = 0;
	ssize_t r;
	while (pid > 0 && len < sizeof(out) - 1 && (r = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)r;
	out[len] = '\0';
	close(fds[0]);
	int st = 0;
	ok(pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
	   "BUG_ON of a broken invariant aborts");
	char want[128];
	snprintf(want, sizeof(want), "reaim: BUG at %s:%d: x == 2\n", __FILE__, break_invariant_line);
	is_str(out, want, "BUG_ON names the file, the line and the condition");
}

/* The one word wrap of log messages and the text views. */
static void test_text_wrap(void)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	text_wrap(m, "  one two three four", "> ", 9, 0);
	fclose(m);
	is_str(out, "one two\n> three\n> four", "broken at spaces within the width, each line led by the indent");
	free(out);
	m = open_memstream(&out, &len);
	text_wrap(m, "to /a/very/long/path/indeed", "  ", 20, 10);
	fclose(m);
	is_str(out, "to /a/very/long/path/indeed", "a long word stays beside what leads it before column keep");
	free(out);
	m = open_memstream(&out, &len);
	text_wrap(m, "a b c", "  ", 0, 0);
	fclose(m);
	is_str(out, "a b c", "width 0: never broken");
	free(out);
}

int main(void)
{
	tap_case(test_bug_on);
	tap_case(test_text_wrap);
	long long v;
	ok(parse_long("42", 0, 100, &v) == 0 && v == 42, "parse_long");
	ok(parse_long("101", 0, 100, &v) < 0, "parse_long above max");
	ok(parse_long(" 4", 0, 100, &v) < 0, "parse_long leading space");
	ok(parse_long("4x", 0, 100, &v) < 0, "parse_long trailing garbage");
	ok(parse_long("", 0, 100, &v) < 0, "parse_long empty");

	ok(parse_long("99999999999999999999", 0, INT64_MAX, &v) < 0, "parse_long past long long");
	ok(parse_long("-9223372036854775809", INT64_MIN, INT64_MAX, &v) < 0, "parse_long below long long");

	/* numbers from text: finite decimal only, within the bounds */
	double d;
	ok(parse_double("2.5", 0, 10, &d) == 0 && d == 2.5, "parse_double");
	ok(parse_double("1e3", 0, 1e6, &d) == 0 && d == 1000, "parse_double exponent");
	ok(parse_double("-0.5", -1, 1, &d) == 0 && d == -0.5, "parse_double negative");
	static const char *const not_numbers[] = {"inf", "-inf", "nan", "NaN", "infinity", "0x10", "0x1p3", "1e308e",
						  "1e999", "1e-400", "", " 1", "1 ", "1.5x", "+", ".", "-", "e5", "1e",
						  "--1", "1..2"};
	int refused = 1;
	for (size_t i = 0; i < ARRAY_SIZE(not_numbers); i++)
		if (parse_double(not_numbers[i], -1e308, 1e308, &d) == 0) {
			printf("# parse_double accepted '%s'\n", not_numbers[i]);
			refused = 0;
		}
	ok(refused, "parse_double refuses inf, nan, hex, overflow, underflow, blanks and junk");
	ok(parse_double("1e308", 0, 1e6, &d) < 0, "parse_double above max");
	ok(parse_double("-1", 0, 1e6, &d) < 0, "parse_double below min");
	ok(parse_seconds("90s", &d) == 0 && d == 90, "seconds");
	ok(parse_seconds("1.5m", &d) == 0 && d == 90, "minutes");
	ok(parse_seconds("2h", &d) == 0 && d == 7200, "hours");
	ok(parse_seconds("1d", &d) == 0 && d == 86400, "days");
	ok(parse_seconds("0", &d) == 0 && d == 0, "zero seconds");
	ok(parse_seconds("inf", &d) < 0 && parse_seconds("nan", &d) < 0 && parse_seconds("-1", &d) < 0,
	   "seconds refuse inf, nan and negatives");
	ok(parse_seconds("1e308h", &d) < 0, "seconds that overflow with their unit are refused");
	ok(parse_seconds("1e308", &d) == 0 && isfinite(d), "a huge but finite number is left for the range check");
	ok(parse_seconds("5x", &d) < 0 && parse_seconds("5 s", &d) < 0, "seconds refuse unknown units");

	/* user text */
	char why[256];
	ok(text_check("6.1-rc3 über", why, sizeof(why)) == 0, "UTF-8 text passes");
	ok(text_check("a\033[2Jb", why, sizeof(why)) < 0 && strstr(why, "control"), "an escape sequence is refused");
	ok(text_check("a\tb", why, sizeof(why)) < 0, "a tab is refused");
	ok(text_check("a\xc2\x9b" "b", why, sizeof(why)) < 0, "a C1 control (CSI as UTF-8) is refused");
	ok(text_check("a\xff" "b", why, sizeof(why)) < 0 && strstr(why, "UTF-8"), "invalid UTF-8 is refused");
	ok(text_check("\xc0\xaf", why, sizeof(why)) < 0, "an overlong form is refused");
	ok(text_check("\xed\xa0\x80", why, sizeof(why)) < 0, "a surrogate is refused");
	ok(text_check("\xf4\x90\x80\x80", why, sizeof(why)) < 0, "a code point past U+10FFFF is refused");
	ok(text_check("\xe2\x82", why, sizeof(why)) < 0, "a cut sequence is refused");
	char *esc = text_escape("a\033[2J\n\xff\xc2\x9b\x7f\t" "üb");
	is_str(esc, "a\\x1b[2J\\n\\xff\\u009b\\x7f\\tüb", "escaping: controls and bad bytes as text, UTF-8 kept");
	ok(text_check(esc, why, sizeof(why)) == 0, "and the escaped text passes the check");
	free(esc);
	char small[8];
	text_copy(small, sizeof(small), "abcdefü");
	is_str(small, "abcdef", "a copy is cut before a character, never inside one");
	text_copy(small, sizeof(small), "\033");
	is_str(small, "\\x1b", "a copy is escaped");
	FILE *mem = tmpfile();
	fput_text(mem, "ü\033", 8);
	rewind(mem);
	char line[64] = "";
	ok(fgets(line, sizeof(line), mem) != NULL, "fput_text wrote");
	is_str(line, "ü\\x1b   ", "fput_text pads by characters, not bytes");
	fclose(mem);

	/* words and numbers read in place, as the config files and the kernel files' readers do */
	char words[] = "  FILESIZE\t10k \n";
	char *wp = words, *w1 = next_word(&wp), *w2 = next_word(&wp);
	is_str(w1, "FILESIZE", "next_word skips blanks and ends the word in place");
	is_str(w2, "10k", "next_word: the next one");
	ok(next_word(&wp) == NULL, "next_word: NULL when only blanks are left");
	unsigned long long u = 0;
	const char *up = "cpu  12\t34 5x\n7";
	up += 3;
	ok(next_u64(&up, &u) == 0 && u == 12, "next_u64 skips spaces");
	ok(next_u64(&up, &u) == 0 && u == 34, "next_u64 skips tabs");
	ok(next_u64(&up, &u) == 0 && u == 5 && *up == 'x', "next_u64 stops at the first non-digit");
	const char *at = up;
	ok(next_u64(&up, &u) < 0 && up == at, "next_u64: no digits, -1 and nothing consumed");
	up = "\n7";
	ok(next_u64(&up, &u) < 0, "next_u64 never crosses the end of the line");
	up = "18446744073709551615";
	ok(next_u64(&up, &u) == 0 && u == ULLONG_MAX && *up == '\0', "next_u64 reads the largest value");
	up = "18446744073709551616";
	ok(next_u64(&up, &u) < 0, "next_u64: one past it overflows");
	up = "-1";
	ok(next_u64(&up, &u) < 0, "next_u64: no sign");

	is_int(edit_distance("kitten", "sitting"), 3, "edit distance kitten/sitting");
	is_int(edit_distance("", "abc"), 3, "edit distance from empty");
	is_int(edit_distance("same", "same"), 0, "edit distance of equal strings");

	const char *cmds[] = {"run", "single", "check", "tests", "list", "show", "compare", "plot"};
	is_int(closest_name("lsit", cmds, ARRAY_SIZE(cmds)), 4, "closest: a transposition");
	is_int(closest_name("compre", cmds, ARRAY_SIZE(cmds)), 6, "closest: a letter left out");
	is_int(closest_name("sing", cmds, ARRAY_SIZE(cmds)), 1, "closest: the only name it begins");
	is_int(closest_name("frobnicate", cmds, ARRAY_SIZE(cmds)), -1, "closest: none near");
	is_int(closest_name("x", cmds, ARRAY_SIZE(cmds)), -1, "closest: a short word is near nothing");
	is_int(closest_name("ab", cmds, 0), -1, "closest: no names");
	const char *suites[] = {"dbase", "disk", "fserver", "new_dbase"};
	is_int(closest_name("dbse", suites, ARRAY_SIZE(suites)), 0, "closest: one edit");
	is_int(closest_name("fsrever", suites, ARRAY_SIZE(suites)), 2, "closest: two edits");

	struct strbuf sb = {0};
	strbuf_addf(&sb, "%d-%s", 7, "x");
	strbuf_add(&sb, "yz", 2);
	is_str(sb.buf, "7-xyz", "strbuf");
	strbuf_free(&sb);
	strbuf_add_shell_word(&sb, "6.1.0-rc1+");
	strbuf_add(&sb, " ", 1);
	strbuf_add_shell_word(&sb, "it's a $x");
	strbuf_add(&sb, " ", 1);
	strbuf_add_shell_word(&sb, "");
	is_str(sb.buf, "6.1.0-rc1+ 'it'\\''s a $x' ''", "a shell word: plain as is, else single-quoted");
	strbuf_free(&sb);

	char dir[] = "/tmp/reaim-util-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char *file = xasprintf("%s/f", dir);
	int fd = open(file, O_CREAT | O_WRONLY, 0600);
	ok(fd >= 0 && write(fd, "hello\n", 6) == 6, "write a file");
	close(fd);
	char *text = read_text_file(file, 100);
	is_str(text, "hello\n", "read_text_file");
	free(text);
	ok(read_text_file(file, 3) == NULL, "read_text_file refuses a file over its limit");

	/* input files: regular files only, bounded, every byte counted */
	char why_buf[160];
	int why_line;
	text = read_input_file(file, 100, why_buf, sizeof(why_buf), &why_line);
	is_str(text, "hello\n", "read_input_file of a regular file");
	free(text);
	ok(read_input_file(file, 5, why_buf, sizeof(why_buf), &why_line) == NULL && strstr(why_buf, "more than"),
	   "a file over the limit is refused, not cut short");
	ok(read_input_file(dir, 100, why_buf, sizeof(why_buf), &why_line) == NULL && strstr(why_buf, "a directory"),
	   "a directory is refused");
	ok(read_input_file("/dev/null", 100, why_buf, sizeof(why_buf), &why_line) == NULL &&
	   strstr(why_buf, "character device"), "a device is refused");
	char *fifo = xasprintf("%s/fifo", dir);
	uint64_t t0 = clock_now_ns();
	ok(mkfifo(fifo, 0600) == 0 && read_input_file(fifo, 100, why_buf, sizeof(why_buf), &why_line) == NULL &&
	   strstr(why_buf, "a fifo"), "a fifo without a writer is refused");
	ok(clock_now_ns() - t0 < 1000000000ull, "at once, not waited on");
	/* open_input: the same refusal for a reader that takes the descriptor (merge --from-lava-log) */
	t0 = clock_now_ns();
	ok(open_input(fifo, why_buf, sizeof(why_buf)) < 0 && strstr(why_buf, "a fifo, not a regular file"),
	   "open_input refuses a fifo");
	ok(clock_now_ns() - t0 < 1000000000ull, "at once, not waited on");
	ok(open_input("/dev/zero", why_buf, sizeof(why_buf)) < 0 && strstr(why_buf, "a character device"),
	   "open_input refuses a device");
	int in = open_input(file, why_buf, sizeof(why_buf));
	ok(in >= 0 && !(fcntl(in, F_GETFL) & O_NONBLOCK) && (fcntl(in, F_GETFD) & FD_CLOEXEC),
	   "open_input opens a regular file blocking again, close-on-exec");
	if (in >= 0)
		close(in);
	unlink(fifo);
	free(fifo);
	char *nul = xasprintf("%s/nul", dir);
	fd = open(nul, O_CREAT | O_WRONLY, 0600);
	ok(fd >= 0 && write(fd, "a\nb\nc\0d\n", 8) == 8, "a file with a NUL byte on line 3");
	close(fd);
	ok(read_input_file(nul, 100, why_buf, sizeof(why_buf), &why_line) == NULL && why_line == 3 &&
	   strstr(why_buf, "NUL"), "is refused with the line of the NUL");
	ok(read_input_file("/nonexistent/x", 100, why_buf, sizeof(why_buf), &why_line) == NULL &&
	   strstr(why_buf, "No such file"), "a missing file says so");
	unlink(nul);
	free(nul);

	/* SysV objects: a set we make shows in the list with our uid and its size */
	int semid = semget(IPC_PRIVATE, 3, IPC_CREAT | 0600);
	struct sysv_obj *objs;
	size_t nobjs;
	int seen = 0;
	if (semid >= 0 && sysv_list(SYSV_SEM, &objs, &nobjs) == 0) {
		for (size_t i = 0; i < nobjs; i++)
			seen |= objs[i].id == semid && objs[i].size == 3 && objs[i].cuid == geteuid();
		free(objs);
	}
	ok(seen, "sysv_list finds a semaphore set with its creator and size");
	if (semid >= 0)
		semctl(semid, 0, IPC_RMID);
	int32_t key = 0x7eaf0000 + (int32_t)(getpid() & 0xfff);
	semid = semget(key, 1, IPC_CREAT | IPC_EXCL | 0600);
	ok(semid >= 0 && sysv_remove_key(key) == 1 && semget(key, 0, 0) < 0, "sysv_remove_key removes ours");

	/* the cgroup of this process for the pids controller, v2 or v1 */
	struct cgroup_dir cg;
	if (cgroup_find("pids", &cg) == 0) {
		struct stat cst;
		ok(stat(cg.dir, &cst) == 0 && S_ISDIR(cst.st_mode) && strncmp(cg.dir, cg.mount, strlen(cg.mount)) == 0,
		   "the pids cgroup is a directory under its mount");
		printf("# pids cgroup: %s (v%d)\n", cg.dir, cg.v2 ? 2 : 1);
		struct cgroup_limit lim;
		ok(cgroup_headroom(&cg, "pids.max", "pids.current", LLONG_MAX, &lim) >= 0, "its headroom can be read");
		free(lim.file);
		cgroup_dir_free(&cg);
	} else {
		skip("the pids cgroup", "no pids controller mounted");
		skip("its headroom", "no pids controller mounted");
	}

	/* a tree with a symlink to a precious file outside it: removing the tree keeps the file */
	char *outside = xasprintf("%s-precious", dir), *tree = xasprintf("%s/tree", dir);
	char *mid = xasprintf("%s/tree/a", dir), *sub = xasprintf("%s/tree/a/b", dir);
	char *link = xasprintf("%s/tree/a/link", dir);
	fd = open(outside, O_CREAT | O_WRONLY, 0600);
	close(fd);
	ok(mkdir(tree, 0700) == 0 && mkdir(mid, 0700) == 0 && mkdir(sub, 0700) == 0 &&
	   symlink(outside, link) == 0, "a tree with a symlink");
	ok(remove_tree(tree) == 0 && access(tree, F_OK) != 0, "remove_tree removes the tree");
	ok(access(outside, F_OK) == 0, "and never follows the symlink");
	unlink(outside);

	/* lock files: held by a live owner in another process, free once it is gone; never a
	 * file that exists already, never through a symlink, never a wait on a fifo */
	/* said_before: a key once, then known; another key new; a link in the marker's place never followed */
	char *said = xasprintf("%s/said", dir), *target = xasprintf("%s/target", dir);
	ok(said_before(said, "accounting cgroup v2") == 0, "said_before: a key not said before");
	ok(said_before(said, "accounting cgroup v2") == 1, "said_before: the same key, said before");
	ok(said_before(said, "accounting") == 0, "said_before: a key that is a prefix of one said is new");
	ok(said_before(said, "two\nlines") == 0 && said_before(said, "two\nlines") == 1, "said_before: a key with a newline");
	unlink(said);
	ok(symlink(target, said) == 0 && said_before(said, "x") == -1 && access(target, F_OK) != 0,
	   "said_before: a link in its place is not followed");
	unlink(said);
	free(said);
	free(target);

	char *lockf = xasprintf("%s/run.lock", dir), *lockl = xasprintf("%s/link.lock", dir);
	int go[2], held[2], lfd = -1;
	ok(pipe(go) == 0 && pipe(held) == 0, "pipes to hear the lock's owner hold it and to end it");
	fflush(stdout);
	pid_t owner = fork();
	if (owner == 0) {
		char b = 'h';
		close(go[1]);
		close(held[0]);
		if (lock_file_create(lockf, 0) < 0 || write(held[1], &b, 1) != 1)
			_exit(1);
		while (read(go[0], &b, 1) > 0)
			;
		_exit(0);
	}
	close(go[0]);
	close(held[1]);
	char held_byte; /* the file exists a moment before its lock is taken: wait for the lock, not the file */
	ok(read(held[0], &held_byte, 1) == 1, "the owner holds the lock");
	close(held[0]);
	ok(lock_file_create(lockf, 0) < 0 && errno == EEXIST, "lock_file_create never takes an existing file");
	ok(lock_file_stale(lockf, &lfd) == 0 && lfd < 0, "held by a live owner: not stale");
	close(go[1]);
	int wst = -1;
	ok(waitpid(owner, &wst, 0) == owner && WIFEXITED(wst) && WEXITSTATUS(wst) == 0, "the owner exits");
	ok(lock_file_stale(lockf, &lfd) == 1 && lfd >= 0, "its lock is free: stale");
	int lfd2 = -1;
	ok(lock_file_stale(lockf, &lfd2) == 1, "testers share the lock, never taking each other for the owner");
	close(lfd2);
	close(lfd);
	ok(unlink(lockf) == 0 && lock_file_stale(lockf, &lfd) == -1 && errno == ENOENT, "no file: -1, ENOENT");
	fd = lock_file_create(lockf, 0);
	lfd = open(lockf, O_RDONLY | O_CLOEXEC);
	ok(fd >= 0 && lfd >= 0 && !lock_fd_stale(lfd), "lock_file_create holds it at once");
	close(lfd);
	ok(symlink(lockf, lockl) == 0 && lock_file_create(lockl, 0) < 0 && lock_file_stale(lockl, &lfd) == 0,
	   "a symlink is neither created through nor tested");
	close(fd);
	unlink(lockl);
	unlink(lockf);
	ok(mkfifo(lockf, 0600) == 0 && lock_file_stale(lockf, &lfd) == 0, "a fifo counts as held, at once");
	unlink(lockf);
	free(lockf);
	free(lockl);

	tap_case(test_path_resolve, dir);
	tap_case(test_damon, dir);
	struct env_list env;
	char *dirs[] = {dir};
	env_collect(&env, dirs, 1);
	ok(env_get(&env, "hostname") && env_get(&env, "kernel.release") && env_get(&env, "cpu.online"),
	   "fingerprint: host, kernel, CPUs");
	ok(env_get(&env, "dir0.fstype") && env_get(&env, "dir0.mount_options"), "fingerprint: the dir's filesystem");
	is_str(env_get(&env, "dir0.path"), dir, "fingerprint: the dir's real path");
	env_free(&env);

	unlink(file);
	rmdir(dir);
	free(file);
	free(outside);
	free(tree);
	free(mid);
	free(sub);
	free(link);
	return done_testing();
}
