/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An engine point's facts for unit tests: its file size and jobs per task from the plan's one
 * function, as the runner takes them from the schedule. */
#ifndef REAIM_TESTS_UNIT_TESTPOINT_H
#define REAIM_TESTS_UNIT_TESTPOINT_H

#include "config/cfg.h"
#include "engine/engine.h"

static inline void point_facts(struct engine_point *pt)
{
	const struct schedule_point sp = schedule_point_of(pt->wf, pt->opts, pt->tasks);
	pt->file_kib = sp.file_kib;
	pt->jobs_per_task = sp.jobs_per_task;
}

#endif
