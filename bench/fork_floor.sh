#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The machine's floor for a load point: bench/fork_floor.c forks TASKS bare processes onto one
# futex, releases them and reaps them, with nothing else. Compare its times with reaim's
# point overhead (bench/point_overhead.sh) at the same task count.
# usage: bench/fork_floor.sh [TASKS] [ROUNDS]   (needs a C compiler; perf optional)
#   NICE: a prefix for every run, e.g. "nice -n -10" on a shared machine.
#   FORKERS: how many processes fork the tasks side by side (default 1).
#   REAP: pid (default: each task by pid, in fork order) or any (wait4(-1), as reaim did before).
set -eu
. "$(dirname "$0")/lib.sh"
tasks=${1:-1000}
rounds=${2:-7}
bench_dir floor
${CC:-cc} -O2 -o "$t/fork_floor" "$top/bench/fork_floor.c"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
forkers=${FORKERS:-1}
reap=${REAP:-pid}
$nice "$t/fork_floor" "$tasks" "$rounds" "$forkers" "$reap" >"$t/out"
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$tasks bare tasks, $rounds rounds, $forkers forker(s), reaped by $reap: median (min-max)"
echo "  first fork to all ready, ms:   $(awk 'NR > 1 { print $2 }' "$t/out" | median_range)"
echo "  release to last reaped, ms:    $(awk 'NR > 1 { print $3 }' "$t/out" | median_range)"
echo "  in all, ms:                    $(awk 'NR > 1 { print $4 }' "$t/out" | median_range)"
if command -v perf >/dev/null; then
	$nice perf stat -x, -e task-clock,page-faults,context-switches -o "$t/perf" "$t/fork_floor" "$tasks" 3 "$forkers" "$reap" >/dev/null
	awk -F, -v n="$tasks" '/task-clock/ { c = $1 } /page-faults/ { f = $1 } /context-switches/ { s = $1 }
		END { printf "  per task: CPU %.1f us, page faults %.2f, context switches %.2f\n", c * 1000 / (3 * n), f / (3 * n), s / (3 * n) }' "$t/perf"
fi
