/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Blocks of a comparison of groups: runs from a lab's devices, each run's device read from its stored
 * facts (lab.device), and the two sides' runs paired device by device. */
#ifndef REAIM_ANALYSIS_CMPBLOCK_H
#define REAIM_ANALYSIS_CMPBLOCK_H

#include <stddef.h>
#include <stdint.h>

struct store;
/* The device a run ran on in a lab (its lab.device fact), allocated; NULL when it has none. */
char *cmpblock_device(struct store *st, int64_t run);
/* Pairs of one side's samples with the other's on the same block: the i-th of a in block X with the
 * i-th of b in X, in the order given (the order they ran); the indexes of each pair into ia and ib
 * (room for the smaller of na, nb), how many pairs. A sample without a partner on its block is left
 * out. */
size_t cmpblock_pair(char *const *ba, size_t na, char *const *bb, size_t nb, size_t *ia, size_t *ib);
/* How many different blocks n names have. */
size_t cmpblock_count(char *const *blocks, size_t n);

#endif
