/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Schema of the results database, as ordered forward migrations; user_version counts them. */
#include "config.h"

#include "store/internal.h"

/* Each entry moves the schema from version i to i+1; never edit one that has shipped. */
const char *const store_migrations[] = {
	/* 1: runs, their environment and workloads, points and per-test figures */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  uuid TEXT NOT NULL UNIQUE,"
	"  label TEXT NOT NULL,"
	"  suite_name TEXT NOT NULL,"
	"  suite_text TEXT NOT NULL,"
	"  command_line TEXT NOT NULL,"
	"  version TEXT NOT NULL,"
	"  mode TEXT NOT NULL,"
	"  seed INTEGER NOT NULL,"
	"  started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),"
	"  finished_at TEXT,"
	"  status TEXT NOT NULL DEFAULT 'running'"
	"    CHECK (status IN ('running','complete','failed','interrupted')),"
	"  reason TEXT);"
	"CREATE TABLE env ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (run_id, key));"
	"CREATE TABLE workloads ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  workfile_name TEXT NOT NULL,"
	"  workfile_text TEXT NOT NULL,"
	"  tasks TEXT NOT NULL,"
	"  jobs_per_task INTEGER NOT NULL,"
	"  repeat INTEGER NOT NULL,"
	"  osync TEXT NOT NULL,"
	"  sync_mode TEXT NOT NULL,"
	"  filesize_kib INTEGER NOT NULL,"
	"  poolsize_kib INTEGER NOT NULL,"
	"  dirs TEXT NOT NULL,"
	"  threshold REAL NOT NULL);"
	"CREATE TABLE points ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  workload_id INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,"
	"  osync INTEGER NOT NULL,"
	"  tasks INTEGER NOT NULL,"
	"  repeat INTEGER NOT NULL,"
	"  valid INTEGER NOT NULL,"
	"  reason TEXT,"
	"  jobs_per_task INTEGER NOT NULL,"
	"  file_kib INTEGER NOT NULL,"
	"  jobs_per_min REAL, jobs_per_min_task REAL, real_s REAL,"
	"  user_s REAL, sys_s REAL, cpu_s REAL,"
	"  std_dev_s REAL, std_dev_pct REAL, jti REAL,"
	"  min_task_s REAL, max_task_s REAL, min_task_index INTEGER, max_task_index INTEGER,"
	"  release_skew_s REAL, overhead_s REAL);"
	"CREATE INDEX points_run ON points(run_id, workload_id, osync, tasks);"
	"CREATE TABLE test_stats ("
	"  point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,"
	"  test TEXT NOT NULL,"
	"  count INTEGER NOT NULL,"
	"  total_s REAL, min_s REAL, max_s REAL, mean_s REAL,"
	"  p50_s REAL, p90_s REAL, p99_s REAL, over_2s INTEGER,"
	"  PRIMARY KEY (point_id, test));"
	"CREATE VIEW run_points AS"
	"  SELECT r.id AS run_id, r.label, r.suite_name, r.status AS run_status,"
	"         w.name AS workload, p.osync, p.tasks, p.repeat, p.valid, p.jobs_per_min,"
	"         p.jobs_per_min_task, p.real_s, p.cpu_s, p.user_s, p.sys_s, p.jti, p.std_dev_pct"
	"  FROM runs r JOIN points p ON p.run_id = r.id JOIN workloads w ON w.id = p.workload_id;",
	/* 2: the process and host that own a running run, so a later run can tell it died */
	"ALTER TABLE runs ADD COLUMN pid INTEGER;"
	"ALTER TABLE runs ADD COLUMN host TEXT;"
	"CREATE INDEX runs_running ON runs(status, host);",
	/* 3: system figures per point (sampler averages) and their time series */
	"ALTER TABLE points ADD COLUMN user_pct REAL;"
	"ALTER TABLE points ADD COLUMN sys_pct REAL;"
	"ALTER TABLE points ADD COLUMN iowait_pct REAL;"
	"ALTER TABLE points ADD COLUMN idle_pct REAL;"
	"ALTER TABLE points ADD COLUMN read_kbs REAL;"
	"ALTER TABLE points ADD COLUMN write_kbs REAL;"
	"ALTER TABLE points ADD COLUMN read_iops REAL;"
	"ALTER TABLE points ADD COLUMN write_iops REAL;"
	"ALTER TABLE points ADD COLUMN util_pct REAL;"
	"ALTER TABLE points ADD COLUMN ctxt_per_s REAL;"
	"ALTER TABLE points ADD COLUMN forks_per_s REAL;"
	"ALTER TABLE points ADD COLUMN pgfault_per_s REAL;"
	"ALTER TABLE points ADD COLUMN sampler_cpu_pct REAL;"
	"CREATE TABLE samples ("
	"  point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,"
	"  t_s REAL NOT NULL, user_pct REAL, sys_pct REAL, iowait_pct REAL, idle_pct REAL,"
	"  read_kbs REAL, write_kbs REAL, util_pct REAL, ctxt_per_s REAL);"
	"CREATE INDEX samples_point ON samples(point_id, t_s);",
	/* 4: every option of each workload as text (item -1: one value; 0, 1, ...: a list's items) */
	"CREATE TABLE workload_options ("
	"  workload_id INTEGER NOT NULL REFERENCES workloads(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL,"
	"  item INTEGER NOT NULL DEFAULT -1,"
	"  value TEXT NOT NULL,"
	"  PRIMARY KEY (workload_id, key, item));",
	/* 5: outside load and noise, and the point's cgroup: exact CPU, own I/O, memory peak, pressure */
	"ALTER TABLE points ADD COLUMN noisy INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE points ADD COLUMN noise TEXT;"
	"ALTER TABLE points ADD COLUMN cgroup_cpu_s REAL;"
	"ALTER TABLE points ADD COLUMN io_read_bytes REAL;"
	"ALTER TABLE points ADD COLUMN io_write_bytes REAL;"
	"ALTER TABLE points ADD COLUMN io_read_ios REAL;"
	"ALTER TABLE points ADD COLUMN io_write_ios REAL;"
	"ALTER TABLE points ADD COLUMN mem_peak_bytes REAL;"
	"ALTER TABLE points ADD COLUMN psi_cpu_some_pct REAL;"
	"ALTER TABLE points ADD COLUMN psi_cpu_full_pct REAL;"
	"ALTER TABLE points ADD COLUMN psi_io_some_pct REAL;"
	"ALTER TABLE points ADD COLUMN psi_io_full_pct REAL;"
	"ALTER TABLE points ADD COLUMN psi_mem_some_pct REAL;"
	"ALTER TABLE points ADD COLUMN psi_mem_full_pct REAL;"
	"ALTER TABLE points ADD COLUMN outside_cpu_pct REAL;"
	"ALTER TABLE points ADD COLUMN steal_pct REAL;"
	"ALTER TABLE points ADD COLUMN outside_read_bytes REAL;"
	"ALTER TABLE points ADD COLUMN outside_write_bytes REAL;",
	/* 6: the variant (--variant NAME) a point measured; NULL for a run without variants */
	"ALTER TABLE points ADD COLUMN variant TEXT;",
	/* 7: how many points a run plans (NULL: its modes cannot say; planned_exact 0: at most that
	 * many) and the uuid of the run it repeats */
	"ALTER TABLE runs ADD COLUMN planned_points INTEGER;"
	"ALTER TABLE runs ADD COLUMN planned_exact INTEGER;"
	"ALTER TABLE runs ADD COLUMN rerun_of TEXT;",
	/* 8: a point whose set-up, start or finish took far beyond its norm says which (a warning:
	 * the measured Real is not affected, the wall time is) */
	"ALTER TABLE points ADD COLUMN overhead_note TEXT;",
	/* 9: the lock file a running run holds for its whole life (a name in the database's
	 * directory), so a later run tells it is alive by its lock, not by its pid or name */
	"ALTER TABLE runs ADD COLUMN lock_file TEXT;",
	/* 10: the tasks' CPU time over the measured window only (cpu_s keeps their whole lives:
	 * set-up before the release and clean-up after their last job) */
	"ALTER TABLE points ADD COLUMN window_cpu_s REAL;",
	/* 11: the kernel's build config, once per run (env holds its hash as kernel.config), so compare
	 * can say which options two runs' kernels set differently */
	"CREATE TABLE kernel_configs ("
	"  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
	"  text TEXT NOT NULL);",
	/* 12: the --point-hook of a point: where its output is kept and how it ended (NULL: none ran) */
	"ALTER TABLE points ADD COLUMN hook_dir TEXT;"
	"ALTER TABLE points ADD COLUMN hook_end TEXT;",
	/* 13: the kernel's counters per point, as rows (the set differs from machine to machine): the
	 * change of each over the measured window, from /proc or perf_event_open (source) */
	"CREATE TABLE point_counters ("
	"  point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,"
	"  source TEXT NOT NULL,"
	"  name TEXT NOT NULL,"
	"  value REAL NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  running_pct REAL,"
	"  PRIMARY KEY (point_id, source, name));",
	/* 14: the number of CPUs a point's tasks were confined to (--cpus); 0: every CPU, unconfined */
	"ALTER TABLE points ADD COLUMN cpus INTEGER NOT NULL DEFAULT 0;",
	/* 15: the background load beside a point (--load; NULL: none) and what it did: its units of work
	 * over the measured window, its CPU (% of one CPU) and its disk I/O */
	"ALTER TABLE points ADD COLUMN load TEXT;"
	"ALTER TABLE points ADD COLUMN load_units REAL;"
	"ALTER TABLE points ADD COLUMN load_cpu_pct REAL;"
	"ALTER TABLE points ADD COLUMN load_read_bytes REAL;"
	"ALTER TABLE points ADD COLUMN load_write_bytes REAL;",
	/* 16: a workload's options are its option rows alone. A workload stored before schema 4 has
	 * none: it gets the rows its own columns kept (options_from_columns 1: not every option, so
	 * it is not run again), and the columns go. The table is made anew, for SQLite before 3.35
	 * cannot drop a column, and the view on it with it; foreign keys are off while migrating. */
	"CREATE TABLE workloads_16 ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  workfile_name TEXT NOT NULL,"
	"  workfile_text TEXT NOT NULL,"
	"  options_from_columns INTEGER NOT NULL DEFAULT 0);"
	"INSERT INTO workloads_16 (id, run_id, name, workfile_name, workfile_text, options_from_columns)"
	"  SELECT w.id, w.run_id, w.name, w.workfile_name, w.workfile_text,"
	"         NOT EXISTS (SELECT 1 FROM workload_options o WHERE o.workload_id = w.id) FROM workloads w;"
	"INSERT INTO workload_options (workload_id, key, value)"
	"  SELECT w.id, k.key, CASE k.key WHEN 'workfile' THEN w.workfile_name WHEN 'tasks' THEN w.tasks"
	"    WHEN 'jobs_per_task' THEN CAST(w.jobs_per_task AS TEXT) WHEN 'repeat' THEN CAST(w.repeat AS TEXT)"
	"    WHEN 'osync' THEN w.osync WHEN 'sync_mode' THEN w.sync_mode WHEN 'filesize' THEN w.filesize_kib || 'K'"
	"    WHEN 'poolsize' THEN w.poolsize_kib || 'K' WHEN 'dirs' THEN w.dirs WHEN 'seed' THEN CAST(r.seed AS TEXT)"
	"    ELSE CAST(w.threshold AS TEXT) END"
	"  FROM workloads w JOIN workloads_16 n ON n.id = w.id AND n.options_from_columns JOIN runs r ON r.id = w.run_id,"
	"    (SELECT 'workfile' AS key UNION ALL SELECT 'tasks' UNION ALL SELECT 'jobs_per_task' UNION ALL SELECT 'repeat'"
	"     UNION ALL SELECT 'osync' UNION ALL SELECT 'sync_mode' UNION ALL SELECT 'filesize' UNION ALL SELECT 'poolsize'"
	"     UNION ALL SELECT 'dirs' UNION ALL SELECT 'seed' UNION ALL SELECT 'threshold') k;"
	"DROP VIEW run_points;"
	"DROP TABLE workloads;"
	"ALTER TABLE workloads_16 RENAME TO workloads;"
	"CREATE VIEW run_points AS"
	"  SELECT r.id AS run_id, r.label, r.suite_name, r.status AS run_status,"
	"         w.name AS workload, p.osync, p.tasks, p.repeat, p.valid, p.jobs_per_min,"
	"         p.jobs_per_min_task, p.real_s, p.cpu_s, p.user_s, p.sys_s, p.jti, p.std_dev_pct"
	"  FROM runs r JOIN points p ON p.run_id = r.id JOIN workloads w ON w.id = p.workload_id;",
	/* 17: others' demand measured where the run cannot move it (a window before the release and one
	 * after the end): their runnable threads as % of the machine, the CPU they used then, and the
	 * requests they kept in flight on the run's disks */
	"ALTER TABLE points ADD COLUMN others_demand_pct REAL;"
	"ALTER TABLE points ADD COLUMN others_idle_cpu_pct REAL;"
	"ALTER TABLE points ADD COLUMN others_in_flight REAL;",
	/* 18: I/O the run cannot be blamed for, and its own: the share of time others kept the run's
	 * busiest disk busy while the run was idle; the tasks' own bytes a second, from the stored bytes */
	"ALTER TABLE points ADD COLUMN others_disk_busy_pct REAL;"
	"ALTER TABLE points ADD COLUMN io_read_kbs REAL;"
	"ALTER TABLE points ADD COLUMN io_write_kbs REAL;"
	"UPDATE points SET io_read_kbs = io_read_bytes / 1024.0 / real_s,"
	"  io_write_kbs = io_write_bytes / 1024.0 / real_s WHERE real_s > 0;",
};
const size_t store_migration_count = sizeof(store_migrations) / sizeof(store_migrations[0]);
