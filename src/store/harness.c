/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a test harness collects a job's results (LKP, LAVA, autotest), so that the results
 * database lands there when neither --db nor $REAIM_DB says where it goes. */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"
#include "util/util.h"

#define HARNESS_DB_NAME "reaim.db"

static int is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The newest results directory seen so far: out, its mtime in *newest; rc 0 once one is found. */
struct newest {
	char *out;
	size_t len;
	struct timespec when;
	int rc;
};

static void consider(struct newest *n, const char *path)
{
	struct stat sb;
	if (stat(path, &sb) < 0 || !S_ISDIR(sb.st_mode))
		return;
	if (n->rc == 0 && (sb.st_mtim.tv_sec < n->when.tv_sec ||
			   (sb.st_mtim.tv_sec == n->when.tv_sec && sb.st_mtim.tv_nsec <= n->when.tv_nsec)))
		return;
	if (snprintf(n->out, n->len, "%s", path) >= (int)n->len)
		return;
	n->when = sb.st_mtim;
	n->rc = 0;
}

/* A test's directory name: the test's own, or its tagged form NAME.TAG; any, without a name. */
static int test_matches(const char *entry, const char *test)
{
	if (entry[0] == '.')
		return 0;
	size_t n = strlen(test);
	return !*test || (strncmp(entry, test, n) == 0 && (entry[n] == '\0' || entry[n] == '.'));
}

/* autotest exports only its own directory ($AUTODIR); a client test's results go to
 * $AUTODIR/results/TAG/TEST/results, and the test runs in $AUTODIR/tmp/TEST/src: the newest
 * results directory of that test (of any test when run elsewhere). The directories are listed,
 * never globbed: $AUTODIR is a path, and a '*' in it names no directory. */
static int autotest_dir(const char *autodir, char *out, size_t len)
{
	char cwd[PATH_MAX], test[NAME_MAX + 1] = "";
	size_t alen = strlen(autodir);
	if (getcwd(cwd, sizeof(cwd)) && strncmp(cwd, autodir, alen) == 0 && strncmp(cwd + alen, "/tmp/", 5) == 0) {
		const char *name = cwd + alen + 5, *slash = strchr(name, '/');
		size_t n = slash ? (size_t)(slash - name) : strlen(name);
		if (n > 0 && n < sizeof(test) && (!slash || strcmp(slash, "/src") == 0))
			snprintf(test, sizeof(test), "%.*s", (int)n, name);
	}
	struct newest best = {.out = out, .len = len, .rc = -1};
	char *results = xasprintf("%s/results", autodir);
	DIR *tags = opendir(results);
	struct dirent *tag, *t;
	while (tags && (tag = readdir(tags)) != NULL) {
		if (tag->d_name[0] == '.')
			continue;
		char *tagdir = xasprintf("%s/%s", results, tag->d_name);
		DIR *tests = opendir(tagdir);
		while (tests && (t = readdir(tests)) != NULL) {
			if (!test_matches(t->d_name, test))
				continue;
			char *dir = xasprintf("%s/%s/results", tagdir, t->d_name);
			consider(&best, dir);
			free(dir);
		}
		if (tests)
			closedir(tests);
		free(tagdir);
	}
	if (tags)
		closedir(tags);
	free(results);
	return best.rc;
}

/* The harnesses, by the variable each exports to the programs it runs. */
static const struct harness {
	const char *name, *var;
	int (*results_dir)(const char *value, char *out, size_t len); /* NULL: the value is the dir */
} harnesses[] = {
	{.name = "LKP", .var = "RESULT_ROOT"},
	{.name = "LAVA", .var = "LAVA_RESULT_DIR"},
	{.name = "autotest", .var = "AUTODIR", .results_dir = autotest_dir},
};

int store_harness_db(char *path, size_t len, const char **name, const char **var)
{
	for (size_t i = 0; i < sizeof(harnesses) / sizeof(harnesses[0]); i++) {
		const struct harness *h = &harnesses[i];
		const char *value = getenv(h->var);
		char dir[PATH_MAX];
		/* the value itself must name a directory: a pattern, or a path not there, is passed over */
		if (!value || !*value || !is_dir(value))
			continue;
		if (h->results_dir ? h->results_dir(value, dir, sizeof(dir)) < 0
				   : snprintf(dir, sizeof(dir), "%s", value) >= (int)sizeof(dir))
			continue;
		if (!is_dir(dir) || snprintf(path, len, "%s/%s", dir, HARNESS_DB_NAME) >= (int)len)
			continue;
		*name = h->name;
		*var = h->var;
		return 0;
	}
	return -1;
}

int store_harness_default(void)
{
	const char *db = getenv("REAIM_DB"), *name, *var;
	char path[PATH_MAX];
	if (db && *db)
		return 0;
	if (store_harness_db(path, sizeof(path), &name, &var) < 0)
		return 0;
	return setenv("REAIM_DB", path, 1);
}
