/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A unit test's own results database: in a private temp dir, removed with its WAL files. */
#ifndef REAIM_TESTS_UNIT_TESTDB_H
#define REAIM_TESTS_UNIT_TESTDB_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Store workload w of run as a run stores one: its options are rows, w's own and then each "KEY=VALUE"
 * word of the format's text (store_get_workloads reads jobs_per_task, repeat and threshold from them). */
__attribute__((format(printf, 5, 6))) static inline int test_db_workload(struct store *st, int64_t run,
									 const struct store_workload *w, int64_t *wl,
									 const char *fmt, ...)
{
	char words[512], *save = NULL;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(words, sizeof(words), fmt, ap);
	va_end(ap);
	size_t n = w->noptions;
	struct store_option *o = calloc(n + strlen(words) / 2 + 1, sizeof(*o));
	if (!o)
		return -1;
	for (size_t i = 0; i < w->noptions; i++)
		o[i] = w->options[i];
	for (char *t = strtok_r(words, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		if (!eq)
			continue;
		*eq = '\0';
		snprintf(o[n].key, sizeof(o[n].key), "%s", t);
		o[n].item = -1;
		o[n++].value = eq + 1;
	}
	struct store_workload copy = *w;
	copy.options = o;
	copy.noptions = n;
	int rc = store_workload_add(st, run, &copy, wl);
	free(o);
	return rc;
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
