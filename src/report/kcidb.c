/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A stored run as a KCIDB (Kernel CI common results database) schema v5 submission: the kernel
 * as its checkout and build, one test per point with Jobs/Min as its number. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "report/classic.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

/* The schema version written: KCIDB's I/O schema 5.0 (every later 5.x reads it). */
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 0
#define KCIDB_ORIGIN "reaim"
#define KCIDB_UNIT "jobs/min"

int report_kcidb_origin_ok(const char *origin)
{
	if (!origin || !*origin)
		return 0;
	for (const char *c = origin; *c; c++)
		if (!islower((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_')
			return 0;
	return 1;
}

int report_kcidb_id_ok(const char *id, const char *origin)
{
	const char *o = origin ? origin : KCIDB_ORIGIN;
	size_t len = strlen(o);
	/* the checkout and build written carry this origin, and KCIDB takes an object's id from its own */
	return id && strncmp(id, o, len) == 0 && id[len] == ':';
}

/* A stored environment value by key, or "" (kv holds "key\tvalue" strings). */
static const char *env_value(char **kv, size_t n, const char *key)
{
	size_t len = strlen(key);
	for (size_t i = 0; i < n; i++)
		if (strncmp(kv[i], key, len) == 0 && kv[i][len] == '\t')
			return kv[i] + len + 1;
	return "";
}

/* A path segment: KCIDB's test paths are dot-separated [A-Za-z0-9_-] words. */
static void path_segment(FILE *f, const char *s)
{
	if (!*s)
		fputc('_', f);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		fputc(isalnum(*c) || *c == '_' || *c == '-' ? *c : '_', f);
}

static void json_key(FILE *f, const char *sep, const char *key)
{
	fputs(sep, f);
	textout_json_string(f, key);
	fputs(": ", f);
}

/* A figure under misc; one that could not be computed is left out (KCIDB allows no null). */
static void misc_number(FILE *f, const char *key, double v)
{
	if (!isfinite(v))
		return;
	json_key(f, ", ", key);
	fprintf(f, "%.17g", v);
}

static void environment(FILE *f, char **kv, size_t nkv)
{
	fputs("\"environment\": {\"comment\": ", f);
	textout_json_string(f, env_value(kv, nkv, "hostname"));
	fputs(", \"misc\": {", f);
	for (size_t i = 0; i < nkv; i++) {
		const char *tab = strchr(kv[i], '\t');
		char *key = xasprintf("%.*s", (int)(tab - kv[i]), kv[i]);
		json_key(f, i ? ", " : "", key);
		textout_json_string(f, tab + 1);
		free(key);
	}
	fputs("}}", f);
}

/* What every test of a run's export names: the options (origin), the build, the run and its
 * environment. */
struct kcidb_run {
	const struct report_export_opts *o;
	const char *build_id;
	const struct store_run_row *run;
	char **kv;
	size_t nkv;
};

/* "reaim.WORKLOAD[.variant_V][.load_L][.cpus_N][.osync_off].TASKS": what sets a point's arm and block
 * apart is in its path, so two variants' (loads', CPU counts') tests never share one. */
static void test_path(FILE *f, const struct store_point *p)
{
	fputs("\"path\": \"reaim.", f);
	path_segment(f, p->workload);
	if (p->variant[0]) {
		fputs(".variant_", f);
		path_segment(f, p->variant);
	}
	if (p->load[0]) {
		fputs(".load_", f);
		path_segment(f, p->load);
	}
	if (p->cpus > 0)
		fprintf(f, ".cpus_%d", p->cpus);
	fprintf(f, "%s.%d\", ", p->osync ? "" : ".osync_off", p->tasks);
}

static void test(FILE *f, const struct kcidb_run *r, const struct store_point *p, size_t index)
{
	const struct report_export_opts *o = r->o;
	const char *build_id = r->build_id;
	const struct store_run_row *run = r->run;
	fputs("{\"id\": ", f);
	char *id = xasprintf("%s:%s.%zu", o->origin, run->uuid, index + 1);
	textout_json_string(f, id);
	free(id);
	fputs(", \"build_id\": ", f);
	textout_json_string(f, build_id);
	fputs(", \"origin\": ", f);
	textout_json_string(f, o->origin);
	fputs(", ", f);
	test_path(f, p);
	/* DONE: a measurement that says nothing of the kernel; ERROR: the point did not complete */
	fprintf(f, "\"status\": \"%s\", ", p->valid ? "DONE" : "ERROR");
	/* a single-user (AIM9) point measured calls, not jobs: its number is AIM9's ops/s */
	const struct test_def *single = strcmp(run->mode, "single") == 0 ? test_find(p->workload) : NULL;
	double calls_s = NAN, ops_s = single ? report_single_ops(p, single, &calls_s) : NAN;
	if (p->valid && single && isfinite(ops_s))
		fprintf(f, "\"number\": {\"value\": %.17g, \"unit\": \"ops/s\"}, ", ops_s);
	else if (p->valid && !single && isfinite(p->jobs_per_min))
		fprintf(f, "\"number\": {\"value\": %.17g, \"unit\": \"" KCIDB_UNIT "\"}, ", p->jobs_per_min);
	if (p->valid && isfinite(p->real_s))
		fprintf(f, "\"duration\": %.17g, ", p->real_s);
	if (!p->valid && p->reason[0]) {
		fputs("\"log_excerpt\": ", f);
		textout_json_string(f, p->reason);
		fputs(", ", f);
	}
	fputs("\"start_time\": ", f);
	textout_json_string(f, run->started);
	fputs(", ", f);
	environment(f, r->kv, r->nkv);
	fputs(", \"misc\": {\"run\": ", f);
	textout_json_string(f, run->uuid);
	fputs(", \"workload\": ", f);
	textout_json_string(f, p->workload);
	fprintf(f, ", \"tasks\": %d, \"jobs_per_task\": %lld, \"osync\": \"%s\", \"round\": %d", p->tasks,
		(long long)p->jobs_per_task, p->osync ? "on" : "off", p->repeat + 1);
	if (p->variant[0]) {
		json_key(f, ", ", "variant");
		textout_json_string(f, p->variant);
	}
	if (p->load[0]) {
		json_key(f, ", ", "load");
		textout_json_string(f, p->load);
	}
	if (p->cpus > 0)
		fprintf(f, ", \"cpus\": %d", p->cpus);
	if (p->valid && single) {
		misc_number(f, "calls_per_s", calls_s);
		misc_number(f, "ops_per_s", ops_s);
		json_key(f, ", ", "op");
		textout_json_string(f, single->units);
		misc_number(f, "real_s", p->real_s);
		misc_number(f, "cpu_s", p->cpu_s);
		fprintf(f, ", \"noisy\": %s", p->noisy ? "true" : "false");
	} else if (p->valid) {
		misc_number(f, "jobs_per_min", p->jobs_per_min);
		misc_number(f, "real_s", p->real_s);
		misc_number(f, "cpu_s", p->cpu_s);
		misc_number(f, "jti", p->jti);
		fprintf(f, ", \"noisy\": %s", p->noisy ? "true" : "false");
	}
	fputs("}}", f);
}

/* A single-user run's point that only set the job count of its test: one its test has a later point
 * of (each test is a workload of its own; the last point measured it). Not a result: left out. */
static int calibration(const struct store_point *pts, size_t n, size_t i)
{
	for (size_t k = 0; k < n; k++)
		if (pts[k].workload_id == pts[i].workload_id && pts[k].id > pts[i].id)
			return 1;
	return 0;
}

/* The run itself, when it failed or was interrupted: an ERROR at path "reaim" with the reason, so
 * its points' DONE never reads as a whole run. */
static void run_test(FILE *f, const struct kcidb_run *r)
{
	const struct report_export_opts *o = r->o;
	const char *build_id = r->build_id;
	const struct store_run_row *run = r->run;
	fputs("{\"id\": ", f);
	char *id = xasprintf("%s:%s.run", o->origin, run->uuid);
	textout_json_string(f, id);
	free(id);
	fputs(", \"build_id\": ", f);
	textout_json_string(f, build_id);
	fputs(", \"origin\": ", f);
	textout_json_string(f, o->origin);
	fputs(", \"path\": \"reaim\", \"status\": \"ERROR\", \"log_excerpt\": ", f);
	char *why = xasprintf("the run %s%s%s", report_run_ended_how(run), run->reason[0] ? ": " : "", run->reason);
	textout_json_string(f, why);
	free(why);
	fputs(", \"start_time\": ", f);
	textout_json_string(f, run->started);
	fputs(", ", f);
	environment(f, r->kv, r->nkv);
	fputs(", \"misc\": {\"run\": ", f);
	textout_json_string(f, run->uuid);
	fputs(", \"run_status\": ", f);
	textout_json_string(f, run->status);
	fputs("}}", f);
}

void report_kcidb(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *pts,
		  size_t n, const struct report_export_opts *opts)
{
	struct report_export_opts o = {.origin = KCIDB_ORIGIN};
	if (opts)
		o = *opts;
	if (!o.origin)
		o.origin = KCIDB_ORIGIN;
	char **kv = NULL;
	size_t nkv = 0;
	if (store_get_env(st, run->id, &kv, &nkv) < 0)
		kv = NULL, nkv = 0;
	const char *release = env_value(kv, nkv, "kernel.release");
	char *checkout_id = o.checkout_id ? xstrdup(o.checkout_id) : xasprintf("%s:%s", o.origin, release);
	char *build_id = o.build_id ? xstrdup(o.build_id) : xstrdup(checkout_id);
	fprintf(f, "{\"version\": {\"major\": %d, \"minor\": %d},\n\"checkouts\": [{\"id\": ", KCIDB_MAJOR, KCIDB_MINOR);
	textout_json_string(f, checkout_id);
	fputs(", \"origin\": ", f);
	textout_json_string(f, o.origin);
	fputs(", \"comment\": ", f);
	char *comment = xasprintf("Linux %s", release);
	textout_json_string(f, comment);
	free(comment);
	fputs("}],\n\"builds\": [{\"id\": ", f);
	textout_json_string(f, build_id);
	fputs(", \"checkout_id\": ", f);
	textout_json_string(f, checkout_id);
	fputs(", \"origin\": ", f);
	textout_json_string(f, o.origin);
	fputs(", \"architecture\": ", f);
	textout_json_string(f, env_value(kv, nkv, "machine"));
	fputs(", \"comment\": ", f);
	textout_json_string(f, env_value(kv, nkv, "kernel.version"));
	fputs("}],\n\"tests\": [", f);
	const char *sep = "\n";
	const struct kcidb_run r = {.o = &o, .build_id = build_id, .run = run, .kv = kv, .nkv = nkv};
	for (size_t i = 0; i < n; i++) {
		if (strcmp(run->mode, "single") == 0 && calibration(pts, n, i))
			continue;
		fputs(sep, f);
		sep = ",\n";
		test(f, &r, &pts[i], i);
	}
	if (report_run_ended_badly(run)) {
		fputs(sep, f);
		run_test(f, &r);
	}
	fputs("]}\n", f);
	for (size_t i = 0; i < nkv; i++)
		free(kv[i]);
	free(kv);
	free(checkout_id);
	free(build_id);
}
