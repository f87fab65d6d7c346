/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison's names: of its corrections, load models and kinds (its verdicts' and notes' are
 * report/'s), a side's
 * letter and name, and a panel found by what it compares. */
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

const char *const compare_correction_names[] = {"holm", "bh", NULL};

const char *compare_correction_name(enum compare_correction c)
{
	return c == COMPARE_BH ? "Benjamini-Hochberg" : "Holm";
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
