/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine's counters in /proc/stat, /proc/vmstat and /proc/diskstats, parsed from a file's text:
 * what the sampler and the outside-load check read. */
#ifndef REAIM_MEASURE_PROCSTAT_H
#define REAIM_MEASURE_PROCSTAT_H

#include <stddef.h>

/* At most this many block devices per reading; names as long as the kernel's DISK_NAME_LEN. */
#define SAMPLER_MAX_DEVICES 16
#define SAMPLER_DEV_NAME_MAX 32

/* Raw counters of one reading. */
struct sys_counters {
	unsigned long long cpu[8]; /* user nice system idle iowait irq softirq steal (jiffies) */
	unsigned ncpus;            /* cpuN lines */
	unsigned long long ctxt, processes;
	long long procs_running;   /* runnable threads at the reading (the reader itself among them); -1 if absent */
	unsigned long long pgfault, pgmajfault, pswpin, pswpout;
	unsigned long long rd_ios, rd_sectors, wr_ios, wr_sectors, io_ticks_ms; /* summed over devices */
	unsigned long long io_ticks_max_ms; /* largest cumulative io_ticks of one device (not used for util) */
	unsigned long long in_flight;       /* requests issued and not yet completed, summed over devices */
	size_t ndevices;                    /* entries of dev_io_ticks_ms, in the order the devices were asked */
	unsigned long long dev_io_ticks_ms[SAMPLER_MAX_DEVICES];
};

/* Pure parsers: fill their own fields of c from the text of the file; 0 or -1. */
int procstat_parse_stat(const char *text, struct sys_counters *c);          /* /proc/stat */
int procstat_parse_vmstat(const char *text, struct sys_counters *c);        /* /proc/vmstat */
/* One /proc/diskstats line "major minor name counters...": the name (not terminated) and up to max
 * counters in f; their count, or -1 when the line is not one. */
int procstat_diskstats_line(const char *line, const char **name, size_t *nlen, unsigned long long *f, size_t max);
/* -1 if n > SAMPLER_MAX_DEVICES or a device is missing (the found ones are still filled). */
int procstat_parse_diskstats(const char *text, const char *const *devices, size_t n, struct sys_counters *c);

#endif
