/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The model behind `reaim compare`: its sides and the build of the model over stored runs (the wing's other files: cmpsample.c, cmpcell.c, cmppanel.c, cmpsubtest.c,
 * cmpnote.c, cmpgate.c; their shared structs in cmpbuild.h). */
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
#include "analysis/cmpbuild.h"

/* ---- sides ---- */

/* The labels of a group's runs, each once, in order. */
static void group_label(struct build *b, const struct compare_group *g, char *buf, size_t len)
{
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (size_t i = 0; i < g->n; i++) {
		const char *l = cmp_run_of(b, g->runs[i])->row.label;
		int seen = 0;
		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(cmp_run_of(b, g->runs[k])->row.label, l) == 0;
		if (!seen)
			strbuf_addf(&sb, "%s%s", sb.len ? "," : "", l);
	}
	snprintf(buf, len, "%s", sb.buf);
	strbuf_free(&sb);
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
	const struct crun *r = cmp_run_of(b, id);
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
			m->nothing = NOTHING_ONE_VARIANT, m->nothing_run = id;
		return;
	}
	free(names);
	int on = 0, off = 0;
	for (size_t i = 0; i < r->n; i++)
		on |= r->pts[i].osync == 1, off |= r->pts[i].osync == 0;
	if (!on || !off) {
		m->nothing = NOTHING_INSIDE, m->nothing_run = id;
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
			if (!cmp_run_of(b, m->sides[s].runs[i])->device)
				return;
	char **devs = xcalloc(total + 1, sizeof(*devs));
	size_t n = 0, shared = 0;
	for (size_t s = 0; s < m->nsides; s++)
		for (size_t i = 0; i < m->sides[s].nruns; i++)
			devs[n++] = cmp_run_of(b, m->sides[s].runs[i])->device;
	for (size_t i = 0; i < m->sides[0].nruns && !shared; i++)
		for (size_t j = m->sides[0].nruns; j < n && !shared; j++)
			shared = strcmp(devs[i], devs[j]) == 0;
	if (shared && m->nsides >= 2) {
		b->blocked = m->blocked = 1;
		size_t nd = cmpblock_count(devs, n);
		cmp_note(m, NOTE(NOTE_BLOCKED, NOTE_INFO, NO_SIDES, .count = nd));
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
			rc = cmp_load_run(&b, groups[g].runs[i]);
	m->cpu_window = rc == 0 && cmp_all_have_window_cpu(&b);
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
		size_t nk = cmp_block_keys(&b, &keys);
		m->panels = xcalloc(nk * (m->nsides - 1) + 1, sizeof(*m->panels));
		for (size_t k = 0; k < nk; k++)
			for (size_t s = 1; s < m->nsides; s++)
				cmp_build_panel(&b, &keys[k], s, &m->panels[m->npanels++]);
		free(keys);
		cmp_correct(m);
		cmp_warnings(&b);
		cmp_judgeable(m);
	}
	if (rc == 0 && m->unjudged == UNJUDGED_NO && m->nsides < 2)
		m->unjudged = UNJUDGED_ONE_GROUP;
	if (rc == 0)
		cmp_decide_gate(m);
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
			cmp_points_free(&m->panels[i].cells[c].pts_a);
			cmp_points_free(&m->panels[i].cells[c].pts_b);
			free(m->panels[i].cells[c].runs_a);
			free(m->panels[i].cells[c].runs_b);
		}
		free(m->panels[i].cells);
		free(m->panels[i].subs);
	}
	free(m->panels);
	for (size_t i = 0; i < m->nnotes; i++)
		cmp_note_free(&m->notes[i]);
	free(m->notes);
	cmp_gate_why_free(&m->gate_why);
	memset(m, 0, sizeof(*m));
}
