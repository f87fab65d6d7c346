/* Checks the utilities: number parsing, edit distance, text buffers, whole-file reads, tree
 * removal that never follows a symlink, and the environment fingerprint. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "util/env.h"
#include "util/util.h"

static const char *env_get(const struct env_list *e, const char *key)
{
	for (size_t i = 0; i < e->count; i++)
		if (strcmp(e->items[i].key, key) == 0)
			return e->items[i].value;
	return NULL;
}

int main(void)
{
	long long v;
	ok(parse_long("42", 0, 100, &v) == 0 && v == 42, "parse_long");
	ok(parse_long("101", 0, 100, &v) < 0, "parse_long above max");
	ok(parse_long(" 4", 0, 100, &v) < 0, "parse_long leading space");
	ok(parse_long("4x", 0, 100, &v) < 0, "parse_long trailing garbage");
	ok(parse_long("", 0, 100, &v) < 0, "parse_long empty");

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
