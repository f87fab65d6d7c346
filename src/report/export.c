/* Machine-readable exports: classic re-aim CSV, JSON with every figure, LKP-style
 * "name: value" lines, and the classic AIM Suite VII block. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/classic.h"
#include "report/report.h"
#include "util/util.h"

#define EXPORT_FORMAT_VERSION 1

static void csv(FILE *f, const struct store_point *p, size_t n)
{
	fprintf(f, "Forks,JPM,JPM_C,JPS_C,parent_tm,childU_tm,childS_tm,std_dev,JTI,max_c,min_c\n");
	for (size_t i = 0; i < n; i++)
		if (p[i].valid)
			fprintf(f, "%d,%.2f,%.2f,%.4f,%.2f,%.2f,%.2f,%.4f,%.0f,%.2f,%.2f\n", p[i].tasks,
				p[i].jobs_per_min, p[i].jobs_per_min_task, p[i].jobs_per_min_task / 60.0,
				p[i].real_s, p[i].user_s, p[i].sys_s, p[i].std_dev_s, p[i].jti, p[i].max_task_s,
				p[i].min_task_s);
}

static void lkp(FILE *f, const struct store_point *p, size_t n)
{
	double max = 0;
	for (size_t i = 0; i < n; i++) {
		if (!p[i].valid)
			continue;
		fprintf(f, "tasks: %d\njobs_per_min: %.2f\njobs_per_min_child: %.2f\nparent_time: %.2f\n"
			   "child_utime: %.2f\nchild_systime: %.2f\nstd_dev_time: %.4f\nstd_dev_percent: %.2f\n"
			   "jti: %.0f\n\n",
			p[i].tasks, p[i].jobs_per_min, p[i].jobs_per_min_task, p[i].real_s, p[i].user_s,
			p[i].sys_s, p[i].std_dev_s, p[i].std_dev_pct, p[i].jti);
		max = p[i].jobs_per_min > max ? p[i].jobs_per_min : max;
	}
	fprintf(f, "max_jobs_per_min: %.2f\n", max);
}

static void classic(FILE *f, const struct store_run_row *run, const struct store_point *p, size_t n)
{
	fprintf(f, "AIM Multiuser Benchmark - Suite VII Run Beginning\n\n");
	fprintf(f, "Tasks    Jobs/Min    JTI    Real      CPU    Jobs/sec/task\n");
	for (size_t i = 0; i < n; i++)
		if (p[i].valid)
			fprintf(f, "%-8d %-11.1f %-6.0f %-9.1f %-6.1f %.4f\n", p[i].tasks, p[i].jobs_per_min,
				p[i].jti, p[i].real_s, p[i].cpu_s, p[i].jobs_per_min_task / 60.0);
	fprintf(f, "\nAIM Multiuser Benchmark - Suite VII Testing Over (%s, %s)\n", run->suite, run->label);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_tests(FILE *f, struct store *st, int64_t point_id)
{
	struct store_test *t;
	size_t n;
	fprintf(f, "\"tests\": [");
	if (store_get_tests(st, point_id, &t, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			fprintf(f, "%s{\"name\": ", i ? ", " : "");
			json_str(f, t[i].name);
			fprintf(f, ", \"count\": %lld, \"total_s\": %.17g, \"min_s\": %.17g, \"max_s\": %.17g, "
				   "\"mean_s\": %.17g, \"p50_s\": %.17g, \"p90_s\": %.17g, \"p99_s\": %.17g, "
				   "\"over_2s\": %lld}",
				(long long)t[i].count, t[i].total_s, t[i].min_s, t[i].max_s, t[i].mean_s, t[i].p50_s,
				t[i].p90_s, t[i].p99_s, (long long)t[i].over_2s);
		}
		free(t);
	}
	fprintf(f, "]");
}

static void json_samples(FILE *f, struct store *st, int64_t point_id)
{
	struct store_sample *x;
	size_t n;
	if (store_get_samples(st, point_id, &x, &n) < 0 || n == 0)
		return;
	fprintf(f, "\"samples\": [");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s{\"t_s\": %.17g, \"user_pct\": %.17g, \"sys_pct\": %.17g, \"iowait_pct\": %.17g, "
			   "\"idle_pct\": %.17g, \"read_kbs\": %.17g, \"write_kbs\": %.17g, \"util_pct\": %.17g, "
			   "\"ctxt_per_s\": %.17g}",
			i ? ", " : "", x[i].t_s, x[i].user_pct, x[i].sys_pct, x[i].iowait_pct, x[i].idle_pct, x[i].read_kbs,
			x[i].write_kbs, x[i].util_pct, x[i].ctxt_per_s);
	fprintf(f, "], ");
	free(x);
}

static void json(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *p,
		 size_t n)
{
	fprintf(f, "{\"format_version\": %d, \"run\": {\"id\": %lld, \"uuid\": ", EXPORT_FORMAT_VERSION,
		(long long)run->id);
	json_str(f, run->uuid);
	const char *keys[] = {"label", "suite", "status", "started", "mode", "reason"};
	const char *vals[] = {run->label, run->suite, run->status, run->started, run->mode, run->reason};
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		fprintf(f, ", \"%s\": ", keys[i]);
		json_str(f, vals[i]);
	}
	fprintf(f, "}, \"environment\": {");
	char **kv;
	size_t nkv;
	if (store_get_env(st, run->id, &kv, &nkv) == 0) {
		for (size_t i = 0; i < nkv; i++) {
			char *tab = strchr(kv[i], '\t');
			*tab = '\0';
			fprintf(f, "%s", i ? ", " : "");
			json_str(f, kv[i]);
			fprintf(f, ": ");
			json_str(f, tab + 1);
			free(kv[i]);
		}
		free(kv);
	}
	fprintf(f, "}, \"points\": [");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\n{\"workload\": ", i ? "," : "");
		json_str(f, p[i].workload);
		fprintf(f, ", \"osync\": %d, \"tasks\": %d, \"repeat\": %d, \"valid\": %s, \"reason\": ",
			p[i].osync, p[i].tasks, p[i].repeat, p[i].valid ? "true" : "false");
		json_str(f, p[i].reason);
		fprintf(f, ", \"jobs_per_task\": %lld, \"file_kib\": %lld, \"jobs_per_min\": %.17g, "
			   "\"jobs_per_min_task\": %.17g, \"real_s\": %.17g, \"user_s\": %.17g, \"sys_s\": %.17g, "
			   "\"cpu_s\": %.17g, \"std_dev_s\": %.17g, \"std_dev_pct\": %.17g, \"jti\": %.17g, "
			   "\"min_task_s\": %.17g, \"max_task_s\": %.17g, \"min_task_index\": %d, "
			   "\"max_task_index\": %d, \"release_skew_s\": %.17g, \"overhead_s\": %.17g, ",
			(long long)p[i].jobs_per_task, (long long)p[i].file_kib, p[i].jobs_per_min,
			p[i].jobs_per_min_task, p[i].real_s, p[i].user_s, p[i].sys_s, p[i].cpu_s, p[i].std_dev_s,
			p[i].std_dev_pct, p[i].jti, p[i].min_task_s, p[i].max_task_s, p[i].min_task_index,
			p[i].max_task_index, p[i].release_skew_s, p[i].overhead_s);
		if (p[i].sampled)
			fprintf(f, "\"system\": {\"user_pct\": %.4g, \"sys_pct\": %.4g, \"iowait_pct\": %.4g, "
				   "\"idle_pct\": %.4g, \"read_kbs\": %.6g, \"write_kbs\": %.6g, \"read_iops\": %.6g, "
				   "\"write_iops\": %.6g, \"util_pct\": %.4g, \"ctxt_per_s\": %.6g, \"forks_per_s\": %.6g, "
				   "\"pgfault_per_s\": %.6g, \"sampler_cpu_pct\": %.4g}, ",
				p[i].user_pct, p[i].sys_pct, p[i].iowait_pct, p[i].idle_pct, p[i].read_kbs, p[i].write_kbs,
				p[i].read_iops, p[i].write_iops, p[i].util_pct, p[i].ctxt_per_s, p[i].forks_per_s,
				p[i].pgfault_per_s, p[i].sampler_cpu_pct);
		json_samples(f, st, p[i].id);
		json_tests(f, st, p[i].id);
		fprintf(f, "}");
	}
	fprintf(f, "]}\n");
}

int report_export(FILE *f, struct store *st, int64_t run_id, const char *format)
{
	struct store_run_row run;
	struct store_point *pts;
	size_t n;
	if (store_get_run(st, run_id, &run) < 0 || store_get_points(st, run_id, &pts, &n) < 0)
		return -1;
	if (strcmp(format, "csv") == 0)
		csv(f, pts, n);
	else if (strcmp(format, "lkp") == 0)
		lkp(f, pts, n);
	else if (strcmp(format, "classic") == 0)
		classic(f, &run, pts, n);
	else if (strcmp(format, "reaim7") == 0)
		report_reaim7(f, pts, n);
	else if (strcmp(format, "aim7") == 0)
		report_aim7(f, pts, n);
	else if (strcmp(format, "aim9") == 0)
		report_aim9(f, pts, n);
	else if (strcmp(format, "lava") == 0)
		report_lava(f, pts, n, strcmp(run.mode, "single") == 0);
	else
		json(f, st, &run, pts, n);
	free(pts);
	return 0;
}
