/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every caution and warning of a comparison in words, once: one table keyed by the note's code (its
 * JSON name, how its cells read, the function that words it) and one keyed by its level. analysis/
 * fills struct compare_note's fields; every view (compare's text, Markdown and JSON, the wide views,
 * --long, the HTML page) says a note through here. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cmpmodel.h"
#include "analysis/kconfig.h"
#include "report/report.h"
#include "report/textout.h"
#include "util/util.h"

/* Kernel config options a note lists one by one; the rest are counted. */
#define NOTE_CONFIG_LISTED 12

/* How a note's cells (struct compare_note_at) read, in its sentence and in JSON's "tasks". */
enum note_at_form {
	AT_NONE,            /* a note about no cell */
	AT_TASKS,           /* "1, 2" */
	AT_SIDE_COUNTS,     /* "1 (A 0, B 2), 2 (A 0, B 2)": each side's count there */
	AT_WORKLOAD_TASKS,  /* "dbase 2, shared 4" */
};

typedef void note_words_fn(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n);

struct note_row {
	const char *json;          /* the code as JSON and CSV write it */
	enum note_at_form at;
	note_words_fn *words;
};

static const char *letter(const struct compare_model *m, long side)
{
	return side >= 0 && (size_t)side < m->nsides ? m->sides[side].letter : "?";
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static const struct note_row *row_of(enum compare_note_code c);

char *report_note_tasks(const struct compare_model *m, const struct compare_note *n)
{
	const struct note_row *r = row_of(n->code);
	if (!r || r->at == AT_NONE || !n->nat)
		return NULL;
	struct strbuf sb = {0};
	for (size_t i = 0; i < n->nat; i++) {
		const struct compare_note_at *at = &n->at[i];
		strbuf_addf(&sb, "%s", i ? ", " : "");
		if (r->at == AT_WORKLOAD_TASKS)
			strbuf_addf(&sb, "%s ", at->workload);
		strbuf_addf(&sb, "%d", at->tasks);
		if (r->at == AT_SIDE_COUNTS)
			strbuf_addf(&sb, " (%s %zu, %s %zu)", letter(m, 0), at->a, letter(m, n->side), at->b);
	}
	return sb.buf;
}

char *report_kconfig_line(const struct kconfig_change *c, size_t n, size_t listed)
{
	if (n == 0)
		return NULL;
	struct strbuf sb = {0};
	for (size_t i = 0; i < n && i < listed; i++)
		strbuf_addf(&sb, "%s%s '%s' against '%s'", i ? ", " : "", c[i].name, c[i].b, c[i].a);
	if (n > listed)
		strbuf_addf(&sb, " and %zu more", n - listed);
	return sb.buf;
}

char *report_note_value(const struct compare_model *m, const struct compare_note *n)
{
	if (n->code == NOTE_KCONFIG_DIFFERS)
		return report_kconfig_line(n->config, n->count, NOTE_CONFIG_LISTED);
	if (n->code == NOTE_ONE_RUN) {
		struct strbuf sb = {0};
		for (size_t i = 0; i < n->nsides; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", letter(m, (long)n->sides[i]));
		return sb.buf;
	}
	if (n->code == NOTE_NOISY && n->value && n->value[0]) /* "B: outside load 23.4 % of the machine" */
		return xasprintf("%s: %s", letter(m, n->value_other ? n->side : n->base_side), n->value);
	return n->value ? xstrdup(n->value) : NULL;
}

/* "run 3 (B)", or "runs 3, 4 (B)" where one difference was found in several runs of a side. */
static void runs_of_side(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	strbuf_addf(sb, "run%s ", plural(n->nruns));
	for (size_t i = 0; i < n->nruns; i++)
		strbuf_addf(sb, "%s%lld", i ? ", " : "", (long long)n->runs[i]);
	strbuf_addf(sb, " (%s) differ%s from run %lld (%s)", letter(m, n->side), n->nruns > 1 ? "" : "s",
		    (long long)n->base_run, letter(m, n->base_side));
}

static void words_run_incomplete(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	strbuf_addf(sb, "warning: run %lld (%s) is %s: its valid points are used", (long long)n->run, letter(m, n->side),
		    n->value);
}

/* A boot's kernel as the variable under test says it: "vmlinuz-a (image 0123456789ab, command line '...')". */
static void boot_of(struct strbuf *sb, const char *kernel, const char *image, const char *cmdline)
{
	strbuf_addf(sb, "%s (image %.12s, command line '%s')", kernel ? kernel : "?", image ? image : "", cmdline);
}

static void words_env_differs(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	if (n->level == NOTE_INFO) { /* reaim vm booted the sides from kernels said to differ */
		strbuf_addf(sb, "the variable under test (reaim vm): %s boots ", letter(m, n->base_side));
		boot_of(sb, n->fact[0], n->fact[1], n->base_value);
		strbuf_addf(sb, ", %s boots ", letter(m, n->side));
		boot_of(sb, n->fact[2], n->fact[3], n->value);
		return;
	}
	strbuf_addf(sb, "warning: ");
	runs_of_side(sb, m, n);
	strbuf_addf(sb, " in %s: '%s' against '%s'%s", n->key, n->value ? n->value : "(absent)", n->base_value,
		    n->two_builds ? " (two builds of one kernel release)" : "");
}

static void words_kconfig_differs(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	char *line = report_note_value(m, n);
	strbuf_addf(sb, "%s: ", n->level == NOTE_WARNING ? "warning" : "note");
	runs_of_side(sb, m, n);
	strbuf_addf(sb, " in %zu kernel config option%s: %s", n->count, plural(n->count), line ? line : "");
	free(line);
}

static void words_option_differs(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	strbuf_addf(sb, "warning: ");
	runs_of_side(sb, m, n);
	strbuf_addf(sb, " in option %s of workload %s: '%s' against '%s'", n->key, n->workload, n->value, n->base_value);
}

static void words_mix_differs(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	strbuf_addf(sb, "warning: workload %s of run %lld (%s) is not the one run %lld (%s) measured: its mix is %s "
			"against %s; unlike runs are not judged",
		    n->workload, (long long)n->run, letter(m, n->side), (long long)n->base_run, letter(m, n->base_side),
		    n->value, n->base_value);
}

static void words_osync_sequential(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	(void)m, (void)n;
	strbuf_addf(sb, "caution: O_SYNC on and off ran one after the other, not interleaved, so drift between them "
			"is not cancelled by pairing rounds (--variant interleaves the points it compares)");
}

static void words_group_gap(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	char *at = report_note_tasks(m, n);
	strbuf_addf(sb, "caution: only one of %s's %zu runs has valid points at (workload tasks) %s, so %s's samples "
			"there are that run's repeats, which understate the noise between runs",
		    letter(m, n->side), n->count, at, letter(m, n->side));
	free(at);
}

static void words_one_run(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	char *who = report_note_value(m, n);
	int several = n->nsides > 1;
	strbuf_addf(sb, "caution: %s %s one run, so %s samples are the repeats inside it, which share one window of "
			"outside load: p values and intervals understate the noise between runs (give 2 or more runs "
			"a side: A1,A2 B1,B2)",
		    who, several ? "have" : "has", several ? "their" : "its");
	free(who);
}

/* ", O_SYNC on, variant x": the rest of a block's name after its workload. */
static void block_rest(struct strbuf *sb, int osync, const char *variant)
{
	if (osync >= 0)
		strbuf_addf(sb, ", O_SYNC %s", osync ? "on" : "off");
	if (variant[0])
		strbuf_addf(sb, ", variant %s", variant);
}

static void words_missing(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	char *at = report_note_tasks(m, n);
	strbuf_addf(sb, "caution: %s has no valid point at %s task%s of workload %s", letter(m, n->side), at,
		    n->nat == 1 && n->at[0].tasks == 1 ? "" : "s", n->workload);
	block_rest(sb, n->osync, n->variant);
	strbuf_addf(sb, " that %s measured: %s cannot be judged", letter(m, n->base_side),
		    n->nat == 1 ? "that cell" : "those cells");
	free(at);
}

static void words_noisy(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	char *at = report_note_tasks(m, n), *why = report_note_value(m, n);
	strbuf_addf(sb, "caution: points measured in noise at %s tasks of workload %s", at, n->workload);
	block_rest(sb, -1, n->variant);
	strbuf_addf(sb, ", %s against %s (%s): their change may be the noise's; %s", letter(m, n->side),
		    letter(m, n->base_side), why ? why : "",
		    m->exclude_noisy ? "they are counted here, but left out of the samples (--exclude-noisy)"
				     : "--exclude-noisy judges without them");
	free(why);
	free(at);
}

static void words_looks(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	(void)m;
	strbuf_addf(sb, "caution: some samples are the rounds of a run made with --precision, which stopped at one of "
			"up to %zu looks: their p values are multiplied by the looks and their intervals taken at alpha "
			"/ looks, so stopping early does not raise false alarms (wider than a fixed number of rounds "
			"would give)",
		    n->count);
}

static void words_unpaired(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	char *at = report_note_tasks(m, n);
	if (m->blocked)
		strbuf_addf(sb, "caution: runs without a partner of the other side on their device are left out of the "
				"pairs at %s tasks of workload %s: the means compared are of the pairs",
			    at, n->workload);
	else
		strbuf_addf(sb, "caution: valid rounds whose partner in the other arm is invalid are left out of the "
				"pairs at %s tasks of workload %s: the means compared are of the pairs, while show and "
				"the plot's curves keep every valid round",
			    at, n->workload);
	free(at);
}

static void words_confounded(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	char *at = report_note_tasks(m, n);
	const char *other = letter(m, n->side);
	strbuf_addf(sb, "caution: %s's change at %s tasks of workload %s cannot be told apart from the outside load: "
			"at %s's points others demanded %.0f-%.0f %% of the CPUs, at %s's %.0f-%.0f %%; interleave "
			"the sides (--variant, or runs A B B A) or run them on a quiet machine",
		    other, at, n->workload, other, n->figure[2], n->figure[3], letter(m, n->base_side), n->figure[0],
		    n->figure[1]);
	free(at);
}

static void words_host_load(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	int tcg = n->value && strcmp(n->value, "tcg") == 0;
	strbuf_addf(sb, "caution: the host's CPU used by others during the boots differs: %s's %zu boot%s saw "
			"%.0f-%.0f %% (mean %.0f), %s's %zu saw %.0f-%.0f %% (mean %.0f); the guests cannot see it "
			"(%s), so their figures may differ by the host's load alone: boot the sides again on a "
			"quieter host",
		    letter(m, n->side), n->count, plural(n->count), n->figure[2], n->figure[3], n->figure[5],
		    letter(m, n->base_side), n->base_count, n->figure[0], n->figure[1], n->figure[4],
		    tcg ? "a TCG guest has no steal time" : "beyond its steal time");
}

static void words_blocked(struct strbuf *sb, const struct compare_model *m, const struct compare_note *n)
{
	(void)m;
	strbuf_addf(sb, "blocked by device: the runs came from %zu device%s of a lab; each side's runs are paired "
			"with the base's on the same device, so a device's own speed drops out (a paired test over "
			"the pairs)",
		    n->count, plural(n->count));
}

static const struct note_row note_rows[] = {
	[NOTE_RUN_INCOMPLETE] = {.json = "run_incomplete", .words = words_run_incomplete},
	[NOTE_ENV_DIFFERS] = {.json = "env_differs", .words = words_env_differs},
	[NOTE_KCONFIG_DIFFERS] = {.json = "kconfig_differs", .words = words_kconfig_differs},
	[NOTE_OPTION_DIFFERS] = {.json = "option_differs", .words = words_option_differs},
	[NOTE_MIX_DIFFERS] = {.json = "mix_differs", .words = words_mix_differs},
	[NOTE_OSYNC_SEQUENTIAL] = {.json = "osync_sequential", .words = words_osync_sequential},
	[NOTE_GROUP_GAP] = {.json = "group_gap", .at = AT_WORKLOAD_TASKS, .words = words_group_gap},
	[NOTE_ONE_RUN] = {.json = "one_run", .words = words_one_run},
	[NOTE_MISSING] = {.json = "missing", .at = AT_TASKS, .words = words_missing},
	[NOTE_NOISY] = {.json = "noisy", .at = AT_SIDE_COUNTS, .words = words_noisy},
	[NOTE_LOOKS] = {.json = "looks", .words = words_looks},
	[NOTE_UNPAIRED] = {.json = "unpaired", .at = AT_SIDE_COUNTS, .words = words_unpaired},
	[NOTE_CONFOUNDED] = {.json = "confounded", .at = AT_TASKS, .words = words_confounded},
	[NOTE_HOST_LOAD] = {.json = "host_load", .words = words_host_load},
	[NOTE_BLOCKED] = {.json = "blocked", .words = words_blocked},
};
_Static_assert(ARRAY_SIZE(note_rows) == NOTE_NCODES, "a row for every note code");

/* A level's JSON name, and the class the HTML page styles it by. */
static const struct {
	const char *json, *style;
} level_rows[] = {
	[NOTE_WARNING] = {.json = "warning", .style = "warning"},
	[NOTE_CAUTION] = {.json = "caution", .style = "caution"},
	[NOTE_INFO] = {.json = "note", .style = "info"},
};
_Static_assert(ARRAY_SIZE(level_rows) == NOTE_NLEVELS, "a row for every note level");

static const struct note_row *row_of(enum compare_note_code c)
{
	return (unsigned)c < ARRAY_SIZE(note_rows) && note_rows[c].json ? &note_rows[c] : NULL;
}

const char *report_note_code_name(enum compare_note_code c)
{
	const struct note_row *r = row_of(c);
	return r ? r->json : NULL;
}

const char *report_note_level_name(enum compare_note_level l)
{
	return (unsigned)l < ARRAY_SIZE(level_rows) ? level_rows[l].json : NULL;
}

const char *report_note_level_style(enum compare_note_level l)
{
	return (unsigned)l < ARRAY_SIZE(level_rows) ? level_rows[l].style : NULL;
}

char *report_note_text(const struct compare_model *m, const struct compare_note *n)
{
	const struct note_row *r = row_of(n->code);
	if (!r || !r->words)
		return NULL;
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	r->words(&sb, m, n);
	return sb.buf;
}

void report_notes_text(FILE *f, const struct compare_model *m, int markdown, size_t columns)
{
	if (m->nnotes)
		fputc('\n', f);
	for (size_t i = 0; i < m->nnotes; i++) {
		char *text = report_note_text(m, &m->notes[i]);
		char *safe = text_escape(text ? text : ""); /* a note quotes stored text */
		char *line = xasprintf("%s%s", markdown ? "- " : "", safe);
		report_wrap(f, line, "  ", markdown ? 0 : columns);
		free(line);
		free(safe);
		free(text);
	}
}

void report_notes_json(FILE *f, const struct compare_model *m)
{
	fputc('[', f);
	for (size_t i = 0; i < m->nnotes; i++) {
		char *text = report_note_text(m, &m->notes[i]);
		fputs(i ? ", " : "", f);
		textout_json_string(f, text ? text : "");
		free(text);
	}
	fputc(']', f);
}
