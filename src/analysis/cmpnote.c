/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a comparison warns and cautions about, as typed notes: runs that differ (environment,
 * kernel config, options, mix, boots), noise, unpaired rounds, confounded cells. */
#include "config.h"

#include <math.h>
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
#include "analysis/cmpbuild.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void cmp_note(struct compare_model *m, struct compare_note n)
{
	m->notes = xrealloc(m->notes, (m->nnotes + 1) * sizeof(*m->notes));
	n.value = dup_or_null(n.value);
	n.base_value = dup_or_null(n.base_value);
	for (size_t i = 0; i < ARRAY_SIZE(n.fact); i++)
		n.fact[i] = dup_or_null(n.fact[i]);
	if (n.run && !n.nruns) {
		n.runs = xcalloc(1, sizeof(*n.runs));
		n.runs[n.nruns++] = n.run;
	}
	m->notes[m->nnotes++] = n;
}

void cmp_note_free(struct compare_note *n)
{
	free(n->value);
	free(n->base_value);
	for (size_t i = 0; i < ARRAY_SIZE(n->fact); i++)
		free(n->fact[i]);
	free(n->runs);
	free(n->sides);
	free(n->at);
	if (n->config)
		kconfig_changes_free(n->config, n->count);
}

void cmp_note_at(struct compare_note *n, const char *workload, int tasks, size_t a, size_t b)
{
	n->at = xrealloc(n->at, (n->nat + 1) * sizeof(*n->at));
	struct compare_note_at *at = &n->at[n->nat++];
	*at = (struct compare_note_at){.tasks = tasks, .a = a, .b = b};
	snprintf(at->workload, sizeof(at->workload), "%s", workload);
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

void cmp_free_strings(char **v, size_t n)
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

/* The kernel config options two runs' kernels set differently, from the texts stored with them. */
static void config_note(struct build *b, int64_t base, int64_t other, enum compare_note_level level)
{
	struct compare_model *m = b->m;
	char *ta = NULL, *tb = NULL;
	if (store_get_kernel_config(b->st, base, &ta) == 0 && store_get_kernel_config(b->st, other, &tb) == 0 && ta &&
	    tb) {
		struct kconfig_change *c;
		size_t n = kconfig_diff(ta, tb, &c);
		if (n)
			cmp_note(m, NOTE(NOTE_KCONFIG_DIFFERS, level, RUNS(other, base), .key = "kernel.config", .count = n,
					 .config = c));
		else
			kconfig_changes_free(c, n);
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
	/* fact: each side's kernel (NULL: not said) and image, the base's first */
	struct compare_note n = NOTE(NOTE_ENV_DIFFERS, NOTE_INFO, RUNS(other, base), .key = "boot.cmdline",
				     .value = (char *)cb, .base_value = (char *)ca,
				     .fact = {(char *)env_value(ka, na, "boot.kernel"), (char *)sa,
					      (char *)env_value(kb, nb, "boot.kernel"), (char *)sb});
	if (first_of_side)
		cmp_note(m, n);
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
		cmp_free_strings(kv, n);
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
		cmp_note(m, NOTE(NOTE_HOST_LOAD, NOTE_CAUTION, .side = (int)s, .base_side = 0, .count = o.n,
				 .base_count = a.n, .value = (char *)accel, .key = "boot.host_outside_pct",
				 .figure = {a.min, a.max, o.min, o.max, a.mean, o.mean}));
	}
}

static int same_or_both_null(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* One warning per fact and side: a run of a side already warned of with the same value joins that
 * warning (its runs; "runs 3, 4 (B) differ from run 1 (A) in ..."). 1 when it joined one. */
static int join_env_note(struct compare_model *m, const struct compare_note *n)
{
	for (size_t i = 0; i < m->nnotes; i++) {
		struct compare_note *c = &m->notes[i];
		if (c->code != NOTE_ENV_DIFFERS || c->level != n->level || c->side != n->side ||
		    c->base_run != n->base_run || strcmp(c->key, n->key) != 0 || !same_or_both_null(c->value, n->value))
			continue;
		BUG_ON(!c->nruns);
		c->runs = xrealloc(c->runs, (c->nruns + 1) * sizeof(*c->runs));
		c->runs[c->nruns++] = n->run;
		c->count = c->nruns;
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
		cmp_free_strings(ka, na);
		return;
	}
	int same_side = side_of(m, base) == side_of(m, other);
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
					     .value = (char *)theirs, .base_value = (char *)(tab + 1),
					     .two_builds = identity && !same_side);
		snprintf(n.key, sizeof(n.key), "%.*s", (int)klen, ka[i]);
		if ((!theirs || strcmp(theirs, tab + 1) != 0) && boot_fact(ka[i], klen, tab + 1, theirs, declared) == FACT_WARN &&
		    !join_env_note(m, &n))
			cmp_note(m, n);
	}
	const char *ca = env_value(ka, na, "kernel.config"), *cb = env_value(kb, nb, "kernel.config");
	if (ca && cb && strcmp(ca, cb) != 0)
		config_note(b, base, other, (same_side || one_release) && !declared ? NOTE_WARNING : NOTE_INFO);
	cmp_free_strings(ka, na);
	cmp_free_strings(kb, nb);
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
			cmp_note(m, option_note(m, other, base, &oa[i], vb, va));
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
					cmp_note(m, n);
					if (!m->unlike.run) {
						snprintf(m->unlike.workload, sizeof(m->unlike.workload), "%s", wb[i].name);
						m->unlike.run = other, m->unlike.base_run = base;
					}
				}
				free(ma);
				free(mb);
			}
	free(wa);
	free(wb);
}

void cmp_warnings(struct build *b)
{
	struct compare_model *m = b->m;
	int64_t base = m->sides[0].runs[0];
	for (size_t s = 0; s < m->nsides; s++)
		for (size_t i = 0; i < m->sides[s].nruns; i++) {
			const struct crun *r = cmp_run_of(b, m->sides[s].runs[i]);
			if (strcmp(r->row.status, "complete") != 0)
				cmp_note(m, NOTE(NOTE_RUN_INCOMPLETE, NOTE_WARNING, .run = r->id, .side = (int)s,
						 .base_side = -1, .value = (char *)r->row.status));
			if (r->id == base || m->kind != COMPARE_GROUPS)
				continue;
			env_warnings(b, base, r->id);
			option_warnings(b, base, r->id);
			mix_warnings(b, base, r->id);
		}
	if (m->kind == COMPARE_OSYNC && !m->interleaved)
		cmp_note(m, NOTE(NOTE_OSYNC_SEQUENTIAL, NOTE_CAUTION, .side = 1, .base_side = 0));
	if (m->kind != COMPARE_GROUPS)
		return;
	host_load_cautions(b);
	/* sides of several runs where only one has a task count: its repeats stand in, said where */
	for (size_t s = 0; s < m->nsides; s++) {
		if (m->sides[s].nruns < 2)
			continue;
		struct compare_note gap = NOTE(NOTE_GROUP_GAP, NOTE_CAUTION, .side = (int)s, .base_side = -1,
					       .count = m->sides[s].nruns);
		for (size_t i = 0; i < m->npanels; i++)
			for (size_t c = 0; c < m->panels[i].ncells; c++) {
				const struct compare_cell *cell = &m->panels[i].cells[c];
				int here = (s == 0 && cell->src_a == VERDICT_SRC_REPEATS) ||
					   (m->panels[i].side == s && cell->src_b == VERDICT_SRC_REPEATS);
				if (here && (s != 0 || m->panels[i].side == 1))
					cmp_note_at(&gap, m->panels[i].workload, cell->tasks, 0, 0);
			}
		if (gap.nat)
			cmp_note(m, gap);
	}
	/* sides whose samples are the repeats inside one run */
	struct compare_note who = NOTE(NOTE_ONE_RUN, NOTE_CAUTION, NO_SIDES);
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
			who.sides = xrealloc(who.sides, (who.nsides + 1) * sizeof(*who.sides));
			who.sides[who.nsides++] = s;
		}
	}
	who.count = who.nsides;
	if (who.nsides)
		cmp_note(m, who);
}

/* A caution per panel with points measured in noise: where, how many a side, and the first reason. */
void cmp_noise_cautions(struct compare_model *m)
{
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		struct compare_note n = NOTE(NOTE_NOISY, NOTE_CAUTION, .side = (int)p->side, .base_side = 0);
		for (size_t c = 0; c < p->ncells; c++) {
			const struct compare_cell *cell = &p->cells[c];
			if (!cell->noisy_a && !cell->noisy_b)
				continue;
			cmp_note_at(&n, p->workload, cell->tasks, cell->noisy_a, cell->noisy_b);
			if (!n.value)
				n.value = (char *)cell->why_noisy, n.value_other = cell->why_noisy_other;
			m->noisy++;
		}
		if (n.nat) {
			snprintf(n.workload, sizeof(n.workload), "%s", p->workload);
			snprintf(n.variant, sizeof(n.variant), "%s", p->variant);
			cmp_note(m, n);
		}
	}
}

/* A caution per panel whose paired rounds lost a partner. */
void cmp_unpaired_cautions(struct compare_model *m)
{
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		struct compare_note n = NOTE(NOTE_UNPAIRED, NOTE_CAUTION, .side = (int)p->side, .base_side = 0);
		for (size_t c = 0; c < p->ncells; c++) {
			const struct compare_cell *cell = &p->cells[c];
			if (!cell->unpaired_a && !cell->unpaired_b)
				continue;
			cmp_note_at(&n, p->workload, cell->tasks, cell->unpaired_a, cell->unpaired_b);
			n.count += cell->unpaired_a + cell->unpaired_b;
		}
		if (n.nat) {
			snprintf(n.workload, sizeof(n.workload), "%s", p->workload);
			cmp_note(m, n);
		}
	}
}

/* A caution per panel with cells confounded with the outside load, naming both sides' loads. */
void cmp_confounded_cautions(struct compare_model *m)
{
	for (size_t i = 0; i < m->npanels; i++) {
		const struct compare_panel *p = &m->panels[i];
		const struct compare_summary *v = &p->summary;
		if (!v->confounded)
			continue;
		struct compare_note n = NOTE(NOTE_CONFOUNDED, NOTE_CAUTION, .side = (int)p->side, .base_side = 0,
					     .count = v->confounded,
					     .figure = {v->load_a.min, v->load_a.max, v->load_b.min, v->load_b.max});
		for (size_t c = 0; c < p->ncells; c++)
			if (p->cells[c].state == CELL_CONFOUNDED)
				cmp_note_at(&n, p->workload, p->cells[c].tasks, 0, 0);
		snprintf(n.workload, sizeof(n.workload), "%s", p->workload);
		cmp_note(m, n);
	}
}
