/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim compare --wide` as data: CSV (a line per block, row and side, the summary and TOTAL rows, a
 * line per run with --runs) and JSON (the blocks, their rows and cells with every statistic and run,
 * the summaries, the TOTAL). Every figure is the model's or analysis/cmpwide.c's; nothing is computed. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpwide.h"
#include "analysis/cmpmodel.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

/* A CSV row's block keys. */
static void csv_block(FILE *f, const struct compare_panel *p)
{
	textout_csv_string(f, p->workload, 0);
	fprintf(f, ",%s,", p->osync < 0 ? "" : p->osync ? "on" : "off");
	textout_csv_string(f, p->variant, 0);
}

static void csv_num(FILE *f, const char *fmt, double v)
{
	fputc(',', f);
	textout_csv_number(f, fmt, v);
}

/* The last columns of a row: the block's CPU count and load (unless the loads are the sides), then the
 * side's load's units and CPU at a task-count row (empty on the summary rows: i is SIZE_MAX), every
 * statistic of a cell's side but its mean (c NULL: empty), the run of a run's row (0: none). */
static void csv_tail(FILE *f, const struct compare_model *m, const struct wide_block *b, size_t side, size_t i,
		     const struct compare_cell *c, int64_t run)
{
	fprintf(f, ",%d,", b ? b->first->cpus : 0);
	textout_csv_string(f, m->kind == COMPARE_LOADS || !b ? "" : b->first->load, 0);
	double loads = NAN, lcpu = NAN;
	if (i != SIZE_MAX)
		compare_wide_loads(b, side, i, &loads, &lcpu);
	csv_num(f, "%.4f", loads);
	csv_num(f, "%.4f", lcpu);
	for (int k = COMPARE_STAT_MEAN + 1; k < COMPARE_NSTATS; k++)
		csv_num(f, "%.6g", c ? compare_cell_stat(c, side != 0, k) : NAN);
	fputc(',', f);
	if (run)
		fprintf(f, "%lld", (long long)run);
	fprintf(f, ",%s", m->metric->name);
	/* the raw change beside pct where pct is the verdict's (a side's cell, not the base's) */
	int judged_side = c && side && c->judged;
	csv_num(f, "%.3f", judged_side && c->raw_judged ? c->raw.change_pct : NAN);
	fprintf(f, ",%s\n", judged_side ? report_pct_kind(c) : "");
}

static const char *mean_format(const struct compare_model *m)
{
	return strcmp(m->metric->name, "jobs_per_min") == 0 ? "%.2f" : "%.6g";
}

/* A side's runs at row i of a block, a line each: n its points, mean its figure. */
static void csv_runs(FILE *f, const struct compare_model *m, const struct wide_block *b, size_t s, size_t i)
{
	const struct compare_cell *c = s ? compare_wide_cell(b, s, i) : &b->first->cells[i];
	const struct compare_run_value *r = s ? c->runs_b : c->runs_a;
	for (size_t k = 0; k < (s ? c->nruns_b : c->nruns_a); k++) {
		csv_block(f, b->first);
		fprintf(f, ",%d", c->tasks);
		report_csv_side(f, &m->sides[s]);
		fprintf(f, ",%zu", r[k].points);
		csv_num(f, mean_format(m), r[k].value);
		fputs(",,,,,,,", f);
		csv_tail(f, m, b, s, SIZE_MAX, NULL, r[k].run);
	}
}

/* A block's task-count rows: a line per side with a cell, then with --runs its runs. */
static void csv_cells(FILE *f, const struct compare_model *m, const struct wide_block *b)
{
	for (size_t i = 0; i < b->first->ncells; i++)
		for (size_t s = 0; s < m->nsides; s++) {
			const struct compare_cell *c = compare_wide_cell(b, s, i), *c0 = &b->first->cells[i];
			if (s && (!c || !c->present))
				continue;
			csv_block(f, b->first);
			fprintf(f, ",%d", c0->tasks);
			report_csv_side(f, &m->sides[s]);
			fprintf(f, ",%zu", s ? c->nb : c0->na);
			csv_num(f, mean_format(m), s ? c->mean_b : c0->mean_a);
			double pct = s ? report_cell_pct(c) : NAN;
			csv_num(f, "%.3f", pct);
			csv_num(f, "%.5f", 1 + pct / 100);
			csv_num(f, "%.3f", s && c->judged ? c->v.ci_low_pct : NAN);
			csv_num(f, "%.3f", s && c->judged ? c->v.ci_high_pct : NAN);
			csv_num(f, "%.4g", s ? c->p_adj : NAN);
			fprintf(f, ",%s,%s", !s ? "" : c->judged ? "yes" : "no",
				!s ? "" : !c->judged ? "n/a" : c->significant ? "yes" : "no");
			csv_tail(f, m, b, s, i, s ? c : c0, 0);
			if (m->runs)
				csv_runs(f, m, b, s, i);
		}
}

void report_wide_csv(FILE *f, const struct wide_model *w)
{
	const struct compare_model *m = w->m;
	fputs("workload,osync,variant,row,side,label,runs,n,mean,pct,ratio,ci_low_pct,ci_high_pct,p_adj,judged,"
	      "significant,cpus,load,loads,lcpu_pct", f);
	for (int k = COMPARE_STAT_MEAN + 1; k < COMPARE_NSTATS; k++)
		fprintf(f, ",%s", compare_stats[k].name);
	fputs(",run,metric,raw_pct,pct_kind\n", f);
	for (size_t k = 0; k < w->nblocks; k++) {
		const struct wide_block *b = &w->blocks[k];
		csv_cells(f, m, b);
		for (size_t st = 0; st < WIDE_NSTATS && b->ncommon; st++)
			for (size_t s = 0; s < m->nsides; s++) {
				csv_block(f, b->first);
				fprintf(f, ",%s", compare_wide_stat_name(st));
				report_csv_side(f, &m->sides[s]);
				fprintf(f, ",%zu", b->ncommon);
				csv_num(f, mean_format(m), b->stat[st * m->nsides + s]);
				double pct = b->stat_pct[st * m->nsides + s];
				csv_num(f, "%.3f", pct);
				csv_num(f, "%.5f", 1 + pct / 100);
				fputs(",,,,,", f);
				csv_tail(f, m, b, s, SIZE_MAX, NULL, 0);
			}
		for (size_t s = 0; s < m->nsides && b->first->ncells > 1; s++) {
			csv_block(f, b->first);
			fputs(",Peak", f); /* n: the task count it lies at */
			report_csv_side(f, &m->sides[s]);
			fprintf(f, ",%d", b->peak_tasks[s]);
			csv_num(f, mean_format(m), b->peak[s]);
			csv_num(f, "%.3f", b->peak_pct[s]);
			csv_num(f, "%.5f", 1 + b->peak_pct[s] / 100);
			fputs(",,,,,", f);
			csv_tail(f, m, b, s, SIZE_MAX, NULL, 0);
		}
	}
	for (size_t s = 0; s < m->nsides && w->total_cells; s++) {
		fputs(",,,TOTAL", f); /* over every block */
		report_csv_side(f, &m->sides[s]);
		fprintf(f, ",%zu", w->total_cells);
		csv_num(f, mean_format(m), w->total[s]);
		csv_num(f, "%.3f", w->total_pct[s]);
		csv_num(f, "%.5f", 1 + w->total_pct[s] / 100);
		fputs(",,,,,", f);
		csv_tail(f, m, NULL, s, SIZE_MAX, NULL, 0);
	}
}

static void json_num(FILE *f, const char *key, const char *fmt, double v)
{
	fprintf(f, ", \"%s\": ", key);
	textout_json_number(f, fmt, v);
}

/* A side's load's units and CPU at a row: null where it ran none. */
static void json_loads(FILE *f, const struct wide_block *b, size_t side, size_t i)
{
	double loads, lcpu;
	compare_wide_loads(b, side, i, &loads, &lcpu);
	json_num(f, "loads", "%.6g", loads);
	json_num(f, "lcpu_pct", "%.4f", lcpu);
}

/* A block's task-count rows: each side's cell with its statistics and runs. */
static void json_rows(FILE *f, const struct compare_model *m, const struct wide_block *b)
{
	for (size_t i = 0; i < b->first->ncells; i++) {
		const struct compare_cell *c0 = &b->first->cells[i];
		fprintf(f, "%s\n   {\"tasks\": %d, \"cells\": [{\"side\": \"%s\"", i ? "," : "", c0->tasks,
			m->sides[0].letter);
		json_num(f, "mean", "%.4f", c0->mean_a);
		fprintf(f, ", \"n\": %zu", c0->na);
		json_loads(f, b, 0, i);
		report_json_stats(f, "stats", c0, 0);
		report_json_runs(f, "runs", c0->runs_a, c0->nruns_a);
		fputc('}', f);
		for (size_t s = 1; s < m->nsides; s++) {
			const struct compare_cell *c = compare_wide_cell(b, s, i);
			fprintf(f, ", {\"side\": \"%s\"", m->sides[s].letter);
			int have = c && c->present;
			json_num(f, "mean", "%.4f", have ? c->mean_b : NAN);
			fprintf(f, ", \"n\": %zu", c ? c->nb : 0);
			double pct = have ? report_cell_pct(c) : NAN;
			json_num(f, "pct", "%.4f", pct);
			json_num(f, "ratio", "%.6f", 1 + pct / 100);
			json_num(f, "raw_pct", "%.4f", have && c->raw_judged ? c->raw.change_pct : NAN);
			fprintf(f, ", \"pct_kind\": \"%s\"", have ? report_pct_kind(c) : "plain");
			json_num(f, "ci_low_pct", "%.4f", have && c->judged ? c->v.ci_low_pct : NAN);
			json_num(f, "ci_high_pct", "%.4f", have && c->judged ? c->v.ci_high_pct : NAN);
			json_num(f, "p_adj", "%.6g", have ? c->p_adj : NAN);
			fprintf(f, ", \"judged\": %s, \"significant\": %s", have && c->judged ? "true" : "false",
				have && c->significant ? "true" : "false");
			json_loads(f, b, s, i);
			if (have) {
				report_json_stats(f, "stats", c, 1);
				report_json_runs(f, "runs", c->runs_b, c->nruns_b);
			}
			fputc('}', f);
		}
		fputs("]}", f);
	}
}

void report_wide_json(FILE *f, const struct wide_model *w)
{
	const struct compare_model *m = w->m;
	fprintf(f, "{\"format_version\": 1, \"view\": \"wide\", \"kind\": \"%s\", \"alpha\": %g, \"correction\": \"%s\", "
		   "\"family\": \"per side\", \"metric\": \"%s\"",
		compare_kind_name(m->kind), m->alpha, compare_correction_names[m->correction], m->metric->name);
	report_json_shown(f, m);
	fputs(",\n \"sides\": [", f);
	for (size_t s = 0; s < m->nsides; s++) {
		fprintf(f, "%s{\"side\": \"%s\", \"label\": ", s ? ", " : "", m->sides[s].letter);
		textout_json_string(f, m->sides[s].label);
		fputs(", \"runs\": [", f);
		for (size_t i = 0; i < m->sides[s].nruns; i++)
			fprintf(f, "%s%lld", i ? ", " : "", (long long)m->sides[s].runs[i]);
		fputc(']', f);
		json_num(f, "geomean_pct", "%.4f", w->all_geo_pct[s]);
		fprintf(f, ", \"geomean_cells\": %zu", w->all_cells[s]);
		json_num(f, "total", "%.6g", w->total[s]);
		json_num(f, "total_pct", "%.4f", w->total_pct[s]);
		fprintf(f, ", \"total_cells\": %zu}", w->total_cells);
	}
	fputs("],\n \"notes\": ", f);
	report_notes_json(f, m);
	fputs(",\n \"blocks\": [", f);
	for (size_t k = 0; k < w->nblocks; k++) {
		const struct wide_block *b = &w->blocks[k];
		fprintf(f, "%s\n  {\"workload\": ", k ? "," : "");
		textout_json_string(f, b->first->workload);
		fputs(", \"osync\": ", f);
		if (b->first->osync >= 0)
			fprintf(f, "%d", b->first->osync);
		else
			fputs("null", f);
		fputs(", \"variant\": ", f);
		textout_json_string(f, b->first->variant);
		fprintf(f, ", \"cpus\": %d, \"load\": ", b->first->cpus);
		textout_json_string(f, m->kind == COMPARE_LOADS ? "" : b->first->load);
		fputs(", \"rows\": [", f);
		json_rows(f, m, b);
		fputs("],\n   \"summary\": [", f);
		for (size_t st = 0; st < WIDE_NSTATS && b->ncommon; st++) {
			fprintf(f, "%s{\"stat\": \"%s\", \"task_counts\": %zu, \"cells\": [", st ? ", " : "",
				compare_wide_stat_name(st), b->ncommon);
			for (size_t s = 0; s < m->nsides; s++) {
				fprintf(f, "%s{\"side\": \"%s\"", s ? ", " : "", m->sides[s].letter);
				json_num(f, "value", "%.4f", b->stat[st * m->nsides + s]);
				json_num(f, "pct", "%.4f", b->stat_pct[st * m->nsides + s]);
				fputc('}', f);
			}
			fputs("]}", f);
		}
		fputs("],\n   \"peak\": [", f);
		for (size_t s = 0; s < m->nsides; s++) {
			fprintf(f, "%s{\"side\": \"%s\", \"tasks\": %d", s ? ", " : "", m->sides[s].letter, b->peak_tasks[s]);
			json_num(f, "value", "%.4f", b->peak[s]);
			json_num(f, "pct", "%.4f", b->peak_pct[s]);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs("\n ]}\n", f);
}

