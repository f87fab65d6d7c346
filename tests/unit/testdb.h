/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A unit test's own results database: in a private temp dir, removed with its WAL files. */
#ifndef REAIM_TESTS_UNIT_TESTDB_H
#define REAIM_TESTS_UNIT_TESTDB_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "store/store.h"

struct test_db {
	char dir[64];
	char path[96];
	struct store *st;
};

/* 0, or -1 with the reason on stderr. */
static inline int test_db_open(struct test_db *t)
{
	snprintf(t->dir, sizeof(t->dir), "%s", "/tmp/reaim-test-db-XXXXXX");
	char err[512];
	if (!mkdtemp(t->dir)) {
		perror("mkdtemp");
		return -1;
	}
	snprintf(t->path, sizeof(t->path), "%s/t.db", t->dir);
	if (store_open(t->path, &t->st, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", t->path, err);
		rmdir(t->dir);
		return -1;
	}
	return 0;
}

static inline void test_db_remove(struct test_db *t)
{
	static const char *const suffix[] = {"", "-wal", "-shm"};
	char path[128];
	store_close(t->st);
	t->st = NULL;
	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", t->path, suffix[i]);
		unlink(path);
	}
	rmdir(t->dir);
}

/* A finished run row labelled label, with a uuid of its own in this process; its id. */
static inline int64_t test_db_run(struct store *st, const char *label)
{
	static int made;
	char uuid[32];
	snprintf(uuid, sizeof(uuid), "test-run-%d", ++made);
	struct store_run r = {.uuid = uuid, .label = label, .suite_name = "s", .suite_text = "",
			      .command_line = "reaim", .version = "0", .mode = "sweep", .seed = 1};
	int64_t id = 0;
	store_run_begin(st, &r, NULL, &id);
	store_run_finish(st, id, "complete", NULL);
	return id;
}

#endif
