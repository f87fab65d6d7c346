/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim merge`: gather the runs of another database (from another machine) into this one. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "engine/engine.h"
#include "store/store.h"
#include "util/util.h"

struct merge_args {
	const char *db;
	struct cli_list other;
};

const struct cli_opt cmd_merge_opts[] = {
	CLI_OPT_OPERANDS("OTHER.db", struct merge_args, other, 1, 1,
			 "the database to copy from; runs already here (same uuid) are skipped",
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

enum outcome cmd_merge(const struct command *self, int argc, char **argv)
{
	struct merge_args a = {0};
	enum outcome out = OUT_OK;
	if (cmd_parse(self, argc, argv, &a, &out))
		return out;
	const char *other = a.other.v[0], *db = store_db_path(a.db);
	char err[STORE_ERR_MAX];
	struct store *st = NULL;
	size_t copied, skipped;
	/* a stop signal (Ctrl-C, SIGTERM, SIGQUIT, ...) rolls the merge back and exits 3, as a run does */
	if (engine_init() < 0) {
		log_error("cannot set up the stop signals: %s", strerror(errno));
		out = OUT_FAILED;
	} else if (access(other, R_OK) != 0) {
		log_error("cannot read %s: %s", other, strerror(errno));
		out = OUT_FAILED;
	} else if (source_unfit(other)) {
		out = OUT_FAILED;
	} else if (store_open_cancellable(db, merge_interrupted, NULL, &st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		out = engine_interrupted() ? OUT_INTERRUPTED : OUT_FAILED;
	} else if (store_merge(st, other, &copied, &skipped) < 0) {
		log_error("%s", store_error(st));
		out = engine_interrupted() ? OUT_INTERRUPTED : OUT_FAILED;
	} else {
		printf("merged %zu runs from %s into %s (%zu already present or still running there)\n", copied,
		       other, db, skipped);
	}
	store_close(st);
	cli_free(self->opts, &a);
	return out;
}
