/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A classic re-aim-7 command line run as reaim: translated into reaim's own run, stored as
 * always, then reported from the stored run as classic printed it (stdout, PREFIX.csv). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "config/classic.h"
#include "report/classic.h"
#include "store/store.h"
#include "util/util.h"

/* Run reaim's own command with its stdout (our table) set aside: classic's table is printed
 * from the stored run instead, once it is complete. */
static enum outcome run_quietly(const struct str_list *argv)
{
	fflush(stdout);
	int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0) {
		log_error("cannot set stdout aside: %s", strerror(errno));
		if (saved >= 0)
			close(saved);
		if (null >= 0)
			close(null);
		return OUT_FAILED;
	}
	close(null);
	enum outcome out = cmd_run(cli_command_find("run"), (int)argv->count, argv->v);
	fflush(stdout);
	if (dup2(saved, STDOUT_FILENO) < 0) {
		log_error("cannot restore stdout: %s", strerror(errno));
		out = OUT_FAILED;
	}
	close(saved);
	return out;
}

/* Classic's stdout and PREFIX.csv from the run this process stored (id 0: none was). */
static int report_run(const char *db, int64_t id, const struct classic_cli *c)
{
	struct store *st;
	char err[512];
	struct store_point *pts = NULL;
	size_t n = 0;
	if (id <= 0) {
		log_error("no run was stored in %s", db);
		return -1;
	}
	if (store_open_read(db, &st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	if (store_get_points(st, id, &pts, &n) < 0) {
		log_error("%s", store_error(st));
		store_close(st);
		return -1;
	}
	store_close(st);
	if (c->single) {
		report_reaim7_single(stdout, pts, n);
		free(pts);
		return 0;
	}
	report_reaim7_preamble(stdout, c->ov.opts.sync_mode == SYNC_NONE);
	report_reaim7(stdout, pts, n);
	char *csv = xasprintf("%s.csv", c->log_prefix);
	FILE *f = fopen(csv, "w");
	int rc = 0;
	if (!f) {
		log_error("%s: %s", csv, strerror(errno));
		rc = -1;
	} else {
		report_classic_csv(f, pts, n);
		if (fclose(f) != 0) {
			log_error("%s: %s", csv, strerror(errno));
			rc = -1;
		}
	}
	free(csv);
	free(pts);
	return rc;
}

enum outcome cmd_classic(int argc, char **argv)
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
	const char *db = cli_db_path(c.db);
	enum outcome out = run_quietly(&native);
	if (out != OUT_USAGE && report_run(db, run_stored_id(), &c) < 0 && out == OUT_OK)
		out = OUT_FAILED;
	str_list_free(&native);
	classic_cli_free(&c);
	return out;
}
