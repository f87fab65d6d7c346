#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixed cost of one load point (scratch set-up, fork, ready barrier, reap, clean-up) and the
# release skew, with one trivial job per task, at 1, 100 and 1000 tasks: medians (and ranges)
# of REPEAT points each, and beside them the machine's floor (bench/fork_floor.c: bare processes
# forked, released on one futex and reaped, REPEAT rounds at each task count in every round) with
# each binary's overhead as a ratio to it. With perf, also the CPU, page faults and context switches a task
# costs at 1000 tasks (counts, so they hold on a busy machine where times do not), and the
# start (first fork to release) and finish (last task done to last reaped) phases at 1000.
# usage: bench/point_overhead.sh [REPEAT] [ROUNDS]   (needs sqlite3; perf optional)
#   REAIM_BEFORE: a second reaim binary; each round runs it, then this one.
#   ROUNDS (default 1): how many times to alternate; REPEAT points per round and binary.
#   NICE: a prefix for every run, e.g. "nice -n -10" on a shared machine.
#   TASKS: the task counts (default "1 100 1000"; "1 100 1000 10000" for the scale).
#   FLOOR=0: no floor (it needs a C compiler).
set -eu
. "$(dirname "$0")/lib.sh"
repeat=${1:-7}
rounds=${2:-1}
bench_dir bench
printf '1 matrix_rtns\n' >"$t/trivial"
counts=${TASKS:-1 100 1000}
floor=${FLOOR:-1}
[ "$floor" = 1 ] && ! ${CC:-cc} -O2 -o "$t/fork_floor" "$top/bench/fork_floor.c" && floor=0
bins="$reaim"
[ -n "${REAIM_BEFORE:-}" ] && bins="${REAIM_BEFORE} $bins"
perf=$(command -v perf || true)

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
	i=0
	for b in $bins; do
		i=$((i + 1))
		$nice "$b" $(no_quiet_check_flag "$b") -v -f "$t/trivial" -t "$(echo $counts | tr ' ' ,)" -j 1 -r "$repeat" -d "$t" --db "$t/b$i.db" \
			--sample-interval 0 >/dev/null 2>>"$t/log.$i"
		if [ -n "$perf" ]; then
			$nice "$perf" stat -x, -e task-clock,page-faults,context-switches -o "$t/perf" \
				"$b" $(no_quiet_check_flag "$b") -q -f "$t/trivial" -t 1000 -j 1 -r 3 -d "$t" --db "$t/p$i.db" --sample-interval 0 >/dev/null
			awk -F, '/task-clock/ { c = $1 } /page-faults/ { f = $1 } /context-switches/ { s = $1 }
				END { printf "%.1f %.2f %.2f\n", c * 1000 / 3000, f / 3000, s / 3000 }' "$t/perf" >>"$t/perf.$i"
		fi
	done
	if [ "$floor" = 1 ]; then
		for n in $counts; do
			$nice "$t/fork_floor" "$n" "$repeat" 1 pid | awk 'NR > 1' >>"$t/floor"
		done
	fi
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$floor" = 1 ]; then
	echo "== the floor (bare fork, futex release, reap by pid; first fork to last reaped)"
	for n in $counts; do
		printf '%-6d %-7s %s ms\n' "$n" "$(awk -v n="$n" '$1 == n' "$t/floor" | wc -l)" \
			"$(awk -v n="$n" '$1 == n { print $4 }' "$t/floor" | median_range)"
	done
fi

i=0
for b in $bins; do
	i=$((i + 1))
	echo "== $b"
	echo "Tasks  points  overhead_ms                 release_skew_ms        real_ms                 / floor"
	for n in $counts; do
		q="FROM points WHERE tasks = $n AND valid"
		over=$(sqlite3 "$t/b$i.db" "SELECT overhead_s * 1000 $q" | median)
		ratio=nan
		[ "$floor" = 1 ] && ratio=$(awk -v n="$n" '$1 == n { print $4 }' "$t/floor" | median |
			awk -v o="$over" '{ printf "%.2f", ($1 > 0) ? o / $1 : 0 }')
		printf '%-6d %-7s %-27s %-22s %-23s %s\n' "$n" "$(sqlite3 "$t/b$i.db" "SELECT COUNT(*) $q")" \
			"$(sqlite3 "$t/b$i.db" "SELECT overhead_s * 1000 $q" | median_range)" \
			"$(sqlite3 "$t/b$i.db" "SELECT release_skew_s * 1000 $q" | median_range)" \
			"$(sqlite3 "$t/b$i.db" "SELECT real_s * 1000 $q" | median_range)" "$ratio"
	done
	# the phases of a 1000-task point's overhead, where the binary logs them
	for ph in start finish; do
		m=$(sed -n "s/.* 1000 tasks: overhead .* $ph \\([0-9.]*\\).*/\\1/p" "$t/log.$i" | median_range)
		[ "$m" = nan ] || echo "at 1000 tasks, $ph phase ms: $m"
	done
	# the CPU the forking process (reaim, or its forker) spent a fork, where the binary logs it
	m=$(sed -n "s/.* 1000 tasks: forked in .* \([0-9.]*\) us of its CPU a fork.*/\1/p" "$t/log.$i" | median_range)
	[ "$m" = nan ] || echo "at 1000 tasks, the forking process's CPU a fork, us: $m"
	if [ -f "$t/perf.$i" ]; then
		echo "at 1000 tasks, per task: CPU us $(awk '{ print $1 }' "$t/perf.$i" | median_range), page faults $(awk '{ print $2 }' "$t/perf.$i" | median_range), context switches $(awk '{ print $3 }' "$t/perf.$i" | median_range)"
	fi
done
