/* The classic Tasks / Jobs/Min / Real / CPU table, shared by live runs and `reaim show`. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/report.h"
#include "util/util.h"

void report_block_heading(FILE *f, const char *workload, int osync)
{
	fputs("\nWorkload ", f);
	fput_text(f, workload, 0);
	fprintf(f, ", O_SYNC %s\n", osync ? "on" : "off");
}

void report_table_header(FILE *f, int verbose)
{
	fprintf(f, "Tasks\tJobs/Min\tReal\tCPU");
	if (verbose)
		fprintf(f, "\tJPM/Task\tJTI\tStdDev%%\tUser\tSys\tMinTask\tMaxTask");
	fputc('\n', f);
}

void report_table_row(FILE *f, const struct store_point *p, int verbose)
{
	if (!p->valid) {
		fprintf(f, "%d\tINVALID\t\t%.1f\t%.1f\t", p->tasks, p->real_s, p->cpu_s);
		fput_text(f, p->reason, 0);
		fputc('\n', f);
		return;
	}
	fprintf(f, "%d\t%.1f\t\t%.2f\t%.2f", p->tasks, p->jobs_per_min, p->real_s, p->cpu_s);
	if (verbose)
		fprintf(f, "\t%.2f\t\t%.0f\t%.1f\t%.1f\t%.1f\t%.2f\t%.2f", p->jobs_per_min_task, p->jti,
			p->std_dev_pct, p->user_s, p->sys_s, p->min_task_s, p->max_task_s);
	fputc('\n', f);
}

void report_repeats(FILE *f, const struct store_point *pts, size_t n)
{
	int repeated = 0;
	for (size_t i = 1; i < n; i++)
		repeated |= pts[i].tasks == pts[i - 1].tasks;
	if (!repeated)
		return;
	fprintf(f, "Over repeats:\nTasks\tJobs/Min\t±CV%%\tMin\tMax\tRuns\tReal\tCPU\n");
	double *jpm = calloc(n, sizeof(double)), *real = calloc(n, sizeof(double)), *cpu = calloc(n, sizeof(double));
	for (size_t s = 0, e; jpm && real && cpu && s < n; s = e) {
		size_t k = 0;
		for (e = s; e < n && pts[e].tasks == pts[s].tasks; e++)
			if (pts[e].valid) {
				jpm[k] = pts[e].jobs_per_min;
				real[k] = pts[e].real_s;
				cpu[k++] = pts[e].cpu_s;
			}
		struct summary j, r, c;
		measure_summary(jpm, k, &j);
		measure_summary(real, k, &r);
		measure_summary(cpu, k, &c);
		if (k)
			fprintf(f, "%d\t%.1f\t\t%.1f\t%.1f\t%.1f\t%zu/%zu\t%.2f\t%.2f\n", pts[s].tasks, j.mean, j.cv_pct,
				j.min, j.max, k, e - s, r.mean, c.mean);
	}
	free(jpm);
	free(real);
	free(cpu);
}

void report_max_line(FILE *f, const struct store_point *pts, size_t n)
{
	const struct store_point *best = NULL;
	for (size_t i = 0; i < n; i++)
		if (pts[i].valid && (!best || pts[i].jobs_per_min > best->jobs_per_min))
			best = &pts[i];
	if (best)
		fprintf(f, "Max Jobs per Minute %.1f at %d tasks\n", best->jobs_per_min, best->tasks);
	else
		fprintf(f, "Max Jobs per Minute: no valid point\n");
}
