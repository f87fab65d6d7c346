/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fixture files for unit tests: a file written under a temp dir, its directories made. */
#ifndef REAIM_TESTS_UNIT_TESTFS_H
#define REAIM_TESTS_UNIT_TESTFS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

/* Write TEXT to ROOT/REL, making REL's directories; 0, or -1. */
static inline int test_put(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel);
	for (char *slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0700);
		*slash = '/';
	}
	FILE *f = fopen(path, "w");
	free(path);
	if (!f)
		return -1;
	int bad = fputs(text, f) < 0;
	bad |= fclose(f) != 0;
	return bad ? -1 : 0;
}

#endif
