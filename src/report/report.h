/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rendering stored rows and the comparison model: the classic and single-user tables, the plan,
 * list, show, the export formats (KCIDB among them), compare's formats and the line wrapper. */
#ifndef REAIM_REPORT_REPORT_H
#define REAIM_REPORT_REPORT_H

#include <stdio.h>

#include "analysis/cmpmodel.h"
#include "analysis/curves.h"
#include "config/cfg.h"
#include "store/store.h"

/* What a block of rows (one workload and O_SYNC setting) needs besides its points: filled
 * from the plan while a run goes, and from the stored run and workload rows by `show`, so
 * both print the same text. */
struct report_block {
	struct block_plan plan;
	int verbose;              /* the extra columns */
	int brief;                /* to paste (show --brief): a noisy row marked "noisy", its cause in the
				   * block's Noisy line, which is broken within 80 columns */
};
/* "Workload dbase, O_SYNC on" and the column header. */
void report_block_begin(FILE *f, const struct report_block *b);
/* One point's row, printed as it completes. */
void report_block_row(FILE *f, const struct report_block *b, const struct store_point *p);
/* After the rows, over the block's points in the order they ran: the crossover or peak line,
 * the means over rounds and the Max Jobs per Minute line (of the means, as compare and plot
 * use). finished is 0 when the run stopped inside the block: no peak is claimed then. */
void report_block_end(FILE *f, const struct report_block *b, const struct store_point *pts, size_t n,
		      int finished);
/* The end of a block of O_SYNC on and off interleaved (plan.osync -1): after the rows as they ran, each
 * setting's own block, O_SYNC off first, headed "Workload W, O_SYNC off" with its rows (in the order
 * given) and its summary, the table to paste. */
void report_block_settings(FILE *f, const struct report_block *b, const struct store_point *pts, size_t n,
			   int finished);

/* The CPU column of reaim's table: the tasks' CPU over the measured window (window_cpu_s, the span
 * Real covers), or their whole lives (cpu_s) for a point stored before the window was measured,
 * which is what that run printed. */
double report_point_cpu_s(const struct store_point *p);
/* The JTI every output prints: re-aim-7 kept it in an int, so the fraction is cut off everywhere. */
int report_jti(const struct store_point *p);
/* Decimals of a Real (seconds) so a short point keeps three significant digits (0.00123, not 0.00):
 * 2 from 1 s up, up to 6. */
int report_real_decimals(double real_s);

/* Single-user mode: a heading per workfile and O_SYNC setting, then a row per test from the
 * point that measured it (the last of its calibration points). */
void report_single_begin(FILE *f, const char *workfile, int osync, long long file_kib);
void report_single_row(FILE *f, const struct store_point *p);

struct schedule;
/* `--dry-run`, the plan's schedule: every workload's options (from the option table), its task counts with file
 * sizes and disk space, the number of points and a time estimate from the stored runs in st
 * (NULL: no database, so no estimate). */
void report_plan(FILE *f, const struct schedule *s, struct store *st);

/* What `reaim show` prints beside the tables (its options). */
struct report_show_flags {
	int verbose, tests, samples;
	int brief;                /* the tables alone, to paste: no heading, environment, hooks or per-test tables */
};
/* `reaim show`: heading, environment, classic table per workload, per-test figures. */
int report_show(FILE *f, struct store *st, int64_t run_id, const struct report_show_flags *flags);
/* `reaim show --files`: the suite and each workfile as stored with the run. */
int report_show_files(FILE *f, struct store *st, int64_t run_id);
/* `reaim list`. */
int report_list(FILE *f, struct store *st, const struct run_filter *filter);
/* `list --modes` (report/modes.c): a row per label, workload and variant of the runs filter passes, each
 * mode's best Jobs/Min side by side (STP's Peak Load and Quick Convergence) with the runs' ids. */
int report_list_modes(FILE *f, struct store *st, const struct run_filter *filter);
/* What an export names that the run does not hold (`reaim export --origin ...`, for kcidb); NULL:
 * the default (origin reaim, the checkout and build ids ORIGIN:KERNEL_RELEASE). */
struct report_export_opts {
	const char *origin, *checkout_id, *build_id;
};
/* An export format: its --format name, one line of help, and its writer. */
struct export_format {
	const char *name, *help;
	void (*write)(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *pts,
		      size_t n, const struct report_export_opts *opts);
	int figures; /* read as measurements: refused for a run without a valid point */
};
extern const struct export_format report_export_formats[]; /* ends with a NULL name */
/* `reaim export`: the run in a format of report_export_formats, by name; -1 with the reason in
 * err when the run cannot be read, the name is not in the table, or the format is read as
 * measurements and the run has no valid point (nothing is written then). 1, with why in err, when
 * what was written is of a run that did not complete (failed, interrupted, or still 'running' though
 * its process is gone: written as interrupted). opts may be NULL. */
int report_export(FILE *f, struct store *st, int64_t run_id, const char *format,
		  const struct report_export_opts *opts, char *err, size_t errlen);
/* The reason given to a run whose row says 'running' though its process is gone. */
#define REPORT_OWNER_GONE "the reaim process died (killed, or the machine went down) before the run finished"

/* KCIDB schema v5 JSON (kcidb.c): checkouts, builds, one test per point. */
void report_kcidb(FILE *f, struct store *st, const struct store_run_row *run, const struct store_point *pts,
		  size_t n, const struct report_export_opts *opts);
/* An origin KCIDB takes ([a-z0-9_]+), and an id of an object of that origin ("ORIGIN:anything";
 * origin NULL: the default, reaim). */
int report_kcidb_origin_ok(const char *origin);
int report_kcidb_id_ok(const char *id, const char *origin);

/* What a correction was over: "the 3 cells judged" (how: "judged", "compared"); "no cell (none could be
 * judged)", never "the 0 cells". */
const char *report_judged_cells(size_t n, const char *how, char *buf, size_t len);
/* A side in compare's and the wide table's CSV: ",LETTER,LABEL,\"RUN RUN\"" (the label quoted). */
struct compare_side;
void report_csv_side(FILE *f, const struct compare_side *s);
/* A cell's change as its verdict judges it: adjusted for others' demand where the cell is, else plain
 * (the raw change of the means where it is not judged); and which of the two it is, "adjusted" or
 * "plain". Every CSV and JSON field of a cell's change is this one, the raw beside it. */
struct compare_cell;
double report_cell_pct(const struct compare_cell *c);
const char *report_pct_kind(const struct compare_cell *c);
/* Under a panel's rows: the outside load each side's samples saw per task count and what the verdict
 * did about it; the cells one sample decides and the medians that disagree with the means (the
 * latter led by medians_word). Text to wrap or escape (free()), NULL when there is nothing to say. */
char *report_panel_load_text(const struct compare_model *m, const struct compare_panel *p);
/* Where a panel has cells confounded with others' demand and its sides are runs: the shell command
 * that runs the sides in turn beside the same neighbours (then compare again; kernels: `reaim vm`),
 * lines of a shell loop (its body after a tab), to print unwrapped (free()); NULL otherwise. */
char *report_panel_separate_command(const struct compare_model *m, const struct compare_panel *p);
char *report_panel_few_text(const struct compare_model *m, const struct compare_panel *p, const char *medians_word);
/* A panel's verdict in one line, as every format prints it: "B is 4.3 % ± 1.1 % slower than A (95 %)
 * at 3 of 4 task counts, Holm" (the mean significant change and its intervals' mean half-width). */
void report_panel_line(const struct compare_model *m, const struct compare_panel *p, char *buf, size_t len);
/* A comparison's caution or warning in words (report/note_text.c, the one place notes are worded):
 * its sentence; the JSON names of its code and level and the HTML class of its level (NULL: no such
 * code or level); its cells as JSON's "tasks" says them ("1, 2"; NULL: none); its value as JSON says
 * it (the options of a kconfig note, the sides of a one-run note); kernel config changes as one line,
 * "CONFIG_HZ '1000' against '250', ..." (b's value first, at most `listed`, then how many more; NULL
 * when none). The strings returned are the caller's to free(). */
struct compare_note;
struct kconfig_change;
char *report_note_text(const struct compare_model *m, const struct compare_note *n);
const char *report_note_code_name(enum compare_note_code c);
const char *report_note_level_name(enum compare_note_level l);
const char *report_note_level_style(enum compare_note_level l);
char *report_note_tasks(const struct compare_model *m, const struct compare_note *n);
char *report_note_value(const struct compare_model *m, const struct compare_note *n);
char *report_kconfig_line(const struct kconfig_change *c, size_t n, size_t listed);
/* Each note once, after a view's tables: a blank line, then a sentence a note (escaped; Markdown: an
 * item, else wrapped at `columns`); and JSON's "notes": the sentences as an array of strings. */
void report_notes_text(FILE *f, const struct compare_model *m, int markdown, size_t columns);
void report_notes_json(FILE *f, const struct compare_model *m);
/* A comparison's judgement of itself in words (report/gate_text.c): why one run has nothing to compare
 * inside it, why the comparison cannot be judged, why a gate cannot vouch, and the gate's decision in
 * one sentence; each "" when there is none. */
void report_nothing_text(const struct compare_model *m, char *buf, size_t len);
void report_unjudged_text(const struct compare_model *m, char *buf, size_t len);
void report_gate_vouch(const struct compare_model *m, char *buf, size_t len);
void report_gate_decision(const struct compare_model *m, char *buf, size_t len);
/* What a verdict is called (report/verdict_states.c, its one table): a panel's verdict as compare's
 * JSON names it ("worse"), in words ("regression"; of O_SYNC on against off, "O_SYNC costs": what
 * O_SYNC costs is expected, no regression) and the HTML badge's class ("worse"; O_SYNC's "unchanged");
 * a cell's state as CSV and JSON name it ("slower"). */
const char *report_verdict_json(enum compare_verdict k);
const char *report_verdict_words(const struct compare_model *m, enum compare_verdict k);
const char *report_verdict_style(const struct compare_model *m, enum compare_verdict k);
const char *report_state_name(enum compare_state s);
/* The words for a worsening and a betterment of the model's metric: "slower", "faster" of Jobs/Min and
 * times; "higher", "lower" (or the other way) of the rest. */
void report_metric_words(const struct compare_model *m, const char **worse, const char **better);
/* The metric's name in a column header: "JPM" for Jobs/Min, else its name (real_s). */
const char *report_metric_short(const struct compare_model *m);
/* A mean of the metric as the text views print it: Jobs/Min to 0.1, the rest to 4 significant digits
 * (a real_s of 1 ms is no 0.00). */
void report_metric_value(const struct compare_model *m, double v, char *buf, size_t len);
/* What the cells show of the samples, for a legend: "mean", "minimum, mean and maximum". */
void report_stats_text(const struct compare_model *m, char *buf, size_t len);
/* What --stat and --runs make the cells show, as compare's legend says it; NULL when they show the
 * means alone. Freed by the caller. */
char *report_views_legend(const struct compare_model *m);
/* JSON members shared by compare's and the wide table's: `, "KEY": {"mean": .., "median": .., ..., "n": N}`
 * of a cell's side (the base's: other 0); `, "KEY": [{"run": ID, "label": .., "value": .., "points": N}]`;
 * `, "stats": [the names shown], "per_run": BOOL`. */
struct compare_cell;
struct compare_run_value;
void report_json_stats(FILE *f, const char *key, const struct compare_cell *c, int other);
void report_json_runs(FILE *f, const char *key, const struct compare_run_value *r, size_t n);
void report_json_shown(FILE *f, const struct compare_model *m);

/* What a compare concluded besides what it wrote. */
struct compare_result {
	enum compare_gate gate;   /* of --fail-above and --bisect (compare_model_gate) */
	int nothing;              /* nothing to compare: no cell in common, or one run with nothing inside */
	char why[640];            /* why it could not judge or vouch, "" when it could */
	int judged;               /* why is about the vouching: the comparison itself could be judged */
	char decision[640];       /* the gate's decision and why, one sentence (compare_model's decision) */
};
/* `reaim compare`: two or more groups of runs (each run's mean per task count is one sample; one run
 * a side: its repeats, with a caution), the first the base; or one group of one run: its variants
 * (else its O_SYNC settings) paired round by round. JSON stays JSON when nothing can be compared
 * (with the reason). -1 when the store cannot be read (store_error says why). */
int report_compare(FILE *f, struct store *st, const struct compare_group *groups, size_t n,
		   const struct compare_options *o, struct compare_result *res);
/* What every column of compare's tables means, the test, the correction, the outside load's model, MDE
 * and CPU: the legend -v prints (freed by the caller). */
char *report_compare_legend(const struct compare_model *m);
/* What report_compare concluded of a model (its gate, whether there was nothing, why). */
void report_compare_result(const struct compare_model *m, struct compare_result *res);
/* `compare --long` (report/long.c): a model per figure (o->metrics; none: o->metric) over the same groups,
 * laid out as one table per block, a row per side within each task count and a column per figure (the
 * first with each --stat), the change of each mean beside it; text, or Markdown as a code block. -1 as
 * report_compare. */
int report_compare_long(FILE *f, struct store *st, const struct compare_group *groups, size_t n,
			const struct compare_options *o, struct compare_result *res);
/* After compare's tables of Jobs/Min and of Real (--metric each), the cells where the two, one the other's
 * reciprocal, are judged apart, and why (as --long says it); nothing where they agree. -1 as report_compare. */
int report_compare_reciprocals(FILE *f, struct store *st, const struct compare_group *groups, size_t n,
			       const struct compare_options *o);
/* A change of the means as the views print it: "+8.4%", or with the model's --ratio B/A or A/B ("-" where
 * not finite). */
void report_change_text(const struct compare_model *m, double pct, char *buf, size_t len);
/* A compare format: its --format name, one line of help, and its writer's steps (end may be NULL):
 * before the first panel, per panel (a workload, O_SYNC setting and variant of one side against the
 * base), after. */
struct compare_model;
struct compare_panel;
struct compare_format {
	const char *name, *help;
	void (*begin)(FILE *f, const struct compare_model *m);
	void (*panel)(FILE *f, const struct compare_model *m, const struct compare_panel *p);
	void (*end)(FILE *f, const struct compare_model *m);
};
extern const struct compare_format report_compare_formats[]; /* ends with a NULL name */
/* `compare --wide`: the model as one table, a column per side (report/wide.c), in a format named as
 * report_compare_formats names them (table, markdown, csv, json). */
struct wide_model;
struct compare_wide_format {
	const char *name;
	void (*write)(FILE *f, const struct wide_model *w);
};
extern const struct compare_wide_format report_compare_wide_formats[]; /* ends with a NULL name */
void report_compare_wide(FILE *f, const struct compare_model *m, const char *format);
/* `compare --summary`: a line per case with each side's change and mark, then the TOTAL (report/cases.c),
 * in a format named as report_compare_formats names them. */
void report_compare_cases(FILE *f, const struct compare_model *m, const char *format);
/* Its CSV and JSON writers (report/wide_data.c). */
void report_wide_csv(FILE *f, const struct wide_model *w);
void report_wide_json(FILE *f, const struct wide_model *w);
/* Print text word by word within `width` columns (0: one line, as Markdown wants its paragraphs),
 * continuation lines after `indent`. */
void report_wrap(FILE *f, const char *text, const char *indent, size_t width);
/* `compare --counters`: the same model's cells, and the counters that moved with their Jobs/Min
 * (analysis/cmpcounters.h) in a compare format of report_compare_formats. -1 as report_compare. */
int report_compare_counters(FILE *f, struct store *st, const struct compare_group *groups, size_t n,
			    const struct compare_options *o);
struct counter_side;
/* What one side's points of a cell saw, in words for every view: "outside load 36-54 % (mean 45 %),
 * CPU pressure 59 %, throttled 1.9 s in 230 periods a point". */
void report_counter_side(char *buf, size_t len, const struct counter_side *s);
/* The samples a side that would show a move (struct counter_change's n_to_show): "3", ">1000" or "-". */
void report_counter_n(char *buf, size_t len, double n);

#endif
