#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the kernel's counters cost a point: the compute mix with counters on and off, ROUNDS runs
# each, interleaved (on, off, on, off, ...: drift in the machine falls on both alike), REPEAT points
# a run at TASKS tasks. Prints each setting's median Jobs/Min with its range and CV over every
# point, the tasks' median CPU per job (less moved by other load than Jobs/Min on a shared machine)
# and the median point overhead (the counters are read outside Real: at the release and when the
# last task is done), and the change of the medians; perf counters in cgroup mode as root, in task
# mode where the run has no cgroups.
# Then `reaim compare` of the two settings (each run one sample).
# usage: bench/counters_overhead.sh [ROUNDS] [REPEAT] [TASKS] [JOBS]   (needs sqlite3)
set -eu
. "$(dirname "$0")/lib.sh"
rounds=${1:-10}
repeat=${2:-3}
tasks=${3:-2}
jobs=${4:-100}
bench_dir counters
db=$t/bench.db
quiet=$(no_quiet_check_flag "$reaim")

one() {
	$nice "$reaim" -q $quiet -f compute -t "$tasks" -j "$jobs" -r "$repeat" -d "$t" --db "$db" \
		--label "counters-$1" --counters "$1" >/dev/null 2>&1
}
run_interleaved "$rounds" "on off" one

jpm() {
	sqlite3 "$db" "SELECT p.jobs_per_min FROM points p JOIN runs r ON r.id = p.run_id
		WHERE r.label = 'counters-$1' AND p.valid"
}
echo "perf: $(sqlite3 "$db" "SELECT COUNT(*) FROM point_counters WHERE source = 'perf'") perf rows," \
	"$(sqlite3 "$db" "SELECT COUNT(*) FROM point_counters") in all"
# figure SETTING EXPRESSION: one value of a point per line
figure() {
	sqlite3 "$db" "SELECT $2 FROM points p JOIN runs r ON r.id = p.run_id WHERE r.label = 'counters-$1' AND p.valid"
}
for s in on off; do
	printf 'counters %-3s  %3d points  median Jobs/Min %s  CV %s%%  CPU %.3f ms/job  overhead %.1f ms\n' "$s" \
		"$(jpm "$s" | wc -l)" "$(jpm "$s" | median_range '%.1f (%.1f-%.1f)')" "$(jpm "$s" | cv)" \
		"$(figure "$s" "p.cpu_s * 1000.0 / (p.tasks * p.jobs_per_task)" | median)" \
		"$(figure "$s" "p.overhead_s * 1000" | median)"
done
change() {
	awk -v a="$(figure on "$1" | median)" -v b="$(figure off "$1" | median)" \
		'BEGIN { printf "%+.2f%%", 100 * (a / b - 1) }'
}
echo "medians, on against off: Jobs/Min $(change p.jobs_per_min), CPU per job" \
	"$(change "p.cpu_s / (p.tasks * p.jobs_per_task)")"
# the project's own verdict on the same points: each run's mean one sample, Welch, the interval
"$reaim" compare counters-off counters-on --db "$db" 2>/dev/null | grep -E '^ *Tasks|^ +[0-9]+ '
