/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The resolved plan (`--dry-run`), read from its schedule: each workload's options from the option
 * table, its task counts, how many points it will measure and, from stored runs, how long that will
 * take. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/cfg.h"
#include "report/report.h"
#include "util/util.h"

static void fmt_duration(char *buf, size_t len, double s)
{
	if (s < 60)
		snprintf(buf, len, "%.1fs", s);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
	else
		snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)s % 3600 / 60);
}

static void print_points(FILE *f, const struct schedule_workload *sw, int nosync)
{
	const struct workload *wl = sw->wl;
	const struct run_opts *o = &wl->opts;
	size_t least = sw->least_points, most = sw->most_points; /* over its blocks: O_SYNC settings, CPU counts */
	const char *rounds = o->repeat > 1 ? "rounds" : "round", *settings = nosync > 1 ? "settings" : "setting";
	char axes[160] = "";
	size_t loads = sw->nloads;
	if (loads)
		snprintf(axes, sizeof(axes), " x %zu loads%s", loads,
			 sw->passes > sw->arms ? ", cache's point twice, its cold pass unstored" : "");
	if (o->cpus.count)
		snprintf(axes + strlen(axes), sizeof(axes) - strlen(axes), " x %zu CPU count%s", o->cpus.count,
			 o->cpus.count > 1 ? "s" : "");
	switch (o->mode) {
	case MODE_SINGLE:
		fprintf(f, "  Points: one per test (%zu) after its calibration points\n", wl->wf.count);
		break;
	case MODE_PEAK:
		fprintf(f, "  Points: as many as the search needs, task counts from %d to %lld, %lld %s each, "
			   "x %d O_SYNC %s\n",
			sw->pts[0].tasks, o->max_tasks, o->repeat, rounds, nosync, settings);
		break;
	default:
		if (o->variants.count || o->precision > 0) {
			long long lo = sw->rounds.least, hi = sw->rounds.most;
			fprintf(f, "  Points: %zu", least);
			if (most != least)
				fprintf(f, " to %zu", most);
			fprintf(f, " (%zu task counts x ", sw->nlisted);
			if (lo != hi)
				fprintf(f, "%lld to %lld rounds, until each is within %g%%", lo, hi, o->precision);
			else
				fprintf(f, "%lld %s", lo, lo > 1 ? "rounds" : "round");
			if (o->variants.count)
				fprintf(f, " x %zu variants", o->variants.count);
			fprintf(f, " x %d O_SYNC %s%s)\n", nosync, settings, axes);
		} else if (least == most)
			fprintf(f, "  Points: %zu (%zu task counts x %lld %s x %d O_SYNC %s%s)\n", least, sw->nlisted,
				o->repeat, rounds, nosync, settings, axes);
		else
			fprintf(f, "  Points: %zu to %zu (%zu listed task counts x %lld %s, then doubling up to "
				   "%lld tasks while Jobs/Min per task stays above %g; x %d O_SYNC %s%s)\n",
				least, most, sw->nlisted, o->repeat, rounds,
				o->max_tasks, o->threshold, nosync, settings, axes);
	}
	if (o->warmup > 0 && o->mode != MODE_SINGLE)
		fprintf(f, "  Warm-up: %lld %s at %d tasks before each O_SYNC setting's points, not stored\n",
			o->warmup, o->warmup > 1 ? "points" : "point", sw->pts[0].tasks);
}

/* How much longer a point takes over every --cpus count than once on every CPU (what the stored
 * runs measured): a CPU-bound point of T tasks at C CPUs takes min(T, online) / min(T, C) times as
 * long, an upper bound for a mix that also waits on disk. 1 without --cpus. */
static double cpus_factor(const struct run_opts *o, int tasks)
{
	if (!o->cpus.count)
		return 1;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	double all = (double)(online > 0 && online < tasks ? online : tasks), sum = 0;
	for (size_t c = 0; c < o->cpus.count; c++)
		sum += all / (double)(o->cpus.n[c] < tasks ? o->cpus.n[c] : tasks);
	return sum;
}

/* The estimate of one O_SYNC setting from the stored run that measured most of its task
 * counts; 0 with *seconds set when complete, 1 when partial or none (then it says why). */
static int print_estimate(FILE *f, const struct schedule_workload *sw, int osync, struct store *st, double *seconds)
{
	const struct workload *wl = sw->wl;
	const struct run_opts *o = &wl->opts;
	*seconds = 0;
	fprintf(f, "  Estimate, O_SYNC %s: ", osync ? "on" : "off");
	if (!st) {
		fprintf(f, "none (no results database)\n");
		return 1;
	}
	size_t per_task = sw->pts[0].jobs_per_task;
	struct store_estimate e;
	const struct store_estimate_ask ask = {.workfile_name = wl->wf.name,
					       .jobs_per_task = o->jobs_per_task,
					       .per_task = (int64_t)per_task,
					       .osync = osync,
					       .tasks = o->tasks.n,
					       .ntasks = o->tasks.count};
	if (store_estimate(st, &ask, &e) < 0) {
		fprintf(f, "none (%s)\n", store_error(st));
		store_estimate_free(&e);
		return 1;
	}
	if (e.run_id == 0) {
		fprintf(f, "none (no stored run of workfile %s with %lld jobs per task (P = %zu) and O_SYNC %s)\n",
			wl->wf.name, o->jobs_per_task, per_task, osync ? "on" : "off");
		store_estimate_free(&e);
		return 1;
	}
	long long rounds = sw->rounds.least;
	for (size_t i = 0; i < sw->nlisted; i++)
		if (e.seconds[i] >= 0)
			*seconds += e.seconds[i] * (double)rounds * (double)sw->passes * cpus_factor(o, sw->pts[i].tasks);
	/* the warm-up points run at the first task count, before this setting's points */
	long long warmup = o->mode == MODE_SINGLE ? 0 : o->warmup;
	if (warmup > 0 && e.seconds[0] >= 0)
		*seconds += e.seconds[0] * (double)warmup;
	char d[32];
	fmt_duration(d, sizeof(d), *seconds);
	int growing = o->mode == MODE_CROSSOVER || o->mode == MODE_QUICK, more_rounds = rounds != sw->rounds.most;
	int partial = e.matched < o->tasks.count;
	fprintf(f, "%s%s%s%s%s, from run %lld (label %s, %s)", growing || partial || more_rounds ? "at least " : "",
		d, warmup > 0 && e.seconds[0] >= 0 ? " with the warm-up" : "", growing ? " for the listed task counts" : "",
		more_rounds ? " for the fewest rounds" : "", (long long)e.run_id, e.label, e.started);
	if (partial) {
		fprintf(f, ", which has no point at");
		for (size_t i = 0; i < o->tasks.count; i++)
			if (e.seconds[i] < 0)
				fprintf(f, " %d", o->tasks.n[i]);
		fprintf(f, " tasks");
	}
	fputc('\n', f);
	store_estimate_free(&e);
	return growing || partial || more_rounds;
}

void report_plan(FILE *f, const struct schedule *s, struct store *st)
{
	const struct plan *p = s->plan;
	fprintf(f, "Suite %s%s%s\n", p->suite_name, p->suite_path ? " from " : "", p->suite_path ? p->suite_path : "");
	size_t total = 0;
	double seconds = 0;
	int more_points = 0, no_time = 0; /* the total is a lower bound; the time is not known */
	for (size_t w = 0; w < s->nwl; w++) {
		const struct schedule_workload *sw = &s->wl[w];
		const struct workload *wl = sw->wl;
		const struct run_opts *o = &wl->opts;
		size_t per_task = sw->pts[0].jobs_per_task;
		fprintf(f, "\nWorkload %s: workfile %s (%zu tests), jobs per task P = %zu\n", wl->name, wl->wf.path,
			wl->wf.count, per_task);
		for (size_t i = 0; i < option_count; i++) {
			char *v = option_text(o, &option_table[i]);
			fprintf(f, "  %-16s %s\n", option_table[i].key, v);
			free(v);
		}
		fprintf(f, "  %-8s %-12s %-14s %s\n", "Tasks", "File KiB", "Jobs", "Disk space");
		for (size_t i = 0; i < sw->nlisted && o->mode != MODE_SINGLE; i++) {
			int n = sw->pts[i].tasks;
			long long kib = sw->pts[i].file_kib;
			/* each task holds at most one file of n KiB at a time, plus one source per dir */
			long long space = kib * (n + (long long)o->dirs.count);
			fprintf(f, "  %-8d %-12lld %-14zu %.1f MiB\n", n, kib, per_task * (size_t)n, (double)space / 1024);
		}
		if (o->mode == MODE_SINGLE) /* each test alone in one task */
			fprintf(f, "  %-8d %-12lld %-14s %.1f MiB\n", 1, sw->pts[0].file_kib, "calibrated",
				(double)(sw->pts[0].file_kib * (1 + (long long)o->dirs.count)) / 1024);
		int nosync = o->osync == OSYNC_BOTH && o->mode != MODE_SINGLE ? 2 : 1;
		print_points(f, sw, nosync);
		if (o->mode == MODE_SINGLE || o->mode == MODE_PEAK) {
			/* calibration and the search decide how many points these take */
			fprintf(f, "  Estimate: none (in %s mode the points depend on what is measured)\n",
				mode_names[o->mode]);
			total += sw->least_points;
			more_points = 1;
			no_time = 1;
			continue;
		}
		size_t least = sw->least_points, most = sw->most_points;
		total += least;
		more_points |= least != most;
		static const int both[] = {0, 1}; /* off first, as the blocks run and print */
		for (int k = 0; k < nosync; k++) {
			double secs;
			no_time |= print_estimate(f, sw, nosync == 2 ? both[k] : o->osync, st, &secs);
			seconds += secs;
		}
	}
	if (p->nwl < 2)
		return;
	char d[32];
	fmt_duration(d, sizeof(d), seconds);
	fprintf(f, "\nIn all: %s%zu points", more_points ? "at least " : "", total);
	if (no_time)
		fprintf(f, "; no estimate of the whole time (see each workload)\n");
	else
		fprintf(f, ", about %s\n", d);
}
