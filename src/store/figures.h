/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stored figures, one row each: the struct members, the SQL, merge, the exports and the plot
 * metrics all come from these tables (docs/DESIGN.md, "How to add a figure"). */
#ifndef REAIM_STORE_FIGURES_H
#define REAIM_STORE_FIGURES_H

#include <stddef.h>
#include <stdint.h>

/* Each row: X(name, type, unit, label, fmt, group, plot)
 *   name   column, struct member and export key (the names DESIGN.md uses)
 *   type   INT (int), I64 (int64_t), REAL (double; NaN is stored as NULL and read back as NaN),
 *          BOOL (int, true/false in JSON), TEXT (char[STORE_TEXT_LEN]; "" is stored as NULL)
 *   unit   what one of it is, "" for none (names and flags)
 *   label  for people: axis titles, listings
 *   fmt    printf format of a REAL in the text exports ("%.17g" keeps every bit); "" otherwise
 *   group  CORE: every point has it; SYSTEM: only a sampled point (NULL otherwise), in the
 *          "system" object of the JSON export
 *   plot   PLOT or PLOT_UP: `reaim plot --metric` draws it against task count and `reaim compare
 *          --metric` judges it; PLOT_UP where a rise is better (Jobs/Min, JTI, idle, disk KB/s),
 *          PLOT where a rise is worse (times, CPU, stalls, the machine's shares); NOPLOT otherwise
 * Row order is the JSON key order. A new row needs a migration adding its column (schema.c). */
#define STORE_POINT_FIGURES(X)                                                                            \
	X(osync, INT, "", "O_SYNC on (1) or off (0)", "", CORE, NOPLOT)                                   \
	X(cpus, INT, "CPUs", "CPUs the tasks were confined to (--cpus), 0 for every CPU", "", CORE, NOPLOT) \
	X(tasks, INT, "tasks", "Tasks", "", CORE, NOPLOT)                                                 \
	X(repeat, INT, "", "Repeat (from 0)", "", CORE, NOPLOT)                                           \
	X(variant, TEXT, "", "Variant (--variant NAME), empty for none", "", CORE, NOPLOT)                \
	X(load, TEXT, "", "Background load (--load NAME, no_load the base), empty for none", "", CORE, NOPLOT) \
	X(load_units, REAL, "units", "The load's units of work over the measured window", "%.17g", CORE, NOPLOT) \
	X(load_cpu_pct, REAL, "%", "The load's CPU, % of one CPU", "%.4g", CORE, NOPLOT)                  \
	X(load_read_bytes, REAL, "bytes", "The load's disk reads (bytes)", "%.17g", CORE, NOPLOT)         \
	X(load_write_bytes, REAL, "bytes", "The load's disk writes (bytes)", "%.17g", CORE, NOPLOT)       \
	X(valid, BOOL, "", "Valid", "", CORE, NOPLOT)                                                     \
	X(reason, TEXT, "", "Why the point is invalid", "", CORE, NOPLOT)                                 \
	X(jobs_per_task, I64, "jobs", "Jobs per task", "", CORE, NOPLOT)                                  \
	X(file_kib, I64, "KiB", "File size per task (KiB)", "", CORE, NOPLOT)                             \
	X(jobs_per_min, REAL, "jobs/min", "Jobs/Min", "%.17g", CORE, PLOT_UP)                             \
	X(jobs_per_min_task, REAL, "jobs/min", "Jobs/Min per task", "%.17g", CORE, PLOT_UP)               \
	X(real_s, REAL, "s", "Real time (s)", "%.17g", CORE, PLOT)                                        \
	X(user_s, REAL, "s", "CPU user time (s)", "%.17g", CORE, NOPLOT)                                  \
	X(sys_s, REAL, "s", "CPU system time (s)", "%.17g", CORE, NOPLOT)                                 \
	X(cpu_s, REAL, "s", "CPU time over the tasks' lives (s)", "%.17g", CORE, PLOT)                    \
	X(window_cpu_s, REAL, "s", "CPU time from the release to the last job (s)", "%.17g", CORE, PLOT)  \
	X(std_dev_s, REAL, "s", "Std dev of task times (s)", "%.17g", CORE, NOPLOT)                       \
	X(std_dev_pct, REAL, "%", "Std dev of task times %", "%.17g", CORE, NOPLOT)                       \
	X(jti, REAL, "%", "JTI", "%.17g", CORE, PLOT_UP)                                                  \
	X(min_task_s, REAL, "s", "Fastest task (s)", "%.17g", CORE, NOPLOT)                               \
	X(max_task_s, REAL, "s", "Slowest task (s)", "%.17g", CORE, NOPLOT)                               \
	X(min_task_index, INT, "", "Fastest task's index", "", CORE, NOPLOT)                              \
	X(max_task_index, INT, "", "Slowest task's index", "", CORE, NOPLOT)                              \
	X(release_skew_s, REAL, "s", "Release skew (s)", "%.17g", CORE, NOPLOT)                           \
	X(overhead_s, REAL, "s", "Point overhead (s)", "%.17g", CORE, NOPLOT)                             \
	X(overhead_note, TEXT, "", "Which phase of the point took far beyond its norm", "", CORE, NOPLOT) \
	X(noisy, BOOL, "", "Measured in noise (outside load or steal over the limit)", "", CORE, NOPLOT)  \
	X(noise, TEXT, "", "Why the point is noisy", "", CORE, NOPLOT)                                    \
	X(hook_dir, TEXT, "", "The --point-hook's output directory, empty for none", "", CORE, NOPLOT)    \
	X(hook_end, TEXT, "", "How the --point-hook ended", "", CORE, NOPLOT)                             \
	X(cgroup_cpu_s, REAL, "s", "CPU time from the point's cgroup (s)", "%.17g", CORE, NOPLOT)         \
	X(io_read_bytes, REAL, "bytes", "Run's own disk reads (bytes)", "%.17g", CORE, NOPLOT)            \
	X(io_write_bytes, REAL, "bytes", "Run's own disk writes (bytes)", "%.17g", CORE, NOPLOT)          \
	X(io_read_ios, REAL, "IOs", "Run's own disk reads (IOs)", "%.17g", CORE, NOPLOT)                  \
	X(io_write_ios, REAL, "IOs", "Run's own disk writes (IOs)", "%.17g", CORE, NOPLOT)                \
	X(mem_peak_bytes, REAL, "bytes", "Memory peak (bytes)", "%.17g", CORE, PLOT)                      \
	X(psi_cpu_some_pct, REAL, "%", "Stalled on CPU, some tasks %", "%.4g", CORE, PLOT)                \
	X(psi_cpu_full_pct, REAL, "%", "Stalled on CPU, all tasks %", "%.4g", CORE, NOPLOT)               \
	X(psi_io_some_pct, REAL, "%", "Stalled on I/O, some tasks %", "%.4g", CORE, PLOT)                 \
	X(psi_io_full_pct, REAL, "%", "Stalled on I/O, all tasks %", "%.4g", CORE, NOPLOT)                \
	X(psi_mem_some_pct, REAL, "%", "Stalled on memory, some tasks %", "%.4g", CORE, PLOT)             \
	X(psi_mem_full_pct, REAL, "%", "Stalled on memory, all tasks %", "%.4g", CORE, NOPLOT)            \
	X(user_pct, REAL, "%", "CPU user %", "%.4g", SYSTEM, PLOT)                                        \
	X(sys_pct, REAL, "%", "CPU system %", "%.4g", SYSTEM, PLOT)                                       \
	X(iowait_pct, REAL, "%", "CPU iowait %", "%.4g", SYSTEM, PLOT)                                    \
	X(idle_pct, REAL, "%", "CPU idle %", "%.4g", SYSTEM, PLOT_UP)                                     \
	X(read_kbs, REAL, "KB/s", "The machine's disk reads KB/s (every process)", "%.6g", SYSTEM, PLOT_UP) \
	X(write_kbs, REAL, "KB/s", "The machine's disk writes KB/s (every process)", "%.6g", SYSTEM, PLOT_UP) \
	X(read_iops, REAL, "IO/s", "Disk reads/s", "%.6g", SYSTEM, NOPLOT)                                \
	X(write_iops, REAL, "IO/s", "Disk writes/s", "%.6g", SYSTEM, NOPLOT)                              \
	X(util_pct, REAL, "%", "Disk utilisation %", "%.4g", SYSTEM, PLOT)                                \
	X(ctxt_per_s, REAL, "1/s", "Context switches/s", "%.6g", SYSTEM, PLOT)                            \
	X(forks_per_s, REAL, "1/s", "Forks/s", "%.6g", SYSTEM, NOPLOT)                                    \
	X(pgfault_per_s, REAL, "1/s", "Page faults/s", "%.6g", SYSTEM, NOPLOT)                            \
	X(sampler_cpu_pct, REAL, "%", "Sampler's own CPU %", "%.4g", SYSTEM, NOPLOT)                      \
	X(outside_cpu_pct, REAL, "%", "CPU used outside the run, % of the machine", "%.4g", SYSTEM, PLOT) \
	X(steal_pct, REAL, "%", "Steal time %", "%.4g", SYSTEM, PLOT)                                     \
	X(outside_read_bytes, REAL, "bytes", "Others' reads on the run's disks", "%.17g", SYSTEM, NOPLOT) \
	X(outside_write_bytes, REAL, "bytes", "Others' writes on the run's disks", "%.17g", SYSTEM, NOPLOT) \
	X(others_demand_pct, REAL, "%", "Others' runnable threads, % of the CPUs (run idle)", "%.4g", SYSTEM, PLOT) \
	X(others_idle_cpu_pct, REAL, "%", "CPU used by others while the run was idle, %", "%.4g", SYSTEM, NOPLOT) \
	X(others_in_flight, REAL, "reqs", "Others' requests in flight on the run's disks (run idle)", "%.4g", SYSTEM, NOPLOT) \
	X(others_disk_busy_pct, REAL, "%", "Others' busy time of the run's busiest disk (run idle), %", "%.4g", SYSTEM, NOPLOT) \
	X(io_read_kbs, REAL, "KB/s", "Run's own disk reads KB/s", "%.6g", CORE, PLOT_UP)                    \
	X(io_write_kbs, REAL, "KB/s", "Run's own disk writes KB/s", "%.6g", CORE, PLOT_UP)

/* Per test of a point (table test_stats; the test's name is its key, outside the table). */
#define STORE_TEST_FIGURES(X)                                                                             \
	X(count, I64, "jobs", "Jobs", "", CORE, NOPLOT)                                                   \
	X(total_s, REAL, "s", "Total job time (s)", "%.17g", CORE, NOPLOT)                                \
	X(min_s, REAL, "s", "Fastest job (s)", "%.17g", CORE, NOPLOT)                                     \
	X(max_s, REAL, "s", "Slowest job (s)", "%.17g", CORE, NOPLOT)                                     \
	X(mean_s, REAL, "s", "Mean job time (s)", "%.17g", CORE, NOPLOT)                                  \
	X(p50_s, REAL, "s", "Median job time (s)", "%.17g", CORE, NOPLOT)                                 \
	X(p90_s, REAL, "s", "90th percentile job time (s)", "%.17g", CORE, NOPLOT)                        \
	X(p99_s, REAL, "s", "99th percentile job time (s)", "%.17g", CORE, NOPLOT)                        \
	X(over_2s, I64, "jobs", "Jobs over 2 s", "", CORE, NOPLOT)

/* One interval of a point's system time series (table samples); PLOT: `plot --timeline` draws it.
 * A name that is also a SYSTEM point figure means the same thing (the point's is the average). */
#define STORE_SAMPLE_FIGURES(X)                                                                           \
	X(t_s, REAL, "s", "Seconds into the point", "%.17g", CORE, NOPLOT)                                \
	X(user_pct, REAL, "%", "CPU user %", "%.17g", CORE, PLOT)                                         \
	X(sys_pct, REAL, "%", "CPU system %", "%.17g", CORE, PLOT)                                        \
	X(iowait_pct, REAL, "%", "CPU iowait %", "%.17g", CORE, PLOT)                                     \
	X(idle_pct, REAL, "%", "CPU idle %", "%.17g", CORE, PLOT)                                         \
	X(read_kbs, REAL, "KB/s", "Disk read KB/s", "%.17g", CORE, PLOT)                                  \
	X(write_kbs, REAL, "KB/s", "Disk write KB/s", "%.17g", CORE, PLOT)                                \
	X(util_pct, REAL, "%", "Disk utilisation %", "%.17g", CORE, PLOT)                                 \
	X(ctxt_per_s, REAL, "1/s", "Context switches/s", "%.17g", CORE, PLOT)

/* Longest TEXT figure kept (with its NUL); longer stored text is cut when read. */
#define STORE_TEXT_LEN 320

/* The C member a row declares, by type. */
#define STORE_MEMBER_INT(name) int name;
#define STORE_MEMBER_I64(name) int64_t name;
#define STORE_MEMBER_REAL(name) double name;
#define STORE_MEMBER_BOOL(name) int name;
#define STORE_MEMBER_TEXT(name) char name[STORE_TEXT_LEN];
#define STORE_MEMBER(name, type, unit, label, fmt, group, plot) STORE_MEMBER_##type(name)

/* A row as data, for the code that walks every figure (SQL, binding, reading, exports). */
enum store_fig_type { STORE_FIG_INT, STORE_FIG_I64, STORE_FIG_REAL, STORE_FIG_BOOL, STORE_FIG_TEXT };
enum store_fig_group { STORE_FIG_CORE, STORE_FIG_SYSTEM };

struct store_figure {
	const char *name;
	enum store_fig_type type;
	size_t offset, size;       /* of the member in its struct */
	const char *unit, *label, *fmt;
	enum store_fig_group group;
	int plot;
};

/* Each table as data, in row order. */
struct store_figure_table {
	const char *table;         /* the SQL table */
	const struct store_figure *fig;
	size_t count;
};
extern const struct store_figure_table store_point_table, store_test_table, store_sample_table;

/* The figure of a table with this name, or NULL. */
const struct store_figure *store_figure_find(const struct store_figure_table *t, const char *name);
/* The SQL type a figure's column is declared with: INTEGER, REAL or TEXT. */
const char *store_figure_sql_type(const struct store_figure *f);
/* A REAL figure's value in a row (NaN for another type). */
double store_figure_double(const struct store_figure *f, const void *row);

struct store_point;
struct store_sample;
/* Set the SYSTEM figures of a point that a time-series row also has (same name, same meaning)
 * from an average row, so the two cannot be mapped differently. */
void store_point_from_sample(struct store_point *p, const struct store_sample *avg);

#endif
