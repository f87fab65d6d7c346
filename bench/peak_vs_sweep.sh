#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Peak mode against a full sweep over the same range: points, wall time and the peak found.
# usage: bench/peak_vs_sweep.sh [MAX_TASKS] [WORKFILE]   (needs sqlite3)
set -eu
max=${1:-24}
. "$(dirname "$0")/lib.sh"
wf=${2:-$top/workfiles/fserver}
bench_dir peak
s0=$(date +%s.%N)
"$reaim" -q -f "$wf" -t "1-$max" -j 40 -d "$t" --db "$t/p.db" --label sweep >/dev/null
s1=$(date +%s.%N)
"$reaim" -q -f "$wf" -t 1 --mode peak --max-tasks "$max" -j 40 -d "$t" --db "$t/p.db" --label peak >"$t/peak.out"
s2=$(date +%s.%N)
sqlite3 "$t/p.db" "SELECT label, COUNT(*), printf('%.1f', MAX(jobs_per_min)),
	(SELECT tasks FROM run_points q WHERE q.label = r.label ORDER BY jobs_per_min DESC LIMIT 1)
	FROM run_points r GROUP BY label" | while IFS='|' read -r label n jpm at; do
	echo "$label: $n points, peak $jpm Jobs/Min at $at tasks"
done
awk -v a="$s0" -v b="$s1" -v c="$s2" 'BEGIN { printf "wall time: sweep %.1f s, peak %.1f s (%.0f%%)\n", b - a, c - b, 100 * (c - b) / (b - a) }'
grep '^Peak' "$t/peak.out"
