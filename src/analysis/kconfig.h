/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which options two kernel build configurations (the text of a .config) set differently. */
#ifndef REAIM_ANALYSIS_KCONFIG_H
#define REAIM_ANALYSIS_KCONFIG_H

#include <stddef.h>

/* One option set differently: its value on each side ("y", "m", "1000", "\"text\""), "n" where it is
 * not set ("# CONFIG_X is not set", or absent: a kernel without the option). */
struct kconfig_change {
	char *name;
	char *a, *b;
};

/* The options of configs a and b whose values differ, by name; returns how many. */
size_t kconfig_diff(const char *a, const char *b, struct kconfig_change **out);
void kconfig_changes_free(struct kconfig_change *c, size_t n);
/* In words: report_kconfig_line (report/note_text.c). */

#endif
