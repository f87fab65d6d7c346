#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A/A false alarms: PAIRS pairs of identical runs (compute mix, task counts TASKS, ROUNDS
# rounds each), each pair compared as `reaim compare` would judge kernel A against kernel B.
# Counts the cells flagged significant after the Holm correction; with nothing changed, a
# trustworthy verdict flags at most 5 % of them. Also counts the same pairs judged as groups
# (runs as replicates: the first half of the runs against the second half).
# BUSY=1: a shared machine's load beside the runs, a CPU hog that comes and goes (busy 3 to 12 s,
# idle as long, its own seeded sequence), to see whether the verdicts still hold; the points it
# touches are marked noisy, and the script counts them.
# PRECISION=PCT: each run made with --precision PCT (and MAX_REPEAT, default 8) instead of a fixed
# ROUNDS: its stopping rule and compare spend the level over the looks, so false alarms stay low.
# usage: bench/false_alarms.sh [PAIRS] [TASKS] [ROUNDS] [JOBS]
set -eu
pairs=${1:-4}
tasks=${2:-1,2,3,4,6}
rounds=${3:-3}
jobs=${4:-40}
. "$(dirname "$0")/lib.sh"
t=$(mktemp -d "${TMPDIR:-/tmp}/reaim-aa.XXXXXX")
busy_pid=
trap '[ -z "$busy_pid" ] || pkill -KILL -s "$busy_pid"; rm -rf "$t"' EXIT
db="$t/aa.db"
if [ -n "${BUSY:-}" ]; then
	# one busy loop per CPU for 3-12 s, then idle 3-12 s, in a session of its own that the exit
	# kills whole
	setsid sh -c 'n=$(nproc); seed=7
		while :; do
			seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); on=$(( 3 + seed % 10 ))
			seed=$(( (seed * 1103515245 + 12345) % 2147483648 )); off=$(( 3 + seed % 10 ))
			i=0 pids=
			while [ $i -lt "$n" ]; do sh -c "while :; do :; done" & pids="$pids $!"; i=$((i + 1)); done
			sleep "$on"; kill $pids; wait; sleep "$off"
		done' &
	busy_pid=$!
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ $i -lt $((pairs * 2)) ]; do
	# shellcheck disable=SC2086 # the precision options are words
	"$reaim" -q --no-quiet-check -s compute -t "$tasks" -r "$rounds" -j "$jobs" -d "$t" --db "$db" \
		--label "aa-$i" ${PRECISION:+--precision "$PRECISION" --max-repeat "${MAX_REPEAT:-8}"} >/dev/null
	i=$((i + 1))
done
cells=0
flagged=0
p=0
while [ $p -lt "$pairs" ]; do
	"$reaim" compare "aa-$((2 * p))" "aa-$((2 * p + 1))" --db "$db" --format csv >"$t/c.csv"
	c=$(compare_cells "$t/c.csv" | awk '$1 != "-" { n++ } END { print n + 0 }')
	f=$(compare_cells "$t/c.csv" | awk '$1 == "yes" { n++ } END { print n + 0 }')
	cells=$((cells + c))
	flagged=$((flagged + f))
	p=$((p + 1))
done
half=$pairs
a=$(seq 0 $((half - 1)) | sed 's/^/aa-/' | paste -sd, -)
b=$(seq "$half" $((2 * half - 1)) | sed 's/^/aa-/' | paste -sd, -)
"$reaim" compare "$a" "$b" --db "$db" --format csv >"$t/g.csv"
gc=$(compare_cells "$t/g.csv" | awk '$1 != "-" { n++ } END { print n + 0 }')
gf=$(compare_cells "$t/g.csv" | awk '$1 == "yes" { n++ } END { print n + 0 }')
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if command -v sqlite3 >/dev/null 2>&1; then
	echo "points marked noisy: $(sqlite3 "$db" "SELECT sum(noisy) || ' of ' || count(*) FROM points")"
	echo "rounds a task count took (mean): $(sqlite3 "$db" "SELECT printf('%.1f', avg(c)) FROM (SELECT count(*) AS c
		FROM points GROUP BY run_id, workload_id, tasks)")"
fi
echo "pairs (repeats inside each run as samples): $flagged of $cells cells flagged"
echo "groups ($pairs runs a side, runs as replicates): $gf of $gc cells flagged"
