/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The model behind `reaim compare`: sides and their replicates, a verdict per cell (Welch on runs as
 * replicates, or paired by round inside one run), the correction over all cells, what --fail-above
 * counts, subtests by their share of the change, and warnings naming the run that differs. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/cfg.h"
#include "analysis/stats.h"
#include "analysis/cmpblock.h"
#include "analysis/cmpmodel.h"
#include "analysis/curves.h"
#include "analysis/kconfig.h"
#include "analysis/noise.h"
#include "measure/load.h"
#include "util/util.h"

const char *const compare_correction_names[] = {"holm", "bh", NULL};

const char *compare_correction_name(enum compare_correction c)
{
	return c == COMPARE_BH ? "Benjamini-Hochberg" : "Holm";
}

const char *compare_verdict_name(enum compare_verdict k)
{
	static const char *const names[] = {[COMPARE_UNCHANGED] = "unchanged", [COMPARE_BETTER] = "better",
					    [COMPARE_WORSE] = "worse",         [COMPARE_MIXED] = "mixed",
					    [COMPARE_UNJUDGED] = "unjudged",   [COMPARE_NO_DATA] = "no data",
					    [COMPARE_CONFOUNDED] = "confounded"};
	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "?";
}

const char *compare_state_name(enum compare_state st)
{
	static const char *const names[] = {[CELL_NOT_JUDGED] = "not judged", [CELL_FASTER] = "faster",
					    [CELL_SLOWER] = "slower",         [CELL_WITHIN] = "within",
					    [CELL_NOT_DETECTED] = "not detected", [CELL_CONFOUNDED] = "confounded"};
	return (unsigned)st < ARRAY_SIZE(names) ? names[st] : "?";
}

const char *compare_load_model_name(enum compare_load_model k)
{
	static const char *const names[] = {[LOAD_UNMEASURED] = "unmeasured", [LOAD_BALANCED] = "balanced",
					    [LOAD_SIMILAR] = "similar",       [LOAD_COVARIATE] = "covariate",
					    [LOAD_INSEPARABLE] = "inseparable"};
	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "?";
}

const char *compare_kind_name(enum compare_kind k)
{
	switch (k) {
	case COMPARE_VARIANTS: return "variants";
	case COMPARE_OSYNC: return "osync";
	case COMPARE_LOADS: return "loads";
	case COMPARE_GROUPS: break;
	}
	return "groups";
}

void compare_side_name(const struct compare_model *m, size_t side, char *buf, size_t len)
{
	const struct compare_side *s = &m->sides[side];
	struct strbuf sb = {0};
	strbuf_addf(&sb, "%s: %s", s->letter, m->kind == COMPARE_GROUPS ? s->label : m->run_label);
	if (m->kind != COMPARE_GROUPS)
		strbuf_addf(&sb, ", %s", s->label);
	strbuf_addf(&sb, " (run%s", s->nruns > 1 ? "s" : "");
	for (size_t i = 0; i < s->nruns; i++)
		strbuf_addf(&sb, "%s %lld", i ? "," : "", (long long)s->runs[i]);
	strbuf_addf(&sb, ")");
	snprintf(buf, len, "%s", sb.buf);
	strbuf_free(&sb);
}

const struct compare_panel *compare_panel_find(const struct compare_model *m, size_t side, const char *workload,
					       int osync, const char *variant, const char *load, int cpus)
{
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		if (p->side == side && strcmp(p->workload, workload) == 0 && (p->osync < 0 || p->osync == osync) &&
		    (m->kind == COMPARE_VARIANTS || strcmp(p->variant, variant) == 0) && p->cpus == cpus &&
		    strcmp(p->load, load) == 0)
			return p;
	}
	return NULL;
}

/* A run as read: its row, its points and (loaded when first needed) each point's tests. */
struct crun {
	int64_t id;
	struct store_run_row row;
	struct store_point *pts;
	size_t n;
	struct store_test **tests;
	size_t *ntests;
	int *loaded;
	struct store_option *opts; /* its workloads' stored options, read when first needed */
	size_t nopts;
	int opts_loaded;
	char *device;              /* the lab's device it ran on (reaim lab), NULL: none */
};

/* What a block is: the points of a side that measured it. */
struct key {
	const char *workload;
	int osync;                /* -1: the side says */
	const char *variant;      /* NULL: the side says */
	int cpus;                 /* --cpus: the CPU count (0: every CPU) */
	const char *load;         /* --load: the background load ("" without); NULL: the side says */
	int skip_noisy;           /* --exclude-noisy: points measured in noise are left out */
};

struct build {
	struct store *st;
	struct compare_model *m;
	struct crun *runs;
	size_t nruns;
	size_t *side_run0;        /* per side, the index of its first run in runs */
	int blocked;              /* every run from a lab's device: the sides are paired by device */
};

const char *compare_note_code_name(enum compare_note_code c)
{
	static const char *const names[] = {
		[NOTE_RUN_INCOMPLETE] = "run_incomplete", [NOTE_ENV_DIFFERS] = "env_differs",
		[NOTE_KCONFIG_DIFFERS] = "kconfig_differs", [NOTE_OPTION_DIFFERS] = "option_differs",
		[NOTE_MIX_DIFFERS] = "mix_differs",         [NOTE_OSYNC_SEQUENTIAL] = "osync_sequential",
		[NOTE_GROUP_GAP] = "group_gap",             [NOTE_ONE_RUN] = "one_run",
		[NOTE_MISSING] = "missing",                 [NOTE_NOISY] = "noisy",
		[NOTE_LOOKS] = "looks",                     [NOTE_CONFOUNDED] = "confounded",
		[NOTE_UNPAIRED] = "unpaired",               [NOTE_HOST_LOAD] = "host_load",
		[NOTE_BLOCKED] = "blocked",
	};
	return (unsigned)c < ARRAY_SIZE(names) && names[c] ? names[c] : "?";
}

const char *compare_note_level_name(enum compare_note_level l)
{
	return l == NOTE_WARNING ? "warning" : l == NOTE_CAUTION ? "caution" : "note";
}

/* A caution's fields before its sentence: NOTE(code, level, ...named fields, both sides or NO_SIDES). */
#define NO_SIDES .side = -1, .base_side = -1
#define NOTE(c, l, ...)                                                                                      \
	(struct compare_note)                                                                                \
	{                                                                                                    \
		.code = (c), .level = (l),                                                                   \
		__VA_ARGS__                                                                                  \
	}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Add a caution: its fields (strings copied) and its sentence. */
static void note(struct compare_model *m, struct compare_note n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(struct compare_model *m, struct compare_note n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	m->notes = xrealloc(m->notes, (m->nnotes + 1) * sizeof(*m->notes));
	m->cautions = xrealloc(m->cautions, (m->nnotes + 1) * sizeof(*m->cautions));
	n.value = dup_or_null(n.value);
	n.base_value = dup_or_null(n.base_value);
	n.tasks = dup_or_null(n.tasks);
	n.text = s;
	m->cautions[m->nnotes] = n;
	m->notes[m->nnotes++] = s;
}

static struct crun *run_of(struct build *b, int64_t id)
{
	for (size_t i = 0; i < b->nruns; i++)
		if (b->runs[i].id == id)
			return &b->runs[i];
	return NULL;
}

static int load_run(struct build *b, int64_t id)
{
	if (run_of(b, id))
		return 0;
	b->runs = xrealloc(b->runs, (b->nruns + 1) * sizeof(*b->runs));
	struct crun *r = &b->runs[b->nruns];
	memset(r, 0, sizeof(*r));
	r->id = id;
	if (store_get_run(b->st, id, &r->row) < 0 || store_get_points(b->st, id, &r->pts, &r->n) < 0)
		return -1;
	r->tests = xcalloc(r->n + 1, sizeof(*r->tests));
	r->ntests = xcalloc(r->n + 1, sizeof(*r->ntests));
	r->loaded = xcalloc(r->n + 1, sizeof(*r->loaded));
	r->device = cmpblock_device(b->st, id);
	b->nruns++;
	return 0;
}

/* The looks a run's --precision stopping rule took at each task count of a workload (1 without it),
 * from its stored options. */
static size_t run_looks(struct build *b, struct crun *r, const char *workload)
{
	if (!r->opts_loaded) {
		r->opts_loaded = 1;
		if (store_get_workload_options(b->st, r->id, &r->opts, &r->nopts) < 0) {
			r->opts = NULL;
			r->nopts = 0;
		}
	}
	struct run_opts ro;
	run_opts_defaults(&ro);
	static const char *const keys[] = {"precision", "max_repeat", "repeat"};
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++)
		for (size_t i = 0; i < r->nopts; i++) {
			const char *why;
			if (strcmp(r->opts[i].workload, workload) == 0 && strcmp(r->opts[i].key, keys[k]) == 0)
				option_set(&ro, option_find(keys[k]), r->opts[i].value, &why); /* unreadable: the default */
		}
	long long looks = plan_looks(&ro);
	run_opts_free(&ro);
	return looks > 1 ? (size_t)looks : 1;
}

/* The most looks of the runs of a side (its samples are one run's repeats where this matters). */
static size_t side_looks(struct build *b, const struct compare_side *s, const char *workload)
{
	size_t most = 1;
	for (size_t i = 0; i < s->nruns; i++) {
		size_t l = run_looks(b, run_of(b, s->runs[i]), workload);
		most = l > most ? l : most;
	}
	return most;
}

/* A point's per-test rows (read once); NULL when it has none or they cannot be read. */
static const struct store_test *tests_of(struct build *b, struct crun *r, size_t i, size_t *n)
{
	if (!r->loaded[i]) {
		r->loaded[i] = 1;
		if (store_get_tests(b->st, r->pts[i].id, &r->tests[i], &r->ntests[i]) < 0) {
			r->tests[i] = NULL;
			r->ntests[i] = 0;
		}
	}
	*n = r->ntests[i];
	return r->tests[i];
}

/* Whether a point belongs to a side's share of a block. */
static int matches(const struct compare_side *s, const struct key *k, const struct store_point *p)
{
	if (!p->valid || strcmp(p->workload, k->workload) != 0 || p->cpus != k->cpus ||
	    strcmp(p->load, s->load ? s->load : k->load) != 0 || (k->skip_noisy && noise_of_point(p)))
		return 0;
	if (p->osync != (s->osync >= 0 ? s->osync : k->osync))
		return 0;
	return strcmp(p->variant, s->variant ? s->variant : k->variant) == 0;
}

/* The figures a cell compares, by their place in a point; the judged figure's (FIG_METRIC: Jobs/Min
 * unless --metric) and the CPU figure's places are the model's, and the outside load (FIG_LOAD) is
 * the sampler's outside share plus steal. */
enum { FIG_METRIC, FIG_CPU, FIG_USER, FIG_SYS, FIG_REAL, FIG_LOAD, NFIG };
static const size_t figures[NFIG] = {
	[FIG_METRIC] = offsetof(struct store_point, jobs_per_min), [FIG_CPU] = offsetof(struct store_point, cpu_s),
	[FIG_USER] = offsetof(struct store_point, user_s), [FIG_SYS] = offsetof(struct store_point, sys_s),
	[FIG_REAL] = offsetof(struct store_point, real_s), [FIG_LOAD] = offsetof(struct store_point, outside_cpu_pct),
};

/* The outside load of a point as the verdict may use it: what others demanded of the CPUs where the
 * run could not move it (their runnable threads while the run was idle, just before and after the
 * point), in % of the CPUs; NaN where not measured. The CPU others *used* during the point (and
 * steal) is what the run left them, so it moves with the change under test and only describes. */
static double point_load(const struct store_point *p)
{
	if (!p->sampled || !isfinite(p->others_demand_pct))
		return NAN;
	return p->others_demand_pct;
}

static double field(const struct build *b, const struct store_point *p, size_t f)
{
	if (f == FIG_LOAD)
		return point_load(p);
	size_t offset = f == FIG_METRIC ? b->m->metric->offset
		      : f == FIG_CPU && b->m->cpu_window ? offsetof(struct store_point, window_cpu_s) : figures[f];
	double v;
	memcpy(&v, (const char *)p + offset, sizeof(v));
	return v;
}

/* Whether a point is one of a side's samples of a cell: the block's, at the task count, and with the
 * judged figure measured (a sampler's figure is not where the sampler did not run). */
static int takes(const struct build *b, const struct compare_side *s, const struct key *k, int tasks,
		 const struct store_point *p)
{
	return p->tasks == tasks && matches(s, k, p) && isfinite(field(b, p, FIG_METRIC));
}

double compare_cell_stat(const struct compare_cell *c, int other, int stat)
{
	if (stat == COMPARE_STAT_MEAN)
		return other ? c->mean_b : c->mean_a;
	const struct compare_spread *s = other ? &c->spread_b : &c->spread_a;
	return stat > 0 && stat < COMPARE_NSTATS ? s->v[stat] : NAN;
}

int compare_worse(const struct compare_model *m, double change_pct)
{
	return m->metric && !m->metric->rise_better ? change_pct > 0 : change_pct < 0;
}

/* A change in the way that counts as better: the change of a figure where a rise is better, minus it
 * where a rise is worse. */
static double gain(const struct compare_model *m, double change_pct)
{
	return m->metric && !m->metric->rise_better ? -change_pct : change_pct;
}

static void points_add(struct compare_cell_points *cp, int64_t id, size_t sample)
{
	cp->ids = xrealloc(cp->ids, (cp->n + 1) * sizeof(*cp->ids));
	cp->sample = xrealloc(cp->sample, (cp->n + 1) * sizeof(*cp->sample));
	cp->ids[cp->n] = id;
	cp->sample[cp->n++] = sample;
	cp->nsamples = sample + 1 > cp->nsamples ? sample + 1 : cp->nsamples;
}

static void points_free(struct compare_cell_points *cp)
{
	free(cp->ids);
	free(cp->sample);
	memset(cp, 0, sizeof(*cp));
}

/* Whether every valid point loaded has its CPU over the measured window (schema 13 on): then CPU is
 * that, as in reaim's table; one older run makes it the whole-life figure on both sides. */
static int all_have_window_cpu(const struct build *b)
{
	for (size_t i = 0; i < b->nruns; i++)
		for (size_t j = 0; j < b->runs[i].n; j++)
			if (b->runs[i].pts[j].valid && !isfinite(b->runs[i].pts[j].window_cpu_s))
				return 0;
	return 1;
}

/* A side's replicates of each figure at one task count (groups of runs): each run's values, then
 * verdict_group_samples (run means with two or more runs, else the one run's repeats). */
static void side_samples(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
			 struct verdict_samples out[NFIG], struct compare_cell_points *cp)
{
	/* the points behind the samples, as verdict_group_samples groups them: a run each with two or
	 * more runs that have values here, else each of the one run's repeats */
	size_t with = 0, ordinal = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		struct crun *r = run_of(b, s->runs[i]);
		size_t n = 0;
		for (size_t j = 0; j < r->n; j++)
			n += takes(b, s, k, tasks, &r->pts[j]);
		with += n > 0;
	}
	for (size_t i = 0; i < s->nruns; i++) {
		struct crun *r = run_of(b, s->runs[i]);
		size_t n = 0;
		for (size_t j = 0; j < r->n; j++)
			if (takes(b, s, k, tasks, &r->pts[j])) {
				points_add(cp, r->pts[j].id, with > 1 ? ordinal : n);
				n++;
			}
		ordinal += with > 1 && n > 0;
	}
	struct verdict_run *vr = xcalloc(s->nruns + 1, sizeof(*vr));
	double **vals = xcalloc(s->nruns + 1, sizeof(*vals));
	for (size_t f = 0; f < NFIG; f++) {
		for (size_t i = 0; i < s->nruns; i++) {
			struct crun *r = run_of(b, s->runs[i]);
			vals[i] = xcalloc(r->n + 1, sizeof(double));
			size_t n = 0;
			for (size_t j = 0; j < r->n; j++)
				if (takes(b, s, k, tasks, &r->pts[j]))
					vals[i][n++] = field(b, &r->pts[j], f);
			vr[i] = (struct verdict_run){vals[i], n};
		}
		verdict_group_samples(vr, s->nruns, &out[f]);
		for (size_t i = 0; i < s->nruns; i++)
			free(vals[i]);
	}
	free(vals);
	free(vr);
}

static double mean_of(const double *v, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / (double)n : NAN;
}

static double pct_change(double a, double b)
{
	return a != 0 && isfinite(a) && isfinite(b) ? 100.0 * (b / a - 1.0) : NAN;
}

/* Mean of the values that are not NaN (k of n). */
static double mean_of_valid(const double *v, size_t n, size_t k)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			sum += v[i];
	return k ? sum / (double)k : NAN;
}

/* The values of one figure of a side's only run by round (NaN where a round has no valid point). */
static size_t side_rounds(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
			  size_t f, double **out)
{
	struct crun *r = run_of(b, s->runs[0]);
	int most = -1;
	for (size_t j = 0; j < r->n; j++)
		if (takes(b, s, k, tasks, &r->pts[j]) && r->pts[j].repeat > most)
			most = r->pts[j].repeat;
	*out = xcalloc((size_t)(most + 1) + 1, sizeof(double));
	for (int i = 0; i <= most; i++)
		(*out)[i] = NAN;
	for (size_t j = 0; j < r->n; j++)
		if (takes(b, s, k, tasks, &r->pts[j]) && r->pts[j].repeat >= 0)
			(*out)[r->pts[j].repeat] = field(b, &r->pts[j], f);
	return (size_t)(most + 1);
}

/* The pairs (a_i, b_i) of rounds both sides measured. */
static size_t pairs(const double *a, size_t na, const double *b, size_t nb, double *pa, double *pb)
{
	size_t n = 0;
	for (size_t i = 0; i < na && i < nb; i++)
		if (!isnan(a[i]) && !isnan(b[i])) {
			pa[n] = a[i];
			pb[n++] = b[i];
		}
	return n;
}

static int by_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The median of n values (NaN when none); v is left as it was. */
static double median_of(const double *v, size_t n)
{
	if (!n)
		return NAN;
	double *c = xmalloc(n * sizeof(*c));
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), by_double);
	double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

/* The outside load a side's samples saw; n 0 when a sample was not measured by the sampler. */
static struct compare_load load_of(const double *v, size_t n)
{
	struct compare_load l = {.mean = NAN, .min = NAN, .max = NAN};
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return l;
	for (size_t i = 0; i < n; i++) {
		l.min = i && l.min < v[i] ? l.min : v[i];
		l.max = i && l.max > v[i] ? l.max : v[i];
	}
	l.mean = mean_of(v, n);
	l.n = n;
	return l;
}

/* How a cell's test is made: paired rounds or groups, adjusted for the outside load or not, at
 * alpha over the looks its sides' repeats stopped at. */
struct cell_test {
	int paired, covariate;
	double alpha;
	size_t looks;
};

/* The test a cell of groups makes: Welch's, or the change adjusted for the outside load. */
static int groups_test(const struct verdict_xy *a, const struct verdict_xy *b, const struct cell_test *t,
		       struct verdict *v)
{
	double alpha = t->alpha;
	size_t looks = t->looks;
	if (!t->covariate)
		return verdict_welch_looks(a->y, a->n, b->y, b->n, alpha, VERDICT_POWER, looks, v);
	double each = alpha / (double)(looks ? looks : 1);
	int rc = verdict_ancova(a, b, each, VERDICT_POWER, v);
	if (rc == 0 && looks > 1) {
		v->p = fmin(1, v->p * (double)looks);
		v->significant = v->p < alpha;
	}
	return rc;
}

/* Whether one sample decides the cell: left out in turn (from either side, or a pair), some leave-one-out
 * test flips the sign of the change or whether it is significant (at alpha, before the correction). */
static int one_sample_decides(const struct verdict_xy *sa, const struct verdict_xy *sb, const struct cell_test *t,
			      const struct verdict *all)
{
	const double *ya = sa->y, *xa = sa->x, *yb = sb->y, *xb = sb->x;
	size_t na = sa->n, nb = sb->n;
	int paired = t->paired;
	size_t total = paired ? na : na + nb;
	double *a = xcalloc(na + 1, sizeof(double)), *b = xcalloc(nb + 1, sizeof(double));
	double *ax = xcalloc(na + 1, sizeof(double)), *bx = xcalloc(nb + 1, sizeof(double));
	int decides = 0;
	for (size_t out = 0; out < total && !decides; out++) {
		size_t ka = 0, kb = 0;
		for (size_t i = 0; i < na; i++)
			if (i != out) {
				ax[ka] = xa ? xa[i] : 0;
				a[ka++] = ya[i];
			}
		for (size_t i = 0; i < nb; i++)
			if ((paired ? i : i + na) != out) {
				bx[kb] = xb ? xb[i] : 0;
				b[kb++] = yb[i];
			}
		struct verdict v;
		int rc = paired ? verdict_paired_looks(a, b, ka, t->alpha, VERDICT_POWER, t->looks, &v)
				: groups_test(&(struct verdict_xy){.y = a, .x = ax, .n = ka},
					      &(struct verdict_xy){.y = b, .x = bx, .n = kb}, t, &v);
		if (rc != 0) { /* too few left to test: a significant verdict rests on every sample */
			decides = all->significant;
			continue;
		}
		decides = (v.diff > 0) != (all->diff > 0) || v.significant != all->significant;
	}
	free(a);
	free(b);
	free(ax);
	free(bx);
	return decides;
}

/* How a cell of groups accounts for the outside load, from the loads its sides' samples saw. */
static enum compare_load_model groups_load_model(const struct compare_cell *c, double shortest_s)
{
	if (!c->load_a.n || !c->load_b.n)
		return LOAD_UNMEASURED;
	/* the demand is a mean of runnable counts read every few ms, not of /proc/stat's ticks over the
	 * point: its resolution does not depend on the point's length */
	(void)shortest_s;
	if (fabs(c->load_b.mean - c->load_a.mean) <= COMPARE_LOAD_SIMILAR_PCT)
		return LOAD_SIMILAR;
	return LOAD_COVARIATE; /* LOAD_INSEPARABLE when the model cannot be fitted */
}

/* The point of a side's only run at a round of a cell (its id), or -1. */
static int64_t round_point(struct build *b, const struct compare_side *s, const struct key *k, int tasks, int round)
{
	struct crun *r = run_of(b, s->runs[0]);
	for (size_t j = 0; j < r->n; j++)
		if (r->pts[j].repeat == round && takes(b, s, k, tasks, &r->pts[j]))
			return r->pts[j].id;
	return -1;
}

static void cell_paired(struct build *b, const struct compare_side *sa, const struct compare_side *sb,
			const struct key *k, struct compare_cell *c)
{
	double means[2][NFIG];
	double *pairs_of[NFIG][2];
	size_t n = 0;
	for (size_t f = 0; f < NFIG; f++) {
		double *ra, *rb;
		size_t na = side_rounds(b, sa, k, c->tasks, f, &ra);
		size_t nb = side_rounds(b, sb, k, c->tasks, f, &rb);
		double *pa = xcalloc(na + 1, sizeof(double)), *pb = xcalloc(na + 1, sizeof(double));
		n = pairs(ra, na, rb, nb, pa, pb);
		means[0][f] = mean_of(pa, n);
		means[1][f] = mean_of(pb, n);
		if (f == FIG_METRIC) {
			size_t ka = 0, kb = 0; /* a side's own values count even without a partner */
			for (size_t i = 0; i < na; i++)
				ka += !isnan(ra[i]);
			for (size_t i = 0; i < nb; i++)
				kb += !isnan(rb[i]);
			for (size_t i = 0, at = 0; i < na && i < nb; i++)
				if (!isnan(ra[i]) && !isnan(rb[i])) {
					points_add(&c->pts_a, round_point(b, sa, k, c->tasks, (int)i), at);
					points_add(&c->pts_b, round_point(b, sb, k, c->tasks, (int)i), at++);
				}
			c->present = n > 0;
			c->na = c->nb = n;
			c->unpaired_a = ka - n;
			c->unpaired_b = kb - n;
			c->mean_a = n ? means[0][0] : mean_of_valid(ra, na, ka);
			c->mean_b = n ? means[1][0] : mean_of_valid(rb, nb, kb);
			c->median_a = median_of(pa, n);
			c->median_b = median_of(pb, n);
			compare_spread_of(pa, n, &c->spread_a);
			compare_spread_of(pb, n, &c->spread_b);
			/* one run: both arms stopped together, at one of its looks */
			c->looks = side_looks(b, sa, k->workload);
			c->judged = verdict_paired_looks(pa, pb, n, b->m->alpha, VERDICT_POWER, c->looks, &c->v) == 0;
			c->raw = c->v;
			c->raw_judged = c->judged;
		} else if (f == FIG_CPU) {
			c->cpu_judged = verdict_paired_looks(pa, pb, n, b->m->alpha, VERDICT_POWER, c->looks, &c->cpu_v) == 0;
		} else if (f == FIG_LOAD) {
			c->load_a = load_of(pa, n);
			c->load_b = load_of(pb, n);
		}
		pairs_of[f][0] = pa;
		pairs_of[f][1] = pb;
		free(ra);
		free(rb);
	}
	/* the rounds ran interleaved, so a load that drifts hits both arms of a pair alike */
	c->load_model = c->load_a.n && c->load_b.n ? LOAD_BALANCED : LOAD_UNMEASURED;
	const struct verdict_xy ya = {.y = pairs_of[FIG_METRIC][0], .n = c->na},
				yb = {.y = pairs_of[FIG_METRIC][1], .n = c->nb};
	const struct cell_test paired = {.paired = 1, .alpha = b->m->alpha, .looks = c->looks};
	if (c->judged)
		c->fragile = one_sample_decides(&ya, &yb, &paired, &c->v);
	for (size_t f = 0; f < NFIG; f++) {
		free(pairs_of[f][0]);
		free(pairs_of[f][1]);
	}
	c->paired = 1;
	c->rank_p = -1;
	c->cpu_pct = pct_change(means[0][1], means[1][1]);
	c->user_pct = pct_change(means[0][2], means[1][2]);
	c->sys_pct = pct_change(means[0][3], means[1][3]);
	c->real_pct = pct_change(means[0][4], means[1][4]);
}

static void cell_groups(struct build *b, const struct compare_side *sa, const struct compare_side *sb,
			const struct key *k, struct compare_cell *c)
{
	struct verdict_samples xa[NFIG], xb[NFIG];
	side_samples(b, sa, k, c->tasks, xa, &c->pts_a);
	side_samples(b, sb, k, c->tasks, xb, &c->pts_b);
	c->na = xa[FIG_METRIC].n;
	c->nb = xb[FIG_METRIC].n;
	c->src_a = xa[FIG_METRIC].source;
	c->src_b = xb[FIG_METRIC].source;
	c->mean_a = mean_of(xa[FIG_METRIC].v, xa[FIG_METRIC].n);
	c->mean_b = mean_of(xb[FIG_METRIC].v, xb[FIG_METRIC].n);
	c->median_a = median_of(xa[FIG_METRIC].v, xa[FIG_METRIC].n);
	c->median_b = median_of(xb[FIG_METRIC].v, xb[FIG_METRIC].n);
	compare_spread_of(xa[FIG_METRIC].v, xa[FIG_METRIC].n, &c->spread_a);
	compare_spread_of(xb[FIG_METRIC].v, xb[FIG_METRIC].n, &c->spread_b);
	c->load_a = load_of(xa[FIG_LOAD].v, xa[FIG_LOAD].n);
	c->load_b = load_of(xb[FIG_LOAD].v, xb[FIG_LOAD].n);
	c->present = c->na > 0 && c->nb > 0;
	c->rank_p = -1;
	if (c->present) {
		/* a side's repeats stopped at one of its run's looks; run means do not depend on them */
		size_t la = xa[FIG_METRIC].source == VERDICT_SRC_REPEATS ? side_looks(b, sa, k->workload) : 1;
		size_t lb = xb[FIG_METRIC].source == VERDICT_SRC_REPEATS ? side_looks(b, sb, k->workload) : 1;
		double alpha = b->m->alpha;
		c->looks = la * lb;
		/* each side's figures, each with the outside load its sample saw */
		struct verdict_xy ya = {.y = xa[FIG_METRIC].v, .x = xa[FIG_LOAD].v, .n = c->na},
				  yb = {.y = xb[FIG_METRIC].v, .x = xb[FIG_LOAD].v, .n = c->nb},
				  cpu_a = {.y = xa[FIG_CPU].v, .x = xa[FIG_LOAD].v, .n = xa[FIG_CPU].n},
				  cpu_b = {.y = xb[FIG_CPU].v, .x = xb[FIG_LOAD].v, .n = xb[FIG_CPU].n};
		struct cell_test plain = {.alpha = alpha, .looks = c->looks}, adjusted = plain;
		adjusted.covariate = 1;
		c->raw_judged = groups_test(&ya, &yb, &plain, &c->raw) == 0;
		c->load_model = groups_load_model(c, fmin(mean_of(xa[FIG_REAL].v, xa[FIG_REAL].n),
							  mean_of(xb[FIG_REAL].v, xb[FIG_REAL].n)));
		int covariate = 0;
		/* a slope from fewer than 6 samples (df 3) is too unsteady to adjust by */
		if (c->load_model == LOAD_COVARIATE && c->na + c->nb < COMPARE_COVARIATE_MIN_N)
			c->load_model = LOAD_INSEPARABLE;
		if (c->load_model == LOAD_COVARIATE) {
			covariate = groups_test(&ya, &yb, &adjusted, &c->v) == 0;
			if (!covariate)
				c->load_model = LOAD_INSEPARABLE;
		}
		if (covariate) {
			c->judged = 1;
		} else {
			c->v = c->raw;
			c->judged = c->raw_judged;
		}
		const struct cell_test *made = covariate ? &adjusted : &plain;
		c->cpu_judged = groups_test(&cpu_a, &cpu_b, made, &c->cpu_v) == 0;
		if (c->judged)
			c->fragile = one_sample_decides(&ya, &yb, made, &c->v);
		double u;
		if (stats_mann_whitney(xa[FIG_METRIC].v, c->na, xb[FIG_METRIC].v, c->nb, &u, &c->rank_p) < 0)
			c->rank_p = -1;
	}
	double *pcts[] = {NULL, &c->cpu_pct, &c->user_pct, &c->sys_pct, &c->real_pct};
	for (size_t f = 1; f < FIG_LOAD; f++)
		*pcts[f] = pct_change(mean_of(xa[f].v, xa[f].n), mean_of(xb[f].v, xb[f].n));
	for (size_t f = 0; f < NFIG; f++) {
		verdict_samples_free(&xa[f]);
		verdict_samples_free(&xb[f]);
	}
}

/* ---- a lab's devices as blocks (reaim lab) ---- */

/* Each run of a side with points at a cell: its mean of every figure there (vals[f][i]), its id and
 * its device; how many. */
static size_t run_means(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
			double *vals[NFIG], struct crun **runs)
{
	size_t n = 0;
	for (size_t f = 0; f < NFIG; f++)
		vals[f] = xcalloc(s->nruns + 1, sizeof(double));
	for (size_t i = 0; i < s->nruns; i++) {
		struct crun *r = run_of(b, s->runs[i]);
		size_t points = 0;
		for (size_t f = 0; f < NFIG; f++)
			vals[f][n] = 0;
		for (size_t j = 0; j < r->n; j++)
			if (takes(b, s, k, tasks, &r->pts[j])) {
				for (size_t f = 0; f < NFIG; f++)
					vals[f][n] += field(b, &r->pts[j], f);
				points++;
			}
		if (!points)
			continue;
		for (size_t f = 0; f < NFIG; f++)
			vals[f][n] /= (double)points;
		runs[n++] = r;
	}
	return n;
}

/* The points of a run at a cell, as sample `sample` of the cell. */
static void run_points(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
		       const struct crun *r, size_t sample, struct compare_cell_points *cp)
{
	for (size_t j = 0; j < r->n; j++)
		if (takes(b, s, k, tasks, &r->pts[j]))
			points_add(cp, r->pts[j].id, sample);
}

/* Groups of runs from a lab: each run's mean is a sample, and side b's are paired with side a's on the
 * same device in the order they ran, so a device's own speed drops out of every pair's difference (a
 * blocked design); the paired test judges the pairs. */
static void cell_blocked(struct build *b, const struct compare_side *sa, const struct compare_side *sb,
			 const struct key *k, struct compare_cell *c)
{
	double *va[NFIG], *vb[NFIG];
	struct crun **ra = xcalloc(sa->nruns + 1, sizeof(*ra)), **rb = xcalloc(sb->nruns + 1, sizeof(*rb));
	size_t na = run_means(b, sa, k, c->tasks, va, ra), nb = run_means(b, sb, k, c->tasks, vb, rb);
	char **da = xcalloc(na + 1, sizeof(*da)), **db = xcalloc(nb + 1, sizeof(*db));
	for (size_t i = 0; i < na; i++)
		da[i] = ra[i]->device;
	for (size_t i = 0; i < nb; i++)
		db[i] = rb[i]->device;
	size_t *ia = xcalloc(na + 1, sizeof(size_t)), *ib = xcalloc(na + 1, sizeof(size_t));
	size_t n = cmpblock_pair(da, na, db, nb, ia, ib);
	double *pa[NFIG], *pb[NFIG];
	for (size_t f = 0; f < NFIG; f++) {
		pa[f] = xcalloc(n + 1, sizeof(double));
		pb[f] = xcalloc(n + 1, sizeof(double));
		for (size_t i = 0; i < n; i++)
			pa[f][i] = va[f][ia[i]], pb[f][i] = vb[f][ib[i]];
	}
	for (size_t i = 0; i < n; i++) {
		run_points(b, sa, k, c->tasks, ra[ia[i]], i, &c->pts_a);
		run_points(b, sb, k, c->tasks, rb[ib[i]], i, &c->pts_b);
	}
	c->present = n > 0;
	c->paired = 1;
	c->na = c->nb = n;
	c->unpaired_a = na - n;
	c->unpaired_b = nb - n;
	c->src_a = c->src_b = VERDICT_SRC_RUNS;
	c->mean_a = mean_of(pa[FIG_METRIC], n);
	c->mean_b = mean_of(pb[FIG_METRIC], n);
	c->median_a = median_of(pa[FIG_METRIC], n);
	c->median_b = median_of(pb[FIG_METRIC], n);
	compare_spread_of(pa[FIG_METRIC], n, &c->spread_a);
	compare_spread_of(pb[FIG_METRIC], n, &c->spread_b);
	c->looks = 1;
	c->judged = verdict_paired_looks(pa[FIG_METRIC], pb[FIG_METRIC], n, b->m->alpha, VERDICT_POWER, 1, &c->v) == 0;
	c->raw = c->v;
	c->raw_judged = c->judged;
	c->cpu_judged = verdict_paired_looks(pa[FIG_CPU], pb[FIG_CPU], n, b->m->alpha, VERDICT_POWER, 1, &c->cpu_v) == 0;
	c->load_a = load_of(pa[FIG_LOAD], n);
	c->load_b = load_of(pb[FIG_LOAD], n);
	/* the kernels ran side by side on the devices, rotated turn by turn: a load hits both alike */
	c->load_model = c->load_a.n && c->load_b.n ? LOAD_BALANCED : LOAD_UNMEASURED;
	const struct cell_test paired = {.paired = 1, .alpha = b->m->alpha, .looks = 1};
	if (c->judged)
		c->fragile = one_sample_decides(&(struct verdict_xy){.y = pa[FIG_METRIC], .n = n},
						&(struct verdict_xy){.y = pb[FIG_METRIC], .n = n}, &paired, &c->v);
	c->rank_p = -1;
	double *pcts[] = {NULL, &c->cpu_pct, &c->user_pct, &c->sys_pct, &c->real_pct};
	for (size_t f = 1; f < FIG_LOAD; f++)
		*pcts[f] = pct_change(mean_of(pa[f], n), mean_of(pb[f], n));
	for (size_t f = 0; f < NFIG; f++) {
		free(va[f]), free(vb[f]), free(pa[f]), free(pb[f]);
	}
	free(ra), free(rb), free(da), free(db), free(ia), free(ib);
}

/* Each run of a side with a point at a cell: its mean over the points the cell takes there. */
static size_t cell_runs(struct build *b, const struct compare_side *s, const struct key *k, int tasks,
			struct compare_run_value **out)
{
	*out = xcalloc(s->nruns + 1, sizeof(**out));
	size_t n = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		struct crun *r = run_of(b, s->runs[i]);
		double sum = 0;
		size_t points = 0;
		for (size_t j = 0; j < r->n; j++)
			if (takes(b, s, k, tasks, &r->pts[j])) {
				sum += field(b, &r->pts[j], FIG_METRIC);
				points++;
			}
		if (!points)
			continue;
		struct compare_run_value *v = &(*out)[n++];
		v->run = r->id;
		snprintf(v->label, sizeof(v->label), "%s", r->row.label);
		v->value = sum / (double)points;
		v->points = points;
	}
	return n;
}

/* ---- blocks ---- */

static int key_equal(const struct key *a, const struct key *b)
{
	return strcmp(a->workload, b->workload) == 0 && a->osync == b->osync && a->cpus == b->cpus &&
	       (a->load == b->load || (a->load && b->load && strcmp(a->load, b->load) == 0)) &&
	       (a->variant == b->variant || (a->variant && b->variant && strcmp(a->variant, b->variant) == 0));
}

/* The blocks the base side measured, in the order it first did: one per workload, O_SYNC setting
 * and variant, less what the sides themselves select. */
static size_t block_keys(struct build *b, struct key **out)
{
	const struct compare_side *s = &b->m->sides[0];
	size_t n = 0;
	*out = NULL;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct crun *r = run_of(b, s->runs[i]);
		for (size_t j = 0; j < r->n; j++) {
			const struct store_point *p = &r->pts[j];
			struct key k = {p->workload, s->osync >= 0 ? -1 : p->osync, s->variant ? NULL : p->variant,
					p->cpus, s->load ? NULL : p->load, b->m->exclude_noisy};
			if (!matches(s, &k, p))
				continue;
			size_t q = 0;
			while (q < n && !key_equal(&(*out)[q], &k))
				q++;
			if (q < n)
				continue;
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = k;
		}
	}
	return n;
}

static int by_int(const void *x, const void *y)
{
	int a = *(const int *)x, c = *(const int *)y;
	return (a > c) - (a < c);
}

/* The task counts the base side measured in a block, ascending. */
static size_t block_tasks(struct build *b, const struct key *k, int **out)
{
	const struct compare_side *s = &b->m->sides[0];
	size_t n = 0, cap = 0;
	*out = NULL;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct crun *r = run_of(b, s->runs[i]);
		for (size_t j = 0; j < r->n; j++) {
			if (!matches(s, k, &r->pts[j]))
				continue;
			size_t q = 0;
			while (q < n && (*out)[q] != r->pts[j].tasks)
				q++;
			if (q < n)
				continue;
			if (n == cap) {
				cap = cap * 2 + 8;
				*out = xrealloc(*out, cap * sizeof(int));
			}
			(*out)[n++] = r->pts[j].tasks;
		}
	}
	if (n)
		qsort(*out, n, sizeof(int), by_int);
	return n;
}

/* ---- subtests: each one's share of the change in total job time ---- */

/* Test names and, per replicate of a side, each test's total job time summed over the cells. */
struct units {
	size_t n;                 /* replicates */
	double *v;                /* [test * n + unit] */
	size_t ntests;            /* tests this side met; the others read as 0 */
};

struct names {
	char (*v)[32];
	size_t n;
};

static size_t name_index(struct names *nm, const char *name)
{
	for (size_t i = 0; i < nm->n; i++)
		if (strcmp(nm->v[i], name) == 0)
			return i;
	nm->v = xrealloc(nm->v, (nm->n + 1) * sizeof(*nm->v));
	snprintf(nm->v[nm->n], sizeof(nm->v[0]), "%s", name);
	return nm->n++;
}

/* The point of a run at (tasks, round) in a side's share of a block, or -1. */
static long point_at(const struct crun *r, const struct compare_side *s, const struct key *k, int tasks, int round)
{
	for (size_t j = 0; j < r->n; j++)
		if (r->pts[j].tasks == tasks && r->pts[j].repeat == round && matches(s, k, &r->pts[j]))
			return (long)j;
	return -1;
}

/* The cells of a panel a subtest's change sums over: its key and the task counts both sides have. */
struct cells {
	const struct key *k;
	const int *tasks;
	size_t nt;
};

static int has_all(const struct crun *r, const struct compare_side *s, const struct cells *cs)
{
	const struct key *k = cs->k;
	const int *tasks = cs->tasks;
	size_t nt = cs->nt;
	for (size_t t = 0; t < nt; t++) {
		int found = 0;
		for (size_t j = 0; j < r->n && !found; j++)
			found = r->pts[j].tasks == tasks[t] && matches(s, k, &r->pts[j]);
		if (!found)
			return 0;
	}
	return 1;
}

/* Add w times each of a point's tests' total job time to replicate u of out, whose n is the
 * replicates (names grow as met). */
static void add_tests(const struct store_test *t, size_t nt, double w, struct names *nm, struct units *out, size_t u)
{
	for (size_t i = 0; i < nt; i++) {
		size_t x = name_index(nm, t[i].name);
		while (out->ntests <= x) {
			out->v = xrealloc(out->v, (out->ntests + 1) * out->n * sizeof(double));
			memset(out->v + out->ntests * out->n, 0, out->n * sizeof(double));
			out->ntests++;
		}
		if (isfinite(t[i].total_s))
			out->v[x * out->n + u] += w * t[i].total_s;
	}
}

/* The rounds of run r of a side (and, paired, of the other side's only run) that measured every cell. */
static size_t full_rounds(struct build *b, const struct crun *r, const struct compare_side *s,
			  const struct compare_side *also, const struct cells *cs, int **out)
{
	const struct key *k = cs->k;
	const int *tasks = cs->tasks;
	size_t nt = cs->nt;
	int most = -1;
	for (size_t j = 0; j < r->n; j++)
		most = r->pts[j].repeat > most ? r->pts[j].repeat : most;
	*out = xcalloc((size_t)(most + 2), sizeof(int));
	size_t n = 0;
	for (int round = 0; round <= most; round++) {
		int ok = 1;
		for (size_t t = 0; t < nt && ok; t++)
			ok = point_at(r, s, k, tasks[t], round) >= 0 &&
			     (!also || point_at(run_of(b, also->runs[0]), also, k, tasks[t], round) >= 0);
		if (ok)
			(*out)[n++] = round;
	}
	return n;
}

/* A side's replicates of each test's total job time over the cells: its runs (two or more that
 * measured every cell: each run's mean per cell, summed), else its one run's full rounds. With
 * paired rounds, `rounds` gives them (the same for both sides). */
static void side_units(struct build *b, const struct compare_side *s, const struct cells *cs, const int *rounds,
		       size_t nrounds, struct names *nm, struct units *out)
{
	const struct key *k = cs->k;
	const int *tasks = cs->tasks;
	size_t nt = cs->nt;
	size_t *full = xcalloc(s->nruns + 1, sizeof(size_t)), nfull = 0;
	for (size_t i = 0; !rounds && i < s->nruns; i++)
		if (has_all(run_of(b, s->runs[i]), s, cs))
			full[nfull++] = i;
	int *own = NULL;
	if (!rounds && nfull == 1)
		nrounds = full_rounds(b, run_of(b, s->runs[full[0]]), s, NULL, cs, &own), rounds = own;
	size_t nunits = rounds ? nrounds : nfull, ntests;
	*out = (struct units){.n = nunits};
	for (size_t u = 0; u < nunits; u++) {
		struct crun *r = run_of(b, s->runs[rounds ? (own ? full[0] : 0) : full[u]]);
		for (size_t t = 0; t < nt; t++) {
			if (rounds) {
				long j = point_at(r, s, k, tasks[t], rounds[u]);
				const struct store_test *tests = j >= 0 ? tests_of(b, r, (size_t)j, &ntests) : NULL;
				if (tests)
					add_tests(tests, ntests, 1, nm, out, u);
				continue;
			}
			size_t cnt = 0;
			for (size_t j = 0; j < r->n; j++)
				cnt += r->pts[j].tasks == tasks[t] && matches(s, k, &r->pts[j]);
			for (size_t j = 0; j < r->n; j++)
				if (r->pts[j].tasks == tasks[t] && matches(s, k, &r->pts[j])) {
					const struct store_test *tests = tests_of(b, r, j, &ntests);
					add_tests(tests, ntests, 1.0 / (double)cnt, nm, out, u);
				}
		}
	}
	free(own);
	free(full);
}

static double unit(const struct units *u, size_t test, size_t i)
{
	return test < u->ntests ? u->v[test * u->n + i] : 0;
}

/* The change of one test (or of all, test == SIZE_MAX) between the sides' replicates. */
static void subtest_change(const struct compare_model *m, const struct units *a, const struct units *b,
			   size_t test, size_t ntests, int paired, struct compare_subtest *out)
{
	double *va = xcalloc(a->n + 1, sizeof(double)), *vb = xcalloc(b->n + 1, sizeof(double));
	for (size_t i = 0; i < a->n; i++)
		for (size_t t = 0; t < ntests; t++)
			va[i] += test == SIZE_MAX || t == test ? unit(a, t, i) : 0;
	for (size_t i = 0; i < b->n; i++)
		for (size_t t = 0; t < ntests; t++)
			vb[i] += test == SIZE_MAX || t == test ? unit(b, t, i) : 0;
	out->base_s = mean_of(va, a->n);
	out->delta_s = mean_of(vb, b->n) - out->base_s;
	out->na = a->n;
	out->nb = b->n;
	struct verdict v;
	int rc = paired ? verdict_paired(va, vb, a->n, m->alpha, VERDICT_POWER, &v)
			: verdict_welch_samples(va, a->n, vb, b->n, m->alpha, VERDICT_POWER, &v);
	out->p = rc == 0 ? v.p : NAN;
	out->noise = rc != 0 || !(v.p < m->alpha);
	free(va);
	free(vb);
}

static int by_delta(const void *x, const void *y)
{
	double a = fabs(((const struct compare_subtest *)x)->delta_s), c = fabs(((const struct compare_subtest *)y)->delta_s);
	return (a < c) - (a > c);
}

static void panel_subtests(struct build *b, const struct key *k, struct compare_panel *pn)
{
	const struct compare_side *sa = &b->m->sides[0], *sb = &b->m->sides[pn->side];
	int *tasks = xcalloc(pn->ncells + 1, sizeof(int));
	size_t nt = 0;
	for (size_t i = 0; i < pn->ncells; i++)
		if (pn->cells[i].present)
			tasks[nt++] = pn->cells[i].tasks;
	int paired = b->m->kind != COMPARE_GROUPS;
	int *rounds = NULL;
	const struct cells cs = {.k = k, .tasks = tasks, .nt = nt};
	size_t nrounds = paired && nt ? full_rounds(b, run_of(b, sa->runs[0]), sa, sb, &cs, &rounds) : 0;
	struct names nm = {0};
	struct units ua = {0}, ub = {0};
	if (nt) {
		side_units(b, sa, &cs, paired ? rounds : NULL, nrounds, &nm, &ua);
		side_units(b, sb, &cs, paired ? rounds : NULL, nrounds, &nm, &ub);
	}
	if (ua.n && ub.n) {
		pn->subs = xcalloc(nm.n + 1, sizeof(*pn->subs));
		subtest_change(b->m, &ua, &ub, SIZE_MAX, nm.n, paired, &pn->total);
		snprintf(pn->total.name, sizeof(pn->total.name), "all");
		double moved = 0; /* every test's change, whichever way */
		for (size_t t = 0; t < nm.n; t++) {
			struct compare_subtest *st = &pn->subs[pn->nsubs++];
			subtest_change(b->m, &ua, &ub, t, nm.n, paired, st);
			snprintf(st->name, sizeof(st->name), "%s", nm.v[t]);
			moved += fabs(st->delta_s);
		}
		/* a share of all the movement, signed by the test's own direction (+: more job time): shares of a
		 * tiny net change made of large opposite moves stay within +-100 % */
		for (size_t t = 0; t < pn->nsubs; t++)
			pn->subs[t].share_pct = moved > 0 ? 100 * pn->subs[t].delta_s / moved : NAN;
		pn->total.share_pct = moved > 0 ? 100 * pn->total.delta_s / moved : NAN; /* the net, of the movement */
		qsort(pn->subs, pn->nsubs, sizeof(*pn->subs), by_delta);
	}
	free(ua.v);
	free(ub.v);
	free(nm.v);
	free(rounds);
	free(tasks);
}

/* ---- a panel: one block of one other side against the base ---- */

/* The valid points of a side at a task count of a block that were measured in noise (left out with
 * --exclude-noisy, counted all the same); the first one's reason into why when why is given. */
static size_t noisy_at(struct build *b, const struct compare_side *s, const struct key *k, int tasks, char *why,
		       size_t len)
{
	struct key all = *k;
	all.skip_noisy = 0;
	size_t n = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct crun *r = run_of(b, s->runs[i]);
		for (size_t j = 0; j < r->n; j++) {
			const struct store_point *p = &r->pts[j];
			const char *reason = noise_of_point(p);
			if (p->tasks != tasks || !reason || !matches(s, &all, p))
				continue;
			if (why && !n)
				snprintf(why, len, "%s", reason);
			n++;
		}
	}
	return n;
}

/* The sampler's user, sys, iowait and disk-util shares over a side's sampled points of a block. */
static int side_system(struct build *b, const struct compare_side *s, const struct key *k, double out[4])
{
	size_t used = 0;
	memset(out, 0, 4 * sizeof(double));
	for (size_t i = 0; i < s->nruns; i++) {
		const struct crun *r = run_of(b, s->runs[i]);
		for (size_t j = 0; j < r->n; j++) {
			const struct store_point *p = &r->pts[j];
			if (!p->sampled || !matches(s, k, p))
				continue;
			out[0] += p->user_pct, out[1] += p->sys_pct, out[2] += p->iowait_pct, out[3] += p->util_pct;
			used++;
		}
	}
	for (int q = 0; q < 4 && used; q++)
		out[q] /= (double)used;
	return used > 0;
}

/* A stored point by id among the runs read, or NULL. */
static const struct store_point *point_by_id(const struct build *b, int64_t id)
{
	for (size_t i = 0; i < b->nruns; i++)
		for (size_t j = 0; j < b->runs[i].n; j++)
			if (b->runs[i].pts[j].id == id)
				return &b->runs[i].pts[j];
	return NULL;
}

/* The mean of a figure over the points of a cell's side (those behind its samples), NaN where none has
 * it; of a background load's figure (loaded), only over points that ran one. */
static double points_mean(const struct build *b, const struct compare_cell_points *cp, size_t offset, int loaded)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < cp->n; i++) {
		const struct store_point *p = point_by_id(b, cp->ids[i]);
		double v;
		if (!p || (loaded && (!p->load[0] || strcmp(p->load, "no_load") == 0)))
			continue;
		memcpy(&v, (const char *)p + offset, sizeof(v));
		if (isfinite(v))
			sum += v, n++;
	}
	return n ? sum / (double)n : NAN;
}

/* contest's figures of a cell, over the points the cell's samples came from: each side's load's units
 * done and CPU, and the time ratio B/A (A's mean Jobs/Min over B's). */
static void cell_loads(const struct build *b, struct compare_cell *c)
{
	c->loads_a = points_mean(b, &c->pts_a, offsetof(struct store_point, load_units), 1);
	c->loads_b = points_mean(b, &c->pts_b, offsetof(struct store_point, load_units), 1);
	c->lcpu_a = points_mean(b, &c->pts_a, offsetof(struct store_point, load_cpu_pct), 1);
	c->lcpu_b = points_mean(b, &c->pts_b, offsetof(struct store_point, load_cpu_pct), 1);
	/* as show's loads table has it: the same jobs take A's Jobs/Min over B's as long */
	double ja = points_mean(b, &c->pts_a, offsetof(struct store_point, jobs_per_min), 0);
	double jb = points_mean(b, &c->pts_b, offsetof(struct store_point, jobs_per_min), 0);
	c->time_ratio = c->present && jb > 0 && isfinite(ja) ? ja / jb : NAN;
}

static void build_panel(struct build *b, const struct key *k, size_t side, struct compare_panel *pn)
{
	const struct compare_side *sa = &b->m->sides[0], *sb = &b->m->sides[side];
	memset(pn, 0, sizeof(*pn));
	snprintf(pn->workload, sizeof(pn->workload), "%s", k->workload);
	snprintf(pn->variant, sizeof(pn->variant), "%.63s", k->variant ? k->variant : "");
	pn->osync = k->osync;
	pn->cpus = k->cpus;
	snprintf(pn->load, sizeof(pn->load), "%.31s", k->load ? k->load : sb->load);
	pn->side = side;
	int *tasks;
	pn->ncells = block_tasks(b, k, &tasks);
	pn->cells = xcalloc(pn->ncells + 1, sizeof(*pn->cells));
	double *ratios = xcalloc(pn->ncells + 1, sizeof(double));
	for (size_t i = 0; i < pn->ncells; i++) {
		struct compare_cell *c = &pn->cells[i];
		c->tasks = tasks[i];
		c->p_adj = NAN;
		if (b->m->kind == COMPARE_GROUPS && b->blocked)
			cell_blocked(b, sa, sb, k, c);
		else if (b->m->kind == COMPARE_GROUPS)
			cell_groups(b, sa, sb, k, c);
		else
			cell_paired(b, sa, sb, k, c);
		cell_loads(b, c);
		c->nruns_a = cell_runs(b, sa, k, c->tasks, &c->runs_a);
		c->nruns_b = cell_runs(b, sb, k, c->tasks, &c->runs_b);
		pn->has_loads |= isfinite(c->loads_a) || isfinite(c->loads_b) || isfinite(c->lcpu_a) || isfinite(c->lcpu_b);
		c->noisy_a = noisy_at(b, sa, k, c->tasks, c->why_noisy, sizeof(c->why_noisy));
		c->noisy_b = noisy_at(b, sb, k, c->tasks, c->why_noisy[0] ? NULL : c->why_noisy, sizeof(c->why_noisy));
		/* the geomean of the changes the cells judge: adjusted where the cell is, as its Change column */
		if (c->present && c->mean_a > 0 && c->mean_b > 0) {
			int adjusted = c->judged && c->load_model == LOAD_COVARIATE;
			double r = c->judged && c->v.change_pct > -100 ? 1 + c->v.change_pct / 100 : c->mean_b / c->mean_a;
			ratios[pn->ngeo++] = r;
			pn->geo_adjusted += adjusted;
		}
		/* the best mean: the highest Jobs/Min, the lowest real_s */
		if (isfinite(c->mean_a) && (!pn->peak_a_tasks || gain(b->m, c->mean_a - pn->peak_a) > 0))
			pn->peak_a = c->mean_a, pn->peak_a_tasks = c->tasks;
		if (c->present && (!pn->peak_b_tasks || gain(b->m, c->mean_b - pn->peak_b) > 0))
			pn->peak_b = c->mean_b, pn->peak_b_tasks = c->tasks;
	}
	pn->geomean_pct = pn->ngeo ? 100 * (stats_geomean(ratios, pn->ngeo) - 1) : NAN;
	free(ratios);
	free(tasks);
	pn->has_system = side_system(b, sa, k, pn->sys_a) && side_system(b, sb, k, pn->sys_b);
	panel_subtests(b, k, pn);
}

/* The load of more samples: the range over both, the mean weighted by samples. */
static void load_merge(struct compare_load *into, const struct compare_load *l)
{
	if (!l->n)
		return;
	if (!into->n) {
		*into = *l;
		return;
	}
	into->min = fmin(into->min, l->min);
	into->max = fmax(into->max, l->max);
	into->mean = (into->mean * (double)into->n + l->mean * (double)l->n) / (double)(into->n + l->n);
	into->n += l->n;
}

/* A panel's verdict from its cells after the correction. */
static void summarise(const struct compare_model *m, struct compare_panel *pn)
{
	struct compare_summary *s = &pn->summary;
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < pn->ncells; i++) {
		const struct compare_cell *c = &pn->cells[i];
		if (!c->present)
			continue;
		s->common++;
		s->judged += c->judged;
		s->noisy += c->noisy_a + c->noisy_b > 0;
		s->confounded += c->state == CELL_CONFOUNDED;
		s->fragile += c->fragile;
		if (c->state == CELL_CONFOUNDED)
			s->confounded_pct += (c->raw.change_pct - s->confounded_pct) / (double)s->confounded;
		if (!c->significant)
			continue;
		double pct = c->v.change_pct, g = gain(m, pct);
		if (g < 0 && (!s->worst_tasks || g < gain(m, s->worst_pct))) {
			s->worst_pct = pct;
			s->worst_tasks = c->tasks;
		} else if (g > 0 && (!s->best_tasks || g > gain(m, s->best_pct))) {
			s->best_pct = pct;
			s->best_tasks = c->tasks;
		}
		s->worse += g < 0;
		s->better += g > 0;
		/* the typical significant change each way and the typical half-width of its interval */
		int down = g < 0;
		double *mean = down ? &s->worse_pct : &s->better_pct, *half = down ? &s->worse_half_pct : &s->better_half_pct;
		size_t k = down ? s->worse : s->better;
		*mean += (pct - *mean) / (double)k;
		double h = c->v.bounded ? (c->v.ci_high_pct - c->v.ci_low_pct) / 2 : HUGE_VAL;
		*half += (h - *half) / (double)k;
	}
	int only_confounded = s->confounded > 0;
	s->load_a = s->load_b = (struct compare_load){.mean = NAN, .min = NAN, .max = NAN};
	for (size_t i = 0; i < pn->ncells; i++) {
		const struct compare_cell *c = &pn->cells[i];
		if (!c->present || (only_confounded && c->state != CELL_CONFOUNDED))
			continue;
		load_merge(&s->load_a, &c->load_a);
		load_merge(&s->load_b, &c->load_b);
	}
	double *mde = xcalloc(pn->ncells + 1, sizeof(double));
	size_t nm = 0;
	for (size_t i = 0; i < pn->ncells; i++)
		if (pn->cells[i].judged && isfinite(pn->cells[i].mde_adj_pct))
			mde[nm++] = pn->cells[i].mde_adj_pct;
	qsort(mde, nm, sizeof(double), by_double);
	s->mde_pct = nm ? (nm % 2 ? mde[nm / 2] : (mde[nm / 2 - 1] + mde[nm / 2]) / 2) : NAN;
	free(mde);
	s->kind = !s->common ? COMPARE_NO_DATA
		: !s->judged ? COMPARE_UNJUDGED
		: s->worse && s->better ? COMPARE_MIXED
		: s->worse ? COMPARE_WORSE
		: s->better ? COMPARE_BETTER
		: s->confounded ? COMPARE_CONFOUNDED : COMPARE_UNCHANGED;
}

/* The families of p values corrected apart: the Jobs/Min verdicts, the CPU changes (what explains a
 * change does not spend the verdict's level), and the plain tests before any adjustment for the
 * outside load (to tell what the adjustment took away). */
enum family { FAMILY_VERDICT, FAMILY_CPU, FAMILY_RAW };

/* The cells' p values of one family adjusted by the model's correction, one family per other side:
 * each side's comparison with the base is its own question, so a further side does not weaken
 * another's verdicts. NaN where a cell was not judged; in cell order, panel by panel (free()). */
static double *adjusted(const struct compare_model *m, enum family family)
{
	size_t n = 0;
	for (size_t i = 0; i < m->npanels; i++)
		n += m->panels[i].ncells;
	double *p = xcalloc(n + 1, sizeof(double)), *padj = xcalloc(n + 1, sizeof(double));
	double *adj = xcalloc(n + 1, sizeof(double));
	size_t *where = xcalloc(n + 1, sizeof(size_t));
	for (size_t side = 1; side < m->nsides; side++) {
		size_t at = 0, k = 0;
		for (size_t i = 0; i < m->npanels; i++)
			for (size_t c = 0; c < m->panels[i].ncells; c++, at++) {
				const struct compare_cell *cell = &m->panels[i].cells[c];
				if (m->panels[i].side != side)
					continue;
				where[k] = at;
				p[k++] = family == FAMILY_CPU ? (cell->cpu_judged ? cell->cpu_v.p : NAN)
					: family == FAMILY_RAW ? (cell->raw_judged ? cell->raw.p : NAN)
					: (cell->judged ? cell->v.p : NAN);
			}
		if (m->correction == COMPARE_BH)
			verdict_bh(p, k, padj);
		else
			verdict_holm(p, k, padj);
		for (size_t i = 0; i < k; i++)
			adj[where[i]] = padj[i];
	}
	free(p);
	free(padj);
	free(where);
	return adj;
}

/* Whether the sides' outside loads alone could make B look as it does: more load on B and B slower,
 * or less and faster. */
static int load_pushes(const struct compare_model *m, const struct compare_cell *c, double change)
{
	return c->load_a.n && c->load_b.n && (c->load_b.mean - c->load_a.mean) * gain(m, change) < 0;
}

/* Whether a slope the samples allow (its interval at alpha) would leave no change of the verdict's sign:
 * with so few samples, the load could make all of it. */
static int slope_explains(const struct compare_model *m, const struct compare_cell *c)
{
	const struct verdict *v = &c->v;
	if (!isfinite(v->slope_se) || !(v->df > 0) || !isfinite(v->covariate_gap))
		return 0;
	double t = stats_t_quantile(1 - m->alpha / 2, v->df);
	double raw = v->diff + v->slope * v->covariate_gap; /* the sides' plain difference */
	for (int k = -1; k <= 1; k += 2) {
		double d = raw - (v->slope + k * t * v->slope_se) * v->covariate_gap;
		if ((d > 0) != (v->diff > 0))
			return 1;
	}
	return 0;
}

/* A cell's verdict after the correction: the state every view renders. */
static enum compare_state cell_state(const struct compare_model *m, const struct compare_cell *c, double raw_p_adj)
{
	if (!c->present || !c->judged)
		return CELL_NOT_JUDGED;
	if (c->significant) {
		/* no model of the load could be fitted: a change the load would make is the load's as much */
		if (c->load_model == LOAD_INSEPARABLE && load_pushes(m, c, c->v.change_pct))
			return CELL_CONFOUNDED;
		/* the adjusted change stands only if no slope the samples allow could take it away */
		if (c->load_model == LOAD_COVARIATE && slope_explains(m, c))
			return CELL_CONFOUNDED;
		return compare_worse(m, c->v.change_pct) ? CELL_SLOWER : CELL_FASTER;
	}
	/* the plain test saw a change that the adjustment for the outside load took away, one the load
	 * pushes that way (a change against the load, B faster on a busier machine, stands) */
	if (c->load_model == LOAD_COVARIATE && c->raw_judged && raw_p_adj < m->alpha &&
	    load_pushes(m, c, c->raw.change_pct))
		return CELL_CONFOUNDED;
	double x = m->fail_above_pct;
	if (x > 0 && c->v.bounded && c->v.ci_low_pct > -x && c->v.ci_high_pct < x)
		return CELL_WITHIN;
	return CELL_NOT_DETECTED;
}

/* p values of every judged cell adjusted together; then each cell's state and what fails. */
/* The judged cells of one other side: its family in the correction. */
static size_t side_family(const struct compare_model *m, size_t side)
{
	size_t k = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells && m->panels[i].side == side; c++)
			k += m->panels[i].cells[c].judged;
	return k;
}

static void correct(struct compare_model *m)
{
	double *adj = adjusted(m, FAMILY_VERDICT), *cpu_adj = adjusted(m, FAMILY_CPU), *raw_adj = adjusted(m, FAMILY_RAW);
	size_t at = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++)
			m->judged += m->panels[i].cells[c].judged;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++, at++) {
			struct compare_cell *cell = &m->panels[i].cells[c];
			cell->p_adj = adj[at];
			cell->significant = cell->judged && cell->p_adj < m->alpha;
			cell->cpu_p_adj = cpu_adj[at];
			cell->cpu_significant = cell->cpu_judged && cell->cpu_p_adj < m->alpha;
			cell->state = cell_state(m, cell, raw_adj[at]);
			if (cell->state == CELL_CONFOUNDED)
				cell->significant = 0;
			/* the change a test at the corrected level detects: alpha over the judged cells of its side's
			 * family (Bonferroni, at or above Holm's and BH's own levels), over the looks too */
			size_t family = side_family(m, m->panels[i].side);
			double each = m->alpha / (double)(family ? family : 1) / (double)(cell->looks ? cell->looks : 1);
			cell->mde_adj_pct = cell->judged ? verdict_mde_pct(cell->v.se, cell->v.mean_a, cell->v.df, each,
									 VERDICT_POWER)
							 : NAN;
			/* a worsening the gate fails on: significant, beyond the threshold, not the machine's */
			cell->regression = m->gate && cell->state == CELL_SLOWER &&
					   gain(m, cell->v.change_pct) < -m->fail_above_pct;
			m->regressed |= cell->regression;
		}
	for (size_t i = 0; i < m->npanels; i++)
		summarise(m, &m->panels[i]);
	free(adj);
	free(cpu_adj);
	free(raw_adj);
}

size_t compare_model_family(const struct compare_model *m)
{
	size_t most = 0;
	for (size_t side = 1; side < m->nsides; side++) {
		size_t k = side_family(m, side);
		most = k > most ? k : most;
	}
	return most;
}

/* ---- warnings ---- */

/* The side a run is on (its letter), for warnings. */
static int side_of(const struct compare_model *m, int64_t id)
{
	for (size_t s = 0; s < m->nsides; s++)
		for (size_t i = 0; i < m->sides[s].nruns; i++)
			if (m->sides[s].runs[i] == id)
				return (int)s;
	return -1;
}

/* The fields naming run `other` against the base run `base`. */
#define RUNS(other, base) .run = (other), .base_run = (base), .side = side_of(m, other), .base_side = side_of(m, base)

static const char *letter_of(const struct compare_model *m, int64_t id)
{
	for (size_t s = 0; s < m->nsides; s++)
		for (size_t i = 0; i < m->sides[s].nruns; i++)
			if (m->sides[s].runs[i] == id)
				return m->sides[s].letter;
	return "?";
}

static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The facts that say which kernel a run measured: across sides they are usually what is compared. */
static int kernel_identity(const char *key, size_t klen)
{
	static const char *const facts[] = {"kernel.release", "kernel.version", "kernel.config"};
	for (size_t i = 0; i < ARRAY_SIZE(facts); i++)
		if (strlen(facts[i]) == klen && strncmp(key, facts[i], klen) == 0)
			return 1;
	return 0;
}

/* The value of KEY among "key\tvalue" pairs, or NULL. */
static const char *env_value(char *const *kv, size_t n, const char *key)
{
	size_t kl = strlen(key);
	for (size_t i = 0; i < n; i++)
		if (strncmp(kv[i], key, kl) == 0 && kv[i][kl] == '\t')
			return kv[i] + kl + 1;
	return NULL;
}

/* Kernel configs listed in a note, option by option; the rest are counted. */
#define CONFIG_LISTED 12

/* The kernel config options two runs' kernels set differently, from the texts stored with them. */
static void config_note(struct build *b, int64_t base, int64_t other, const char *kind)
{
	struct compare_model *m = b->m;
	char *ta = NULL, *tb = NULL;
	if (store_get_kernel_config(b->st, base, &ta) == 0 && store_get_kernel_config(b->st, other, &tb) == 0 && ta &&
	    tb) {
		size_t n;
		char *line = kconfig_diff_line(ta, tb, CONFIG_LISTED, &n);
		if (line)
			note(m, NOTE(NOTE_KCONFIG_DIFFERS, strcmp(kind, "warning") == 0 ? NOTE_WARNING : NOTE_INFO,
				     RUNS(other, base), .key = "kernel.config", .count = n, .value = line),
			     "%s: run %lld (%s) differs from run %lld (%s) in %zu kernel config option%s: %s", kind,
			     (long long)other, letter_of(m, other), (long long)base, letter_of(m, base), n, n == 1 ? "" : "s",
			     line);
		free(line);
	}
	free(ta);
	free(tb);
}

/* ---- facts of a boot (reaim vm) ---- */

/* How a differing environment fact is taken. A `reaim vm` boot declares its kernel (boot.kernel,
 * boot.image, boot.image_sha256, boot.cmdline): across sides that is the variable under test, so the
 * kernel's identity and command line as the guest saw them are not warned of either; the facts of one
 * boot (its index, QEMU command, times) differ at every boot; memory.total moves by a few kB between
 * boots of one kernel (what the kernel reserves varies), so within 0.1 % it is the same. */
enum fact_take { FACT_WARN, FACT_DECLARED, FACT_SAME };
static enum fact_take boot_fact(const char *key, size_t klen, const char *va, const char *vb, int boots_differ)
{
	static const char *const per_boot[] = {"boot.index", "boot.count", "boot.attempt", "boot.order", "boot.qemu",
					       "boot.wall_s", "boot.host_outside_pct"};
	static const char *const declared[] = {"boot.kernel", "boot.image", "boot.image_sha256", "boot.cmdline",
					       "kernel.cmdline", "kernel.release", "kernel.version", "kernel.config"};
	for (size_t i = 0; i < ARRAY_SIZE(per_boot); i++)
		if (strlen(per_boot[i]) == klen && strncmp(key, per_boot[i], klen) == 0)
			return FACT_SAME;
	if (klen > 4 && strncmp(key, "lab.", 4) == 0) /* reaim lab's job, device and worker: each run's own */
		return FACT_SAME;
	for (size_t i = 0; boots_differ && i < ARRAY_SIZE(declared); i++)
		if (strlen(declared[i]) == klen && strncmp(key, declared[i], klen) == 0)
			return FACT_DECLARED;
	double a, b;
	char ua[8] = "", ub[8] = "";
	if (klen == strlen("memory.total") && strncmp(key, "memory.total", klen) == 0 && va && vb &&
	    sscanf(va, "%lf %7s", &a, ua) >= 1 && sscanf(vb, "%lf %7s", &b, ub) >= 1 && strcmp(ua, ub) == 0 && a > 0 &&
	    fabs(a - b) <= 0.001 * a)
		return FACT_SAME;
	return FACT_WARN;
}

/* Two runs booted by reaim vm from kernels it was told differ (image or command line): 1, and once
 * per side (at the side's first run) a note naming the variable under test. */
/* A run and its stored environment ("key\tvalue" pairs). */
struct run_env {
	int64_t run;
	char **kv;
	size_t n;
};

static int boot_declared(struct compare_model *m, const struct run_env *a, const struct run_env *b, int first_of_side)
{
	char *const *ka = a->kv, *const *kb = b->kv;
	size_t na = a->n, nb = b->n;
	int64_t base = a->run, other = b->run;
	const char *sa = env_value(ka, na, "boot.image_sha256"), *sb = env_value(kb, nb, "boot.image_sha256");
	const char *ca = env_value(ka, na, "boot.cmdline"), *cb = env_value(kb, nb, "boot.cmdline");
	if (!sa || !sb || !ca || !cb || (strcmp(sa, sb) == 0 && strcmp(ca, cb) == 0))
		return 0;
	struct compare_note n = NOTE(NOTE_ENV_DIFFERS, NOTE_INFO, RUNS(other, base), .key = "boot.cmdline",
				     .value = (char *)cb, .base_value = (char *)ca);
	if (first_of_side)
		note(m, n, "the variable under test (reaim vm): %s boots %s (image %.12s, command line '%s'), %s boots %s "
			"(image %.12s, command line '%s')",
		     letter_of(m, base), env_value(ka, na, "boot.kernel") ? env_value(ka, na, "boot.kernel") : "?", sa, ca,
		     letter_of(m, other), env_value(kb, nb, "boot.kernel") ? env_value(kb, nb, "boot.kernel") : "?", sb, cb);
	return 1;
}

/* A side's boots' host load (boot.host_outside_pct): its mean, least and most over the runs that
 * stored it (n 0: none did); tcg set when any of them ran under TCG. */
struct boot_load {
	double mean, min, max;
	size_t n;
	int tcg;
};
static void side_boot_load(struct build *b, const struct compare_side *sd, struct boot_load *l)
{
	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < sd->nruns; i++) {
		char **kv;
		size_t n;
		if (store_get_env(b->st, sd->runs[i], &kv, &n) < 0)
			continue;
		const char *v = env_value(kv, n, "boot.host_outside_pct"), *accel = env_value(kv, n, "boot.accel");
		char *end;
		double x = v ? strtod(v, &end) : NAN;
		if (v && end != v && isfinite(x)) {
			l->min = l->n && l->min < x ? l->min : x;
			l->max = l->n && l->max > x ? l->max : x;
			l->mean += x;
			l->n++;
			l->tcg |= accel && strcmp(accel, "tcg") == 0;
		}
		free_strings(kv, n);
	}
	if (l->n)
		l->mean /= (double)l->n;
}

/* reaim vm: the host's CPU others used during a side's boots against the base's. The guest's own
 * figures cannot account for it (a TCG guest sees no steal; its load is the host's CPU it is given),
 * so where the sides' means differ by more than COMPARE_LOAD_SIMILAR_PCT points, a caution. */
static void host_load_cautions(struct build *b)
{
	struct compare_model *m = b->m;
	struct boot_load a, o;
	side_boot_load(b, &m->sides[0], &a);
	for (size_t s = 1; a.n && s < m->nsides; s++) {
		side_boot_load(b, &m->sides[s], &o);
		if (!o.n || fabs(o.mean - a.mean) <= COMPARE_LOAD_SIMILAR_PCT)
			continue;
		const char *accel = a.tcg || o.tcg ? "tcg" : "kvm";
		note(m, NOTE(NOTE_HOST_LOAD, NOTE_CAUTION, .side = (int)s, .base_side = 0, .count = o.n,
			     .value = (char *)accel, .key = "boot.host_outside_pct",
			     .figure = {a.min, a.max, o.min, o.max}),
		     "caution: the host's CPU used by others during the boots differs: %s's %zu boot%s saw %.0f-%.0f %% "
		     "(mean %.0f), %s's %zu saw %.0f-%.0f %% (mean %.0f); the guests cannot see it (%s), so their figures "
		     "may differ by the host's load alone: boot the sides again on a quieter host",
		     m->sides[s].letter, o.n, o.n == 1 ? "" : "s", o.min, o.max, o.mean, m->sides[0].letter, a.n, a.min,
		     a.max, a.mean, strcmp(accel, "tcg") == 0 ? "a TCG guest has no steal time" : "beyond its steal time");
	}
}

static int same_or_both_null(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* One warning per fact and side: a run of a side already warned of with the same value joins that
 * warning ("runs 3, 4 (B) differ from run 1 (A) in ..."). 1 when it joined one. */
static int join_env_note(struct compare_model *m, const struct compare_note *n)
{
	for (size_t i = 0; i < m->nnotes; i++) {
		struct compare_note *c = &m->cautions[i];
		if (c->code != NOTE_ENV_DIFFERS || c->side != n->side || c->base_run != n->base_run ||
		    strcmp(c->key, n->key) != 0 || !same_or_both_null(c->value, n->value))
			continue;
		const char *ids = c->text + strlen(c->count > 1 ? "warning: runs " : "warning: run ");
		const char *rest = strstr(ids, " (");
		const char *tail = rest ? strstr(rest, ") differ") : NULL;
		BUG_ON(!rest || !tail);
		tail += strlen(") differ") + (c->count > 1 ? 0 : 1); /* "differs" becomes "differ" */
		char *text = xasprintf("warning: runs %.*s, %lld (%s) differ%s", (int)(rest - ids), ids, (long long)n->run,
				       m->sides[n->side].letter, tail);
		free(c->text);
		c->text = m->notes[i] = text;
		c->count = c->count > 1 ? c->count + 1 : 2;
		return 1;
	}
	return 0;
}

/* Environment facts in which run `other` differs from the base run. Across sides the kernel's identity
 * (release, build, config) is usually what is compared and is not warned of, unless both run one
 * release: two builds of one `uname -r`. A config that differs is listed option by option. */
static void env_warnings(struct build *b, int64_t base, int64_t other)
{
	struct compare_model *m = b->m;
	char **ka, **kb;
	size_t na, nb;
	if (store_get_env(b->st, base, &ka, &na) < 0)
		return;
	if (store_get_env(b->st, other, &kb, &nb) < 0) {
		free_strings(ka, na);
		return;
	}
	int same_side = strcmp(letter_of(m, base), letter_of(m, other)) == 0;
	int first = 0;
	for (size_t s = 0; s < m->nsides; s++)
		first |= m->sides[s].nruns && m->sides[s].runs[0] == other;
	const struct run_env ea = {.run = base, .kv = ka, .n = na}, eb = {.run = other, .kv = kb, .n = nb};
	int declared = !same_side && boot_declared(m, &ea, &eb, first);
	const char *ra = env_value(ka, na, "kernel.release"), *rb = env_value(kb, nb, "kernel.release");
	int one_release = ra && rb && strcmp(ra, rb) == 0;
	for (size_t i = 0; i < na; i++) {
		const char *tab = strchr(ka[i], '\t');
		size_t klen = (size_t)(tab - ka[i]);
		int identity = kernel_identity(ka[i], klen);
		if (!same_side && identity && !one_release)
			continue;
		const char *theirs = NULL;
		for (size_t j = 0; j < nb; j++)
			if (strncmp(kb[j], ka[i], klen + 1) == 0)
				theirs = kb[j] + klen + 1;
		struct compare_note n = NOTE(NOTE_ENV_DIFFERS, NOTE_WARNING, RUNS(other, base),
					     .value = (char *)theirs, .base_value = (char *)(tab + 1));
		snprintf(n.key, sizeof(n.key), "%.*s", (int)klen, ka[i]);
		if ((!theirs || strcmp(theirs, tab + 1) != 0) && boot_fact(ka[i], klen, tab + 1, theirs, declared) == FACT_WARN &&
		    !join_env_note(m, &n))
			note(m, n, "warning: run %lld (%s) differs from run %lld (%s) in %.*s: '%s' against '%s'%s",
			     (long long)other, letter_of(m, other), (long long)base, letter_of(m, base), (int)klen, ka[i],
			     theirs ? theirs : "(absent)", tab + 1,
			     identity && !same_side ? " (two builds of one kernel release)" : "");
	}
	const char *ca = env_value(ka, na, "kernel.config"), *cb = env_value(kb, nb, "kernel.config");
	if (ca && cb && strcmp(ca, cb) != 0)
		config_note(b, base, other, (same_side || one_release) && !declared ? "warning" : "note");
	free_strings(ka, na);
	free_strings(kb, nb);
}

/* One option of one workload as text (list items joined by spaces); NULL when not stored. */
static char *option_value(const struct store_option *o, size_t n, const char *workload, const char *key)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < n; i++)
		if (strcmp(o[i].workload, workload) == 0 && strcmp(o[i].key, key) == 0)
			strbuf_addf(&sb, "%s%s", sb.len ? " " : "", o[i].value);
	return sb.buf;
}

static struct compare_note option_note(const struct compare_model *m, int64_t other, int64_t base,
				      const struct store_option *o, const char *value, const char *base_value)
{
	struct compare_note n = NOTE(NOTE_OPTION_DIFFERS, NOTE_WARNING, RUNS(other, base), .value = (char *)value,
				     .base_value = (char *)base_value);
	snprintf(n.key, sizeof(n.key), "%s", o->key);
	snprintf(n.workload, sizeof(n.workload), "%s", o->workload);
	return n;
}

/* Options that change what a point measures (jobs per task, file sizes, sync mode, seed ...) in
 * which run `other` differs from the base run, workload by workload (by name). */
static void option_warnings(struct build *b, int64_t base, int64_t other)
{
	struct compare_model *m = b->m;
	struct store_option *oa, *ob;
	size_t na, nb;
	if (store_get_workload_options(b->st, base, &oa, &na) < 0)
		return;
	if (store_get_workload_options(b->st, other, &ob, &nb) < 0) {
		store_options_free(oa, na);
		return;
	}
	for (size_t i = 0; i < na; i++) {
		if ((i && strcmp(oa[i].key, oa[i - 1].key) == 0 && oa[i].workload_id == oa[i - 1].workload_id) ||
		    !option_measured(oa[i].key))
			continue; /* a list's later items: the first stands for the list */
		char *va = option_value(oa, na, oa[i].workload, oa[i].key);
		char *vb = option_value(ob, nb, oa[i].workload, oa[i].key);
		int theirs = 0;
		for (size_t j = 0; j < nb && !theirs; j++)
			theirs = strcmp(ob[j].workload, oa[i].workload) == 0;
		/* a workload the other run lacks, or an option it was made before, says nothing */
		if (theirs && vb && va && strcmp(va, vb) != 0)
			note(m, option_note(m, other, base, &oa[i], vb, va),
			     "warning: run %lld (%s) differs from run %lld (%s) in option %s of workload %s: '%s' "
				"against '%s'",
			     (long long)other, letter_of(m, other), (long long)base, letter_of(m, base), oa[i].key,
			     oa[i].workload, vb, va);
		free(va);
		free(vb);
	}
	store_options_free(oa, na);
	store_options_free(ob, nb);
}

static int by_string(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* What a stored workload measured, whatever its file's path, comments or order: its tests with their
 * weights by name, and its file sizes ("add_int 10, creat_clo 5; FILESIZE 1024 KiB"). NULL when the
 * stored text no longer parses (a test since renamed): then it is not compared. */
static char *mix_of(struct store *st, int64_t workload_id)
{
	char *text = NULL;
	if (store_get_workfile_text(st, workload_id, &text) < 0 || !text) {
		free(text);
		return NULL;
	}
	struct workfile wf = {0};
	struct errlist errs = {0};
	char *out = NULL;
	if (workfile_parse("stored", text, &wf, &errs) == 0) {
		char **items = xcalloc(wf.count + 1, sizeof(*items));
		for (size_t i = 0; i < wf.count; i++)
			items[i] = xasprintf("%s %d", wf.entries[i].test->name, wf.entries[i].weight);
		qsort(items, wf.count, sizeof(*items), by_string);
		struct strbuf sb = {0};
		strbuf_add(&sb, "", 0);
		for (size_t i = 0; i < wf.count; i++) {
			strbuf_addf(&sb, "%s%s", i ? ", " : "", items[i]);
			free(items[i]);
		}
		free(items);
		if (wf.filesize_kib >= 0)
			strbuf_addf(&sb, "; FILESIZE %lld KiB", wf.filesize_kib);
		if (wf.poolsize_kib >= 0)
			strbuf_addf(&sb, "; POOLSIZE %lld KiB", wf.poolsize_kib);
		out = sb.buf;
	}
	workfile_free(&wf);
	errlist_free(&errs);
	free(text);
	return out;
}

/* Workloads of one name whose mix differs between run `other` and the base run: what they measured is
 * not alike, whatever the path of their files. A gate cannot judge them. */
static void mix_warnings(struct build *b, int64_t base, int64_t other)
{
	struct compare_model *m = b->m;
	struct store_workload_row *wa = NULL, *wb = NULL;
	size_t na = 0, nb = 0;
	if (store_get_workloads(b->st, base, &wa, &na) == 0 && store_get_workloads(b->st, other, &wb, &nb) == 0)
		for (size_t i = 0; i < nb; i++)
			for (size_t j = 0; j < na; j++) {
				if (strcmp(wb[i].name, wa[j].name) != 0)
					continue;
				char *ma = mix_of(b->st, wa[j].id), *mb = mix_of(b->st, wb[i].id);
				if (ma && mb && strcmp(ma, mb) != 0) {
					struct compare_note n = NOTE(NOTE_MIX_DIFFERS, NOTE_WARNING, RUNS(other, base),
								     .value = mb, .base_value = ma);
					snprintf(n.workload, sizeof(n.workload), "%s", wb[i].name);
					note(m, n, "warning: workload %s of run %lld (%s) is not the one run %lld (%s) "
						   "measured: its mix is %s against %s; unlike runs are not judged",
					     wb[i].name, (long long)other, letter_of(m, other), (long long)base,
					     letter_of(m, base), mb, ma);
					if (!m->unlike[0])
						snprintf(m->unlike, sizeof(m->unlike), "unlike runs: workload %s of run %lld "
							 "measured another mix than run %lld", wb[i].name, (long long)other,
							 (long long)base);
				}
				free(ma);
				free(mb);
			}
	free(wa);
	free(wb);
}

static void warnings(struct build *b)
{
	struct compare_model *m = b->m;
	int64_t base = m->sides[0].runs[0];
	for (size_t s = 0; s < m->nsides; s++)
		for (size_t i = 0; i < m->sides[s].nruns; i++) {
			const struct crun *r = run_of(b, m->sides[s].runs[i]);
			if (strcmp(r->row.status, "complete") != 0)
				note(m, NOTE(NOTE_RUN_INCOMPLETE, NOTE_WARNING, .run = r->id, .side = (int)s, .base_side = -1,
					     .value = (char *)r->row.status),
				     "warning: run %lld (%s) is %s: its valid points are used", (long long)r->id,
				     m->sides[s].letter, r->row.status);
			if (r->id == base || m->kind != COMPARE_GROUPS)
				continue;
			env_warnings(b, base, r->id);
			option_warnings(b, base, r->id);
			mix_warnings(b, base, r->id);
		}
	if (m->kind == COMPARE_OSYNC && !m->interleaved)
		note(m, NOTE(NOTE_OSYNC_SEQUENTIAL, NOTE_CAUTION, .side = 1, .base_side = 0),
		     "caution: O_SYNC on and off ran one after the other, not interleaved, so drift between "
			"them is not cancelled by pairing rounds (--variant interleaves the points it compares)");
	if (m->kind != COMPARE_GROUPS)
		return;
	host_load_cautions(b);
	/* sides of several runs where only one has a task count: its repeats stand in, said where */
	for (size_t s = 0; s < m->nsides; s++) {
		if (m->sides[s].nruns < 2)
			continue;
		struct strbuf at = {0};
		for (size_t i = 0; i < m->npanels; i++)
			for (size_t c = 0; c < m->panels[i].ncells; c++) {
				const struct compare_cell *cell = &m->panels[i].cells[c];
				int here = (s == 0 && cell->src_a == VERDICT_SRC_REPEATS) ||
					   (m->panels[i].side == s && cell->src_b == VERDICT_SRC_REPEATS);
				if (here && (s != 0 || m->panels[i].side == 1))
					strbuf_addf(&at, "%s%s %d", at.len ? ", " : "", m->panels[i].workload, cell->tasks);
			}
		if (at.len)
			note(m, NOTE(NOTE_GROUP_GAP, NOTE_CAUTION, .side = (int)s, .base_side = -1, .count = m->sides[s].nruns,
				     .tasks = at.buf),
			     "caution: only one of %s's %zu runs has valid points at (workload tasks) %s, so %s's samples "
				"there are that run's repeats, which understate the noise between runs",
			     m->sides[s].letter, m->sides[s].nruns, at.buf, m->sides[s].letter);
		strbuf_free(&at);
	}
	/* sides whose samples are the repeats inside one run */
	struct strbuf who = {0};
	size_t nwho = 0;
	for (size_t s = 0; s < m->nsides; s++) {
		int repeats = 0;
		if (m->sides[s].nruns > 1)
			continue; /* said above, where it happens */
		for (size_t i = 0; i < m->npanels && !repeats; i++)
			for (size_t c = 0; c < m->panels[i].ncells && !repeats; c++) {
				const struct compare_cell *cell = &m->panels[i].cells[c];
				repeats = (s == 0 && cell->src_a == VERDICT_SRC_REPEATS) ||
					  (m->panels[i].side == s && cell->src_b == VERDICT_SRC_REPEATS);
			}
		if (repeats) {
			strbuf_addf(&who, "%s%s", nwho ? ", " : "", m->sides[s].letter);
			nwho++;
		}
	}
	if (nwho)
		note(m, NOTE(NOTE_ONE_RUN, NOTE_CAUTION, NO_SIDES, .value = who.buf, .count = nwho),
		     "caution: %s %s one run, so %s samples are the repeats inside it, which share one window of "
			"outside load: p values and intervals understate the noise between runs (give 2 or more runs "
			"a side: A1,A2 B1,B2)",
		     who.buf, nwho > 1 ? "have" : "has", nwho > 1 ? "their" : "its");
	strbuf_free(&who);
}

/* A caution per panel with points measured in noise: where, how many a side, and the first reason. */
static void noise_cautions(struct compare_model *m)
{
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		struct strbuf at = {0};
		const char *why = NULL;
		for (size_t c = 0; c < p->ncells; c++) {
			const struct compare_cell *cell = &p->cells[c];
			if (!cell->noisy_a && !cell->noisy_b)
				continue;
			strbuf_addf(&at, "%s%d (%s %zu, %s %zu)", at.len ? ", " : "", cell->tasks, m->sides[0].letter,
				    cell->noisy_a, m->sides[p->side].letter, cell->noisy_b);
			why = why ? why : cell->why_noisy;
			m->noisy++;
		}
		if (at.len) {
			struct compare_note n = NOTE(NOTE_NOISY, NOTE_CAUTION, .side = (int)p->side, .base_side = 0,
						     .tasks = at.buf, .value = (char *)why);
			snprintf(n.workload, sizeof(n.workload), "%s", p->workload);
			note(m, n, "caution: points measured in noise at %s tasks of workload %s%s%s, %s against %s (%s): "
				"their change may be the noise's; %s",
			     at.buf, p->workload, p->variant[0] ? ", variant " : "", p->variant, m->sides[p->side].letter,
			     m->sides[0].letter, why,
			     m->exclude_noisy ? "they are counted here, but left out of the samples (--exclude-noisy)"
					      : "--exclude-noisy judges without them");
		}
		strbuf_free(&at);
	}
}

/* A caution per panel whose paired rounds lost a partner. */
static void unpaired_cautions(struct compare_model *m)
{
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		struct strbuf at = {0};
		size_t left = 0;
		for (size_t c = 0; c < p->ncells; c++) {
			const struct compare_cell *cell = &p->cells[c];
			if (!cell->unpaired_a && !cell->unpaired_b)
				continue;
			strbuf_addf(&at, "%s%d (%s %zu, %s %zu)", at.len ? ", " : "", cell->tasks, m->sides[0].letter,
				    cell->unpaired_a, m->sides[p->side].letter, cell->unpaired_b);
			left += cell->unpaired_a + cell->unpaired_b;
		}
		if (at.len) {
			struct compare_note n = NOTE(NOTE_UNPAIRED, NOTE_CAUTION, .side = (int)p->side, .base_side = 0,
						     .tasks = at.buf, .count = left);
			snprintf(n.workload, sizeof(n.workload), "%s", p->workload);
			if (m->blocked)
				note(m, n, "caution: runs without a partner of the other side on their device are left out "
					   "of the pairs at %s tasks of workload %s: the means compared are of the pairs",
				     at.buf, p->workload);
			else
				note(m, n, "caution: valid rounds whose partner in the other arm is invalid are left out of "
					   "the pairs at %s tasks of workload %s: the means compared are of the pairs, while show "
					   "and the plot's curves keep every valid round",
				     at.buf, p->workload);
		}
		strbuf_free(&at);
	}
}

/* A caution per panel with cells confounded with the outside load, naming both sides' loads. */
static void confounded_cautions(struct compare_model *m)
{
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		const struct compare_summary *v = &p->summary;
		if (!v->confounded)
			continue;
		struct strbuf at = {0};
		for (size_t c = 0; c < p->ncells; c++)
			if (p->cells[c].state == CELL_CONFOUNDED)
				strbuf_addf(&at, "%s%d", at.len ? ", " : "", p->cells[c].tasks);
		struct compare_note n = NOTE(NOTE_CONFOUNDED, NOTE_CAUTION, .side = (int)p->side, .base_side = 0,
					     .tasks = at.buf, .count = v->confounded,
					     .figure = {v->load_a.min, v->load_a.max, v->load_b.min, v->load_b.max});
		snprintf(n.workload, sizeof(n.workload), "%s", p->workload);
		note(m, n, "caution: %s's change at %s tasks of workload %s cannot be told apart from the outside load: "
			   "at %s's points others demanded %.0f-%.0f %% of the CPUs, at %s's %.0f-%.0f %%; interleave the "
			   "sides (--variant, or runs A B B A) or run them on a quiet machine",
		     m->sides[p->side].letter, at.buf, p->workload, m->sides[p->side].letter, v->load_b.min, v->load_b.max,
		     m->sides[0].letter, v->load_a.min, v->load_a.max);
		strbuf_free(&at);
	}
}

/* What the comparison could not judge: cells the base has that another side lacks (a caution per
 * panel), and why a gate cannot pass. */
static void judgeable(struct compare_model *m)
{
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		struct strbuf at = {0};
		size_t n = 0;
		for (size_t c = 0; c < p->ncells; c++) {
			const struct compare_cell *cell = &p->cells[c];
			m->present += cell->present;
			if (cell->present || !isfinite(cell->mean_a))
				continue;
			strbuf_addf(&at, "%s%d", n++ ? ", " : "", cell->tasks);
		}
		if (n) {
			char block[160] = "";
			if (p->osync >= 0)
				snprintf(block, sizeof(block), ", O_SYNC %s", p->osync ? "on" : "off");
			struct compare_note miss = NOTE(NOTE_MISSING, NOTE_CAUTION, .side = (int)p->side, .base_side = 0,
							.tasks = at.buf, .count = n);
			snprintf(miss.workload, sizeof(miss.workload), "%s", p->workload);
			note(m, miss, "caution: %s has no valid point at %s task%s of workload %s%s%s%s that %s measured: %s "
				"cannot be judged",
			     m->sides[p->side].letter, at.buf, n == 1 && strcmp(at.buf, "1") == 0 ? "" : "s", p->workload, block,
			     p->variant[0] ? ", variant " : "", p->variant, m->sides[0].letter, n == 1 ? "that cell" : "those cells");
			m->missing += n;
		}
		strbuf_free(&at);
	}
	noise_cautions(m);
	unpaired_cautions(m);
	confounded_cautions(m);
	size_t looks = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++)
			looks = m->panels[i].cells[c].looks > looks ? m->panels[i].cells[c].looks : looks;
	if (looks > 1)
		note(m, NOTE(NOTE_LOOKS, NOTE_CAUTION, NO_SIDES, .count = looks),
		     "caution: some samples are the rounds of a run made with --precision, which stopped at one of up to %zu looks: their p values are multiplied by the looks and their intervals taken at "
			"alpha / looks, so stopping early does not raise false alarms (wider than a fixed number of "
			"rounds would give)", looks);
	if (m->unlike[0])
		snprintf(m->unjudged, sizeof(m->unjudged), "%s", m->unlike);
	else if (m->present == 0)
		snprintf(m->unjudged, sizeof(m->unjudged), "nothing in common: no workload, O_SYNC setting and task "
			 "count was measured validly by %s and by another side", m->sides[0].letter);
	else if (m->missing)
		snprintf(m->unjudged, sizeof(m->unjudged), "%zu task count%s the base measured %s no valid point on "
			 "another side", m->missing, m->missing == 1 ? "" : "s", m->missing == 1 ? "has" : "have");
	else if (m->judged == 0)
		snprintf(m->unjudged, sizeof(m->unjudged), "no task count could be judged: fewer than 2 samples a side "
			 "everywhere (more runs a side, or -r 2 or more)");
}

/* "at 4, 8 tasks of dbase" style lists for the gate's reasons. */
static void add_at(struct strbuf *sb, const struct compare_model *m, const struct compare_panel *p,
		   const struct compare_cell *c)
{
	strbuf_addf(sb, "%s", sb->len ? "; " : "");
	if (m->nsides > 2) { /* several sides: each cell says whose it is */
		char letter[8];
		compare_side_letter(p->side, letter, sizeof(letter));
		strbuf_addf(sb, "%s at ", letter);
	}
	strbuf_addf(sb, "%d task%s of %s", c->tasks, c->tasks == 1 ? "" : "s", p->workload);
	if (p->osync >= 0)
		strbuf_addf(sb, " (O_SYNC %s)", p->osync ? "on" : "off");
}

/* What a gate concludes: it fails on a significant worsening (a drop of Jobs/Min, a rise of real_s)
 * beyond its threshold that is not the machine's, between like runs, and passes only what it measured: every cell the base
 * has judged, none confounded with the outside load, and with --fail-above X every interval ruling out
 * a worsening beyond X. Else it cannot
 * vouch, and m->vouch says why. */
/* The cells a failing gate failed on, with the worst change. */
static void failed_on(struct compare_model *m)
{
	struct strbuf at = {0};
	double worst = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++) {
			const struct compare_cell *cell = &m->panels[i].cells[c];
			if (!cell->regression)
				continue;
			add_at(&at, m, &m->panels[i], cell);
			if (fabs(cell->v.change_pct) > fabs(worst))
				worst = cell->v.change_pct;
		}
	if (m->fail_above_pct > 0)
		snprintf(m->decision, sizeof(m->decision), "significantly %s by more than %g %% at %s (worst %+.1f %%)",
			 m->metric->rise_better ? "slower" : "worse", m->fail_above_pct, at.buf, worst);
	else
		snprintf(m->decision, sizeof(m->decision), "significantly %s at %s (worst %+.1f %%)",
			 m->metric->rise_better ? "slower" : "worse", at.buf, worst);
	strbuf_free(&at);
}

static void decide_gate(struct compare_model *m)
{
	m->gate_result = COMPARE_GATE_PASS;
	/* unlike runs measured different things: no change between them is a regression either */
	if (m->unlike[0])
		m->regressed = 0;
	if (m->regressed) {
		m->gate_result = COMPARE_GATE_FAIL;
		failed_on(m);
		return;
	}
	if (m->unjudged[0]) {
		m->gate_result = COMPARE_GATE_UNJUDGED;
		snprintf(m->vouch, sizeof(m->vouch), "%s", m->unjudged);
		snprintf(m->decision, sizeof(m->decision), "%s", m->unjudged);
		return;
	}
	struct strbuf few = {0}, confounded = {0}, wide = {0};
	double x = m->vouch_pct, worst_low = 0, worst_mde = 0;
	size_t judged = 0;
	for (size_t i = 0; i < m->npanels; i++)
		for (size_t c = 0; c < m->panels[i].ncells; c++) {
			const struct compare_panel *p = &m->panels[i];
			const struct compare_cell *cell = &p->cells[c];
			if (!cell->present)
				continue;
			if (!cell->judged) {
				add_at(&few, m, p, cell);
			} else if (cell->state == CELL_CONFOUNDED) {
				add_at(&confounded, m, p, cell);
			} else if (x > 0 && !(gain(m, m->metric->rise_better ? cell->v.ci_low_pct : cell->v.ci_high_pct) > -x)) {
				/* the interval's worse end: its low end of Jobs/Min, its high end of real_s */
				add_at(&wide, m, p, cell);
				worst_low = fmin(worst_low, gain(m, m->metric->rise_better ? cell->v.ci_low_pct
											   : cell->v.ci_high_pct));
				worst_mde = fmax(worst_mde, cell->mde_adj_pct);
			} else {
				judged++;
			}
		}
	struct strbuf why = {0};
	if (few.len)
		strbuf_addf(&why, "fewer than 2 samples a side at %s", few.buf);
	if (confounded.len)
		strbuf_addf(&why, "%sthe change cannot be told apart from the sides' different outside load at %s",
			    why.len ? "; " : "", confounded.buf);
	if (wide.len) {
		int up = m->metric->rise_better;
		strbuf_addf(&why, "%sthe interval does not rule out a %s beyond %g %%%s at %s (%s to ", why.len ? "; " : "",
			    up ? "drop" : "rise", x, m->fail_above_pct > 0 ? "" : " (--bisect's default)", wide.buf,
			    up ? "down" : "up");
		if (isfinite(worst_low))
			strbuf_addf(&why, "%+.1f %%", up ? worst_low : -worst_low);
		else
			strbuf_addf(&why, "an unbounded %s", up ? "drop" : "rise");
		if (isfinite(worst_mde))
			strbuf_addf(&why, "; it could detect about %.1f %%", worst_mde);
		strbuf_addf(&why, ": more runs a side narrow it)");
	}
	if (why.len) {
		m->gate_result = COMPARE_GATE_UNJUDGED;
		snprintf(m->vouch, sizeof(m->vouch), "%s", why.buf);
		snprintf(m->decision, sizeof(m->decision), "%s", why.buf);
	} else if (x > 0) {
		snprintf(m->decision, sizeof(m->decision), "every interval rules out a %s beyond %g %%%s (%zu cell%s)",
			 m->metric->rise_better ? "drop" : "rise", x, m->fail_above_pct > 0 ? "" : ", --bisect's default",
			 judged, judged == 1 ? "" : "s");
	} else {
		snprintf(m->decision, sizeof(m->decision), "no significant %s in %zu cell%s",
			 m->metric->rise_better ? "drop" : "rise", judged, judged == 1 ? "" : "s");
	}
	strbuf_free(&few);
	strbuf_free(&confounded);
	strbuf_free(&wide);
	strbuf_free(&why);
}

enum compare_gate compare_model_gate(const struct compare_model *m)
{
	return m->gate_result;
}

/* ---- sides ---- */

/* The labels of a group's runs, each once, in order. */
static void group_label(struct build *b, const struct compare_group *g, char *buf, size_t len)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (size_t i = 0; i < g->n; i++) {
		const char *l = run_of(b, g->runs[i])->row.label;
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(run_of(b, g->runs[k])->row.label, l) == 0;
		if (!seen)
			strbuf_addf(&sb, "%s%s", sb.len ? "," : "", l);
	}
	snprintf(buf, len, "%s", sb.buf);
	strbuf_free(&sb);
}

void compare_side_letter(size_t i, char *buf, size_t len)
{
	/* Bijective base 26, as spreadsheet columns: Z is followed by AA, never by a second A. */
	char rev[sizeof(((struct compare_side *)0)->letter)];
	size_t n = 0;
	for (size_t k = i + 1; k > 0 && n < sizeof(rev); k = (k - 1) / 26)
		rev[n++] = (char)('A' + (k - 1) % 26);
	size_t o = 0;
	while (n > 0 && o + 1 < len)
		buf[o++] = rev[--n];
	if (len)
		buf[o] = '\0';
}

static void add_side(struct compare_model *m, const char *label, const int64_t *runs, size_t n)
{
	m->sides = xrealloc(m->sides, (m->nsides + 1) * sizeof(*m->sides));
	struct compare_side *s = &m->sides[m->nsides];
	memset(s, 0, sizeof(*s));
	compare_side_letter(m->nsides, s->letter, sizeof(s->letter));
	snprintf(s->label, sizeof(s->label), "%s", label);
	s->runs = xcalloc(n, sizeof(*s->runs));
	memcpy(s->runs, runs, n * sizeof(*runs));
	s->nruns = n;
	s->osync = -1;
	m->nsides++;
}

/* The background loads of a run's points, no_load first then in the order they first ran; NULL
 * when its points ran without --load. The names point into the points. */
static size_t run_loads(const struct crun *r, const char ***out)
{
	size_t n = 0;
	*out = xcalloc(r->n + 2, sizeof(**out));
	for (size_t i = 0; i < r->n; i++) {
		const char *l = r->pts[i].load;
		size_t k = 0;
		while (k < n && strcmp((*out)[k], l) != 0)
			k++;
		if (!l[0] || k < n)
			continue;
		if (strcmp(l, "no_load") == 0) { /* the base, whatever ran first */
			memmove(*out + 1, *out, n * sizeof(**out));
			(*out)[0] = l;
		} else {
			(*out)[n] = l;
		}
		n++;
	}
	return n;
}

/* One run: its loads (no_load the base; variants are then blocks of it), else its variants (the first
 * ran first: the base), else O_SYNC off (base) and on. */
static void inside_one_run(struct build *b, int64_t id)
{
	struct compare_model *m = b->m;
	const struct crun *r = run_of(b, id);
	snprintf(m->run_label, sizeof(m->run_label), "%s", r->row.label);
	const char **loads;
	size_t nl = run_loads(r, &loads);
	if (nl > 1 && strcmp(loads[0], "no_load") == 0) {
		m->kind = COMPARE_LOADS;
		for (size_t i = 0; i < nl; i++) {
			char label[96];
			snprintf(label, sizeof(label), i ? "load %.60s" : "%.60s", loads[i]);
			add_side(m, label, &id, 1);
			m->sides[m->nsides - 1].load = loads[i]; /* points into the run's points, kept to the end */
		}
		free(loads);
		return;
	}
	free(loads);
	const char **names;
	size_t nv = curve_variants(r->pts, r->n, &names);
	if (nv > 1 || (nv == 1 && names[0][0])) {
		m->kind = COMPARE_VARIANTS;
		for (size_t i = 0; i < nv; i++) {
			char label[96];
			snprintf(label, sizeof(label), "variant %.60s", names[i]);
			add_side(m, label, &id, 1);
			m->sides[m->nsides - 1].variant = names[i]; /* points into the run's points, kept to the end */
		}
		free(names);
		if (nv < 2)
			snprintf(m->nothing, sizeof(m->nothing), "run %lld has one variant (%s): nothing to compare it with",
				 (long long)id, m->sides[0].variant);
		return;
	}
	free(names);
	int on = 0, off = 0;
	for (size_t i = 0; i < r->n; i++)
		on |= r->pts[i].osync == 1, off |= r->pts[i].osync == 0;
	if (!on || !off) {
		snprintf(m->nothing, sizeof(m->nothing), "run %lld has no variants and no workload measured with O_SYNC "
			 "both on and off: nothing to compare inside it (use --variant or --osync both, or give two runs)",
			 (long long)id);
		return;
	}
	m->kind = COMPARE_OSYNC;
	/* a sweep made since O_SYNC both interleaves: an off point ran before the last on point */
	int64_t last_on = -1, first_off = -1;
	for (size_t i = 0; i < r->n; i++) {
		if (r->pts[i].osync == 1 && r->pts[i].id > last_on)
			last_on = r->pts[i].id;
		if (r->pts[i].osync == 0 && (first_off < 0 || r->pts[i].id < first_off))
			first_off = r->pts[i].id;
	}
	m->interleaved = first_off >= 0 && first_off < last_on;
	add_side(m, "O_SYNC off", &id, 1);
	m->sides[0].osync = 0;
	add_side(m, "O_SYNC on", &id, 1);
	m->sides[1].osync = 1;
}

/* Groups of runs each from a lab's device (reaim lab), with a device that ran both the base and
 * another side: the cells pair the sides by device, and a note says so. */
static void lab_blocks(struct build *b)
{
	struct compare_model *m = b->m;
	size_t total = 0;
	for (size_t s = 0; s < m->nsides; s++)
		for (size_t i = 0; i < m->sides[s].nruns; i++, total++)
			if (!run_of(b, m->sides[s].runs[i])->device)
				return;
	char **devs = xcalloc(total + 1, sizeof(*devs));
	size_t n = 0, shared = 0;
	for (size_t s = 0; s < m->nsides; s++)
		for (size_t i = 0; i < m->sides[s].nruns; i++)
			devs[n++] = run_of(b, m->sides[s].runs[i])->device;
	for (size_t i = 0; i < m->sides[0].nruns && !shared; i++)
		for (size_t j = m->sides[0].nruns; j < n && !shared; j++)
			shared = strcmp(devs[i], devs[j]) == 0;
	if (shared && m->nsides >= 2) {
		b->blocked = m->blocked = 1;
		size_t nd = cmpblock_count(devs, n);
		note(m, NOTE(NOTE_BLOCKED, NOTE_INFO, NO_SIDES, .count = nd),
		     "blocked by device: the runs came from %zu device%s of a lab; each side's runs are paired with the "
		     "base's on the same device, so a device's own speed drops out (a paired test over the pairs)",
		     nd, nd == 1 ? "" : "s");
	}
	free(devs);
}

int compare_model_build(struct store *st, const struct compare_group *groups, size_t ngroups,
			const struct compare_options *o, struct compare_model *m)
{
	memset(m, 0, sizeof(*m));
	m->alpha = o->alpha > 0 ? o->alpha : VERDICT_ALPHA;
	m->fail_above_pct = o->fail_above_pct;
	m->gate = o->fail_above_pct > 0 || o->bisect;
	m->vouch_pct = o->fail_above_pct > 0 ? o->fail_above_pct : o->bisect ? COMPARE_BISECT_VOUCH_PCT : 0;
	m->exclude_noisy = o->exclude_noisy;
	m->ratio = o->ratio;
	m->runs = o->runs;
	for (size_t i = 0; i < o->nstats && m->nstats < COMPARE_NSTATS; i++)
		if (o->stats[i] >= 0 && o->stats[i] < COMPARE_NSTATS)
			m->stats[m->nstats++] = o->stats[i];
	if (!m->nstats)
		m->stats[m->nstats++] = COMPARE_STAT_MEAN;
	m->correction = o->correction == COMPARE_BH ? COMPARE_BH : COMPARE_HOLM;
	m->metric = metric_find(o->metric ? o->metric : "jobs_per_min");
	if (!m->metric)
		return -1;
	struct build b = {.st = st, .m = m};
	int rc = 0;
	for (size_t g = 0; g < ngroups && rc == 0; g++)
		for (size_t i = 0; i < groups[g].n && rc == 0; i++)
			rc = load_run(&b, groups[g].runs[i]);
	m->cpu_window = rc == 0 && all_have_window_cpu(&b);
	if (rc == 0 && ngroups == 1 && groups[0].n == 1) {
		inside_one_run(&b, groups[0].runs[0]);
	} else if (rc == 0) {
		m->kind = COMPARE_GROUPS;
		for (size_t g = 0; g < ngroups; g++) {
			char label[160];
			group_label(&b, &groups[g], label, sizeof(label));
			add_side(m, label, groups[g].runs, groups[g].n);
		}
		lab_blocks(&b);
	}
	if (rc == 0 && m->nsides >= 2) {
		struct key *keys;
		size_t nk = block_keys(&b, &keys);
		m->panels = xcalloc(nk * (m->nsides - 1) + 1, sizeof(*m->panels));
		for (size_t k = 0; k < nk; k++)
			for (size_t s = 1; s < m->nsides; s++)
				build_panel(&b, &keys[k], s, &m->panels[m->npanels++]);
		free(keys);
		correct(m);
		warnings(&b);
		judgeable(m);
	}
	if (rc == 0 && !m->unjudged[0] && m->nsides < 2)
		snprintf(m->unjudged, sizeof(m->unjudged), "%s",
			 m->nothing[0] ? m->nothing : "one group of runs: nothing to compare it with");
	if (rc == 0)
		decide_gate(m);
	/* the variants' names point into the loaded points: keep them in the model's own storage */
	for (size_t s = 0; s < m->nsides; s++)
		if (m->sides[s].variant)
			m->sides[s].variant = xstrdup(m->sides[s].variant);
	for (size_t s = 0; s < m->nsides; s++)
		if (m->sides[s].load)
			m->sides[s].load = xstrdup(m->sides[s].load);
	for (size_t i = 0; i < b.nruns; i++) {
		struct crun *r = &b.runs[i];
		for (size_t j = 0; j < r->n; j++)
			free(r->tests[j]);
		free(r->tests);
		free(r->ntests);
		free(r->loaded);
		free(r->pts);
		free(r->device);
		store_options_free(r->opts, r->nopts);
	}
	free(b.runs);
	return rc;
}

void compare_model_free(struct compare_model *m)
{
	for (size_t s = 0; s < m->nsides; s++) {
		free(m->sides[s].runs);
		free((char *)m->sides[s].variant);
		free((char *)m->sides[s].load);
	}
	free(m->sides);
	for (size_t i = 0; i < m->npanels; i++) {
		for (size_t c = 0; c < m->panels[i].ncells; c++) {
			points_free(&m->panels[i].cells[c].pts_a);
			points_free(&m->panels[i].cells[c].pts_b);
			free(m->panels[i].cells[c].runs_a);
			free(m->panels[i].cells[c].runs_b);
		}
		free(m->panels[i].cells);
		free(m->panels[i].subs);
	}
	free(m->panels);
	for (size_t i = 0; i < m->nnotes; i++) {
		free(m->cautions[i].value);
		free(m->cautions[i].base_value);
		free(m->cautions[i].tasks);
	}
	free(m->cautions);
	free_strings(m->notes, m->nnotes);
	memset(m, 0, sizeof(*m));
}
