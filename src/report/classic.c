/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Outputs other programs parse: re-aim-7's stdout and CSV, AIM Suite VII's multitask table,
 * AIM Suite IX's single-user table and LAVA result lines, all from stored points. */
#include "config.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/curves.h"
#include "catalog/catalog.h"
#include "report/classic.h"
#include "report/report.h"
#include "util/util.h"

/* Points in blocks: by workload (as stored), O_SYNC off before on, then as they ran; a copy to free. */
static int by_block(const void *a, const void *b)
{
	const struct store_point *x = a, *y = b;
	if (x->workload_id != y->workload_id)
		return (x->workload_id > y->workload_id) - (x->workload_id < y->workload_id);
	if (x->osync != y->osync)
		return x->osync - y->osync;
	return (x->id > y->id) - (x->id < y->id);
}

static struct store_point *in_blocks(const struct store_point *pts, size_t n)
{
	struct store_point *v = xcalloc(n + 1, sizeof(*v));
	if (n)
		memcpy(v, pts, n * sizeof(*v));
	qsort(v, n, sizeof(*v), by_block);
	return v;
}

void report_export_heading(FILE *f, const char *lead, const struct store_point *p)
{
	fputs(lead, f);
	fputs("Workload ", f);
	fput_text(f, p->workload, 0);
	fprintf(f, ", O_SYNC %s", p->osync ? "on" : "off");
	if (p->cpus > 0)
		fprintf(f, ", %d CPU%s", p->cpus, p->cpus == 1 ? "" : "s");
	fputc('\n', f);
}

size_t report_export_block_end(const struct store_point *pts, size_t n, size_t start)
{
	size_t e = start;
	while (e < n && pts[e].workload_id == pts[start].workload_id && pts[e].osync == pts[start].osync &&
	       pts[e].cpus == pts[start].cpus)
		e++;
	return e;
}


void report_reaim7_preamble(FILE *f, int nosync)
{
	fputc('\n', f); /* re-aim-7 printed it after reading its config */
	if (nosync)
		fprintf(f, "Not executing sync during disk activity---faster execution.\n");
	else
		fprintf(f, "Using default sync behavior during disk activity;  consider using -y.\n");
}

void report_reaim7_header(FILE *f)
{
	fprintf(f, "REAIM Workload\nTimes are in seconds - Child times from tms.cstime and tms.cutime\n\n"
		   "Num     Parent   Child   Child  Jobs per   Jobs/min/  Std_dev  Std_dev  JTI\n"
		   "Forked  Time     SysTime UTime   Minute     Child      Time     Percent \n");
}

void report_reaim7_row(FILE *f, const struct store_point *p)
{
	if (!p->valid)
		return;
	fprintf(f, "%-8d%-8.*f %-7.2f %-7.2f %-10.2f %-10.2f %-8.2f %-8.2f %-4d \n", p->tasks,
		report_real_decimals(p->real_s), p->real_s, p->sys_s,
		p->user_s, p->jobs_per_min, p->jobs_per_min_task, p->std_dev_s, p->std_dev_pct, report_jti(p));
}

void report_reaim7_max(FILE *f, const struct store_point *pts, size_t n)
{
	double max = 0.0;
	int any = 0;
	for (size_t i = 0; i < n; i++)
		if (pts[i].valid && (!any || pts[i].jobs_per_min > max)) {
			max = pts[i].jobs_per_min;
			any = 1;
		}
	/* no valid point: no line, as a "0.00" would be read as the maximum measured */
	if (any)
		fprintf(f, "Max Jobs per Minute %.2f\n", max);
}

void report_reaim7_stream_end(struct reaim7_stream *s)
{
	if (s->open && s->any)
		fprintf(s->f, "Max Jobs per Minute %.2f\n", s->max);
	s->open = 0;
}

void report_reaim7_stream(struct reaim7_stream *s, const struct store_point *p)
{
	if (!s->open || p->workload_id != s->workload_id || p->osync != s->osync || p->repeat != s->repeat) {
		report_reaim7_stream_end(s);
		/* each table says what it measured: the stream and the export print the same */
		fputc('\n', s->f);
		report_export_heading(s->f, "", p);
		fprintf(s->f, "Round %d\n", p->repeat + 1);
		report_reaim7_header(s->f);
		*s = (struct reaim7_stream){.f = s->f, .open = 1, .workload_id = p->workload_id, .osync = p->osync,
					    .repeat = p->repeat};
	}
	report_reaim7_row(s->f, p);
	if (p->valid && (!s->any || p->jobs_per_min > s->max)) {
		s->max = p->jobs_per_min;
		s->any = 1;
	}
}

void report_reaim7(FILE *f, const struct store_point *all, size_t n)
{
	struct reaim7_stream st = {.f = f};
	struct store_point *pts = in_blocks(all, n);
	for (size_t s = 0, e; s < n; s = e) {
		e = report_export_block_end(pts, n, s);
		int rounds = 0;
		for (size_t i = s; i < e; i++)
			rounds = pts[i].repeat + 1 > rounds ? pts[i].repeat + 1 : rounds;
		/* re-aim-7 ran its -r rounds one after the other, each with its own table */
		for (int r = 0; r < rounds; r++) {
			for (size_t i = s; i < e; i++)
				if (pts[i].repeat == r)
					report_reaim7_stream(&st, &pts[i]);
		}
	}
	report_reaim7_stream_end(&st);
	free(pts);
}

double report_single_ops(const struct store_point *p, const struct test_def *t, double *rate)
{
	*rate = p->real_s > 0 ? (double)p->jobs_per_task / p->real_s : 0.0;
	if (t->flags & TF_SIZED)
		return *rate * (double)p->file_kib / ((t->flags & TF_HALF) ? 2 : 1);
	return *rate * (double)t->ops_per_call;
}

/* The last valid point of each single-user test, in run order; returns how many. */
static size_t last_per_test(const struct store_point *pts, size_t n, const struct store_point **out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!pts[i].valid || !test_find(pts[i].workload))
			continue;
		size_t j = 0;
		while (j < k && strcmp(out[j]->workload, pts[i].workload) != 0)
			j++;
		if (j == k)
			out[k++] = &pts[i];
		else if (pts[i].repeat >= out[j]->repeat)
			out[j] = &pts[i];
	}
	return k;
}

void report_reaim7_single(FILE *f, const struct store_point *pts, size_t n)
{
	const struct store_point **last = n ? calloc(n, sizeof(*last)) : NULL;
	size_t k = last ? last_per_test(pts, n, last) : 0;
	fprintf(f, "Test   Test        Elapsed   Iteration Iteration      Operation\n"
		   "Number Name        Time(sec) Count     Rate(loops/s)  Rate (ops/sec)\n");
	for (size_t i = 0; i < k; i++) {
		const struct test_def *t = test_find(last[i]->workload);
		double rate, ops = report_single_ops(last[i], t, &rate);
		fprintf(f, "%-6zu %-10s %6.2f %8lld   %10.2f     %15.2f %s/second\n", i + 1, t->name, last[i]->real_s,
			(long long)last[i]->jobs_per_task, rate, ops, t->units);
	}
	free(last);
}

void report_classic_csv(FILE *f, const struct store_point *pts, size_t n)
{
	fprintf(f, "Forks,JPM,JPM_C,JPS_C,parent_tm,childU_tm,childS_tm,std_dev,JTI,max_c,min_c\n");
	for (size_t i = 0; i < n; i++) {
		const struct store_point *p = &pts[i];
		if (p->valid)
			fprintf(f, "%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f\n", p->tasks, p->jobs_per_min,
				p->jobs_per_min_task, p->jobs_per_min_task / 60.0, p->real_s, p->user_s, p->sys_s,
				p->std_dev_s, (double)report_jti(p), p->max_task_s, p->min_task_s);
	}
}

void report_aim7(FILE *f, const struct store_point *all, size_t n)
{
	static const char suite[] = "AIM Multiuser Benchmark - Suite VII";
	struct store_point *pts = in_blocks(all, n);
	fprintf(f, "\n%s Run Beginning\n\n", suite);
	for (size_t s = 0, e; s < n; s = e) {
		e = report_export_block_end(pts, n, s);
		if (s)
			fputc('\n', f);
		report_export_heading(f, "", &pts[s]);
		fprintf(f, "Tasks    jobs/min  jti  jobs/min/task      real       cpu\n");
		for (size_t i = s; i < e; i++)
			if (pts[i].valid)
				fprintf(f, "%5d%12.2f%5d%15.4f%10.*f%10.2f\n", pts[i].tasks, pts[i].jobs_per_min,
					report_jti(&pts[i]), pts[i].jobs_per_min_task, report_real_decimals(pts[i].real_s),
					pts[i].real_s, pts[i].cpu_s);
	}
	fprintf(f, "\n%s\n   Testing over\n", suite);
	free(pts);
}

const char *report_aim9_name(const char *test)
{
	return strcmp(test, "creat_clo") == 0 ? "creat-clo" : test;
}

void report_aim9(FILE *f, const struct store_point *pts, size_t n)
{
	static const char rule[] = "------------------------------------------------------------------------------"
				   "------------------------------";
	const struct store_point **last = n ? calloc(n, sizeof(*last)) : NULL;
	size_t k = last ? last_per_test(pts, n, last) : 0;
	fprintf(f, "%s\n Test        Test        Elapsed  Iteration    Iteration          Operation\n"
		   "Number       Name      Time (sec)   Count   Rate (loops/sec)    Rate (ops/sec)\n%s\n",
		rule, rule);
	for (size_t i = 0; i < k; i++) {
		const struct test_def *t = test_find(last[i]->workload);
		double rate, ops = report_single_ops(last[i], t, &rate);
		/* AIM9's widths, with a blank kept between the columns however large they grow */
		fprintf(f, "%6zu %-12s%13.2f%11lld %10.5f %15.2f %s/second\n", i + 1, report_aim9_name(t->name),
			last[i]->real_s, (long long)last[i]->jobs_per_task, rate, ops, t->units);
	}
	fprintf(f, "%s\n", rule);
	free(last);
}

/* A LAVA test case name: letters, digits, '_', '-' and '.' only. */
static void lava_sanitize(char *name)
{
	for (char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' && *c != '.')
			*c = '_';
}

static void lava_name(char *out, size_t len, const char *fmt, const char *workload, const char *rest)
{
	snprintf(out, len, fmt, workload, rest);
	lava_sanitize(out);
}

/* The figures of a point LAVA gets, a test case each: its name's last part, decimals and units. */
static const struct lava_figure {
	const char *suffix, *units;
	int decimals;
	size_t offset; /* a double in struct store_point */
} lava_figures[] = {
	{.suffix = "jobs_per_min", .units = "jobs/min", .decimals = 2, .offset = offsetof(struct store_point, jobs_per_min)},
	{.suffix = "real_s", .units = "s", .decimals = 4, .offset = offsetof(struct store_point, real_s)},
	{.suffix = "cpu_s", .units = "s", .decimals = 4, .offset = offsetof(struct store_point, cpu_s)},
	{.suffix = "jti", .units = "%", .decimals = 2, .offset = offsetof(struct store_point, jti)},
};

/* "WORKLOAD-" then what sets the point's arm apart, each only where the run has it: "variant_V-",
 * "load_L-" (no_load too, in a run with loads), "cpus_N-"; so no two arms share a test case name.
 * Then the rest, and the whole made a LAVA name. */
static void lava_arm_name(struct strbuf *sb, const struct store_point *p, const char *rest)
{
	sb->len = 0;
	strbuf_addf(sb, "%s-", p->workload);
	if (p->variant[0])
		strbuf_addf(sb, "variant_%s-", p->variant);
	if (p->load[0])
		strbuf_addf(sb, "load_%s-", p->load);
	if (p->cpus > 0)
		strbuf_addf(sb, "cpus_%d-", p->cpus);
	strbuf_addf(sb, "%s", rest);
	lava_sanitize(sb->buf);
}

/* A point's figures, a test case each. */
static void lava_point(FILE *f, const struct store_point *p, struct strbuf *name)
{
	char tail[96];
	const char *osync = p->osync ? "on" : "off";
	for (size_t k = 0; k < ARRAY_SIZE(lava_figures); k++) {
		const struct lava_figure *fig = &lava_figures[k];
		if (p->repeat > 0)
			snprintf(tail, sizeof(tail), "osync_%s-tasks_%d-round_%d-%s", osync, p->tasks, p->repeat + 1,
				 fig->suffix);
		else
			snprintf(tail, sizeof(tail), "osync_%s-tasks_%d-%s", osync, p->tasks, fig->suffix);
		lava_arm_name(name, p, tail);
		double v;
		memcpy(&v, (const char *)p + fig->offset, sizeof(v));
		if (p->valid)
			fprintf(f, "%s pass %.*f %s\n", name->buf, fig->decimals, v, fig->units);
		else
			fprintf(f, "%s fail\n", name->buf);
	}
}

/* The maximum of each arm of a block (variant, load, CPU count): the best mean over its rounds, as
 * show and compare name the peak; never the arms pooled. */
static void lava_maxima(FILE *f, const struct store_point *pts, size_t n, struct store_point *one,
			struct strbuf *name)
{
	const struct store_point **arms;
	size_t na = curve_arms(pts, n, &arms);
	for (size_t a = 0; a < na; a++) {
		struct curve c;
		curve_from_points(&c, one, curve_select_arm(pts, n, arms[a], one), metric_find("jobs_per_min"));
		const struct curve_point *pk = curve_peak(&c);
		lava_arm_name(name, arms[a], pts[0].osync ? "osync_on-max_jobs_per_min" : "osync_off-max_jobs_per_min");
		if (pk)
			fprintf(f, "%s pass %.2f jobs/min\n", name->buf, pk->jpm.mean);
		else
			fprintf(f, "%s fail\n", name->buf);
		curve_free(&c);
	}
	free(arms);
}

void report_lava(FILE *f, const struct store_point *pts, size_t n, int single)
{
	if (single) {
		char name[256];
		const struct store_point **last = n ? calloc(n, sizeof(*last)) : NULL;
		size_t k = last ? last_per_test(pts, n, last) : 0;
		for (size_t i = 0; i < k; i++) {
			double rate, ops = report_single_ops(last[i], test_find(last[i]->workload), &rate);
			lava_name(name, sizeof(name), "%s-%s", last[i]->workload, "ops_per_sec");
			fprintf(f, "%s pass %.2f ops/s\n", name, ops);
		}
		free(last);
		return;
	}
	struct store_point *one = xcalloc(n + 1, sizeof(*one));
	struct strbuf name = {0};
	for (size_t s = 0, e; s < n; s = e) {
		e = report_export_block_end(pts, n, s);
		for (size_t i = s; i < e; i++)
			lava_point(f, &pts[i], &name);
		lava_maxima(f, pts + s, e - s, one, &name);
	}
	strbuf_free(&name);
	free(one);
}

void report_lava_run(FILE *f, const struct store_run_row *run)
{
	const char *result = strcmp(run->status, "complete") == 0 ? "pass"
			     : strcmp(run->status, "running") == 0  ? "unknown"
								     : "fail";
	fprintf(f, "run-complete %s\n", result);
}

const char *report_run_ended_how(const struct store_run_row *run)
{
	return strcmp(run->status, "failed") == 0 ? "failed" : strcmp(run->status, "interrupted") == 0 ? "was interrupted"
											   : run->status;
}

int report_run_ended_badly(const struct store_run_row *run)
{
	return strcmp(run->status, "complete") != 0 && strcmp(run->status, "running") != 0;
}
