/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The classic Tasks / Jobs/Min / Real / CPU table and the single-user table, from stored rows;
 * the same functions print them while a run goes and in `reaim show`. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/noise.h"
#include "analysis/scaling.h"
#include "catalog/catalog.h"
#include "config/cfg.h"
#include "analysis/verdict.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

/* The -v table, for reading rather than for scripts: each column right-aligned to a width that holds
 * its widest value (a Jobs/Min of 10^9, a Real of 10^-6 s) and its header, so no value pushes the ones
 * after it; the text columns (variant, load, why a point is invalid or noisy) come last. The plain
 * table stays tab-separated, the fields scripts read. */
enum verbose_col { VC_TASKS, VC_JPM, VC_REAL, VC_CPU, VC_ROUND, VC_OSYNC, VC_JPM_TASK, VC_JTI, VC_SD, VC_USER,
		   VC_SYS, VC_MIN, VC_MAX };
static const struct verbose_column {
	const char *name;
	int width;
} verbose_cols[] = {
	[VC_TASKS] = {.name = "Tasks", .width = 6},	 [VC_JPM] = {.name = "Jobs/Min", .width = 13},
	[VC_REAL] = {.name = "Real", .width = 11},	 [VC_CPU] = {.name = "CPU", .width = 10},
	[VC_ROUND] = {.name = "Round", .width = 9},	 [VC_OSYNC] = {.name = "O_SYNC", .width = 7},
	[VC_JPM_TASK] = {.name = "JPM/Task", .width = 13}, [VC_JTI] = {.name = "JTI", .width = 5},
	[VC_SD] = {.name = "StdDev%", .width = 8},	 [VC_USER] = {.name = "User", .width = 10},
	[VC_SYS] = {.name = "Sys", .width = 10},	 [VC_MIN] = {.name = "MinTask", .width = 10},
	[VC_MAX] = {.name = "MaxTask", .width = 10},
};

/* Whether the block's table has column c. */
static int verbose_has(const struct report_block *b, enum verbose_col c)
{
	return c == VC_ROUND ? b->plan.rounds > 1 : c == VC_OSYNC ? b->plan.osync < 0 : 1;
}

/* One cell of the -v table: text right-aligned in its column (a blank before it when it is wider). */
static void verbose_cell(FILE *f, enum verbose_col c, const char *text)
{
	int w = verbose_cols[c].width - (c == VC_TASKS ? 0 : 1), len = (int)strlen(text);
	fprintf(f, "%s%*s%s", c == VC_TASKS ? "" : " ", len < w ? w - len : 0, "", text);
}

static void verbose_header(FILE *f, const struct report_block *b)
{
	for (size_t c = 0; c < ARRAY_SIZE(verbose_cols); c++)
		if (verbose_has(b, (enum verbose_col)c))
			verbose_cell(f, (enum verbose_col)c, verbose_cols[c].name);
	fputs(b->plan.variants ? "  Variant" : "", f);
	fputs(b->plan.loads ? "  Load" : "", f);
	fputc('\n', f);
}

void report_block_begin(FILE *f, const struct report_block *b)
{
	fputs("\nWorkload ", f);
	fput_text(f, b->plan.workload, 0);
	fprintf(f, ", O_SYNC %s", b->plan.osync < 0 ? "on and off, interleaved" : b->plan.osync ? "on" : "off");
	if (b->plan.cpus > 0)
		fprintf(f, ", %d CPU%s", b->plan.cpus, b->plan.cpus == 1 ? "" : "s");
	fputc('\n', f);
	if (b->verbose) {
		verbose_header(f, b);
		return;
	}
	fprintf(f, "Tasks\tJobs/Min\tReal\tCPU");
	if (b->plan.rounds > 1)
		fprintf(f, "\tRound");
	if (b->plan.osync < 0)
		fprintf(f, "\tO_SYNC");
	if (b->plan.variants)
		fprintf(f, "\tVariant");
	if (b->plan.loads)
		fprintf(f, "\tLoad");
	fputc('\n', f);
}

double report_point_cpu_s(const struct store_point *p)
{
	return isfinite(p->window_cpu_s) ? p->window_cpu_s : p->cpu_s;
}

int report_jti(const struct store_point *p)
{
	return isfinite(p->jti) && p->jti > 0 && p->jti < 1e9 ? (int)p->jti : 0;
}

int report_real_decimals(double real_s)
{
	if (!(real_s > 0) || real_s >= 1 || !isfinite(real_s))
		return 2;
	int d = 2 - (int)floor(log10(real_s));
	return d > 6 ? 6 : d;
}

/* A row of the -v table: the numbers in their columns ("-" where an invalid point has none), then the
 * text columns and notes. */
static void verbose_row(FILE *f, const struct report_block *b, const struct store_point *p)
{
	char v[ARRAY_SIZE(verbose_cols)][48];
	int ok = p->valid != 0;
	snprintf(v[VC_TASKS], sizeof(v[0]), "%d", p->tasks);
	if (ok)
		textout_fig(v[VC_JPM], sizeof(v[0]), p->jobs_per_min, "%.1f", p->jobs_per_min);
	else
		snprintf(v[VC_JPM], sizeof(v[0]), "INVALID");
	textout_fig(v[VC_REAL], sizeof(v[0]), p->real_s, "%.*f", report_real_decimals(p->real_s), p->real_s);
	textout_fig(v[VC_CPU], sizeof(v[0]), report_point_cpu_s(p), ok ? "%.2f" : "%.1f", report_point_cpu_s(p));
	snprintf(v[VC_ROUND], sizeof(v[0]), "%d/%d", p->repeat + 1, b->plan.rounds);
	snprintf(v[VC_OSYNC], sizeof(v[0]), "%s", p->osync ? "on" : "off");
	const double fig[] = {[VC_JPM_TASK] = p->jobs_per_min_task, [VC_SD] = p->std_dev_pct, [VC_USER] = p->user_s,
			      [VC_SYS] = p->sys_s, [VC_MIN] = p->min_task_s, [VC_MAX] = p->max_task_s};
	static const char *const fmt[] = {[VC_JPM_TASK] = "%.2f", [VC_SD] = "%.1f", [VC_USER] = "%.1f",
					  [VC_SYS] = "%.1f", [VC_MIN] = "%.2f", [VC_MAX] = "%.2f"};
	for (size_t c = VC_JPM_TASK; c < ARRAY_SIZE(verbose_cols); c++)
		if (!ok)
			snprintf(v[c], sizeof(v[0]), "-");
		else if (c == VC_JTI)
			snprintf(v[c], sizeof(v[0]), "%d", report_jti(p));
		else
			textout_fig(v[c], sizeof(v[0]), fig[c], fmt[c], fig[c]);
	for (size_t c = 0; c < ARRAY_SIZE(verbose_cols); c++)
		if (verbose_has(b, (enum verbose_col)c))
			verbose_cell(f, (enum verbose_col)c, v[c]);
	if (b->plan.variants) {
		fputs("  ", f);
		fput_text(f, p->variant[0] ? p->variant : "-", 0);
	}
	if (b->plan.loads) {
		fputs("  ", f);
		fput_text(f, p->load[0] ? p->load : "-", 0);
	}
	if (!ok) {
		fputs("  ", f);
		fput_text(f, p->reason, 0);
	} else if (noise_of_point(p)) {
		fprintf(f, "  noisy: %s", noise_of_point(p));
	}
	fputc('\n', f);
}

void report_block_row(FILE *f, const struct report_block *b, const struct store_point *p)
{
	if (b->verbose) {
		verbose_row(f, b, p);
		return;
	}
	char jpm[48], real[48], cpu[48];
	double cpu_s = report_point_cpu_s(p);
	textout_fig(jpm, sizeof(jpm), p->jobs_per_min, "%.1f", p->jobs_per_min);
	textout_fig(real, sizeof(real), p->real_s, "%.*f", report_real_decimals(p->real_s), p->real_s);
	textout_fig(cpu, sizeof(cpu), cpu_s, p->valid ? "%.2f" : "%.1f", cpu_s);
	fprintf(f, "%d\t%s\t\t%s\t%s", p->tasks, p->valid ? jpm : "INVALID", real, cpu);
	if (b->plan.rounds > 1)
		fprintf(f, "\t%d/%d", p->repeat + 1, b->plan.rounds);
	if (b->plan.osync < 0)
		fprintf(f, "\t%s", p->osync ? "on" : "off");
	if (b->plan.variants) {
		fputc('\t', f);
		fput_text(f, p->variant, 0);
	}
	if (b->plan.loads) {
		fputc('\t', f);
		fput_text(f, p->load, 0);
	}
	if (!p->valid) {
		fputc('\t', f);
		fput_text(f, p->reason, 0);
	}
	if (p->valid && noise_of_point(p) && b->brief)
		fputs("\tnoisy", f); /* within 80 columns: the cause is in the block's Noisy line */
	else if (p->valid && noise_of_point(p))
		fprintf(f, "\tnoisy: %s", noise_of_point(p));
	fputc('\n', f);
}

static int by_tasks(const void *a, const void *b)
{
	const struct store_point *x = a, *y = b;
	if (x->tasks != y->tasks)
		return (x->tasks > y->tasks) - (x->tasks < y->tasks);
	return (x->repeat > y->repeat) - (x->repeat < y->repeat);
}

/* Points at one task count: all of them, and the valid ones' mean Jobs/Min per task and,
 * unless cpu is NULL, their CPU as the table shows it. */
static size_t points_at(const struct store_point *pts, size_t n, int tasks, struct summary *jpm_task,
			struct summary *cpu)
{
	double *v = xcalloc(n + 1, sizeof(double)), *c = xcalloc(n + 1, sizeof(double));
	size_t all = 0, k = 0;
	for (size_t i = 0; i < n; i++) {
		if (pts[i].tasks != tasks)
			continue;
		all++;
		if (pts[i].valid) {
			c[k] = report_point_cpu_s(&pts[i]);
			v[k++] = pts[i].jobs_per_min_task;
		}
	}
	measure_summary(v, k, jpm_task);
	if (cpu)
		measure_summary(c, k, cpu);
	free(v);
	free(c);
	return all;
}

/* Half the 95 % confidence interval of a mean, in % of it (analysis/verdict.c); NaN below 2 samples.
 * A block made with --precision: the interval over its looks, which holds where its rounds stopped. */
static double ci95_pct(const struct report_block *b, const struct summary *s)
{
	return verdict_summary_halfwidth_pct(s, VERDICT_ALPHA, b->plan.looks > 1 ? (size_t)b->plan.looks : 1);
}

/* "(mean of 3 rounds, ±2.1% at 95%)": how many points a figure stands for, when more than one,
 * and how sure its mean is. */
static void rounds_note(char *buf, size_t len, size_t valid, size_t all, double ci_pct)
{
	char ci[32] = "";
	if (isfinite(ci_pct))
		snprintf(ci, sizeof(ci), ", ±%.1f%% at 95%%", ci_pct);
	if (all <= 1)
		buf[0] = '\0';
	else if (valid == all)
		snprintf(buf, len, " (mean of %zu rounds%s)", valid, ci);
	else
		snprintf(buf, len, " (mean of %zu of %zu rounds%s)", valid, all, ci);
}

/* Crossover and quick modes stop at the first task count whose mean Jobs/Min per task over
 * its valid rounds falls below the threshold; the last task count run says whether it did. */
static void crossover_line(FILE *f, const struct report_block *b, const struct store_point *pts, size_t n)
{
	struct summary s;
	int tasks = pts[n - 1].tasks;
	size_t all = points_at(pts, n, tasks, &s, NULL);
	if (s.n == 0 || s.mean >= b->plan.threshold)
		return;
	if (all > 1)
		fprintf(f, "Crossover: mean Jobs/Min per task %.2f over %zu rounds fell below %g at %d tasks\n", s.mean,
			s.n, b->plan.threshold, tasks);
	else
		fprintf(f, "Crossover: Jobs/Min per task %.2f fell below %g at %d tasks\n", s.mean, b->plan.threshold,
			tasks);
}

static void peak_line(FILE *f, const struct curve *c, const struct store_point *pts, size_t n)
{
	const struct curve_point *pk = curve_peak(c);
	if (!pk)
		return;
	/* sorted by task count: the distinct counts and their range */
	size_t counts = 0;
	for (size_t i = 0; i < n; i++)
		counts += i == 0 || pts[i].tasks != pts[i - 1].tasks;
	char how[64];
	if (pk->jpm.n > 1)
		snprintf(how, sizeof(how), "mean of %zu rounds, cv %.1f%%", pk->jpm.n, pk->jpm.cv_pct);
	else
		snprintf(how, sizeof(how), "one round");
	fprintf(f, "Peak: %.1f Jobs/Min at %d tasks (%s), found with %zu task counts from %d to %d\n", pk->jpm.mean,
		pk->tasks, how, counts, pts[0].tasks, pts[n - 1].tasks);
}

/* Mean, CV, its 95 % interval, range and count of the rounds at each task count that has more
 * than one point. */
static void means_table(FILE *f, const struct report_block *b, const struct curve *c, const struct store_point *pts,
			size_t n)
{
	int repeated = 0;
	for (size_t i = 1; i < n; i++)
		repeated |= pts[i].tasks == pts[i - 1].tasks;
	if (!repeated || c->count == 0)
		return;
	fprintf(f, "Means over the valid rounds:\nTasks\tJobs/Min\t±CV%%\t±CI95%%\tMin\tMax\tRounds\tReal\tCPU\n");
	for (size_t i = 0; i < c->count; i++) {
		const struct curve_point *cp = &c->points[i];
		struct summary ignored, cpu;
		size_t all = points_at(pts, n, cp->tasks, &ignored, &cpu);
		double ci = ci95_pct(b, &cp->jpm);
		char v[7][48];
		textout_fig(v[0], sizeof(v[0]), cp->jpm.mean, "%.1f", cp->jpm.mean);
		textout_fig(v[1], sizeof(v[1]), cp->jpm.cv_pct, "%.1f", cp->jpm.cv_pct);
		textout_fig(v[2], sizeof(v[2]), ci, "%.1f", ci);
		textout_fig(v[3], sizeof(v[3]), cp->jpm.min, "%.1f", cp->jpm.min);
		textout_fig(v[4], sizeof(v[4]), cp->jpm.max, "%.1f", cp->jpm.max);
		textout_fig(v[5], sizeof(v[5]), cp->real_s.mean, "%.*f", report_real_decimals(cp->real_s.mean),
			    cp->real_s.mean);
		textout_fig(v[6], sizeof(v[6]), cpu.mean, "%.2f", cpu.mean);
		fprintf(f, "%d\t%s\t\t%s\t%s\t%s\t%s\t%zu/%zu\t%s\t%s\n", cp->tasks, v[0], v[1], v[2], v[3], v[4],
			cp->jpm.n, all, v[5], v[6]);
	}
	/* rounds of one run share its machine's state: their interval is narrower than the truth */
	fprintf(f, "±CI95%%: half the 95%% interval of the mean over this run's rounds; they share\n"
		   "one machine state, so runs as replicates (compare A1,A2 B1,B2) say more.\n");
	if (b->plan.looks > 1)
		fprintf(f, "With --precision the interval holds over its %d looks (each at %.3g%%).\n", b->plan.looks,
			100 * (1 - VERDICT_ALPHA / b->plan.looks));
}

/* The 95 % interval reached at each task count, against the precision asked. */
static void precision_table(FILE *f, const struct report_block *b, const struct store_point *pts, size_t n)
{
	double *v = xcalloc(n + 1, sizeof(double));
	size_t looks = b->plan.looks > 1 ? (size_t)b->plan.looks : 1;
	fprintf(f, "Precision asked: the 95%% confidence interval of the mean Jobs/Min within ±%g%%, over\n"
		   "%zu looks (each at %.3g%%, so the interval where the rounds stopped still covers with 95%%)\n"
		   "Tasks\t±CI%%\tRounds\tReached\n", b->plan.precision, looks, 100 * (1 - VERDICT_ALPHA / (double)looks));
	for (size_t i = 0, e; i < n; i = e) {
		size_t k = 0;
		for (e = i; e < n && pts[e].tasks == pts[i].tasks; e++)
			if (pts[e].valid)
				v[k++] = pts[e].jobs_per_min;
		double reached;
		int yes = verdict_precision_reached(v, k, b->plan.precision, looks, &reached);
		fprintf(f, "%d\t", pts[i].tasks);
		if (isfinite(reached))
			fprintf(f, "%.2f", reached);
		else
			fprintf(f, "-");
		fprintf(f, "\t%zu\t%s\n", k, yes ? "yes" : "no");
	}
	free(v);
}

/* The summary lines of one arm's points (all the block's, or one variant's), sorted by task count. */
static void block_summary(FILE *f, const struct report_block *b, const struct store_point *pts, size_t n,
			  int finished)
{
	struct store_point *sorted = xcalloc(n + 1, sizeof(*sorted));
	if (n)
		memcpy(sorted, pts, n * sizeof(*pts));
	qsort(sorted, n, sizeof(*sorted), by_tasks);
	struct curve c;
	curve_from_points(&c, sorted, n, metric_find("jobs_per_min"));
	if (n && (b->plan.mode == MODE_CROSSOVER || b->plan.mode == MODE_QUICK))
		crossover_line(f, b, pts, n);
	if (n && b->plan.mode == MODE_PEAK && finished)
		peak_line(f, &c, sorted, n);
	means_table(f, b, &c, sorted, n);
	if (b->plan.precision > 0 && n)
		precision_table(f, b, sorted, n);
	const struct curve_point *best = curve_peak(&c);
	if (best) {
		struct summary ignored;
		char note[64];
		rounds_note(note, sizeof(note), best->jpm.n, points_at(sorted, n, best->tasks, &ignored, NULL),
			    ci95_pct(b, &best->jpm));
		char max[48];
		fprintf(f, "Max Jobs per Minute %s at %d tasks%s\n",
			textout_fig(max, sizeof(max), best->jpm.mean, "%.1f", best->jpm.mean), best->tasks, note);
	} else {
		fprintf(f, "Max Jobs per Minute: no valid point\n");
	}
	char why[STORE_TEXT_LEN];
	size_t noisy = noise_count_points(pts, n, 0, why, sizeof(why)), valid = 0;
	for (size_t i = 0; i < n; i++)
		valid += pts[i].valid != 0;
	if (noisy) {
		char *line = xasprintf("Noisy: %zu of %zu valid points measured in outside load or steal, the worst %s",
				       noisy, valid, why);
		report_wrap(f, line, "", b->brief ? 80 : 0);
		free(line);
	}
	curve_free(&c);
	free(sorted);
}

void report_block_settings(FILE *f, const struct report_block *b, const struct store_point *pts, size_t n,
			   int finished)
{
	struct store_point *one = xcalloc(n + 1, sizeof(*one));
	for (int osync = 0; osync <= 1; osync++) {
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			if (pts[i].osync == osync)
				one[k++] = pts[i];
		if (k == 0)
			continue;
		struct report_block setting = *b;
		setting.plan.osync = osync;
		report_block_begin(f, &setting);
		for (size_t i = 0; i < k; i++)
			report_block_row(f, &setting, &one[i]);
		report_block_end(f, &setting, one, k, finished);
	}
	free(one);
}

void report_block_end(FILE *f, const struct report_block *b, const struct store_point *pts, size_t n,
		      int finished)
{
	if (b->plan.osync < 0) {
		report_block_settings(f, b, pts, n, finished);
		return;
	}
	if (b->plan.loads) {
		/* loads are never averaged together: each its own summary, then contest's table */
		struct report_block one_load = *b;
		one_load.plan.loads = 0;
		struct store_point *one = xcalloc(n + 1, sizeof(*one));
		struct load_row *rows;
		size_t nr = loads_table(pts, n, &rows);
		for (size_t k = 0; k < nr; k++) {
			size_t seen = 0;
			while (seen < k && strcmp(rows[seen].load, rows[k].load) != 0)
				seen++;
			if (seen < k)
				continue;
			size_t m = 0;
			for (size_t i = 0; i < n; i++)
				if (strcmp(pts[i].load, rows[k].load) == 0)
					one[m++] = pts[i];
			fprintf(f, "Load %s:\n", rows[k].load);
			report_block_end(f, &one_load, one, m, finished);
		}
		fprintf(f, "Loads as contest shows them (Ratio: no_load's Jobs/Min over the load's;\n"
			   "Loads: its units of work in the measured window; LCPU%%: its CPU, %% of one CPU)\n");
		fprintf(f, "Load\tTasks\tJobs/Min\tRatio\tLoads\tLCPU%%\tn\n");
		for (size_t k = 0; k < nr; k++) {
			if (rows[k].n == 0) { /* no valid point: nothing to show but that */
				fprintf(f, "%s\t%d\tINVALID\t\t-\t-\t-\t0\n", rows[k].load, rows[k].tasks);
				continue;
			}
			char jpm[48], ratio[48];
			fprintf(f, "%s\t%d\t%s\t\t%s\t", rows[k].load, rows[k].tasks,
				textout_fig(jpm, sizeof(jpm), rows[k].jpm, "%.1f", rows[k].jpm),
				textout_fig(ratio, sizeof(ratio), rows[k].ratio, "%.2f", rows[k].ratio));
			if (isfinite(rows[k].units))
				fprintf(f, "%.0f\t%.1f", rows[k].units, rows[k].cpu_pct);
			else
				fputs("-\t-", f);
			fprintf(f, "\t%zu\n", rows[k].n);
		}
		free(rows);
		free(one);
		return;
	}
	if (!b->plan.variants) {
		block_summary(f, b, pts, n, finished);
		return;
	}
	/* variants are never averaged together: each has its own means and Max line */
	const char **names;
	size_t nv = curve_variants(pts, n, &names);
	struct store_point *one = xcalloc(n + 1, sizeof(*one));
	for (size_t k = 0; k < nv; k++) {
		fprintf(f, "Variant %s:\n", names[k]);
		block_summary(f, b, one, curve_select_variant(pts, n, names[k], one), finished);
	}
	free(one);
	free(names);
}

void report_single_begin(FILE *f, const char *workfile, int osync, long long file_kib)
{
	fprintf(f, "\nSingle-user (AIM9) mode, workfile %s, O_SYNC %s, file %lld KiB\n", workfile, osync ? "on" : "off",
		file_kib);
	fprintf(f, "%-18s %9s %9s %12s %14s  %s\n", "Test", "Calls", "Seconds", "Calls/s", "Ops/s", "Units");
}

void report_single_row(FILE *f, const struct store_point *p)
{
	const struct test_def *t = test_find(p->workload);
	double rate = p->real_s > 0 ? (double)p->jobs_per_task / p->real_s : 0;
	fprintf(f, "%-18s %9lld %9.2f %12.1f %14.1f  %s", p->workload, (long long)p->jobs_per_task, p->real_s, rate,
		t ? rate * (double)t->ops_per_call : rate, t ? t->units : "calls");
	if (t && (t->flags & TF_SIZED))
		fprintf(f, " (%.0f KiB/s)", rate * (double)p->file_kib / (t->flags & TF_HALF ? 2 : 1));
	fputc('\n', f);
}
