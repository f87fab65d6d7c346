/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim compare --counters` written out: per cell what each side's machine was like, and the counters
 * that moved with Jobs/Min (analysis/cmpcounters.c) as text, Markdown, CSV or JSON. */
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

void report_counter_side(char *buf, size_t len, const struct counter_side *s)
{
	size_t at = 0;
#define ADD(...) (at += (size_t)snprintf(buf + at, at < len ? len - at : 0, __VA_ARGS__))
	buf[0] = '\0';
	if (s->load.n)
		ADD("outside load %.0f-%.0f %% (mean %.0f %%)", s->load.min, s->load.max, s->load.mean);
	else
		ADD("outside load not measured");
	if (isfinite(s->cpu_pressure_pct))
		ADD(", CPU pressure %.0f %%", s->cpu_pressure_pct);
	else
		ADD(", CPU pressure not measured");
	if (isfinite(s->nr_throttled) && isfinite(s->throttled_s))
		ADD(", throttled %.3g s in %.0f periods a point", s->throttled_s, s->nr_throttled);
	else
		ADD(", throttling not stored");
#undef ADD
}

void report_counter_n(char *buf, size_t len, double n)
{
	if (isnan(n))
		snprintf(buf, len, "-");
	else if (isinf(n))
		snprintf(buf, len, ">%d", COUNTER_SAMPLES_MAX);
	else
		snprintf(buf, len, "%.0f", n);
}

/* "compute, O_SYNC on, 4 tasks: B against A, Jobs/Min -12.3%". */
static void cell_title(FILE *f, const struct compare_model *m, const struct counter_cell *c, const char *prefix)
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

/* The change in words: "+915.3% [+862.7%, +973.9%]", "+4250 [+4100, +4400] from 0", "+12.5% exactly". */
static void fmt_change(char *buf, size_t len, const struct counter_change *c)
{
	const struct verdict *v = &c->v;
	if (c->kind == COUNTER_CONSTANT) {
		if (c->absolute)
			snprintf(buf, len, "%+.4g from 0, exactly (constant)", v->diff);
		else
			snprintf(buf, len, "%+.1f%%, exactly (constant)", v->change_pct);
	} else if (c->absolute) {
		snprintf(buf, len, "%+.4g [%+.4g, %+.4g] from 0", v->diff, v->diff_low, v->diff_high);
	} else if (v->bounded && isfinite(v->ci_low_pct) && isfinite(v->ci_high_pct)) {
		snprintf(buf, len, "%+.1f%% [%+.1f%%, %+.1f%%]", v->change_pct, v->ci_low_pct, v->ci_high_pct);
	} else {
		snprintf(buf, len, "%+.1f%% [unbounded]", v->change_pct);
	}
}

static void legend(FILE *f, const struct compare_model *m, const struct counter_model *cm, int markdown)
{
	char *t = xasprintf("Counters that moved with Jobs/Min, per job (each point's change over its measured window "
		   "divided by its tasks x jobs per task), and the shares (the sampler's of the machine, the point "
		   "cgroup's pressure) as they are, on the samples of Jobs/Min. %s; p adjusted by %s's "
		   "method over the %zu counter test%s of %zu cell%s with counters on both sides, and the machine's "
		   "figures (the CPU throttling of reaim's cgroup and its parents, the CPU pressure, the outside "
		   "load and steal: the causes every comparison asks about) over their own %zu; listed when "
		   "below %g: first those that move against Jobs/Min (more per job where it fell, less where it "
		   "rose), then the others, each by the size of its change (from a base of 0: the change per job, "
		   "before any %%). n: the samples a side at which the change would be shown at its family's "
		   "level (%g over its tests), from the spread seen. Constant: no variance on either side (or in the "
		   "pairs' differences): the difference is exact, not tested. ~: a perf counter multiplexed and "
		   "scaled at a point compared. Each cell first says what each side's points saw: the outside "
		   "load, the point cgroup's CPU pressure and the CPU throttling of reaim's cgroup and its parents.",
		m->kind == COMPARE_GROUPS && !m->blocked ? "Welch's t test" : "A paired t test",
		compare_correction_name(m->correction), cm->tested, cm->tested == 1 ? "" : "s",
		cm->cells_with_counters, cm->cells_with_counters == 1 ? "" : "s", cm->tested_machine, m->alpha,
		m->alpha);
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
	size_t at = 0;
	for (size_t ci = 0; ci < cm->ncells; ci++) {
		const struct counter_cell *cell = &cm->cells[ci];
		const char *a = m->sides[0].letter, *b = m->sides[m->panels[cell->panel].side].letter;
		cell_title(f, m, cell, markdown ? "### " : "");
		char ctx[320], *line;
		const struct counter_side *sides[] = {&cell->a, &cell->b};
		for (size_t s = 0; s < 2; s++) {
			report_counter_side(ctx, sizeof(ctx), sides[s]);
			line = xasprintf("%s: %s", s ? b : a, ctx);
			fputs(markdown ? "- " : "  ", f);
			report_wrap(f, line, "     ", markdown ? 0 : 78);
			free(line);
		}
		if (!cell->nmoved) {
			fputs(markdown ? "\nNo counter moved here.\n" : "  No counter moved here.\n", f);
			continue;
		}
		if (markdown)
			fprintf(f, "\n| counter | unit | %s (base) | %s | change [%g%% interval] | p | p adj | n | |\n"
				   "|---|---|--:|--:|---|--:|--:|--:|---|\n", a, b, 100 * (1 - m->alpha));
		else
			fprintf(f, "  counter, unit\n      %s (base) -> %s, change [%g%% interval], p, p adj, n\n", a, b,
				100 * (1 - m->alpha));
		for (size_t k = 0; k < cell->nmoved && at < cm->nmoved; k++, at++) {
			const struct counter_change *c = &cm->moved[at];
			char counter[160], change[96], n[16];
			char safe[sizeof(c->name)];
			text_copy(safe, sizeof(safe), c->name);
			snprintf(counter, sizeof(counter), "%s %s%s", c->source, safe, c->scaled ? " ~" : "");
			char unit[sizeof(c->unit) + 8];
			snprintf(unit, sizeof(unit), "%s%s", c->unit, c->per_job ? " per job" : "");
			fmt_change(change, sizeof(change), c);
			report_counter_n(n, sizeof(n), c->n_to_show);
			if (markdown) {
				fprintf(f, "| %s | %s | %.4g | %.4g | %s | ", counter, unit, c->v.mean_a, c->v.mean_b, change);
				if (c->kind == COUNTER_TESTED)
					fprintf(f, "%.2g | %.2g | %s |", c->v.p, c->p_adj, n);
				else
					fputs("- | - | - |", f);
				fprintf(f, " %s |\n", c->explains ? "against Jobs/Min" : "");
			} else {
				fprintf(f, "%c %.60s, %s\n      %.4g -> %.4g, %s", c->explains ? '>' : ' ', counter, unit,
					c->v.mean_a, c->v.mean_b, change);
				if (c->kind == COUNTER_TESTED)
					fprintf(f, ",\n      p %.2g, p adj %.2g, n %s", c->v.p, c->p_adj, n);
				fputc('\n', f);
			}
		}
	}
	if (!markdown && cm->nmoved)
		fprintf(f, "\n>: moves against Jobs/Min.\n");
}

static void csv_side(FILE *f, const struct counter_side *a, const struct counter_side *b)
{
	const double v[] = {a->load.n ? a->load.mean : NAN, b->load.n ? b->load.mean : NAN, a->cpu_pressure_pct,
			    b->cpu_pressure_pct, a->nr_throttled, b->nr_throttled, a->throttled_s, b->throttled_s};
	for (size_t k = 0; k < ARRAY_SIZE(v); k++) {
		fputc(',', f);
		textout_csv_number(f, "%.6g", v[k]);
	}
}

static void csv(FILE *f, const struct compare_model *m, const struct counter_model *cm)
{
	fputs("workload,osync,variant,side,tasks,jobs_per_min_change_pct,source,name,unit,mean_base_per_job,"
	      "mean_other_per_job,change_pct,ci_low_pct,ci_high_pct,p,p_adj,against_jobs_per_min,scaled,per_job,"
	      "judged,absolute,diff,diff_low,diff_high,n_to_show,machine,load_base_pct,load_other_pct,"
	      "cpu_pressure_base_pct,cpu_pressure_other_pct,nr_throttled_base,nr_throttled_other,"
	      "throttled_s_base,throttled_s_other\n", f);
	size_t at = 0;
	for (size_t ci = 0; ci < cm->ncells; ci++) {
		const struct counter_cell *cell = &cm->cells[ci];
		const struct compare_panel *p = &m->panels[cell->panel];
		/* a row per moved counter; a cell where none moved still has one, for its sides' machine */
		for (size_t k = 0; k < (cell->nmoved ? cell->nmoved : 1); k++) {
			const struct counter_change *c = cell->nmoved && at < cm->nmoved ? &cm->moved[at++] : NULL;
			textout_csv_string(f, p->workload, 1);
			fprintf(f, ",%s,", p->osync < 0 ? "" : p->osync ? "on" : "off");
			textout_csv_string(f, p->variant, 1);
			fprintf(f, ",%s,%d,", m->sides[p->side].letter, cell->tasks);
			textout_csv_number(f, "%.6g", cell->jpm_change_pct);
			if (!c) {
				fputs(",,,,,,,,,,,,,,,,,,,,", f);
				csv_side(f, &cell->a, &cell->b);
				fputc('\n', f);
				continue;
			}
			fputc(',', f);
			textout_csv_string(f, c->source, 1);
			fputc(',', f);
			textout_csv_string(f, c->name, 1);
			fputc(',', f);
			textout_csv_string(f, c->unit, 1);
			int tested = c->kind == COUNTER_TESTED;
			const double v[] = {c->v.mean_a, c->v.mean_b, c->v.change_pct, tested ? c->v.ci_low_pct : NAN,
					    tested ? c->v.ci_high_pct : NAN, tested ? c->v.p : NAN, c->p_adj};
			for (size_t k2 = 0; k2 < ARRAY_SIZE(v); k2++) {
				fputc(',', f);
				textout_csv_number(f, "%.6g", v[k2]);
			}
			fprintf(f, ",%d,%d,%d,%s,%d", c->explains, c->scaled, c->per_job, tested ? "tested" : "constant",
				c->absolute);
			const double d[] = {c->v.diff, c->v.diff_low, c->v.diff_high};
			for (size_t k2 = 0; k2 < ARRAY_SIZE(d); k2++) {
				fputc(',', f);
				textout_csv_number(f, "%.6g", d[k2]);
			}
			char n[16];
			report_counter_n(n, sizeof(n), c->n_to_show);
			fprintf(f, ",%s,%d", strcmp(n, "-") ? n : "", c->machine);
			csv_side(f, &cell->a, &cell->b);
			fputc('\n', f);
		}
	}
}

static void json_number(FILE *f, const char *key, double v)
{
	fprintf(f, ", \"%s\": ", key);
	textout_json_number(f, "%.6g", v);
}

static void json_side(FILE *f, const char *key, const struct counter_side *s)
{
	fprintf(f, ", \"%s\": {\"load_n\": %zu", key, s->load.n);
	json_number(f, "load_mean_pct", s->load.n ? s->load.mean : NAN);
	json_number(f, "load_min_pct", s->load.n ? s->load.min : NAN);
	json_number(f, "load_max_pct", s->load.n ? s->load.max : NAN);
	json_number(f, "cpu_pressure_pct", s->cpu_pressure_pct);
	json_number(f, "nr_throttled", s->nr_throttled);
	json_number(f, "throttled_s", s->throttled_s);
	fputc('}', f);
}

static void json_block(FILE *f, const struct compare_model *m, size_t panel, int tasks)
{
	const struct compare_panel *p = &m->panels[panel];
	fputs("{\"workload\": ", f);
	textout_json_string(f, p->workload);
	fputs(", \"osync\": ", f);
	if (p->osync >= 0)
		fprintf(f, "%d", p->osync);
	else
		fputs("null", f);
	fputs(", \"variant\": ", f);
	textout_json_string(f, p->variant);
	fprintf(f, ", \"side\": \"%s\", \"tasks\": %d", m->sides[p->side].letter, tasks);
}

static void json(FILE *f, const struct compare_model *m, const struct counter_model *cm)
{
	fprintf(f, "{\"format_version\": 2, \"kind\": \"%s\", \"alpha\": %g, \"correction\": \"%s\", "
		   "\"counters_tested\": %zu, \"machine_tested\": %zu, \"cells_with_counters\": %zu, "
		   "\"n_to_show_max\": %d,\n \"sides\": [",
		compare_kind_name(m->kind), m->alpha, compare_correction_names[m->correction], cm->tested,
		cm->tested_machine, cm->cells_with_counters, COUNTER_SAMPLES_MAX);
	for (size_t s = 0; s < m->nsides; s++) {
		fprintf(f, "%s{\"side\": \"%s\", \"label\": ", s ? ", " : "", m->sides[s].letter);
		textout_json_string(f, m->sides[s].label);
		fputc('}', f);
	}
	fputs("],\n \"cells\": [", f);
	for (size_t i = 0; i < cm->ncells; i++) {
		const struct counter_cell *c = &cm->cells[i];
		fputs(i ? ",\n  " : "\n  ", f);
		json_block(f, m, c->panel, c->tasks);
		json_number(f, "jobs_per_min_change_pct", c->jpm_change_pct);
		fprintf(f, ", \"n_base\": %zu, \"n_other\": %zu, \"with_counters\": %s, \"moved\": %zu", c->na, c->nb,
			c->with_counters ? "true" : "false", c->nmoved);
		json_side(f, "base", &c->a);
		json_side(f, "other", &c->b);
		fputc('}', f);
	}
	fputs("\n ],\n \"moved\": [", f);
	for (size_t i = 0; i < cm->nmoved; i++) {
		const struct counter_change *c = &cm->moved[i];
		int tested = c->kind == COUNTER_TESTED;
		fputs(i ? ",\n  " : "\n  ", f);
		json_block(f, m, c->panel, c->tasks);
		json_number(f, "jobs_per_min_change_pct", c->jpm_change_pct);
		fputs(", \"source\": ", f);
		textout_json_string(f, c->source);
		fputs(", \"name\": ", f);
		textout_json_string(f, c->name);
		fputs(", \"unit\": ", f);
		textout_json_string(f, c->unit);
		fprintf(f, ", \"per_job\": %s, \"judged\": \"%s\", \"machine\": %s, \"absolute\": %s, \"n_base\": %zu, "
			   "\"n_other\": %zu",
			c->per_job ? "true" : "false", tested ? "tested" : "constant", c->machine ? "true" : "false",
			c->absolute ? "true" : "false", c->v.na, c->v.nb);
		json_number(f, "mean_base_per_job", c->v.mean_a);
		json_number(f, "mean_other_per_job", c->v.mean_b);
		json_number(f, "diff", c->v.diff);
		json_number(f, "diff_low", tested ? c->v.diff_low : NAN);
		json_number(f, "diff_high", tested ? c->v.diff_high : NAN);
		json_number(f, "change_pct", c->v.change_pct);
		json_number(f, "ci_low_pct", tested && c->v.bounded ? c->v.ci_low_pct : NAN);
		json_number(f, "ci_high_pct", tested && c->v.bounded ? c->v.ci_high_pct : NAN);
		json_number(f, "p", tested ? c->v.p : NAN);
		json_number(f, "p_adj", c->p_adj);
		json_number(f, "n_to_show", c->n_to_show);
		fprintf(f, ", \"n_to_show_beyond_max\": %s, \"against_jobs_per_min\": %s, \"scaled\": %s}",
			isinf(c->n_to_show) ? "true" : "false", c->explains ? "true" : "false", c->scaled ? "true" : "false");
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
	if (!report_compare_formats[w].name) /* the command line only passes names from the table */
		BUG("compare format '%s' is not in report_compare_formats", format);
	struct compare_model m;
	struct counter_model cm = {0};
	int rc = compare_model_build(st, groups, n, o, &m);
	char nothing[320] = "";
	if (rc == 0)
		report_nothing_text(&m, nothing, sizeof(nothing));
	if (rc == 0 && nothing[0])
		fprintf(f, "%s\n", nothing);
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
