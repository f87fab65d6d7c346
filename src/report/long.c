/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim compare --long`: several figures side by side, as AIM7's and contest's posts list kernels, a row
 * per side within each task count (`kernel Tasks Jobs/Min Real CPU`), columns the --metric figures (the
 * first with each --stat), each mean's change against the base with the model's mark beside it (under
 * it where that would pass 80 columns), contest's Loads, LCPU% and Ratio where a load ran; the sides
 * and a line of legend before, each caution once after. A model per figure, all the same groups: it
 * only lays them out. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpwide.h"
#include "analysis/cmpmodel.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

#define LONG_COLUMNS 80
#define LONG_SIDE_W 20 /* a side's label is cut to this (the sides' list above the tables has it whole) */
#define LONG_CELL 40

/* The column heads of the figures posted tables have; any other figure is headed by its name. */
static const struct {
	const char *metric, *head;
} long_heads[] = {
	{"jobs_per_min", "Jobs/Min"}, {"jobs_per_min_task", "JPM/task"}, {"real_s", "Real"}, {"cpu_s", "CPU"},
	{"window_cpu_s", "CPU"}, {"user_pct", "%user"}, {"sys_pct", "%sys"}, {"iowait_pct", "%iowait"},
	{"idle_pct", "%idle"}, {"util_pct", "%util"}, {"read_kbs", "Read KB/s"}, {"write_kbs", "Write KB/s"},
	{"jti", "JTI"}, {"mem_peak_bytes", "Mem peak"},
};

/* One figure: its model over the groups and that model's blocks. */
struct long_fig {
	struct compare_model m;
	struct wide_model w;
	int built;
};

enum long_col_kind { COL_SIDE, COL_TASKS, COL_N, COL_FIG, COL_CHANGE, COL_LOADS, COL_LCPU, COL_RATIO };

struct long_col {
	enum long_col_kind kind;
	size_t fig;               /* COL_FIG, COL_CHANGE: the figure */
	int stat;                 /* COL_FIG: the statistic shown */
	int width;
};

struct long_table {
	struct long_fig *figs;
	size_t nfigs;
	struct long_col *cols;
	size_t ncols;
	int tasks_col;            /* some block has more than one task count */
	int under;                /* the changes go on a row under each other side's figures */
	int gap;                  /* blanks between columns: 2, 1 where 2 would pass 80 columns */
	int time_fig;             /* the figure contest's Ratio is of (real_s or jobs_per_min), -1: none */
	int loads;                /* a block ran a background load: contest's columns */
};

static const char *fig_head(const struct long_fig *g)
{
	for (size_t i = 0; i < ARRAY_SIZE(long_heads); i++)
		if (strcmp(long_heads[i].metric, g->m.metric->name) == 0)
			return long_heads[i].head;
	return g->m.metric->name;
}

/* Blocks of two figures' models that hold the same points: workload, O_SYNC, variant, CPUs, load. */
static int same_keys(const struct compare_model *m, const struct compare_panel *a, const struct compare_panel *b)
{
	return strcmp(a->workload, b->workload) == 0 && a->osync == b->osync && strcmp(a->variant, b->variant) == 0 &&
	       a->cpus == b->cpus && (m->kind == COMPARE_LOADS || strcmp(a->load, b->load) == 0);
}

/* A side's cell of figure g in the block with keys' keys at a task count (*other: the side's figures are
 * the cell's b side), or NULL. */
static const struct compare_cell *fig_cell(const struct long_fig *g, const struct compare_panel *keys, size_t side,
					   int tasks, int *other)
{
	for (size_t k = 0; k < g->w.nblocks; k++) {
		const struct wide_block *b = &g->w.blocks[k];
		if (!same_keys(&g->m, b->first, keys))
			continue;
		const struct compare_panel *p = side ? b->panels[side] : b->first;
		for (size_t i = 0; p && i < p->ncells; i++)
			if (p->cells[i].tasks == tasks) {
				*other = side != 0;
				return &p->cells[i];
			}
	}
	return NULL;
}

/* The change a cell shows: the judged one (adjusted where the cell is), else the plain one of the means. */
static double cell_pct(const struct compare_cell *c)
{
	return c->judged ? c->v.change_pct : 100.0 * (c->mean_b / c->mean_a - 1);
}

static char cell_mark(const struct compare_cell *c)
{
	return !c->judged ? '?' : c->state == CELL_CONFOUNDED ? '#' : c->significant ? '*' : ' ';
}

/* contest's Ratio: the side's time under this block's load over its time at no_load, same task count
 * (one run's loads: the cell's own time ratio); NaN where there is none. */
static double contest_ratio(const struct long_table *t, const struct compare_panel *keys, size_t side, int tasks)
{
	if (t->time_fig < 0)
		return NAN;
	const struct long_fig *g = &t->figs[t->time_fig];
	int other;
	const struct compare_cell *c = fig_cell(g, keys, side, tasks, &other);
	if (!c)
		return NAN;
	double here = other ? c->mean_b : c->mean_a, base;
	if (g->m.kind == COMPARE_LOADS) {
		base = c->mean_a;
	} else {
		struct compare_panel none = *keys;
		memcpy(none.load, "no_load", sizeof("no_load"));
		const struct compare_cell *n = fig_cell(g, &none, side, tasks, &other);
		if (!n || !keys->load[0] || strcmp(keys->load, "no_load") == 0)
			return NAN;
		base = other ? n->mean_b : n->mean_a;
	}
	int time = strcmp(g->m.metric->name, "real_s") == 0;
	return !(base > 0 && here > 0) ? NAN : time ? here / base : base / here;
}

/* The text of column j of the row of `side` at a task count of a block (keys: its first panel). */
static void col_text(const struct long_table *t, size_t j, const struct compare_panel *keys, size_t side, int tasks,
		     char *buf, size_t len)
{
	const struct long_col *col = &t->cols[j];
	const struct long_fig *g = &t->figs[col->kind == COL_FIG || col->kind == COL_CHANGE ? col->fig : 0];
	int other = 0;
	const struct compare_cell *c = fig_cell(g, keys, side, tasks, &other);
	int have = c && (other ? c->present : isfinite(c->mean_a));
	snprintf(buf, len, "-");
	switch (col->kind) {
	case COL_SIDE:
		text_copy(buf, LONG_SIDE_W + 1 < len ? LONG_SIDE_W + 1 : len, g->m.sides[side].label);
		break;
	case COL_TASKS: snprintf(buf, len, "%d", tasks); break;
	case COL_N:
		if (c)
			snprintf(buf, len, "%zu", other ? c->nb : c->na);
		break;
	case COL_FIG:
		if (have)
			report_metric_value(&g->m, compare_cell_stat(c, other, col->stat), buf, len);
		break;
	case COL_CHANGE:
		if (!side)
			buf[0] = 0;
		else if (have) {
			report_change_text(&g->m, cell_pct(c), buf, len - 1);
			size_t at = strlen(buf);
			if (strcmp(buf, "-") != 0) { /* 0 against 0 is no change, judged or not */
				buf[at] = cell_mark(c);
				buf[at + 1] = 0;
			}
		}
		break;
	case COL_LOADS:
	case COL_LCPU: {
		double v = !c ? NAN : col->kind == COL_LOADS ? (other ? c->loads_b : c->loads_a) : (other ? c->lcpu_b : c->lcpu_a);
		if (isfinite(v))
			snprintf(buf, len, "%.1f", v);
		break;
	}
	case COL_RATIO: {
		double r = contest_ratio(t, keys, side, tasks);
		if (isfinite(r))
			snprintf(buf, len, "%.2f", r);
		break;
	}
	}
}

static const char *col_head(const struct long_table *t, size_t j, const struct compare_model *m0)
{
	const struct long_col *col = &t->cols[j];
	static const char *const side_head[] = {[COMPARE_GROUPS] = "Kernel", [COMPARE_VARIANTS] = "Variant",
						[COMPARE_OSYNC] = "O_SYNC", [COMPARE_LOADS] = "Load"};
	switch (col->kind) {
	case COL_SIDE: return side_head[m0->kind];
	case COL_TASKS: return "Tasks";
	case COL_N: return "n";
	case COL_FIG:
		return col->fig == 0 && m0->nstats > 1 ? compare_stats[col->stat].label : fig_head(&t->figs[col->fig]);
	case COL_CHANGE:
		return m0->ratio == COMPARE_RATIO_INVERTED ? "A/B" : m0->ratio ? "B/A" : "Change";
	case COL_LOADS: return "Loads";
	case COL_LCPU: return "LCPU%";
	case COL_RATIO: return "Ratio";
	}
	return "";
}

static void add_col(struct long_table *t, enum long_col_kind kind, size_t fig, int stat)
{
	t->cols = xrealloc(t->cols, (t->ncols + 1) * sizeof(*t->cols));
	t->cols[t->ncols++] = (struct long_col){.kind = kind, .fig = fig, .stat = stat};
}

/* The columns: the side, the task count (where a block has several), n, each figure (the first with
 * each --stat, the change beside its mean), contest's where a block ran a load. */
static void plan_cols(struct long_table *t)
{
	const struct compare_model *m0 = &t->figs[0].m;
	int loads = 0;
	for (size_t k = 0; k < t->figs[0].w.nblocks; k++) {
		t->tasks_col |= t->figs[0].w.blocks[k].first->ncells > 1;
		loads |= t->figs[0].w.blocks[k].has_loads;
	}
	add_col(t, COL_SIDE, 0, 0);
	if (t->tasks_col)
		add_col(t, COL_TASKS, 0, 0);
	add_col(t, COL_N, 0, 0);
	for (size_t g = 0; g < t->nfigs; g++) {
		size_t ns = g == 0 ? m0->nstats : 1, change_after = ns - 1;
		for (size_t k = 0; k < ns; k++)
			if ((g == 0 ? m0->stats[k] : COMPARE_STAT_MEAN) == COMPARE_STAT_MEAN)
				change_after = k;
		for (size_t k = 0; k < ns; k++) {
			add_col(t, COL_FIG, g, g == 0 ? m0->stats[k] : COMPARE_STAT_MEAN);
			if (k == change_after)
				add_col(t, COL_CHANGE, g, 0);
		}
	}
	t->time_fig = -1;
	for (size_t g = 0; g < t->nfigs && loads; g++)
		if (t->time_fig < 0 && (strcmp(t->figs[g].m.metric->name, "real_s") == 0 ||
					strcmp(t->figs[g].m.metric->name, "jobs_per_min") == 0))
			t->time_fig = (int)g;
	t->loads = loads;
	if (loads) {
		add_col(t, COL_LOADS, 0, 0);
		add_col(t, COL_LCPU, 0, 0);
		add_col(t, COL_RATIO, 0, 0);
	}
}

/* Whether column j holds a change shown under the figure before it (the row under the side's). */
static int moved_under(const struct long_table *t, size_t j)
{
	return t->under && t->cols[j].kind == COL_CHANGE;
}

/* Widen the columns to a row's texts; a change under its figure widens that figure's column. */
static void fit_row(struct long_table *t, const struct compare_panel *keys, size_t side, int tasks)
{
	for (size_t j = 0; j < t->ncols; j++) {
		char s[LONG_CELL];
		col_text(t, j, keys, side, tasks, s, sizeof(s));
		size_t at = moved_under(t, j) ? j - 1 : j;
		if ((int)strlen(s) > t->cols[at].width)
			t->cols[at].width = (int)strlen(s);
	}
}

static int table_width(const struct long_table *t)
{
	int w = 0;
	for (size_t j = 0; j < t->ncols; j++)
		if (!moved_under(t, j))
			w += t->cols[j].width + (j ? t->gap : 0);
	return w;
}

static void fit_widths(struct long_table *t)
{
	const struct compare_model *m0 = &t->figs[0].m;
	for (size_t j = 0; j < t->ncols; j++)
		t->cols[j].width = (int)strlen(col_head(t, j, m0));
	for (size_t k = 0; k < t->figs[0].w.nblocks; k++) {
		const struct compare_panel *first = t->figs[0].w.blocks[k].first;
		for (size_t i = 0; i < first->ncells; i++)
			for (size_t s = 0; s < m0->nsides; s++)
				fit_row(t, first, s, first->cells[i].tasks);
	}
}

/* A line of the table: each column in its width (the side's to the left), a change moved under left
 * out; trailing blanks cut. */
static void put_line(FILE *f, const struct long_table *t, char (*cells)[LONG_CELL])
{
	struct strbuf sb = {0};
	for (size_t j = 0; j < t->ncols; j++) {
		if (moved_under(t, j))
			continue;
		if (sb.len)
			strbuf_addf(&sb, "%*s", t->gap, "");
		if (t->cols[j].kind == COL_SIDE)
			strbuf_addf(&sb, "%-*s", t->cols[j].width, cells[j]);
		else
			strbuf_addf(&sb, "%*s", t->cols[j].width, cells[j]);
	}
	size_t len = sb.len;
	while (len && sb.buf[len - 1] == ' ')
		len--;
	fprintf(f, "%.*s\n", (int)len, sb.buf ? sb.buf : "");
	strbuf_free(&sb);
}

static void put_side_rows(FILE *f, const struct long_table *t, const struct compare_panel *keys, size_t side,
			  int tasks, char (*cells)[LONG_CELL], char (*under)[LONG_CELL])
{
	int changes = 0;
	for (size_t j = 0; j < t->ncols; j++) {
		col_text(t, j, keys, side, tasks, cells[j], LONG_CELL);
		under[j][0] = 0;
	}
	for (size_t j = 1; j < t->ncols && t->under && side; j++)
		if (moved_under(t, j) && strcmp(cells[j], "- ") != 0 && strcmp(cells[j], "-") != 0) {
			snprintf(under[j - 1], LONG_CELL, "%s", cells[j]);
			changes = 1;
		}
	put_line(f, t, cells);
	if (changes)
		put_line(f, t, under);
}

/* "Workload mix, O_SYNC on, load io, 1 task" (the task count where the table has no Tasks column). */
static void block_heading(FILE *f, const struct long_table *t, const struct compare_panel *p)
{
	const struct compare_model *m0 = &t->figs[0].m;
	char w[80];
	text_copy(w, sizeof(w), p->workload);
	fprintf(f, "\nWorkload %s", w);
	if (p->osync >= 0)
		fprintf(f, ", O_SYNC %s", p->osync ? "on" : "off");
	if (p->variant[0]) {
		text_copy(w, sizeof(w), p->variant);
		fprintf(f, ", variant %s", w);
	}
	if (p->cpus > 0)
		fprintf(f, ", %d CPU%s", p->cpus, p->cpus == 1 ? "" : "s");
	if (p->load[0] && m0->kind != COMPARE_LOADS)
		fprintf(f, ", load %s", p->load);
	if (!t->tasks_col && p->ncells)
		fprintf(f, ", %d task%s", p->cells[0].tasks, p->cells[0].tasks == 1 ? "" : "s");
	fputc('\n', f);
}

static void put_tables(FILE *f, const struct long_table *t)
{
	const struct compare_model *m0 = &t->figs[0].m;
	char(*cells)[LONG_CELL] = xcalloc(t->ncols + 1, LONG_CELL);
	char(*under)[LONG_CELL] = xcalloc(t->ncols + 1, LONG_CELL);
	for (size_t k = 0; k < t->figs[0].w.nblocks; k++) {
		const struct compare_panel *first = t->figs[0].w.blocks[k].first;
		block_heading(f, t, first);
		for (size_t j = 0; j < t->ncols; j++)
			snprintf(cells[j], LONG_CELL, "%s", col_head(t, j, m0));
		put_line(f, t, cells);
		for (size_t i = 0; i < first->ncells; i++)
			for (size_t s = 0; s < m0->nsides; s++)
				put_side_rows(f, t, first, s, first->cells[i].tasks, cells, under);
	}
	free(cells);
	free(under);
}

/* The sides, what the change columns are, and (several --stat) what the first figure's columns are. */
static void put_legend(FILE *f, const struct long_table *t)
{
	const struct compare_model *m0 = &t->figs[0].m;
	for (size_t s = 0; s < m0->nsides; s++) {
		char label[400];
		struct strbuf sb = {0};
		text_copy(label, sizeof(label), m0->sides[s].label);
		strbuf_addf(&sb, "%s%s: %s", m0->sides[s].letter, s ? "" : " (base)", label);
		for (size_t i = 0; i < m0->sides[s].nruns && m0->kind == COMPARE_GROUPS; i++)
			strbuf_addf(&sb, "%s %lld", i ? "," : m0->sides[s].nruns > 1 ? ", runs" : ", run",
				    (long long)m0->sides[s].runs[i]);
		report_wrap(f, sb.buf, "   ", LONG_COLUMNS);
		strbuf_free(&sb);
	}
	struct strbuf sb = {0};
	const char *a = m0->sides[0].letter;
	if (m0->ratio == COMPARE_RATIO_INVERTED)
		strbuf_addf(&sb, "A/B: %s's mean over each side's (above 1: the side's is lower),", a);
	else if (m0->ratio)
		strbuf_addf(&sb, "B/A: each side's mean over %s's,", a);
	else
		strbuf_addf(&sb, "Change: of each figure's mean against %s's,", a);
	strbuf_addf(&sb, " * significant at %g%% after %s's correction, ? not judged, # not told apart from the "
		     "outside load; n: samples a side.%s", 100 * (1 - m0->alpha), compare_correction_name(m0->correction),
		     m0->verbose ? "" : " -v explains every column.");
	if (m0->nstats > 1) {
		char shown[200];
		report_stats_text(m0, shown, sizeof(shown));
		strbuf_addf(&sb, " %s: the %s of %s over each side's samples.", fig_head(&t->figs[0]), shown,
			    m0->metric->label);
	}
	if (t->loads)
		strbuf_addf(&sb, " Loads, LCPU%%: the background load's units of work and CPU (%% of one CPU); Ratio: the "
			     "time against the same side's no_load%s.", t->time_fig < 0 ? " (with --metric real_s)" : "");
	report_wrap(f, sb.buf, "", LONG_COLUMNS);
	strbuf_free(&sb);
	if (!m0->verbose)
		return;
	char *full = report_compare_legend(m0); /* every figure is judged as the first is */
	fputc('\n', f);
	report_wrap(f, full, "", LONG_COLUMNS);
	free(full);
}

/* Every caution of every figure's model, once: a sentence another figure's model said is not said again. */
static void put_cautions(FILE *f, const struct long_table *t)
{
	char **said = NULL;
	size_t nsaid = 0;
	for (size_t g = 0; g < t->nfigs; g++)
		for (size_t i = 0; i < t->figs[g].m.nnotes; i++) {
			char *text = report_note_text(&t->figs[g].m, &t->figs[g].m.notes[i]);
			int seen = !text;
			for (size_t k = 0; k < nsaid && !seen; k++)
				seen = strcmp(said[k], text) == 0;
			if (seen) {
				free(text);
				continue;
			}
			if (!nsaid)
				fputc('\n', f);
			said = xrealloc(said, (nsaid + 1) * sizeof(*said));
			said[nsaid++] = text;
			char *safe = text_escape(text); /* a note quotes stored text */
			report_wrap(f, safe, "  ", LONG_COLUMNS);
			free(safe);
		}
	for (size_t k = 0; k < nsaid; k++)
		free(said[k]);
	free(said);
}

static int fig_of(const struct long_table *t, const char *metric)
{
	for (size_t g = 0; g < t->nfigs; g++)
		if (strcmp(t->figs[g].m.metric->name, metric) == 0)
			return (int)g;
	return -1;
}

/* Where Jobs/Min and Real, one the other's reciprocal for the same jobs, are judged apart (one
 * significant and not the other, or moving the same way), each cell named, and why. */
static void put_reciprocals(FILE *f, const struct long_table *t)
{
	int jg = fig_of(t, "jobs_per_min"), rg = fig_of(t, "real_s");
	if (jg < 0 || rg < 0)
		return;
	struct strbuf sb = {0};
	size_t n = 0;
	const struct wide_model *w = &t->figs[0].w;
	for (size_t k = 0; k < w->nblocks; k++)
		for (size_t i = 0; i < w->blocks[k].first->ncells; i++)
			for (size_t s = 1; s < t->figs[0].m.nsides; s++) {
				int tasks = w->blocks[k].first->cells[i].tasks, o1, o2;
				const struct compare_cell *j = fig_cell(&t->figs[jg], w->blocks[k].first, s, tasks, &o1);
				const struct compare_cell *r = fig_cell(&t->figs[rg], w->blocks[k].first, s, tasks, &o2);
				if (!j || !r || !j->judged || !r->judged)
					continue;
				double pj = cell_pct(j), pr = cell_pct(r);
				if (j->significant == r->significant && (pj > 0) != (pr > 0))
					continue;
				if (n++ < 4)
					strbuf_addf(&sb, "%s %s at %d tasks: Real %+.1f%%%s, Jobs/Min %+.1f%%%s", n > 1 ? ";" : "",
						    t->figs[0].m.sides[s].letter, tasks, pr, r->significant ? "*" : "",
						    pj, j->significant ? "*" : "");
			}
	if (n) {
		char *text = xasprintf(
			"Jobs/Min and Real disagree at %zu cell%s (%s%s). Jobs/Min is the jobs over Real, but each is judged "
			"on its own samples' means, and the mean of reciprocals is not the reciprocal of the mean: with few "
			"samples a side, one slow sample moves Real's mean (and spread) more than Jobs/Min's. Neither "
			"verdict is settled there: more runs a side.", n, n == 1 ? "" : "s", sb.buf + 1, n > 4 ? "; ..." : "");
		fputc('\n', f);
		report_wrap(f, text, "  ", LONG_COLUMNS);
		free(text);
	}
	strbuf_free(&sb);
}

static void long_free(struct long_table *t)
{
	for (size_t g = 0; g < t->nfigs; g++) {
		if (t->figs[g].built)
			compare_wide_free(&t->figs[g].w);
		compare_model_free(&t->figs[g].m);
	}
	free(t->figs);
	free(t->cols);
}

/* A model per figure over the same groups; the first keeps --stat and --runs, the others show means. */
static int build_figs(struct long_table *t, struct store *st, const struct compare_group *groups, size_t n,
		      const struct compare_options *o)
{
	t->nfigs = o->nmetrics ? o->nmetrics : 1;
	t->figs = xcalloc(t->nfigs, sizeof(*t->figs));
	for (size_t g = 0; g < t->nfigs; g++) {
		struct compare_options og = *o;
		static const int mean = COMPARE_STAT_MEAN;
		og.metric = o->nmetrics ? o->metrics[g] : o->metric;
		if (g) {
			og.stats = &mean;
			og.nstats = 1;
			og.fail_above_pct = 0;
			og.bisect = 0;
		}
		if (compare_model_build(st, groups, n, &og, &t->figs[g].m) < 0)
			return -1;
		t->figs[g].m.verbose = o->verbose;
		compare_wide_build(&t->figs[g].m, &t->figs[g].w);
		t->figs[g].built = 1;
	}
	return 0;
}

int report_compare_long(FILE *f, struct store *st, const struct compare_group *groups, size_t n,
			const struct compare_options *o, struct compare_result *res)
{
	struct long_table t = {0};
	memset(res, 0, sizeof(*res));
	if (build_figs(&t, st, groups, n, o) < 0) {
		long_free(&t);
		return -1;
	}
	const struct compare_model *m0 = &t.figs[0].m;
	report_compare_result(m0, res);
	int markdown = o->format && strcmp(o->format, "markdown") == 0;
	if (markdown)
		fputs("```\n", f);
	if (m0->nothing != NOTHING_NO) {
		char nothing[320];
		report_nothing_text(m0, nothing, sizeof(nothing));
		fprintf(f, "%s\n", nothing);
	} else {
		plan_cols(&t);
		t.gap = 2;
		fit_widths(&t);
		if (table_width(&t) > LONG_COLUMNS) { /* the changes go under their figures */
			t.under = 1;
			fit_widths(&t);
		}
		if (table_width(&t) > LONG_COLUMNS)
			t.gap = 1;
		put_legend(f, &t);
		put_tables(f, &t);
		put_cautions(f, &t);
		put_reciprocals(f, &t);
	}
	if (markdown)
		fputs("```\n", f);
	long_free(&t);
	return 0;
}

int report_compare_reciprocals(FILE *f, struct store *st, const struct compare_group *groups, size_t n,
			       const struct compare_options *o)
{
	static const char *const pair[] = {"jobs_per_min", "real_s"};
	struct compare_options op = *o;
	op.metrics = pair;
	op.nmetrics = ARRAY_SIZE(pair);
	op.fail_above_pct = 0; /* the gate, if any, was the tables' */
	op.bisect = 0;
	struct long_table t = {0};
	int rc = build_figs(&t, st, groups, n, &op);
	if (rc == 0 && t.figs[0].m.nothing == NOTHING_NO)
		put_reciprocals(f, &t);
	long_free(&t);
	return rc;
}
