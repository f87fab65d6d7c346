/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --cpus: a block's tasks confined to some of the machine's CPUs, chosen spread over its cores; each
 * point of the block runs on them (confine_addon, run/addon.h). */
#ifndef REAIM_RUN_CONFINE_H
#define REAIM_RUN_CONFINE_H

struct runner;

/* Confine the block's points to `cpus` CPUs (0: every CPU, nothing to do): chosen, said, and set
 * as the run's (rn->cpus) and the accounting's cpuset. -1 (the run stops) when they cannot be
 * chosen, as preflight refused a count beyond the allowed CPUs. */
int confine_block(struct runner *rn, int cpus);
/* The block is over: its points run on every CPU again. */
void confine_block_end(struct runner *rn);

#endif
