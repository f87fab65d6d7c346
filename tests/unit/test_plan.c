/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks the classic job-count rounding, reproducible job orders, per-task file sizes and the
 * schedule a plan resolves into: its points in order with their facts, its blocks and how many
 * points it will measure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"
#include "tap.h"


/* The classic rounding of a mix's weights to jobs (a point's P), and each task's shuffled job list. */
static void jobs(struct workfile *wf)
{
	struct errlist errs = {0};
	struct run_opts o;
	run_opts_defaults(&o);
	ok(workfile_parse("mix", "10 add_int\n20 add_long\n30 sieve\n1 fork_test\n", wf, &errs) == 0, "mix parses");
	/* H = 61, J = 100: 16.4 -> 16, 32.8 -> 33, 49.2 -> 49, 1.6 -> 2 */
	o.jobs_per_task = 100;
	is_int(schedule_point_of(wf, &o, 8).jobs_per_task, 100, "P = 16 + 33 + 49 + 2");
	/* J = 1: every listed test still runs once */
	o.jobs_per_task = 1;
	is_int(schedule_point_of(wf, &o, 8).jobs_per_task, 4, "at least one job per listed test");
	run_opts_free(&o);

	struct job_list a, b, c;
	plan_job_list(wf, 100, 42, 0, &a);
	plan_job_list(wf, 100, 42, 0, &b);
	plan_job_list(wf, 100, 42, 1, &c);
	is_int(a.count, 100, "job list has P entries");
	ok(memcmp(a.test, b.test, a.count * sizeof(*a.test)) == 0, "same seed and task: same order");
	ok(memcmp(a.test, c.test, a.count * sizeof(*a.test)) != 0, "another task: another order");
	int counts[4] = {0};
	for (size_t i = 0; i < a.count; i++)
		counts[a.test[i]]++;
	ok(counts[0] == 16 && counts[1] == 33 && counts[2] == 49 && counts[3] == 2, "per-test counts kept");
	int sorted = 1;
	for (size_t i = 1; i < a.count; i++)
		sorted &= a.test[i] >= a.test[i - 1];
	ok(!sorted, "order is shuffled");
	job_list_free(&a);
	job_list_free(&b);
	job_list_free(&c);
	errlist_free(&errs);
}

static void file_sizes(void)
{
	struct run_opts o;
	struct workfile wf = {0};
	run_opts_defaults(&o);
	o.filesize_kib = 10;
	o.poolsize_kib = 1024;
	is_int(schedule_point_of(&wf, &o, 1).file_kib, 1034, "n = FILESIZE + POOLSIZE/1");
	is_int(schedule_point_of(&wf, &o, 8).file_kib, 138, "n = 10 + 1024/8");
	is_int(schedule_point_of(&wf, &o, 100).file_kib, 20, "n = 10 + 1024/100 (integer KiB)");
	o.poolsize_kib = 0;
	is_int(schedule_point_of(&wf, &o, 64).file_kib, 10, "POOLSIZE 0: n = FILESIZE");
	o.filesize_kib = 0;
	is_int(schedule_point_of(&wf, &o, 64).file_kib, 1, "never below 1 KiB");
	run_opts_free(&o);
}

/* Two workloads of one mix, defaults but for the options each case sets. */
struct fixture {
	struct workload wl[2];
	struct plan p;
	struct schedule s;
};

static void fixture_init(struct fixture *f, size_t nwl)
{
	memset(f, 0, sizeof(*f));
	f->p = (struct plan){.wl = f->wl, .nwl = nwl};
	for (size_t i = 0; i < 2; i++) {
		struct errlist errs = {0};
		run_opts_defaults(&f->wl[i].opts);
		f->wl[i].name = (char *)(i ? "second" : "first");
		ok(workfile_parse("mix", "10 add_int\n20 add_long\n30 sieve\n1 fork_test\n", &f->wl[i].wf, &errs) == 0,
		   "the fixture's mix parses");
		errlist_free(&errs);
	}
}

static void set(struct fixture *f, size_t w, const char *key, const char *value)
{
	char why[256] = "";
	if (option_set(&f->wl[w].opts, option_find(key), value, why, sizeof(why)) < 0) {
		printf("# %s=%s: %s\n", key, value, why);
		ok(0, "an option of the fixture is set");
	}
}

/* Resolve the plan afresh (the options changed). */
static const struct schedule_workload *remake(struct fixture *f)
{
	schedule_free(&f->s);
	schedule_make(&f->p, &f->s);
	return &f->s.wl[0];
}

static void fixture_free(struct fixture *f)
{
	schedule_free(&f->s);
	for (size_t i = 0; i < 2; i++) {
		run_opts_free(&f->wl[i].opts);
		workfile_free(&f->wl[i].wf);
	}
}

/* The task counts of a workload's points, "1,2,4" (g after a doubling), for one comparison. */
static const char *counts(const struct schedule_workload *sw)
{
	static char buf[400];
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sw->npts && n < sizeof(buf) - 16; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d%s", i ? "," : "", sw->pts[i].tasks,
				      sw->pts[i].grown ? "g" : "");
	return buf;
}

/* A sweep with --repeat: its points in order, each with its facts; one block; exactly its points. */
static void sweep_repeat(void)
{
	struct fixture f;
	fixture_init(&f, 1);
	set(&f, 0, "tasks", "1,2,4");
	set(&f, 0, "repeat", "3");
	f.wl[0].opts.filesize_kib = 10;
	f.wl[0].opts.poolsize_kib = 1024;
	const struct schedule_workload *sw = remake(&f);
	is_str(counts(sw), "1,2,4", "sweep: the listed counts in order");
	ok(sw->pts[0].file_kib == 1034 && sw->pts[1].file_kib == 522 && sw->pts[2].file_kib == 266,
	   "each point's file: 10 + 1024/tasks");
	ok(sw->pts[0].jobs_per_task == 100 && sw->pts[2].jobs_per_task == 100, "each point's P");
	ok(sw->rounds.least == 3 && sw->rounds.most == 3 && sw->rounds.looks == 1, "3 rounds, one look");
	ok(sw->nblocks == 1 && sw->blocks[0].osync == 1 && sw->blocks[0].cpus == 0 && sw->blocks[0].arms == 1,
	   "one block, O_SYNC on (the default), every CPU, one arm");
	is_int(sw->reach.tasks, 4, "it reaches its largest count");
	ok(f.s.count == PLAN_EXACT && f.s.points == 9 && f.s.least_points == 9, "3 task counts x 3 rounds, exactly");
	set(&f, 0, "osync", "both");
	sw = remake(&f);
	ok(sw->nblocks == 1 && sw->blocks[0].osync == -1 && sw->blocks[0].arms == 2,
	   "--osync both: one block, on and off two arms of it");
	ok(f.s.count == PLAN_EXACT && f.s.points == 18, "... twice the points");
	fixture_free(&f);
}

/* The --cpus and --load axes: a block per CPU count in the order listed, an arm per load. */
static void axes(void)
{
	struct fixture f;
	fixture_init(&f, 1);
	set(&f, 0, "tasks", "1,2");
	set(&f, 0, "cpus", "4,1");
	const struct schedule_workload *sw = remake(&f);
	ok(sw->nblocks == 2 && sw->blocks[0].cpus == 4 && sw->blocks[1].cpus == 1, "--cpus 4,1: a block each, in order");
	ok(f.s.count == PLAN_EXACT && f.s.points == 4, "2 task counts x 2 CPU counts");
	set(&f, 0, "load", "cache,mem");
	sw = remake(&f);
	ok(sw->arms == 3 && sw->passes == 4, "--load cache,mem: no_load, cache and mem, cache's point run twice");
	ok(f.s.points == 2 * 3 * 2, "2 task counts x 3 loads x 2 CPU counts");
	set(&f, 0, "variant", "a=true");
	set(&f, 0, "variant", "b=true");
	set(&f, 0, "precision", "2");
	sw = remake(&f);
	ok(sw->arms == 6 && sw->rounds.least == 3 && sw->rounds.most == 20 && sw->rounds.looks == 18,
	   "two variants x 3 loads; --precision: 3 to 20 rounds, 18 looks");
	ok(f.s.count == PLAN_AT_MOST && f.s.least_points == 2 * 3 * 6 * 2 && f.s.points == 2 * 20 * 6 * 2,
	   "--precision: from the least rounds' points to the most's");
	fixture_free(&f);
}

/* Every load at once, cache among them: no_load first and each once, within LOADS_MAX. */
static void every_load(void)
{
	struct fixture f;
	fixture_init(&f, 1);
	set(&f, 0, "load", "cache,mem,tar");
	set(&f, 0, "load", "list,read,io,process,cache,no_load");
	const struct schedule_workload *sw = remake(&f);
	is_int((long long)sw->nloads, 1 + 7, "every load: no_load and the seven others, each once");
	ok(sw->nloads > 1 && strcmp(sw->loads[0], "no_load") == 0 && strcmp(sw->loads[1], "cache") == 0 &&
	   strcmp(sw->loads[2], "mem") == 0, "every load: no_load first, then in the order given");
	ok(sw->arms == 8 && sw->passes == 9, "an arm each, cache's run twice");
	fixture_free(&f);
	fixture_init(&f, 1);
	sw = remake(&f);
	ok(sw->nloads == 0 && sw->arms == 1 && sw->passes == 1, "without --load: no loads, one arm");
	fixture_free(&f);
}

/* Crossover: the listed counts, then the last one doubled up to --max-tasks; a search runs its O_SYNC
 * settings as blocks of their own, off first. */
static void growing(void)
{
	struct fixture f;
	fixture_init(&f, 1);
	set(&f, 0, "tasks", "1,2,4");
	set(&f, 0, "repeat", "3");
	set(&f, 0, "mode", "crossover");
	set(&f, 0, "max_tasks", "32");
	set(&f, 0, "osync", "both");
	const struct schedule_workload *sw = remake(&f);
	is_str(counts(sw), "1,2,4,8g,16g,32g", "crossover: 4 doubles to 8, 16 and 32");
	ok(sw->nlisted == 3 && sw->reach.tasks == 32 && sw->reach.file_kib == sw->pts[5].file_kib,
	   "three listed, reaching 32 tasks");
	ok(sw->nblocks == 2 && sw->blocks[0].osync == 0 && sw->blocks[1].osync == 1, "off, then on");
	ok(f.s.count == PLAN_AT_MOST && f.s.least_points == 18 && f.s.points == 36,
	   "at most 6 task counts x 3 rounds x 2 settings, at least the listed");
	set(&f, 0, "max_tasks", "100000");
	set(&f, 0, "repeat", "10");
	sw = remake(&f);
	ok(sw->npts == 3 + 14 && sw->pts[sw->npts - 1].tasks == 65536, "every doubling the runner may take");
	ok(f.s.points == 2 * (3 * 10 + 14 * 10), "... each counted");
	set(&f, 0, "max_tasks", "6");
	sw = remake(&f);
	is_str(counts(sw), "1,2,4", "a doubling past --max-tasks is not taken");
	ok(f.s.count == PLAN_AT_MOST, "still at most: it may stop at its first count");
	fixture_free(&f);
}

/* Peak and single mode: the points depend on what is measured. */
static void searches(void)
{
	struct fixture f;
	fixture_init(&f, 2);
	set(&f, 1, "mode", "peak");
	set(&f, 1, "tasks", "2,64");
	set(&f, 1, "max_tasks", "16");
	remake(&f);
	const struct schedule_workload *pk = &f.s.wl[1];
	ok(pk->reach.tasks == 16 && pk->count == PLAN_UNKNOWN, "peak: searched up to --max-tasks, points unknown");
	ok(f.s.count == PLAN_UNKNOWN && f.s.points == 0, "so are the plan's");
	is_int((long long)f.s.wl[0].least_points, 4, "the sweep's points still counted");
	set(&f, 1, "mode", "single");
	set(&f, 1, "osync", "both");
	remake(&f);
	const struct schedule_workload *sg = &f.s.wl[1];
	ok(sg->npts == 1 && sg->pts[0].tasks == 1 && sg->reach.tasks == 1, "single: one task");
	ok(sg->nblocks == 1 && sg->blocks[0].osync == 1, "one block, O_SYNC on when it is on at all");
	ok(sg->least_points == 4 && sg->count == PLAN_UNKNOWN, "at least a row per test, calibration unknown");
	fixture_free(&f);
}

int main(void)
{
	struct workfile wf = {0};
	tap_case(jobs, &wf);
	tap_case(file_sizes);
	tap_case(sweep_repeat);
	tap_case(axes);
	tap_case(every_load);
	tap_case(growing);
	tap_case(searches);
	workfile_free(&wf);
	return done_testing();
}
