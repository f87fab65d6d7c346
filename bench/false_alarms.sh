#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A/A false alarms: PAIRS pairs of identical runs (compute mix, task counts TASKS, ROUNDS
# rounds each), each pair compared as `reaim compare` would judge kernel A against kernel B.
# Counts the cells flagged significant after the Holm correction; with nothing changed, a
# trustworthy verdict flags at most 5 % of them. Also counts the same pairs judged as groups
# (runs as replicates: the first half of the runs against the second half).
# usage: bench/false_alarms.sh [PAIRS] [TASKS] [ROUNDS] [JOBS]
set -eu
pairs=${1:-4}
tasks=${2:-1,2,3,4,6}
rounds=${3:-3}
jobs=${4:-40}
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
reaim=${REAIM:-$top/reaim}
t=$(mktemp -d "${TMPDIR:-/tmp}/reaim-aa.XXXXXX")
trap 'rm -rf "$t"' EXIT
db="$t/aa.db"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ $i -lt $((pairs * 2)) ]; do
	"$reaim" -q --no-quiet-check -s compute -t "$tasks" -r "$rounds" -j "$jobs" -d "$t" --db "$db" \
		--label "aa-$i" >/dev/null
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
echo "pairs (repeats inside each run as samples): $flagged of $cells cells flagged"
echo "groups ($pairs runs a side, runs as replicates): $gf of $gc cells flagged"
