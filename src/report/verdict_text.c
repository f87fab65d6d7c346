/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A panel's verdict in words: the name of what the comparison model concluded, and its one line
 * ("B is 4.3 % ± 1.1 % slower than A (95 %) at 3 of 4 task counts, Holm") that the text, the JSON
 * and the report all print. The conclusion and its numbers are the model's (compare_summary). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

/* "4.3 % ± 1.1 %", or "4.3 % (an unbounded interval)". */
static void strbuf_change(struct strbuf *sb, double pct, double half)
{
	if (isfinite(half))
		strbuf_addf(sb, "%.1f %% \xc2\xb1 %.1f %%", fabs(pct), half);
	else
		strbuf_addf(sb, "%.1f %% (an unbounded interval)", fabs(pct));
}

/* "B" for groups; "B (O_SYNC on)" or "B (variant x)" inside one run. */
static void strbuf_side(struct strbuf *sb, const struct compare_model *m, size_t side)
{
	strbuf_addf(sb, "%s", m->sides[side].letter);
	if (m->kind != COMPARE_GROUPS)
		strbuf_addf(sb, " (%s)", m->sides[side].label);
}

void report_metric_words(const struct compare_model *m, const char **worse, const char **better)
{
	static const char *const timed[] = {"jobs_per_min", "jobs_per_min_task", "real_s"};
	const char *name = m->metric ? m->metric->name : "jobs_per_min";
	int up = !m->metric || m->metric->rise_better;
	for (size_t i = 0; i < ARRAY_SIZE(timed); i++)
		if (strcmp(name, timed[i]) == 0) {
			*worse = "slower", *better = "faster";
			return;
		}
	*worse = up ? "lower" : "higher";
	*better = up ? "higher" : "lower";
}

const char *report_metric_short(const struct compare_model *m)
{
	return !m->metric || strcmp(m->metric->name, "jobs_per_min") == 0 ? "JPM" : m->metric->name;
}

void report_stats_text(const struct compare_model *m, char *buf, size_t len)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < m->nstats; i++)
		strbuf_addf(&sb, "%s%s", i == 0 ? "" : i + 1 == m->nstats ? " and " : ", ",
			    compare_stats[m->stats[i]].words);
	snprintf(buf, len, "%s", sb.buf ? sb.buf : "mean");
	strbuf_free(&sb);
}

void report_json_stats(FILE *f, const char *key, const struct compare_cell *c, int other)
{
	fprintf(f, ", \"%s\": {", key);
	for (int k = 0; k < COMPARE_NSTATS; k++) {
		fprintf(f, "%s\"%s\": ", k ? ", " : "", compare_stats[k].name);
		textout_json_number(f, "%.6g", compare_cell_stat(c, other, k));
	}
	fprintf(f, ", \"n\": %zu}", other ? c->spread_b.n : c->spread_a.n);
}

void report_json_runs(FILE *f, const char *key, const struct compare_run_value *r, size_t n)
{
	fprintf(f, ", \"%s\": [", key);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s{\"run\": %lld, \"label\": ", i ? ", " : "", (long long)r[i].run);
		textout_json_string(f, r[i].label);
		fputs(", \"value\": ", f);
		textout_json_number(f, "%.6g", r[i].value);
		fprintf(f, ", \"points\": %zu}", r[i].points);
	}
	fputc(']', f);
}

void report_json_shown(FILE *f, const struct compare_model *m)
{
	fputs(", \"stats\": [", f);
	for (size_t i = 0; i < m->nstats; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", compare_stats[m->stats[i]].name);
	fprintf(f, "], \"per_run\": %s", m->runs ? "true" : "false");
}

void report_metric_value(const struct compare_model *m, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (!m->metric || strcmp(m->metric->name, "jobs_per_min") == 0 || fabs(v) >= 1000)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

/* A change (of the means, as judged) as the model's views say it: "+8.4%", a ratio B/A, or A/B inverted. */
void report_change_text(const struct compare_model *m, double pct, char *buf, size_t len)
{
	double r = 1 + pct / 100;
	if (!isfinite(pct) || (m->ratio == COMPARE_RATIO_INVERTED && r <= 0))
		snprintf(buf, len, "-");
	else if (m->ratio == COMPARE_RATIO_INVERTED)
		snprintf(buf, len, "%.3f", 1 / r);
	else if (m->ratio)
		snprintf(buf, len, "%.3f", r);
	else
		snprintf(buf, len, "%+.1f%%", pct + 0.0);
}

/* What the verdict sentence cannot vouch for: cells confounded with others' demand (and the demand
 * each side's points saw), cells one sample decides, points measured in noise. */
static void panel_caveats(struct strbuf *sb, const struct compare_model *m, const struct compare_panel *p)
{
	const struct compare_summary *v = &p->summary;
	if (v->confounded && v->kind != COMPARE_CONFOUNDED)
		strbuf_addf(sb, "; at %zu more a change cannot be told apart from the outside load", v->confounded);
	if (v->confounded && v->load_a.n && v->load_b.n) {
		strbuf_addf(sb, " (");
		strbuf_side(sb, m, p->side);
		strbuf_addf(sb, "'s points: others demanded %.0f-%.0f %% of the CPUs, ", v->load_b.min, v->load_b.max);
		strbuf_side(sb, m, 0);
		strbuf_addf(sb, "'s %.0f-%.0f %%)", v->load_a.min, v->load_a.max);
	}
	if (v->fragile)
		strbuf_addf(sb, "; one sample decides %zu of them (more runs a side)", v->fragile);
	if (v->noisy)
		strbuf_addf(sb, "; points measured in noise at %zu of them", v->noisy);
}

void report_panel_line(const struct compare_model *m, const struct compare_panel *p, char *buf, size_t len)
{
	const struct compare_summary *v = &p->summary;
	struct strbuf sb = {0};
	char level[32];
	snprintf(level, sizeof(level), "%g %%", 100 * (1 - m->alpha));
	const char *corr = m->correction == COMPARE_BH ? "Benjamini-Hochberg" : "Holm";
	const char *worse, *better;
	report_metric_words(m, &worse, &better);
	strbuf_side(&sb, m, p->side);
	if (m->unlike.run) { /* runs that measured different mixes get no verdict sentence at all */
		strbuf_addf(&sb, " against ");
		strbuf_side(&sb, m, 0);
		strbuf_addf(&sb, ": not judged, the runs are unlike (see the warning)");
		snprintf(buf, len, "%s", sb.buf);
		strbuf_free(&sb);
		return;
	}
	switch (v->kind) {
	case COMPARE_WORSE:
	case COMPARE_BETTER:
		strbuf_addf(&sb, " is ");
		strbuf_change(&sb, v->kind == COMPARE_WORSE ? v->worse_pct : v->better_pct,
			      v->kind == COMPARE_WORSE ? v->worse_half_pct : v->better_half_pct);
		strbuf_addf(&sb, " %s than ", v->kind == COMPARE_WORSE ? worse : better);
		strbuf_side(&sb, m, 0);
		strbuf_addf(&sb, " (%s) at %zu of %zu task counts, %s", level, v->kind == COMPARE_WORSE ? v->worse : v->better,
			    v->common, corr);
		break;
	case COMPARE_MIXED:
		strbuf_addf(&sb, " is ");
		strbuf_change(&sb, v->worse_pct, v->worse_half_pct);
		strbuf_addf(&sb, " %s than ", worse);
		strbuf_side(&sb, m, 0);
		strbuf_addf(&sb, " at %zu and ", v->worse);
		strbuf_change(&sb, v->better_pct, v->better_half_pct);
		strbuf_addf(&sb, " %s at %zu of %zu task counts (%s), %s", better, v->better, v->common, level, corr);
		break;
	case COMPARE_UNCHANGED:
		strbuf_addf(&sb, " is within the noise of ");
		strbuf_side(&sb, m, 0);
		if (v->judged == v->common)
			strbuf_addf(&sb, " at all %zu task counts", v->common);
		else
			strbuf_addf(&sb, " at the %zu of %zu task counts judged", v->judged, v->common);
		strbuf_addf(&sb, " (%s, %s", level, corr);
		if (isfinite(v->mde_pct))
			strbuf_addf(&sb, "; it could detect about %.1f %%", v->mde_pct);
		strbuf_addf(&sb, ")");
		break;
	case COMPARE_CONFOUNDED:
		strbuf_addf(&sb, " against ");
		strbuf_side(&sb, m, 0);
		strbuf_addf(&sb, ": a change of %+.1f %% at %zu of %zu task counts cannot be told apart from the "
				 "outside load", v->confounded_pct, v->confounded, v->common);
		break;
	case COMPARE_UNJUDGED:
		strbuf_addf(&sb, " against ");
		strbuf_side(&sb, m, 0);
		strbuf_addf(&sb, ": none of the %zu task counts in common can be judged (fewer than 2 samples a side)",
			    v->common);
		break;
	case COMPARE_NVERDICTS: /* a count, never a verdict */
	case COMPARE_NO_DATA:
		strbuf_addf(&sb, " and ");
		strbuf_side(&sb, m, 0);
		strbuf_addf(&sb, " have no task count in common");
		break;
	}
	panel_caveats(&sb, m, p);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_free(&sb);
}

/* "36-54" or "41": a load's range over the samples, in points of the machine. */
static void strbuf_load(struct strbuf *sb, const struct compare_load *l)
{
	if (!l->n)
		strbuf_addf(sb, "-");
	else if (l->max - l->min < 0.5)
		strbuf_addf(sb, "%.0f", l->mean);
	else
		strbuf_addf(sb, "%.0f-%.0f", l->min, l->max);
}


char *report_panel_load_text(const struct compare_model *m, const struct compare_panel *p)
{
	const char *a = m->sides[0].letter, *b = m->sides[p->side].letter;
	struct strbuf sb = {0}, adj = {0};
	enum compare_load_model how = LOAD_UNMEASURED;
	for (size_t i = 0; i < p->ncells; i++) {
		const struct compare_cell *c = &p->cells[i];
		if (!c->present || !c->load_a.n || !c->load_b.n)
			continue;
		strbuf_addf(&sb, "%s %d: ", sb.len ? "," : "", c->tasks);
		strbuf_load(&sb, &c->load_a);
		strbuf_addf(&sb, " -> ");
		strbuf_load(&sb, &c->load_b);
		how = c->load_model > how ? c->load_model : how;
		if (c->load_model == LOAD_COVARIATE && c->judged && c->raw_judged)
			strbuf_addf(&adj, "%s %d tasks %+.1f%% adjusted, %+.1f%% raw", adj.len ? ";" : "", c->tasks,
				    c->v.change_pct, c->raw.change_pct);
	}
	struct strbuf line = {0};
	if (sb.len) {
		strbuf_addf(&line, "Outside load, %s -> %s (others' demand: their runnable threads, %% of the CPUs, "
				   "while the run was idle, over the samples, per task count):%s. ", a, b, sb.buf);
		switch (how) {
		case LOAD_BALANCED:
			strbuf_addf(&line, m->blocked ? "The kernels ran side by side on the lab's devices, rotated turn by turn: "
							"pairing by device cancels a load they share."
						      : "The sides ran interleaved round by round: pairing cancels a load that drifts.");
			break;
		case LOAD_SIMILAR:
			strbuf_addf(&line, "Within %g points a side: not adjusted.", COMPARE_LOAD_SIMILAR_PCT);
			break;
		case LOAD_COVARIATE:
		case LOAD_INSEPARABLE:
			strbuf_addf(&line, "The sides' loads differ. ");
			if (adj.len)
				strbuf_addf(&line, "The change adjusted for the load (the same share a point of load both sides):%s. ", adj.buf);
			if (how == LOAD_INSEPARABLE)
				strbuf_addf(&line, "Where the load hardly varied within a side it cannot be told apart "
						   "from the side: a change the load would make is called confounded (#).");
			if (p->summary.confounded)
				strbuf_addf(&line, " To separate them, run the sides %s beside the same neighbours.",
					    m->kind == COMPARE_GROUPS ? "in turn (the command below)" : "interleaved within one run");
			break;
		case LOAD_UNMEASURED: break;
		}
	}
	strbuf_free(&sb);
	strbuf_free(&adj);
	return line.buf;
}


char *report_panel_few_text(const struct compare_model *m, const struct compare_panel *p, const char *medians_word)
{
	const char *b = m->sides[p->side].letter;
	struct strbuf fragile = {0}, medians = {0};
	for (size_t i = 0; i < p->ncells; i++) {
		const struct compare_cell *c = &p->cells[i];
		if (!c->present)
			continue;
		if (c->fragile)
			strbuf_addf(&fragile, "%s%d", fragile.len ? ", " : "", c->tasks);
		double by_median = c->median_a > 0 ? 100 * (c->median_b / c->median_a - 1) : NAN;
		double by_mean = 100 * (c->mean_b / c->mean_a - 1);
		if (c->na > 2 && c->nb > 2 && isfinite(by_median) && (by_median > 0) != (by_mean > 0))
			strbuf_addf(&medians, "%s %d tasks %+.1f%% (by means %+.1f%%)", medians.len ? "," : "", c->tasks,
				    by_median, by_mean);
	}
	struct strbuf line = {0};
	if (fragile.len)
		strbuf_addf(&line, "One sample decides the sign or significance of the change at %s tasks (left out in "
				   "turn, one flips it): more runs a side.", fragile.buf);
	if (medians.len)
		strbuf_addf(&line, "%s%s %s moved the other way:%s.", line.len ? " " : "", medians_word, b, medians.buf);
	strbuf_free(&fragile);
	strbuf_free(&medians);
	return line.buf;
}

const char *report_judged_cells(size_t n, const char *how, char *buf, size_t len)
{
	if (n == 0)
		snprintf(buf, len, "no cell (none could be judged)");
	else
		snprintf(buf, len, "the %zu cell%s %s", n, n == 1 ? "" : "s", how);
	return buf;
}

void report_csv_side(FILE *f, const struct compare_side *s)
{
	fprintf(f, ",%s,", s->letter);
	textout_csv_string(f, s->label, 1);
	fputs(",\"", f);
	for (size_t i = 0; i < s->nruns; i++)
		fprintf(f, "%s%lld", i ? " " : "", (long long)s->runs[i]);
	fputc('"', f);
}

const char *report_pct_kind(const struct compare_cell *c)
{
	return c->judged && c->load_model == LOAD_COVARIATE ? "adjusted" : "plain";
}

double report_cell_pct(const struct compare_cell *c)
{
	return c->judged ? c->v.change_pct : 100.0 * (c->mean_b / c->mean_a - 1);
}

char *report_panel_separate_command(const struct compare_model *m, const struct compare_panel *p)
{
	const struct compare_side *a = &m->sides[0], *b = &m->sides[p->side];
	if (!p->summary.confounded || m->kind != COMPARE_GROUPS || !a->nruns || !b->nruns)
		return NULL;
	struct strbuf sb = {0};
	strbuf_addf(&sb, "for i in 1 2 3; do\n\treaim rerun %lld --label ", (long long)a->runs[a->nruns - 1]);
	strbuf_add_shell_word(&sb, a->label);
	strbuf_addf(&sb, "\n\treaim rerun %lld --label ", (long long)b->runs[b->nruns - 1]);
	strbuf_add_shell_word(&sb, b->label);
	strbuf_addf(&sb, "\ndone");
	return sb.buf;
}
