/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim report`: one self-contained HTML page (inline CSS and SVG, nothing fetched, no script) that a
 * developer attaches to a mail or a bug: the comparison model's verdicts first, the counters that moved
 * with them, then per workload the plot, the model's tables, the system figures and subtests behind a
 * change, then the environment and how each run was made. Every judgement on the page is the model's
 * (analysis/cmpmodel.h, analysis/cmpcounters.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpcounters.h"
#include "analysis/kconfig.h"
#include "config/cfg.h"
#include "report/html.h"
#include "report/textout.h"
#include "report/plot.h"
#include "report/report.h"
#include "util/util.h"

#define SUBTESTS_SHOWN 10

/* Everything the page says about one run, read once. */
struct run_data {
	int64_t id;
	const char *side;         /* the letter of its side in the model; NULL: none */
	struct store_run_row row;
	struct store_run_info info;
	struct curve *curves;
	size_t ncurves;
	struct store_point *pts;
	size_t npts;
	char **env;               /* "key\tvalue", in key order */
	size_t nenv;
	char *kernel_config;      /* the config text stored with the run, or NULL */
	struct store_option *opts; /* every stored option of each workload, by workload, key and item */
	size_t nopts;
};

static const char style[] =
	"body{font-family:sans-serif;color:#222;max-width:1180px;margin:24px auto;padding:0 16px;line-height:1.4}"
	"h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.25em;border-bottom:2px solid #ddd;margin-top:2em}"
	"h3{font-size:1.05em;margin-top:1.4em}"
	"table{border-collapse:collapse;margin:.4em 0 1em;font-size:.9em}"
	"th,td{border:1px solid #d8d8d8;padding:3px 8px;text-align:right;vertical-align:top}"
	"th{background:#f2f2f2}.l{text-align:left}"
	".badge{display:inline-block;padding:1px 9px;border-radius:9px;font-weight:bold;color:#fff;white-space:nowrap}"
	".worse{background:#b03a2e}.better{background:#1e7e45}.unchanged{background:#6c7a7d}"
	".mixed{background:#a5690c}.unjudged,.nodata{background:#9aa0a3}.confounded{background:#7a5c99}"
	"td.up{color:#1e7e45;font-weight:bold}td.down{color:#b03a2e;font-weight:bold}"
	".moved{background:#fff1c2}tr.differs td{background:#fff1c2}"
	".note{color:#555;font-size:.9em}small{color:#666}"
	/* a note's level (report_note_level_style): a warning reads as one, a caution as a caution */
	"li.warning{color:#b03a2e;font-weight:bold}li.caution{color:#8a5a0b}li.info{color:#555}"
	"figure{margin:.5em 0}figure svg{max-width:100%;height:auto;border:1px solid #eee}"
	"pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:.85em}code{font-size:.9em}"
	"dl{display:grid;grid-template-columns:max-content auto;gap:2px 14px}dt{font-weight:bold}dd{margin:0}";

void html_text(FILE *f, const char *s, int keep_lines)
{
	textout_xml(f, s, SIZE_MAX, keep_lines);
}

/* <tag attrs>text</tag> with the text escaped. */
static void element(FILE *f, const char *open, const char *text, const char *close)
{
	fputs(open, f);
	html_text(f, text, 0);
	fputs(close, f);
}

static void run_data_free(struct run_data *r)
{
	store_run_info_free(&r->info);
	if (r->curves)
		curves_free(r->curves, r->ncurves);
	free(r->pts);
	for (size_t i = 0; i < r->nenv; i++)
		free(r->env[i]);
	free(r->env);
	free(r->kernel_config);
	store_options_free(r->opts, r->nopts);
}

/* A run stored before its workloads kept every option (schema version 4): the options its workloads'
 * own columns kept, as the page has always named them, so the page shows every run one way. */
static void options_of_columns(struct store *st, int64_t id, struct store_option **out, size_t *n)
{
	static const char *const shown[] = {"workfile",	 "tasks",    "jobs_per_task", "repeat", "osync",
					    "sync_mode", "filesize", "poolsize",      "dirs",	"seed"};
	if (store_get_column_options(st, id, out, n) < 0) {
		*out = NULL;
		*n = 0;
	}
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++) {
		int show = 0;
		for (size_t k = 0; k < ARRAY_SIZE(shown) && !show; k++)
			show = strcmp((*out)[i].key, shown[k]) == 0;
		if (show)
			(*out)[kept++] = (*out)[i];
		else
			free((*out)[i].value);
	}
	*n = kept;
}

static int run_data_load(struct store *st, int64_t id, struct run_data *r)
{
	memset(r, 0, sizeof(*r));
	r->id = id;
	if (store_get_run(st, id, &r->row) < 0 || store_get_run_info(st, id, &r->info) < 0 ||
	    curves_load(st, id, &r->curves, &r->ncurves) < 0 || store_get_points(st, id, &r->pts, &r->npts) < 0 ||
	    store_get_env(st, id, &r->env, &r->nenv) < 0 || store_get_kernel_config(st, id, &r->kernel_config) < 0 ||
	    store_get_workload_options(st, id, &r->opts, &r->nopts) < 0)
		return -1;
	if (r->nopts == 0) {
		free(r->opts);
		options_of_columns(st, id, &r->opts, &r->nopts);
	}
	return 0;
}

/* The value of an environment key of a run, or NULL. */
static const char *env_of(const struct run_data *r, const char *key)
{
	size_t kl = strlen(key);
	for (size_t i = 0; i < r->nenv; i++)
		if (strncmp(r->env[i], key, kl) == 0 && r->env[i][kl] == '\t')
			return r->env[i] + kl + 1;
	return NULL;
}

/* A run as "kernel-a (run 1)", escaped. */
static void run_name(FILE *f, const struct run_data *r)
{
	if (r->side)
		fprintf(f, "%s: ", r->side);
	html_text(f, r->row.label, 0);
	fprintf(f, " <small>(run %lld)</small>", (long long)r->id);
}

/* A side's name, escaped. */
static void side_name(FILE *f, const struct compare_model *m, size_t side)
{
	char name[512];
	compare_side_name(m, side, name, sizeof(name));
	html_text(f, name, 0);
}

/* "dbase, O_SYNC on, variant x": what a panel compares. */
static void block_name(FILE *f, const struct compare_panel *p)
{
	html_text(f, p->workload, 0);
	if (p->osync >= 0)
		fprintf(f, ", O_SYNC %s", p->osync ? "on" : "off");
	if (p->variant[0])
		element(f, ", variant ", p->variant, "");
}

/* The figure the model judges, as the page names it: "Jobs/Min" unless --metric chose another. */
static const char *metric_label(const struct compare_model *m)
{
	return m->metric && m->metric->label ? m->metric->label : "Jobs/Min";
}

static void verdict_row(FILE *f, const struct compare_model *m, const struct compare_panel *p)
{
	char why[512];
	report_panel_line(m, p, why, sizeof(why));
	fputs("<tr><td class=\"l\">", f);
	block_name(f, p);
	fputs("</td><td class=\"l\">", f);
	side_name(f, m, p->side);
	fprintf(f, " <small>against %s</small></td><td class=\"l\"><span class=\"badge %s\">%s</span></td>",
		m->sides[0].letter, report_verdict_style(m, p->summary.kind), report_verdict_words(m, p->summary.kind));
	if (p->ngeo)
		fprintf(f, "<td>%+.1f %%</td>", p->geomean_pct);
	else
		fputs("<td>&#8211;</td>", f);
	element(f, "<td class=\"l\">", why, "</td></tr>\n");
}

/* Workload names over the runs, the base's first, each once. */
static size_t workloads_of(const struct run_data *rd, size_t n, const char ***out)
{
	const char **names = NULL;
	size_t k = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t c = 0; c < rd[r].ncurves; c++) {
			size_t j = 0;
			while (j < k && strcmp(names[j], rd[r].curves[c].workload) != 0)
				j++;
			if (j == k) {
				names = xrealloc(names, (k + 1) * sizeof(*names));
				names[k++] = rd[r].curves[c].workload;
			}
		}
	*out = names;
	return k;
}

/* The model's verdict per panel, its notes, and how it judged. */
static void verdicts(FILE *f, const struct compare_model *m)
{
	char over[64];
	fputs("<h2 id=\"verdict\">Verdict: ", f);
	html_text(f, metric_label(m), 0);
	fputs("</h2>\n", f);
	if (m->nsides < 2) {
		fputs("<p class=\"note\">", f);
		char nothing[320];
		report_nothing_text(m, nothing, sizeof(nothing));
		html_text(f, nothing[0] ? nothing : "One group of runs: there is nothing to judge it against; its "
						       "curves and figures follow.", 0);
		fputs("</p>\n", f);
		return;
	}
	fputs("<table><tr><th class=\"l\">Workload</th><th class=\"l\">Side</th><th class=\"l\">Verdict</th>"
	      "<th>Geomean</th><th class=\"l\">Why</th></tr>\n", f);
	for (size_t i = 0; i < m->npanels; i++)
		verdict_row(f, m, &m->panels[i]);
	fputs("</table>\n", f);
	if (m->npanels == 0)
		fputs("<p class=\"note\">The base measured nothing the other sides could be judged against.</p>\n", f);
	if (m->nnotes) {
		fputs("<ul class=\"notes\">\n", f);
		for (size_t i = 0; i < m->nnotes; i++) {
			char *text = report_note_text(m, &m->notes[i]);
			fprintf(f, "<li class=\"%s\">", report_note_level_style(m->notes[i].level));
			element(f, "", text ? text : "", "</li>\n");
			free(text);
		}
		fputs("</ul>\n", f);
	}
	fprintf(f, "<p class=\"note\">As <code>reaim compare</code> judges them: each side against A at every task "
		   "count both have, by %s, p values adjusted by %s's method over %s%s, at %g %% "
		   "confidence; the geometric mean of the %s ratios says how much.</p>\n",
		m->blocked		  ? "a paired t test over the runs paired by device (a lab's devices as blocks)"
		: m->kind == COMPARE_GROUPS ? "Welch's t test (each run's mean one sample with 2 or more runs a side, "
					      "else the one run's repeats)"
					    : "a paired t test over the rounds",
		compare_correction_name(m->correction),
		report_judged_cells(compare_model_family(m), "judged", over, sizeof(over)),
		m->nsides > 2 ? " per side (each side against A is a family of its own)" : "", 100 * (1 - m->alpha),
		metric_label(m));
}

/* The heading of one cell's counters: what it compares, its Jobs/Min change, and what each side's points
 * saw of the machine (the outside load, the CPU pressure, the throttling), whatever moved. */
static void counters_cell_title(FILE *f, const struct compare_model *m, const struct counter_cell *c)
{
	const struct compare_panel *p = &m->panels[c->panel];
	fputs("<h3", f);
	if (isfinite(c->jpm_change_pct))
		fprintf(f, " data-jpm-pct=\"%.6g\"", c->jpm_change_pct);
	fputs(">", f);
	block_name(f, p);
	fprintf(f, ", %d task%s: %s against %s, Jobs/Min ", c->tasks, c->tasks == 1 ? "" : "s", m->sides[p->side].letter,
		m->sides[0].letter);
	if (isfinite(c->jpm_change_pct))
		fprintf(f, "%+.1f %%</h3>\n", c->jpm_change_pct);
	else
		fputs("change unknown</h3>\n", f);
	const struct counter_side *sides[] = {&c->a, &c->b};
	const char *letters[] = {m->sides[0].letter, m->sides[p->side].letter};
	fputs("<ul class=\"notes\">\n", f);
	for (size_t s = 0; s < 2; s++) {
		char ctx[320];
		report_counter_side(ctx, sizeof(ctx), sides[s]);
		fprintf(f, "<li data-side=\"%s\"", letters[s]);
		if (sides[s]->load.n)
			fprintf(f, " data-load=\"%.6g\"", sides[s]->load.mean);
		if (isfinite(sides[s]->cpu_pressure_pct))
			fprintf(f, " data-cpu-pressure=\"%.6g\"", sides[s]->cpu_pressure_pct);
		if (isfinite(sides[s]->throttled_s))
			fprintf(f, " data-throttled-s=\"%.6g\"", sides[s]->throttled_s);
		fprintf(f, ">%s: ", letters[s]);
		element(f, "", ctx, "</li>\n");
	}
	fputs("</ul>\n", f);
	if (!c->nmoved) {
		fputs("<p>No counter moved here.</p>\n", f);
		return;
	}
	fprintf(f, "<table><tr><th class=\"l\">Counter</th><th class=\"l\">Unit</th><th>%s</th>"
		   "<th>n</th><th>%s</th><th>n</th><th>change</th><th>%g %% interval</th><th>p</th><th>p adj</th>"
		   "<th>n to show</th></tr>\n",
		letters[0], letters[1], 100 * (1 - m->alpha));
}

/* One moved counter; the data- attributes carry the model's numbers as compare --counters' JSON writes them. */
static void counters_row(FILE *f, const struct counter_change *c)
{
	const struct verdict *v = &c->v;
	int tested = c->kind == COUNTER_TESTED;
	fprintf(f, "<tr%s data-mean-a=\"%.6g\" data-mean-b=\"%.6g\" data-diff=\"%.6g\"", c->explains ? " class=\"moved\"" : "",
		v->mean_a, v->mean_b, v->diff);
	if (isfinite(v->change_pct))
		fprintf(f, " data-pct=\"%.6g\"", v->change_pct);
	if (tested)
		fprintf(f, " data-p-adj=\"%.6g\"", c->p_adj);
	else
		fputs(" data-judged=\"constant\"", f);
	int bounded = tested && v->bounded && isfinite(v->ci_low_pct) && isfinite(v->ci_high_pct);
	if (bounded)
		fprintf(f, " data-lo=\"%.6g\" data-hi=\"%.6g\"", v->ci_low_pct, v->ci_high_pct);
	element(f, "><td class=\"l\">", c->source, " ");
	html_text(f, c->name, 0);
	fputs(c->scaled ? " ~</td>" : "</td>", f);
	element(f, "<td class=\"l\">", c->unit, c->per_job ? " per job</td>" : "</td>");
	fprintf(f, "<td>%.4g</td><td>%zu</td><td>%.4g</td><td>%zu</td>", v->mean_a, v->na, v->mean_b, v->nb);
	if (c->absolute)
		fprintf(f, "<td>%+.4g from 0</td>", v->diff);
	else
		fprintf(f, "<td>%+.1f %%</td>", v->change_pct);
	if (!tested)
		fputs("<td>exact (constant)</td><td>&#8211;</td><td>&#8211;</td><td>&#8211;</td></tr>\n", f);
	else {
		if (c->absolute)
			fprintf(f, "<td>%+.4g to %+.4g</td>", v->diff_low, v->diff_high);
		else if (bounded)
			fprintf(f, "<td>%+.1f to %+.1f %%</td>", v->ci_low_pct, v->ci_high_pct);
		else
			fputs("<td>unbounded</td>", f);
		char n[16];
		report_counter_n(n, sizeof(n), c->n_to_show);
		fprintf(f, "<td>%.3g</td><td>%.3g</td>", v->p, c->p_adj);
		element(f, "<td>", n, "</td></tr>\n");
	}
}

/* What moved with Jobs/Min: per cell what each side saw, and the counters the counter model
 * (analysis/cmpcounters.c, as compare --counters) found significant or exact, in its order. */
static void counters_section(FILE *f, const struct compare_model *m, const struct counter_model *cm)
{
	if (m->nsides < 2 || m->npanels == 0)
		return; /* nothing compared: the verdict says so */
	fputs("<h2 id=\"counters\">Counters that moved with Jobs/Min</h2>\n", f);
	if (!cm->cells_with_counters) {
		fputs("<p class=\"note\">No counters to compare: no cell has the kernel's counters stored on both sides "
		      "(runs made with <code>--no-counters</code>, or by a reaim that stored none).</p>\n", f);
	} else if (!cm->nmoved)
		fprintf(f, "<p>No counter moved significantly: none of the %zu counter test%s is below %g after the "
			   "correction.</p>\n", cm->tested, cm->tested == 1 ? "" : "s", m->alpha);
	size_t at = 0;
	for (size_t i = 0; i < cm->ncells; i++) {
		const struct counter_cell *cell = &cm->cells[i];
		counters_cell_title(f, m, cell);
		for (size_t k = 0; k < cell->nmoved && at < cm->nmoved; k++)
			counters_row(f, &cm->moved[at++]);
		if (cell->nmoved)
			fputs("</table>\n", f);
	}
	fprintf(f, "<p class=\"note\">As <code>reaim compare --counters</code> lists them: each point's counter over "
		   "its measured window divided by its jobs (tasks x jobs per task), and the shares (the sampler's of "
		   "the machine, the point cgroup's pressure) as they are, judged by %s on the same samples "
		   "as Jobs/Min, p values adjusted by %s's method over the %zu counter test%s of %zu cell%s with "
		   "counters on both sides, and the machine's figures (the CPU throttling, the CPU pressure, the "
		   "outside load and steal) over their own %zu; listed when below %g. Highlighted and listed first: those that move against "
		   "Jobs/Min (more per job where it fell, less where it rose), then the others, each by the size of its "
		   "change (from a base of 0: the change per job, before any %%). n to show: the samples a side at which "
		   "the change would be shown at the family's level, from the spread seen. Constant: no variance to "
		   "test, the difference is exact. ~: a perf counter multiplexed and scaled at a point compared.</p>\n",
		m->kind == COMPARE_GROUPS && !m->blocked ? "Welch's t test" : "a paired t test",
		compare_correction_name(m->correction),
		cm->tested, cm->tested == 1 ? "" : "s", cm->cells_with_counters, cm->cells_with_counters == 1 ? "" : "s",
		cm->tested_machine, m->alpha);
}

/* The plot of one workload: every side's curves, the difference panel from the model. */
static void plot_of(FILE *f, struct store *st, const struct compare_group *groups, size_t ngroups,
		    const struct compare_model *model, const char *workload)
{
	const struct metric *m = model->metric ? model->metric : metric_find("jobs_per_min");
	struct plot_set ps;
	char err[512], *buf = NULL;
	size_t len = 0;
	struct plot_query q = {.groups = groups, .ngroups = ngroups, .model = model, .workload = workload, .osync = -1,
			       .m = m};
	if (plot_set_load(st, &q, &ps, err, sizeof(err)) < 0) {
		element(f, "<p class=\"note\">No plot: ", err, "</p>\n");
		return;
	}
	struct plot_options po = {.no_xml_declaration = 1};
	plot_set_options(&ps, m, &po);
	for (size_t i = 0; i < ps.n; i++)
		po.diff_panel |= ps.base[i] >= 0;
	char title[160];
	snprintf(title, sizeof(title), "%s by task count: %s", metric_label(model), workload);
	po.title = title;
	FILE *mem = open_memstream(&buf, &len);
	int rc = mem ? plot_svg(mem, ps.curves, ps.n, &po) : -1;
	if (mem && fclose(mem) != 0)
		rc = -1;
	if (rc == 0)
		fprintf(f, "<figure>\n%s</figure>\n", buf);
	else
		fprintf(f, "<p class=\"note\">No plot: %s</p>\n", strerror(errno));
	free(buf);
	plot_set_free(&ps);
}

/* A cell's CPU change as the model judged it: * where significant, its interval in the title. */
static void cpu_cell(FILE *f, const struct compare_cell *c)
{
	if (!isfinite(c->cpu_pct)) {
		fputs("<td>&#8211;</td>", f);
		return;
	}
	fprintf(f, "<td data-cpu-pct=\"%.4f\"", c->cpu_pct);
	if (c->cpu_judged) {
		fprintf(f, " data-cpu-p-adj=\"%.6g\"", c->cpu_p_adj);
		if (c->cpu_v.bounded)
			fprintf(f, " title=\"%+.1f to %+.1f %%, p adj %.3g\"", c->cpu_v.ci_low_pct, c->cpu_v.ci_high_pct,
				c->cpu_p_adj);
	}
	fprintf(f, ">%+.1f %%%s</td>", c->cpu_pct, c->cpu_significant ? " *" : "");
}

/* contest's figures of a cell with background loads, as compare prints them: the time ratio, then
 * each side's load's units of work (Loads) and CPU in % of one CPU (LCPU%); "-" where a side ran none. */
static void load_cells(FILE *f, const struct compare_panel *p, const struct compare_cell *c)
{
	if (!p->has_loads)
		return;
	const double v[] = {c->time_ratio, c->loads_a, c->lcpu_a, c->loads_b, c->lcpu_b};
	static const int decimals[] = {3, 1, 1, 1, 1};
	static const char *const key[] = {"time-ratio", "loads-a", "lcpu-a", "loads-b", "lcpu-b"};
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		if (!isfinite(v[i])) {
			fputs("<td>-</td>", f);
			continue;
		}
		fprintf(f, "<td data-%s=\"%.6g\">%.*f</td>", key[i], v[i], decimals[i], v[i]);
	}
}

/* One task count of a panel: both sides' means and n, the change with its interval, p before and
 * after the correction, the MDE, the CPU change, the on/off ratio and contest's load figures. */
static void cell_row(FILE *f, const struct compare_model *m, const struct compare_panel *p,
		     const struct compare_cell *c, int ratio)
{
	fprintf(f, "<tr><td>%d</td>", c->tasks);
	char mean[32];
	report_metric_value(m, compare_cell_stat(c, 0, m->stats[0]), mean, sizeof(mean));
	if (isfinite(c->mean_a))
		fprintf(f, "<td>%s</td><td>%zu</td>", mean, c->na);
	else
		fputs("<td>&#8211;</td><td></td>", f);
	if (!c->present) {
		fprintf(f, "<td>&#8211;</td><td></td><td colspan=\"%d\"></td>", ratio ? 7 : 6);
		load_cells(f, p, c);
		fputs("</tr>\n", f);
		return;
	}
	double pct = report_cell_pct(c);
	const char *cls = c->significant && !ratio ? (pct < 0 ? " class=\"down\"" : " class=\"up\"") : "";
	report_metric_value(m, compare_cell_stat(c, 1, m->stats[0]), mean, sizeof(mean));
	fprintf(f, "<td>%s</td><td>%zu</td><td%s data-pct=\"%.4f\" data-state=\"%s\">%+.1f %%%s</td>", mean,
		c->nb, cls, pct, report_state_name(c->state), pct,
		c->state == CELL_CONFOUNDED ? " #" : c->significant ? " *" : c->judged ? "" : " ?");
	if (c->judged && c->v.bounded)
		fprintf(f, "<td data-lo=\"%.4f\" data-hi=\"%.4f\">%+.1f to %+.1f %%</td>", c->v.ci_low_pct,
			c->v.ci_high_pct, c->v.ci_low_pct, c->v.ci_high_pct);
	else if (c->judged)
		fputs("<td>unbounded</td>", f);
	if (c->judged)
		fprintf(f, "<td>%.3g</td><td data-p-adj=\"%.6g\">%.3g</td><td>%.1f %%</td>", c->v.p, c->p_adj, c->p_adj,
			c->mde_adj_pct);
	else
		fputs("<td colspan=\"4\" class=\"l\"><small>cannot be judged: fewer than 2 samples a side</small></td>",
		      f);
	cpu_cell(f, c);
	if (ratio) /* the change's ratio: adjusted where the change is */
		fprintf(f, "<td>%.3f</td>", 1 + pct / 100);
	load_cells(f, p, c);
	fputs("</tr>\n", f);
}

/* Under a cell's row, as compare's table has them: a row per further --stat (both sides' values), then
 * with --runs a row per run of each side (its id, its figure in its side's column, its label after);
 * span: the columns after the sides'. */
static void more_rows(FILE *f, const struct compare_model *m, const struct compare_cell *c, int span)
{
	char va[32], vb[32];
	for (size_t k = 1; k < m->nstats && c->present; k++) {
		report_metric_value(m, compare_cell_stat(c, 0, m->stats[k]), va, sizeof(va));
		report_metric_value(m, compare_cell_stat(c, 1, m->stats[k]), vb, sizeof(vb));
		fprintf(f, "<tr class=\"more\" data-stat=\"%s\"><td>%s</td><td>%s</td><td></td><td>%s</td><td></td>"
			   "<td colspan=\"%d\"></td></tr>\n",
			compare_stats[m->stats[k]].name, compare_stats[m->stats[k]].tag, va, vb, span);
	}
	for (int side = 0; side < 2 && m->runs; side++) {
		const struct compare_run_value *r = side ? c->runs_b : c->runs_a;
		size_t n = side ? c->nruns_b : c->nruns_a;
		for (size_t i = 0; i < n; i++) {
			report_metric_value(m, r[i].value, va, sizeof(va));
			fprintf(f, "<tr class=\"more\" data-run=\"%lld\"><td>#%lld</td><td>%s</td><td></td><td>%s</td><td></td>"
				   "<td colspan=\"%d\" class=\"l\">",
				(long long)r[i].run, (long long)r[i].run, side ? "" : va, side ? va : "", span);
			html_text(f, r[i].label, 0);
			fputs("</td></tr>\n", f);
		}
	}
}

/* One panel's cells as the model judged them: per task count both sides' means and n, the change with
 * its interval, p before and after the correction, the MDE and the CPU change; with O_SYNC both, the
 * ratio on/off. */
static void compare_table(FILE *f, const struct compare_model *m, const struct compare_panel *p)
{
	const char *a = m->sides[0].letter, *b = m->sides[p->side].letter;
	int ratio = m->kind == COMPARE_OSYNC;
	fputs("<h3>", f);
	block_name(f, p);
	fprintf(f, ": %s against %s</h3>\n", b, a);
	if (ratio)
		fputs("<p class=\"note\">O_SYNC on against off: what synchronous writes cost this workload.</p>\n", f);
	const char *stat = m->stats[0] == COMPARE_STAT_MEAN ? "" : compare_stats[m->stats[0]].label;
	fprintf(f, "<table><tr><th>Tasks</th><th>%s %s%s%s</th><th>n</th><th>%s %s%s%s</th><th>n</th>"
		   "<th>change</th><th>%g %% interval</th><th>p</th><th>p adj</th><th>MDE</th><th>CPU</th>%s",
		a, stat, *stat ? " " : "", metric_label(m), b, stat, *stat ? " " : "", metric_label(m),
		100 * (1 - m->alpha), ratio ? "<th>on/off</th>" : "");
	if (p->has_loads)
		fprintf(f, "<th>Time %s/%s</th><th>%s Loads</th><th>%s LCPU%%</th><th>%s Loads</th><th>%s LCPU%%</th>", b,
			a, a, a, b, b);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < p->ncells; i++) {
		cell_row(f, m, p, &p->cells[i], ratio);
		more_rows(f, m, &p->cells[i], 6 + ratio + (p->has_loads ? 5 : 0));
	}
	fputs("</table>\n", f);
	char *views = report_views_legend(m);
	if (views) {
		element(f, "<p class=\"note\">", views, "</p>\n");
		free(views);
	}
	char *said[] = {report_panel_load_text(m, p), report_panel_separate_command(m, p),
			report_panel_few_text(m, p, "By medians (shown where they disagree)")};
	for (size_t i = 0; i < ARRAY_SIZE(said); i++)
		if (said[i]) {
			element(f, i == 1 ? "<pre class=\"note\">" : "<p class=\"note\">", said[i], i == 1 ? "</pre>\n" : "</p>\n");
			free(said[i]);
		}
	fputs("<p>", f);
	if (p->ngeo)
		fprintf(f, "Geomean of %s/%s over %zu task count%s: %+.1f %%%s. ", b, a, p->ngeo, p->ngeo == 1 ? "" : "s",
			p->geomean_pct, p->geo_adjusted ? " (adjusted for others' demand where the cells are)" : "");
	if (p->peak_a_tasks)
		fprintf(f, "Peak: %s %.1f Jobs/Min at %d tasks", a, p->peak_a, p->peak_a_tasks);
	if (p->peak_b_tasks)
		fprintf(f, ", %s %.1f at %d tasks", b, p->peak_b, p->peak_b_tasks);
	fprintf(f, ". CPU: the change of the tasks' CPU time %s, * where its own test on the same samples, adjusted "
		   "over the cells' CPU changes, is below %g.</p>\n",
		m->cpu_window ? "from their release to their last job"
			      : "over their whole lives (a run predates the window)",
		m->alpha);
}

/* A lone run's table: per task count the mean, spread, n and times. */
static void run_table(FILE *f, const struct curve *c)
{
	fputs("<table><tr><th>Tasks</th><th>Jobs/Min</th><th>sd</th><th>sd %</th><th>n</th><th>Real s</th>"
	      "<th>User s</th><th>Sys s</th></tr>\n", f);
	for (size_t i = 0; i < c->count; i++) {
		const struct curve_point *p = &c->points[i];
		fprintf(f, "<tr><td>%d</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%zu</td><td>%.2f</td><td>%.2f</td>"
			   "<td>%.2f</td></tr>\n", p->tasks, p->jpm.mean, p->jpm.std_dev, p->jpm.cv_pct, p->jpm.n,
			p->real_s.mean, p->user_s.mean, p->sys_s.mean);
	}
	const struct curve_point *pk = curve_peak(c);
	fputs("</table>\n", f);
	if (pk)
		fprintf(f, "<p>Peak: %.1f Jobs/Min at %d tasks (mean of %zu repeats).</p>\n", pk->jpm.mean, pk->tasks,
			pk->jpm.n);
}

/* Where the time went in one run's points of a curve: sampler shares and CPU per job. */
struct sysfig {
	size_t valid, sampled;
	double user, sys, iowait, idle, util, read_kbs, write_kbs, ctxt;
	double user_ms_job, sys_ms_job;
};

/* The system figures of each run, described: one column each (name, field, from the sampler or from
 * the tasks' rusage). */
static const struct {
	const char *name;
	size_t offset;
	int sampled;
} sys_columns[] = {
	{"user %", offsetof(struct sysfig, user), 1},
	{"sys %", offsetof(struct sysfig, sys), 1},
	{"iowait %", offsetof(struct sysfig, iowait), 1},
	{"idle %", offsetof(struct sysfig, idle), 1},
	{"disk util %", offsetof(struct sysfig, util), 1},
	{"read KB/s", offsetof(struct sysfig, read_kbs), 1},
	{"write KB/s", offsetof(struct sysfig, write_kbs), 1},
	{"cs/s", offsetof(struct sysfig, ctxt), 1},
	{"user ms/job", offsetof(struct sysfig, user_ms_job), 0},
	{"sys ms/job", offsetof(struct sysfig, sys_ms_job), 0},
};

static double sys_value(const struct sysfig *s, size_t col)
{
	double v;
	memcpy(&v, (const char *)s + sys_columns[col].offset, sizeof(v));
	return v;
}

static void sysfig_of(const struct run_data *r, const char *workload, int osync, const char *variant,
		      struct sysfig *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < r->npts; i++) {
		const struct store_point *p = &r->pts[i];
		if (!p->valid || p->osync != osync || strcmp(p->workload, workload) != 0 || strcmp(p->variant, variant) != 0)
			continue;
		double jobs = (double)p->jobs_per_task * p->tasks;
		s->valid++;
		s->user_ms_job += jobs > 0 ? 1e3 * p->user_s / jobs : 0;
		s->sys_ms_job += jobs > 0 ? 1e3 * p->sys_s / jobs : 0;
		if (!p->sampled)
			continue;
		s->sampled++;
		s->user += p->user_pct, s->sys += p->sys_pct, s->iowait += p->iowait_pct, s->idle += p->idle_pct;
		s->util += p->util_pct, s->read_kbs += p->read_kbs, s->write_kbs += p->write_kbs, s->ctxt += p->ctxt_per_s;
	}
	double *shares[] = {&s->user, &s->sys, &s->iowait, &s->idle, &s->util, &s->read_kbs, &s->write_kbs, &s->ctxt};
	for (size_t k = 0; k < ARRAY_SIZE(shares) && s->sampled; k++)
		*shares[k] /= (double)s->sampled;
	if (s->valid) {
		s->user_ms_job /= (double)s->valid;
		s->sys_ms_job /= (double)s->valid;
	}
}

/* A row of the system table: a run's points of the workload with one O_SYNC setting and variant. */
struct sys_row {
	const struct run_data *run;
	int osync;
	const char *variant;      /* "" for none */
	int say_osync;            /* the rows differ in O_SYNC: name it */
};

/* One row a run and setting, the base first. */
static void system_table(FILE *f, const struct sys_row *rows, size_t n, const char *workload)
{
	struct sysfig *s = xcalloc(n, sizeof(*s));
	size_t sampled = 0;
	for (size_t r = 0; r < n; r++) {
		sysfig_of(rows[r].run, workload, rows[r].osync, rows[r].variant, &s[r]);
		sampled += s[r].sampled;
	}
	fputs("<table><tr><th class=\"l\">Run</th>", f);
	for (size_t c = 0; c < ARRAY_SIZE(sys_columns); c++)
		fprintf(f, "<th>%s</th>", sys_columns[c].name);
	fputs("</tr>\n", f);
	for (size_t r = 0; r < n; r++) {
		if (!s[r].valid)
			continue;
		fputs("<tr><td class=\"l\">", f);
		run_name(f, rows[r].run);
		if (rows[r].variant[0])
			element(f, ", variant ", rows[r].variant, "");
		if (rows[r].say_osync)
			fprintf(f, ", O_SYNC %s", rows[r].osync ? "on" : "off");
		fputs("</td>", f);
		for (size_t c = 0; c < ARRAY_SIZE(sys_columns); c++) {
			if (sys_columns[c].sampled && !s[r].sampled) {
				fputs("<td>&#8211;</td>", f);
				continue;
			}
			double v = sys_value(&s[r], c);
			fprintf(f, "<td>%.*f</td>", v >= 100 ? 0 : v >= 10 ? 1 : 2, v);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	fprintf(f, "<p class=\"note\">Means over each run's valid points of this workload and setting, every task "
		   "count together: a description, not a verdict (what moved with Jobs/Min, judged as Jobs/Min is, "
		   "is listed under the counters). The %% columns are the system sampler's (&#8211; where a run has "
		   "no samples), CPU per job from the tasks' rusage.%s</p>\n",
		sampled ? "" : " No run here has system samples.");
	free(s);
}

/* The subtests behind a panel's change, as the model shares it out: each test's change in total job
 * time and its share of the whole (the same sign as compare's). */
static void subtests_table(FILE *f, const struct compare_model *m, const struct compare_panel *p)
{
	fprintf(f, "<h4>Subtests behind the change: %s against %s</h4>\n", m->sides[p->side].letter,
		m->sides[0].letter);
	if (p->nsubs == 0) {
		fputs("<p class=\"note\">No per-test figures in common.</p>\n", f);
		return;
	}
	fputs("<table><tr><th class=\"l\">Test</th><th>job time base s</th><th>change</th><th>share of the change</th>"
	      "<th>p</th></tr>\n", f);
	for (size_t i = 0; i < p->nsubs && i < SUBTESTS_SHOWN; i++) {
		const struct compare_subtest *t = &p->subs[i];
		element(f, "<tr><td class=\"l\">", t->name, "</td>");
		fprintf(f, "<td>%.3f</td><td>%+.4f s</td>", t->base_s, t->delta_s);
		if (isfinite(t->share_pct))
			fprintf(f, "<td data-share=\"%.4f\">%s%+.0f %%</td>", t->share_pct, t->noise ? "~" : "", t->share_pct);
		else
			fputs("<td>&#8211;</td>", f);
		if (isfinite(t->p))
			fprintf(f, "<td>%.3g</td></tr>\n", t->p);
		else
			fputs("<td>&#8211;</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	fprintf(f, "<p class=\"note\">Each test's change in total job time and its share of the change of all "
		   "(%+.4f s); ~: within noise. %zu tests", p->total.delta_s, p->nsubs);
	if (p->nsubs > SUBTESTS_SHOWN)
		fprintf(f, ", the first %d shown", SUBTESTS_SHOWN);
	fputs(".</p>\n", f);
}

/* A workload: its plot, each panel's table and subtests (or each run's curves when nothing is compared),
 * and the system figures of every run. */
static void workload_section(FILE *f, struct store *st, const struct compare_group *groups, size_t ngroups,
			     const struct compare_model *m, const struct run_data *rd, size_t n, const char *workload)
{
	element(f, "<h2>Workload ", workload, "</h2>\n");
	plot_of(f, st, groups, ngroups, m, workload);
	size_t panels = 0;
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		if (strcmp(p->workload, workload) != 0)
			continue;
		compare_table(f, m, p);
		subtests_table(f, m, p);
		panels++;
	}
	if (panels == 0)
		for (size_t r = 0; r < n; r++)
			for (size_t c = 0; c < rd[r].ncurves; c++)
				if (strcmp(rd[r].curves[c].workload, workload) == 0) {
					element(f, "<h3>", rd[r].curves[c].label, "");
					fprintf(f, ", O_SYNC %s</h3>\n", rd[r].curves[c].osync ? "on" : "off");
					run_table(f, &rd[r].curves[c]);
				}
	/* where the time went: a row per run, O_SYNC setting and variant it measured (a curve each) */
	size_t ncurves = 0, nrows = 0;
	int settings = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t c = 0; c < rd[r].ncurves; c++, ncurves++)
			if (strcmp(rd[r].curves[c].workload, workload) == 0)
				settings |= 1 << rd[r].curves[c].osync;
	struct sys_row *rows = xcalloc(ncurves + 1, sizeof(*rows));
	for (size_t r = 0; r < n; r++)
		for (size_t c = 0; c < rd[r].ncurves; c++)
			if (strcmp(rd[r].curves[c].workload, workload) == 0)
				rows[nrows++] = (struct sys_row){&rd[r], rd[r].curves[c].osync, rd[r].curves[c].variant,
								 settings == 3};
	fputs(settings == 3 && n == 1 ? "<h4>System figures, O_SYNC off (base) and on</h4>\n" : "<h4>System figures</h4>\n",
	      f);
	system_table(f, rows, nrows, workload);
	free(rows);
}

/* Kernel config options listed per run; the rest are counted. */
#define CONFIG_LISTED 40

/* The kernel config options each run's kernel sets otherwise than the first run's, where both configs
 * are stored and their hashes differ. */
static void config_differences(FILE *f, const struct run_data *rd, size_t n)
{
	const char *base = env_of(&rd[0], "kernel.config");
	for (size_t r = 1; r < n; r++) {
		const char *h = env_of(&rd[r], "kernel.config");
		if (!base || !h || strcmp(base, h) == 0 || !rd[0].kernel_config || !rd[r].kernel_config)
			continue;
		struct kconfig_change *changes;
		size_t count = kconfig_diff(rd[0].kernel_config, rd[r].kernel_config, &changes);
		char *line = report_kconfig_line(changes, count, CONFIG_LISTED);
		kconfig_changes_free(changes, count);
		if (!line)
			continue;
		fputs("<p>The kernel of ", f);
		run_name(f, &rd[r]);
		fprintf(f, " is built with %zu option%s set otherwise than that of ", count, count == 1 ? "" : "s");
		run_name(f, &rd[0]);
		element(f, ": <code>", line, "</code></p>\n");
		free(line);
	}
}

/* Every environment key of any run, in the order first met. */
static char **env_keys(const struct run_data *rd, size_t n, size_t *nk)
{
	char **keys = NULL;
	*nk = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < rd[r].nenv; i++) {
			const char *kv = rd[r].env[i];
			size_t kl = (size_t)(strchr(kv, '\t') - kv), j = 0;
			while (j < *nk && !(strlen(keys[j]) == kl && strncmp(keys[j], kv, kl) == 0))
				j++;
			if (j == *nk) {
				keys = xrealloc(keys, (*nk + 1) * sizeof(*keys));
				keys[(*nk)++] = xasprintf("%.*s", (int)kl, kv);
			}
		}
	return keys;
}

/* The environment's columns: one per side of the model (its runs pooled), a run without a side its own. */
struct env_groups {
	size_t *of;   /* the column of each run */
	size_t *head; /* a run of each column */
	size_t n;
};

static void env_group(const struct run_data *rd, size_t n, struct env_groups *g)
{
	g->of = xcalloc(n + 1, sizeof(*g->of));
	g->head = xcalloc(n + 1, sizeof(*g->head));
	g->n = 0;
	for (size_t r = 0; r < n; r++) {
		size_t c = 0;
		while (c < g->n && !(rd[r].side && rd[g->head[c]].side && strcmp(rd[r].side, rd[g->head[c]].side) == 0))
			c++;
		if (c == g->n)
			g->head[g->n++] = r;
		g->of[r] = c;
	}
}

/* A column's value of KEY: its runs' one value, or their distinct values apart ("a / b"); sets *varies
 * when its runs disagree. */
static char *env_cell(const struct run_data *rd, size_t n, const struct env_groups *g, size_t col, const char *key,
		      int *varies)
{
	struct strbuf sb = {0};
	size_t distinct = 0;
	for (size_t r = 0; r < n; r++) {
		if (g->of[r] != col)
			continue;
		const char *v = env_of(&rd[r], key);
		v = v ? v : "(absent)";
		int seen = 0;
		for (size_t q = 0; q < r && !seen; q++)
			seen = g->of[q] == col && strcmp(env_of(&rd[q], key) ? env_of(&rd[q], key) : "(absent)", v) == 0;
		if (!seen)
			strbuf_addf(&sb, "%s%s", distinct++ ? " / " : "", v);
	}
	*varies = distinct > 1;
	return sb.buf ? sb.buf : xstrdup("");
}

static void env_column_name(FILE *f, const struct run_data *rd, size_t n, const struct env_groups *g, size_t col)
{
	const struct run_data *h = &rd[g->head[col]];
	if (h->side)
		fprintf(f, "%s: ", h->side);
	html_text(f, h->row.label, 0);
	size_t runs = 0;
	for (size_t r = 0; r < n; r++)
		runs += g->of[r] == col;
	fprintf(f, " <small>(run%s", runs == 1 ? "" : "s");
	for (size_t r = 0, k = 0; r < n; r++)
		if (g->of[r] == col)
			fprintf(f, "%s %lld", k++ ? "," : "", (long long)rd[r].id);
	fputs(")</small>", f);
}

/* The environment, a column per side: the facts that differ between sides or among a side's runs
 * first, highlighted and named once each; those every run shares in one folded list. */
static void environment(FILE *f, const struct run_data *rd, size_t n)
{
	size_t nk, differ = 0;
	char **keys = env_keys(rd, n, &nk);
	struct env_groups g;
	env_group(rd, n, &g);
	char **cells = xcalloc(nk * g.n + 1, sizeof(*cells));
	int *differs = xcalloc(nk + 1, sizeof(*differs));
	for (size_t k = 0; k < nk; k++) {
		for (size_t c = 0; c < g.n; c++) {
			int varies;
			cells[k * g.n + c] = env_cell(rd, n, &g, c, keys[k], &varies);
			differs[k] |= varies || strcmp(cells[k * g.n + c], cells[k * g.n]) != 0;
		}
		differ += differs[k] != 0;
	}
	fputs("<h2 id=\"environment\">Environment</h2>\n", f);
	if (differ) {
		fputs("<p>The runs differ in ", f);
		for (size_t k = 0, shown = 0; k < nk; k++)
			if (differs[k])
				element(f, shown++ ? ", <code>" : "<code>", keys[k], "</code>");
		fputs(" (highlighted below; \"a / b\": the side's runs differ). The kernel is usually what is compared; "
		      "anything else may explain a change too.</p>\n", f);
	} else if (n > 1) {
		fputs("<p>The runs share every environment fact stored.</p>\n", f);
	}
	config_differences(f, rd, n);
	if (differ) {
		fputs("<table><tr><th class=\"l\">Key</th>", f);
		for (size_t c = 0; c < g.n; c++) {
			fputs("<th class=\"l\">", f);
			env_column_name(f, rd, n, &g, c);
			fputs("</th>", f);
		}
		fputs("</tr>\n", f);
		for (size_t k = 0; k < nk; k++) {
			if (!differs[k])
				continue;
			element(f, "<tr class=\"differs\"><td class=\"l\"><code>", keys[k], "</code></td>");
			for (size_t c = 0; c < g.n; c++)
				element(f, "<td class=\"l\">", cells[k * g.n + c], "</td>");
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	fprintf(f, "<details%s><summary>%zu fact%s every run shares</summary><table>\n", differ ? "" : " open=\"open\"",
		nk - differ, nk - differ == 1 ? "" : "s");
	for (size_t k = 0; k < nk; k++)
		if (!differs[k]) {
			element(f, "<tr><td class=\"l\"><code>", keys[k], "</code></td>");
			element(f, "<td class=\"l\">", cells[k * g.n], "</td></tr>\n");
		}
	fputs("</table></details>\n", f);
	for (size_t k = 0; k < nk * g.n; k++)
		free(cells[k]);
	for (size_t k = 0; k < nk; k++)
		free(keys[k]);
	free(cells), free(keys), free(differs), free(g.of), free(g.head);
}

/* A table cell, highlighted when it differs from the base run's. */
static void option_cell(FILE *f, const char *text, const char *base)
{
	fprintf(f, "<td class=\"l%s\">", base && strcmp(base, text) != 0 ? " moved" : "");
	html_text(f, text, 0);
	fputs("</td>", f);
}

/* A workload's value of an option as one line (a list's items joined by spaces), or NULL when the
 * workload stored none; the caller frees it. */
static char *option_value(const struct run_data *r, const char *workload, const char *key)
{
	struct strbuf b = {0};
	int found = 0;
	for (size_t i = 0; i < r->nopts; i++) {
		const struct store_option *o = &r->opts[i];
		if (strcmp(o->workload, workload) != 0 || strcmp(o->key, key) != 0)
			continue;
		strbuf_addf(&b, "%s%s", found++ ? " " : "", o->value);
	}
	return found ? b.buf : NULL;
}

/* One option's row: its flag (the table's help on hover), then each workload's value, highlighted where it
 * differs from the base run's workload of the same name. */
static void option_row(FILE *f, const struct run_data *d, const struct run_data *base, const char *key,
		       const struct option_def *def)
{
	fputs("<tr><td class=\"l\"", f);
	if (def)
		element(f, " title=\"", def->help, "\"");
	fputs("><code>--", f);
	for (const char *c = key; *c; c++)
		fputc(*c == '_' ? '-' : *c, f);
	fputs("</code></td>", f);
	for (size_t w = 0; w < d->info.nworkloads; w++) {
		const char *name = d->info.workloads[w].name;
		char *v = option_value(d, name, key), *bv = base ? option_value(base, name, key) : NULL;
		if (v)
			option_cell(f, v, base ? (bv ? bv : "") : NULL);
		else
			fprintf(f, "<td class=\"l%s\"><small>(none)</small></td>", bv ? " moved" : "");
		free(v);
		free(bv);
	}
	fputs("</tr>\n", f);
}

/* Whether any workload of the run stored the option. */
static int option_stored(const struct run_data *d, const char *key)
{
	for (size_t i = 0; i < d->nopts; i++)
		if (strcmp(d->opts[i].key, key) == 0)
			return 1;
	return 0;
}

/* Every option the run's workloads stored, a column per workload, from the option table: the options
 * that change what a point measures, then those that do not (the label, the task counts, the rounds,
 * ...), then any this version of reaim does not know (stored by a newer one). */
static void run_options(FILE *f, const struct run_data *d, const struct run_data *base)
{
	fputs("<table><tr><th class=\"l\">Option</th>", f);
	for (size_t w = 0; w < d->info.nworkloads; w++)
		element(f, "<th class=\"l\">", d->info.workloads[w].name, "</th>");
	fputs("</tr>\n", f);
	static const char *const parts[] = {"Options that change what a point measures",
					    "Options that do not change a point (how many, how long, what is kept)"};
	int cols = (int)d->info.nworkloads + 1;
	for (int measured = 1; measured >= 0; measured--) {
		int heading = 0;
		for (size_t i = 0; i < option_count; i++) {
			const struct option_def *def = &option_table[i];
			if (!def->measured != !measured || !option_stored(d, def->key))
				continue;
			if (!heading++)
				fprintf(f, "<tr><th class=\"l\" colspan=\"%d\">%s</th></tr>\n", cols, parts[!measured]);
			option_row(f, d, base, def->key, def);
		}
	}
	int heading = 0;
	for (size_t i = 0; i < d->nopts; i++) {
		const char *key = d->opts[i].key;
		int seen = option_find(key) != NULL;
		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(d->opts[k].key, key) == 0;
		if (seen)
			continue;
		if (!heading++)
			fprintf(f, "<tr><th class=\"l\" colspan=\"%d\">Options this version of reaim does not know "
				   "(taken to change a point)</th></tr>\n",
				cols);
		option_row(f, d, base, key, NULL);
	}
	fputs("</table>\n", f);
}

/* How each run was made: enough to make it again. */
static void provenance(FILE *f, const struct run_data *rd, size_t n)
{
	fputs("<h2 id=\"runs\">How each run was made</h2>\n", f);
	for (size_t r = 0; r < n; r++) {
		const struct run_data *d = &rd[r];
		fputs("<h3>", f);
		run_name(f, d);
		fputs("</h3>\n", f);
		if (r > 0)
			fputs("<p class=\"note\">Highlighted: what differs from the base run.</p>\n", f);
		fputs("<dl>", f);
		element(f, "<dt>Command line</dt><dd><code>", d->info.command_line, "</code></dd>");
		element(f, "<dt>Status</dt><dd>", d->row.status, "");
		if (d->row.reason[0])
			element(f, ": ", d->row.reason, "");
		int seed_differs = r > 0 && d->info.seed != rd[0].info.seed;
		int version_differs = r > 0 && strcmp(d->info.version, rd[0].info.version) != 0;
		fprintf(f, "</dd><dt>Seed</dt><dd%s>%lld</dd>", seed_differs ? " class=\"moved\"" : "",
			(long long)d->info.seed);
		element(f, version_differs ? "<dt>reaim version</dt><dd class=\"moved\">" : "<dt>reaim version</dt><dd>",
			d->info.version, "</dd>");
		element(f, "<dt>Mode</dt><dd>", d->row.mode, "</dd>");
		element(f, "<dt>Started</dt><dd>", d->row.started, "</dd>");
		element(f, "<dt>Suite</dt><dd>", d->info.suite_name, "</dd>");
		element(f, "<dt>Run id</dt><dd><code>", d->row.uuid, "</code></dd></dl>\n");
		run_options(f, d, r > 0 ? &rd[0] : NULL);
		if (d->info.suite_text[0]) {
			fputs("<details><summary>Suite text</summary><pre>", f);
			html_text(f, d->info.suite_text, 1);
			fputs("</pre></details>\n", f);
		}
		for (size_t w = 0; w < d->info.nworkloads; w++) {
			element(f, "<details><summary>Workfile ", d->info.workloads[w].workfile_name, "</summary><pre>");
			html_text(f, d->info.workloads[w].workfile_text, 1);
			fputs("</pre></details>\n", f);
		}
	}
}

static void runs_summary(FILE *f, const struct run_data *rd, size_t n)
{
	fputs("<table><tr><th class=\"l\">Run</th><th class=\"l\">Kernel</th><th class=\"l\">Host</th>"
	      "<th class=\"l\">Started</th><th class=\"l\">Status</th><th>Valid points</th></tr>\n", f);
	for (size_t r = 0; r < n; r++) {
		const char *kernel = env_of(&rd[r], "kernel.release"), *host = env_of(&rd[r], "hostname");
		fputs("<tr><td class=\"l\">", f);
		run_name(f, &rd[r]);
		fputs(r == 0 && n > 1 ? " <small>base</small></td>" : "</td>", f);
		element(f, "<td class=\"l\">", kernel ? kernel : "?", "</td>");
		element(f, "<td class=\"l\">", host ? host : "?", "</td>");
		element(f, "<td class=\"l\">", rd[r].row.started, "</td>");
		element(f, "<td class=\"l\">", rd[r].row.status, "</td>");
		fprintf(f, "<td>%d / %d</td></tr>\n", rd[r].row.valid_points, rd[r].row.points);
	}
	fputs("</table>\n", f);
}

int report_html(FILE *f, struct store *st, const struct compare_group *groups, size_t ngroups,
		const struct html_options *o, char *err, size_t errlen)
{
	size_t n = 0;
	for (size_t g = 0; g < ngroups; g++)
		n += groups[g].n;
	if (n == 0) {
		snprintf(err, errlen, "no runs to report");
		return -1;
	}
	struct compare_options co = {.alpha = o && o->alpha > 0 ? o->alpha : VERDICT_ALPHA,
				     .correction = o ? o->correction : COMPARE_HOLM,
				     .exclude_noisy = o ? o->exclude_noisy : 0, .metric = o ? o->metric : NULL,
				     .stats = o ? o->stats : NULL, .nstats = o ? o->nstats : 0, .runs = o ? o->runs : 0};
	struct compare_model m;
	struct counter_model cm = {0};
	struct run_data *rd = xcalloc(n, sizeof(*rd));
	int rc = compare_model_build(st, groups, ngroups, &co, &m);
	if (rc == 0)
		rc = counter_model_build(st, &m, &cm);
	if (rc < 0)
		snprintf(err, errlen, "%s", store_error(st));
	for (size_t g = 0, r = 0; g < ngroups && rc == 0; g++)
		for (size_t i = 0; i < groups[g].n && rc == 0; i++, r++) {
			if ((rc = run_data_load(st, groups[g].runs[i], &rd[r])) < 0)
				snprintf(err, errlen, "%s", store_error(st));
			rd[r].side = m.kind == COMPARE_GROUPS && g < m.nsides ? m.sides[g].letter : NULL;
		}
	if (rc == 0) {
		struct strbuf title = {0};
		if (o && o->title)
			strbuf_addf(&title, "%s", o->title);
		else if (m.kind != COMPARE_GROUPS || m.nsides < 2)
			strbuf_addf(&title, "reaim report: %s", rd[0].row.label);
		else
			for (size_t s = 0; s < m.nsides; s++)
				strbuf_addf(&title, "%s%s", s ? " vs " : "reaim report: ", m.sides[s].label);
		fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n", f);
		element(f, "<title>", title.buf, "</title>\n");
		fprintf(f, "<style>%s</style>\n</head>\n<body>\n", style);
		element(f, "<h1>", title.buf, "</h1>\n");
		fprintf(f, "<p class=\"note\">Written by reaim %s from %zu stored run%s.</p>\n", PACKAGE_VERSION, n,
			n == 1 ? "" : "s");
		strbuf_free(&title);
		if (m.nsides >= 2) {
			fputs("<ul class=\"sides\">\n", f);
			for (size_t s = 0; s < m.nsides; s++) {
				fputs("<li>", f);
				side_name(f, &m, s);
				fputs(s == 0 ? " <small>(base)</small></li>\n" : "</li>\n", f);
			}
			fputs("</ul>\n", f);
		}
		runs_summary(f, rd, n);
		verdicts(f, &m);
		counters_section(f, &m, &cm);
		const char **names;
		size_t nw = workloads_of(rd, n, &names);
		for (size_t w = 0; w < nw; w++)
			workload_section(f, st, groups, ngroups, &m, rd, n, names[w]);
		if (nw == 0)
			fputs("<p class=\"note\">No valid points in these runs.</p>\n", f);
		free(names);
		environment(f, rd, n);
		provenance(f, rd, n);
		fputs("</body>\n</html>\n", f); /* a failed write is the stream's owner's to report, naming its file */
	}
	for (size_t r = 0; r < n; r++)
		run_data_free(&rd[r]);
	free(rd);
	counter_model_free(&cm);
	compare_model_free(&m);
	return rc;
}
