/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim export`'s formats, one row each in report_export_formats[] at the end: classic re-aim
 * CSV, JSON with every figure, LKP's "name: value" lines, the re-aim-7, AIM VII and IX tables, LAVA
 * lines, the counters' CSV and KCIDB. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/noise.h"
#include "report/classic.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

#define EXPORT_FORMAT_VERSION 1

/* The classic re-aim CSV; a figure that could not be computed is an empty field. */
static void csv(FILE *f, const struct store_point *p, size_t n)
{
	static const char *const fmt[] = {"%.2f", "%.2f", "%.4f", "%.2f", "%.2f",
					  "%.2f", "%.4f", "%.0f", "%.2f", "%.2f"};
	/* the classic columns (what mmtests reads), then why a point is noisy (empty when it is not),
	 * then which block and round it belongs to, the CPUs it was confined to (0: every CPU) and the
	 * background load beside it (empty: a run without --load) */
	fprintf(f, "Forks,JPM,JPM_C,JPS_C,parent_tm,childU_tm,childS_tm,std_dev,JTI,max_c,min_c,noise,workload,osync,"
		   "variant,round,cpus,load\n");
	for (size_t i = 0; i < n; i++) {
		if (!p[i].valid)
			continue;
		const double v[] = {p[i].jobs_per_min, p[i].jobs_per_min_task, p[i].jobs_per_min_task / 60.0,
				    p[i].real_s, p[i].user_s, p[i].sys_s, p[i].std_dev_s, isfinite(p[i].jti) ? (double)report_jti(&p[i]) : NAN, p[i].max_task_s,
				    p[i].min_task_s};
		fprintf(f, "%d", p[i].tasks);
		for (size_t k = 0; k < ARRAY_SIZE(v); k++) {
			fputc(',', f);
			textout_csv_number(f, fmt[k], v[k]);
		}
		fputc(',', f);
		textout_csv_string(f, noise_of_point(&p[i]) ? noise_of_point(&p[i]) : "", 0);
		fputc(',', f);
		textout_csv_string(f, p[i].workload, 1);
		fprintf(f, ",%s,", p[i].osync ? "on" : "off");
		textout_csv_string(f, p[i].variant, 1);
		fprintf(f, ",%d,%d,", p[i].repeat + 1, p[i].cpus);
		textout_csv_string(f, p[i].load, 1);
		fputc('\n', f);
	}
}

/* LKP's "name: value" lines; with several blocks each is headed by a comment line naming its
 * workload and O_SYNC setting (no "name: value" a parser would take as a figure), while a run of one
 * block prints exactly what LKP's stats print. */
static void lkp(FILE *f, const struct store_point *p, size_t n)
{
	double max = 0, jobs = 0;
	int several = n && report_export_block_end(p, n, 0) < n;
	for (size_t i = 0; i < n; i++) {
		if (!p[i].valid)
			continue;
		if (several && (i == 0 || report_export_block_end(p, n, i - 1) == i))
			report_export_heading(f, "# ", &p[i]);
		jobs += (double)p[i].jobs_per_task * p[i].tasks;
		fprintf(f, "tasks: %d\njobs_per_min: %.2f\njobs_per_min_child: %.2f\nparent_time: %.2f\n"
			   "child_utime: %.2f\nchild_systime: %.2f\nstd_dev_time: %.4f\nstd_dev_percent: %.2f\n"
			   "jti: %d\n\n",
			p[i].tasks, p[i].jobs_per_min, p[i].jobs_per_min_task, p[i].real_s, p[i].user_s,
			p[i].sys_s, p[i].std_dev_s, p[i].std_dev_pct, report_jti(&p[i]));
		/* the workload's result is a figure without a load beside it: a loaded point's is not */
		if (!p[i].load[0] || strcmp(p[i].load, "no_load") == 0)
			max = p[i].jobs_per_min > max ? p[i].jobs_per_min : max;
	}
	/* LKP's names: the total jobs of the valid points, and the best point without a background load */
	fprintf(f, "workload: %.0f\nmax_jobs_per_min: %.2f\n", jobs, max);
}

/* `"name": value` of one figure of a row. */
static void json_figure(FILE *f, const struct store_figure *fig, const void *row)
{
	const char *at = (const char *)row + fig->offset;
	int iv;
	int64_t lv;
	textout_json_string(f, fig->name);
	fputs(": ", f);
	switch (fig->type) {
	case STORE_FIG_INT:
		memcpy(&iv, at, sizeof(iv));
		fprintf(f, "%d", iv);
		break;
	case STORE_FIG_BOOL:
		memcpy(&iv, at, sizeof(iv));
		fputs(iv ? "true" : "false", f);
		break;
	case STORE_FIG_I64:
		memcpy(&lv, at, sizeof(lv));
		fprintf(f, "%lld", (long long)lv);
		break;
	case STORE_FIG_REAL: textout_json_number(f, fig->fmt, store_figure_double(fig, row)); break;
	case STORE_FIG_TEXT: textout_json_string(f, at); break;
	}
}

/* The figures of a row in one group, each followed by sep. */
static void json_figures(FILE *f, const struct store_figure_table *t, const void *row, enum store_fig_group g,
			 const char *sep)
{
	const char *between = "";
	for (size_t i = 0; i < t->count; i++) {
		if (t->fig[i].group != g)
			continue;
		fputs(between, f);
		json_figure(f, &t->fig[i], row);
		between = sep;
	}
}

static void json_string_or_null(FILE *f, const char *s)
{
	if (s)
		textout_json_string(f, s);
	else
		fputs("null", f);
}

/* The point's kernel counters: each one's change over the measured window. */
static void json_counters(FILE *f, struct store *st, int64_t point_id)
{
	struct store_counter *c;
	size_t n;
	if (store_get_counters(st, point_id, &c, &n) < 0 || n == 0)
		return;
	fputs("\"counters\": [", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", {\"source\": " : "{\"source\": ", f);
		textout_json_string(f, c[i].source);
		fputs(", \"name\": ", f);
		textout_json_string(f, c[i].name);
		fputs(", \"value\": ", f);
		textout_json_number(f, "%.17g", c[i].value);
		fputs(", \"unit\": ", f);
		textout_json_string(f, c[i].unit);
		fputs(", \"running_pct\": ", f);
		textout_json_number(f, "%.17g", c[i].running_pct);
		fputc('}', f);
	}
	fputs("], ", f);
	free(c);
}

static void json_tests(FILE *f, struct store *st, int64_t point_id)
{
	struct store_test *t;
	size_t n;
	fprintf(f, "\"tests\": [");
	if (store_get_tests(st, point_id, &t, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			fprintf(f, "%s{\"name\": ", i ? ", " : "");
			textout_json_string(f, t[i].name);
			fputs(", ", f);
			json_figures(f, &store_test_table, &t[i], STORE_FIG_CORE, ", ");
			fputc('}', f);
		}
		free(t);
	}
	fprintf(f, "]");
}

static void json_samples(FILE *f, struct store *st, int64_t point_id)
{
	struct store_sample *x;
	size_t n;
	if (store_get_samples(st, point_id, &x, &n) < 0 || n == 0)
		return;
	fprintf(f, "\"samples\": [");
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", {" : "{", f);
		json_figures(f, &store_sample_table, &x[i], STORE_FIG_CORE, ", ");
		fputc('}', f);
	}
	fprintf(f, "], ");
	free(x);
}


/* One workload's options as stored (o[0..n) are its rows): a list option (item >= 0) as an
 * array of its items. */
static void json_options(FILE *f, const struct store_option *o, size_t n)
{
	fputs("\"options\": {", f);
	for (size_t i = 0; i < n; i++) {
		int new_key = i == 0 || strcmp(o[i].key, o[i - 1].key) != 0;
		int last_item = i + 1 == n || strcmp(o[i + 1].key, o[i].key) != 0;
		if (new_key) {
			fputs(i ? ", " : "", f);
			textout_json_string(f, o[i].key);
			fputs(o[i].item >= 0 ? ": [" : ": ", f);
		} else {
			fputs(", ", f);
		}
		textout_json_string(f, o[i].value);
		if (last_item && o[i].item >= 0)
			fputc(']', f);
	}
	fputc('}', f);
}

/* Each workload with its workfile's text and its options, enough to run it again. */
static void json_workloads(FILE *f, struct store *st, int64_t run_id)
{
	struct store_workload_row *w;
	struct store_option *o;
	size_t nw, n;
	fprintf(f, "\"workloads\": [");
	if (store_get_workloads(st, run_id, &w, &nw) < 0)
		w = NULL, nw = 0;
	if (store_get_workload_options(st, run_id, &o, &n) < 0)
		o = NULL, n = 0;
	size_t k = 0;
	for (size_t i = 0; i < nw; i++) {
		char *text = NULL;
		fprintf(f, "%s{\"id\": %lld, \"name\": ", i ? ", " : "", (long long)w[i].id);
		textout_json_string(f, w[i].name);
		fputs(", \"workfile\": ", f);
		textout_json_string(f, w[i].workfile_name);
		fputs(", \"workfile_text\": ", f);
		json_string_or_null(f, store_get_workfile_text(st, w[i].id, &text) == 0 ? text : NULL);
		free(text);
		fputs(", ", f);
		/* both are ordered by workload id */
		while (k < n && o[k].workload_id < w[i].id)
			k++;
		size_t first = k;
		while (k < n && o[k].workload_id == w[i].id)
			k++;
		json_options(f, o + first, k - first);
		fputc('}', f);
	}
	store_options_free(o, n);
	free(w);
	fprintf(f, "], ");
}

/* How the run was made: command line, version, seed, suite text, the run it repeats and the
 * points it planned (null when its modes cannot say; exact false: at most that many). */
static void json_origin(FILE *f, struct store *st, const struct store_run_row *run)
{
	char *cmdline = NULL, *suite_text = NULL;
	if (store_get_run_text(st, run->id, &cmdline, &suite_text) < 0)
		cmdline = suite_text = NULL;
	fputs(", \"command_line\": ", f);
	json_string_or_null(f, cmdline);
	fputs(", \"version\": ", f);
	textout_json_string(f, run->version);
	fprintf(f, ", \"seed\": %lld, \"suite_text\": ", (long long)run->seed);
	json_string_or_null(f, suite_text);
	fputs(", \"rerun_of\": ", f);
	json_string_or_null(f, run->rerun_of[0] ? run->rerun_of : NULL);
	if (run->planned_points > 0)
		fprintf(f, ", \"planned_points\": %lld, \"planned_exact\": %s", (long long)run->planned_points,
			run->planned_exact ? "true" : "false");
	else
		fputs(", \"planned_points\": null, \"planned_exact\": false", f);
	free(cmdline);
	free(suite_text);
}

/* The points in blocks, as show and the tables print them: per workload, CPU count and O_SYNC setting
 * (off first), the indexes of its points in "points". */
static void json_blocks(FILE *f, const struct store_point *p, size_t n)
{
	fputs("\"blocks\": [", f);
	for (size_t s = 0, e; s < n; s = e) {
		e = report_export_block_end(p, n, s);
		fputs(s ? ", {\"workload\": " : "{\"workload\": ", f);
		textout_json_string(f, p[s].workload);
		fprintf(f, ", \"osync\": \"%s\", \"cpus\": %d, \"points\": [", p[s].osync ? "on" : "off", p[s].cpus);
		for (size_t i = s; i < e; i++)
			fprintf(f, "%s%zu", i > s ? ", " : "", i);
		fputs("]}", f);
	}
	fputc(']', f);
}

static void json(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *p,
		 size_t n, const struct report_export_opts *opts)
{
	(void)opts;
	fprintf(f, "{\"format_version\": %d, \"run\": {\"id\": %lld, \"uuid\": ", EXPORT_FORMAT_VERSION,
		(long long)run->id);
	textout_json_string(f, run->uuid);
	const char *keys[] = {"label", "suite", "status", "started", "mode", "reason"};
	const char *vals[] = {run->label, run->suite, run->status, run->started, run->mode, run->reason};
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		fprintf(f, ", \"%s\": ", keys[i]);
		textout_json_string(f, vals[i]);
	}
	json_origin(f, st, run);
	fprintf(f, "}, \"environment\": {");
	char **kv;
	size_t nkv;
	if (store_get_env(st, run->id, &kv, &nkv) == 0) {
		for (size_t i = 0; i < nkv; i++) {
			char *tab = strchr(kv[i], '\t');
			*tab = '\0';
			fprintf(f, "%s", i ? ", " : "");
			textout_json_string(f, kv[i]);
			fprintf(f, ": ");
			textout_json_string(f, tab + 1);
			free(kv[i]);
		}
		free(kv);
	}
	fprintf(f, "}, ");
	json_workloads(f, st, run->id);
	fprintf(f, "\"points\": [");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n{\"workload\": ", i ? "," : "");
		textout_json_string(f, p[i].workload);
		fputs(", ", f);
		json_figures(f, &store_point_table, &p[i], STORE_FIG_CORE, ", ");
		fputs(", ", f);
		if (p[i].sampled) {
			fputs("\"system\": {", f);
			json_figures(f, &store_point_table, &p[i], STORE_FIG_SYSTEM, ", ");
			fputs("}, ", f);
		}
		json_samples(f, st, p[i].id);
		json_counters(f, st, p[i].id);
		json_tests(f, st, p[i].id);
		fprintf(f, "}");
	}
	fprintf(f, "],\n");
	json_blocks(f, p, n);
	fprintf(f, "}\n");
}

/* The writers as the format table calls them: every one gets the run, its points and the store. */
static void write_csv(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *p,
		      size_t n, const struct report_export_opts *opts)
{
	(void)opts;
	(void)st, (void)run;
	csv(f, p, n);
}

/* Every stored counter of every point, one line each, keyed as the classic CSV's rows are. */
static void write_counters(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *p,
			   size_t n, const struct report_export_opts *opts)
{
	(void)run, (void)opts;
	fputs("workload,osync,variant,tasks,round,valid,source,name,value,unit,running_pct\n", f);
	for (size_t i = 0; i < n; i++) {
		struct store_counter *c;
		size_t nc;
		if (store_get_counters(st, p[i].id, &c, &nc) < 0)
			continue;
		for (size_t k = 0; k < nc; k++) {
			textout_csv_string(f, p[i].workload, 1);
			fprintf(f, ",%s,", p[i].osync ? "on" : "off");
			textout_csv_string(f, p[i].variant, 1);
			fprintf(f, ",%d,%d,%d,", p[i].tasks, p[i].repeat + 1, p[i].valid ? 1 : 0);
			textout_csv_string(f, c[k].source, 1);
			fputc(',', f);
			textout_csv_string(f, c[k].name, 1);
			fputc(',', f);
			textout_csv_number(f, "%.17g", c[k].value);
			fputc(',', f);
			textout_csv_string(f, c[k].unit, 1);
			fputc(',', f);
			textout_csv_number(f, "%.17g", c[k].running_pct);
			fputc('\n', f);
		}
		free(c);
	}
}

static void write_lkp(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *p,
		      size_t n, const struct report_export_opts *opts)
{
	(void)opts;
	(void)st, (void)run;
	lkp(f, p, n);
}

/* The classic writers (report/classic.c) take the points alone. */
static void write_reaim7(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *p,
			 size_t n, const struct report_export_opts *opts)
{
	(void)opts;
	(void)st;
	(void)run;
	report_reaim7(f, p, n);
}

static void write_aim7(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *p,
		       size_t n, const struct report_export_opts *opts)
{
	(void)opts;
	(void)st;
	(void)run;
	report_aim7(f, p, n);
}

static void write_aim9(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *p,
		       size_t n, const struct report_export_opts *opts)
{
	(void)opts;
	(void)st;
	(void)run;
	report_aim9(f, p, n);
}

static void write_lava(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *p,
		       size_t n, const struct report_export_opts *opts)
{
	(void)opts;
	(void)st;
	report_lava(f, p, n, strcmp(run->mode, "single") == 0);
	report_lava_run(f, run);
}

/* .figures: the output is read as measurements (LKP's and mmtests' parsers take its maximum or
 * its table), so a run without a valid point has nothing to give it; csv, json, lava, counters
 * and kcidb say which points are valid. */
const struct export_format report_export_formats[] = {
	{.name = "csv", .help = "the classic re-aim CSV (Forks,JPM,JPM_C,...), one line per valid point",
	 .write = write_csv},
	{.name = "json", .help = "every stored figure, per-test statistic, sample, counter and environment key",
	 .write = json},
	{.name = "lkp", .help = "LKP's \"name: value\" lines (jobs_per_min, parent_time, ...)", .write = write_lkp,
	 .figures = 1},
	{.name = "reaim7",
	 .help = "re-aim-7's stdout, column for column, with its Max Jobs per Minute line (LKP's reaim parser); "
		 "its child times are the tasks' whole lives, where show's CPU is the window from the release to the "
		 "last job",
	 .write = write_reaim7,
	 .figures = 1},
	{.name = "aim7",
	 .help = "the AIM Suite VII multitask table: Tasks jobs/min jti jobs/min/task real cpu (LKP's aim7 parser); "
		 "its cpu is the tasks' whole lives (user + system), where show's CPU is the window from the release "
		 "to the last job",
	 .write = write_aim7,
	 .figures = 1},
	{.name = "aim9", .help = "the AIM9 single-user table of a `reaim single` run (LKP's and mmtests' aim9 parsers)",
	 .write = write_aim9,
	 .figures = 1},
	{.name = "lava", .help = "LAVA result lines, NAME pass|fail VALUE UNITS: Jobs/Min, Real, CPU and JTI of each point",
	 .write = write_lava},
	{.name = "counters", .help = "the kernel's counters of every point, one CSV line each (source, name, change, unit)",
	 .write = write_counters},
	{.name = "kcidb",
	 .help = "KCIDB schema v5 JSON: the kernel as checkout and build, a test per point (Jobs/Min its number)",
	 .write = report_kcidb},
	{.name = NULL},
};

static int any_valid(const struct store_point *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i].valid)
			return 1;
	return 0;
}

int report_export(FILE *f, struct store *st, int64_t run_id, const char *format,
		  const struct report_export_opts *opts, char *err, size_t errlen)
{
	const struct export_format *fmt = report_export_formats;
	while (fmt->name && strcmp(fmt->name, format) != 0)
		fmt++;
	if (!fmt->name) { /* the command line only passes names from the table */
		snprintf(err, errlen, "unknown export format '%s'", format);
		return -1;
	}
	struct store_run_row run;
	struct store_point *pts;
	size_t n;
	int gone;
	if (store_get_run(st, run_id, &run) < 0 || (gone = store_run_owner_gone(st, run_id)) < 0 ||
	    store_get_points(st, run_id, &pts, &n) < 0) {
		snprintf(err, errlen, "%s", store_error(st));
		return -1;
	}
	if (gone) {
		/* its row says 'running' until the next run on this host marks it: every format says now what
		 * that run will say */
		snprintf(run.status, sizeof(run.status), "interrupted");
		snprintf(run.reason, sizeof(run.reason), "%s", REPORT_OWNER_GONE);
	}
	if (fmt->figures && !any_valid(pts, n)) {
		/* a maximum of 0.00 would read as a measurement of a run that measured nothing */
		snprintf(err, errlen,
			 "run %lld failed: it has no valid point, so there is no figure to export as %s "
			 "('reaim show %lld' says why each point is invalid)",
			 (long long)run_id, fmt->name, (long long)run_id);
		free(pts);
		return -1;
	}
	fmt->write(f, st, &run, pts, n, opts);
	free(pts);
	if (!report_run_ended_badly(&run))
		return 0;
	snprintf(err, errlen, "run %lld %s%s%s%s: what it stored is exported, marked so", (long long)run_id,
		 report_run_ended_how(&run), run.reason[0] ? " (" : "", run.reason, run.reason[0] ? ")" : "");
	return 1;
}
