/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim compare --wide`: the compare model as mmtests and LKP print many kernels, a column per side
 * and a row per workload, O_SYNC setting and task count, each cell the side's mean with its change
 * against the base and the model's mark, then the summary rows of analysis/cmpwide.c; as text within
 * 80 columns (wrapped by sides beyond three) or Markdown (CSV and JSON: report/wide_data.c). It
 * computes nothing. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpwide.h"
#include "analysis/cmpmodel.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

/* Text people paste into mail fits this width: the task column, then as many sides as fit. */
#define WIDE_COLUMNS 80
#define WIDE_TASKS_W 6
#define WIDE_MEAN_W 9
#define WIDE_CHANGE_W 8
#define WIDE_CELL_W (WIDE_MEAN_W + 1 + WIDE_CHANGE_W + 1) /* mean, change and its mark */
#define WIDE_LABEL_W 12 /* the first column with a statistic's or a run's rows: "64 Stddev", "#1234" */
#define WIDE_PER_CHUNK ((WIDE_COLUMNS - WIDE_LABEL_W) / (WIDE_CELL_W + 1))

/* A side's cell at a row: its mean and (other sides) its change with the model's mark. */
struct wide_text {
	char mean[24], change[24];
	char mark;
};

static void change_text(const struct compare_model *m, double pct, char *buf, size_t len)
{
	report_change_text(m, pct, buf, len);
}

/* The row of a task count's statistics that carries the change of the means: the mean's where it is
 * shown, else the first. */
static size_t change_row(const struct compare_model *m)
{
	for (size_t k = 0; k < m->nstats; k++)
		if (m->stats[k] == COMPARE_STAT_MEAN)
			return k;
	return 0;
}

/* A side's cell at row i showing statistic stat; the change and mark (of the means) only with `change`. */
static void cell_text(const struct compare_model *m, const struct wide_block *b, size_t side, size_t i, int stat,
		      int change, struct wide_text *t)
{
	memset(t, 0, sizeof(*t));
	t->mark = ' ';
	if (side == 0) {
		report_metric_value(m, compare_cell_stat(&b->first->cells[i], 0, stat), t->mean, sizeof(t->mean));
		return;
	}
	const struct compare_cell *c = compare_wide_cell(b, side, i);
	if (!c || !c->present) {
		snprintf(t->mean, sizeof(t->mean), "-");
		return;
	}
	report_metric_value(m, compare_cell_stat(c, 1, stat), t->mean, sizeof(t->mean));
	if (!change)
		return;
	change_text(m, report_cell_pct(c), t->change, sizeof(t->change));
	t->mark = !c->judged ? '?' : c->state == CELL_CONFOUNDED ? '#' : c->significant ? '*' : ' ';
}

/* The runs of a side at row i (the base's from the block's first panel). */
static const struct compare_run_value *runs_at(const struct wide_block *b, size_t side, size_t i, size_t *n)
{
	const struct compare_cell *c = side ? compare_wide_cell(b, side, i) : &b->first->cells[i];
	*n = !c ? 0 : side ? c->nruns_b : c->nruns_a;
	return !c ? NULL : side ? c->runs_b : c->runs_a;
}

/* The label of a row: its task count, with a statistic's name when several are shown. */
static void row_label(const struct compare_model *m, int tasks, size_t k, char *buf, size_t len)
{
	if (m->nstats == 1)
		snprintf(buf, len, "%d", tasks);
	else if (k == 0)
		snprintf(buf, len, "%d %s", tasks, compare_stats[m->stats[0]].label);
	else
		snprintf(buf, len, "%s", compare_stats[m->stats[k]].label);
}

static void stat_text(const struct compare_model *m, const struct wide_block *b, size_t k, size_t side,
		      struct wide_text *t)
{
	memset(t, 0, sizeof(*t));
	t->mark = ' ';
	report_metric_value(m, b->stat[k * m->nsides + side], t->mean, sizeof(t->mean));
	if (side)
		change_text(m, b->stat_pct[k * m->nsides + side], t->change, sizeof(t->change));
}

/* A side's peak in a block: its best mean, and its change against the base's peak (wherever each lies). */
static void peak_text(const struct compare_model *m, const struct wide_block *b, size_t side, struct wide_text *t)
{
	memset(t, 0, sizeof(*t));
	t->mark = ' ';
	report_metric_value(m, b->peak[side], t->mean, sizeof(t->mean));
	if (side)
		change_text(m, b->peak_pct[side], t->change, sizeof(t->change));
}

/* "workload dbase, O_SYNC on, variant x, 2 CPUs, load io" (the load unless the loads are the sides) */
static void block_name(const struct compare_model *m, const struct compare_panel *p, char *buf, size_t len)
{
	char w[80];
	struct strbuf sb = {0};
	text_copy(w, sizeof(w), p->workload);
	strbuf_addf(&sb, "%s%s", w, p->osync < 0 ? "" : p->osync ? ", O_SYNC on" : ", O_SYNC off");
	if (p->variant[0])
		strbuf_addf(&sb, ", variant %s", p->variant);
	if (p->cpus > 0)
		strbuf_addf(&sb, ", %d CPU%s", p->cpus, p->cpus == 1 ? "" : "s");
	if (p->load[0] && m->kind != COMPARE_LOADS)
		strbuf_addf(&sb, ", load %s", p->load);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_free(&sb);
}

/* A side's background load at a row as text: its units of work (Loads) and CPU (LCPU%), "-" for none. */
static void loads_text(const struct wide_block *b, size_t side, size_t i, struct wide_text *t)
{
	double loads, lcpu;
	compare_wide_loads(b, side, i, &loads, &lcpu);
	memset(t, 0, sizeof(*t));
	t->mark = ' ';
	snprintf(t->mean, sizeof(t->mean), isfinite(loads) ? "%.1f" : "-", loads);
	snprintf(t->change, sizeof(t->change), isfinite(lcpu) ? "%.1f%%" : "-", lcpu);
}

static void runs_count(const struct compare_side *s, char *buf, size_t len)
{
	snprintf(buf, len, "%zu run%s", s->nruns, s->nruns == 1 ? "" : "s");
}

/* With --runs, the label of each of a side's runs: " run 3 k1-a, run 4 k1-b". */
static void side_run_labels(struct strbuf *sb, const struct compare_model *m, size_t side)
{
	const struct compare_run_value *seen[64];
	size_t n = 0;
	for (size_t p = 0; p < m->npanels; p++)
		for (size_t i = 0; i < m->panels[p].ncells; i++) {
			const struct compare_cell *c = &m->panels[p].cells[i];
			const struct compare_run_value *r = side ? c->runs_b : c->runs_a;
			size_t nr = side ? c->nruns_b : c->nruns_a;
			if (side && m->panels[p].side != side)
				continue;
			for (size_t k = 0; k < nr; k++) {
				size_t j = 0;
				while (j < n && seen[j]->run != r[k].run)
					j++;
				if (j == n && n < ARRAY_SIZE(seen))
					seen[n++] = &r[k];
			}
		}
	for (size_t j = 0; j < n; j++) {
		char label[160];
		text_copy(label, sizeof(label), seen[j]->label);
		strbuf_addf(sb, "%s run %lld %s", j ? "," : ";", (long long)seen[j]->run, label);
	}
}

/* A few lines before the table: what a cell is and its marks (-v: every row explained). */
static void short_legend(FILE *f, const struct compare_model *m, const char *shown, int markdown)
{
	char *legend = xasprintf(
		"Each cell: the %s %s%s and %s against %s (the verdict is the means', whatever the cell shows); * "
		"significant at %g%% after %s, ? cannot be judged, # the outside load's. -v explains the rows.",
		shown, m->metric->label, m->nstats > 1 ? " (a row each)" : "",
		m->ratio == COMPARE_RATIO_INVERTED ? "the ratio A/B" : m->ratio ? "the ratio B/A" : "the % change",
		m->sides[0].letter, 100 * (1 - m->alpha), compare_correction_name(m->correction));
	report_wrap(f, legend, "", markdown ? 0 : WIDE_COLUMNS);
	free(legend);
}

/* The sides and how to read the cells (every row under -v). */
static void text_legend(FILE *f, const struct compare_model *m, int markdown)
{
	size_t width = markdown ? 0 : WIDE_COLUMNS;
	int loads = 0;
	for (size_t i = 0; i < m->npanels; i++)
		loads |= m->panels[i].has_loads;
	for (size_t s = 0; s < m->nsides; s++) {
		char label[400], runs[64];
		text_copy(label, sizeof(label), m->sides[s].label);
		runs_count(&m->sides[s], runs, sizeof(runs));
		struct strbuf sb = {0};
		strbuf_addf(&sb, "%s%s%s: %s (%s:", markdown ? "- " : "", m->sides[s].letter, s ? "" : " (base)", label, runs);
		for (size_t i = 0; i < m->sides[s].nruns; i++)
			strbuf_addf(&sb, " %lld", (long long)m->sides[s].runs[i]);
		strbuf_addf(&sb, ")");
		if (m->runs)
			side_run_labels(&sb, m, s);
		report_wrap(f, sb.buf, "   ", width);
		strbuf_free(&sb);
	}
	fputc('\n', f);
	char shown[200];
	report_stats_text(m, shown, sizeof(shown));
	if (!m->verbose) {
		short_legend(f, m, shown, markdown);
		return;
	}
	char *legend = xasprintf(
		"Each cell: the %s %s of the side's samples%s, then %s of the means against %s (the verdict is the "
		"means', whatever the cell shows); * significant at %g%% "
		"confidence after %s's correction, ? cannot be judged, # cannot be told apart from the outside load, as `reaim compare` judges it (the change adjusted for the load where it applies). Each side "
		"against %s is a correction family of its own, so a further side does not weaken another's verdicts. "
		"Amean, Hmean, Gmean: the arithmetic, harmonic and geometric mean of a column over the task counts "
		"every side has, and %s; Peak: each side's best mean wherever it lies, against the base's.%s%s",
		shown, m->metric->label, m->nstats > 1 ? " (a row each)" : "", m->ratio == COMPARE_RATIO_INVERTED ? "the ratio A/B" : m->ratio ? "the ratio B/A" : "the % change",
		m->sides[0].letter, 100 * (1 - m->alpha),
		compare_correction_name(m->correction), m->sides[0].letter,
		m->ratio == COMPARE_RATIO_INVERTED ? "the base's ratio to it" : m->ratio ? "its ratio to the base's"
									      : "its change against the base's",
		loads ? " Under Loads, LCPU%, as contest shows them: each side's background load, the units of work "
			"it did while the tasks ran and its CPU in % of one CPU (means over the points compared; "
			"- where a side ran no load)." : "",
		m->runs ? " Rows #ID: run ID's own figure at the task count above, its mean over its valid points "
			  "there, in its side's column." : "");
	report_wrap(f, legend, "", width);
	free(legend);
}

static void text_cell(struct strbuf *line, const struct wide_text *t, int base)
{
	if (base)
		strbuf_addf(line, " %*s%*s", WIDE_MEAN_W, t->mean, WIDE_CELL_W - WIDE_MEAN_W, "");
	else
		strbuf_addf(line, " %*s %*s%c", WIDE_MEAN_W, t->mean, WIDE_CHANGE_W, t->change, t->mark);
}

/* A row without the spaces a blank mark leaves at its end. */
static void row_out(FILE *f, struct strbuf *line)
{
	size_t len = line->len;
	while (len && line->buf[len - 1] == ' ')
		len--;
	fprintf(f, "%.*s\n", (int)len, line->buf);
	strbuf_free(line);
}

/* The rows of task count i for the sides of a chunk: a row per statistic shown (the first with the change
 * and mark), then with --runs a row per run, its figure in its side's column. */
static void text_rows(FILE *f, const struct compare_model *m, const struct wide_block *b, size_t i,
		      const size_t *sides, size_t ns, int lw)
{
	for (size_t k = 0; k < m->nstats; k++) {
		char label[48];
		row_label(m, b->first->cells[i].tasks, k, label, sizeof(label));
		struct strbuf line = {0};
		strbuf_addf(&line, "%*s", lw, label);
		for (size_t j = 0; j < ns; j++) {
			struct wide_text t;
			cell_text(m, b, sides[j], i, m->stats[k], k == change_row(m), &t);
			text_cell(&line, &t, sides[j] == 0 || k != change_row(m));
		}
		row_out(f, &line);
	}
	for (size_t j = 0; j < ns && m->runs; j++) {
		size_t n;
		const struct compare_run_value *r = runs_at(b, sides[j], i, &n);
		for (size_t k = 0; k < n; k++) {
			struct strbuf line = {0};
			char id[32], v[24];
			snprintf(id, sizeof(id), "#%lld", (long long)r[k].run);
			report_metric_value(m, r[k].value, v, sizeof(v));
			strbuf_addf(&line, "%*s%*s %*s", lw, id, (int)j * (WIDE_CELL_W + 1), "", WIDE_MEAN_W, v);
			row_out(f, &line);
		}
	}
}

/* One block's rows for the sides of a chunk (the base and up to WIDE_PER_CHUNK - 1 others). */
static void text_chunk(FILE *f, const struct wide_model *w, const struct wide_block *b, const size_t *sides,
		       size_t ns)
{
	const struct compare_model *m = w->m;
	int lw = m->nstats > 1 || m->runs ? WIDE_LABEL_W : WIDE_TASKS_W;
	fprintf(f, "%*s", lw, "Tasks");
	for (size_t j = 0; j < ns; j++) {
		/* the label cut to the column (the sides' list above has it whole) */
		char head[WIDE_CELL_W + 8], label[WIDE_CELL_W - 2];
		text_copy(label, sizeof(label), m->sides[sides[j]].label);
		snprintf(head, sizeof(head), "%s: %s", m->sides[sides[j]].letter, label);
		fprintf(f, " %*s", WIDE_CELL_W, head);
	}
	fprintf(f, "\n%*s", lw, "");
	for (size_t j = 0; j < ns; j++) {
		char runs[32];
		runs_count(&m->sides[sides[j]], runs, sizeof(runs));
		fprintf(f, " %*s", WIDE_CELL_W, runs);
	}
	fputc('\n', f);
	for (size_t i = 0; i < b->first->ncells; i++)
		text_rows(f, m, b, i, sides, ns, lw);
	for (size_t k = 0; k < WIDE_NSTATS && b->ncommon; k++) {
		struct strbuf line = {0};
		strbuf_addf(&line, "%*s", lw, compare_wide_stat_name(k));
		for (size_t j = 0; j < ns; j++) {
			struct wide_text t;
			stat_text(m, b, k, sides[j], &t);
			text_cell(&line, &t, sides[j] == 0);
		}
		row_out(f, &line);
	}
	if (b->first->ncells > 1) { /* one task count's peak is its row */
		struct strbuf line = {0};
		strbuf_addf(&line, "%*s", lw, "Peak");
		for (size_t j = 0; j < ns; j++) {
			struct wide_text t;
			peak_text(m, b, sides[j], &t);
			text_cell(&line, &t, sides[j] == 0);
		}
		row_out(f, &line);
	}
	if (!b->has_loads)
		return;
	fprintf(f, "%*s\n", lw + 1 + WIDE_CELL_W, "Loads, LCPU%");
	for (size_t i = 0; i < b->first->ncells; i++) {
		struct strbuf line = {0};
		strbuf_addf(&line, "%*d", lw, b->first->cells[i].tasks);
		for (size_t j = 0; j < ns; j++) {
			struct wide_text t;
			loads_text(b, sides[j], i, &t);
			text_cell(&line, &t, 0);
		}
		row_out(f, &line);
	}
}

/* The geomean of every side against the base over all its cells: the line read first. */
static void all_line(FILE *f, const struct wide_model *w, int markdown)
{
	const struct compare_model *m = w->m;
	struct strbuf sb = {0};
	strbuf_addf(&sb, "%sGeomean over every cell, against %s:", markdown ? "**" : "", m->sides[0].letter);
	for (size_t s = 1; s < m->nsides; s++) {
		char ch[24];
		change_text(m, w->all_geo_pct[s], ch, sizeof(ch));
		strbuf_addf(&sb, "%s %s %s (%zu cell%s)", s > 1 ? "," : "", m->sides[s].letter, ch, w->all_cells[s],
			    w->all_cells[s] == 1 ? "" : "s");
	}
	strbuf_addf(&sb, "%s", markdown ? "**" : "");
	fputc('\n', f);
	report_wrap(f, sb.buf, "  ", markdown ? 0 : WIDE_COLUMNS);
	strbuf_free(&sb);
	if (!w->total_cells)
		return;
	strbuf_addf(&sb, "%sTOTAL%s, the sum of each side's means over the %zu cell%s every side has:", markdown ? "**" : "",
		    markdown ? "**" : "", w->total_cells, w->total_cells == 1 ? "" : "s");
	for (size_t s = 0; s < m->nsides; s++) {
		char v[24], ch[24] = "";
		report_metric_value(m, w->total[s], v, sizeof(v));
		if (s)
			change_text(m, w->total_pct[s], ch, sizeof(ch));
		strbuf_addf(&sb, "%s %s %s%s%s%s", s ? "," : "", m->sides[s].letter, v, s ? " (" : "", ch, s ? ")" : "");
	}
	if (markdown)
		fputc('\n', f);
	report_wrap(f, sb.buf, "  ", markdown ? 0 : WIDE_COLUMNS);
	strbuf_free(&sb);
}

static void wide_text_out(FILE *f, const struct wide_model *w)
{
	const struct compare_model *m = w->m;
	text_legend(f, m, 0);
	size_t *sides = xcalloc(m->nsides + 1, sizeof(size_t));
	for (size_t k = 0; k < w->nblocks; k++) {
		const struct wide_block *b = &w->blocks[k];
		char name[200];
		block_name(m, b->first, name, sizeof(name));
		/* the base in every chunk, then as many other sides as fit */
		for (size_t from = 1; from < m->nsides; from += WIDE_PER_CHUNK - 1) {
			size_t ns = 0;
			sides[ns++] = 0;
			for (size_t s = from; s < m->nsides && ns < WIDE_PER_CHUNK; s++)
				sides[ns++] = s;
			fprintf(f, "\nWorkload %s", name);
			if (m->nsides > WIDE_PER_CHUNK)
				fprintf(f, " (%s to %s)", m->sides[sides[1]].letter, m->sides[sides[ns - 1]].letter);
			fputc('\n', f);
			text_chunk(f, w, b, sides, ns);
		}
	}
	free(sides);
	all_line(f, w, 0);
	report_notes_text(f, m, 0, WIDE_COLUMNS);
}

static void md_cell(FILE *f, const struct wide_text *t, int base)
{
	if (base || !t->change[0])
		fprintf(f, " %s |", t->mean);
	else
		fprintf(f, " %s (%s%s) |", t->mean, t->change, t->mark == '*' ? "\\*" : t->mark == '?' ? " ?" : t->mark == '#' ? " #" : "");
}

/* The Markdown of text_rows: a row per statistic shown, then with --runs a row per run. */
static void md_rows(FILE *f, const struct compare_model *m, const struct wide_block *b, size_t i)
{
	for (size_t k = 0; k < m->nstats; k++) {
		char label[48];
		row_label(m, b->first->cells[i].tasks, k, label, sizeof(label));
		fprintf(f, "| %s |", label);
		for (size_t s = 0; s < m->nsides; s++) {
			struct wide_text t;
			cell_text(m, b, s, i, m->stats[k], k == change_row(m), &t);
			md_cell(f, &t, s == 0 || k != change_row(m));
		}
		fputc('\n', f);
	}
	for (size_t s = 0; s < m->nsides && m->runs; s++) {
		size_t n;
		const struct compare_run_value *r = runs_at(b, s, i, &n);
		for (size_t k = 0; k < n; k++) {
			char v[24];
			report_metric_value(m, r[k].value, v, sizeof(v));
			fprintf(f, "| run %lld |", (long long)r[k].run);
			for (size_t j = 0; j < m->nsides; j++)
				fprintf(f, " %s |", j == s ? v : "");
			fputc('\n', f);
		}
	}
}

static void wide_markdown_out(FILE *f, const struct wide_model *w)
{
	const struct compare_model *m = w->m;
	text_legend(f, m, 1);
	for (size_t k = 0; k < w->nblocks; k++) {
		const struct wide_block *b = &w->blocks[k];
		char name[200];
		block_name(m, b->first, name, sizeof(name));
		fprintf(f, "\n### Workload %s\n\n| Tasks |", name);
		for (size_t s = 0; s < m->nsides; s++) {
			char label[200], runs[32];
			text_copy(label, sizeof(label), m->sides[s].label);
			runs_count(&m->sides[s], runs, sizeof(runs));
			fprintf(f, " %s: %s (%s) |", m->sides[s].letter, label, runs);
		}
		fputs("\n|---:|", f);
		for (size_t s = 0; s < m->nsides; s++)
			fputs("---:|", f);
		fputc('\n', f);
		for (size_t i = 0; i < b->first->ncells; i++)
			md_rows(f, m, b, i);
		for (size_t st = 0; st < WIDE_NSTATS && b->ncommon; st++) {
			fprintf(f, "| %s |", compare_wide_stat_name(st));
			for (size_t s = 0; s < m->nsides; s++) {
				struct wide_text t;
				stat_text(m, b, st, s, &t);
				md_cell(f, &t, s == 0);
			}
			fputc('\n', f);
		}
		for (size_t s = 0; s < m->nsides && b->first->ncells > 1; s++) {
			struct wide_text t;
			peak_text(m, b, s, &t);
			if (s == 0)
				fprintf(f, "| Peak |");
			md_cell(f, &t, s == 0);
			if (s + 1 == m->nsides)
				fputc('\n', f);
		}
		for (size_t i = 0; i < b->first->ncells && b->has_loads; i++) {
			fprintf(f, "| Loads, LCPU%% at %d |", b->first->cells[i].tasks);
			for (size_t s = 0; s < m->nsides; s++) {
				struct wide_text t;
				loads_text(b, s, i, &t);
				fprintf(f, " %s, %s |", t.mean, t.change);
			}
			fputc('\n', f);
		}
	}
	all_line(f, w, 1);
	report_notes_text(f, m, 1, WIDE_COLUMNS);
}

const struct compare_wide_format report_compare_wide_formats[] = {
	{"table", wide_text_out},
	{"markdown", wide_markdown_out},
	{"csv", report_wide_csv},
	{"json", report_wide_json},
	{NULL, NULL},
};

void report_compare_wide(FILE *f, const struct compare_model *m, const char *format)
{
	size_t i = 0;
	while (report_compare_wide_formats[i].name &&
	       strcmp(report_compare_wide_formats[i].name, format ? format : "table") != 0)
		i++;
	if (!report_compare_wide_formats[i].name)
		i = 0;
	struct wide_model w;
	compare_wide_build(m, &w);
	report_compare_wide_formats[i].write(f, &w);
	compare_wide_free(&w);
}
