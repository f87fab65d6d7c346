/* `reaim report RUN... -o FILE.html`: one self-contained page about stored runs. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report/html.h"
#include "store/store.h"
#include "util/util.h"

enum outcome cmd_report(int argc, char **argv)
{
	enum { DB = 1000, TITLE, ALPHA };
	static const struct option longs[] = {
		{"db", required_argument, NULL, DB},
		{"output", required_argument, NULL, 'o'},
		{"title", required_argument, NULL, TITLE},
		{"alpha", required_argument, NULL, ALPHA},
		{NULL, 0, NULL, 0},
	};
	const char *db = NULL, *out = NULL;
	struct html_options o = {.alpha = 0.05};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
		char *end;
		switch (c) {
		case DB: db = optarg; break;
		case 'o': out = optarg; break;
		case TITLE: o.title = optarg; break;
		case ALPHA:
			o.alpha = strtod(optarg, &end);
			if (*end || end == optarg || o.alpha <= 0 || o.alpha >= 0.5) {
				log_error("--alpha %s: expected a level such as 0.05", optarg);
				return OUT_USAGE;
			}
			break;
		default: return OUT_USAGE;
		}
	}
	size_t n = optind < argc ? (size_t)(argc - optind) : 0;
	if (!out || n == 0) {
		log_error("usage: reaim report RUN... -o FILE.html [--title T] [--alpha A] [--db FILE] (the first run is "
			  "the base; one run: its curves and O_SYNC on against off)");
		return OUT_USAGE;
	}
	const char *path = cli_db_path(db);
	char err[1024];
	struct store *st;
	if (access(path, F_OK) != 0) {
		log_error("no results database at %s (run a suite first, or pass --db)", path);
		return OUT_USAGE;
	}
	if (store_open(path, &st, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return OUT_USAGE;
	}
	int64_t *ids = xcalloc(n, sizeof(*ids));
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		if ((rc = store_resolve_run(st, argv[optind + (int)i], &ids[i])) < 0)
			snprintf(err, sizeof(err), "%s", store_error(st));
	FILE *f = NULL;
	if (rc == 0 && !(f = fopen(out, "w"))) {
		snprintf(err, sizeof(err), "cannot write %s: %s", out, strerror(errno));
		rc = -1;
	}
	if (rc == 0)
		rc = report_html(f, st, ids, n, &o, err, sizeof(err));
	if (f && fclose(f) != 0 && rc == 0) {
		snprintf(err, sizeof(err), "writing %s: %s", out, strerror(errno));
		rc = -1;
	}
	if (rc < 0) {
		log_error("%s", err);
		if (f)
			unlink(out); /* no half page left behind */
	}
	free(ids);
	store_close(st);
	return rc < 0 ? OUT_USAGE : OUT_OK;
}
