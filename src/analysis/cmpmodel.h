/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `reaim compare` concludes, before it is written: the sides (groups of runs, or the variants
 * or O_SYNC settings of one run), a cell per block and task count with its verdict, the correction
 * over all cells, the subtests that carry the change, and the warnings. The formats of report/compare.c
 * only print this model. */
#ifndef REAIM_ANALYSIS_CMPMODEL_H
#define REAIM_ANALYSIS_CMPMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/cmpstat.h"
#include "analysis/curves.h"
#include "analysis/kconfig.h"
#include "analysis/verdict.h"
#include "store/store.h"

enum compare_kind {
	COMPARE_GROUPS,   /* groups of runs: runs are the replicates (Welch) */
	COMPARE_VARIANTS, /* the variants of one run, paired round by round */
	COMPARE_OSYNC,    /* O_SYNC off (base) and on of one run made with --osync both, paired by round */
	COMPARE_LOADS,    /* the background loads of one run made with --load: no_load (base) against each, paired by round */
};

enum compare_correction { COMPARE_HOLM, COMPARE_BH };

/* What the views print in place of a % change: nothing, B/A (contest's Ratio, "x times"), or A/B (the
 * base's over the side's: "8x faster" where the side's time is an eighth). */
enum compare_ratio { COMPARE_RATIO_OFF, COMPARE_RATIO_BA, COMPARE_RATIO_INVERTED };

struct compare_options {
	const char *format;       /* a name from report_compare_formats; NULL: table */
	double alpha;             /* significance level, 0.05 */
	double fail_above_pct;    /* 0: off */
	int bisect;               /* --bisect: a gate even without --fail-above (any significant drop is bad) */
	int exclude_noisy;        /* --exclude-noisy: points measured in noise are not samples */
	int correction;           /* enum compare_correction (analysis/cmpmodel.h): Holm, or Benjamini-Hochberg */
	int wide;                 /* views: one table, a column per side (report/wide.c) */
	int ratio;                /* views: enum compare_ratio, B/A (or A/B) in place of the % change */
	const char *metric;       /* the figure judged, a name metric_find knows (NULL: jobs_per_min) */
	const int *stats;         /* views: what a cell shows of each side's samples (enum compare_stat), in
				   * order; NULL or nstats 0: the mean */
	size_t nstats;
	int runs;                 /* views: a row per run under each side's figure */
	int summary;              /* views: one line per cell, its change and mark (report/cases.c) */
	const char *const *metrics; /* views: --long's figures side by side, a model each (report/long.c); */
	size_t nmetrics;          /* 0: metric alone */
	int verbose;              /* views: the full legend (-v) */
};

/* One side: side 0 (letter A) is the base. */
struct compare_side {
	char letter[8];           /* "A" .. "Z", then "AA", "AB" ...: unique however many sides */
	char label[160];          /* groups: the runs' labels; variants: the variant; osync: "O_SYNC on" */
	int64_t *runs;            /* groups: the runs, in the order given */
	size_t nruns;
	const char *variant;      /* COMPARE_VARIANTS: the variant it selects (else NULL) */
	int osync;                /* COMPARE_OSYNC: the setting it selects (else -1) */
	const char *load;         /* COMPARE_LOADS: the background load it selects (else NULL) */
};

/* What the verdict of one cell says, the one list every view renders (text, CSV, Markdown, JSON,
 * the report's badges, the plot and the gates). */
enum compare_state {
	CELL_NOT_JUDGED,          /* fewer than 2 samples a side, or the test was refused */
	CELL_FASTER,              /* significantly better, after the correction: higher Jobs/Min, lower real_s */
	CELL_SLOWER,              /* significantly worse, the way the model's metric counts it */
	CELL_WITHIN,              /* not significant and the interval rules out a change beyond --fail-above */
	CELL_NOT_DETECTED,        /* not significant, and a change of the MDE could still hide in the noise */
	CELL_CONFOUNDED,          /* a change that cannot be told apart from the sides' different outside load */
	COMPARE_NSTATES
};

/* The outside load one side's samples of a cell saw: the CPU used by everything but the run plus
 * steal, in % of the machine (each sample's mean over its points). n 0: not measured. */
struct compare_load {
	double mean, min, max;
	size_t n;
};

/* How a cell's verdict deals with the outside load. */
enum compare_load_model {
	LOAD_UNMEASURED,          /* a sample without the sampler's figures: nothing to account for */
	LOAD_BALANCED,            /* the sides were interleaved round by round (variants, O_SYNC both): pairing cancels it */
	LOAD_SIMILAR,             /* runs as replicates, the sides' loads within COMPARE_LOAD_SIMILAR_PCT: the plain test */
	LOAD_COVARIATE,           /* the sides' loads differ: the change adjusted for it (ANCOVA, verdict_ancova) */
	LOAD_INSEPARABLE,         /* they differ and the model cannot be fitted (too few samples, no spread of load) */
};
const char *compare_load_model_name(enum compare_load_model k);
/* Sides whose mean outside loads differ by more than this many points of the machine (or than the
 * resolution of /proc/stat's ticks over the shorter side's points, if coarser) are adjusted. */
#define COMPARE_LOAD_SIMILAR_PCT 5.0
/* The fewest samples (both sides) the adjustment is fitted on: df n - 3 of at least 3. */
#define COMPARE_COVARIATE_MIN_N 6
/* What a bare --bisect must rule out to call a step good: a drop it could not have seen is no "good"
 * (a bisection would walk away from the regressing commit). */
#define COMPARE_BISECT_VOUCH_PCT 5.0

/* The points one side's samples of a cell came from and the sample each one belongs to: the one
 * selection (valid, the block's, --exclude-noisy) that the counters reuse. */
struct compare_cell_points {
	int64_t *ids;             /* store point ids */
	size_t *sample;           /* 0 .. nsamples - 1: a run (run means), a repeat, or a pair of rounds */
	size_t n, nsamples;
};

/* One run's figure at a cell: its mean over its valid points there (the ones the cell takes). */
struct compare_run_value {
	int64_t run;
	char label[128];  /* the run's label */
	double value;
	size_t points;
};

/* One task count of a block, side b against the base. */
struct compare_cell {
	int tasks;
	int present;              /* both sides have a valid value here */
	double mean_a, mean_b;    /* of the samples (NaN when a side has none) */
	size_t na, nb;            /* samples (pairs, when paired) */
	enum verdict_source src_a, src_b; /* runs or repeats (groups) */
	int paired;
	int judged;               /* the test could be made */
	struct verdict v;         /* change, interval, p, MDE (when judged) */
	double p_adj;             /* after the correction over every judged cell; NaN when not judged */
	int significant;          /* p_adj < alpha */
	int regression;           /* a drop --fail-above counts: significant, or any where none can be judged */
	struct verdict cpu_v;     /* CPU's change, interval and p on the same samples (when cpu_judged) */
	int cpu_judged;
	double cpu_p_adj;         /* over every judged cell's CPU, a family of its own by the same correction */
	int cpu_significant;      /* cpu_p_adj < alpha */
	double cpu_pct, user_pct, sys_pct, real_pct; /* change of the means of CPU (the model's cpu_window),
						       * user, system (whole life) and real time */
	double rank_p;            /* Mann-Whitney on the same samples (groups), -1 when not possible */
	size_t noisy_a, noisy_b;  /* valid points here measured in noise (left out with --exclude-noisy) */
	size_t looks;             /* the --precision looks its samples could have stopped at: p times it,
				   * the interval at alpha / looks (1: a fixed number of samples) */
	char why_noisy[160];      /* the first one's reason (the other side's first) */
	int why_noisy_other;      /* that reason is the other side's (else the base's) */
	enum compare_state state; /* the verdict, after the correction and the outside load */
	struct compare_load load_a, load_b;
	enum compare_load_model load_model;
	struct verdict raw;       /* the plain test, before any adjustment for the outside load (= v when none) */
	int raw_judged;
	double median_a, median_b; /* of the same samples */
	struct compare_spread spread_a, spread_b; /* every --stat of the same samples (the mean is mean_a, mean_b) */
	struct compare_run_value *runs_a, *runs_b; /* each run of a side with a point here, in the side's order */
	size_t nruns_a, nruns_b;
	int fragile;              /* leaving one sample out flips the sign or the significance of the change */
	double mde_adj_pct;       /* the MDE at the corrected level (alpha over the judged cells, Bonferroni) */
	struct compare_cell_points pts_a, pts_b;
	size_t unpaired_a, unpaired_b; /* paired: valid rounds whose partner is not (left out of the means) */
	/* --load, as contest shows it, over the points behind each side's samples (pts_a, pts_b): the mean
	 * units of work the background load did (Loads) and its CPU in % of one CPU (LCPU%); NaN where a
	 * side ran no load (no_load) */
	double loads_a, loads_b, lcpu_a, lcpu_b;
	double time_ratio;        /* contest's Ratio, B's time over A's for the same jobs: the mean Jobs/Min of
				   * A's points over B's, as show's loads table has it (NaN: none) */
};

/* One subtest's share of the change in total job time of a panel. */
struct compare_subtest {
	char name[32];
	double base_s;            /* its total job time on the base side (summed over the cells compared) */
	double delta_s;           /* other minus base */
	double share_pct;         /* 100 delta_s / (the sum of every test's |delta_s|): signed by its own
				   * direction (+: more job time), within +-100 % however small the net change */
	double p;                 /* of the change (Welch or paired, on the same replicates); NaN: not judged */
	size_t na, nb;
	int noise;                /* within noise: not judged, or p >= alpha (uncorrected) */
};

/* What a panel comes to over its cells, after the correction: the verdict every output states. */
enum compare_verdict {
	COMPARE_UNCHANGED,        /* judged, nothing significant */
	COMPARE_BETTER,           /* significantly higher Jobs/Min somewhere, lower nowhere */
	COMPARE_WORSE,            /* significantly lower somewhere, higher nowhere: a regression */
	COMPARE_MIXED,            /* both */
	COMPARE_CONFOUNDED,       /* nothing significant, but a change that cannot be told from the outside load */
	COMPARE_UNJUDGED,         /* task counts in common, none that could be judged */
	COMPARE_NO_DATA,          /* no task count in common */
	COMPARE_NVERDICTS
};
struct compare_summary {
	enum compare_verdict kind;
	size_t common, judged, better, worse; /* cells present on both sides, judged, significantly up, down */
	size_t noisy;                         /* cells with a point measured in noise */
	size_t confounded, fragile;           /* cells confounded with the outside load; decided by one sample */
	double confounded_pct;                /* the mean change of the confounded cells (plain test) */
	struct compare_load load_a, load_b;   /* the outside load over the confounded cells, else over all */
	double worst_pct, best_pct;           /* the largest significant change each way: worse, better
					       * (a drop of Jobs/Min, a rise of real_s) */
	int worst_tasks, best_tasks;          /* 0: none significant that way */
	double worse_pct, worse_half_pct;     /* the mean significant worsening and its intervals' mean half-width */
	double better_pct, better_half_pct;   /* the same of the rises */
	double mde_pct;                       /* the median minimum detectable change of the judged cells */
};

/* One block (workload, O_SYNC setting, variant) of one other side against the base. */
struct compare_panel {
	char workload[64];
	int osync;                /* -1 in osync mode (the sides are the settings) */
	char variant[64];         /* "" unless groups of runs made with variants */
	int cpus;                 /* --cpus: the CPU count of the block (0: every CPU) */
	char load[32];            /* --load: the background load of the block, or (loads) the other side's ("" without) */
	int has_loads;            /* a cell has a load's figures (loads_a/b, lcpu_a/b): the views show contest's columns */
	size_t side;              /* index of the other side */
	struct compare_cell *cells;
	size_t ncells;
	double geomean_pct;       /* of each present cell's change as judged (adjusted where it is), as a ratio */
	size_t geo_adjusted;      /* of those, the cells whose change is adjusted for others' demand */
	size_t ngeo;
	int peak_a_tasks, peak_b_tasks;
	double peak_a, peak_b;
	int has_system;           /* both sides have sampled points */
	double sys_a[4], sys_b[4]; /* user, sys, iowait, disk util %, mean over sampled points */
	struct compare_subtest *subs; /* by |delta_s|, largest first */
	size_t nsubs;
	struct compare_subtest total; /* all subtests together */
	struct compare_summary summary;
};

/* What a caution or warning is about: its code, for CSV, JSON and any program reading them. The
 * sentence each code is said in is report/'s (report/note_text.c): analysis only fills the fields. */
enum compare_note_code {
	NOTE_RUN_INCOMPLETE,      /* a run not complete: its valid points are used (run, side; value: its status) */
	NOTE_ENV_DIFFERS,         /* an environment fact differs (runs of side, base_run; key; value, base_value;
				   * two_builds). Level NOTE_INFO: the kernels reaim vm booted, the variable under
				   * test (value, base_value: the command lines; fact: kernels and images) */
	NOTE_KCONFIG_DIFFERS,     /* kernel config options differ (count; config: the options) */
	NOTE_OPTION_DIFFERS,      /* a measured option of a workload differs (key, workload; value, base_value) */
	NOTE_MIX_DIFFERS,         /* a workload of the same name measured another mix (workload; value, base_value) */
	NOTE_OSYNC_SEQUENTIAL,    /* O_SYNC on and off ran one after the other */
	NOTE_GROUP_GAP,           /* one run of a side's several has a task count (count: its runs; at: workload,
				   * tasks) */
	NOTE_ONE_RUN,             /* sides of one run: its repeats are the samples (sides; count: how many) */
	NOTE_MISSING,             /* a side lacks task counts the base has (workload, osync, variant; at; count) */
	NOTE_NOISY,               /* points measured in noise (workload, variant; at: tasks with each side's
				   * count; value: the first reason, value_other: whose) */
	NOTE_LOOKS,               /* samples of --precision rounds (count: the most looks) */
	NOTE_UNPAIRED,            /* paired rounds with one side invalid are left out (workload; at: tasks with
				   * each side's count; count: all of them) */
	NOTE_CONFOUNDED,          /* a change the sides' outside loads cannot be told from (workload; at;
				   * figure: base min, max, other min, max of the load) */
	NOTE_HOST_LOAD,           /* reaim vm: the host's outside load during the boots differs between the sides
				   * (count, base_count: each side's boots; value: the accelerator; figure: as
				   * confounded, then base mean, other mean) */
	NOTE_BLOCKED,             /* reaim lab: the runs are paired by the device they ran on (count: devices) */
	NOTE_NCODES
};
enum compare_note_level { NOTE_WARNING, NOTE_CAUTION, NOTE_INFO, NOTE_NLEVELS };

/* A cell a note is about: its workload and task count, and each side's count there where the code
 * counts something per side (the base's a, the other's b). */
struct compare_note_at {
	char workload[64];
	int tasks;
	size_t a, b;
};

/* One caution or warning as data: its code, its level, and every figure its sentence names. */
struct compare_note {
	enum compare_note_code code;
	enum compare_note_level level;
	int64_t run, base_run;    /* the runs it names (0: none); run is runs[0] where there are runs */
	int64_t *runs;            /* env_differs: each run of side `side` found with the same difference */
	size_t nruns;
	int side, base_side;      /* their sides (-1: none) */
	size_t *sides;            /* one_run: the sides whose samples are the repeats inside one run */
	size_t nsides;
	char key[96];             /* the fact or option */
	char workload[64];
	char variant[64];         /* the block's variant ("" none) */
	int osync;                /* the block's O_SYNC setting (-1: none said) */
	char *value, *base_value; /* what differs, each side's (NULL: not said) */
	struct compare_note_at *at; /* the cells it is about, in order */
	size_t nat;
	size_t count, base_count;
	double figure[6];         /* set by the codes that say so */
	char *fact[4];            /* set by the codes that say so */
	struct kconfig_change *config; /* kconfig_differs: every option set differently (count of them) */
	int two_builds;           /* env_differs: a fact of the kernel's identity, across sides of one release */
	int value_other;          /* noisy: the value (a reason) is side's, else base_side's */
};

/* Why one run has nothing to compare inside it. */
enum compare_nothing {
	NOTHING_NO,               /* it has sides, or the model is of groups of runs */
	NOTHING_ONE_VARIANT,      /* its points are of one variant (sides[0].variant) */
	NOTHING_INSIDE,           /* no variants, and no workload measured with O_SYNC both on and off */
};

/* Why the comparison as a whole cannot be judged: the first of these that holds. */
enum compare_unjudged {
	UNJUDGED_NO,              /* it can: every cell the base has could be judged */
	UNJUDGED_UNLIKE,          /* a workload of one name measured another mix (m->unlike) */
	UNJUDGED_NOISE_ONLY,      /* nothing in common once the points measured in noise are left out */
	UNJUDGED_NOTHING_COMMON,  /* no workload, O_SYNC setting and task count measured validly on both sides */
	UNJUDGED_MISSING,         /* m->missing task counts of the base have no valid point on another side */
	UNJUDGED_NONE_JUDGED,     /* fewer than 2 samples a side everywhere */
	UNJUDGED_ONE_GROUP,       /* fewer than two sides (m->nothing says why, if one run) */
};

/* A workload whose mix differs between a side's run and the base run (run 0: none). */
struct compare_unlike {
	char workload[64];
	int64_t run, base_run;
};

/* A cell a gate's decision names: its panel and its place among the panel's cells. */
struct compare_cell_ref {
	size_t panel, cell;
};
struct compare_cell_refs {
	struct compare_cell_ref *v;
	size_t n;
};

/* What a gate's decision rests on (cmp_decide_gate), for report/ to say. */
struct compare_gate_why {
	struct compare_cell_refs failed;     /* fail: the worsenings beyond the threshold */
	double worst_pct;                    /* fail: the largest of their changes */
	struct compare_cell_refs few;        /* cannot vouch: cells with fewer than 2 samples a side */
	struct compare_cell_refs confounded; /* cannot vouch: cells confounded with the outside load */
	struct compare_cell_refs wide;       /* cannot vouch: intervals that do not rule out vouch_pct */
	double worst_low_pct;                /* of the wide ones: the worst end, as a gain (-: worse) */
	double worst_mde_pct;                /* of the wide ones: the largest corrected MDE */
	size_t judged;                       /* pass: the cells that passed */
};

struct compare_model {
	enum compare_kind kind;
	double alpha, fail_above_pct;
	enum compare_correction correction;
	struct compare_side *sides;
	size_t nsides;
	struct compare_panel *panels;
	size_t npanels;
	size_t judged;            /* cells judged, over every side (each side's are a family of its own) */
	struct compare_note *notes; /* warnings and cautions, in the order found (worded by report/) */
	size_t nnotes;
	int regressed;
	int gate;                 /* --fail-above or --bisect asked for a verdict on the whole comparison */
	int exclude_noisy;        /* points measured in noise left out of the samples */
	size_t noisy;             /* cells with a point measured in noise (a caution per panel) */
	enum compare_nothing nothing; /* one run with nothing to compare inside it: why */
	int64_t nothing_run;      /* that run */
	size_t present;           /* cells both sides measured */
	size_t missing;           /* cells the base measured and another side has no valid point at */
	struct compare_unlike unlike; /* the first workload whose mix differs between the sides' runs */
	enum compare_unjudged unjudged; /* why a gate cannot pass (UNJUDGED_NO: every cell the base has judged) */
	char run_label[128];      /* variants, osync: the run's label */
	int interleaved;          /* osync: the settings ran interleaved, round by round (no caution) */
	int gate_result;          /* enum compare_gate: what a gate concludes (cmp_decide_gate) */
	int gate_decided;         /* cmp_decide_gate ran: gate_result and gate_why hold */
	double vouch_pct;         /* the drop a passing gate rules out: --fail-above, else a bare --bisect's default */
	struct compare_gate_why gate_why; /* what the decision rests on (report_gate_decision words it) */
	int ratio;                /* enum compare_ratio: the views print B/A (1 + change / 100), or A/B, in place
				   * of the % change */
	int stats[COMPARE_NSTATS]; /* what the views show of a side's samples, in order (the mean by default) */
	size_t nstats;
	int runs;                 /* the views add a row per run (compare_cell's runs_a, runs_b) */
	const struct metric *metric; /* the figure the cells judge (curves.c's table): Jobs/Min unless --metric */
	int blocked;              /* groups of runs from a lab's devices, paired device by device (reaim lab) */
	int verbose;              /* the views explain every column before the tables (-v; set by report/) */
	int cpu_window;           /* CPU is the tasks' CPU from release to done (window_cpu_s) in every
				   * point compared; 0: their whole life (cpu_s), as a run predates the window */
};

/* What a gate (--fail-above, --bisect) concludes over the whole comparison. It fails on a significant
 * drop beyond the threshold (any with --bisect alone) that is not confounded with the outside load;
 * it passes only what it measured: every cell the base has judged (2 or more samples a side), none
 * confounded, and with a threshold X (a bare --bisect: COMPARE_BISECT_VOUCH_PCT) every interval ruling
 * out a drop beyond X (non-inferiority). Otherwise it cannot vouch (m->gate_why, m->unjudged): --fail-above
 * exits 5, --bisect stops the bisection (128), or skips the step (125) only where the side under test
 * measured nothing. report_gate_decision (report/) says what it decided and why. */
enum compare_gate {
	COMPARE_GATE_PASS,
	COMPARE_GATE_FAIL,
	COMPARE_GATE_UNJUDGED,
};
enum compare_gate compare_model_gate(const struct compare_model *m);

/* A group as given on the command line: its runs, resolved. */
struct compare_group {
	const int64_t *runs;
	size_t n;
};

/* What a cell shows of a side's samples (the base's: other 0): a statistic of enum compare_stat; the
 * mean is the model's mean_a, mean_b itself. */
double compare_cell_stat(const struct compare_cell *c, int other, int stat);

/* Where a change of the model's metric is a worsening (a drop of Jobs/Min, a rise of real_s). */
int compare_worse(const struct compare_model *m, double change_pct);

/* Build the model: two or more groups (groups of runs), or one group of one run (its loads, else its
 * variants, else its O_SYNC settings; m->nothing says why when it has none). -1 when the store cannot
 * be read or o->metric is no metric (metric_find). */
int compare_model_build(struct store *st, const struct compare_group *groups, size_t ngroups,
			const struct compare_options *o, struct compare_model *m);
void compare_model_free(struct compare_model *m);
/* The judged cells of the largest correction family: each other side against the base is a family
 * of its own (with two sides, every judged cell). */
size_t compare_model_family(const struct compare_model *m);
/* "Holm" or "Benjamini-Hochberg"; and the short names --correction takes. */
const char *compare_correction_name(enum compare_correction c);
extern const char *const compare_correction_names[]; /* "holm", "bh", NULL */
const char *compare_kind_name(enum compare_kind k);   /* "groups", "variants", "osync", "loads" */
/* The name of side i (0: "A", 25: "Z", 26: "AA", 701: "ZZ", 702: "AAA"), as struct compare_side holds it. */
void compare_side_letter(size_t i, char *buf, size_t len);
/* A side's name for headings: "A: kernel-a (runs 1, 3, 5)"; groups name their runs. */
void compare_side_name(const struct compare_model *m, size_t side, char *buf, size_t len);
/* The panel of side `side` for a workload, O_SYNC setting, variant ("" none), background load ("" none;
 * of a run's loads, the other side's) and CPU count (0 every CPU), or NULL. */
const struct compare_panel *compare_panel_find(const struct compare_model *m, size_t side, const char *workload,
					       int osync, const char *variant, const char *load, int cpus);

#endif
