/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tables that word a comparison (report/note_text.c, verdict_states.c, gate_text.c): every note
 * code and level, every verdict and state has its names and words, and a typed note, verdict or gate
 * reason reads as the sentence every view prints. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpmodel.h"
#include "analysis/curves.h"
#include "report/report.h"
#include "tap.h"
#include "util/util.h"

static struct compare_side sides[3] = {{.letter = "A"}, {.letter = "B"}, {.letter = "C"}};

static struct compare_model two_sides(void)
{
	return (struct compare_model){.kind = COMPARE_GROUPS, .sides = sides, .nsides = 2,
				      .metric = metric_find("jobs_per_min")};
}

/* note's sentence, compared with want and freed */
static void says(const struct compare_model *m, const struct compare_note *n, const char *want, const char *what)
{
	char *text = report_note_text(m, n);
	is_str(text, want, what);
	free(text);
}

/* Every code has a JSON name of its own and words, whatever fields it was given. */
static void every_code(void)
{
	struct compare_model m = two_sides();
	struct compare_note_at at = {.workload = "dbase", .tasks = 2, .a = 1, .b = 3};
	int64_t runs[] = {5};
	size_t who[] = {0, 1};
	struct kconfig_change ch = {.name = "CONFIG_HZ", .a = "250", .b = "1000"};
	int named = 0, worded = 0, distinct = 1;
	for (int c = 0; c < NOTE_NCODES; c++) {
		struct compare_note n = {.code = c, .level = NOTE_CAUTION, .run = 5, .base_run = 1, .runs = runs, .nruns = 1,
					 .side = 1, .base_side = 0, .sides = who, .nsides = 2, .key = "k", .workload = "dbase",
					 .osync = -1, .value = "v", .base_value = "b", .at = &at, .nat = 1, .count = 1,
					 .config = &ch};
		const char *name = report_note_code_name(c);
		named += name && name[0];
		for (int d = 0; d < c && name; d++)
			distinct &= strcmp(name, report_note_code_name(d)) != 0;
		char *text = report_note_text(&m, &n);
		worded += text && strlen(text) > 20;
		free(text);
	}
	is_int(named, NOTE_NCODES, "every note code has a JSON name");
	ok(distinct, "no two codes share one");
	is_int(worded, NOTE_NCODES, "every note code has words");
	ok(!report_note_code_name(NOTE_NCODES) && !report_note_text(&m, &(struct compare_note){.code = NOTE_NCODES}),
	   "a code past the table has neither");
	is_str(report_note_code_name(NOTE_CONFOUNDED), "confounded", "the names are JSON's");
	int levels = 0;
	for (int l = 0; l < NOTE_NLEVELS; l++)
		levels += report_note_level_name(l) && report_note_level_style(l);
	is_int(levels, NOTE_NLEVELS, "every level has a JSON name and a style");
	is_str(report_note_level_name(NOTE_INFO), "note", "a note's level is called note");
	ok(strcmp(report_note_level_style(NOTE_WARNING), report_note_level_style(NOTE_CAUTION)) != 0,
	   "the page styles a warning otherwise than a caution");
}

static void sentences(void)
{
	struct compare_model m = two_sides();
	struct compare_note_at at[] = {{.workload = "dbase", .tasks = 1, .a = 0, .b = 2},
				       {.workload = "dbase", .tasks = 2, .a = 0, .b = 2}};
	struct compare_note noisy = {.code = NOTE_NOISY, .level = NOTE_CAUTION, .side = 1, .base_side = 0,
				     .workload = "dbase", .variant = "x", .value = "outside load 61.0 % of the machine", .value_other = 1,
				     .at = at, .nat = 2};
	says(&m, &noisy,
	     "caution: points measured in noise at 1 (A 0, B 2), 2 (A 0, B 2) tasks of workload dbase, variant x, B "
	     "against A (B: outside load 61.0 % of the machine): their change may be the noise's; --exclude-noisy "
	     "judges without them",
	     "noisy: the cells with each side's count, the variant, the reason");
	char *tasks = report_note_tasks(&m, &noisy);
	is_str(tasks, "1 (A 0, B 2), 2 (A 0, B 2)", "noisy: JSON's tasks, from the same cells");
	free(tasks);
	m.exclude_noisy = 1;
	char *text = report_note_text(&m, &noisy);
	ok(text && strstr(text, "left out of the samples (--exclude-noisy)"), "noisy: what --exclude-noisy did, when given");
	free(text);

	struct compare_note missing = {.code = NOTE_MISSING, .level = NOTE_CAUTION, .side = 1, .base_side = 0,
				       .workload = "dbase", .osync = 1, .at = at, .nat = 1, .count = 1};
	says(&m, &missing,
	     "caution: B has no valid point at 1 task of workload dbase, O_SYNC on that A measured: that cell cannot be "
	     "judged",
	     "missing: one task count, singular, its block");

	int64_t runs[] = {3, 4};
	struct compare_note env = {.code = NOTE_ENV_DIFFERS, .level = NOTE_WARNING, .run = 3, .base_run = 1, .runs = runs,
				   .nruns = 2, .side = 1, .base_side = 0, .key = "kernel.version", .value = "#2 SMP",
				   .base_value = "#1 SMP", .two_builds = 1};
	says(&m, &env,
	     "warning: runs 3, 4 (B) differ from run 1 (A) in kernel.version: '#2 SMP' against '#1 SMP' (two builds "
	     "of one kernel release)",
	     "env_differs: the runs that share the difference, joined");
	env.nruns = 1, env.value = NULL, env.two_builds = 0;
	says(&m, &env, "warning: run 3 (B) differs from run 1 (A) in kernel.version: '(absent)' against '#1 SMP'",
	     "env_differs: one run, a fact it lacks");

	size_t who[] = {0, 1};
	struct compare_note one = {.code = NOTE_ONE_RUN, .level = NOTE_CAUTION, .side = -1, .base_side = -1, .sides = who,
				   .nsides = 2, .count = 2};
	text = report_note_value(&m, &one);
	is_str(text, "A, B", "one_run: JSON's value names the sides");
	free(text);

	struct kconfig_change ch[13];
	char names[13][16];
	for (int i = 0; i < 13; i++) {
		snprintf(names[i], sizeof(names[i]), "CONFIG_%c", 'A' + i);
		ch[i] = (struct kconfig_change){.name = names[i], .a = "y", .b = "n"};
	}
	struct compare_note kc = {.code = NOTE_KCONFIG_DIFFERS, .level = NOTE_INFO, .run = 2, .base_run = 1, .runs = runs,
				  .nruns = 1, .side = 1, .base_side = 0, .count = 13, .config = ch};
	runs[0] = 2;
	text = report_note_text(&m, &kc);
	ok(text && strncmp(text, "note: run 2 (B) differs from run 1 (A) in 13 kernel config options: CONFIG_A 'n' "
				 "against 'y', ", 90) == 0 && strstr(text, "CONFIG_L 'n' against 'y' and 1 more"),
	   "kconfig_differs: twelve options listed, the rest counted, as a note below a warning");
	free(text);
}

static void verdicts(void)
{
	struct compare_model m = two_sides();
	int named = 0;
	for (int k = 0; k < COMPARE_NVERDICTS; k++)
		named += report_verdict_json(k)[0] && report_verdict_words(&m, k)[0] && report_verdict_style(&m, k)[0];
	is_int(named, COMPARE_NVERDICTS, "every verdict has a JSON name, words and a style");
	is_str(report_verdict_words(&m, COMPARE_WORSE), "regression", "a worse panel of runs is a regression");
	is_str(report_verdict_style(&m, COMPARE_WORSE), "worse", "painted worse");
	m.kind = COMPARE_OSYNC;
	is_str(report_verdict_words(&m, COMPARE_WORSE), "O_SYNC costs", "O_SYNC on against off: what O_SYNC costs");
	is_str(report_verdict_style(&m, COMPARE_WORSE), "unchanged", "not painted as a regression");
	is_str(report_verdict_style(&m, COMPARE_CONFOUNDED), "confounded", "a confounded O_SYNC panel still is");
	is_str(report_verdict_json(COMPARE_NO_DATA), "no data", "the JSON names are the model's codes");
	int states = 0;
	for (int s = 0; s < COMPARE_NSTATES; s++)
		states += report_state_name(s)[0] != '?';
	is_int(states, COMPARE_NSTATES, "every cell state has a name");
}

static void gate(void)
{
	struct compare_model m = two_sides();
	char buf[640];
	m.unjudged = UNJUDGED_MISSING, m.missing = 1;
	report_unjudged_text(&m, buf, sizeof(buf));
	is_str(buf, "1 task count the base measured has no valid point on another side", "unjudged: one task count missing");
	m.gate_decided = 1, m.gate_result = COMPARE_GATE_UNJUDGED;
	report_gate_decision(&m, buf, sizeof(buf));
	is_str(buf, "1 task count the base measured has no valid point on another side", "the gate's decision says it");
	struct compare_cell cells[] = {{.tasks = 4}, {.tasks = 1}};
	struct compare_panel panel = {.workload = "dbase", .osync = 0, .side = 1, .cells = cells, .ncells = 2};
	struct compare_cell_ref failed[] = {{0, 0}, {0, 1}};
	m.panels = &panel, m.npanels = 1, m.unjudged = UNJUDGED_NO, m.gate_result = COMPARE_GATE_FAIL;
	m.fail_above_pct = 5;
	m.gate_why.failed.v = failed, m.gate_why.failed.n = 2, m.gate_why.worst_pct = -12.34;
	report_gate_decision(&m, buf, sizeof(buf));
	is_str(buf, "significantly slower by more than 5 % at 4 tasks of dbase (O_SYNC off); 1 task of dbase (O_SYNC off) "
		    "(worst -12.3 %)",
	       "a failed gate: the cells it failed on and the worst change");
	report_gate_vouch(&m, buf, sizeof(buf));
	is_str(buf, "", "a failed gate vouches for nothing, and says no why");
	m.nothing = NOTHING_INSIDE, m.nothing_run = 7;
	report_nothing_text(&m, buf, sizeof(buf));
	ok(strncmp(buf, "run 7 has no variants", 21) == 0, "nothing inside one run: named");
}

int main(void)
{
	tap_case(every_code);
	tap_case(sentences);
	tap_case(verdicts);
	tap_case(gate);
	return done_testing();
}
