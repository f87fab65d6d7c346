/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether stored points were measured in noise (outside load or steal over the run's limit). */
#ifndef REAIM_ANALYSIS_NOISE_H
#define REAIM_ANALYSIS_NOISE_H

#include <stddef.h>

#include "store/store.h"

/* Why a stored point was measured in noise ("outside load 23.4 % of the machine"), or NULL when it was
 * not (or was stored before reaim judged noise). The point is still valid. */
const char *noise_of_point(const struct store_point *p);
/* Among the valid points of pts[0..n) at `tasks` tasks (0: at every task count), how many are noisy, with
 * the reason of the noisiest (the highest outside share or steal) in reason ("" when none). */
size_t noise_count_points(const struct store_point *pts, size_t n, int tasks, char *reason, size_t reasonlen);

#endif
