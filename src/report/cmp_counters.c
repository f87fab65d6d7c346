/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim compare --counters` written out: the counters that moved with Jobs/Min (analysis/cmpcounters.c)
 * as text, Markdown, CSV or JSON. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpcounters.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

static const char *side_of(const struct compare_model *m, const struct counter_change *c)
{
	static char buf[8];
	snprintf(buf, sizeof(buf), "%s", m->sides[m->panels[c->panel].side].letter);
	return buf;
}

/* "compute, O_SYNC on, 4 tasks: B against A, Jobs/Min -12.3%". */
static void cell_title(FILE *f, const struct compare_model *m, const struct counter_change *c, const char *prefix)
{
	const struct compare_panel *p = &m->panels[c->panel];
	char name[160];
	text_copy(name, sizeof(name), p->workload);
	fprintf(f, "\n%sWorkload %s", prefix, name);
	if (p->osync >= 0)
		fprintf(f, ", O_SYNC %s", p->osync ? "on" : "off");
	if (p->variant[0]) {
		text_copy(name, sizeof(name), p->variant);
		fprintf(f, ", variant %s", name);
	}
	fprintf(f, ", %d tasks: %s against %s, Jobs/Min ", c->tasks, m->sides[p->side].letter, m->sides[0].letter);
	if (isfinite(c->jpm_change_pct))
		fprintf(f, "%+.1f%%\n", c->jpm_change_pct);
	else
		fputs("change unknown\n", f);
}

static int same_cell(const struct counter_change *a, const struct counter_change *b)
{
	return a->panel == b->panel && a->tasks == b->tasks;
}

static void fmt_bounds(char *buf, size_t len, const struct verdict *v)
{
	if (v->bounded && isfinite(v->ci_low_pct) && isfinite(v->ci_high_pct))
		snprintf(buf, len, "[%+.1f%%, %+.1f%%]", v->ci_low_pct, v->ci_high_pct);
	else
		snprintf(buf, len, "[unbounded]");
}

static void legend(FILE *f, const struct compare_model *m, const struct counter_model *cm, int markdown)
{
	char *t = xasprintf("Counters that moved with Jobs/Min, per job (each point's change over its measured window "
		   "divided by its tasks x jobs per task), and the shares (the sampler's of the machine, the point "
		   "cgroup's pressure) as they are. %s on the same samples as Jobs/Min; p adjusted by %s's "
		   "method over the %zu counter test%s of %zu cell%s with counters on both sides; listed when "
		   "below %g: first those that move against Jobs/Min (more per job where it fell, less where it "
		   "rose), then the others, each by the size of its change. ~: a perf counter multiplexed and "
		   "scaled at a point compared.",
		m->kind == COMPARE_GROUPS ? "Welch's t test" : "A paired t test",
		compare_correction_name(m->correction), cm->tested, cm->tested == 1 ? "" : "s",
		cm->cells_with_counters, cm->cells_with_counters == 1 ? "" : "s", m->alpha);
	report_wrap(f, t, "", markdown ? 0 : 80);
	free(t);
}

static void text(FILE *f, const struct compare_model *m, const struct counter_model *cm, int markdown)
{
	legend(f, m, cm, markdown);
	if (!cm->cells_with_counters)
		fprintf(f, "\nNo cell compared has counters on both sides (runs made with --counters off, or by a "
			   "reaim that stored none)%s.\n", cm->nmoved ? "; the sampler's and the tasks' figures below" : "");
	else if (!cm->nmoved)
		fprintf(f, "\nNo counter moved significantly.\n");
	for (size_t i = 0; i < cm->nmoved; i++) {
		const struct counter_change *c = &cm->moved[i];
		if (i == 0 || !same_cell(c, &cm->moved[i - 1])) {
			cell_title(f, m, c, markdown ? "### " : "");
			if (markdown)
				fprintf(f, "\n| counter | unit | %s (base) | %s | change | %g%% interval | p adj | |\n"
					   "|---|---|--:|--:|--:|---|--:|---|\n",
					m->sides[0].letter, m->sides[m->panels[c->panel].side].letter, 100 * (1 - m->alpha));
			else
				fprintf(f, "  counter, unit\n      %s (base) -> %s, change [%g%% interval], p adj\n",
					m->sides[0].letter, m->sides[m->panels[c->panel].side].letter, 100 * (1 - m->alpha));
		}
		char counter[160], bounds[48];
		char safe[sizeof(c->name)];
		text_copy(safe, sizeof(safe), c->name);
		snprintf(counter, sizeof(counter), "%s %s%s", c->source, safe, c->scaled ? " ~" : "");
		char unit[sizeof(c->unit) + 8];
		snprintf(unit, sizeof(unit), "%s%s", c->unit, c->per_job ? " per job" : "");
		fmt_bounds(bounds, sizeof(bounds), &c->v);
		if (markdown)
			fprintf(f, "| %s | %s | %.4g | %.4g | %+.1f%% | %s | %.2g | %s |\n", counter, unit, c->v.mean_a,
				c->v.mean_b, c->v.change_pct, bounds, c->p_adj, c->explains ? "against Jobs/Min" : "");
		else
			fprintf(f, "%c %.60s, %s\n      %.4g -> %.4g, %+.1f%% %s, p adj %.2g\n",
				c->explains ? '>' : ' ', counter, unit, c->v.mean_a, c->v.mean_b, c->v.change_pct, bounds,
				c->p_adj);
	}
	if (!markdown && cm->nmoved)
		fprintf(f, "\n>: moves against Jobs/Min.\n");
}

static void csv(FILE *f, const struct compare_model *m, const struct counter_model *cm)
{
	fputs("workload,osync,variant,side,tasks,jobs_per_min_change_pct,source,name,unit,mean_base_per_job,"
	      "mean_other_per_job,change_pct,ci_low_pct,ci_high_pct,p,p_adj,against_jobs_per_min,scaled,per_job\n", f);
	for (size_t i = 0; i < cm->nmoved; i++) {
		const struct counter_change *c = &cm->moved[i];
		const struct compare_panel *p = &m->panels[c->panel];
		textout_csv_string(f, p->workload, 1);
		fprintf(f, ",%s,", p->osync < 0 ? "" : p->osync ? "on" : "off");
		textout_csv_string(f, p->variant, 1);
		fprintf(f, ",%s,%d,", side_of(m, c), c->tasks);
		textout_csv_number(f, "%.6g", c->jpm_change_pct);
		fputc(',', f);
		textout_csv_string(f, c->source, 1);
		fputc(',', f);
		textout_csv_string(f, c->name, 1);
		fputc(',', f);
		textout_csv_string(f, c->unit, 1);
		const double v[] = {c->v.mean_a, c->v.mean_b, c->v.change_pct, c->v.ci_low_pct, c->v.ci_high_pct,
				    c->v.p, c->p_adj};
		for (size_t k = 0; k < ARRAY_SIZE(v); k++) {
			fputc(',', f);
			textout_csv_number(f, "%.6g", v[k]);
		}
		fprintf(f, ",%d,%d,%d\n", c->explains, c->scaled, c->per_job);
	}
}

static void json_number(FILE *f, const char *key, double v)
{
	fprintf(f, ", \"%s\": ", key);
	textout_json_number(f, "%.6g", v);
}

static void json(FILE *f, const struct compare_model *m, const struct counter_model *cm)
{
	fprintf(f, "{\"format_version\": 1, \"kind\": \"%s\", \"alpha\": %g, \"correction\": \"%s\", "
		   "\"counters_tested\": %zu, \"cells_with_counters\": %zu,\n \"sides\": [",
		compare_kind_name(m->kind), m->alpha, compare_correction_names[m->correction], cm->tested,
		cm->cells_with_counters);
	for (size_t s = 0; s < m->nsides; s++) {
		fprintf(f, "%s{\"side\": \"%s\", \"label\": ", s ? ", " : "", m->sides[s].letter);
		textout_json_string(f, m->sides[s].label);
		fputc('}', f);
	}
	fputs("],\n \"moved\": [", f);
	for (size_t i = 0; i < cm->nmoved; i++) {
		const struct counter_change *c = &cm->moved[i];
		const struct compare_panel *p = &m->panels[c->panel];
		fprintf(f, "%s\n  {\"workload\": ", i ? "," : "");
		textout_json_string(f, p->workload);
		fputs(", \"osync\": ", f);
		if (p->osync >= 0)
			fprintf(f, "%d", p->osync);
		else
			fputs("null", f);
		fputs(", \"variant\": ", f);
		textout_json_string(f, p->variant);
		fprintf(f, ", \"side\": \"%s\", \"tasks\": %d", side_of(m, c), c->tasks);
		json_number(f, "jobs_per_min_change_pct", c->jpm_change_pct);
		fputs(", \"source\": ", f);
		textout_json_string(f, c->source);
		fputs(", \"name\": ", f);
		textout_json_string(f, c->name);
		fputs(", \"unit\": ", f);
		textout_json_string(f, c->unit);
		fprintf(f, ", \"per_job\": %s, \"n_base\": %zu, \"n_other\": %zu", c->per_job ? "true" : "false", c->v.na,
			c->v.nb);
		json_number(f, "mean_base_per_job", c->v.mean_a);
		json_number(f, "mean_other_per_job", c->v.mean_b);
		json_number(f, "change_pct", c->v.change_pct);
		json_number(f, "ci_low_pct", c->v.bounded ? c->v.ci_low_pct : NAN);
		json_number(f, "ci_high_pct", c->v.bounded ? c->v.ci_high_pct : NAN);
		json_number(f, "p", c->v.p);
		json_number(f, "p_adj", c->p_adj);
		fprintf(f, ", \"against_jobs_per_min\": %s, \"scaled\": %s}", c->explains ? "true" : "false",
			c->scaled ? "true" : "false");
	}
	fputs("\n ]}\n", f);
}

int report_compare_counters(FILE *f, struct store *st, const struct compare_group *groups, size_t n,
			    const struct compare_options *o)
{
	const char *format = o->format ? o->format : "table";
	size_t w = 0;
	while (report_compare_formats[w].name && strcmp(report_compare_formats[w].name, format) != 0)
		w++;
	if (!report_compare_formats[w].name) { /* the command line only passes names from the table */
		errno = EINVAL;
		return -1;
	}
	struct compare_model m;
	struct counter_model cm = {0};
	int rc = compare_model_build(st, groups, n, o, &m);
	if (rc == 0 && m.nothing[0])
		fprintf(f, "%s\n", m.nothing);
	else if (rc == 0 && (rc = counter_model_build(st, &m, &cm)) == 0) {
		if (strcmp(format, "json") == 0)
			json(f, &m, &cm);
		else if (strcmp(format, "csv") == 0)
			csv(f, &m, &cm);
		else
			text(f, &m, &cm, strcmp(format, "markdown") == 0);
	}
	counter_model_free(&cm);
	compare_model_free(&m);
	return rc;
}
