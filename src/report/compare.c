/* `reaim compare`: aligns runs by workload, O_SYNC setting and task count against the first
 * (the base), and says how much Jobs/Min moved and whether that is beyond the noise. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/stats.h"
#include "report/report.h"
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

/* A quoted CSV field: a label may hold commas and quotes. */
static void csv_field(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputs(*s == '"' ? "\"\"" : (char[2]){*s, 0}, f);
	fputc('"', f);
}

/* A JSON string body: quotes and backslashes escaped (curve text has no control characters). */
static void json_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
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
			csv_field(f, base->workload);
			fprintf(f, ",%s,%d,", base->osync ? "on" : "off", rows[r].tasks);
			csv_field(f, base->label);
			fprintf(f, ",%.2f,", rows[r].base->jpm.mean);
			csv_field(f, others[k]->label);
			fprintf(f, ",%.2f,%.2f,%.2f,%s,%.4g,%.4g,%.2f,%.2f,%.2f\n", c->mean, c->pct, c->sd_pct,
				c->judged ? (c->significant ? "yes" : "no") : "n/a", c->judged ? c->p : -1.0,
				c->rank_p, c->real_pct, c->user_pct, c->sys_pct);
		}
}

static void print_json_rows(FILE *f, const struct curve *base, const struct curve *const *others, size_t no,
			    const struct row *rows, size_t nr, int *first)
{
	for (size_t r = 0; r < nr; r++)
		for (size_t k = 0; k < no; k++) {
			const struct cell *c = &rows[r].cells[k];
			if (!c->present)
				continue;
			fprintf(f, "%s\n  {\"workload\": \"", *first ? "" : ",");
			json_text(f, base->workload);
			fprintf(f, "\", \"osync\": %d, \"tasks\": %d, \"base\": %.4f, "
				   "\"other\": %.4f, \"run\": %zu, \"pct\": %.4f, \"sd_pct\": %.4f, \"judged\": %s, "
				   "\"significant\": %s, \"p\": %.6g, \"rank_p\": %.6g, \"real_pct\": %.4f, \"user_pct\": %.4f, "
				   "\"sys_pct\": %.4f}",
				base->osync, rows[r].tasks, rows[r].base->jpm.mean,
				c->mean, k + 1, c->pct, c->sd_pct, c->judged ? "true" : "false",
				c->significant ? "true" : "false", c->judged ? c->p : -1.0, c->rank_p, c->real_pct, c->user_pct,
				c->sys_pct);
			*first = 0;
		}
	(void)others;
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

int report_compare(FILE *f, struct store *st, const int64_t *runs, size_t n, const struct compare_options *o,
		   int *regressed)
{
	struct curve **cs = xcalloc(n, sizeof(*cs));
	size_t *nc = xcalloc(n, sizeof(*nc));
	int rc = 0, first_json = 1;
	*regressed = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = curves_load(st, runs[i], &cs[i], &nc[i]);
	if (rc == 0 && o->format == CMP_TABLE) {
		fprintf(f, "Base: %s. Significance: Welch's t-test at %.0f%% confidence where both sides have at "
			   "least 2 repeats (* significant, ? cannot be judged: use -r 2 or more).\n",
			nc[0] ? cs[0][0].label : "run", 100 * (1 - o->alpha));
		fprintf(f, "Runs:");
		for (size_t i = 0; i < n; i++) {
			struct store_run_row r;
			if (store_get_run(st, runs[i], &r) == 0) {
				fputs(i ? "; " : " ", f);
				fput_text(f, r.label, 0);
				fprintf(f, " (run %lld, %s mode, %s, started %s)", (long long)r.id, r.mode, r.status, r.started);
			}
		}
		fputc('\n', f);
		for (size_t i = 1; i < n; i++)
			env_warnings(f, st, runs[0], runs[i]);
	}
	if (rc == 0 && o->format == CMP_CSV)
		fprintf(f, "workload,osync,tasks,base_label,base_jpm,label,jpm,pct,sd_pct,significant,p,rank_p,"
			   "real_pct,user_pct,sys_pct\n");
	if (rc == 0 && o->format == CMP_JSON)
		fprintf(f, "{\"format_version\": 1, \"alpha\": %g, \"rows\": [", o->alpha);
	for (size_t b = 0; rc == 0 && b < nc[0]; b++) {
		const struct curve *base = &cs[0][b];
		const struct curve **others = xcalloc(n, sizeof(*others));
		static const struct curve empty = {.label = "(missing)"};
		for (size_t i = 1; i < n; i++) {
			others[i - 1] = find_curve(cs[i], nc[i], base);
			if (!others[i - 1])
				others[i - 1] = &empty;
		}
		struct row *rows = xcalloc(base->count + 1, sizeof(*rows));
		for (size_t r = 0; r < base->count; r++) {
			rows[r].tasks = base->points[r].tasks;
			rows[r].base = &base->points[r];
			rows[r].cells = xcalloc(n, sizeof(struct cell));
			for (size_t k = 0; k + 1 < n; k++) {
				const struct curve_point *op = curve_at(others[k], rows[r].tasks);
				if (!op)
					continue;
				struct cell c = compare_point(rows[r].base, op, o->alpha);
				rows[r].cells[k] = c;
				int counts = c.significant || !c.judged;
				if (o->fail_above_pct > 0 && counts && c.pct < -o->fail_above_pct)
					*regressed = 1;
			}
		}
		if (o->format == CMP_TABLE || o->format == CMP_MARKDOWN) {
			fprintf(f, "\n%sWorkload %s, O_SYNC %s\n", o->format == CMP_MARKDOWN ? "### " : "", base->workload,
				base->osync ? "on" : "off");
			print_table(f, others, n - 1, rows, base->count, o->format == CMP_MARKDOWN);
			print_summary(f, base, others, n - 1, rows, base->count);
			for (size_t i = 1; i < n; i++)
				if (others[i - 1] != &empty) {
					print_system(f, st, runs[0], runs[i], base, others[i - 1]->label);
					print_movers(f, st, runs[0], runs[i], base, others[i - 1]->label);
				}
		} else if (o->format == CMP_CSV) {
			print_csv_rows(f, base, others, n - 1, rows, base->count);
		} else {
			print_json_rows(f, base, others, n - 1, rows, base->count, &first_json);
		}
		for (size_t r = 0; r < base->count; r++)
			free(rows[r].cells);
		free(rows);
		free(others);
	}
	if (rc == 0 && o->format == CMP_JSON)
		fprintf(f, "\n], \"regressed\": %s}\n", *regressed ? "true" : "false");
	for (size_t i = 0; i < n; i++)
		if (cs[i])
			curves_free(cs[i], nc[i]);
	free(cs);
	free(nc);
	return rc;
}

int report_osync_ratio(FILE *f, struct store *st, int64_t run)
{
	struct curve *cs;
	size_t n;
	if (curves_load(st, run, &cs, &n) < 0)
		return -1;
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
