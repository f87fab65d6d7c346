/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim compare --summary`: one line per case (workload, O_SYNC setting, variant and task count) with
 * each side's change against the base and the model's mark, then the TOTAL line, for a matrix too long
 * to read as tables; text, Markdown, CSV or JSON. Every figure is the compare model's (the cells) or
 * analysis/cmpwide.c's (the TOTAL): it computes nothing. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpwide.h"
#include "analysis/cmpmodel.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

/* The change of side s at row i of a block as text ("-7.3 %", "0.927" with --ratio), and its mark. */
static void change_of(const struct compare_model *m, const struct wide_block *b, size_t s, size_t i, char *buf,
		      size_t len, char *mark)
{
	const struct compare_cell *c = compare_wide_cell(b, s, i);
	*mark = ' ';
	if (!c || !c->present) {
		snprintf(buf, len, "-");
		return;
	}
	double pct = c->judged ? c->v.change_pct : 100.0 * (c->mean_b / c->mean_a - 1);
	report_change_text(m, pct, buf, len);
	if (strcmp(buf, "-") == 0) /* 0 against 0: no change to mark */
		return;
	*mark = !c->judged ? '?' : c->state == CELL_CONFOUNDED ? '#' : c->significant ? '*' : ' ';
}

/* "mix  O_SYNC on" or "dbase  variant x  2 CPUs": the block's keys, escaped. */
static void case_name(const struct compare_model *m, const struct compare_panel *p, char *buf, size_t len)
{
	char w[80];
	text_copy(w, sizeof(w), p->workload);
	struct strbuf sb = {0};
	strbuf_addf(&sb, "%s", w);
	if (p->osync >= 0)
		strbuf_addf(&sb, "  O_SYNC %s", p->osync ? "on" : "off");
	if (p->variant[0]) {
		text_copy(w, sizeof(w), p->variant);
		strbuf_addf(&sb, "  variant %s", w);
	}
	if (p->cpus > 0)
		strbuf_addf(&sb, "  %d CPU%s", p->cpus, p->cpus == 1 ? "" : "s");
	if (p->load[0] && m->kind != COMPARE_LOADS)
		strbuf_addf(&sb, "  load %s", p->load);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_free(&sb);
}

static void text_out(FILE *f, const struct wide_model *w, int markdown)
{
	const struct compare_model *m = w->m;
	struct strbuf sides = {0};
	for (size_t s = 0; s < m->nsides; s++) {
		char label[200];
		text_copy(label, sizeof(label), m->sides[s].label);
		strbuf_addf(&sides, "%s%s: %s", s ? ", " : "", m->sides[s].letter, label);
	}
	char *head = xasprintf("%s. One line per case: %s of the mean %s of each side against %s, * significant at "
			       "%g%% confidence after %s's correction (each side against %s a family of its own), ? "
			       "cannot be judged, # cannot be told apart from the outside load.%s",
			       sides.buf, m->ratio == COMPARE_RATIO_INVERTED ? "the ratio A/B" : m->ratio ? "the ratio B/A" : "the % change", m->metric->label, m->sides[0].letter,
			       100 * (1 - m->alpha), compare_correction_name(m->correction), m->sides[0].letter,
			       markdown ? "\n" : "");
	strbuf_free(&sides);
	report_wrap(f, head, "", markdown ? 0 : 80);
	free(head);
	size_t width = 0;
	for (size_t k = 0; k < w->nblocks; k++) {
		char name[200];
		case_name(m, w->blocks[k].first, name, sizeof(name));
		width = strlen(name) > width ? strlen(name) : width;
	}
	for (size_t k = 0; k < w->nblocks; k++) {
		const struct wide_block *b = &w->blocks[k];
		char name[200];
		case_name(m, b->first, name, sizeof(name));
		for (size_t i = 0; i < b->first->ncells; i++) {
			int tasks = b->first->cells[i].tasks;
			struct strbuf line = {0};
			strbuf_addf(&line, "%s%-*s  %3d task%s", markdown ? "- `" : "", (int)width, name, tasks,
				    tasks == 1 ? " " : "s");
			strbuf_addf(&line, "%s", markdown ? "`:" : "");
			for (size_t s = 1; s < m->nsides; s++) {
				char ch[32], mark;
				change_of(m, b, s, i, ch, sizeof(ch), &mark);
				strbuf_addf(&line, "  %s %8s%s", m->sides[s].letter, ch,
					    mark == ' ' ? " " : markdown && mark == '*' ? "\\*" : (char[]){mark, 0});
			}
			size_t len = line.len;
			while (len && line.buf[len - 1] == ' ')
				len--;
			fprintf(f, "%.*s\n", (int)len, line.buf);
			strbuf_free(&line);
		}
	}
	if (!w->total_cells)
		return;
	struct strbuf sb = {0};
	strbuf_addf(&sb, "%sTOTAL%s over the %zu case%s every side has (the sum of the means):", markdown ? "\n**" : "",
		    markdown ? "**" : "", w->total_cells, w->total_cells == 1 ? "" : "s");
	for (size_t s = 1; s < m->nsides; s++) {
		char ch[32];
		report_change_text(m, w->total_pct[s], ch, sizeof(ch));
		strbuf_addf(&sb, "%s %s %s", s > 1 ? "," : "", m->sides[s].letter, ch);
	}
	report_wrap(f, sb.buf, "  ", markdown ? 0 : 80);
	strbuf_free(&sb);
}

/* A case's runs as the writeback posts list them under the summary: the i-th run of each side on a row
 * (in the order given), each other side's with its change against the base's i-th, the runs' ids after;
 * then the case's TOTAL, each side's sum over its runs, where the figure adds up. */
static void case_runs(FILE *f, const struct compare_model *m, const struct wide_block *b, size_t i)
{
	const struct compare_cell *c0 = &b->first->cells[i];
	size_t most = c0->nruns_a;
	for (size_t s = 1; s < m->nsides; s++) {
		const struct compare_cell *c = compare_wide_cell(b, s, i);
		most = c && c->nruns_b > most ? c->nruns_b : most;
	}
	double *sum = xcalloc(m->nsides + 1, sizeof(double));
	for (size_t r = 0; r <= most; r++) {
		struct strbuf line = {0}, ids = {0};
		char v[24], ch[24];
		double base = r < c0->nruns_a ? c0->runs_a[r].value : NAN;
		report_metric_value(m, r < most ? base : sum[0], v, sizeof(v));
		strbuf_addf(&line, "%12s", v);
		if (r < c0->nruns_a) {
			strbuf_addf(&ids, "run %lld", (long long)c0->runs_a[r].run);
			sum[0] += base;
		}
		for (size_t s = 1; s < m->nsides; s++) {
			const struct compare_cell *c = compare_wide_cell(b, s, i);
			double x = r == most ? sum[s] : c && r < c->nruns_b ? c->runs_b[r].value : NAN;
			double against = r == most ? sum[0] : base;
			report_change_text(m, against > 0 ? 100 * (x / against - 1) : NAN, ch, sizeof(ch));
			report_metric_value(m, x, v, sizeof(v));
			strbuf_addf(&line, "  %8s  %12s", ch, v);
			if (r < most && c && r < c->nruns_b) {
				strbuf_addf(&ids, "%srun %lld", ids.len ? ", " : "", (long long)c->runs_b[r].run);
				sum[s] += x;
			}
		}
		if (r < most || metric_adds_up(m->metric))
			fprintf(f, "%s  %s%s\n", line.buf, r < most ? ids.buf : "TOTAL ", r < most ? "" : m->metric->name);
		strbuf_free(&line);
		strbuf_free(&ids);
	}
	free(sum);
}

/* With --runs, under the summary: each case run by run, with its TOTAL. */
static void cases_runs(FILE *f, const struct wide_model *w)
{
	const struct compare_model *m = w->m;
	for (size_t k = 0; k < w->nblocks && m->runs && m->nsides > 1; k++) {
		const struct wide_block *b = &w->blocks[k];
		char name[200];
		case_name(m, b->first, name, sizeof(name));
		for (size_t i = 0; i < b->first->ncells; i++) {
			int tasks = b->first->cells[i].tasks;
			char label[13];
			text_copy(label, sizeof(label), m->sides[0].label); /* cut to its column; the head line has it whole */
			fprintf(f, "\n%s  %d task%s\n%12s", name, tasks, tasks == 1 ? "" : "s", label);
			for (size_t s = 1; s < m->nsides; s++) {
				text_copy(label, sizeof(label), m->sides[s].label);
				fprintf(f, "  %8s  %12s", "", label);
			}
			fputc('\n', f);
			case_runs(f, m, b, i);
		}
	}
}

static void table_out(FILE *f, const struct wide_model *w)
{
	text_out(f, w, 0);
	cases_runs(f, w);
}

static void markdown_out(FILE *f, const struct wide_model *w) { text_out(f, w, 1); }

static void csv_out(FILE *f, const struct wide_model *w)
{
	const struct compare_model *m = w->m;
	fputs("workload,osync,variant,tasks,side,pct,ratio,judged,significant,state,metric\n", f);
	for (size_t k = 0; k < w->nblocks; k++) {
		const struct wide_block *b = &w->blocks[k];
		for (size_t i = 0; i < b->first->ncells; i++)
			for (size_t s = 1; s < m->nsides; s++) {
				const struct compare_cell *c = compare_wide_cell(b, s, i);
				if (!c || !c->present)
					continue;
				double pct = c->judged ? c->v.change_pct : 100.0 * (c->mean_b / c->mean_a - 1);
				textout_csv_string(f, b->first->workload, 0);
				fprintf(f, ",%s,", b->first->osync < 0 ? "" : b->first->osync ? "on" : "off");
				textout_csv_string(f, b->first->variant, 0);
				fprintf(f, ",%d,%s,", c->tasks, m->sides[s].letter);
				textout_csv_number(f, "%.3f", pct);
				fputc(',', f);
				textout_csv_number(f, "%.5f", 1 + pct / 100);
				fprintf(f, ",%s,%s,%s,%s\n", c->judged ? "yes" : "no",
					!c->judged ? "n/a" : c->significant ? "yes" : "no", report_state_name(c->state),
					m->metric->name);
			}
	}
	for (size_t s = 1; s < m->nsides && w->total_cells; s++) {
		fprintf(f, ",,,TOTAL,%s,", m->sides[s].letter);
		textout_csv_number(f, "%.3f", w->total_pct[s]);
		fputc(',', f);
		textout_csv_number(f, "%.5f", 1 + w->total_pct[s] / 100);
		fprintf(f, ",,,,%s\n", m->metric->name);
	}
}

static void json_out(FILE *f, const struct wide_model *w)
{
	const struct compare_model *m = w->m;
	fprintf(f, "{\"format_version\": 1, \"view\": \"summary\", \"kind\": \"%s\", \"metric\": \"%s\", \"base\": \"%s\","
		   "\n \"cases\": [",
		compare_kind_name(m->kind), m->metric->name, m->sides[0].letter);
	int first = 1;
	for (size_t k = 0; k < w->nblocks; k++) {
		const struct wide_block *b = &w->blocks[k];
		for (size_t i = 0; i < b->first->ncells; i++) {
			fprintf(f, "%s\n  {\"workload\": ", first ? "" : ",");
			first = 0;
			textout_json_string(f, b->first->workload);
			fputs(", \"osync\": ", f);
			fprintf(f, b->first->osync >= 0 ? "%d" : "null", b->first->osync);
			fputs(", \"variant\": ", f);
			textout_json_string(f, b->first->variant);
			fprintf(f, ", \"tasks\": %d, \"sides\": [", b->first->cells[i].tasks);
			for (size_t s = 1; s < m->nsides; s++) {
				const struct compare_cell *c = compare_wide_cell(b, s, i);
				int have = c && c->present;
				fprintf(f, "%s{\"side\": \"%s\", \"pct\": ", s > 1 ? ", " : "", m->sides[s].letter);
				textout_json_number(f, "%.4f", !have ? NAN : c->judged ? c->v.change_pct
										: 100.0 * (c->mean_b / c->mean_a - 1));
				fprintf(f, ", \"judged\": %s, \"significant\": %s, \"state\": \"%s\"}",
					have && c->judged ? "true" : "false", have && c->significant ? "true" : "false",
					have ? report_state_name(c->state) : "not judged");
			}
			fputs("]}", f);
		}
	}
	fprintf(f, "\n ],\n \"total_cells\": %zu, \"total\": [", w->total_cells);
	for (size_t s = 0; s < m->nsides; s++) {
		fprintf(f, "%s{\"side\": \"%s\", \"value\": ", s ? ", " : "", m->sides[s].letter);
		textout_json_number(f, "%.6g", w->total[s]);
		fputs(", \"pct\": ", f);
		textout_json_number(f, "%.4f", w->total_pct[s]);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

static const struct compare_wide_format case_formats[] = {
	{"table", table_out},
	{"markdown", markdown_out},
	{"csv", csv_out},
	{"json", json_out},
	{NULL, NULL},
};

void report_compare_cases(FILE *f, const struct compare_model *m, const char *format)
{
	size_t i = 0;
	while (case_formats[i].name && strcmp(case_formats[i].name, format ? format : "table") != 0)
		i++;
	if (!case_formats[i].name)
		i = 0;
	struct wide_model w;
	compare_wide_build(m, &w);
	case_formats[i].write(f, &w);
	compare_wide_free(&w);
}
