/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim merge`: gather the runs of another database (from another machine, or carried in a LAVA job's
 * log) into this one. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "engine/engine.h"
#include "store/store.h"
#include "util/util.h"

struct merge_args {
	const char *db, *lava_log;
	struct cli_list other;
};

const struct cli_opt cmd_merge_opts[] = {
	CLI_OPT_OPERANDS("OTHER.db", struct merge_args, other, 0, 1,
			 "the database to copy from; runs already here (same uuid) are skipped",
			 .complete = CLI_COMPLETE_FILE),
	CLI_OPT_STRING(0, "from-lava-log", "LOG", struct merge_args, lava_log,
		       "copy from the databases a LAVA job printed on its console (contrib/lava/reaim.sh), taken "
		       "out of its log (the console as saved, or LAVA's YAML log)",
		       .complete = CLI_COMPLETE_FILE),
	CMD_OPT_DB(struct merge_args),
	CLI_OPT_END,
};

static int merge_interrupted(void *unused)
{
	(void)unused;
	engine_poll_signals();
	return engine_interrupted();
}

/* The source vetted as every reader vets a database (ours, this schema, undamaged), before the
 * database merged into is opened or made: 1 after saying why it cannot be merged. */
static int source_unfit(const char *other)
{
	struct store *src;
	char err[STORE_ERR_MAX];
	if (store_open_read(other, &src, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return 1;
	}
	store_close(src);
	return 0;
}

/* Merge one database file into db (opened in *st on first use); the outcome. */
static enum outcome merge_one(const char *other, const char *db, struct store **st, size_t *copied, size_t *skipped)
{
	char err[STORE_ERR_MAX];
	size_t c = 0, k = 0;
	if (access(other, R_OK) != 0) {
		log_error("cannot read %s: %s", other, strerror(errno));
		return OUT_FAILED;
	}
	if (source_unfit(other))
		return OUT_FAILED;
	if (!*st && store_open_cancellable(db, merge_interrupted, NULL, st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return engine_interrupted() ? OUT_INTERRUPTED : OUT_FAILED;
	}
	if (store_merge(*st, other, &c, &k) < 0) {
		log_error("%s", store_error(*st));
		return engine_interrupted() ? OUT_INTERRUPTED : OUT_FAILED;
	}
	*copied += c;
	*skipped += k;
	return OUT_OK;
}

/* The databases a LAVA job's log carries, each merged as a file would be; a temporary directory
 * holds them while they are merged. The log is opened (a fifo or device refused, never waited on)
 * before anything is made; a stop signal during the scan ends it with nothing merged. */
static enum outcome merge_lava_log(const char *log, const char *db, struct store **st, size_t *copied,
				   size_t *skipped, size_t *found)
{
	const char *tmp = getenv("TMPDIR");
	char err[1024];
	struct lava_extract x = {.log = log, .cancelled = merge_interrupted};
	enum outcome out = OUT_OK;
	if ((x.fd = open_input(log, err, sizeof(err))) < 0) {
		log_error("cannot read %s: %s", log, err);
		return OUT_FAILED;
	}
	char *dir = xasprintf("%s/reaim-lava.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		log_error("cannot make a directory %s: %s", dir, strerror(errno));
		close(x.fd);
		free(dir);
		return OUT_FAILED;
	}
	x.dir = dir;
	if (lava_log_extract(&x, err, sizeof(err)) < 0) {
		out = engine_interrupted() ? OUT_INTERRUPTED : OUT_FAILED;
		if (out == OUT_FAILED)
			log_error("%s", err);
	} else if (x.n == 0) {
		log_error("%s carries no database: no %s line (was the job's contrib/lava/reaim.sh run with -B "
			  "false, or its log cut?)", log, LAVA_DB_BEGIN);
		out = OUT_FAILED;
	}
	for (size_t i = 0; i < x.n; i++) {
		if (out == OUT_OK)
			out = merge_one(x.paths[i], db, st, copied, skipped);
		free(x.paths[i]);
	}
	free(x.paths);
	*found = x.n;
	if (remove_tree(dir) < 0)
		log_warn("cannot remove %s: %s", dir, strerror(errno));
	free(dir);
	return out;
}

enum outcome cmd_merge(const struct command *self, int argc, char **argv)
{
	struct merge_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	const char *db = store_db_path(a.db);
	struct store *st = NULL;
	size_t copied = 0, skipped = 0, found = 0;
	if ((a.other.count == 1) == (a.lava_log != NULL)) {
		log_error("give one database to merge: OTHER.db or --from-lava-log LOG");
		out = OUT_USAGE;
	} else if (engine_init() < 0) { /* a stop signal rolls the merge back and exits 3, as a run does */
		log_error("cannot set up the stop signals: %s", strerror(errno));
		out = OUT_FAILED;
	} else if (a.lava_log) {
		out = merge_lava_log(a.lava_log, db, &st, &copied, &skipped, &found);
	} else {
		out = merge_one(a.other.v[0], db, &st, &copied, &skipped);
	}
	if (out == OUT_OK && a.lava_log)
		printf("merged %zu runs from the %zu database%s in %s into %s (%zu already present or still running "
		       "there)\n", copied, found, found == 1 ? "" : "s", a.lava_log, db, skipped);
	else if (out == OUT_OK)
		printf("merged %zu runs from %s into %s (%zu already present or still running there)\n", copied,
		       a.other.v[0], db, skipped);
	store_close(st);
	cli_free(self->opts, &a);
	return out;
}
