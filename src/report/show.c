/* `reaim list`, `reaim show` and `reaim export`: reports that read only stored rows. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/util.h"

int report_list(FILE *f, struct store *st, const struct run_filter *filter)
{
	struct store_run_row *rows;
	size_t n;
	if (store_list_runs(st, filter, &rows, &n) < 0)
		return -1;
	fprintf(f, "%-5s %-20s %-11s %-12s %-24s %-12s %s\n", "ID", "Started", "Status", "Suite", "Label",
		"Host", "Points");
	/* suite, label and host are user text: escaped, padded by characters */
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%-5lld %-20s %-11s ", (long long)rows[i].id, rows[i].started, rows[i].status);
		fput_text(f, rows[i].suite, 12);
		fputc(' ', f);
		fput_text(f, rows[i].label, 24);
		fputc(' ', f);
		fput_text(f, rows[i].host, 12);
		fprintf(f, " %d/%d\n", rows[i].valid_points, rows[i].points);
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
}

/* The environment: the facts that matter most by default, every stored fact with -v. */
static void print_env(FILE *f, struct store *st, int64_t run_id, int verbose)
{
	static const char *const brief[] = {"hostname", "kernel.release", "cpu.model", "cpu.online", "memory.total",
					    "dir0.path", "dir0.fstype", "dir0.device", "dir0.scheduler"};
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
static size_t block_end(const struct store_point *pts, size_t n, size_t start)
{
	size_t e = start;
	while (e < n && pts[e].workload_id == pts[start].workload_id && pts[e].osync == pts[start].osync)
		e++;
	return e;
}

int report_show(FILE *f, struct store *st, int64_t run_id, int verbose, int tests, int samples)
{
	struct store_run_row run;
	struct store_point *pts;
	size_t n;
	if (store_get_run(st, run_id, &run) < 0 || store_get_points(st, run_id, &pts, &n) < 0)
		return -1;
	fprintf(f, "Run %lld  %s  label ", (long long)run.id, run.started);
	fput_text(f, run.label, 0);
	fputs("  suite ", f);
	fput_text(f, run.suite, 0);
	fprintf(f, "  mode %s  status %s\n", run.mode, run.status);
	if (run.reason[0]) {
		fputs("Reason: ", f);
		fput_text(f, run.reason, 0);
		fputc('\n', f);
	}
	print_env(f, st, run_id, verbose);
	for (size_t s = 0; s < n; s = block_end(pts, n, s)) {
		size_t e = block_end(pts, n, s);
		report_block_heading(f, pts[s].workload, pts[s].osync);
		report_table_header(f, verbose);
		for (size_t i = s; i < e; i++)
			report_table_row(f, &pts[i], verbose);
		report_max_line(f, pts + s, e - s);
		report_repeats(f, pts + s, e - s);
		if (verbose)
			for (size_t i = s; i < e; i++)
				print_system(f, &pts[i]);
		if (samples)
			for (size_t i = s; i < e; i++)
				print_samples(f, st, &pts[i]);
		if (tests) {
			for (size_t i = s; i < e; i++)
				print_tests(f, st, &pts[i]);
		} else {
			const struct store_point *peak = NULL;
			for (size_t i = s; i < e; i++)
				if (pts[i].valid && (!peak || pts[i].jobs_per_min > peak->jobs_per_min))
					peak = &pts[i];
			if (peak) {
				fprintf(f, "Per test at the peak (--tests for every point):\n");
				print_tests(f, st, peak);
			}
		}
	}
	free(pts);
	return 0;
}
