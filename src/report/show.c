/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `reaim list` and `reaim show`: reports that read only stored rows (`reaim export` is export.c). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/noise.h"
#include "analysis/scaling.h"
#include "config/cfg.h"
#include "measure/measure.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

/* A running run's status with its progress, "running 7/24": points stored of the planned
 * ones ("≤40" when growing modes may stop sooner, "?" when the modes cannot say). */
static void status_text(const struct store_run_row *r, char *buf, size_t len)
{
	if (strcmp(r->status, "running") != 0)
		snprintf(buf, len, "%s", r->status);
	else if (r->planned_points <= 0)
		snprintf(buf, len, "running %d/?", r->points);
	else
		snprintf(buf, len, "running %d/%s%lld", r->points, r->planned_exact ? "" : "≤",
			 (long long)r->planned_points);
}

/* Columns on a terminal: UTF-8 continuation bytes take none. */
static int text_width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* The width user text takes once escaped, as fput_text prints it. */
static int shown_width(const char *s)
{
	char *safe = text_escape(s);
	int w = text_width(safe);
	free(safe);
	return w;
}

static int widest(int w, int candidate)
{
	return candidate > w ? candidate : w;
}

int report_list(FILE *f, struct store *st, const struct run_filter *filter)
{
	struct store_run_row *rows;
	size_t n;
	if (store_list_runs(st, filter, &rows, &n) < 0)
		return -1;
	char status[64], id[24];
	/* every column as wide as its widest entry (at least its heading), so no status, label or id pushes
	 * the next one, and a usual run's line keeps within 80 columns */
	int wid = 2, wstatus = 6, wsuite = 5, wmode = 4, wlabel = 5, whost = 4, wbest = 8, hosts = 0;
	char best[32];
	for (size_t i = 0; i < n; i++) {
		status_text(&rows[i], status, sizeof(status));
		wid = widest(wid, snprintf(id, sizeof(id), "%lld", (long long)rows[i].id));
		wstatus = widest(wstatus, text_width(status));
		wsuite = widest(wsuite, shown_width(rows[i].suite));
		wmode = widest(wmode, shown_width(rows[i].mode));
		wlabel = widest(wlabel, shown_width(rows[i].label));
		whost = widest(whost, shown_width(rows[i].host));
		hosts |= strcmp(rows[i].host, rows[0].host) != 0; /* one host's database: no Host column */
		wbest = widest(wbest, snprintf(best, sizeof(best), "%.1f", rows[i].best_jpm));
	}
	fprintf(f, "%-*s %-17s %-*s %-*s %-*s %-*s %-*s%s%-*s %s\n", wid, "ID", "Started", wstatus, "Status", wsuite,
		"Suite", wmode, "Mode", wlabel, "Label", hosts ? whost : 0, hosts ? "Host" : "", hosts ? " " : "",
		wbest, "Best JPM", "Points");
	/* suite, label and host are user text: escaped, padded by characters */
	for (size_t i = 0; i < n; i++) {
		status_text(&rows[i], status, sizeof(status));
		char started[sizeof(rows[i].started) + 1];
		const char *st_at = rows[i].started;
		size_t sl = strlen(st_at);
		/* to the minute, as ISO 8601 allows: "2026-12-03T06:48Z" (show gives the seconds) */
		if (sl == 20 && st_at[19] == 'Z')
			snprintf(started, sizeof(started), "%.16sZ", st_at);
		else
			snprintf(started, sizeof(started), "%s", st_at);
		fprintf(f, "%-*lld %-17s %s%*s ", wid, (long long)rows[i].id, started, status,
			wstatus - text_width(status), "");
		fput_text(f, rows[i].suite, wsuite);
		fputc(' ', f);
		fput_text(f, rows[i].mode, wmode);
		fputc(' ', f);
		fput_text(f, rows[i].label, wlabel);
		if (hosts) {
			fputc(' ', f);
			fput_text(f, rows[i].host, whost);
		}
		snprintf(best, sizeof(best), isfinite(rows[i].best_jpm) ? "%.1f" : "-", rows[i].best_jpm);
		fprintf(f, " %-*s %d/%d\n", wbest, best, rows[i].valid_points, rows[i].points);
	}
	free(rows);
	return 0;
}

static void print_tests(FILE *f, struct store *st, const struct store_point *p)
{
	struct store_test *t;
	size_t n;
	if (store_get_tests(st, p->id, &t, &n) < 0 || n == 0)
		return;
	fprintf(f, "  %d tasks: %-18s %8s %10s %10s %10s %10s %10s %6s\n", p->tasks, "test", "jobs", "mean ms",
		"p50 ms", "p90 ms", "p99 ms", "max ms", ">2s%");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %*s %-18s %8lld %10.3f %10.3f %10.3f %10.3f %10.3f %6.2f\n", 8, "", t[i].name,
			(long long)t[i].count, t[i].mean_s * 1e3, t[i].p50_s * 1e3, t[i].p90_s * 1e3,
			t[i].p99_s * 1e3, t[i].max_s * 1e3,
			t[i].count ? 100.0 * (double)t[i].over_2s / (double)t[i].count : 0.0);
	free(t);
}

/* How far the histogram's percentiles can be from the measured job times. */
static void print_resolution(FILE *f)
{
	fprintf(f, "  (p50, p90 and p99 from a histogram of %u buckets per power of two: within %.2f %%)\n", HIST_SUB,
		HIST_RESOLUTION_PCT);
}

/* What the point's cgroup measured, where it did: CPU beside wait4's, own I/O, memory peak, pressure. */
static void print_cgroup(FILE *f, const struct store_point *p)
{
	static const char *const kinds[] = {"cpu", "io", "memory"};
	const double some[] = {p->psi_cpu_some_pct, p->psi_io_some_pct, p->psi_mem_some_pct};
	const double full[] = {p->psi_cpu_full_pct, p->psi_io_full_pct, p->psi_mem_full_pct};
	if (!isfinite(p->cgroup_cpu_s))
		return;
	char wait4[48];
	fprintf(f, "  %*s cgroup: CPU %.3f s (wait4 %s s)", 8, "", p->cgroup_cpu_s,
		textout_fig(wait4, sizeof(wait4), p->cpu_s, "%.3f", p->cpu_s));
	if (isfinite(p->io_read_bytes))
		fprintf(f, "; own disk I/O read %.0f KiB in %.0f IOs, write %.0f KiB in %.0f IOs",
			p->io_read_bytes / 1024, p->io_read_ios, p->io_write_bytes / 1024, p->io_write_ios);
	if (isfinite(p->mem_peak_bytes))
		fprintf(f, "; memory peak %.1f MiB", p->mem_peak_bytes / 1048576);
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		if (!isfinite(some[k]))
			continue;
		fprintf(f, "; stalled on %s %.1f%% some", kinds[k], some[k]);
		if (isfinite(full[k]))
			fprintf(f, ", %.1f%% full", full[k]);
	}
	fputc('\n', f);
}

/* The sampler's averages of a point and its fastest and slowest task. */
static void print_system(FILE *f, const struct store_point *p)
{
	if (!p->valid)
		return;
	fprintf(f, "  %d tasks: fastest task %d %.2f s, slowest task %d %.2f s", p->tasks, p->min_task_index,
		p->min_task_s, p->max_task_index, p->max_task_s);
	if (p->sampled)
		fprintf(f, "; cpu user %.1f%% sys %.1f%% iowait %.1f%% idle %.1f%%; disk read %.0f KB/s write %.0f KB/s "
			   "%.0f IOPS util %.0f%%; %.0f cs/s %.0f forks/s",
			p->user_pct, p->sys_pct, p->iowait_pct, p->idle_pct, p->read_kbs, p->write_kbs,
			p->read_iops + p->write_iops, p->util_pct, p->ctxt_per_s, p->forks_per_s);
	fputc('\n', f);
	if (p->sampled && isfinite(p->outside_cpu_pct)) {
		fprintf(f, "  %*s outside the run: CPU %.1f%% of the machine, steal %.1f%%", 8, "", p->outside_cpu_pct,
			p->steal_pct);
		if (isfinite(p->outside_read_bytes))
			fprintf(f, ", others' disk I/O read %.0f KiB write %.0f KiB", p->outside_read_bytes / 1024,
				p->outside_write_bytes / 1024);
		fprintf(f, "%s%s\n", noise_of_point(p) ? ": noisy, " : "",
			noise_of_point(p) ? noise_of_point(p) : "");
	}
	print_cgroup(f, p);
}

/* The environment: the facts that matter most by default, every stored fact with -v. */
static void print_env(FILE *f, struct store *st, int64_t run_id, int verbose)
{
	static const char *const brief[] = {"hostname", "kernel.release", "cpu.model", "cpu.online", "memory.total",
					    "dir0.path", "dir0.fstype", "dir0.device", "dir0.scheduler",
					    /* reaim lab: where the run's job is */
					    "lab.job_url", "lab.device", "lab.worker"};
	char **kv;
	size_t nkv;
	if (store_get_env(st, run_id, &kv, &nkv) < 0)
		return;
	for (size_t i = 0; i < nkv; i++) {
		char *tab = strchr(kv[i], '\t');
		int keyl = (int)(tab - kv[i]), shown = verbose;
		for (size_t k = 0; k < ARRAY_SIZE(brief) && !shown; k++)
			shown = (int)strlen(brief[k]) == keyl && strncmp(brief[k], kv[i], (size_t)keyl) == 0;
		if (shown) {
			fprintf(f, "  %-24.*s ", keyl, kv[i]);
			fput_text(f, tab + 1, 0);
			fputc('\n', f);
		}
		free(kv[i]);
	}
	free(kv);
}

/* How the run was made: its command line, program version and seed, and the run it repeats. */
static void print_origin(FILE *f, struct store *st, const struct store_run_row *run)
{
	char *cmdline = NULL, *suite_text = NULL;
	if (store_get_run_text(st, run->id, &cmdline, &suite_text) == 0)
		fprintf(f, "  %-24s %s\n", "command_line", cmdline);
	free(cmdline);
	free(suite_text);
	fprintf(f, "  %-24s %s\n  %-24s %lld\n", "version", run->version, "seed", (long long)run->seed);
	if (!run->rerun_of[0])
		return;
	int64_t of;
	struct store_run_row orig;
	if (store_resolve_run(st, run->rerun_of, &of) == 0 && store_get_run(st, of, &orig) == 0)
		fprintf(f, "  %-24s run %lld (label %s, %s)\n", "rerun_of", (long long)of, orig.label, orig.started);
	else
		fprintf(f, "  %-24s %s (not in this database)\n", "rerun_of", run->rerun_of);
}

int report_show_files(FILE *f, struct store *st, int64_t run_id)
{
	struct store_run_row run;
	struct store_workload_row *w;
	size_t nw;
	char *cmdline, *suite_text;
	if (store_get_run(st, run_id, &run) < 0 || store_get_run_text(st, run_id, &cmdline, &suite_text) < 0)
		return -1;
	if (suite_text[0])
		fprintf(f, "Suite %s as stored:\n%s%s", run.suite, suite_text,
			suite_text[strlen(suite_text) - 1] == '\n' ? "" : "\n");
	else
		fprintf(f, "Suite: none (the run was given a workfile)\n");
	free(cmdline);
	free(suite_text);
	if (store_get_workloads(st, run_id, &w, &nw) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < nw && rc == 0; i++) {
		int seen = 0; /* each workfile once, however many workloads (or single-mode tests) use it */
		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(w[k].workfile_name, w[i].workfile_name) == 0;
		char *text;
		if (seen || (rc = store_get_workfile_text(st, w[i].id, &text)) < 0)
			continue;
		fprintf(f, "Workfile %s as stored:\n%s%s", w[i].workfile_name, text,
			text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
		free(text);
	}
	free(w);
	return rc;
}

/* Every option each workload ran with (runs stored since schema version 4), for -v. */
static void print_options(FILE *f, struct store *st, int64_t run_id)
{
	struct store_option *o;
	size_t n;
	if (store_get_workload_options(st, run_id, &o, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || o[i].workload_id != o[i - 1].workload_id) {
			fputs("Options of workload ", f);
			fput_text(f, o[i].workload, 0);
			fputs(":\n", f);
		}
		fprintf(f, "  %-24s ", o[i].key);
		fput_text(f, o[i].value, 0);
		fputc('\n', f);
	}
	store_options_free(o, n);
}

/* The sampler's time series of a point: where in the point the time went. */
static void print_samples(FILE *f, struct store *st, const struct store_point *p)
{
	struct store_sample *x;
	size_t n;
	if (store_get_samples(st, p->id, &x, &n) < 0 || n == 0)
		return;
	fprintf(f, "  %d tasks: %7s %6s %6s %7s %6s %10s %10s %6s %9s\n", p->tasks, "t (s)", "user%", "sys%",
		"iowait%", "idle%", "read KB/s", "write KB/s", "util%", "cs/s");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %*s %7.2f %6.1f %6.1f %7.1f %6.1f %10.0f %10.0f %6.1f %9.0f\n", 8, "", x[i].t_s,
			x[i].user_pct, x[i].sys_pct, x[i].iowait_pct, x[i].idle_pct, x[i].read_kbs, x[i].write_kbs,
			x[i].util_pct, x[i].ctxt_per_s);
	free(x);
}

/* Rows of one workload and osync setting: pts[start..end). */
/* Whether a workload's points pts[s..e) ran O_SYNC on and off interleaved (as a sweep with --osync
 * both does): an off point ran before the last on point. The run printed them as one block. */
static int interleaved(const struct store_point *pts, size_t s, size_t e)
{
	int64_t last_on = -1, first_off = -1;
	for (size_t i = s; i < e; i++) {
		if (pts[i].osync && pts[i].id > last_on)
			last_on = pts[i].id;
		if (!pts[i].osync && (first_off < 0 || pts[i].id < first_off))
			first_off = pts[i].id;
	}
	return last_on >= 0 && first_off >= 0 && first_off < last_on;
}

/* The end of the block at start: its workload, CPU count and O_SYNC setting, or both settings when they ran
 * interleaved (*both is set then). */
static size_t block_end_of(const struct store_point *pts, size_t n, size_t start, int *both)
{
	size_t e = start, w = start;
	/* a workload at one CPU count (--cpus): its blocks ran apart from those of another count */
	while (w < n && pts[w].workload_id == pts[start].workload_id && pts[w].cpus == pts[start].cpus)
		w++;
	*both = interleaved(pts, start, w);
	if (*both)
		return w;
	while (e < w && pts[e].osync == pts[start].osync)
		e++;
	return e;
}

static size_t block_end(const struct store_point *pts, size_t n, size_t start)
{
	int both;
	return block_end_of(pts, n, start, &both);
}

/* --cpus: each task count's Jobs/Min at every CPU count and over that at the smallest, when a
 * workload was measured at two or more counts (analysis/scaling.c). */
static void print_scaling(FILE *f, const char *workload, const struct store_point *pts, size_t n)
{
	struct scaling sc;
	if (scaling_of(pts, n, &sc) != 0)
		return;
	fputs("\nScaling of workload ", f);
	fput_text(f, workload, 0);
	fprintf(f, ": Jobs/Min at each CPU count (mean of the valid rounds) and over %d CPU%s\n", sc.cpus[0],
		sc.cpus[0] == 1 ? "" : "s");
	int osyncs = 0, variants = 0;
	for (size_t i = 0; i < sc.nrows; i++) {
		osyncs |= 1 << (sc.rows[i].osync != 0);
		variants |= sc.rows[i].variant[0] != '\0';
	}
	fputs("Tasks", f);
	if (osyncs == 3)
		fputs("\tO_SYNC", f);
	if (variants)
		fputs("\tVariant", f);
	for (size_t k = 0; k < sc.ncpus; k++)
		fprintf(f, "\t%d CPU%s\tRatio", sc.cpus[k], sc.cpus[k] == 1 ? "" : "s");
	fputc('\n', f);
	for (size_t i = 0; i < sc.nrows; i++) {
		const struct scaling_row *r = &sc.rows[i];
		fprintf(f, "%d", r->tasks);
		if (osyncs == 3)
			fprintf(f, "\t%s", r->osync ? "on" : "off");
		if (variants) {
			fputc('\t', f);
			fput_text(f, r->variant, 0);
		}
		for (size_t k = 0; k < sc.ncpus; k++) {
			if (isfinite(r->jpm[k]))
				fprintf(f, "\t%.1f", r->jpm[k]);
			else
				fputs("\t-", f);
			if (isfinite(r->ratio[k]))
				fprintf(f, "\t%.2f", r->ratio[k]);
			else
				fputs("\t-", f);
		}
		fputc('\n', f);
	}
	scaling_free(&sc);
}

/* A run's workloads and its points, as stored. */
struct run_points {
	const struct store_workload_row *w;
	size_t nw;
	const struct store_point *pts;
	size_t n;
};

static int by_id(const void *a, const void *b)
{
	const struct store_point *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

static int mode_of(const char *name)
{
	for (int i = 0; mode_names[i]; i++)
		if (strcmp(mode_names[i], name) == 0)
			return i;
	return MODE_SWEEP;
}

/* A run interrupted (or still going) stopped inside its last block: that block claims no
 * peak and no single-user result, as the run itself printed none. */
static int run_stopped(const struct store_run_row *run)
{
	return strcmp(run->status, "interrupted") == 0 || strcmp(run->status, "running") == 0;
}

static const struct store_workload_row *workload_row(const struct store_workload_row *w, size_t nw, int64_t id)
{
	for (size_t i = 0; i < nw; i++)
		if (w[i].id == id)
			return &w[i];
	return NULL;
}

/* Where a point's --point-hook kept its output and how it ended (nothing for a point without one). */
static void print_hook(FILE *f, const struct store_point *p)
{
	if (!p->hook_dir[0])
		return;
	fprintf(f, "  %d tasks, round %d%s", p->tasks, p->repeat + 1, p->variant[0] ? ", variant " : "");
	fput_text(f, p->variant, 0);
	fputs(": point hook output in ", f);
	fput_text(f, p->hook_dir, 0);
	fputs(" (", f);
	fput_text(f, p->hook_end, 0);
	fputs(")\n", f);
}

/* The point's extras asked for by flags: system averages, time series, per-test figures. */
static void print_extras(FILE *f, struct store *st, const struct store_point *p, const struct report_show_flags *fl)
{
	print_hook(f, p);
	if (fl->verbose)
		print_system(f, p);
	if (fl->samples)
		print_samples(f, st, p);
	if (fl->tests)
		print_tests(f, st, p);
}

/* One block as the run printed it (rows in the order they ran), then what show adds. */
static void show_block(FILE *f, struct store *st, const struct report_block *b, const struct store_point *pts,
		       size_t n, int finished, const struct report_show_flags *fl)
{
	struct store_point *ran = xcalloc(n + 1, sizeof(*ran));
	memcpy(ran, pts, n * sizeof(*pts));
	qsort(ran, n, sizeof(*ran), by_id);
	if (fl->brief && b->plan.osync < 0) {
		/* to paste: each O_SYNC setting's table, without the rows as they ran interleaved */
		report_block_settings(f, b, ran, n, finished);
	} else {
		report_block_begin(f, b);
		for (size_t i = 0; i < n; i++)
			report_block_row(f, b, &ran[i]);
		report_block_end(f, b, ran, n, finished);
	}
	for (size_t i = 0; i < n && !fl->brief; i++)
		print_hook(f, &ran[i]);
	free(ran);
	if (fl->brief)
		return;
	if (fl->verbose)
		for (size_t i = 0; i < n; i++)
			print_system(f, &pts[i]);
	if (fl->samples)
		for (size_t i = 0; i < n; i++)
			print_samples(f, st, &pts[i]);
	if (fl->tests) {
		for (size_t i = 0; i < n; i++)
			print_tests(f, st, &pts[i]);
		print_resolution(f);
		return;
	}
	/* the best round at the task count of the highest mean, as the Max line names it (per variant and
	 * O_SYNC setting) */
	const char **names;
	size_t nv = curve_variants(pts, n, &names);
	struct store_point *one = xcalloc(n + 1, sizeof(*one));
	for (size_t k = 0; k < nv * 2; k++) {
		int osync = k % 2 == 0;
		if (b->plan.osync >= 0 && osync != b->plan.osync)
			continue;
		size_t m = curve_select_variant(pts, n, names[k / 2], one), kept = 0;
		for (size_t i = 0; i < m; i++)
			if (one[i].osync == osync)
				one[kept++] = one[i];
		m = kept;
		struct curve c;
		curve_from_points(&c, one, m, metric_find("jobs_per_min"));
		const struct curve_point *pk = curve_peak(&c);
		const struct store_point *peak = NULL;
		for (size_t i = 0; pk && i < m; i++)
			if (one[i].valid && one[i].tasks == pk->tasks &&
			    (!peak || one[i].jobs_per_min > peak->jobs_per_min))
				peak = &one[i];
		curve_free(&c);
		if (peak) {
			fprintf(f, "Per test at the peak%s%s%s (--tests for every point):\n",
				names[k / 2][0] ? " of variant " : "", names[k / 2],
				b->plan.osync < 0 ? (osync ? ", O_SYNC on" : ", O_SYNC off") : "");
			print_tests(f, st, peak);
			print_resolution(f);
		}
	}
	free(one);
	free(names);
}

/* Single-user mode: each test is a workload; the last of its points is the one that measured
 * it (the ones before calibrated the job count). A heading starts each workfile and O_SYNC
 * setting, as the run printed one per workload of its suite. */
static void show_single(FILE *f, struct store *st, const struct store_run_row *run, const struct run_points *rp,
			const struct report_show_flags *fl)
{
	const struct store_workload_row *w = rp->w;
	const struct store_point *pts = rp->pts;
	size_t nw = rp->nw, n = rp->n;
	const struct store_point **last = xcalloc(nw + 1, sizeof(*last));
	size_t final = nw;
	for (size_t i = 0; i < nw; i++) {
		for (size_t k = 0; k < n; k++)
			if (pts[k].workload_id == w[i].id && (!last[i] || pts[k].id > last[i]->id))
				last[i] = &pts[k];
		if (last[i])
			final = i;
	}
	const struct store_point *head = NULL; /* the first point under the current heading */
	size_t head_at = 0;
	for (size_t i = 0; i < nw; i++) {
		const struct store_point *p = last[i];
		if (!p)
			continue;
		int same = head && strcmp(w[head_at].workfile_name, w[i].workfile_name) == 0 &&
			   head->osync == p->osync && head->file_kib == p->file_kib;
		for (size_t k = head_at; same && k < i; k++)
			same = strcmp(w[k].name, w[i].name) != 0; /* a test seen again starts a new workload */
		if (!same) {
			report_single_begin(f, w[i].workfile_name, p->osync, (long long)p->file_kib);
			head = p;
			head_at = i;
		}
		if (!p->valid || (i == final && run_stopped(run)))
			continue;
		report_single_row(f, p);
		print_extras(f, st, p, fl);
	}
	free(last);
}

/* The value of one option of a workload as stored, or NULL (runs from before an option existed). */
static const char *option_of(const struct store_option *o, size_t n, int64_t wl_id, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (o[i].workload_id == wl_id && strcmp(o[i].key, key) == 0)
			return o[i].value;
	return NULL;
}

/* The rounds a block was planned with and the precision asked, from the workload's stored options:
 * a stored run has no live plan, and its rounds were not stored, so its options are read back and
 * resolved by the function its run's schedule resolved them with. */
static void block_rounds(const struct store_option *o, size_t n, const struct store_workload_row *wr,
			 struct report_block *b)
{
	struct run_opts ro;
	run_opts_defaults(&ro);
	ro.repeat = wr ? wr->repeat : 1;
	static const char *const keys[] = {"precision", "max_repeat"};
	for (size_t i = 0; wr && i < ARRAY_SIZE(keys); i++) {
		const char *v = option_of(o, n, wr->id, keys[i]);
		if (v)
			option_set(&ro, option_find(keys[i]), v, NULL, 0); /* a value it cannot read keeps the default */
	}
	const struct schedule_rounds r = schedule_rounds_of(&ro);
	b->plan.rounds = (int)r.most;
	b->plan.precision = ro.precision;
	b->plan.looks = (int)r.looks;
	run_opts_free(&ro);
}

/* What `show` says above the tables: the run, why it ended, where it came from, its environment. */
static void show_heading(FILE *f, struct store *st, const struct store_run_row *run, int verbose)
{
	fprintf(f, "Run %lld  %s  label ", (long long)run->id, run->started);
	fput_text(f, run->label, 0);
	fputs("  suite ", f);
	fput_text(f, run->suite, 0);
	fprintf(f, "  mode %s  status %s\n", run->mode, run->status);
	if (run->reason[0]) {
		fputs("Reason: ", f);
		fput_text(f, run->reason, 0);
		fputc('\n', f);
	}
	print_origin(f, st, run);
	print_env(f, st, run->id, verbose);
	if (verbose)
		print_options(f, st, run->id);
}

int report_show(FILE *f, struct store *st, int64_t run_id, const struct report_show_flags *flags)
{
	int verbose = flags->verbose, brief = flags->brief;
	struct store_run_row run;
	struct store_point *pts;
	struct store_workload_row *w;
	size_t n, nw;
	if (store_get_run(st, run_id, &run) < 0 || store_get_workloads(st, run_id, &w, &nw) < 0)
		return -1;
	if (store_get_points(st, run_id, &pts, &n) < 0) {
		free(w);
		return -1;
	}
	const struct report_show_flags fl = {.verbose = verbose && !brief, .tests = flags->tests && !brief,
				      .samples = flags->samples && !brief, .brief = brief};
	if (!brief)
		show_heading(f, st, &run, verbose);
	struct store_option *opts = NULL;
	size_t nopts = 0;
	if (store_get_workload_options(st, run_id, &opts, &nopts) < 0)
		nopts = 0;
	int mode = mode_of(run.mode);
	if (mode == MODE_SINGLE)
		show_single(f, st, &run, &(const struct run_points){.w = w, .nw = nw, .pts = pts, .n = n}, &fl);
	for (size_t s = 0; mode != MODE_SINGLE && s < n; s = block_end(pts, n, s)) {
		int both;
		size_t e = block_end_of(pts, n, s, &both);
		const struct store_workload_row *wr = workload_row(w, nw, pts[s].workload_id);
		struct report_block b = {
			.plan = {.workload = pts[s].workload,
				 .osync = both ? -1 : pts[s].osync,
				 .cpus = pts[s].cpus,
				 .mode = mode,
				 .rounds = wr ? (int)wr->repeat : 1,
				 .threshold = wr ? wr->threshold : 0},
			.verbose = verbose,
			.brief = brief,
		};
		block_rounds(opts, nopts, wr, &b);
		for (size_t i = s; i < e && !b.plan.variants; i++)
			b.plan.variants = pts[i].variant[0] != '\0';
		for (size_t i = s; i < e && !b.plan.loads; i++)
			b.plan.loads = pts[i].load[0] != '\0';
		show_block(f, st, &b, pts + s, e - s, !(e == n && run_stopped(&run)), &fl);
		if (e == n || pts[e].workload_id != pts[s].workload_id) { /* the workload's last block */
			size_t first = s;
			while (first > 0 && pts[first - 1].workload_id == pts[s].workload_id)
				first--;
			print_scaling(f, pts[s].workload, pts + first, e - first);
		}
	}
	store_options_free(opts, nopts);
	free(pts);
	free(w);
	return 0;
}
