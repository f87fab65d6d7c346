/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's system-wide counters a point is explained by: /proc/vmstat, interrupts and softirqs
 * by kind, schedstat's run delay, lock_stat's contentions and the slab caches, read at the release
 * and when the last task is done, and their changes over that window as name/value/unit rows. */
#ifndef REAIM_MEASURE_SYSCOUNT_H
#define REAIM_MEASURE_SYSCOUNT_H

#include <stddef.h>

/* A counter's name within its source: a vmstat key, an IRQ line's name, a lock class, a slab cache. */
#define SYSCOUNT_NAME_MAX 80
/* The slab caches and lock classes that changed most are kept (by |change|); the rest are dropped. */
#define SYSCOUNT_TOP_DEFAULT 20

enum syscount_source {
	SYSCOUNT_VMSTAT,
	SYSCOUNT_INTERRUPTS,
	SYSCOUNT_SOFTIRQS,
	SYSCOUNT_SCHEDSTAT,
	SYSCOUNT_LOCKSTAT,
	SYSCOUNT_SLABINFO,
	SYSCOUNT_DISKSTATS,
	SYSCOUNT_NSOURCES,
};

struct syscount_item {
	char name[SYSCOUNT_NAME_MAX];
	double value;
};
/* The counters of one source at one moment, sorted by name once read. */
struct syscount_set {
	struct syscount_item *v;
	size_t n, cap;
};
struct syscount_reading {
	struct syscount_set src[SYSCOUNT_NSOURCES];
	unsigned have; /* bit per source: its file was read and parsed */
};

/* The source's name as stored ("vmstat", "interrupts", ...) and its file under the proc root. */
const char *syscount_source_name(enum syscount_source s);

/* Pure parsers: the text of one file into out (appended, then sorted); 0, or -1 when it is not that
 * file's format. Interrupts and softirqs are summed over CPUs; a numbered IRQ is named by its
 * devices ("virtio0-input.0"), so lines of the same name add up; schedstat gives run_delay_ns,
 * rq_cpu_time_ns and timeslices summed over CPUs; lock_stat gives each class's contentions and
 * the total; slabinfo each cache's bytes (num_objs x objsize); diskstats each block device's I/Os,
 * merges, KiB, milliseconds and flushes ("vda.writes_merged"), leaving out the devices that never did
 * any I/O (the unused loop and ram devices) and the in-flight gauge. */
int syscount_parse(enum syscount_source s, const char *text, struct syscount_set *out);

/* Read every source under proc_root (NULL: "/proc"); a file that is missing or unreadable (lock_stat
 * without CONFIG_LOCK_STAT, slabinfo as a user) leaves its source out. Never fails. */
void syscount_read(const char *proc_root, struct syscount_reading *r);
void syscount_reading_free(struct syscount_reading *r);

/* One change over the window. */
struct syscount_row {
	const char *source; /* syscount_source_name */
	char name[SYSCOUNT_NAME_MAX];
	const char *unit;   /* "events", "pages", "ns", "bytes", ... */
	double value;       /* b - a; a counter absent from a counts from 0 */
};
/* The changes from a to b for the sources both have: every counter of vmstat, interrupts, softirqs and
 * schedstat; of lock_stat the total and the top classes, of slabinfo the top caches by |change| (those
 * that did not change are left out). Returns the rows (free()) and their count in *n. */
struct syscount_row *syscount_delta(const struct syscount_reading *a, const struct syscount_reading *b,
				    size_t top, size_t *n);

#endif
