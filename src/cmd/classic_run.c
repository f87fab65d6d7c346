/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A classic re-aim-7 command line run as reaim: translated into reaim's own run, stored as
 * always, shown as classic printed it (stdout as the points come, PREFIX.csv at the end). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/live_table.h"
#include "config/classic_inputs.h"
#include "report/classic.h"
#include "run/view.h"
#include "store/store.h"
#include "util/util.h"

/* The run view of a classic command line: re-aim-7's table on stdout as the points are stored
 * (single-user mode: from the stored run, once it is complete), and reaim's progress line. */
struct classic_view {
	struct reaim7_stream rows;
	int nosync, started;
};

static void classic_point(void *arg, const struct block_plan *b, const struct store_point *p)
{
	struct classic_view *t = arg;
	(void)b;
	if (!t->started)
		report_reaim7_preamble(t->rows.f, t->nosync);
	t->started = 1;
	log_hold();
	report_reaim7_stream(&t->rows, p);
	fflush(t->rows.f);
}

static enum outcome run_classic_view(const struct command *run, const struct str_list *argv,
				     const struct classic_cli *c, int64_t *run_id)
{
	struct classic_view t = {.rows.f = stdout, .nosync = c->ov.opts.sync_mode == SYNC_NONE};
	struct run_view v = {.arg = &t, .point_stored = c->single ? NULL : classic_point};
	live_table_progress(&v);
	enum outcome out = cmd_run_viewed(run, (int)argv->count, argv->v,
					  &v, run_id);
	if (!c->single)
		report_reaim7_stream_end(&t.rows);
	log_release();
	return out;
}

int cmd_stored_points(const char *db, int64_t id, struct store_point **pts, size_t *n)
{
	struct store *st;
	char err[STORE_ERR_MAX];
	*pts = NULL;
	*n = 0;
	if (id <= 0) {
		log_error("no run was stored in %s", db);
		return -1;
	}
	if (store_open_read(db, &st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	if (store_get_points(st, id, pts, n) < 0) {
		log_error("%s", store_error(st));
		store_close(st);
		return -1;
	}
	store_close(st);
	return 0;
}

/* PREFIX.csv (single-user mode: classic's stdout) from the run this process stored (id 0: none was). */
static int report_run(const char *db, int64_t id, const struct classic_cli *c)
{
	struct store_point *pts;
	size_t n;
	char err[512];
	if (cmd_stored_points(db, id, &pts, &n) < 0)
		return -1;
	if (c->single) {
		report_reaim7_single(stdout, pts, n);
		free(pts);
		return 0;
	}
	/* the table went out point by point; PREFIX.csv is written from what was stored */
	char *csv = xasprintf("%s.csv", c->log_prefix);
	struct out_file of;
	int rc = out_file_open(&of, csv, err, sizeof(err));
	if (rc == 0) {
		report_classic_csv(of.f, pts, n);
		rc = out_file_close(&of, 1, err, sizeof(err));
	}
	if (rc < 0)
		log_error("%s", err);
	free(csv);
	free(pts);
	return rc;
}

/* PREFIX.csv is written after the run: whether it can be is known before, so a run is never
 * spent only to fail on its last line. 0, or -1 after saying why. */
static int check_prefix(const char *prefix)
{
	char *csv = xasprintf("%s.csv", prefix), *slash = strrchr(csv, '/');
	char *dir = slash ? xasprintf("%.*s", slash == csv ? 1 : (int)(slash - csv), csv) : xstrdup(".");
	struct stat sb;
	int rc = -1;
	errno = 0;
	if (!*prefix || prefix[strlen(prefix) - 1] == '/')
		log_error("-l '%s': not a file name prefix (classic writes PREFIX.csv)", prefix);
	else if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode))
		log_error("-l %s: cannot write %s: %s: %s", prefix, csv, dir, errno ? strerror(errno) : "not a directory");
	else if (access(dir, W_OK | X_OK) < 0)
		log_error("-l %s: cannot write %s: %s: %s", prefix, csv, dir, strerror(errno));
	else if (stat(csv, &sb) == 0 && !S_ISREG(sb.st_mode))
		log_error("-l %s: cannot write %s: not a regular file", prefix, csv);
	else if (stat(csv, &sb) == 0 && access(csv, W_OK) < 0)
		log_error("-l %s: cannot write %s: %s", prefix, csv, strerror(errno));
	else
		rc = 0;
	free(dir);
	free(csv);
	return rc;
}

enum outcome cmd_classic(const struct command *run, int argc, char **argv)
{
	struct classic_cli c;
	struct errlist errs = {0};
	if (classic_cli_parse(argc, argv, &c, &errs) < 0) {
		errlist_print(&errs);
		errlist_free(&errs);
		classic_cli_free(&c);
		return OUT_USAGE;
	}
	if (c.help) {
		classic_cli_usage(stdout);
		classic_cli_free(&c);
		return OUT_OK;
	}
	if (!c.single && check_prefix(c.log_prefix) < 0) {
		classic_cli_free(&c);
		return OUT_USAGE;
	}
	for (size_t i = 0; i < c.notes.count; i++)
		log_info("note: %s", c.notes.v[i]);
	struct str_list native;
	classic_cli_native_argv(&c, &native);
	if (c.verbose || c.debug) {
		struct strbuf sb = {0};
		strbuf_add(&sb, "", 0);
		for (size_t i = 0; i < native.count; i++)
			strbuf_addf(&sb, " %s", native.v[i]);
		log_info("classic command line, run as: reaim%s", sb.buf);
		strbuf_free(&sb);
	}
	const char *db = store_db_path(c.db);
	int64_t run_id = 0;
	enum outcome out = run_classic_view(run, &native, &c, &run_id);
	if (out != OUT_USAGE && report_run(db, run_id, &c) < 0 && out == OUT_OK)
		out = OUT_FAILED;
	str_list_free(&native);
	classic_cli_free(&c);
	return out;
}
