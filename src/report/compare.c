/* `reaim compare`: aligns runs by workload, O_SYNC setting and task count against the first
 * (the base), and says how much Jobs/Min moved and whether that is beyond the noise. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/stats.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

/* One other run at one task count. */
struct cell {
	int present, judged, significant;
	double mean, pct, sd_pct, p, real_pct, user_pct, sys_pct;
	double rank_p;            /* Mann-Whitney's two-sided p, -1 when it cannot be judged */
};

struct row {
	int tasks;
	const struct curve_point *base;
	struct cell *cells;
};

static double pct_change(double base, double other)
{
	return base != 0 ? 100.0 * (other / base - 1.0) : 0;
}

static struct cell compare_point(const struct curve_point *b, const struct curve_point *o, double alpha)
{
	struct cell c = {.present = 1, .mean = o->jpm.mean};
	c.pct = pct_change(b->jpm.mean, o->jpm.mean);
	c.sd_pct = o->jpm.cv_pct;
	c.real_pct = pct_change(b->real_s.mean, o->real_s.mean);
	c.user_pct = pct_change(b->user_s.mean, o->user_s.mean);
	c.sys_pct = pct_change(b->sys_s.mean, o->sys_s.mean);
	struct welch w;
	if (stats_welch(&b->jpm, &o->jpm, alpha, &w) == 0) {
		c.judged = 1;
		c.significant = w.significant;
		c.p = w.p;
	}
	double u;
	if (stats_mann_whitney(b->samples, b->jpm.n, o->samples, o->jpm.n, &u, &c.rank_p) < 0)
		c.rank_p = -1;
	return c;
}

static const struct curve *find_curve(const struct curve *cs, size_t n, const struct curve *like)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(cs[i].workload, like->workload) == 0 && cs[i].osync == like->osync)
			return &cs[i];
	return NULL;
}

/* Environment keys that differ between two runs, beyond the kernel (which is what is compared). */
static void env_warnings(FILE *f, struct store *st, int64_t a, int64_t b)
{
	char **ka, **kb;
	size_t na, nb;
	if (store_get_env(st, a, &ka, &na) < 0)
		return;
	if (store_get_env(st, b, &kb, &nb) < 0) {
		for (size_t i = 0; i < na; i++)
			free(ka[i]);
		free(ka);
		return;
	}
	for (size_t i = 0; i < na; i++) {
		char *tab = strchr(ka[i], '\t');
		size_t klen = (size_t)(tab - ka[i]);
		if (strncmp(ka[i], "kernel.", 7) == 0)
			continue;
		const char *other = NULL;
		for (size_t j = 0; j < nb; j++)
			if (strncmp(kb[j], ka[i], klen + 1) == 0)
				other = kb[j] + klen + 1;
		if (!other || strcmp(other, tab + 1) != 0)
			fprintf(f, "warning: runs differ in %.*s: '%s' vs '%s'\n", (int)klen, ka[i], tab + 1,
				other ? other : "(absent)");
	}
	for (size_t i = 0; i < na; i++)
		free(ka[i]);
	for (size_t j = 0; j < nb; j++)
		free(kb[j]);
	free(ka);
	free(kb);
}

/* Mean job time per test over the valid points of one curve of a run. */
struct test_mean {
	char name[32];
	double total_s, p99_sum;
	long long count;
	int points;
};

static size_t test_means(struct store *st, int64_t run, const struct curve *c, struct test_mean **out)
{
	struct store_point *pts;
	size_t np, nm = 0;
	*out = NULL;
	if (store_get_points(st, run, &pts, &np) < 0)
		return 0;
	for (size_t i = 0; i < np; i++) {
		if (!pts[i].valid || pts[i].osync != c->osync || strcmp(pts[i].workload, c->workload) != 0)
			continue;
		struct store_test *t;
		size_t nt;
		if (store_get_tests(st, pts[i].id, &t, &nt) < 0)
			continue;
		for (size_t k = 0; k < nt; k++) {
			size_t m = 0;
			while (m < nm && strcmp((*out)[m].name, t[k].name) != 0)
				m++;
			if (m == nm) {
				*out = xrealloc(*out, (nm + 1) * sizeof(**out));
				memset(&(*out)[nm], 0, sizeof(**out));
				snprintf((*out)[nm++].name, sizeof((*out)[m].name), "%s", t[k].name);
			}
			(*out)[m].total_s += t[k].total_s;
			(*out)[m].count += t[k].count;
			(*out)[m].p99_sum += t[k].p99_s;
			(*out)[m].points++;
		}
		free(t);
	}
	free(pts);
	return nm;
}

/* The sampler's user, sys, iowait and disk-util shares of one run's curve like `c`, averaged
 * over its sampled points; 0 when the run has none (made before the sampler, or with it off). */
static int system_shares(struct store *st, int64_t run, const struct curve *c, double out[4])
{
	struct store_point *pts;
	size_t n, used = 0;
	memset(out, 0, 4 * sizeof(double));
	if (store_get_points(st, run, &pts, &n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct store_point *p = &pts[i];
		if (!p->valid || !p->sampled || p->osync != c->osync || strcmp(p->workload, c->workload) != 0)
			continue;
		out[0] += p->user_pct, out[1] += p->sys_pct, out[2] += p->iowait_pct, out[3] += p->util_pct;
		used++;
	}
	free(pts);
	for (int k = 0; k < 4 && used; k++)
		out[k] /= (double)used;
	return used > 0;
}

/* Where the time went, base against another run: the sampler's CPU and disk shares. */
static void print_system(FILE *f, struct store *st, int64_t base, int64_t other, const struct curve *c,
			 const char *label)
{
	static const char *const shown[] = {"user", "sys", "iowait", "disk util"};
	double a[4], b[4];
	if (!system_shares(st, base, c, a) || !system_shares(st, other, c, b))
		return;
	fprintf(f, "System in %s (mean over sampled points):", label);
	for (size_t i = 0; i < ARRAY_SIZE(shown); i++)
		fprintf(f, "%s %s %.1f%% -> %.1f%%", i ? "," : "", shown[i], a[i], b[i]);
	fputc('\n', f);
}

struct mover {
	const char *name;
	double pct, p99_pct;
};

static int by_size(const void *a, const void *b)
{
	double x = fabs(((const struct mover *)a)->pct), y = fabs(((const struct mover *)b)->pct);
	return (x < y) - (x > y);
}

/* The subtests whose mean job time changed most between the base and another run. */
static void print_movers(FILE *f, struct store *st, int64_t base, int64_t other, const struct curve *c,
			 const char *label)
{
	struct test_mean *a, *b;
	size_t na = test_means(st, base, c, &a), nb = test_means(st, other, c, &b);
	struct mover *mv = xcalloc(na + 1, sizeof(*mv));
	size_t n = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			if (strcmp(a[i].name, b[j].name) == 0 && a[i].count && b[j].count && a[i].total_s > 0)
				mv[n++] = (struct mover){a[i].name,
							 pct_change(a[i].total_s / (double)a[i].count,
								    b[j].total_s / (double)b[j].count),
							 pct_change(a[i].p99_sum / a[i].points, b[j].p99_sum / b[j].points)};
	qsort(mv, n, sizeof(*mv), by_size);
	if (n) {
		fprintf(f, "Subtests that moved most in %s (mean job time, p99):", label);
		for (size_t i = 0; i < n && i < 5; i++)
			fprintf(f, " %s %+.1f%% (p99 %+.0f%%)%s", mv[i].name, mv[i].pct, mv[i].p99_pct,
				i + 1 < n && i < 4 ? "," : "");
		fputc('\n', f);
	}
	free(mv);
	free(a);
	free(b);
}

/* The aligned table (or markdown): per task count the base, then per run its changes. */
static void print_table(FILE *f, const struct curve *const *others, size_t no, const struct row *rows, size_t nr,
			int markdown)
{
	const char *bar = markdown ? " | " : " | ";
	if (markdown) {
		fprintf(f, "| Tasks | Base JPM | cv%% |");
		for (size_t k = 0; k < no; k++)
			fprintf(f, " %s %%chg | sd%% | Real%% | User%% | Sys%% |", others[k]->label);
		fprintf(f, "\n|---:|---:|---:|");
		for (size_t k = 0; k < no; k++)
			fprintf(f, "---:|---:|---:|---:|---:|");
		fputc('\n', f);
	} else {
		fprintf(f, "%-6s %11s %6s", "", "", "");
		for (size_t k = 0; k < no; k++)
			fprintf(f, "%s%-41.41s", bar, others[k]->label);
		fprintf(f, "\n%-6s %11s %6s", "Tasks", "Base JPM", "cv%");
		for (size_t k = 0; k < no; k++)
			fprintf(f, "%s%9s %6s %7s %7s %7s", bar, "%chg", "sd%", "Real%", "User%", "Sys%");
		fputc('\n', f);
	}
	for (size_t r = 0; r < nr; r++) {
		const struct curve_point *b = rows[r].base;
		if (markdown)
			fprintf(f, "| %d | %.1f | %.1f |", rows[r].tasks, b->jpm.mean, b->jpm.cv_pct);
		else
			fprintf(f, "%-6d %11.1f %6.1f", rows[r].tasks, b->jpm.mean, b->jpm.cv_pct);
		for (size_t k = 0; k < no; k++) {
			const struct cell *c = &rows[r].cells[k];
			char mark = c->significant ? '*' : c->judged ? ' ' : '?';
			if (markdown && !c->present)
				fprintf(f, " - | | | | |");
			else if (markdown)
				fprintf(f, " %+.1f%%%c | %.1f | %+.1f | %+.1f | %+.1f |", c->pct, mark == ' ' ? ' ' : mark,
					c->sd_pct, c->real_pct, c->user_pct, c->sys_pct);
			else if (!c->present)
				fprintf(f, "%s%9s %6s %7s %7s %7s", bar, "-", "", "", "", "");
			else
				fprintf(f, "%s%+7.1f%%%c %6.1f %+7.1f %+7.1f %+7.1f", bar, c->pct, mark, c->sd_pct,
					c->real_pct, c->user_pct, c->sys_pct);
		}
		fputc('\n', f);
	}
}

static void print_csv_rows(FILE *f, const struct curve *base, const struct curve *const *others, size_t no,
			   const struct row *rows, size_t nr)
{
	for (size_t r = 0; r < nr; r++)
		for (size_t k = 0; k < no; k++) {
			const struct cell *c = &rows[r].cells[k];
			if (!c->present)
				continue;
			textout_csv_string(f, base->workload, 0);
			fprintf(f, ",%s,%d,", base->osync ? "on" : "off", rows[r].tasks);
			textout_csv_string(f, base->label, 1);
			fputc(',', f);
			textout_csv_number(f, "%.2f", rows[r].base->jpm.mean);
			fputc(',', f);
			textout_csv_string(f, others[k]->label, 1);
			const double v[] = {c->mean, c->pct, c->sd_pct};
			for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
				fputc(',', f);
				textout_csv_number(f, "%.2f", v[i]);
			}
			fprintf(f, ",%s,", c->judged ? (c->significant ? "yes" : "no") : "n/a");
			textout_csv_number(f, "%.4g", c->judged ? c->p : -1.0);
			fputc(',', f);
			textout_csv_number(f, "%.4g", c->rank_p);
			const double times[] = {c->real_pct, c->user_pct, c->sys_pct};
			for (size_t i = 0; i < ARRAY_SIZE(times); i++) {
				fputc(',', f);
				textout_csv_number(f, "%.2f", times[i]);
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

static void print_json_rows(FILE *f, const struct curve *base, const struct row *rows, size_t no, size_t nr,
			    int *first)
{
	for (size_t r = 0; r < nr; r++)
		for (size_t k = 0; k < no; k++) {
			const struct cell *c = &rows[r].cells[k];
			if (!c->present)
				continue;
			fprintf(f, "%s\n  {\"workload\": ", *first ? "" : ",");
			textout_json_string(f, base->workload);
			fprintf(f, ", \"osync\": %d, \"tasks\": %d", base->osync, rows[r].tasks);
			json_num(f, "base", "%.4f", rows[r].base->jpm.mean);
			json_num(f, "other", "%.4f", c->mean);
			fprintf(f, ", \"run\": %zu", k + 1);
			json_num(f, "pct", "%.4f", c->pct);
			json_num(f, "sd_pct", "%.4f", c->sd_pct);
			fprintf(f, ", \"judged\": %s, \"significant\": %s", c->judged ? "true" : "false",
				c->significant ? "true" : "false");
			json_num(f, "p", "%.6g", c->judged ? c->p : -1.0);
			json_num(f, "rank_p", "%.6g", c->rank_p);
			json_num(f, "real_pct", "%.4f", c->real_pct);
			json_num(f, "user_pct", "%.4f", c->user_pct);
			json_num(f, "sys_pct", "%.4f", c->sys_pct);
			fputc('}', f);
			*first = 0;
		}
}

/* Geometric mean of the Jobs/Min ratios and each run's peak, under the table. */
static void print_summary(FILE *f, const struct curve *base, const struct curve *const *others, size_t no,
			  const struct row *rows, size_t nr)
{
	const struct curve_point *bp = curve_peak(base);
	fprintf(f, "Peak: base %.1f at %d tasks", bp ? bp->jpm.mean : 0, bp ? bp->tasks : 0);
	for (size_t k = 0; k < no; k++) {
		double *ratios = xcalloc(nr + 1, sizeof(double));
		size_t n = 0;
		for (size_t r = 0; r < nr; r++)
			if (rows[r].cells[k].present && rows[r].base->jpm.mean > 0)
				ratios[n++] = rows[r].cells[k].mean / rows[r].base->jpm.mean;
		const struct curve_point *op = curve_peak(others[k]);
		fprintf(f, "; %s %.1f at %d tasks", others[k]->label, op ? op->jpm.mean : 0, op ? op->tasks : 0);
		if (n)
			fprintf(f, " (geomean %+.1f%% over %zu task counts)", 100 * (stats_geomean(ratios, n) - 1), n);
		free(ratios);
	}
	fputc('\n', f);
}

/* The runs being compared and the block (one workload and O_SYNC setting) being written. */
struct compare_ctx {
	struct store *st;
	const int64_t *runs;
	size_t n;
	const struct compare_options *o;
	struct curve **cs;
	size_t *nc;
	const struct curve *base;
	const struct curve *const *others; /* n - 1, `missing` where a run lacks the base's curve */
	const struct row *rows;
	size_t nr;
	int first_json;
	int regressed;
};

static const struct curve missing = {.label = "(missing)"};

/* The runs, the test and its confidence, and where the environments differ. */
static void table_begin(FILE *f, const struct compare_ctx *c)
{
	fprintf(f, "Base: %s. Significance: Welch's t-test at %.0f%% confidence where both sides have at "
		   "least 2 repeats (* significant, ? cannot be judged: use -r 2 or more).\n",
		c->nc[0] ? c->cs[0][0].label : "run", 100 * (1 - c->o->alpha));
	fprintf(f, "Runs:");
	for (size_t i = 0; i < c->n; i++) {
		struct store_run_row r;
		if (store_get_run(c->st, c->runs[i], &r) == 0) {
			fputs(i ? "; " : " ", f);
			fput_text(f, r.label, 0);
			fprintf(f, " (run %lld, %s mode, %s, started %s)", (long long)r.id, r.mode, r.status, r.started);
		}
	}
	fputc('\n', f);
	for (size_t i = 1; i < c->n; i++)
		env_warnings(f, c->st, c->runs[0], c->runs[i]);
}

static void text_block(FILE *f, const struct compare_ctx *c, int markdown)
{
	fprintf(f, "\n%sWorkload %s, O_SYNC %s\n", markdown ? "### " : "", c->base->workload,
		c->base->osync ? "on" : "off");
	print_table(f, c->others, c->n - 1, c->rows, c->nr, markdown);
	print_summary(f, c->base, c->others, c->n - 1, c->rows, c->nr);
	for (size_t i = 1; i < c->n; i++)
		if (c->others[i - 1] != &missing) {
			print_system(f, c->st, c->runs[0], c->runs[i], c->base, c->others[i - 1]->label);
			print_movers(f, c->st, c->runs[0], c->runs[i], c->base, c->others[i - 1]->label);
		}
}

static void table_block(FILE *f, struct compare_ctx *c) { text_block(f, c, 0); }
static void markdown_block(FILE *f, struct compare_ctx *c) { text_block(f, c, 1); }

static void csv_begin(FILE *f, const struct compare_ctx *c)
{
	(void)c;
	fprintf(f, "workload,osync,tasks,base_label,base_jpm,label,jpm,pct,sd_pct,significant,p,rank_p,"
		   "real_pct,user_pct,sys_pct\n");
}

static void csv_block(FILE *f, struct compare_ctx *c)
{
	print_csv_rows(f, c->base, c->others, c->n - 1, c->rows, c->nr);
}

static void json_begin(FILE *f, const struct compare_ctx *c)
{
	fprintf(f, "{\"format_version\": 1, \"alpha\": %g, \"rows\": [", c->o->alpha);
}

static void json_block(FILE *f, struct compare_ctx *c)
{
	print_json_rows(f, c->base, c->rows, c->n - 1, c->nr, &c->first_json);
}

static void json_end(FILE *f, const struct compare_ctx *c)
{
	fprintf(f, "\n], \"regressed\": %s}\n", c->regressed ? "true" : "false");
}

const struct compare_format report_compare_formats[] = {
	{"table", "aligned text: per task count the base, each run's change, its spread and significance; "
		  "then peaks, system shares and the subtests that moved",
	 table_begin, table_block, NULL, 1},
	{"markdown", "the same table in Markdown, for an issue or a wiki", NULL, markdown_block, NULL, 1},
	{"csv", "one line per task count and run", csv_begin, csv_block, NULL, 0},
	{"json", "one object per task count and run, and whether a regression was found", json_begin, json_block,
	 json_end, 0},
	{NULL, NULL, NULL, NULL, NULL, 0},
};

/* Stored text may come from another program (a merged database): what reaches a terminal
 * or a Markdown page is escaped; CSV and JSON carry it as stored, escaped by their writers. */
static void escape_curve_text(struct curve *c)
{
	char *label = text_escape(c->label), *workload = text_escape(c->workload);
	snprintf(c->label, sizeof(c->label), "%s", label);
	snprintf(c->workload, sizeof(c->workload), "%s", workload);
	free(label);
	free(workload);
}

/* The aligned rows of one base curve: per task count, each other run's cell. */
static struct row *align(struct compare_ctx *c, const struct curve *base)
{
	struct row *rows = xcalloc(base->count + 1, sizeof(*rows));
	for (size_t r = 0; r < base->count; r++) {
		rows[r].tasks = base->points[r].tasks;
		rows[r].base = &base->points[r];
		rows[r].cells = xcalloc(c->n, sizeof(struct cell));
		for (size_t k = 0; k + 1 < c->n; k++) {
			const struct curve_point *op = curve_at(c->others[k], rows[r].tasks);
			if (!op)
				continue;
			struct cell cell = compare_point(rows[r].base, op, c->o->alpha);
			rows[r].cells[k] = cell;
			int counts = cell.significant || !cell.judged;
			if (c->o->fail_above_pct > 0 && counts && cell.pct < -c->o->fail_above_pct)
				c->regressed = 1;
		}
	}
	return rows;
}

int report_compare(FILE *f, struct store *st, const int64_t *runs, size_t n, const struct compare_options *o,
		   int *regressed)
{
	const struct compare_format *w = report_compare_formats;
	while (w->name && strcmp(w->name, o->format ? o->format : "table") != 0)
		w++;
	*regressed = 0;
	if (!w->name) { /* the command line only passes names from the table */
		errno = EINVAL;
		return -1;
	}
	struct compare_ctx c = {.st = st, .runs = runs, .n = n, .o = o, .first_json = 1};
	c.cs = xcalloc(n, sizeof(*c.cs));
	c.nc = xcalloc(n, sizeof(*c.nc));
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		rc = curves_load(st, runs[i], &c.cs[i], &c.nc[i]);
		for (size_t k = 0; rc == 0 && w->terminal && k < c.nc[i]; k++)
			escape_curve_text(&c.cs[i][k]);
	}
	if (rc == 0 && w->begin)
		w->begin(f, &c);
	for (size_t b = 0; rc == 0 && b < c.nc[0]; b++) {
		const struct curve *base = &c.cs[0][b];
		const struct curve **others = xcalloc(n, sizeof(*others));
		for (size_t i = 1; i < n; i++) {
			others[i - 1] = find_curve(c.cs[i], c.nc[i], base);
			if (!others[i - 1])
				others[i - 1] = &missing;
		}
		c.base = base;
		c.others = others;
		struct row *rows = align(&c, base);
		c.rows = rows;
		c.nr = base->count;
		w->block(f, &c);
		for (size_t r = 0; r < base->count; r++)
			free(rows[r].cells);
		free(rows);
		free(others);
	}
	if (rc == 0 && w->end)
		w->end(f, &c);
	*regressed = c.regressed;
	for (size_t i = 0; i < n; i++)
		if (c.cs[i])
			curves_free(c.cs[i], c.nc[i]);
	free(c.cs);
	free(c.nc);
	return rc;
}

int report_osync_ratio(FILE *f, struct store *st, int64_t run)
{
	struct curve *cs;
	size_t n;
	if (curves_load(st, run, &cs, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		escape_curve_text(&cs[i]);
	int found = 0;
	for (size_t i = 0; i < n; i++) {
		if (!cs[i].osync)
			continue;
		struct curve off_like = cs[i];
		off_like.osync = 0;
		const struct curve *off = find_curve(cs, n, &off_like);
		if (!off)
			continue;
		found = 1;
		fprintf(f, "\nWorkload %s: O_SYNC on against off\nTasks  JPM on     JPM off    on/off\n", cs[i].workload);
		for (size_t r = 0; r < cs[i].count; r++) {
			const struct curve_point *p_off = curve_at(off, cs[i].points[r].tasks);
			if (p_off && p_off->jpm.mean > 0)
				fprintf(f, "%-6d %-10.1f %-10.1f %.3f\n", cs[i].points[r].tasks, cs[i].points[r].jpm.mean,
					p_off->jpm.mean, cs[i].points[r].jpm.mean / p_off->jpm.mean);
		}
	}
	curves_free(cs, n);
	if (!found)
		fprintf(f, "run %lld has no workload measured with O_SYNC both on and off (use --osync both)\n",
			(long long)run);
	return 0;
}
