/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checks compare on stored runs made up for it, against values computed independently (mpmath at
 * 30 digits: Welch and paired t tests, Fieller intervals, Holm, the MDE): groups of runs as
 * replicates, one run's variants paired by round, single runs that cannot be judged, --fail-above,
 * subtests by their share of the change, warnings that name the run, and 80 columns. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/cmpwide.h"
#include "analysis/cmpmodel.h"
#include "report/html.h"
#include "report/plot.h"
#include "report/report.h"
#include "store/store.h"
#include "tap.h"
#include "testdb.h"
#include "util/util.h"

static struct store *st;

/* A point of a made-up run: its keys and Jobs/Min; its tests are big (6000 / Jobs/Min s) and small (0.5 s). */
struct fp {
	int tasks, repeat, osync;
	const char *variant;
	double jpm;
};

/* When set, the background load of each point of the next made-up run (in order), with the load's
 * units of work and CPU %. */
struct fp_load {
	const char *load;
	double units, lcpu;
};
static const struct fp_load *next_loads;

/* The kernel config the next fake run is stored with (NULL: none). */
static const char *next_config;
/* When >= 0, the small test's total is this less the big test's: the two move by the same amount in
 * opposite directions and the total job time of a point stays the same. */
static double balance_s = -1;
/* When set, every point of a made-up run is marked as measured in noise. */
static int mark_noisy;
/* When set, the point of this variant at invalid_round is stored invalid. */
static const char *invalid_variant;
static int invalid_round;
/* When >= 0, every point of a made-up run was sampled and saw this outside load (% of the machine). */
static double run_load = -1; /* others' demand on the machine (the exogenous load) */
static double run_used = -1; /* the CPU others used during the point; -1: the same as run_load */
/* The gate of the last write_compare. */
static enum compare_gate last_gate;

static int64_t fake_run(const char *label, const struct fp *pts, size_t n, const char *jobs)
{
	static int made;
	char uuid[32];
	snprintf(uuid, sizeof(uuid), "run-%d", ++made);
	struct store_run r = {.uuid = uuid, .label = label, .suite_name = "s", .suite_text = "",
			      .command_line = "reaim", .version = "0", .mode = "sweep", .seed = 1,
			      .kernel_config = next_config};
	int64_t id, wl;
	store_run_begin(st, &r, NULL, &id);
	store_run_env(st, id, "cpu.online", "2");
	store_run_finish(st, id, "complete", NULL);
	struct store_option opts[] = {{.key = "jobs_per_task", .item = -1, .value = (char *)jobs},
				      {.key = "label", .item = -1, .value = (char *)label},
				      {.key = "seed", .item = -1, .value = "1"}};
	struct store_workload w = {.name = "dbase",
				   .workfile_name = "dbase",
				   .workfile_text = "",
				   .options = opts,
				   .noptions = ARRAY_SIZE(opts)};
	test_db_workload(st, id, &w, &wl, "repeat=2");
	for (size_t i = 0; i < n; i++) {
		double v = pts[i].jpm;
		struct store_point p = {.run_id = id, .workload_id = wl, .osync = pts[i].osync, .tasks = pts[i].tasks,
					.repeat = pts[i].repeat, .valid = 1, .jobs_per_task = 10, .jobs_per_min = v,
					.real_s = 600.0 / v, .user_s = 1, .sys_s = 1, .cpu_s = 2, .window_cpu_s = 1.5};
		snprintf(p.variant, sizeof(p.variant), "%s", pts[i].variant ? pts[i].variant : "");
		const struct fp_load *l = next_loads ? &next_loads[i] : NULL;
		snprintf(p.load, sizeof(p.load), "%s", l ? l->load : "");
		p.load_units = l && strcmp(l->load, "no_load") ? l->units : NAN;
		p.load_cpu_pct = l && strcmp(l->load, "no_load") ? l->lcpu : NAN;
		if (invalid_variant && strcmp(p.variant, invalid_variant) == 0 && p.repeat == invalid_round)
			p.valid = 0;
		if (run_load >= 0) {
			p.sampled = 1;
			p.others_demand_pct = run_load;
			p.outside_cpu_pct = run_used >= 0 ? run_used : run_load;
			p.steal_pct = 0;
		}
		if (mark_noisy) {
			p.noisy = 1;
			snprintf(p.noise, sizeof(p.noise), "outside load 61.0 %% of the machine");
		}
		struct store_test tt[] = {{.name = "big", .count = 10, .total_s = 6000.0 / v},
					  {.name = "small", .count = 10, .total_s = balance_s >= 0 ? balance_s - 6000.0 / v : 0.5}};
		store_point_add(st, &p, tt, 2, NULL, 0);
	}
	return id;
}

/* A run of one workload, O_SYNC on, at 1 and 2 tasks, two repeats each. */
static int64_t two_by_two(const char *label, double a1, double b1, double a2, double b2, const char *jobs)
{
	const struct fp p[] = {{1, 0, 1, NULL, a1}, {1, 1, 1, NULL, b1}, {2, 0, 1, NULL, a2}, {2, 1, 1, NULL, b2}};
	return fake_run(label, p, ARRAY_SIZE(p), jobs);
}

/* The next write_compare explains every column (-v), as the legend's checks read it. */
static int full_legend;

static char *write_compare(const struct compare_group *g, size_t n, const char *format, double fail_above,
			   int *regressed)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct compare_options o = {.format = format, .alpha = 0.05, .fail_above_pct = fail_above, .verbose = full_legend};
	full_legend = 0;
	struct compare_result res;
	report_compare(f, st, g, n, &o, &res);
	*regressed = res.gate == COMPARE_GATE_FAIL;
	last_gate = res.gate;
	fclose(f);
	return buf;
}

static size_t longest_line(const char *s)
{
	size_t most = 0;
	while (*s) {
		size_t n = strcspn(s, "\n");
		most = n > most ? n : most;
		s += n + (s[n] == '\n');
	}
	return most;
}

/* Whether text has the words of want in order, whatever the line breaks between them. */
static int has_words(const char *text, const char *want)
{
	char *flat = xstrdup(text ? text : "");
	size_t k = 0;
	for (size_t i = 0; flat[i]; i++)
		if (!(flat[i] == '\n' || flat[i] == ' ') || (k && flat[k - 1] != ' '))
			flat[k++] = flat[i] == '\n' ? ' ' : flat[i];
	flat[k] = '\0';
	int found = strstr(flat, want) != NULL;
	free(flat);
	return found;
}

static const struct compare_subtest *subtest(const struct compare_panel *p, const char *name)
{
	for (size_t i = 0; i < p->nsubs; i++)
		if (strcmp(p->subs[i].name, name) == 0)
			return &p->subs[i];
	return NULL;
}

/* A note in words, as every view says it (report/note_text.c); valid until the next call. */
static const char *note_words(const struct compare_model *m, const struct compare_note *n)
{
	static char buf[4096];
	char *text = report_note_text(m, n);
	snprintf(buf, sizeof(buf), "%s", text ? text : "");
	free(text);
	return buf;
}

static void groups(void)
{
	/* run means at 1 task: A 100, 102, 98 and B 110, 112; at 2 tasks: A 200, 204, 196 and B 201, 203 */
	int64_t a[] = {two_by_two("old", 99, 101, 200, 200, "100"), two_by_two("old", 101, 103, 204, 204, "100"),
		       two_by_two("old", 97, 99, 196, 196, "100")};
	int64_t b[] = {two_by_two("new", 109, 111, 200, 202, "100"), two_by_two("new", 111, 113, 202, 204, "200")};
	struct compare_group g[] = {{a, 3}, {b, 2}};
	struct compare_options o = {.alpha = 0.05, .fail_above_pct = 5};
	struct compare_model m;
	is_int(compare_model_build(st, g, 2, &o, &m), 0, "groups: the model builds");
	is_int(m.kind, COMPARE_GROUPS, "groups: two groups of runs");
	is_int(m.npanels, 1, "groups: one workload and O_SYNC setting, one other side");
	is_int(m.panels[0].ncells, 2, "groups: two task counts");
	const struct compare_cell *c1 = &m.panels[0].cells[0], *c2 = &m.panels[0].cells[1];
	is_int((long long)(c1->na * 10 + c1->nb), 32, "groups: n = 3 runs against 2");
	is_int(c1->src_a, VERDICT_SRC_RUNS, "groups: runs are the replicates");
	is_near(c1->mean_a, 100, 1e-9, "groups: A's mean of run means");
	is_near(c1->mean_b, 111, 1e-9, "groups: B's mean of run means");
	/* mpmath: t = 7.20119037778775, df = 2.88235294117647, p = 0.00629998896376118,
	 * Fieller [+5.85601732981254 %, +16.4584659154647 %], MDE 6.47979889506034 % */
	is_near(c1->v.t, 7.20119037778775, 1e-9, "groups 1 task: Welch t");
	is_near(c1->v.df, 2.88235294117647, 1e-9, "groups 1 task: Welch-Satterthwaite df");
	is_near(c1->v.p, 0.00629998896376118, 1e-11, "groups 1 task: p");
	is_near(c1->v.change_pct, 11, 1e-9, "groups 1 task: +11 %");
	is_near(c1->v.ci_low_pct, 5.85601732981254, 1e-8, "groups 1 task: CI low +5.856 %");
	is_near(c1->v.ci_high_pct, 16.4584659154647, 1e-8, "groups 1 task: CI high +16.458 %");
	/* the MDE exact (noncentral t, recomputed apart); the approximation said 6.480 % */
	is_near(c1->v.mde_pct, 6.64153827127, 1e-6, "groups 1 task: MDE 6.642 %");
	/* 2 tasks: p = 0.492088718142726, CI [-3.22000000722943 %, +5.5405130006819 %] */
	is_near(c2->v.p, 0.492088718142726, 1e-10, "groups 2 tasks: p");
	is_near(c2->v.ci_low_pct, -3.22000000722943, 1e-8, "groups 2 tasks: CI low");
	is_near(c2->v.ci_high_pct, 5.5405130006819, 1e-8, "groups 2 tasks: CI high");
	/* Holm over 2 cells: 2 * 0.0063 = 0.0126, then max(0.0126, 0.492) */
	is_int(m.judged, 2, "groups: 2 cells in the correction");
	is_near(c1->p_adj, 0.0125999779275224, 1e-11, "Holm: the smaller p doubled");
	is_near(c2->p_adj, 0.492088718142726, 1e-10, "Holm: the larger one kept");
	is_int(c1->significant * 10 + c2->significant, 10, "groups: 1 task significant, 2 tasks not");
	is_int(m.regressed, 0, "groups: an improvement is never a regression");
	is_near(c1->cpu_pct, 0, 1e-12, "groups: CPU time unchanged");
	/* subtests: big is 6000 / Jobs/Min per point; per run the cells' means summed. mpmath: A 90.0300198159137 s,
	 * change -6.26276229080709 s, Welch p 0.0148714720460684; small is 0.5 s everywhere */
	const struct compare_subtest *big = subtest(&m.panels[0], "big"), *small = subtest(&m.panels[0], "small");
	ok(big && small, "subtests: both found");
	if (big && small) {
		is_near(big->base_s, 90.0300198159137, 1e-9, "subtest big: base total job time");
		is_near(big->delta_s, -6.26276229080709, 1e-9, "subtest big: its change");
		is_near(big->p, 0.0148714720460684, 1e-10, "subtest big: p of its change");
		is_int(big->noise, 0, "subtest big: beyond noise");
		is_near(big->share_pct, -100, 1e-9, "subtest big: the whole change, faster (-)");
		is_near(small->delta_s, 0, 1e-12, "subtest small: no change");
		is_int(small->noise, 1, "subtest small: within noise");
		ok(m.panels[0].subs[0].name[0] == 'b', "subtests ranked by the size of their change");
	}
	int warned = 0;
	for (size_t i = 0; i < m.nnotes; i++)
		warned |= strstr(note_words(&m, &m.notes[i]), "run 5 (B) differs from run 1 (A) in option jobs_per_task of workload dbase: "
					     "'200' against '100'") != NULL;
	ok(warned, "the options warning names the run and the option");
	int label_warned = 0;
	for (size_t i = 0; i < m.nnotes; i++)
		label_warned |= strstr(note_words(&m, &m.notes[i]), "option label") != NULL || strstr(note_words(&m, &m.notes[i]), "caution") != NULL;
	is_int(label_warned, 0, "no warning for the label, no caution for runs as replicates");
	compare_model_free(&m);

	int reg;
	char *out = write_compare(g, 2, "table", 0, &reg);
	ok(has_words(out, "p adj: Welch's t test, Holm over the 2 cells compared") &&
	   has_words(out, "-v explains every column.") && !has_words(out, "noncentral"),
	   "table: a short legend, the test and correction in it");
	const char *table = strstr(out, "\nWorkload ");
	size_t before = 0;
	for (const char *c = out; table && c < table; c++)
		before += *c == '\n';
	ok(table && before <= 8, "table: the table first, after the sides and a few lines");
	free(out);
	full_legend = 1;
	out = write_compare(g, 2, "table", 0, &reg);
	printf("# %s", out);
	ok(longest_line(out) <= 80, "table: no line over 80 columns");
	ok(has_words(out, "Holm's method over the 2 cells compared"), "table: says which correction, over how many");
	ok(has_words(out, "B is 11.0 % \xc2\xb1 5.3 % faster than A (95 %) at 1 of 2 task counts, Holm; one sample "
			  "decides 2 of them (more runs a side)."),
	   "table: the panel's one line, its change and half-width from the significant cell");
	ok(strstr(out, "    1    100.0   3    111.0   2  +11.0% [  +5.9%, +16.5%] 0.013*   8.5%   +0.0%") != NULL,
	   "table: the row with n a side, the interval, adjusted p, MDE");
	ok(strstr(out, "A (base): old, runs 1, 2, 3") != NULL && strstr(out, "B: new, runs 4, 5") != NULL,
	   "table: the sides and their runs");
	ok(has_words(out, "big -100% (-6.26 s)") && has_words(out, "small ~0% (+0.0 ms)"),
	   "table: subtests by share, the one within noise marked");
	ok(has_words(out, "What moved with it: the same command with --counters lists"),
	   "table: a significant change points to --counters");
	free(out);
	/* the same the other way round: -9.9 % at 1 task, significant */
	struct compare_group back[] = {{b, 2}, {a, 3}};
	free(write_compare(back, 2, "table", 5, &reg));
	is_int(reg, 1, "--fail-above 5: a significant -9.9 % fails");
	free(write_compare(back, 2, "table", 10, &reg));
	is_int(reg, 0, "--fail-above 10: -9.9 % is within it");
	out = write_compare(g, 2, "csv", 0, &reg);
	ok(strstr(out, "dbase,on,,1,A,\"old\",\"1 2 3\",100.00,3,B,\"new\",\"4 5\",111.00,2,runs,11.000,5.856,16.458,0.0063,"
		       "0.0126,holm,yes,6.642,") != NULL,
	   "csv: the same figures");
	free(out);
}

static const char *note_with(const struct compare_model *m, const char *text);


/* Each side against the base is its own family: a third side leaves the second's adjusted p as it was. */
static void family_per_side(void)
{
	int64_t a[] = {two_by_two("old", 99, 101, 200, 200, "100"), two_by_two("old", 101, 103, 204, 204, "100"),
		       two_by_two("old", 97, 99, 196, 196, "100")};
	int64_t b[] = {two_by_two("new", 109, 111, 200, 202, "100"), two_by_two("new", 111, 113, 202, 204, "100")};
	int64_t c[] = {two_by_two("third", 80, 82, 150, 150, "100"), two_by_two("third", 84, 86, 152, 154, "100")};
	struct compare_group g[] = {{a, 3}, {b, 2}, {c, 2}};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	is_int(compare_model_build(st, g, 3, &o, &m), 0, "family: three sides build");
	is_int(m.npanels, 2, "family: a panel per other side");
	is_int(m.judged, 4, "family: 4 cells judged in all");
	is_int(compare_model_family(&m), 2, "family: 2 cells a family");
	is_near(m.panels[0].cells[0].p_adj, 0.0125999779275224, 1e-11, "family: B's p adjusted over its own 2 cells");
	is_near(m.panels[0].cells[1].p_adj, 0.492088718142726, 1e-10, "family: B's larger p kept");
	ok(m.panels[1].cells[0].p_adj <= 2 * m.panels[1].cells[0].v.p + 1e-15, "family: C's adjusted over its 2 cells");
	/* the wide view: A's means 100 and 200, B's 111 and 202, over both task counts */
	struct wide_model w;
	compare_wide_build(&m, &w);
	is_int(w.nblocks, 1, "wide: one block");
	is_int(w.blocks[0].ncommon, 2, "wide: both task counts in the summary");
	is_near(w.blocks[0].stat[WIDE_AMEAN * 3 + 0], 150, 1e-9, "wide: A's Amean");
	is_near(w.blocks[0].stat[WIDE_HMEAN * 3 + 0], 400.0 / 3, 1e-9, "wide: A's Hmean");
	is_near(w.blocks[0].stat[WIDE_GMEAN * 3 + 0], sqrt(20000), 1e-9, "wide: A's Gmean");
	is_near(w.blocks[0].stat_pct[WIDE_AMEAN * 3 + 1], 100 * (156.5 / 150 - 1), 1e-9, "wide: B's Amean change");
	is_near(w.blocks[0].stat_pct[WIDE_GMEAN * 3 + 1], m.panels[0].geomean_pct, 1e-9,
		"wide: B's Gmean change is the panel's geomean");
	ok(compare_wide_cell(&w.blocks[0], 2, 1) == &m.panels[1].cells[1], "wide: C's cell is the model's own");
	is_near(w.all_geo_pct[1], m.panels[0].geomean_pct, 1e-9, "wide: the geomean over every cell of one block");
	compare_wide_free(&w);
	compare_model_free(&m);
	int reg;
	full_legend = 1;
	char *out = write_compare(g, 3, "table", 0, &reg);
	ok(has_words(out, "over the 2 cells compared with the base, per side: each side against the base is a family "
			  "of its own"),
	   "family: the legend says each side is its own family");
	free(out);
}

static void variants(void)
{
	/* rounds of variants a and b at 1 task, in mirrored order */
	const struct fp p[] = {{1, 0, 1, "a", 100}, {1, 0, 1, "b", 110}, {1, 1, 1, "b", 113}, {1, 1, 1, "a", 104},
			       {1, 2, 1, "a", 96},  {1, 2, 1, "b", 107}, {1, 3, 1, "b", 112}, {1, 3, 1, "a", 100}};
	int64_t id = fake_run("ab", p, ARRAY_SIZE(p), "100");
	struct compare_group g = {&id, 1};
	struct compare_options o = {.alpha = 0.05, .fail_above_pct = 5};
	struct compare_model m;
	is_int(compare_model_build(st, &g, 1, &o, &m), 0, "variants: the model builds");
	is_int(m.kind, COMPARE_VARIANTS, "variants: one run with variants");
	is_int(m.nsides, 2, "variants: a side per variant");
	is_str(m.sides[0].variant, "a", "variants: the first to run is the base");
	const struct compare_cell *c = &m.panels[0].cells[0];
	is_int(c->paired, 1, "variants: paired");
	is_int(c->na, 4, "variants: 4 pairs");
	/* mpmath: t = 16.2665300540712, df 3, p = 0.000505485346139042, Fieller with the covariance
	 * [+8.1546260404714 %, +13.0376493827726 %], MDE 2.68586141851188 % */
	is_near(c->v.t, 16.2665300540712, 1e-9, "paired: t");
	is_near(c->v.p, 0.000505485346139042, 1e-12, "paired: p");
	is_near(c->v.ci_low_pct, 8.1546260404714, 1e-8, "paired: CI low");
	is_near(c->v.ci_high_pct, 13.0376493827726, 1e-8, "paired: CI high");
	is_near(c->v.mde_pct, 2.74717078934, 1e-6, "paired: MDE (exact; the approximation said 2.686)");
	is_int(c->significant, 1, "paired: significant");
	is_int(m.regressed, 0, "paired: faster is no regression");
	compare_model_free(&m);
	int reg;
	full_legend = 1;
	char *out = write_compare(&g, 1, "table", 0, &reg);
	ok(strstr(out, "paired t test") != NULL && strstr(out, "A (base): variant a") != NULL,
	   "variants table: the test and the base variant");
	ok(longest_line(out) <= 80, "variants table: within 80 columns");
	free(out);

	/* round 2 of b invalid: a's round 2 has no partner, the means are of the 3 pairs, and it is said */
	invalid_variant = "b";
	invalid_round = 2;
	int64_t gap = fake_run("ab-gap", p, ARRAY_SIZE(p), "100");
	invalid_variant = NULL;
	struct compare_group gg = {&gap, 1};
	compare_model_build(st, &gg, 1, &o, &m);
	c = &m.panels[0].cells[0];
	ok(c->na == 3 && c->unpaired_a == 1 && c->unpaired_b == 0, "variants: an invalid round leaves its partner out");
	ok(note_with(&m, "valid rounds whose partner in the other arm is invalid are left out of the pairs at 1 (A 1, B 0)")
	   != NULL, "variants: and a caution says so");
	ok(m.nnotes && m.notes[m.nnotes - 1].code == NOTE_UNPAIRED, "variants: with its code");
	compare_model_free(&m);
}

/* One run made with --load io: no_load (base) against io, paired by round, with the load's figures. */
static void loads(void)
{
	const struct fp p[] = {{1, 0, 1, NULL, 100}, {1, 0, 1, NULL, 80}, {1, 1, 1, NULL, 83}, {1, 1, 1, NULL, 104},
			       {1, 2, 1, NULL, 96},  {1, 2, 1, NULL, 78}, {1, 3, 1, NULL, 81}, {1, 3, 1, NULL, 100}};
	const struct fp_load pl[] = {{"no_load", 0, 0}, {"io", 10, 50}, {"io", 20, 60}, {"no_load", 0, 0},
				     {"no_load", 0, 0}, {"io", 30, 70}, {"io", 40, 80}, {"no_load", 0, 0}};
	next_loads = pl;
	int64_t id = fake_run("loads", p, ARRAY_SIZE(p), "100");
	next_loads = NULL;
	struct compare_group g = {&id, 1};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	is_int(compare_model_build(st, &g, 1, &o, &m), 0, "loads: the model builds");
	is_int(m.kind, COMPARE_LOADS, "loads: one run with loads compares them");
	is_int(m.nsides, 2, "loads: a side per load");
	is_str(m.sides[0].load, "no_load", "loads: no_load is the base");
	is_str(m.sides[1].label, "load io", "loads: the other side is the load");
	is_int(m.npanels, 1, "loads: one panel");
	const struct compare_panel *pn = &m.panels[0];
	is_str(pn->load, "io", "loads: the panel names its load");
	ok(pn->has_loads, "loads: the panel has the load's figures");
	const struct compare_cell *c = &pn->cells[0];
	is_int(c->paired, 1, "loads: paired by round");
	is_int(c->na, 4, "loads: 4 pairs");
	is_near(c->mean_a, 100, 1e-9, "loads: no_load's mean");
	is_near(c->mean_b, 80.5, 1e-9, "loads: io's mean");
	ok(isnan(c->loads_a) && isnan(c->lcpu_a), "loads: no_load has no Loads, no LCPU%");
	is_near(c->loads_b, 25, 1e-9, "loads: io's Loads, the mean units");
	is_near(c->lcpu_b, 65, 1e-9, "loads: io's LCPU%, the mean");
	double ra = 100, rb = 80.5; /* the same jobs take no_load's Jobs/Min over io's as long under io */
	is_near(c->time_ratio, ra / rb, 1e-9, "loads: contest's Ratio, no_load's mean Jobs/Min over io's");
	ok(c->judged && c->significant && c->v.change_pct < 0, "loads: io is significantly slower");
	compare_model_free(&m);
	int reg;
	char *out = write_compare(&g, 1, "table", 0, &reg);
	ok(strstr(out, "each background load against no_load") && strstr(out, "A (base): no_load") &&
	   strstr(out, "B: load io"), "loads table: the sides");
	ok(strstr(out, "Time B/A") && strstr(out, "B Loads") && strstr(out, "B LCPU%"), "loads table: contest's columns");
	char row[96];
	snprintf(row, sizeof(row), "%5d %9.3f %12s %8s %12s %8s\n", 1, ra / rb, "-", "-", "25.0", "65.0");
	ok(strstr(out, row) != NULL, "loads table: the load's figures");
	ok(longest_line(out) <= 80, "loads table: within 80 columns");
	free(out);
	out = write_compare(&g, 1, "csv", 0, &reg);
	ok(strstr(out, "time_ratio,loads_base,loads_other,lcpu_pct_base,lcpu_pct_other") != NULL, "loads CSV: the columns");
	ok(strstr(out, ",0,io,") != NULL && strstr(out, ",,25.0000,,65.0000,") != NULL, "loads CSV: the figures");
	free(out);
	out = write_compare(&g, 1, "json", 0, &reg);
	ok(strstr(out, "\"kind\": \"loads\"") && strstr(out, "\"load\": \"io\"") &&
	   strstr(out, "\"loads_base\": null, \"loads_other\": 25, \"lcpu_pct_base\": null, \"lcpu_pct_other\": 65.0000"),
	   "loads JSON: the kind, the load and its figures");
	free(out);

	/* two kernels with --load: each load's cell against the same load of the base */
	const struct fp q[] = {{1, 0, 1, NULL, 100}, {1, 0, 1, NULL, 80}, {1, 1, 1, NULL, 80}, {1, 1, 1, NULL, 102}};
	const struct fp_load ql[] = {{"no_load", 0, 0}, {"io", 10, 50}, {"io", 30, 70}, {"no_load", 0, 0}};
	next_loads = ql;
	int64_t k[2] = {fake_run("k1", q, ARRAY_SIZE(q), "100"), fake_run("k2", q, ARRAY_SIZE(q), "100")};
	next_loads = NULL;
	struct compare_group gk[2] = {{&k[0], 1}, {&k[1], 1}};
	is_int(compare_model_build(st, gk, 2, &o, &m), 0, "loads, two kernels: the model builds");
	is_int(m.kind, COMPARE_GROUPS, "loads, two kernels: groups");
	is_int(m.npanels, 2, "loads, two kernels: a panel per load");
	ok(strcmp(m.panels[0].load, "no_load") == 0 && !m.panels[0].has_loads, "loads, two kernels: no_load without figures");
	ok(strcmp(m.panels[1].load, "io") == 0 && m.panels[1].has_loads, "loads, two kernels: io with its figures");
	c = &m.panels[1].cells[0];
	ok(c->loads_a == 20 && c->loads_b == 20 && c->lcpu_a == 60 && c->lcpu_b == 60,
	   "loads, two kernels: each side's load's means");
	compare_model_free(&m);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct compare_options ow = {.format = "json", .alpha = 0.05, .wide = 1};
	struct compare_result res;
	report_compare(f, st, gk, 2, &ow, &res);
	fclose(f);
	ok(strstr(buf, "\"load\": \"io\"") && strstr(buf, "\"loads\": 20, \"lcpu_pct\": 60.0000"),
	   "loads, wide JSON: a block per load with each side's figures");
	free(buf);
}

static void single_runs(void)
{
	const struct fp pa[] = {{1, 0, 1, NULL, 1000}, {2, 0, 1, NULL, 2000}};
	const struct fp pb[] = {{1, 0, 1, NULL, 900}, {2, 0, 1, NULL, 1800}};
	int64_t a = fake_run("single-a", pa, 2, "100"), b = fake_run("single-b", pb, 2, "100");
	struct compare_group g[] = {{&a, 1}, {&b, 1}};
	int reg;
	char *out = write_compare(g, 2, "table", 5, &reg);
	ok(strstr(out, "-10.0%") != NULL && strstr(out, "-?") != NULL, "single runs: significance cannot be judged");
	ok(strstr(out, "caution: A, B have one run") != NULL, "single runs: the caution names the sides");
	is_int(reg, 0, "single runs: one sample a side is never a failure");
	is_int(last_gate, COMPARE_GATE_UNJUDGED, "single runs: the gate cannot vouch for what it could not judge");
	ok(has_words(out, "Could not judge: no task count could be judged: fewer than 2 samples a side"),
	   "single runs: and says why");
	free(out);
	struct compare_group one = {&a, 1};
	out = write_compare(&one, 1, "table", 0, &reg);
	ok(strstr(out, "nothing to compare inside it") != NULL, "one run without variants or O_SYNC both: says so");
	free(out);
}

/* A note of the model containing text, or NULL. */
static const char *note_with(const struct compare_model *m, const char *text)
{
	for (size_t i = 0; i < m->nnotes; i++)
		if (strstr(note_words(m, &m->notes[i]), text))
			return note_words(m, &m->notes[i]);
	return NULL;
}

/* One run a side whose kernels differ: the identity is not warned of across sides unless both run one
 * release, a cmdline always is, and differing configs are listed option by option. */
static void kernel_identity(void)
{
	const struct fp pts[] = {{1, 0, 1, NULL, 1000}, {1, 1, 1, NULL, 1010}};
	static const char *const facts[][5] = {
		/* release, version, config hash, cmdline, config text */
		{"6.1", "#1 SMP", "fnv1a64:a", "quiet", "CONFIG_HZ=250\n# CONFIG_KASAN is not set\n"},
		{"6.2", "#7 SMP", "fnv1a64:b", "quiet mitigations=off", "CONFIG_HZ=1000\nCONFIG_KASAN=y\n"},
		{"6.1", "#2 SMP", "fnv1a64:b", "quiet", "CONFIG_HZ=1000\nCONFIG_KASAN=y\n"},
	};
	int64_t id[3];
	for (size_t i = 0; i < 3; i++) {
		next_config = facts[i][4];
		id[i] = fake_run("k", pts, ARRAY_SIZE(pts), "100");
		store_run_env(st, id[i], "kernel.release", facts[i][0]);
		store_run_env(st, id[i], "kernel.version", facts[i][1]);
		store_run_env(st, id[i], "kernel.config", facts[i][2]);
		store_run_env(st, id[i], "kernel.cmdline", facts[i][3]);
	}
	next_config = NULL;
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	struct compare_group two_kernels[] = {{&id[0], 1}, {&id[1], 1}};
	compare_model_build(st, two_kernels, 2, &o, &m);
	ok(!note_with(&m, "in kernel.release") && !note_with(&m, "in kernel.version") && !note_with(&m, "in kernel.config:"),
	   "two releases: their identity is what is compared, not warned of");
	char want[300];
	snprintf(want, sizeof(want), "warning: run %lld (B) differs from run %lld (A) in kernel.cmdline: "
		 "'quiet mitigations=off' against 'quiet'", (long long)id[1], (long long)id[0]);
	ok(note_with(&m, want) != NULL, "two releases: a command line that differs is");
	snprintf(want, sizeof(want), "note: run %lld (B) differs from run %lld (A) in 2 kernel config options: "
		 "CONFIG_HZ '1000' against '250', CONFIG_KASAN 'y' against 'n'", (long long)id[1], (long long)id[0]);
	is_str(note_with(&m, "kernel config option"), want, "two releases: their configs' options that differ, as a note");
	compare_model_free(&m);
	struct compare_group two_builds[] = {{&id[0], 1}, {&id[2], 1}};
	compare_model_build(st, two_builds, 2, &o, &m);
	ok(note_with(&m, "in kernel.version: '#2 SMP' against '#1 SMP' (two builds of one kernel release)") != NULL,
	   "one release, two builds: warned of");
	snprintf(want, sizeof(want), "warning: run %lld (B) differs from run %lld (A) in 2 kernel config options: ",
		 (long long)id[2], (long long)id[0]);
	ok(note_with(&m, want) != NULL, "one release, two configs: the options, as a warning");
	compare_model_free(&m);
}

/* Boots of reaim vm: where the host's CPU used by others during the boots differs between the sides
 * (a TCG guest cannot see it), a caution with the four figures; within 5 points, none. */
static void boot_host_load(void)
{
	static const double pct[][2] = {{10, 12}, {40, 46}, {13, 15}};
	static const char *const cmdline[] = {"", "pti=on", "pti=on"};
	int64_t id[3][2];
	for (size_t s = 0; s < 3; s++)
		for (size_t r = 0; r < 2; r++) {
			id[s][r] = two_by_two(s ? "pti" : "base", 1000 - 100 * (double)s + (double)r, 1005, 1900, 1910, "100");
			char v[32];
			snprintf(v, sizeof(v), "%.1f", pct[s][r]);
			store_run_env(st, id[s][r], "boot.host_outside_pct", v);
			store_run_env(st, id[s][r], "boot.accel", "tcg");
			store_run_env(st, id[s][r], "boot.image_sha256", "abc");
			store_run_env(st, id[s][r], "boot.cmdline", cmdline[s]);
		}
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	struct compare_group busy[] = {{id[0], 2}, {id[1], 2}};
	compare_model_build(st, busy, 2, &o, &m);
	const struct compare_note *n = NULL;
	for (size_t i = 0; i < m.nnotes; i++)
		n = m.notes[i].code == NOTE_HOST_LOAD ? &m.notes[i] : n;
	ok(n && n->level == NOTE_CAUTION && n->side == 1 && n->base_side == 0 && n->count == 2 && n->figure[0] == 10 &&
		   n->figure[1] == 12 && n->figure[2] == 40 && n->figure[3] == 46 && strcmp(n->value, "tcg") == 0,
	   "host load: a caution with each side's least and most");
	is_str(n ? note_words(&m, n) : NULL,
	       "caution: the host's CPU used by others during the boots differs: B's 2 boots saw 40-46 % (mean 43), A's 2 "
	       "saw 10-12 % (mean 11); the guests cannot see it (a TCG guest has no steal time), so their figures may "
	       "differ by the host's load alone: boot the sides again on a quieter host",
	       "host load: the sentence");
	ok(!note_with(&m, "in boot.host_outside_pct"), "host load: never a per-run warning");
	compare_model_free(&m);
	int reg;
	char *out = write_compare(busy, 2, "json", 0, &reg);
	ok(out && strstr(out, "\"code\": \"host_load\"") && strstr(out, "\"load_other_max\": 46.00"),
	   "host load: the JSON's caution, with its figures");
	free(out);
	struct compare_group quiet[] = {{id[0], 2}, {id[2], 2}};
	compare_model_build(st, quiet, 2, &o, &m);
	n = NULL;
	for (size_t i = 0; i < m.nnotes; i++)
		n = m.notes[i].code == NOTE_HOST_LOAD ? &m.notes[i] : n;
	ok(!n, "host load within 5 points a side: no caution");
	compare_model_free(&m);
}

static void osync_both(void)
{
	const struct fp p[] = {{1, 0, 1, NULL, 500}, {1, 1, 1, NULL, 520}, {1, 0, 0, NULL, 1000}, {1, 1, 0, NULL, 1010}};
	int64_t id = fake_run("os", p, ARRAY_SIZE(p), "100");
	struct compare_group g = {&id, 1};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	compare_model_build(st, &g, 1, &o, &m);
	is_int(m.kind, COMPARE_OSYNC, "osync both: O_SYNC off against on");
	is_str(m.sides[0].label, "O_SYNC off", "osync both: off is the base");
	is_int(m.panels[0].cells[0].na, 2, "osync both: paired by round");
	is_near(m.panels[0].cells[0].mean_b / m.panels[0].cells[0].mean_a, 510.0 / 1005.0, 1e-12,
		"osync both: the ratio of on to off");
	compare_model_free(&m);
	/* stored in the order they ran: on then off (an older run, or a search) is cautioned, interleaved is not */
	const struct fp seq[] = {{1, 0, 1, NULL, 500}, {1, 1, 1, NULL, 520}, {1, 0, 0, NULL, 1000}, {1, 1, 0, NULL, 1010}};
	const struct fp mix[] = {{1, 0, 1, NULL, 500}, {1, 0, 0, NULL, 1000}, {1, 1, 0, NULL, 1010}, {1, 1, 1, NULL, 520}};
	const struct fp *runs[] = {seq, mix};
	for (int k = 0; k < 2; k++) {
		int64_t rid = fake_run(k ? "os-mixed" : "os-seq", runs[k], 4, "100");
		struct compare_group one = {&rid, 1};
		compare_model_build(st, &one, 1, &o, &m);
		int said = 0;
		for (size_t i = 0; i < m.nnotes; i++)
			said |= strstr(note_words(&m, &m.notes[i]), "ran one after the other") != NULL;
		ok(k ? !said && m.interleaved : said && !m.interleaved,
		   k ? "osync both interleaved: paired without a caution" : "osync both one after the other: the caution");
		compare_model_free(&m);
	}
}

/* Intervals that respect the quantity, the level from --alpha, what ? means, a group whose runs do not
 * all have a task count, and subtest shares of a tiny net change. */
static void quantities(void)
{
	/* paired: B collapses and its own mean is not far from 0, so Fieller's lower root is below 0 */
	const struct fp p[] = {{1, 0, 1, "a", 1000}, {1, 0, 1, "b", 10},  {1, 1, 1, "a", 1010}, {1, 1, 1, "b", 400},
			       {1, 2, 1, "a", 990},  {1, 2, 1, "b", 20},  {1, 3, 1, "a", 1000}, {1, 3, 1, "b", 380}};
	int64_t id = fake_run("collapse", p, ARRAY_SIZE(p), "100");
	struct compare_group g = {&id, 1};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	compare_model_build(st, &g, 1, &o, &m);
	const struct compare_cell *c = m.npanels ? &m.panels[0].cells[0] : NULL;
	ok(c && c->judged && c->v.bounded, "collapse: judged, a bounded interval");
	ok(c && c->v.ci_low_pct >= -100 && c->v.ci_low_pct == -100, "collapse: the interval stops at -100 %");
	compare_model_free(&m);

	balance_s = 100;
	int64_t a[] = {two_by_two("lvl-a", 99, 101, 200, 202, "100"), two_by_two("lvl-a", 100, 102, 201, 203, "100")};
	int64_t b[] = {two_by_two("lvl-b", 89, 91, 180, 182, "100"), two_by_two("lvl-b", 90, 92, 181, 183, "100")};
	balance_s = -1;
	struct compare_group gg[] = {{a, 2}, {b, 2}};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct compare_options o90 = {.format = "table", .alpha = 0.1, .verbose = 1};
	struct compare_result res;
	report_compare(f, st, gg, 2, &o90, &res);
	fclose(f);
	ok(buf && strstr(buf, "90% CI") && has_words(buf, "its 90% confidence interval") && !strstr(buf, "95%"),
	   "--alpha 0.1: the interval is labelled 90 %, nowhere 95 %");
	ok(has_words(buf, "a base mean of 0"), "the ? legend names a base mean of 0");
	ok(buf && strstr(buf, "   MDE") && has_words(buf, "(80% power, the noncentral t)"), "the MDE says how it is had");
	free(buf);

	/* the base's second run lacks 2 tasks: its first run's repeats stand in there, and the caution says so */
	const struct fp one[] = {{1, 0, 1, NULL, 100}, {1, 1, 1, NULL, 102}};
	int64_t a2[] = {two_by_two("gap-a", 99, 101, 200, 202, "100"), fake_run("gap-a", one, 2, "100")};
	struct compare_group g2[] = {{a2, 2}, {b, 2}};
	compare_model_build(st, g2, 2, &o, &m);
	int said = 0, false_one = 0;
	for (size_t i = 0; i < m.nnotes; i++) {
		said |= strstr(note_words(&m, &m.notes[i]), "only one of A's 2 runs has valid points at (workload tasks) dbase 2") != NULL;
		false_one |= strstr(note_words(&m, &m.notes[i]), "A has one run") != NULL;
	}
	ok(said, "a gap in a group: the caution names the task count and the group's runs");
	ok(!false_one, "and does not say the group has one run");
	compare_model_free(&m);

	/* subtests: big and small move by the same amount in opposite directions, a net change of ~0 */
	compare_model_build(st, gg, 2, &o, &m);
	int within = m.npanels && m.panels[0].nsubs > 0;
	double sum = 0;
	for (size_t i = 0; within && i < m.panels[0].nsubs; i++) {
		within &= fabs(m.panels[0].subs[i].share_pct) <= 100 + 1e-9;
		sum += fabs(m.panels[0].subs[i].share_pct);
	}
	ok(within && fabs(sum - 100) < 1e-9, "subtest shares of a ~0 net change: within +-100 %, their sizes adding to 100 %");
	const struct compare_subtest *small = m.npanels ? subtest(&m.panels[0], "small") : NULL;
	ok(small && small->delta_s < 0 && fabs(small->share_pct + 50) < 1e-6, "the one that got faster: -50 %");
	const struct compare_subtest *big = m.npanels ? subtest(&m.panels[0], "big") : NULL;
	ok(big && big->delta_s > 0 && big->share_pct > 0, "subtest shares: signed by the test's own direction (slower: +)");
	compare_model_free(&m);
}

/* Points measured in noise: a caution in every format, and --exclude-noisy judges without them. */
static void noise(void)
{
	int64_t a[] = {two_by_two("nz-a", 99, 101, 200, 202, "100"), two_by_two("nz-a", 100, 102, 201, 203, "100")};
	mark_noisy = 1;
	int64_t loud = two_by_two("nz-b", 50, 52, 100, 102, "100");
	mark_noisy = 0;
	int64_t b[] = {loud, two_by_two("nz-b", 100, 102, 200, 202, "100"), two_by_two("nz-b", 101, 103, 201, 203, "100")};
	struct compare_group g[] = {{a, 2}, {b, 3}};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	compare_model_build(st, g, 2, &o, &m);
	int said = 0;
	for (size_t i = 0; i < m.nnotes; i++)
		said |= strstr(note_words(&m, &m.notes[i]), "caution: points measured in noise at 1 (A 0, B 2), 2 (A 0, B 2) tasks") &&
			strstr(note_words(&m, &m.notes[i]), "(B: outside load 61.0 % of the machine)") && strstr(note_words(&m, &m.notes[i]), "--exclude-noisy");
	ok(said, "noise: a caution naming the cells, the counts a side and the reason");
	ok(m.npanels && m.panels[0].summary.noisy == 2, "noise: the panel's verdict counts the noisy cells");
	ok(m.npanels && m.panels[0].cells[0].nb == 3, "noise: the noisy run is a sample without --exclude-noisy");
	is_int(compare_model_gate(&m), COMPARE_GATE_PASS, "noise: points in noise alone are no skip: the gate judges them");
	compare_model_free(&m);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct compare_options oj = {.format = "json", .alpha = 0.05};
	struct compare_result res;
	report_compare(f, st, g, 2, &oj, &res);
	fclose(f);
	ok(buf && strstr(buf, "\"notes\": [\"caution: points measured in noise") && strstr(buf, "\"noisy_other\": 2"),
	   "noise: the JSON's notes and rows say so");
	free(buf);
	f = open_memstream(&buf, &len);
	struct compare_options ot = {.format = "table", .alpha = 0.05};
	report_compare(f, st, g, 2, &ot, &res);
	fclose(f);
	ok(has_words(buf, "caution: points measured in noise at 1 (A 0, B 2)"), "noise: the text says so");
	free(buf);
	char err[256];
	f = open_memstream(&buf, &len);
	report_html(f, st, g, 2, NULL, err, sizeof(err));
	fclose(f);
	ok(buf && strstr(buf, "; points measured in noise at 2 of them") &&
		   strstr(buf, "<li class=\"caution\">caution: points measured in noise at 1 (A 0, B 2)"),
	   "noise: the report's verdict says so, with the caution styled as one");
	free(buf);
	struct compare_options ox = {.alpha = 0.05, .exclude_noisy = 1};
	compare_model_build(st, g, 2, &ox, &m);
	ok(m.npanels && m.panels[0].cells[0].nb == 2 && fabs(m.panels[0].cells[0].mean_b - 101.5) < 1e-9,
	   "--exclude-noisy: judged on the two quiet runs");
	is_int(compare_model_gate(&m), COMPARE_GATE_PASS, "--exclude-noisy: --bisect judges");
	struct plot_set ps;
	char perr[256];
	const struct plot_query q = {
		.groups = g, .ngroups = 2, .model = &m, .osync = -1, .m = metric_find("jobs_per_min")};
	int drawn = plot_set_load(st, &q, &ps, perr, sizeof(perr)) == 0;
	ok(drawn && ps.n == 2 && ps.curves[1].count && fabs(ps.curves[1].points[0].jpm.mean - 101.5) < 1e-9,
	   "--exclude-noisy: the plot's curve is drawn from the same quiet runs");
	if (drawn)
		plot_set_free(&ps);
	compare_model_free(&m);
}

/* Runs of one task count, one run a sample, each at its own outside load. */
static int64_t load_run(const char *label, double jpm, double load)
{
	const struct fp p[] = {{1, 0, 1, NULL, jpm}};
	run_load = load;
	int64_t id = fake_run(label, p, 1, "100");
	run_load = -1;
	return id;
}

static void load_sides(const char *la, const double *ya, const double *xa, const char *lb, const double *yb,
		       const double *xb, size_t n, struct compare_model *m, double fail_above)
{
	int64_t *a = xcalloc(n, sizeof(*a)), *b = xcalloc(n, sizeof(*b));
	for (size_t i = 0; i < n; i++) {
		a[i] = load_run(la, ya[i], xa[i]);
		b[i] = load_run(lb, yb[i], xb[i]);
	}
	struct compare_group g[] = {{a, n}, {b, n}};
	struct compare_options o = {.alpha = 0.05, .fail_above_pct = fail_above};
	compare_model_build(st, g, 2, &o, m);
	free(a);
	free(b);
}

/* The CPU others used during a point is what the run left them: a run slowed by a cap leaves
 * CPU-bound neighbours more, so that figure rises with the change itself. Only others' demand
 * (unmoved: two CPU-bound neighbours demand 100 % of two CPUs whatever the run does) enters the
 * verdict, and a 3x slowdown beside busy neighbours is found, never adjusted away. */
static void post_treatment(void)
{
	const double ya[] = {1000, 980, 1020}, yb[] = {380, 360, 400};
	const double demand[] = {100, 100, 100}, used_a[] = {81, 84, 87}, used_b[] = {95, 95, 95};
	int64_t a[3], b[3];
	for (size_t i = 0; i < 3; i++) {
		run_used = used_a[i];
		a[i] = load_run("pt-a", ya[i], demand[i]);
		run_used = used_b[i];
		b[i] = load_run("pt-b", yb[i], demand[i]);
	}
	run_used = -1;
	struct compare_group g[] = {{a, 3}, {b, 3}};
	struct compare_options o = {.alpha = 0.05, .fail_above_pct = 20};
	struct compare_model m;
	compare_model_build(st, g, 2, &o, &m);
	const struct compare_cell *c = m.npanels ? &m.panels[0].cells[0] : NULL;
	ok(c && c->load_model == LOAD_SIMILAR, "post-treatment: others demanded the same of both sides");
	is_int(c ? (int)c->state : -1, CELL_SLOWER, "post-treatment: a 62 % drop beside busy neighbours is slower");
	ok(c && fabs(c->v.change_pct - c->raw.change_pct) < 1e-9 && c->v.change_pct < -55,
	   "post-treatment: the change is not adjusted by the CPU the neighbours took from the slowed run");
	is_int(compare_model_gate(&m), COMPARE_GATE_FAIL, "post-treatment: the gate fails (4)");
	compare_model_free(&m);

	/* two samples a side: leaving one out leaves nothing to test, so a significant cell is fragile */
	const double y2a[] = {1000, 1002}, y2b[] = {800, 801}, d2[] = {10, 10};
	load_sides("fr-a", y2a, d2, "fr-b", y2b, d2, 2, &m, 0);
	c = m.npanels ? &m.panels[0].cells[0] : NULL;
	ok(c && c->significant && c->fragile, "few runs: a significant cell of 2 samples a side is fragile");
	compare_model_free(&m);

	/* B faster though others demanded more of its machine: the load cannot make that, so it is never
	 * confounded */
	const double fxa[] = {10, 14, 18, 12}, fxb[] = {40, 46, 52, 43};
	const double fya[] = {1000, 990, 1005, 995}, fyb[] = {1100, 1092, 1101, 1098};
	load_sides("sp-a", fya, fxa, "sp-b", fyb, fxb, 4, &m, 0);
	c = m.npanels ? &m.panels[0].cells[0] : NULL;
	ok(c && c->load_model == LOAD_COVARIATE && c->state != CELL_CONFOUNDED,
	   "a speed-up on the busier side is never confounded");
	compare_model_free(&m);
}

/* The outside load in the model: a change that follows the machine's load is confounded, one that
 * stands out of it is found and adjusted, one the load cannot explain stands. */
static void outside_load(void)
{
	/* Jobs/Min = 1500 - 10 x load on both sides, plus a little noise: no change of the kernel */
	const double xa[] = {40, 45, 50}, xb[] = {60, 68, 75};
	const double ya[] = {1102, 1048, 1001}, yb[] = {899, 822, 749};
	struct compare_model m;
	load_sides("ld-a", ya, xa, "ld-b", yb, xb, 3, &m, 10);
	const struct compare_cell *c = m.npanels ? &m.panels[0].cells[0] : NULL;
	ok(c && c->raw_judged && c->raw.p < 0.05, "load: the plain test sees B slower");
	ok(c && c->load_model == LOAD_COVARIATE, "load: the sides' loads differ, so it is a covariate");
	is_int(c ? (int)c->state : -1, CELL_CONFOUNDED, "load: B slower only as the machine was busier: confounded");
	ok(c && fabs(c->load_a.min - 40) < 1e-9 && fabs(c->load_b.max - 75) < 1e-9, "load: each side's range");
	/* on the logs: -10 Jobs/Min a point at about 950 is -1.1 % a point (-0.0114 of ln Jobs/Min) */
	ok(c && fabs(c->v.slope + 0.0114) < 0.001, "load: the slope is the machine's (-1.1 % of Jobs/Min a point of load)");
	is_int(m.regressed, 0, "load: a confounded drop is no regression");
	is_int(compare_model_gate(&m), COMPARE_GATE_UNJUDGED, "load: and the gate cannot vouch");
	char vouch[640];
	report_gate_vouch(&m, vouch, sizeof(vouch));
	ok(strstr(vouch, "outside load") != NULL, "load: saying the outside load is why");
	is_int(m.npanels ? (int)m.panels[0].summary.kind : -1, COMPARE_CONFOUNDED, "load: the panel is confounded");
	char line[512];
	report_panel_line(&m, &m.panels[0], line, sizeof(line));
	ok(strstr(line, "cannot be told apart from the outside load") && strstr(line, "B's points: others demanded 60-75 %") &&
		   strstr(line, "A's 40-50 %"),
	   "load: the verdict names both sides' loads");
	compare_model_free(&m);

	/* the same machine, and B 200 Jobs/Min slower on top: found, and adjusted */
	const double yb2[] = {699, 622, 549};
	load_sides("ld-a2", ya, xa, "ld-b2", yb2, xb, 3, &m, 10);
	c = m.npanels ? &m.panels[0].cells[0] : NULL;
	is_int(c ? (int)c->state : -1, CELL_SLOWER, "load: a change beyond the machine's is found");
	/* on the logs, at the mean load 54.67 (least squares apart): -18.7 % */
	ok(c && fabs(c->v.change_pct + 18.7) < 0.5, "load: the change is the adjusted one (-19 %), not the raw (-41 %)");
	ok(c && c->raw.change_pct < -35, "load: the raw change is kept beside it");
	is_int(compare_model_gate(&m), COMPARE_GATE_FAIL, "load: and the gate fails on it");
	compare_model_free(&m);

	/* little spread of load within the sides: the slope is not pinned, and some slope it allows would
	 * take the whole change away (B's 30 points more load against a slope of -0.13 % +- 0.13 % a point,
	 * of ln Jobs/Min; least squares apart): confounded */
	const double pa[] = {40, 42, 44}, pb[] = {70, 72, 74};
	const double ypa[] = {1000, 1005, 995}, ypb[] = {900, 905, 895};
	load_sides("ld-a8", ypa, pa, "ld-b8", ypb, pb, 3, &m, 10);
	c = m.npanels ? &m.panels[0].cells[0] : NULL;
	ok(c && c->load_model == LOAD_COVARIATE && fabs(c->v.slope + 0.0013229) < 1e-6 &&
		   fabs(c->v.slope_se - 0.0013207) < 1e-6,
	   "load: the slope and its standard error (-0.0013229, 0.0013207 of ln Jobs/Min)");
	is_int(c ? (int)c->state : -1, CELL_CONFOUNDED, "load: a slope the samples allow explains it: confounded");
	is_int(compare_model_gate(&m), COMPARE_GATE_UNJUDGED, "load: never a regression, the gate cannot vouch");
	compare_model_free(&m);

	/* no spread of load within a side: the model cannot be fitted */
	const double ca[] = {40, 40, 40}, cb[] = {70, 70, 70};
	const double ya3[] = {1000, 1010, 990}, slow[] = {800, 810, 790}, fast[] = {1200, 1210, 1190};
	load_sides("ld-a3", ya3, ca, "ld-b3", slow, cb, 3, &m, 0);
	c = m.npanels ? &m.panels[0].cells[0] : NULL;
	ok(c && c->load_model == LOAD_INSEPARABLE, "load: constant loads a side cannot be separated from the side");
	is_int(c ? (int)c->state : -1, CELL_CONFOUNDED, "load: slower where the machine was busier is confounded");
	compare_model_free(&m);
	load_sides("ld-a4", ya3, ca, "ld-b4", fast, cb, 3, &m, 0);
	c = m.npanels ? &m.panels[0].cells[0] : NULL;
	is_int(c ? (int)c->state : -1, CELL_FASTER, "load: faster on a busier machine: the load cannot explain it");
	compare_model_free(&m);

	/* similar loads: the plain test, and a gate that vouches only for what its interval shows */
	const double sa[] = {50, 52, 51}, sb[] = {51, 50, 52};
	const double qa[] = {1000, 1010, 990}, qb[] = {995, 1005, 1000};
	load_sides("ld-a5", qa, sa, "ld-b5", qb, sb, 3, &m, 5);
	c = m.npanels ? &m.panels[0].cells[0] : NULL;
	ok(c && c->load_model == LOAD_SIMILAR, "load: similar loads need no adjustment");
	is_int(c ? (int)c->state : -1, CELL_WITHIN, "gate: no change beyond 5 % shown");
	is_int(compare_model_gate(&m), COMPARE_GATE_PASS, "gate: the interval rules out a drop beyond 5 %: pass");
	compare_model_free(&m);
	load_sides("ld-a6", qa, sa, "ld-b6", qb, sb, 3, &m, 0.2);
	is_int(compare_model_gate(&m), COMPARE_GATE_UNJUDGED, "gate: the same runs cannot vouch for 0.2 %");
	report_gate_vouch(&m, vouch, sizeof(vouch));
	ok(strstr(vouch, "does not rule out a drop beyond 0.2 %") && strstr(vouch, "it could detect about"),
	   "gate: saying the interval and the MDE");
	c = m.npanels ? &m.panels[0].cells[0] : NULL;
	ok(c && c->mde_adj_pct >= c->v.mde_pct, "gate: the MDE at the corrected level is no smaller");
	compare_model_free(&m);

	/* one sample decides: leave the 120 out and B is significantly slower */
	const double fa[] = {100, 101, 99, 100}, fb[] = {95, 96, 94, 120}, fl[] = {50, 50, 50, 50};
	load_sides("ld-a7", fa, fl, "ld-b7", fb, fl, 4, &m, 0);
	c = m.npanels ? &m.panels[0].cells[0] : NULL;
	ok(c && c->fragile, "few runs: a cell one sample decides is flagged");
	ok(c && fabs(c->median_b - 95.5) < 1e-9 && fabs(c->median_a - 100) < 1e-9, "few runs: the medians beside the means");
	compare_model_free(&m);
	is_str(report_state_name(CELL_CONFOUNDED), "confounded", "the states have codes");
}

/* A group whose first run lacks a task count still has its subtests (from the run that has them all). */
static void subtest_gap(void)
{
	const struct fp one[] = {{1, 0, 1, NULL, 100}, {1, 1, 1, NULL, 102}};
	int64_t a[] = {fake_run("gap-a", one, 2, "100"), two_by_two("gap-a", 100, 101, 200, 202, "100")};
	int64_t b[] = {two_by_two("gap-b", 90, 91, 180, 182, "100"), two_by_two("gap-b", 91, 92, 181, 183, "100")};
	struct compare_group g[] = {{a, 2}, {b, 2}};
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	compare_model_build(st, g, 2, &o, &m);
	ok(m.npanels && m.panels[0].nsubs == 2, "subtests: a group's first run without every task count keeps them");
	compare_model_free(&m);
}

/* verdict_ancova against values computed apart (numpy least squares on the same data). */
static void ancova(void)
{
	const double ya[] = {10, 12, 11, 13}, xa[] = {1, 3, 2, 4}, yb[] = {8, 9, 11, 10}, xb[] = {2, 3, 5, 4};
	struct verdict v;
	is_int(verdict_ancova(&(struct verdict_xy){.y = ya, .x = xa, .n = 4},
			      &(struct verdict_xy){.y = yb, .x = xb, .n = 4}, 0.05, 0.8, &v),
	       0, "ancova: fitted");
	/* within slope: Sxy 5 + 5 = 10 over Sxx 5 + 5 = 10: 1; x0 3; A 11.5 - 1 x (2.5 - 3) = 12, B 9.5 - 0.5 = 9 */
	ok(fabs(v.slope - 1) < 1e-12, "ancova: the slope within the sides");
	ok(fabs(v.mean_a - 12) < 1e-12 && fabs(v.mean_b - 9) < 1e-12, "ancova: the means at the mean covariate");
	ok(fabs(v.df - 5) < 1e-12, "ancova: df n - 3");
	/* residual SS: Syy 5 + 5 = 10 less slope x Sxy 10 = 0: constant residuals */
	const double yb2[] = {8, 9, 12, 10};
	is_int(verdict_ancova(&(struct verdict_xy){.y = ya, .x = xa, .n = 4},
			      &(struct verdict_xy){.y = yb2, .x = xb, .n = 4}, 0.05, 0.8, &v),
	       0, "ancova: fitted with residuals");
	ok(v.p > 0 && v.p < 1 && v.ci_low_pct < v.change_pct && v.change_pct < v.ci_high_pct,
	   "ancova: p and an interval about the change");
	const double flat[] = {2, 2, 2, 2};
	is_int(verdict_ancova(&(struct verdict_xy){.y = ya, .x = flat, .n = 4},
			      &(struct verdict_xy){.y = yb, .x = flat, .n = 4}, 0.05, 0.8, &v),
	       -1, "ancova: no spread of x: refused");
	is_int(verdict_ancova(&(struct verdict_xy){.y = ya, .x = xa, .n = 1},
			      &(struct verdict_xy){.y = yb, .x = xb, .n = 2}, 0.05, 0.8, &v),
	       -1, "ancova: fewer than 4 samples: refused");
}

/* verdict_ancova_ratio: a load slows by a share, so the model is on the logs. */
static void ancova_ratio(void)
{
	/* y = 10 e^(0.01 x) on A, 8 e^(0.01 x) on B: the slope 0.01 of ln y, B 20 % below A exactly */
	const double xa[] = {100, 150, 120, 170}, xb[] = {140, 90, 160, 110};
	double ya[4], yb[4];
	for (int i = 0; i < 4; i++) {
		ya[i] = 10 * exp(0.01 * xa[i]);
		yb[i] = 8 * exp(0.01 * xb[i]);
	}
	struct verdict v;
	is_int(verdict_ancova_ratio(&(struct verdict_xy){.y = ya, .x = xa, .n = 4},
				    &(struct verdict_xy){.y = yb, .x = xb, .n = 4}, 0.05, 0.8, &v),
	       0, "ancova on logs: fitted");
	is_near(v.slope, 0.01, 1e-12, "the slope of ln y per unit of load");
	is_near(v.change_pct, -20, 1e-9, "B 20 % below A at any common load");
	/* a side twelve times slower, its own samples spread by the load: the linear model's adjusted base
	 * mean goes below 0 and the change flips to "faster"; on the logs it stays a rise */
	const double la[] = {0.0956, 0.0872, 0.0623, 0.0543}, lx[] = {593.1, 511.3, 530.0, 500.0};
	const double hb[] = {1.2602, 1.0748, 0.644, 0.6289}, hx[] = {485.4, 461.8, 341.7, 276.7};
	struct verdict lin;
	verdict_ancova(&(struct verdict_xy){.y = la, .x = lx, .n = 4}, &(struct verdict_xy){.y = hb, .x = hx, .n = 4},
		       0.05, 0.8, &lin);
	printf("# linear %.0f %%\n", lin.change_pct);
	ok(lin.change_pct < -100, "the linear model: an impossible change");
	is_int(verdict_ancova_ratio(&(struct verdict_xy){.y = la, .x = lx, .n = 4},
				    &(struct verdict_xy){.y = hb, .x = hx, .n = 4}, 0.05, 0.8, &v),
	       0, "on the logs: fitted");
	printf("# on the logs %.0f %% (%.0f to %.0f %%)\n", v.change_pct, v.ci_low_pct, v.ci_high_pct);
	ok(v.change_pct > 300 && v.ci_low_pct > -100 && v.ci_low_pct < v.change_pct && v.change_pct < v.ci_high_pct,
	   "on the logs: a rise, its interval about it");
	const double zero[] = {0.1, 0, 0.2, 0.3};
	is_int(verdict_ancova_ratio(&(struct verdict_xy){.y = zero, .x = lx, .n = 4},
				    &(struct verdict_xy){.y = hb, .x = hx, .n = 4}, 0.05, 0.8, &v),
	       -1, "a sample of 0 has no log: refused");
}

/* Past Z the sides go on as AA, AB: the 27th group is never "A" again, in any format. */
static void many_sides(void)
{
	enum { NG = 28 };
	int64_t ids[NG];
	struct compare_group g[NG];
	for (size_t i = 0; i < NG; i++) {
		char label[16];
		snprintf(label, sizeof(label), "g%zu", i);
		ids[i] = two_by_two(label, 100 + (double)i, 101 + (double)i, 200, 201, "100");
		g[i] = (struct compare_group){&ids[i], 1};
	}
	struct compare_options o = {.alpha = 0.05};
	struct compare_model m;
	is_int(compare_model_build(st, g, NG, &o, &m), 0, "many sides: the model builds");
	is_int(m.nsides, NG, "many sides: a side per group");
	is_str(m.sides[25].letter, "Z", "many sides: the 26th side is Z");
	is_str(m.sides[26].letter, "AA", "many sides: the 27th side is AA, not A again");
	is_str(m.sides[27].letter, "AB", "many sides: the 28th side is AB");
	int unique = 1;
	for (size_t i = 0; i < m.nsides; i++)
		for (size_t j = i + 1; j < m.nsides; j++)
			unique &= strcmp(m.sides[i].letter, m.sides[j].letter) != 0;
	ok(unique, "many sides: every side has its own name");
	compare_model_free(&m);
	char name[8];
	const struct {
		size_t i;
		const char *want;
	} names[] = {{0, "A"}, {25, "Z"}, {26, "AA"}, {51, "AZ"}, {52, "BA"}, {701, "ZZ"}, {702, "AAA"}};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		compare_side_letter(names[i].i, name, sizeof(name));
		is_str(name, names[i].want, "a side's name past Z");
	}
	int regressed;
	char *text = write_compare(g, NG, NULL, 0, &regressed);
	ok(strstr(text, "AA against A") != NULL, "many sides: the text names AA against A");
	ok(!strstr(text, ": A against A"), "many sides: the text never says A against A");
	free(text);
	char *json = write_compare(g, NG, "json", 0, &regressed);
	ok(strstr(json, "\"side\": \"AA\"") && strstr(json, "\"other\": \"AB\""), "many sides: JSON names AA and AB");
	ok(!strstr(json, "\"base\": \"A\", \"other\": \"A\""), "many sides: JSON never has A against A");
	free(json);
	char *csv = write_compare(g, NG, "csv", 0, &regressed);
	ok(strstr(csv, ",AA,") != NULL, "many sides: CSV names AA");
	free(csv);
}

/* --metric real_s: the cells judge each run's mean real time by the same Welch test, and a rise of real
 * time (a fall of Jobs/Min) is "slower", a regression the gate fails on. */
static void metric_real(void)
{
	const double ja[3][2] = {{99, 101}, {101, 103}, {97, 99}}, jb[2][2] = {{89, 91}, {87, 89}};
	int64_t a[3], b[2];
	double ra[3], rb[2];
	for (size_t i = 0; i < 3; i++) {
		a[i] = two_by_two("m-old", ja[i][0], ja[i][1], 200, 200, "100");
		ra[i] = (600.0 / ja[i][0] + 600.0 / ja[i][1]) / 2; /* fake_run stores real_s = 600 / Jobs/Min */
	}
	for (size_t i = 0; i < 2; i++) {
		b[i] = two_by_two("m-new", jb[i][0], jb[i][1], 200, 202, "100");
		rb[i] = (600.0 / jb[i][0] + 600.0 / jb[i][1]) / 2;
	}
	struct compare_group g[] = {{a, 3}, {b, 2}};
	struct compare_options o = {.alpha = 0.05, .fail_above_pct = 5, .metric = "real_s"};
	struct compare_model m;
	is_int(compare_model_build(st, g, 2, &o, &m), 0, "metric: the model builds on real_s");
	is_str(m.metric->name, "real_s", "metric: the model says what it judged");
	ok(!m.metric->rise_better, "metric: a rise of real_s is worse");
	const struct compare_cell *c = &m.panels[0].cells[0];
	struct verdict v;
	is_int(verdict_welch_samples(ra, 3, rb, 2, 0.05, VERDICT_POWER, &v), 0, "metric: Welch on the real times");
	is_near(c->mean_a, (ra[0] + ra[1] + ra[2]) / 3, 1e-12, "metric: A's mean is of real_s");
	is_near(c->v.p, v.p, 1e-12, "metric: the same p as Welch on the runs' real_s");
	is_near(c->v.change_pct, v.change_pct, 1e-9, "metric: the same change");
	ok(c->v.change_pct > 5, "metric: real time rose by more than 5 %");
	is_int(c->state, CELL_SLOWER, "metric: a rise of real_s is slower");
	ok(c->regression, "metric: beyond --fail-above 5, a regression");
	is_int(compare_model_gate(&m), COMPARE_GATE_FAIL, "metric: the gate fails on it");
	const struct compare_summary *sum = &m.panels[0].summary;
	ok(sum->worse == 1 && sum->worst_tasks == 1 && sum->worst_pct > 5,
	   "metric: the panel's worst is the rise of real_s at 1 task");
	ok(compare_worse(&m, 3) && !compare_worse(&m, -3), "metric: compare_worse of real_s is a rise");
	compare_model_free(&m);
	/* the same runs on Jobs/Min: the fall is slower too */
	o.metric = NULL;
	compare_model_build(st, g, 2, &o, &m);
	is_str(m.metric->name, "jobs_per_min", "metric: Jobs/Min without --metric");
	is_int(m.panels[0].cells[0].state, CELL_SLOWER, "metric: Jobs/Min fell, slower");
	ok(compare_worse(&m, -3) && !compare_worse(&m, 3), "metric: compare_worse of Jobs/Min is a drop");
	compare_model_free(&m);
	/* the other way: B faster, real_s fell */
	struct compare_group r[] = {{b, 2}, {a, 3}};
	o.metric = "real_s";
	compare_model_build(st, r, 2, &o, &m);
	is_int(m.panels[0].cells[0].state, CELL_FASTER, "metric: a fall of real_s is faster");
	ok(!m.panels[0].cells[0].regression, "metric: no regression");
	ok(m.panels[0].peak_a_tasks == 2 && m.panels[0].peak_b_tasks == 2,
	   "metric: the best real_s is the lowest (2 tasks), not the highest");
	compare_model_free(&m);
	o.metric = "no_such_figure";
	is_int(compare_model_build(st, g, 2, &o, &m), -1, "metric: an unknown metric is refused");
	compare_model_free(&m);
}

/* What a cell shows (--stat), each run's figure (--runs), the TOTAL and the one-line summary: the samples
 * of the groups case (A's run means 100, 102, 98 at 1 task; B's 110, 112) and their views. */
static char *write_view(const struct compare_group *g, size_t n, struct compare_options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct compare_result res;
	report_compare(f, st, g, n, o, &res);
	fclose(f);
	return buf;
}

/* "#ID" of a run, as the rows name it. */
static const char *run_tag(int64_t id)
{
	static char buf[32];
	snprintf(buf, sizeof(buf), "#%lld", (long long)id);
	return buf;
}

static void stats_and_runs(void)
{
	int64_t a[] = {two_by_two("old", 99, 101, 200, 200, "100"), two_by_two("old-2", 101, 103, 204, 204, "100"),
		       two_by_two("old", 97, 99, 196, 196, "100")};
	int64_t b[] = {two_by_two("new", 109, 111, 200, 202, "100"), two_by_two("new", 111, 113, 202, 204, "100")};
	struct compare_group g[] = {{a, 3}, {b, 2}};
	int shown[] = {COMPARE_STAT_MIN, COMPARE_STAT_SD};
	struct compare_options o = {.alpha = 0.05, .stats = shown, .nstats = 2, .runs = 1};
	struct compare_model m;
	is_int(compare_model_build(st, g, 2, &o, &m), 0, "stats: the model builds");
	const struct compare_cell *c = &m.panels[0].cells[0];
	is_near(compare_cell_stat(c, 0, COMPARE_STAT_MEAN), 100, 1e-12, "stats: A's mean is the model's");
	is_near(compare_cell_stat(c, 0, COMPARE_STAT_MIN), 98, 1e-12, "stats: A's lowest run mean");
	is_near(compare_cell_stat(c, 0, COMPARE_STAT_MAX), 102, 1e-12, "stats: A's highest");
	is_near(compare_cell_stat(c, 0, COMPARE_STAT_MEDIAN), 100, 1e-12, "stats: A's median");
	is_near(compare_cell_stat(c, 0, COMPARE_STAT_SD), 2, 1e-12, "stats: A's standard deviation (n - 1)");
	is_near(compare_cell_stat(c, 0, COMPARE_STAT_CV), 2, 1e-12, "stats: A's CoV, in % of the mean");
	is_near(compare_cell_stat(c, 1, COMPARE_STAT_SD), sqrt(2), 1e-12, "stats: B's standard deviation");
	is_int(c->spread_b.n, 2, "stats: over B's 2 samples");
	is_int(m.nstats, 2, "stats: the two asked for, in order");
	is_int(m.stats[0], COMPARE_STAT_MIN, "stats: min first");
	is_int(c->nruns_a, 3, "runs: a value per run of A");
	is_int(c->runs_a[1].run, a[1], "runs: in the side's order");
	is_str(c->runs_a[1].label, "old-2", "runs: with its label");
	is_near(c->runs_a[1].value, 102, 1e-12, "runs: its mean over its points there");
	is_int(c->runs_a[1].points, 2, "runs: over its 2 points");
	struct wide_model w;
	compare_wide_build(&m, &w);
	is_int(w.total_cells, 0, "total: none of Jobs/Min (a rate at different task counts adds up to nothing)");
	ok(isnan(w.total[0]) && isnan(w.total_pct[1]), "total: NaN, never a sum of rates");
	compare_wide_free(&w);
	compare_model_free(&m);
	o.metric = "real_s"; /* a time adds up: the TOTAL is each side's sum of its means over the cells */
	is_int(compare_model_build(st, g, 2, &o, &m), 0, "total: the model of real_s builds");
	compare_wide_build(&m, &w);
	is_int(w.total_cells, 2, "total: over both task counts");
	double sa = m.panels[0].cells[0].mean_a + m.panels[0].cells[1].mean_a;
	double sb = m.panels[0].cells[0].mean_b + m.panels[0].cells[1].mean_b;
	is_near(w.total[0], sa, 1e-9, "total: A's sum of means");
	is_near(w.total[1], sb, 1e-9, "total: B's");
	is_near(w.total_pct[1], 100 * (sb / sa - 1), 1e-9, "total: B's change");
	is_int(w.blocks[0].peak_tasks[0], m.panels[0].peak_a_tasks, "peak: A's best real_s is where the panel has it");
	is_near(w.blocks[0].peak_pct[1], 100 * (m.panels[0].peak_b / m.panels[0].peak_a - 1), 1e-9,
		"peak: B's against A's, wherever each lies");
	compare_wide_free(&w);
	compare_model_free(&m);
	o.metric = NULL;
	o.format = "table";
	char *out = write_view(g, 2, &o);
	char want[128];
	ok(strstr(out, "    1     98.0   3    110.0   2") != NULL, "table: the row shows the first statistic, min");
	ok(strstr(out, "\n   sd      2.0          1.4\n") != NULL, "table: a row for sd");
	snprintf(want, sizeof(want), "\n%5s    102.0                  old-2\n", run_tag(a[1]));
	ok(strstr(out, want) != NULL, "table: a row per run, its label after");
	ok(has_words(out, "the change, its interval, p and the verdict stay those of the means"), "table: says so");
	ok(longest_line(out) <= 80, "table: 80 columns");
	free(out);
	o.wide = 1;
	out = write_view(g, 2, &o);
	ok(strstr(out, "\n       1 Min      98.0               110.0   +11.0%*\n") != NULL, "wide: min with the change of the means");
	ok(strstr(out, "\n      Stddev       2.0                 1.4\n") != NULL, "wide: the sd row");
	snprintf(want, sizeof(want), "\n%12s     102.0\n", run_tag(a[1]));
	ok(strstr(out, want) != NULL, "wide: a run's row in its side's column");
	ok(!strstr(out, "TOTAL"), "wide: no TOTAL of Jobs/Min");
	ok(strstr(out, "\n        Peak     200.0               202.0    +1.0%\n") != NULL, "wide: each side's peak, against A's");
	ok(longest_line(out) <= 80, "wide: 80 columns");
	free(out);
	o.wide = 0;
	o.summary = 1;
	out = write_view(g, 2, &o);
	ok(strstr(out, "\ndbase  O_SYNC on    1 task   B   +11.0%*\n") != NULL, "summary: a line per case with its mark");
	ok(!strstr(out, "TOTAL"), "summary: no TOTAL of Jobs/Min");
	free(out);
	o.format = "json";
	out = write_view(g, 2, &o);
	ok(strstr(out, "\"view\": \"summary\"") != NULL && strstr(out, "\"total_cells\": 0") != NULL &&
	   strstr(out, "\"value\": null") != NULL, "summary: JSON, the TOTAL null");
	free(out);
}

/* A change of a thousand per cent or more (a side measured on a busy machine) keeps its row in 80 columns:
 * the change drops its decimal rather than push the row wider. */
static void wide_changes(void)
{
	int64_t a[] = {two_by_two("slow", 99, 101, 199, 201, "100"), two_by_two("slow", 100, 102, 200, 202, "100"),
		       two_by_two("slow", 98, 100, 198, 200, "100")};
	int64_t b[] = {two_by_two("fast", 10090, 10110, 20190, 20210, "100"),
		       two_by_two("fast", 10100, 10120, 20200, 20220, "100"),
		       two_by_two("fast", 10080, 10100, 20180, 20200, "100")};
	struct compare_group g[] = {{a, 3}, {b, 3}};
	int reg;
	char *out = write_compare(g, 2, "table", 0, &reg);
	printf("# %s", out);
	ok(longest_line(out) <= 80, "a change of +10000 %: no line over 80 columns");
	ok(strstr(out, " +10000% ") != NULL, "... the change without its decimal");
	free(out);
}

/* --long: Jobs/Min and Real side by side, a row per side within each task count, each figure the model's;
 * one run of B at a tenth of the others' Jobs/Min lifts B's mean Real as it lifts its mean Jobs/Min, and
 * the view says why the two move the same way. */
static void long_view(void)
{
	int64_t a[] = {two_by_two("base", 99, 99, 99, 99, "100"), two_by_two("base", 100, 100, 100, 100, "100"),
		       two_by_two("base", 101, 101, 101, 101, "100")};
	int64_t b[] = {two_by_two("odd", 30, 30, 30, 30, "100"), two_by_two("odd", 300, 300, 300, 300, "100"),
		       two_by_two("odd", 300, 300, 300, 300, "100")};
	struct compare_group g[] = {{a, 3}, {b, 3}};
	const char *const figs[] = {"jobs_per_min", "real_s"};
	struct compare_options o = {.format = "table", .alpha = 0.05, .metrics = figs, .nmetrics = 2};
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct compare_result res;
	is_int(report_compare_long(f, st, g, 2, &o, &res), 0, "long: written");
	fclose(f);
	printf("# %s", out);
	ok(strstr(out, "\nKernel  Tasks  n  Jobs/Min    Change  Real   Change\n") != NULL, "long: one header, each figure's change beside it");
	ok(strstr(out, "\nbase        1  3     100.0               6\n") != NULL, "long: the base's row, 600 / 100 jobs a minute is 6 s");
	ok(strstr(out, "\nodd         1  3     210.0  +110.0%      8  +33.3%\n") != NULL,
	   "long: B's row at 1 task, the means of 30, 300, 300 and of 20, 2, 2 s, each against the base's");
	ok(strstr(out, "\nodd         2  3 ") != NULL, "long: a row per side within each task count");
	ok(has_words(out, "Jobs/Min and Real disagree at 2 cells (B at 1 tasks: Real +33.3%, Jobs/Min +110.0%") &&
	   has_words(out, "the mean of reciprocals is not the reciprocal of the mean"),
	   "long: the cells where the reciprocals move the same way named, and why");
	ok(longest_line(out) <= 80, "long: 80 columns");
	is_int(res.nothing, 0, "long: the result is the first figure's");
	free(out);
	f = open_memstream(&out, &len);
	o.metrics = NULL;
	o.nmetrics = 0;
	is_int(report_compare_reciprocals(f, st, g, 2, &o), 0, "reciprocals: after a table each");
	fclose(f);
	ok(has_words(out, "Jobs/Min and Real disagree at 2 cells"), "reciprocals: the same note as --long's");
	free(out);
	struct compare_group same[] = {{a, 3}, {a + 1, 2}};
	f = open_memstream(&out, &len);
	report_compare_reciprocals(f, st, same, 2, &o);
	fclose(f);
	ok(!out || !strstr(out, "disagree"), "reciprocals: nothing where they agree");
	free(out);
}

int main(void)
{
	struct test_db db;
	if (test_db_open(&db) < 0)
		return 1;
	st = db.st;
	tap_case(groups);
	tap_case(family_per_side);
	tap_case(variants);
	tap_case(loads);
	tap_case(single_runs);
	tap_case(kernel_identity);
	tap_case(boot_host_load);
	tap_case(osync_both);
	tap_case(quantities);
	tap_case(noise);
	tap_case(outside_load);
	tap_case(post_treatment);
	tap_case(ancova);
	tap_case(ancova_ratio);
	tap_case(subtest_gap);
	tap_case(many_sides);
	tap_case(metric_real);
	tap_case(stats_and_runs);
	tap_case(wide_changes);
	tap_case(long_view);
	test_db_remove(&db);
	return done_testing();
}
