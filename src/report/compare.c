/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim compare` written out: the model of cmpmodel.c (sides, a verdict per cell, the correction,
 * subtests, warnings) as an 80-column table, Markdown, CSV or JSON. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpmodel.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

/* Text people paste into mail fits this width. */
#define COMPARE_COLUMNS 80
/* Subtests named per panel in the text formats (the JSON lists every one). */
#define COMPARE_SUBTESTS_SHOWN 6

/* Stored text (a label another program stored) as a terminal may show it: escaped. */
static const char *safe_label(const char *raw, char *buf, size_t len)
{
	text_copy(buf, len, raw);
	return buf;
}

static void wrap(FILE *f, const char *text, const char *indent)
{
	report_wrap(f, text, indent, COMPARE_COLUMNS);
}

static void wrapf(FILE *f, const char *indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void wrapf(FILE *f, const char *indent, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	wrap(f, s, indent);
	free(s);
}

/* "runs 1, 2, 3" or "run 4". */
static void runs_text(const struct compare_side *s, char *buf, size_t len)
{
	struct strbuf sb = {0};
	strbuf_addf(&sb, "run%s", s->nruns > 1 ? "s" : "");
	for (size_t i = 0; i < s->nruns; i++)
		strbuf_addf(&sb, "%s %lld", i ? "," : "", (long long)s->runs[i]);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_free(&sb);
}

/* What a cell's samples are, for the CSV and JSON: runs, repeats, a mix, or pairs of rounds. */
static const char *samples_name(const struct compare_cell *c)
{
	if (c->paired)
		return "pairs";
	if (c->src_a == c->src_b)
		return c->src_a == VERDICT_SRC_REPEATS ? "repeats" : c->src_a == VERDICT_SRC_RUNS ? "runs" : "none";
	return "runs/repeats";
}

static const char *test_name(const struct compare_model *m)
{
	if (m->blocked)
		return "a paired t test over the runs paired by device";
	return m->kind == COMPARE_GROUPS ? "Welch's t test" : "a paired t test";
}

/* What n counts. */
static const char *samples_text(const struct compare_model *m)
{
	int repeats = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++)
			repeats |= m->panels[i].cells[c].src_a == VERDICT_SRC_REPEATS ||
				   m->panels[i].cells[c].src_b == VERDICT_SRC_REPEATS;
	switch (m->kind) {
	case COMPARE_VARIANTS:
		return "pairs of points, one per round (the variants ran next to each other in every round)";
	case COMPARE_OSYNC: return "pairs of points, one per round";
	case COMPARE_LOADS:
		return "pairs of points, one per round (each load ran next to no_load in every round)";
	case COMPARE_GROUPS: break;
	}
	return repeats ? "samples a side: each run's mean with 2 or more runs, else the one run's repeats"
		       : "samples a side: each run's mean (the runs are the replicates)";
}

/* What --stat and --runs add to the legend: what the cells show, and that the verdict stays the means'. */
static void views_legend(struct strbuf *legend, const struct compare_model *m)
{
	if (m->nstats > 1 || m->stats[0] != COMPARE_STAT_MEAN) {
		char shown[200];
		report_stats_text(m, shown, sizeof(shown));
		strbuf_addf(legend, " The %s columns show the %s of each side's samples%s; the change, its interval, p "
			     "and the verdict stay those of the means.", report_metric_short(m), shown,
			     m->nstats > 1 ? ", the mean (else the first) on the task count's row beside its change, each "
					     "other one on a row of its own" : "");
	}
	if (m->runs)
		strbuf_addf(legend, " Rows #ID (run ID): each run's own %s, its mean over its valid points at that task "
			     "count, in its side's column, its label after.", m->metric->label);
}

char *report_views_legend(const struct compare_model *m)
{
	struct strbuf sb = {0};
	views_legend(&sb, m);
	if (sb.buf && sb.buf[0] == ' ')
		memmove(sb.buf, sb.buf + 1, strlen(sb.buf));
	return sb.buf;
}

/* What every column means, the correction, the load model and the CPU column: -v's legend. */
static void full_legend(struct strbuf *legend, const struct compare_model *m)
{
	char over[64];
	size_t family = compare_model_family(m);
	const char *worse, *better;
	report_metric_words(m, &worse, &better);
	if (strcmp(m->metric->name, "jobs_per_min") != 0)
		strbuf_addf(legend, "Judged: %s (%s), a rise %s; the means and the change are of it, and "
			     "\"%s\" means %s. ", m->metric->name, m->metric->label,
			     m->metric->rise_better ? "better" : "worse", worse, "worse");
	if (m->ratio == COMPARE_RATIO_INVERTED)
		strbuf_addf(legend, "Ratio: the base's mean %s over the other side's (A/B, --invert), its interval "
			     "the change's below as 1 / (1 + change / 100). ", m->metric->label);
	else if (m->ratio)
		strbuf_addf(legend, "Ratio: the mean %s of the other side over the base's (B/A), its interval "
			     "the change's below as 1 + change / 100. ", m->metric->label);
	strbuf_addf(legend, "Change: of the mean %s, in %% of the base, with its %g%% confidence interval "
		     "(Fieller). n: %s. p adj: %s, adjusted by %s's method over %s%s; "
		     "* below %g, ? cannot be judged (fewer than 2 %s, a base mean of 0, or both sides "
		     "constant and equal), # a change that cannot be told apart from the sides' different outside "
		     "load. Where the sides' outside loads differ by more than %g points, the change is adjusted for "
		     "it (analysis of covariance on each sample's load). MDE: the smallest change these samples "
		     "could detect at the corrected level (%g%% power, the noncentral t). CPU: change of the tasks' "
		     "CPU time (user + system) %s, * where its own test "
		     "on the same samples, adjusted over the cells' CPU changes, is below %g. A change of %s "
		     "and its interval never go below -100%%.",
	      m->metric->label, 100 * (1 - m->alpha), samples_text(m), test_name(m), compare_correction_name(m->correction),
	      report_judged_cells(family, "compared", over, sizeof(over)),
	      m->nsides > 2 ? " with the base, per side: each side against the base is a family of its own, so a "
			      "further side does not weaken another's verdicts" : "",
	      m->alpha, m->kind == COMPARE_GROUPS ? "samples a side" : "pairs", COMPARE_LOAD_SIMILAR_PCT,
	      100 * VERDICT_POWER,
	      m->cpu_window ? "from their release to their last job, as reaim's table shows it"
			    : "over their whole life, set-up and tear-down included (a run stored before the "
			      "measured window was)",
	      m->alpha, m->metric->label);
	views_legend(legend, m);
	int loads = 0;
	for (size_t i = 0; i < m->npanels; i++)
		loads |= m->panels[i].has_loads;
	if (loads)
		strbuf_addf(legend, " Background loads as contest shows them: Time B/A, the time the other side took "
			     "for the same jobs over the base's, the base's mean Jobs/Min over the other's (inside one "
			     "run, a load's against no_load's: contest's Ratio, as show prints it; above 1 the job took "
			     "longer); Loads, the units of work "
			     "the load did while the tasks ran (messages, MiB, entries or files); LCPU%%, its CPU in %% of "
			     "one CPU; means over the points compared, - where a side ran no load.");
}

char *report_compare_legend(const struct compare_model *m)
{
	struct strbuf sb = {0};
	full_legend(&sb, m);
	return sb.buf;
}

/* A few lines before the tables: what is judged, what the change and marks are (-v says the rest). */
static void short_legend(struct strbuf *legend, const struct compare_model *m)
{
	char over[64];
	if (strcmp(m->metric->name, "jobs_per_min") != 0)
		strbuf_addf(legend, "Judged: %s (%s), a rise %s. ", m->metric->name, m->metric->label,
			    m->metric->rise_better ? "better" : "worse");
	if (m->ratio)
		strbuf_addf(legend, "Ratio: %s of the means. ", m->ratio == COMPARE_RATIO_INVERTED ? "A/B" : "B/A");
	strbuf_addf(legend, "Change: of the mean %s against the base, %g%% interval; p adj: %s, %s over %s%s; * "
		     "significant, ? cannot be judged, # the outside load's. -v explains every column.",
		    m->metric->label, 100 * (1 - m->alpha), test_name(m), compare_correction_name(m->correction),
		    report_judged_cells(compare_model_family(m), "compared", over, sizeof(over)),
		    m->nsides > 2 ? " a side" : "");
	views_legend(legend, m);
}

/* The sides and the legend (a few lines; every column under -v); shared by the table and Markdown. */
static void text_begin(FILE *f, const struct compare_model *m, int markdown)
{
	const char *item = markdown ? "- " : "";
	char shown[400];
	if (m->kind != COMPARE_GROUPS)
		wrapf(f, "", "%sRun %lld (%s), %s, paired round by round:", markdown ? "## " : "",
		      (long long)m->sides[0].runs[0], safe_label(m->run_label, shown, sizeof(shown)),
		      m->kind == COMPARE_VARIANTS ? "its variants"
		      : m->kind == COMPARE_LOADS  ? "each background load against no_load"
						  : "O_SYNC off against on");
	for (size_t s = 0; s < m->nsides; s++) {
		char runs[256] = "";
		if (m->kind == COMPARE_GROUPS)
			runs_text(&m->sides[s], runs, sizeof(runs));
		wrapf(f, "   ", "%s%s%s: %s%s%s", item, m->sides[s].letter, s == 0 ? " (base)" : "",
		      safe_label(m->sides[s].label, shown, sizeof(shown)), runs[0] ? ", " : "", runs);
	}
	fputc('\n', f);
	struct strbuf legend = {0};
	if (m->verbose)
		full_legend(&legend, m);
	else
		short_legend(&legend, m);
	report_wrap(f, legend.buf, "", markdown ? 0 : COMPARE_COLUMNS);
	strbuf_free(&legend);
}

static void table_begin(FILE *f, const struct compare_model *m) { text_begin(f, m, 0); }
static void markdown_begin(FILE *f, const struct compare_model *m) { text_begin(f, m, 1); }

/* "Workload dbase, O_SYNC on: B against A". */
static void panel_title(FILE *f, const struct compare_model *m, const struct compare_panel *p, const char *prefix)
{
	fprintf(f, "\n%sWorkload ", prefix);
	fput_text(f, p->workload, 0);
	if (p->osync >= 0)
		fprintf(f, ", O_SYNC %s", p->osync ? "on" : "off");
	if (p->variant[0])
		fprintf(f, ", variant %s", p->variant);
	if (p->cpus > 0)
		fprintf(f, ", %d CPU%s", p->cpus, p->cpus == 1 ? "" : "s");
	if (p->load[0])
		fprintf(f, ", load %s", p->load);
	fprintf(f, ": %s against %s\n", m->sides[p->side].letter, m->sides[0].letter);
}

/* The statistic on a task count's row, beside the change, interval and p of the means: the mean where
 * --stat shows it, else the first shown; the others go on rows of their own under it. */
static size_t lead_stat(const struct compare_model *m)
{
	for (size_t k = 0; k < m->nstats; k++)
		if (m->stats[k] == COMPARE_STAT_MEAN)
			return k;
	return 0;
}

/* One cell's figures as text: change, interval, p, MDE, CPU (blank where not known). */
struct cell_text {
	char n_a[16], n_b[16], mean_b[24], change[16], ci[40], p[16], mde[16], cpu[16];
	char mark;
};

/* A percentage in its column's width: one decimal while it fits (a change of +1165.9 % would push
 * the row past 80 columns), none where it does not. */
static void fmt_pct(char *buf, size_t len, double v, int sign, size_t width)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, sign ? "%+.1f%%" : "%.1f%%", v);
	if (strlen(buf) > width)
		snprintf(buf, len, sign ? "%+.0f%%" : "%.0f%%", v);
}

/* An interval's bound, right-aligned in 7 columns: one decimal while it fits. */
static void fmt_bound(char *buf, size_t len, double v)
{
	char pct[12];
	fmt_pct(pct, sizeof(pct), v, 1, 7);
	snprintf(buf, len, "%7s", pct);
}

/* A change of job time: milliseconds below a second, where most tests' changes are. */
static void strbuf_seconds(struct strbuf *sb, double s)
{
	s += 0.0; /* no "-0" */
	if (fabs(s) < 0.9995)
		strbuf_addf(sb, "%+.1f ms", s * 1e3 + 0.0);
	else
		strbuf_addf(sb, "%+.2f s", s);
}

static void cell_text(const struct compare_model *m, const struct compare_cell *c, int ratio, struct cell_text *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->n_a, sizeof(t->n_a), "%zu", c->paired ? c->na : c->na);
	t->mark = ' ';
	if (!c->present) {
		snprintf(t->mean_b, sizeof(t->mean_b), "-");
		return;
	}
	snprintf(t->n_b, sizeof(t->n_b), "%zu", c->nb);
	report_metric_value(m, compare_cell_stat(c, 1, m->stats[lead_stat(m)]), t->mean_b, sizeof(t->mean_b));
	if (ratio)
		report_change_text(m, c->judged ? c->v.change_pct : 100.0 * (c->mean_b / c->mean_a - 1), t->change,
				   sizeof(t->change));
	else
		fmt_pct(t->change, sizeof(t->change), report_cell_pct(c), 1,
			7);
	fmt_pct(t->cpu, sizeof(t->cpu), c->cpu_pct, 1, c->cpu_significant ? 6 : 7);
	if (c->cpu_significant)
		strcat(t->cpu, "*");
	if (!c->judged) {
		t->mark = '?';
		snprintf(t->p, sizeof(t->p), "-");
		snprintf(t->mde, sizeof(t->mde), "-");
		return;
	}
	t->mark = c->state == CELL_CONFOUNDED ? '#' : c->significant ? '*' : ' ';
	if (c->v.bounded && ratio) {
		/* A/B's interval is B/A's turned over: its low end from B/A's high one */
		int inv = m->ratio == COMPARE_RATIO_INVERTED;
		char lo[16], hi[16];
		report_change_text(m, inv ? c->v.ci_high_pct : c->v.ci_low_pct, lo, sizeof(lo));
		report_change_text(m, inv ? c->v.ci_low_pct : c->v.ci_high_pct, hi, sizeof(hi));
		snprintf(t->ci, sizeof(t->ci), "[%6s, %6s]", lo, hi);
	} else if (c->v.bounded) {
		char lo[16], hi[16];
		fmt_bound(lo, sizeof(lo), c->v.ci_low_pct);
		fmt_bound(hi, sizeof(hi), c->v.ci_high_pct);
		snprintf(t->ci, sizeof(t->ci), "[%s,%s]", lo, hi);
	}
	else
		snprintf(t->ci, sizeof(t->ci), "(unbounded)");
	if (c->p_adj < 0.001)
		snprintf(t->p, sizeof(t->p), "<.001");
	else
		snprintf(t->p, sizeof(t->p), "%.3f", c->p_adj);
	if (c->mde_adj_pct >= 1000) /* no power at all: the digits would only widen the column */
		snprintf(t->mde, sizeof(t->mde), ">999%%");
	else
		fmt_pct(t->mde, sizeof(t->mde), c->mde_adj_pct, 0, 6);
}

/* A sentence of the model's under a panel's rows, wrapped. */
static void panel_sentence(FILE *f, char *text, const char *gap, size_t width)
{
	if (!text)
		return;
	fputs(gap, f);
	report_wrap(f, text, "  ", width);
	free(text);
}

/* The command that runs the sides in turn, where the load cannot be told from the change: unwrapped, to
 * paste, each line indented (Markdown: a code block). */
static void separate_command(FILE *f, const struct compare_model *m, const struct compare_panel *p, int markdown)
{
	char *cmd = report_panel_separate_command(m, p);
	if (!cmd)
		return;
	if (markdown)
		fputc('\n', f);
	for (const char *at = cmd; *at;) {
		size_t n = strcspn(at, "\n");
		int body = *at == '\t';
		fprintf(f, "    %s%.*s\n", body ? "    " : "", (int)(n - (size_t)body), at + body);
		at += n + (at[n] == '\n');
	}
	free(cmd);
}

/* Peaks, geometric mean, the sampler's shares and the subtests under a panel's rows. */
static void panel_summary(FILE *f, const struct compare_model *m, const struct compare_panel *p, int markdown)
{
	const char *a = m->sides[0].letter, *b = m->sides[p->side].letter;
	const char *gap = markdown ? "\n" : "";
	size_t width = markdown ? 0 : COMPARE_COLUMNS;
	char line[512];
	report_panel_line(m, p, line, sizeof(line));
	char *said = xasprintf(markdown ? "**%s.**" : "%s.", line);
	fputs(gap, f);
	report_wrap(f, said, "  ", width);
	free(said);
	struct strbuf sb = {0};
	if (p->ngeo) {
		char geo[24];
		int inv = m->ratio == COMPARE_RATIO_INVERTED;
		report_change_text(m, p->geomean_pct, geo, sizeof(geo)); /* in the table's unit: % or a ratio */
		strbuf_addf(&sb, "Geomean of %s/%s over %zu task count%s: %s", inv ? a : b, inv ? b : a, p->ngeo,
			    p->ngeo == 1 ? "" : "s", geo);
		if (p->geo_adjusted) /* the same changes as the Change column, named as it names them */
			strbuf_addf(&sb, " (adjusted for others' demand at %zu)", p->geo_adjusted);
		strbuf_addf(&sb, ". ");
	}
	char pa[24], pb[24];
	report_metric_value(m, p->peak_a, pa, sizeof(pa));
	report_metric_value(m, p->peak_b, pb, sizeof(pb));
	/* the best mean: the highest Jobs/Min, the lowest of a figure whose rise is worse */
	if (p->peak_a_tasks)
		strbuf_addf(&sb, "%s: %s %s at %d tasks", m->metric->rise_better ? "Peak" : "Best (lowest)", a, pa,
			    p->peak_a_tasks);
	if (p->peak_b_tasks)
		strbuf_addf(&sb, ", %s %s at %d tasks", b, pb, p->peak_b_tasks);
	if (sb.len) {
		fputs(gap, f);
		report_wrap(f, sb.buf, "  ", width);
	}
	strbuf_free(&sb);
	panel_sentence(f, report_panel_load_text(m, p), gap, width);
	separate_command(f, m, p, markdown);
	panel_sentence(f, report_panel_few_text(m, p, "By medians"), gap, width);
	if (p->has_system) {
		static const char *const shown[] = {"user", "sys", "iowait", "disk util"};
		struct strbuf s = {0};
		strbuf_addf(&s, "System, %s -> %s (means over sampled points, described; --counters judges them):", a, b);
		for (size_t i = 0; i < ARRAY_SIZE(shown); i++)
			strbuf_addf(&s, "%s %s %.1f%% -> %.1f%%", i ? "," : "", shown[i], p->sys_a[i], p->sys_b[i]);
		fputs(gap, f);
		report_wrap(f, s.buf, "  ", width);
		strbuf_free(&s);
	}
	if (!p->nsubs)
		return;
	struct strbuf s = {0};
	strbuf_addf(&s, "Subtests by their share of all the movement in job time (+: slower, -: faster; in all %s",
		    p->total.noise ? "~" : "");
	strbuf_seconds(&s, p->total.delta_s);
	strbuf_addf(&s, ", %+.1f%%; ~: within noise):", p->total.base_s ? 100 * p->total.delta_s / p->total.base_s : 0.0);
	for (size_t i = 0; i < p->nsubs && i < COMPARE_SUBTESTS_SHOWN; i++) {
		const struct compare_subtest *t = &p->subs[i];
		strbuf_addf(&s, "%s %s ", i ? "," : "", t->name);
		if (isfinite(t->share_pct)) {
			strbuf_addf(&s, "%s%.0f%% (", t->noise ? "~" : "", t->share_pct + 0.0);
			strbuf_seconds(&s, t->delta_s);
			strbuf_addf(&s, ")");
		} else {
			strbuf_addf(&s, "%s", t->noise ? "~" : "");
			strbuf_seconds(&s, t->delta_s);
		}
	}
	if (p->nsubs > COMPARE_SUBTESTS_SHOWN)
		strbuf_addf(&s, ", %zu more (--format json lists them)", p->nsubs - COMPARE_SUBTESTS_SHOWN);
	fputs(gap, f);
	report_wrap(f, s.buf, "  ", width);
	strbuf_free(&s);
}

/* A load's units of work (contest's Loads), LCPU% or the time ratio as text; "-" where a side ran none. */
static void fmt_load(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

/* A cell's contest figures as text: Time B/A, each side's Loads and LCPU% ("-" where not measured). */
struct load_text {
	char ratio[16], loads_a[24], lcpu_a[16], loads_b[24], lcpu_b[16];
};

static void load_text(const struct compare_cell *c, struct load_text *t)
{
	fmt_load(t->ratio, sizeof(t->ratio), "%.3f", c->time_ratio);
	fmt_load(t->loads_a, sizeof(t->loads_a), "%.1f", c->loads_a);
	fmt_load(t->lcpu_a, sizeof(t->lcpu_a), "%.1f", c->lcpu_a);
	fmt_load(t->loads_b, sizeof(t->loads_b), "%.1f", c->loads_b);
	fmt_load(t->lcpu_b, sizeof(t->lcpu_b), "%.1f", c->lcpu_b);
}

/* contest's columns of a panel with background loads: per task count the time ratio and each side's
 * load's units done and CPU. */
static void table_loads(FILE *f, const struct compare_model *m, const struct compare_panel *p)
{
	const char *a = m->sides[0].letter, *b = m->sides[p->side].letter;
	char ha[2][24], hb[2][24];
	snprintf(ha[0], sizeof(ha[0]), "%s Loads", a);
	snprintf(ha[1], sizeof(ha[1]), "%s LCPU%%", a);
	snprintf(hb[0], sizeof(hb[0]), "%s Loads", b);
	snprintf(hb[1], sizeof(hb[1]), "%s LCPU%%", b);
	char hr[24];
	snprintf(hr, sizeof(hr), "Time %s/%s", b, a);
	fprintf(f, "%5s %9s %12s %8s %12s %8s\n", "Tasks", hr, ha[0], ha[1], hb[0], hb[1]);
	for (size_t i = 0; i < p->ncells; i++) {
		const struct compare_cell *c = &p->cells[i];
		struct load_text lt;
		load_text(c, &lt);
		fprintf(f, "%5d %9s %12s %8s %12s %8s\n", c->tasks, lt.ratio, lt.loads_a, lt.lcpu_a, lt.loads_b, lt.lcpu_b);
	}
}

/* A row without the spaces blank columns leave at its end. */
static void text_line(FILE *f, const char *line)
{
	size_t len = strlen(line);
	while (len && line[len - 1] == ' ')
		len--;
	fprintf(f, "%.*s\n", (int)len, line);
}

/* Under a cell's row: a row per further --stat (both sides' values), then with --runs a row per run of
 * each side (its id, its figure in its side's column, its label where the change goes). */
static void table_more_rows(FILE *f, const struct compare_model *m, const struct compare_cell *c, int w)
{
	char line[512], va[24], vb[24], id[24], label[160];
	for (size_t k = 0; k < m->nstats && c->present; k++) {
		if (k == lead_stat(m))
			continue;
		report_metric_value(m, compare_cell_stat(c, 0, m->stats[k]), va, sizeof(va));
		report_metric_value(m, compare_cell_stat(c, 1, m->stats[k]), vb, sizeof(vb));
		snprintf(line, sizeof(line), "%5s %*s %3s %*s", compare_stats[m->stats[k]].tag, w, va, "", w, vb);
		text_line(f, line);
	}
	for (int side = 0; side < 2 && m->runs; side++) {
		const struct compare_run_value *r = side ? c->runs_b : c->runs_a;
		size_t n = side ? c->nruns_b : c->nruns_a;
		for (size_t i = 0; i < n; i++) {
			snprintf(id, sizeof(id), "#%lld", (long long)r[i].run);
			report_metric_value(m, r[i].value, va, sizeof(va));
			text_copy(label, sizeof(label), r[i].label);
			snprintf(line, sizeof(line), "%5s %*s %3s %*s %3s %s", id, w, side ? "" : va, "", w, side ? va : "",
				 "", label);
			text_line(f, line);
		}
	}
}

static void table_panel(FILE *f, const struct compare_model *m, const struct compare_panel *p)
{
	const char *a = m->sides[0].letter, *b = m->sides[p->side].letter;
	char ha[48], hb[48];
	/* a statistic other than the mean names its column in the metric's place (the legend says which) */
	int lead = m->stats[lead_stat(m)];
	const char *head = lead != COMPARE_STAT_MEAN ? compare_stats[lead].tag : report_metric_short(m);
	snprintf(ha, sizeof(ha), "%s %s", a, head);
	snprintf(hb, sizeof(hb), "%s %s", b, head);
	/* a longer metric's name widens its columns, never cut */
	int w = (int)(strlen(ha) > strlen(hb) ? strlen(ha) : strlen(hb));
	w = w > 8 ? w : 8;
	panel_title(f, m, p, "");
	char ci[32];
	snprintf(ci, sizeof(ci), "    %g%% CI", 100 * (1 - m->alpha));
	fprintf(f, "%5s %*s %3s %*s %3s %7s %-17s %5s  %6s %7s\n", "Tasks", w, ha, "n", w, hb, "n",
		m->ratio ? "Ratio" : "Change", ci, "p adj",
		"MDE", "CPU");
	for (size_t i = 0; i < p->ncells; i++) {
		const struct compare_cell *c = &p->cells[i];
		struct cell_text t;
		cell_text(m, c, m->ratio, &t);
		char line[256], mean_a[24];
		report_metric_value(m, compare_cell_stat(c, 0, m->stats[lead_stat(m)]), mean_a, sizeof(mean_a));
		snprintf(line, sizeof(line), "%5d %*s %3s %*s %3s %7s %-17s %5s%c %6s %7s", c->tasks, w, mean_a, t.n_a,
			 w, t.mean_b, t.n_b, t.change, t.ci, t.p, t.mark, t.mde, t.cpu);
		text_line(f, line);
		table_more_rows(f, m, c, w);
	}
	if (p->has_loads)
		table_loads(f, m, p);
	panel_summary(f, m, p, 0);
}

/* The Markdown of table_more_rows: the further statistics, then the runs; blank cells to the row's end. */
static void markdown_more_rows(FILE *f, const struct compare_model *m, const struct compare_cell *c, int more)
{
	char va[24], vb[24], label[160];
	for (size_t k = 0; k < m->nstats && c->present; k++) {
		if (k == lead_stat(m))
			continue;
		report_metric_value(m, compare_cell_stat(c, 0, m->stats[k]), va, sizeof(va));
		report_metric_value(m, compare_cell_stat(c, 1, m->stats[k]), vb, sizeof(vb));
		fprintf(f, "| %s | %s | | %s | | | | | | |%.*s\n", compare_stats[m->stats[k]].words, va, vb, 2 * more,
			" | | | | |");
	}
	for (int side = 0; side < 2 && m->runs; side++) {
		const struct compare_run_value *r = side ? c->runs_b : c->runs_a;
		size_t n = side ? c->nruns_b : c->nruns_a;
		for (size_t i = 0; i < n; i++) {
			report_metric_value(m, r[i].value, va, sizeof(va));
			text_copy(label, sizeof(label), r[i].label);
			fprintf(f, "| run %lld | %s | | %s | | %s | | | | |%.*s\n", (long long)r[i].run, side ? "" : va,
				side ? va : "", label, 2 * more, " | | | | |");
		}
	}
}

static void markdown_panel(FILE *f, const struct compare_model *m, const struct compare_panel *p)
{
	const char *a = m->sides[0].letter, *b = m->sides[p->side].letter;
	panel_title(f, m, p, "### ");
	const char *metric = report_metric_short(m);
	const char *st = m->stats[lead_stat(m)] != COMPARE_STAT_MEAN ? compare_stats[m->stats[lead_stat(m)]].tag : "";
	fprintf(f, "\n| Tasks | %s %s%s%s | n | %s %s%s%s | n | %s | %g%% CI | p adj | MDE | CPU |", a, st, *st ? " " : "",
		metric, b, st, *st ? " " : "", metric, m->ratio ? "Ratio" : "Change", 100 * (1 - m->alpha));
	if (p->has_loads)
		fprintf(f, " Time %s/%s | %s Loads | %s LCPU%% | %s Loads | %s LCPU%% |", b, a, a, a, b, b);
	fprintf(f, "\n|---:|---:|---:|---:|---:|---:|:---:|---:|---:|---:|%s\n", p->has_loads ? "---:|---:|---:|---:|---:|" : "");
	for (size_t i = 0; i < p->ncells; i++) {
		const struct compare_cell *c = &p->cells[i];
		struct cell_text t;
		cell_text(m, c, m->ratio, &t);
		char mean_a[24];
		report_metric_value(m, compare_cell_stat(c, 0, m->stats[lead_stat(m)]), mean_a, sizeof(mean_a));
		fprintf(f, "| %d | %s | %s | %s | %s | %s | %s | %s%s | %s | %s |", c->tasks, mean_a, t.n_a,
			t.mean_b, t.n_b, t.change, t.ci, t.p, t.mark == '*' ? "\\*" : t.mark == '?' ? "?" : t.mark == '#' ? "#" : "", t.mde,
			t.cpu);
		if (p->has_loads) {
			struct load_text lt;
			load_text(c, &lt);
			fprintf(f, " %s | %s | %s | %s | %s |", lt.ratio, lt.loads_a, lt.lcpu_a, lt.loads_b, lt.lcpu_b);
		}
		fputc('\n', f);
		markdown_more_rows(f, m, c, p->has_loads ? 5 : 0);
	}
	panel_summary(f, m, p, 1);
}

/* A bound of the CPU change's interval: NaN where it was not judged or is unbounded. */
static double cpu_bound(const struct compare_cell *c, double v)
{
	return c->cpu_judged && c->cpu_v.bounded ? v : NAN;
}

static void csv_begin(FILE *f, const struct compare_model *m)
{
	fprintf(f, "workload,osync,variant,tasks,base,base_label,base_runs,base_jpm,n_base,other,other_label,"
		   "other_runs,other_jpm,n_other,samples,pct,ci_low_pct,ci_high_pct,p,p_adj,correction,"
		   "significant,mde_pct,cpu_pct,user_pct,sys_pct,real_pct,rank_p,regression,cpu_ci_low_pct,cpu_ci_high_pct,"
		   "cpu_p_adj,cpu_significant,state,load_model,load_base_mean,load_base_min,load_base_max,"
		   "load_other_mean,load_other_min,load_other_max,raw_pct,raw_ci_low_pct,raw_ci_high_pct,raw_p,"
		   "slope,median_base,median_other,fragile,mde_adj_pct,ratio,ratio_ci_low,ratio_ci_high,cpus,load,"
		   "time_ratio,loads_base,loads_other,lcpu_pct_base,lcpu_pct_other,pct_kind");
	for (int side = 0; side < 2; side++)
		for (size_t k = COMPARE_STAT_MEAN + 1; k < COMPARE_NSTATS; k++)
			fprintf(f, ",%s_%s", side ? "other" : "base", compare_stats[k].name);
	/* --runs: each side's runs and their figures, "ID:VALUE" separated by spaces */
	fputs(m->runs ? ",metric,base_run_values,other_run_values\n" : ",metric\n", f);
}

/* One side's runs of a cell as "ID:VALUE ID:VALUE", a field of its own. */
static void csv_run_values(FILE *f, const struct compare_run_value *r, size_t n)
{
	fputc(',', f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s%lld:", i ? " " : "", (long long)r[i].run);
		textout_csv_number(f, "%.6g", r[i].value);
	}
}

static void csv_numbers(FILE *f, const char *fmt, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fputc(',', f);
		textout_csv_number(f, fmt, v[i]);
	}
}

static void csv_panel(FILE *f, const struct compare_model *m, const struct compare_panel *p)
{
	for (size_t i = 0; i < p->ncells; i++) {
		const struct compare_cell *c = &p->cells[i];
		if (!c->present)
			continue;
		textout_csv_string(f, p->workload, 0);
		fprintf(f, ",%s,", p->osync < 0 ? "" : p->osync ? "on" : "off");
		textout_csv_string(f, p->variant, 0);
		fprintf(f, ",%d", c->tasks);
		report_csv_side(f, &m->sides[0]);
		const char *mean_fmt = strcmp(m->metric->name, "jobs_per_min") == 0 ? "%.2f" : "%.6g";
		csv_numbers(f, mean_fmt, &c->mean_a, 1);
		fprintf(f, ",%zu", c->na);
		report_csv_side(f, &m->sides[p->side]);
		csv_numbers(f, mean_fmt, &c->mean_b, 1);
		fprintf(f, ",%zu,%s", c->nb, samples_name(c));
		/* the change the interval, p and ratio are of: adjusted where the cell is (pct_kind), the raw beside */
		const double stats[] = {report_cell_pct(c), c->judged ? c->v.ci_low_pct : NAN,
					c->judged ? c->v.ci_high_pct : NAN};
		csv_numbers(f, "%.3f", stats, ARRAY_SIZE(stats));
		const double ps[] = {c->judged ? c->v.p : NAN, c->p_adj};
		csv_numbers(f, "%.4g", ps, ARRAY_SIZE(ps));
		fprintf(f, ",%s,%s", compare_correction_names[m->correction],
			c->judged ? (c->significant ? "yes" : "no") : "n/a");
		const double rest[] = {c->judged ? c->v.mde_pct : NAN, c->cpu_pct, c->user_pct, c->sys_pct, c->real_pct};
		csv_numbers(f, "%.3f", rest, ARRAY_SIZE(rest));
		csv_numbers(f, "%.4g", (const double[]){c->rank_p >= 0 ? c->rank_p : NAN}, 1);
		fprintf(f, ",%s", c->regression ? "yes" : "no");
		const double cpu[] = {cpu_bound(c, c->cpu_v.ci_low_pct), cpu_bound(c, c->cpu_v.ci_high_pct)};
		csv_numbers(f, "%.3f", cpu, ARRAY_SIZE(cpu));
		csv_numbers(f, "%.4g", (const double[]){c->cpu_judged ? c->cpu_p_adj : NAN}, 1);
		fprintf(f, ",%s", c->cpu_judged ? (c->cpu_significant ? "yes" : "no") : "n/a");
		fprintf(f, ",%s,%s", report_state_name(c->state), compare_load_model_name(c->load_model));
		const struct compare_load *la = &c->load_a, *lb = &c->load_b;
		const double loads[] = {la->n ? la->mean : NAN, la->n ? la->min : NAN, la->n ? la->max : NAN,
					lb->n ? lb->mean : NAN, lb->n ? lb->min : NAN, lb->n ? lb->max : NAN};
		csv_numbers(f, "%.2f", loads, ARRAY_SIZE(loads));
		const double raw[] = {c->raw_judged ? c->raw.change_pct : NAN, c->raw_judged ? c->raw.ci_low_pct : NAN,
				      c->raw_judged ? c->raw.ci_high_pct : NAN};
		csv_numbers(f, "%.3f", raw, ARRAY_SIZE(raw));
		csv_numbers(f, "%.4g", (const double[]){c->raw_judged ? c->raw.p : NAN,
							c->load_model == LOAD_COVARIATE && c->judged ? c->v.slope : NAN},
			    2);
		csv_numbers(f, "%.2f", (const double[]){c->median_a, c->median_b}, 2);
		fprintf(f, ",%s", c->fragile ? "yes" : "no");
		csv_numbers(f, "%.3f", (const double[]){c->mde_adj_pct}, 1);
		const double ratio[] = {c->judged ? 1 + c->v.change_pct / 100 : c->mean_b / c->mean_a, c->judged && c->v.bounded ? 1 + c->v.ci_low_pct / 100 : NAN,
					c->judged && c->v.bounded ? 1 + c->v.ci_high_pct / 100 : NAN};
		csv_numbers(f, "%.5f", ratio, ARRAY_SIZE(ratio));
		fprintf(f, ",%d,", p->cpus);
		textout_csv_string(f, p->load, 0);
		csv_numbers(f, "%.5f", &c->time_ratio, 1);
		csv_numbers(f, "%.4f", (const double[]){c->loads_a, c->loads_b, c->lcpu_a, c->lcpu_b}, 4);
		fprintf(f, ",%s", report_pct_kind(c));
		for (int side = 0; side < 2; side++)
			for (int k = COMPARE_STAT_MEAN + 1; k < COMPARE_NSTATS; k++)
				csv_numbers(f, "%.6g", (const double[]){compare_cell_stat(c, side, k)}, 1);
		fprintf(f, ",%s", m->metric->name);
		if (m->runs) {
			csv_run_values(f, c->runs_a, c->nruns_a);
			csv_run_values(f, c->runs_b, c->nruns_b);
		}
		fputc('\n', f);
	}
}

/* One JSON member: `, "key": ` then the number (null when not finite). */
static void json_num(FILE *f, const char *key, const char *fmt, double v)
{
	fprintf(f, ", \"%s\": ", key);
	textout_json_number(f, fmt, v);
}

static void json_string_or_null(FILE *f, const char *key, const char *v)
{
	fprintf(f, ", \"%s\": ", key);
	if (v)
		textout_json_string(f, v);
	else
		fputs("null", f);
}

/* One caution as data: its code and level, the runs and sides it names, what differs and its figures. */
static void json_caution(FILE *f, const struct compare_model *m, const struct compare_note *n, int first)
{
	fprintf(f, "%s{\"code\": \"%s\", \"level\": \"%s\"", first ? "\n  " : ",\n  ", report_note_code_name(n->code),
		report_note_level_name(n->level));
	char side[8], base[8];
	snprintf(side, sizeof(side), "%s", n->side >= 0 ? m->sides[n->side].letter : "?");
	snprintf(base, sizeof(base), "%s", n->base_side >= 0 ? m->sides[n->base_side].letter : "?");
	json_string_or_null(f, "side", n->side >= 0 ? side : NULL);
	json_string_or_null(f, "base_side", n->base_side >= 0 ? base : NULL);
	if (n->run)
		fprintf(f, ", \"run\": %lld", (long long)n->run);
	if (n->base_run)
		fprintf(f, ", \"base_run\": %lld", (long long)n->base_run);
	json_string_or_null(f, "key", n->key[0] ? n->key : NULL);
	json_string_or_null(f, "workload", n->workload[0] ? n->workload : NULL);
	char *value = report_note_value(m, n), *tasks = report_note_tasks(m, n);
	json_string_or_null(f, "value", value);
	json_string_or_null(f, "base_value", n->base_value);
	json_string_or_null(f, "tasks", tasks);
	free(value);
	free(tasks);
	fprintf(f, ", \"count\": %zu", n->count);
	if (n->code == NOTE_CONFOUNDED || n->code == NOTE_HOST_LOAD) {
		json_num(f, "load_base_min", "%.2f", n->figure[0]);
		json_num(f, "load_base_max", "%.2f", n->figure[1]);
		json_num(f, "load_other_min", "%.2f", n->figure[2]);
		json_num(f, "load_other_max", "%.2f", n->figure[3]);
	}
	fputc('}', f);
}

static void json_begin(FILE *f, const struct compare_model *m)
{
	fprintf(f, "{\"format_version\": 2, \"kind\": \"%s\", \"alpha\": %g, \"level_pct\": %g, "
		   "\"correction\": \"%s\", \"cpu\": \"%s\", \"metric\": \"%s\", \"rise_better\": %s, "
		   "\"cells_compared\": %zu, \"fail_above_pct\": ",
		compare_kind_name(m->kind), m->alpha, 100 * (1 - m->alpha), compare_correction_names[m->correction],
		m->cpu_window ? "window" : "whole_life", m->metric->name, m->metric->rise_better ? "true" : "false",
		m->judged);
	textout_json_number(f, "%g", m->fail_above_pct > 0 ? m->fail_above_pct : NAN);
	report_json_shown(f, m);
	fprintf(f, ",\n \"sides\": [");
	for (size_t s = 0; s < m->nsides; s++) {
		const struct compare_side *d = &m->sides[s];
		fprintf(f, "%s{\"side\": \"%s\", \"label\": ", s ? ", " : "", d->letter);
		textout_json_string(f, d->label);
		fprintf(f, ", \"runs\": [");
		for (size_t i = 0; i < d->nruns; i++)
			fprintf(f, "%s%lld", i ? ", " : "", (long long)d->runs[i]);
		fprintf(f, "], \"variant\": ");
		if (d->variant)
			textout_json_string(f, d->variant);
		else
			fputs("null", f);
		fprintf(f, ", \"osync\": ");
		if (d->osync >= 0)
			fprintf(f, "%d", d->osync);
		else
			fputs("null", f);
		json_string_or_null(f, "load", d->load);
		fputc('}', f);
	}
	fprintf(f, "],\n \"notes\": ");
	report_notes_json(f, m);
	fprintf(f, ",\n \"cautions\": [");
	for (size_t i = 0; i < m->nnotes; i++)
		json_caution(f, m, &m->notes[i], i == 0);
	fprintf(f, "],\n \"rows\": [");
}

/* The block's keys of a JSON row. */
static void json_block(FILE *f, const struct compare_model *m, const struct compare_panel *p)
{
	fprintf(f, "{\"workload\": ");
	textout_json_string(f, p->workload);
	fprintf(f, ", \"osync\": ");
	if (p->osync >= 0)
		fprintf(f, "%d", p->osync);
	else
		fputs("null", f);
	fprintf(f, ", \"variant\": ");
	textout_json_string(f, p->variant);
	fprintf(f, ", \"cpus\": %d, \"load\": ", p->cpus);
	textout_json_string(f, p->load);
	fprintf(f, ", \"base\": \"%s\", \"other\": \"%s\"", m->sides[0].letter, m->sides[p->side].letter);
}

/* Whether a panel before p wrote a row (so the next one needs a comma). */
static int rows_before(const struct compare_model *m, const struct compare_panel *p)
{
	for (const struct compare_panel *q = m->panels; q < p; q++)
		for (size_t i = 0; i < q->ncells; i++)
			if (q->cells[i].present)
				return 1;
	return 0;
}

/* `, "key": {"mean": .., "min": .., "max": .., "n": ..}`, or null where not measured. */
static void json_load(FILE *f, const char *key, const struct compare_load *l)
{
	fprintf(f, ", \"%s\": ", key);
	if (!l->n) {
		fputs("null", f);
		return;
	}
	fputs("{\"mean\": ", f);
	textout_json_number(f, "%.4f", l->mean);
	fputs(", \"min\": ", f);
	textout_json_number(f, "%.4f", l->min);
	fputs(", \"max\": ", f);
	textout_json_number(f, "%.4f", l->max);
	fprintf(f, ", \"n\": %zu}", l->n);
}

/* Rows now, per panel; the subtests of every panel after them (json_end). */
static void json_panel(FILE *f, const struct compare_model *m, const struct compare_panel *p)
{
	int first = !rows_before(m, p);
	for (size_t i = 0; i < p->ncells; i++) {
		const struct compare_cell *c = &p->cells[i];
		if (!c->present)
			continue;
		fputs(first ? "\n  " : ",\n  ", f);
		first = 0;
		json_block(f, m, p);
		fprintf(f, ", \"tasks\": %d", c->tasks);
		json_num(f, "base_jpm", "%.4f", c->mean_a);
		json_num(f, "other_jpm", "%.4f", c->mean_b);
		json_num(f, "base_mean", "%.6g", c->mean_a);
		json_num(f, "other_mean", "%.6g", c->mean_b);
		fprintf(f, ", \"n_base\": %zu, \"n_other\": %zu, \"samples\": \"%s\", \"paired\": %s", c->na, c->nb,
			samples_name(c), c->paired ? "true" : "false");
		json_num(f, "pct", "%.4f", report_cell_pct(c));
		json_num(f, "ci_low_pct", "%.4f", c->judged ? c->v.ci_low_pct : NAN);
		json_num(f, "ci_high_pct", "%.4f", c->judged ? c->v.ci_high_pct : NAN);
		fprintf(f, ", \"ci_bounded\": %s", c->judged && c->v.bounded ? "true" : "false");
		json_num(f, "t", "%.6g", c->judged ? c->v.t : NAN);
		json_num(f, "df", "%.6g", c->judged ? c->v.df : NAN);
		json_num(f, "p", "%.6g", c->judged ? c->v.p : NAN);
		json_num(f, "p_adj", "%.6g", c->p_adj);
		fprintf(f, ", \"judged\": %s, \"significant\": %s, \"regression\": %s", c->judged ? "true" : "false",
			c->significant ? "true" : "false", c->regression ? "true" : "false");
		json_num(f, "mde_pct", "%.4f", c->judged ? c->v.mde_pct : NAN);
		json_num(f, "cpu_pct", "%.4f", c->cpu_pct);
		json_num(f, "cpu_ci_low_pct", "%.4f", cpu_bound(c, c->cpu_v.ci_low_pct));
		json_num(f, "cpu_ci_high_pct", "%.4f", cpu_bound(c, c->cpu_v.ci_high_pct));
		json_num(f, "cpu_p_adj", "%.6g", c->cpu_judged ? c->cpu_p_adj : NAN);
		fprintf(f, ", \"cpu_significant\": %s", c->cpu_significant ? "true" : "false");
		json_num(f, "user_pct", "%.4f", c->user_pct);
		json_num(f, "sys_pct", "%.4f", c->sys_pct);
		json_num(f, "real_pct", "%.4f", c->real_pct);
		json_num(f, "rank_p", "%.6g", c->rank_p >= 0 ? c->rank_p : NAN);
		fprintf(f, ", \"noisy_base\": %zu, \"noisy_other\": %zu", c->noisy_a, c->noisy_b);
		fprintf(f, ", \"state\": \"%s\", \"load_model\": \"%s\"", report_state_name(c->state),
			compare_load_model_name(c->load_model));
		json_load(f, "load_base", &c->load_a);
		json_load(f, "load_other", &c->load_b);
		json_num(f, "raw_pct", "%.4f", c->raw_judged ? c->raw.change_pct : NAN);
		fprintf(f, ", \"pct_kind\": \"%s\"", report_pct_kind(c));
		json_num(f, "raw_ci_low_pct", "%.4f", c->raw_judged ? c->raw.ci_low_pct : NAN);
		json_num(f, "raw_ci_high_pct", "%.4f", c->raw_judged ? c->raw.ci_high_pct : NAN);
		json_num(f, "raw_p", "%.6g", c->raw_judged ? c->raw.p : NAN);
		json_num(f, "slope", "%.6g", c->load_model == LOAD_COVARIATE && c->judged ? c->v.slope : NAN);
		json_num(f, "median_base", "%.4f", c->median_a);
		json_num(f, "median_other", "%.4f", c->median_b);
		fprintf(f, ", \"fragile\": %s", c->fragile ? "true" : "false");
		json_num(f, "mde_adj_pct", "%.4f", c->mde_adj_pct);
		json_num(f, "ratio", "%.6f", c->judged ? 1 + c->v.change_pct / 100 : c->mean_b / c->mean_a);
		json_num(f, "ratio_ci_low", "%.6f", c->judged && c->v.bounded ? 1 + c->v.ci_low_pct / 100 : NAN);
		json_num(f, "ratio_ci_high", "%.6f", c->judged && c->v.bounded ? 1 + c->v.ci_high_pct / 100 : NAN);
		json_num(f, "time_ratio", "%.6f", c->time_ratio);
		json_num(f, "loads_base", "%.6g", c->loads_a);
		json_num(f, "loads_other", "%.6g", c->loads_b);
		json_num(f, "lcpu_pct_base", "%.4f", c->lcpu_a);
		json_num(f, "lcpu_pct_other", "%.4f", c->lcpu_b);
		report_json_stats(f, "stats_base", c, 0);
		report_json_stats(f, "stats_other", c, 1);
		report_json_runs(f, "runs_base", c->runs_a, c->nruns_a);
		report_json_runs(f, "runs_other", c->runs_b, c->nruns_b);
		fputc('}', f);
	}
}

static void json_end(FILE *f, const struct compare_model *m)
{
	fprintf(f, "\n ],\n \"subtests\": [");
	int first = 1;
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		for (size_t k = 0; k <= p->nsubs && p->nsubs; k++) {
			const struct compare_subtest *t = k == 0 ? &p->total : &p->subs[k - 1];
			fputs(first ? "\n  " : ",\n  ", f);
			first = 0;
			json_block(f, m, p);
			fprintf(f, ", \"test\": ");
			textout_json_string(f, k == 0 ? "(all)" : t->name);
			json_num(f, "base_s", "%.6g", t->base_s);
			json_num(f, "delta_s", "%.6g", t->delta_s);
			json_num(f, "share_pct", "%.4f", t->share_pct);
			json_num(f, "p", "%.6g", t->p);
			fprintf(f, ", \"n_base\": %zu, \"n_other\": %zu, \"within_noise\": %s}", t->na, t->nb,
				t->noise ? "true" : "false");
		}
	}
	static const char *const gates[] = {[COMPARE_GATE_PASS] = "pass", [COMPARE_GATE_FAIL] = "fail",
					    [COMPARE_GATE_UNJUDGED] = "cannot vouch"};
	fprintf(f, "\n ],\n \"summaries\": [");
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		char line[512];
		report_panel_line(m, p, line, sizeof(line));
		fputs(i ? ",\n  " : "\n  ", f);
		json_block(f, m, p);
		fprintf(f, ", \"verdict\": \"%s\", \"line\": ", report_verdict_json(p->summary.kind));
		textout_json_string(f, line);
		json_num(f, "mean_change_pct", "%.4f", p->summary.kind == COMPARE_BETTER ? p->summary.better_pct
						       : p->summary.worse ? p->summary.worse_pct : NAN);
		fputc('}', f);
	}
	fprintf(f, "\n ],\n \"regressed\": %s, \"gate\": ", m->regressed ? "true" : "false");
	if (m->gate)
		fprintf(f, "\"%s\"", gates[compare_model_gate(m)]);
	else
		fputs("null", f);
	fprintf(f, ", \"noisy_cells\": %zu, \"exclude_noisy\": %s", m->noisy, m->exclude_noisy ? "true" : "false");
	char why[640];
	report_unjudged_text(m, why, sizeof(why));
	fputs(", \"could_not_judge\": ", f);
	if (why[0])
		textout_json_string(f, why);
	else
		fputs("null", f);
	report_gate_vouch(m, why, sizeof(why));
	fputs(", \"cannot_vouch\": ", f);
	if (m->gate && why[0])
		textout_json_string(f, why);
	else
		fputs("null", f);
	fputs("}\n", f);
}

/* After the panels of the text formats: why a gate could not pass. */
static void text_end(FILE *f, const struct compare_model *m, int markdown)
{
	char unjudged[640], vouch[640];
	report_notes_text(f, m, markdown, COMPARE_COLUMNS); /* the figures come first */
	report_unjudged_text(m, unjudged, sizeof(unjudged));
	report_gate_vouch(m, vouch, sizeof(vouch));
	if (unjudged[0])
		wrapf(f, "  ", "\nCould not judge: %s.", unjudged);
	else if (m->gate && vouch[0])
		wrapf(f, "  ", "\nThe gate cannot vouch: %s.", vouch);
	size_t moved = 0;
	for (size_t i = 0; i < m->npanels; i++)
		moved += m->panels[i].summary.better + m->panels[i].summary.worse;
	if (moved)
		wrapf(f, "  ", "\nWhat moved with it: the same command with --counters lists what else changed "
			       "significantly, the kernel's counters per job and the sampler's shares.");
}

static void table_end(FILE *f, const struct compare_model *m) { text_end(f, m, 0); }
static void markdown_end(FILE *f, const struct compare_model *m) { text_end(f, m, 1); }

const struct compare_format report_compare_formats[] = {
	{"table", "text within 80 columns: the sides, how to read the figures and the warnings, then per "
		  "workload and O_SYNC setting a row per task count (means, n a side, % change with its 95% "
		  "interval, adjusted p, MDE, CPU change), peaks, system shares and the subtests that carry the "
		  "change; more than two sides stack one block per side",
	 table_begin, table_panel, table_end},
	{"markdown", "the same in Markdown, for an issue or a wiki", markdown_begin, markdown_panel, markdown_end},
	{"csv", "one line per task count and side, with every figure of the table", csv_begin, csv_panel, NULL},
	{"json", "the sides, notes, a row per task count and side, every subtest's share, whether "
		 "--fail-above found a regression, the gate's outcome and why it could not judge (JSON even then)",
	 json_begin, json_panel, json_end},
	{NULL, NULL, NULL, NULL, NULL},
};

void report_compare_result(const struct compare_model *m, struct compare_result *res)
{
	res->gate = compare_model_gate(m);
	res->nothing = m->nothing != NOTHING_NO || (m->nsides >= 2 && m->present == 0);
	report_unjudged_text(m, res->why, sizeof(res->why));
	if (!res->why[0])
		report_gate_vouch(m, res->why, sizeof(res->why));
	res->judged = m->unjudged == UNJUDGED_NO;
	report_gate_decision(m, res->decision, sizeof(res->decision));
}

int report_compare(FILE *f, struct store *st, const struct compare_group *groups, size_t n,
		   const struct compare_options *o, struct compare_result *res)
{
	size_t w = 0;
	memset(res, 0, sizeof(*res));
	while (report_compare_formats[w].name && strcmp(report_compare_formats[w].name, o->format ? o->format : "table"))
		w++;
	if (!report_compare_formats[w].name) /* the command line only passes names from the table */
		BUG("compare format '%s' is not in report_compare_formats", o->format ? o->format : "table");
	struct compare_model m;
	if (compare_model_build(st, groups, n, o, &m) < 0) {
		compare_model_free(&m);
		return -1;
	}
	const struct compare_format *fmt = &report_compare_formats[w];
	m.verbose = o->verbose;
	report_compare_result(&m, res);
	if (m.nothing != NOTHING_NO && fmt->begin != json_begin) {
		char nothing[320];
		report_nothing_text(&m, nothing, sizeof(nothing));
		if (fmt->begin == csv_begin)
			csv_begin(f, &m);
		else
			fprintf(f, "%s\n", nothing);
		compare_model_free(&m);
		return 0;
	}
	if (o->wide || o->summary) {
		(o->wide ? report_compare_wide : report_compare_cases)(f, &m, fmt->name);
		compare_model_free(&m);
		return 0;
	}
	fmt->begin(f, &m);
	for (size_t i = 0; i < m.npanels; i++)
		fmt->panel(f, &m, &m.panels[i]);
	if (fmt->end)
		fmt->end(f, &m);
	compare_model_free(&m);
	return 0;
}
