/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's counters of each point: /proc read at the release and when the last task is done
 * (the engine's RELEASE and FINISHED moments), and their changes as the point's counter rows. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/syscount.h"
#include "run/accounting.h"
#include "run/counters.h"
#include "util/util.h"

struct counters {
	struct accounting *acct;
	const struct engine_hook *inner; /* the accounting's moments, called first */
	struct engine_hook hook;
	char *proc_root;
	char desc[400];
	/* the point going on */
	struct syscount_reading at_release, at_done;
	int released, done;
};

static void on_event(void *arg, enum engine_event ev)
{
	struct counters *c = arg;
	if (c->inner)
		c->inner->fn(c->inner->arg, ev);
	switch (ev) {
	case ENGINE_FORKING:
		syscount_reading_free(&c->at_release);
		syscount_reading_free(&c->at_done);
		c->released = c->done = 0;
		break;
	case ENGINE_RELEASE:
		syscount_read(c->proc_root, &c->at_release);
		c->released = 1;
		break;
	case ENGINE_FINISHED:
		syscount_read(c->proc_root, &c->at_done);
		c->done = c->released;
		break;
	case ENGINE_FORKED:
	case ENGINE_RELEASED:
	case ENGINE_KILL:
	case ENGINE_REAPED:
		break;
	}
}

struct counters *counters_open(struct accounting *acct, const char *proc_root)
{
	struct counters *c = xcalloc(1, sizeof(*c));
	c->acct = acct;
	c->inner = accounting_hook(acct);
	c->hook = (struct engine_hook){.fn = on_event, .arg = c};
	c->proc_root = proc_root ? xstrdup(proc_root) : NULL;
	struct syscount_reading r;
	syscount_read(proc_root, &r);
	size_t len = 0;
	len += (size_t)snprintf(c->desc, sizeof(c->desc), "system counters from");
	for (size_t s = 0; s < SYSCOUNT_NSOURCES && len < sizeof(c->desc); s++)
		if (r.have & (1u << s))
			len += (size_t)snprintf(c->desc + len, sizeof(c->desc) - len, " %s",
						syscount_source_name((enum syscount_source)s));
	syscount_reading_free(&r);
	return c;
}

const struct engine_hook *counters_hook(struct counters *c) { return c ? &c->hook : NULL; }

const struct perfctr_task *counters_task_events(const struct counters *c)
{
	(void)c;
	return NULL;
}

const char *counters_describe(const struct counters *c) { return c ? c->desc : "off"; }

struct store_counter *counters_point(struct counters *c, const struct engine_result *res, size_t *n)
{
	(void)res;
	*n = 0;
	if (!c || !c->done)
		return NULL;
	size_t nrows;
	struct syscount_row *rows = syscount_delta(&c->at_release, &c->at_done, SYSCOUNT_TOP_DEFAULT, &nrows);
	struct store_counter *out = xcalloc(nrows + 1, sizeof(*out));
	for (size_t i = 0; i < nrows; i++) {
		struct store_counter *o = &out[(*n)++];
		snprintf(o->source, sizeof(o->source), "%s", rows[i].source);
		snprintf(o->name, sizeof(o->name), "%s", rows[i].name);
		snprintf(o->unit, sizeof(o->unit), "%s", rows[i].unit);
		o->value = rows[i].value;
		o->running_pct = NAN;
	}
	free(rows);
	return out;
}

void counters_close(struct counters *c)
{
	if (!c)
		return;
	syscount_reading_free(&c->at_release);
	syscount_reading_free(&c->at_done);
	free(c->proc_root);
	free(c);
}
