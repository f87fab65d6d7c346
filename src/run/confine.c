/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --cpus: the CPUs of a block chosen spread over cores, confined through the accounting's cpuset
 * where there is one (and each task's affinity), and each point of the block run on them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "measure/cputopo.h"
#include "run/accounting.h"
#include "run/addon.h"
#include "run/confine.h"
#include "run/runner.h"
#include "util/util.h"

int confine_block(struct runner *rn, int cpus)
{
	rn->cpus = NULL;
	rn->ncpus = 0;
	if (cpus <= 0)
		return 0;
	char why[200];
	int *chosen = xcalloc((size_t)cpus, sizeof(int));
	if (cputopo_choose("/sys", cpus, chosen, why, sizeof(why)) < 0) {
		log_error("--cpus %d: %s", cpus, why);
		rn->failed = rn->fatal = 1;
		if (!rn->first_failure[0])
			snprintf(rn->first_failure, sizeof(rn->first_failure), "--cpus %d: %s", cpus, why);
		free(chosen);
		return -1;
	}
	struct strbuf sb = {0};
	strbuf_add(&sb, "", 0);
	for (int i = 0; i < cpus; i++)
		strbuf_addf(&sb, "%s%d", i ? "," : "", chosen[i]);
	log_info("%d CPU%s: the tasks run on CPU%s %s", cpus, cpus == 1 ? "" : "s", cpus == 1 ? "" : "s", sb.buf);
	strbuf_free(&sb);
	accounting_confine(rn->acct, chosen, (size_t)cpus);
	rn->cpus = chosen;
	rn->ncpus = (size_t)cpus;
	return 0;
}

void confine_block_end(struct runner *rn)
{
	accounting_confine(rn->acct, NULL, 0);
	free(rn->cpus);
	rn->cpus = NULL;
	rn->ncpus = 0;
}

/* Each point's tasks confine their affinity to the block's CPUs (the cpuset, where there is one, is
 * the accounting's). */
static int addon_before(struct addon_point *p, void *state, char *err, size_t errlen)
{
	(void)state;
	(void)err;
	(void)errlen;
	p->pt->cpus = p->rn->cpus;
	p->pt->ncpus = p->rn->ncpus;
	return 0;
}

const struct point_addon confine_addon = {.name = "cpus", .before = addon_before};
