/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim report`: one self-contained HTML page (inline CSS and SVG, nothing fetched, no script) that a
 * developer attaches to a mail or a bug: verdicts first, then per workload the plot, the compare table,
 * the system figures and subtests behind a change, then the environment and how each run was made. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kconfig.h"
#include "analysis/stats.h"
#include "report/html.h"
#include "report/textout.h"
#include "report/plot.h"
#include "report/report.h"
#include "util/util.h"

#define SUBTESTS_SHOWN 10

/* Everything the page says about one run, read once. */
struct run_data {
	int64_t id;
	struct store_run_row row;
	struct store_run_info info;
	struct curve *curves;
	size_t ncurves;
	struct store_point *pts;
	size_t npts;
	char **env;               /* "key\tvalue", in key order */
	size_t nenv;
	char *kernel_config;      /* the config text stored with the run, or NULL */
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
	".mixed{background:#a5690c}.unjudged,.nodata{background:#9aa0a3}"
	"td.up{color:#1e7e45;font-weight:bold}td.down{color:#b03a2e;font-weight:bold}"
	".moved{background:#fff1c2}tr.differs td{background:#fff1c2}"
	".note{color:#555;font-size:.9em}small{color:#666}"
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
}

static int run_data_load(struct store *st, int64_t id, struct run_data *r)
{
	memset(r, 0, sizeof(*r));
	r->id = id;
	if (store_get_run(st, id, &r->row) < 0 || store_get_run_info(st, id, &r->info) < 0 ||
	    curves_load(st, id, &r->curves, &r->ncurves) < 0 || store_get_points(st, id, &r->pts, &r->npts) < 0 ||
	    store_get_env(st, id, &r->env, &r->nenv) < 0 || store_get_kernel_config(st, id, &r->kernel_config) < 0)
		return -1;
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

static const struct curve *curve_of(const struct run_data *r, const char *workload, int osync)
{
	for (size_t i = 0; i < r->ncurves; i++)
		if (strcmp(r->curves[i].workload, workload) == 0 && r->curves[i].osync == osync)
			return &r->curves[i];
	return NULL;
}

static const char *verdict_class(enum verdict_kind k)
{
	static const char *const classes[] = {
		[VERDICT_UNCHANGED] = "unchanged", [VERDICT_BETTER] = "better", [VERDICT_WORSE] = "worse",
		[VERDICT_MIXED] = "mixed",         [VERDICT_UNJUDGED] = "unjudged", [VERDICT_NO_DATA] = "nodata",
	};
	return (unsigned)k < ARRAY_SIZE(classes) ? classes[k] : "nodata";
}

/* A run as "kernel-a (run 1)", escaped. */
static void run_name(FILE *f, const struct run_data *r)
{
	html_text(f, r->row.label, 0);
	fprintf(f, " <small>(run %lld)</small>", (long long)r->id);
}

static void verdict_row(FILE *f, const char *workload, int osync, const struct run_data *who, const char *against,
			const struct curve_verdict *v)
{
	char why[320];
	report_verdict_text(v, why, sizeof(why));
	element(f, "<tr><td class=\"l\">", workload, "</td>");
	fprintf(f, "<td class=\"l\">%s</td><td class=\"l\">", osync ? "on" : "off");
	run_name(f, who);
	if (against)
		element(f, " <small>", against, "</small>");
	fprintf(f, "</td><td class=\"l\"><span class=\"badge %s\">%s</span></td>", verdict_class(v->kind),
		report_verdict_name(v->kind));
	if (v->common)
		fprintf(f, "<td>%+.1f %%</td>", v->geomean_pct);
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

static void verdicts(FILE *f, const struct run_data *rd, size_t n, double alpha)
{
	fputs("<h2 id=\"verdict\">Verdict</h2>\n<table><tr><th class=\"l\">Workload</th><th class=\"l\">O_SYNC</th>"
	      "<th class=\"l\">Run</th><th class=\"l\">Verdict</th><th>Geomean</th><th class=\"l\">Why</th></tr>\n", f);
	size_t rows = 0;
	for (size_t c = 0; c < rd[0].ncurves; c++) {
		const struct curve *base = &rd[0].curves[c];
		struct curve_verdict v;
		if (n == 1) {
			/* one run: O_SYNC on judged against off where it was run both ways */
			const struct curve *off = base->osync ? curve_of(&rd[0], base->workload, 0) : NULL;
			if (!off)
				continue;
			report_verdict(off, base, alpha, &v);
			verdict_row(f, base->workload, 1, &rd[0], "O_SYNC on against off", &v);
			rows++;
			continue;
		}
		for (size_t r = 1; r < n; r++) {
			const struct curve *other = curve_of(&rd[r], base->workload, base->osync);
			if (!other)
				continue;
			report_verdict(base, other, alpha, &v);
			verdict_row(f, base->workload, base->osync, &rd[r], NULL, &v);
			rows++;
		}
	}
	fputs("</table>\n", f);
	if (rows == 0)
		fputs(n == 1 ? "<p class=\"note\">One run, made with one O_SYNC setting: there is nothing to judge it "
			       "against; its curves and figures follow.</p>\n"
			     : "<p class=\"note\">The runs share no workload and O_SYNC setting with the first run.</p>\n",
		      f);
	fprintf(f, "<p class=\"note\">Each run against the first (the base) at every task count both have: Welch's "
		   "t-test at %.0f %% confidence where both sides have two or more repeats; the geometric mean of "
		   "the Jobs/Min ratios says how much.</p>\n", 100 * (1 - alpha));
}

/* The plot of one workload: every run's curves, the difference panel when there is something to compare. */
static void plot_of(FILE *f, struct store *st, const int64_t *ids, size_t n, const char *workload)
{
	const struct metric *m = metric_find("jobs_per_min");
	struct plot_set ps;
	char err[512], *buf = NULL;
	size_t len = 0;
	if (plot_set_load(st, ids, n, workload, -1, m, &ps, err, sizeof(err)) < 0) {
		element(f, "<p class=\"note\">No plot: ", err, "</p>\n");
		return;
	}
	struct plot_options po = {.no_xml_declaration = 1};
	plot_set_options(&ps, m, &po);
	for (size_t i = 0; i < ps.n; i++)
		po.diff_panel |= ps.base[i] >= 0;
	char title[160];
	snprintf(title, sizeof(title), "Jobs/Min by task count: %s", workload);
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

/* Per task count: the base's mean, spread and n, then each run's change with its interval. */
static void compare_table(FILE *f, const struct curve *base, const struct curve *const *others,
			  const struct run_data *rd, size_t n, double alpha)
{
	fputs("<table><tr><th rowspan=\"2\">Tasks</th><th colspan=\"3\">", f);
	run_name(f, &rd[0]);
	fputs(" (base)</th>", f);
	for (size_t r = 1; r < n; r++) {
		fputs("<th colspan=\"4\">", f);
		run_name(f, &rd[r]);
		fputs("</th>", f);
	}
	fputs("</tr>\n<tr><th>Jobs/Min</th><th>sd %</th><th>n</th>", f);
	for (size_t r = 1; r < n; r++)
		fprintf(f, "<th>Jobs/Min</th><th>change</th><th>%.0f %% interval</th><th>p</th>", 100 * (1 - alpha));
	fputs("</tr>\n", f);
	for (size_t i = 0; i < base->count; i++) {
		const struct curve_point *b = &base->points[i];
		fprintf(f, "<tr><td>%d</td><td>%.1f</td><td>%.1f</td><td>%zu</td>", b->tasks, b->jpm.mean, b->jpm.cv_pct,
			b->jpm.n);
		for (size_t r = 1; r < n; r++) {
			const struct curve_point *o = others[r] ? curve_at(others[r], b->tasks) : NULL;
			if (!o || !(b->jpm.mean > 0)) {
				fputs("<td>&#8211;</td><td></td><td></td><td></td>", f);
				continue;
			}
			struct welch w;
			int judged = stats_welch(&b->jpm, &o->jpm, alpha, &w) == 0;
			double pct = 100 * (o->jpm.mean / b->jpm.mean - 1);
			const char *cls = judged && w.significant ? (pct < 0 ? " class=\"down\"" : " class=\"up\"") : "";
			fprintf(f, "<td>%.1f <small>n=%zu</small></td><td%s>%+.1f %%%s</td>", o->jpm.mean, o->jpm.n, cls, pct,
				judged && w.significant ? " *" : "");
			if (judged)
				fprintf(f, "<td>%+.1f to %+.1f %%</td><td>%.3g</td>", w.ci_low_pct, w.ci_high_pct, w.p);
			else
				fputs("<td colspan=\"2\" class=\"l\"><small>needs 2+ repeats each side</small></td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
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

/* A run made with O_SYNC both: on against off per task count. */
static void osync_ratio_table(FILE *f, const struct curve *on, const struct curve *off)
{
	fputs("<h3>O_SYNC on against off</h3>\n<table><tr><th>Tasks</th><th>Jobs/Min on</th><th>Jobs/Min off</th>"
	      "<th>on/off</th></tr>\n", f);
	for (size_t i = 0; i < on->count; i++) {
		const struct curve_point *a = &on->points[i], *b = curve_at(off, a->tasks);
		if (b && b->jpm.mean > 0)
			fprintf(f, "<tr><td>%d</td><td>%.1f</td><td>%.1f</td><td>%.3f</td></tr>\n", a->tasks, a->jpm.mean,
				b->jpm.mean, a->jpm.mean / b->jpm.mean);
	}
	fputs("</table>\n", f);
}

/* Where the time went in one run's points of a curve: sampler shares and CPU per job. */
struct sysfig {
	size_t valid, sampled;
	double user, sys, iowait, idle, util, read_kbs, write_kbs, ctxt;
	double user_ms_job, sys_ms_job;
};

/* The system figures a change is explained by: one row each (name, field, and whether a move is
 * judged in percentage points rather than relative to the base). */
static const struct {
	const char *name;
	size_t offset;
	int points;
} sys_columns[] = {
	{"user %", offsetof(struct sysfig, user), 1},
	{"sys %", offsetof(struct sysfig, sys), 1},
	{"iowait %", offsetof(struct sysfig, iowait), 1},
	{"idle %", offsetof(struct sysfig, idle), 1},
	{"disk util %", offsetof(struct sysfig, util), 1},
	{"read KB/s", offsetof(struct sysfig, read_kbs), 0},
	{"write KB/s", offsetof(struct sysfig, write_kbs), 0},
	{"cs/s", offsetof(struct sysfig, ctxt), 0},
	{"user ms/job", offsetof(struct sysfig, user_ms_job), 0},
	{"sys ms/job", offsetof(struct sysfig, sys_ms_job), 0},
};
#define SYS_MOVED_POINTS 2.0      /* percentage points */
#define SYS_MOVED_PCT 10.0        /* relative to the base */

static double sys_value(const struct sysfig *s, size_t col)
{
	double v;
	memcpy(&v, (const char *)s + sys_columns[col].offset, sizeof(v));
	return v;
}

static void sysfig_of(const struct run_data *r, const char *workload, int osync, struct sysfig *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < r->npts; i++) {
		const struct store_point *p = &r->pts[i];
		if (!p->valid || p->osync != osync || strcmp(p->workload, workload) != 0)
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

/* A row of the system table: a run's points of the workload with one O_SYNC setting. */
struct sys_row {
	const struct run_data *run;
	int osync;
	int say_osync;            /* the rows differ in O_SYNC: name it */
};

/* The first row is the base the others' moves are measured from. */
static void system_table(FILE *f, const struct sys_row *rows, size_t n, const char *workload)
{
	struct sysfig *s = xcalloc(n, sizeof(*s));
	size_t sampled = 0;
	for (size_t r = 0; r < n; r++) {
		sysfig_of(rows[r].run, workload, rows[r].osync, &s[r]);
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
		if (rows[r].say_osync)
			fprintf(f, ", O_SYNC %s", rows[r].osync ? "on" : "off");
		fputs("</td>", f);
		for (size_t c = 0; c < ARRAY_SIZE(sys_columns); c++) {
			int from_sampler = c < 8;
			if (from_sampler && !s[r].sampled) {
				fputs("<td>&#8211;</td>", f);
				continue;
			}
			double v = sys_value(&s[r], c), b = sys_value(&s[0], c);
			int compared = r > 0 && s[0].valid && (!from_sampler || s[0].sampled);
			double d = v - b, rel = b != 0 ? 100 * d / fabs(b) : 0;
			int moved = compared && (sys_columns[c].points ? fabs(d) >= SYS_MOVED_POINTS
								      : b != 0 && fabs(rel) >= SYS_MOVED_PCT);
			fprintf(f, "<td%s>%.*f", moved ? " class=\"moved\"" : "", v >= 100 ? 0 : v >= 10 ? 1 : 2, v);
			if (compared && sys_columns[c].points)
				fprintf(f, " <small>(%+.1f)</small>", d);
			else if (compared && b != 0)
				fprintf(f, " <small>(%+.0f %%)</small>", rel);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	fprintf(f, "<p class=\"note\">Means over the valid points of this workload and setting; the %% columns are "
		   "the system sampler's (&#8211; where a run has no samples), CPU per job from the tasks' rusage. "
		   "Highlighted: a move of %.0f percentage points or %.0f %% from the base.%s</p>\n",
		SYS_MOVED_POINTS, SYS_MOVED_PCT, sampled ? "" : " No run here has system samples.");
	free(s);
}

/* A test's jobs over the valid points of a curve of a run. */
struct test_sum {
	char name[32];
	long long count;
	double total_s, p99_sum;
	int points;
};

static size_t test_sums(struct store *st, const struct run_data *r, const char *workload, int osync,
			struct test_sum **out)
{
	size_t nt = 0;
	*out = NULL;
	for (size_t i = 0; i < r->npts; i++) {
		const struct store_point *p = &r->pts[i];
		struct store_test *t;
		size_t k;
		if (!p->valid || p->osync != osync || strcmp(p->workload, workload) != 0 ||
		    store_get_tests(st, p->id, &t, &k) < 0)
			continue;
		for (size_t j = 0; j < k; j++) {
			size_t m = 0;
			while (m < nt && strcmp((*out)[m].name, t[j].name) != 0)
				m++;
			if (m == nt) {
				*out = xrealloc(*out, (nt + 1) * sizeof(**out));
				memset(&(*out)[nt], 0, sizeof(**out));
				snprintf((*out)[nt++].name, sizeof((*out)[m].name), "%s", t[j].name);
			}
			(*out)[m].count += t[j].count;
			(*out)[m].total_s += t[j].total_s;
			(*out)[m].p99_sum += t[j].p99_s;
			(*out)[m].points++;
		}
		free(t);
	}
	return nt;
}

struct mover {
	const struct test_sum *a, *b;
	double mean_a, mean_b, pct, weight_change;
};

static int by_weight(const void *x, const void *y)
{
	double a = fabs(((const struct mover *)x)->weight_change), b = fabs(((const struct mover *)y)->weight_change);
	return (a < b) - (a > b);
}

/* The subtests behind a change in job time: each test's change in mean job time weighted by its share
 * of the jobs, so a 0.02 ms test does not lead the list. */
static void subtests_table(FILE *f, struct store *st, const struct run_data *base, const struct run_data *other,
			   const char *workload, int osync)
{
	struct test_sum *a, *b;
	size_t na = test_sums(st, base, workload, osync, &a), nb = test_sums(st, other, workload, osync, &b);
	struct mover *mv = xcalloc(na + 1, sizeof(*mv));
	size_t nm = 0;
	long long jobs = 0;
	double moved = 0;
	for (size_t i = 0; i < na; i++)
		jobs += a[i].count;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			if (strcmp(a[i].name, b[j].name) == 0 && a[i].count && b[j].count && jobs) {
				struct mover *m = &mv[nm++];
				m->a = &a[i];
				m->b = &b[j];
				m->mean_a = a[i].total_s / (double)a[i].count;
				m->mean_b = b[j].total_s / (double)b[j].count;
				m->pct = m->mean_a > 0 ? 100 * (m->mean_b / m->mean_a - 1) : 0;
				m->weight_change = (m->mean_b - m->mean_a) * (double)a[i].count / (double)jobs;
				moved += fabs(m->weight_change);
			}
	qsort(mv, nm, sizeof(*mv), by_weight);
	fputs("<h4>Subtests behind the change: ", f);
	run_name(f, other);
	fputs("</h4>\n", f);
	if (nm == 0) {
		fputs("<p class=\"note\">No per-test figures in common.</p>\n", f);
	} else {
		fputs("<table><tr><th class=\"l\">Test</th><th>jobs (base / other)</th><th>mean ms base</th>"
		      "<th>mean ms other</th><th>change</th><th>p99 ms base</th><th>p99 ms other</th>"
		      "<th>share of the change</th></tr>\n", f);
		for (size_t i = 0; i < nm && i < SUBTESTS_SHOWN; i++) {
			const struct mover *m = &mv[i];
			double share = moved > 0 ? 100 * m->weight_change / moved : 0;
			element(f, "<tr><td class=\"l\">", m->a->name, "</td>");
			fprintf(f, "<td>%lld / %lld</td><td>%.3f</td><td>%.3f</td><td%s>%+.1f %%</td><td>%.3f</td><td>%.3f</td>"
				   "<td>%+.0f %%</td></tr>\n", m->a->count, m->b->count, 1e3 * m->mean_a, 1e3 * m->mean_b,
				fabs(share) >= 20 ? (m->pct > 0 ? " class=\"down\"" : " class=\"up\"") : "", m->pct,
				1e3 * m->a->p99_sum / m->a->points, 1e3 * m->b->p99_sum / m->b->points, share);
		}
		fputs("</table>\n", f);
		fprintf(f, "<p class=\"note\">Ranked by each test's change in mean job time weighted by its share of the "
			   "jobs (its part of the change in total job time); %zu tests in common", nm);
		if (nm > SUBTESTS_SHOWN)
			fprintf(f, ", the first %d shown", SUBTESTS_SHOWN);
		fputs(".</p>\n", f);
	}
	free(mv);
	free(a);
	free(b);
}

static void workload_section(FILE *f, struct store *st, const int64_t *ids, const struct run_data *rd, size_t n,
			     const char *workload, double alpha)
{
	const struct curve *on = curve_of(&rd[0], workload, 1), *off = curve_of(&rd[0], workload, 0);
	int both = on && off;
	element(f, "<h2>Workload ", workload, "</h2>\n");
	plot_of(f, st, ids, n, workload);
	for (int osync = 1; osync >= 0; osync--) {
		const struct curve *base = curve_of(&rd[0], workload, osync);
		const struct curve **others = xcalloc(n, sizeof(*others));
		int any = base != NULL;
		for (size_t r = 1; r < n; r++)
			any |= (others[r] = curve_of(&rd[r], workload, osync)) != NULL;
		if (any) {
			fprintf(f, "<h3>O_SYNC %s</h3>\n", osync ? "on" : "off");
			if (!base)
				fputs("<p class=\"note\">The base run has no valid points here.</p>\n", f);
			else if (n == 1)
				run_table(f, base);
			else
				compare_table(f, base, others, rd, n, alpha);
			if (n > 1 || !both) {
				struct sys_row *rows = xcalloc(n, sizeof(*rows));
				for (size_t r = 0; r < n; r++)
					rows[r] = (struct sys_row){&rd[r], osync, 0};
				fputs("<h4>System figures</h4>\n", f);
				system_table(f, rows, n, workload);
				free(rows);
			}
			for (size_t r = 1; r < n && base; r++)
				if (others[r])
					subtests_table(f, st, &rd[0], &rd[r], workload, osync);
		}
		free(others);
	}
	if (n == 1 && both) {
		/* one run made both ways: what O_SYNC costs, and where the time went */
		const struct sys_row rows[] = {{&rd[0], 0, 1}, {&rd[0], 1, 1}};
		osync_ratio_table(f, on, off);
		fputs("<h4>System figures, O_SYNC off (base) and on</h4>\n", f);
		system_table(f, rows, 2, workload);
	}
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
		size_t count;
		char *line = kconfig_diff_line(rd[0].kernel_config, rd[r].kernel_config, CONFIG_LISTED, &count);
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

/* Every environment key of any run, a column per run; the keys that differ named first and their rows
 * highlighted. */
static void environment(FILE *f, const struct run_data *rd, size_t n)
{
	char **keys = NULL;
	size_t nk = 0, differ = 0;
	for (size_t r = 0; r < n; r++)
		for (size_t i = 0; i < rd[r].nenv; i++) {
			const char *kv = rd[r].env[i];
			size_t kl = (size_t)(strchr(kv, '\t') - kv), j = 0;
			while (j < nk && !(strlen(keys[j]) == kl && strncmp(keys[j], kv, kl) == 0))
				j++;
			if (j == nk) {
				keys = xrealloc(keys, (nk + 1) * sizeof(*keys));
				keys[nk++] = xasprintf("%.*s", (int)kl, kv);
			}
		}
	int *differs = xcalloc(nk + 1, sizeof(*differs));
	for (size_t k = 0; k < nk; k++) {
		const char *first = env_of(&rd[0], keys[k]);
		for (size_t r = 1; r < n; r++) {
			const char *v = env_of(&rd[r], keys[k]);
			differs[k] |= !v != !first || (v && first && strcmp(v, first) != 0);
		}
		differ += differs[k] != 0;
	}
	fputs("<h2 id=\"environment\">Environment</h2>\n", f);
	if (differ) {
		fputs("<p>The runs differ in ", f);
		for (size_t k = 0, shown = 0; k < nk; k++)
			if (differs[k])
				element(f, shown++ ? ", <code>" : "<code>", keys[k], "</code>");
		fputs(" (highlighted below). The kernel is usually what is compared; anything else may explain a change "
		      "too.</p>\n", f);
	} else if (n > 1) {
		fputs("<p>The runs share every environment fact stored.</p>\n", f);
	}
	config_differences(f, rd, n);
	fputs("<table><tr><th class=\"l\">Key</th>", f);
	for (size_t r = 0; r < n; r++) {
		fputs("<th class=\"l\">", f);
		run_name(f, &rd[r]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t k = 0; k < nk; k++) {
		fputs(differs[k] ? "<tr class=\"differs\">" : "<tr>", f);
		element(f, "<td class=\"l\"><code>", keys[k], "</code></td>");
		for (size_t r = 0; r < n; r++) {
			const char *v = env_of(&rd[r], keys[k]);
			if (v)
				element(f, "<td class=\"l\">", v, "</td>");
			else
				fputs("<td class=\"l\"><small>(absent)</small></td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	for (size_t k = 0; k < nk; k++)
		free(keys[k]);
	free(keys);
	free(differs);
}

/* A table cell, highlighted when it differs from the base run's. */
static void option_cell(FILE *f, const char *text, const char *base, int right)
{
	fprintf(f, "<td class=\"%s%s\">", right ? "" : "l", base && strcmp(base, text) != 0 ? " moved" : "");
	html_text(f, text, 0);
	fputs("</td>", f);
}

static const struct store_run_workload *workload_named(const struct run_data *r, const char *name)
{
	for (size_t w = 0; w < r->info.nworkloads; w++)
		if (strcmp(r->info.workloads[w].name, name) == 0)
			return &r->info.workloads[w];
	return NULL;
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
		fputs("<table><tr><th class=\"l\">Workload</th><th class=\"l\">Workfile</th><th class=\"l\">Tasks</th>"
		      "<th>Jobs/task</th><th>Repeats</th><th class=\"l\">O_SYNC</th><th class=\"l\">Sync mode</th>"
		      "<th>File KiB</th><th>Pool KiB</th><th class=\"l\">Dirs</th></tr>\n", f);
		for (size_t w = 0; w < d->info.nworkloads; w++) {
			const struct store_run_workload *wl = &d->info.workloads[w];
			const struct store_run_workload *bw = r > 0 ? workload_named(&rd[0], wl->name) : NULL;
			char num[4][32], base[4][32];
			const int64_t vals[] = {wl->jobs_per_task, wl->repeat, wl->filesize_kib, wl->poolsize_kib};
			const int64_t bvals[] = {bw ? bw->jobs_per_task : 0, bw ? bw->repeat : 0, bw ? bw->filesize_kib : 0,
						 bw ? bw->poolsize_kib : 0};
			for (size_t k = 0; k < 4; k++) {
				snprintf(num[k], sizeof(num[k]), "%lld", (long long)vals[k]);
				snprintf(base[k], sizeof(base[k]), "%lld", (long long)bvals[k]);
			}
			fputs("<tr>", f);
			option_cell(f, wl->name, NULL, 0);
			option_cell(f, wl->workfile_name, bw ? bw->workfile_name : NULL, 0);
			option_cell(f, wl->tasks, bw ? bw->tasks : NULL, 0);
			option_cell(f, num[0], bw ? base[0] : NULL, 1);
			option_cell(f, num[1], bw ? base[1] : NULL, 1);
			option_cell(f, wl->osync, bw ? bw->osync : NULL, 0);
			option_cell(f, wl->sync_mode, bw ? bw->sync_mode : NULL, 0);
			option_cell(f, num[2], bw ? base[2] : NULL, 1);
			option_cell(f, num[3], bw ? base[3] : NULL, 1);
			option_cell(f, wl->dirs, bw ? bw->dirs : NULL, 0);
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
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

int report_html(FILE *f, struct store *st, const int64_t *runs, size_t n, const struct html_options *o, char *err,
		size_t errlen)
{
	if (n == 0) {
		snprintf(err, errlen, "no runs to report");
		return -1;
	}
	double alpha = o && o->alpha > 0 ? o->alpha : 0.05;
	struct run_data *rd = xcalloc(n, sizeof(*rd));
	int rc = 0;
	for (size_t r = 0; r < n && rc == 0; r++)
		if ((rc = run_data_load(st, runs[r], &rd[r])) < 0)
			snprintf(err, errlen, "%s", store_error(st));
	if (rc == 0) {
		struct strbuf title = {0};
		if (o && o->title)
			strbuf_addf(&title, "%s", o->title);
		else
			for (size_t r = 0; r < n; r++)
				strbuf_addf(&title, "%s%s", r ? " vs " : "reaim report: ", rd[r].row.label);
		fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n", f);
		element(f, "<title>", title.buf, "</title>\n");
		fprintf(f, "<style>%s</style>\n</head>\n<body>\n", style);
		element(f, "<h1>", title.buf, "</h1>\n");
		fprintf(f, "<p class=\"note\">Written by reaim %s from %zu stored run%s%s.</p>\n", PACKAGE_VERSION, n,
			n == 1 ? "" : "s", n > 1 ? "; the first is the base every other run is judged against" : "");
		strbuf_free(&title);
		runs_summary(f, rd, n);
		verdicts(f, rd, n, alpha);
		const char **names;
		size_t nw = workloads_of(rd, n, &names);
		for (size_t w = 0; w < nw; w++)
			workload_section(f, st, runs, rd, n, names[w], alpha);
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
	return rc;
}
