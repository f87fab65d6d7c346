/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a test harness collects a job's results (LKP, LAVA, autotest), so that the results
 * database lands there when neither --db nor $REAIM_DB says where it goes. */
#include "config.h"

#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store.h"

#define HARNESS_DB_NAME "reaim.db"

static int is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* autotest exports only its own directory ($AUTODIR); a client test's results go to
 * $AUTODIR/results/TAG/TEST/results, and the test runs in $AUTODIR/tmp/TEST/src: the newest
 * results directory of that test (of any test when run elsewhere). */
static int autotest_dir(const char *autodir, char *out, size_t len)
{
	char cwd[PATH_MAX], test[NAME_MAX + 1] = "*";
	size_t alen = strlen(autodir);
	if (getcwd(cwd, sizeof(cwd)) && strncmp(cwd, autodir, alen) == 0 && strncmp(cwd + alen, "/tmp/", 5) == 0) {
		const char *name = cwd + alen + 5, *slash = strchr(name, '/');
		size_t n = slash ? (size_t)(slash - name) : strlen(name);
		if (n > 0 && n < sizeof(test) && (!slash || strcmp(slash, "/src") == 0))
			snprintf(test, sizeof(test), "%.*s*", (int)n, name);
	}
	char pattern[PATH_MAX];
	if (snprintf(pattern, sizeof(pattern), "%s/results/*/%s/results", autodir, test) >= (int)sizeof(pattern))
		return -1;
	glob_t g;
	int rc = -1;
	if (glob(pattern, GLOB_ONLYDIR | GLOB_NOSORT, NULL, &g) != 0)
		return -1;
	struct timespec newest = {0, 0};
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct stat sb;
		if (stat(g.gl_pathv[i], &sb) < 0 || !S_ISDIR(sb.st_mode))
			continue;
		if (rc == 0 && (sb.st_mtim.tv_sec < newest.tv_sec ||
				(sb.st_mtim.tv_sec == newest.tv_sec && sb.st_mtim.tv_nsec <= newest.tv_nsec)))
			continue;
		newest = sb.st_mtim;
		rc = snprintf(out, len, "%s", g.gl_pathv[i]) < (int)len ? 0 : -1;
	}
	globfree(&g);
	return rc;
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
		if (!value || !*value)
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
