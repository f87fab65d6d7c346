#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fixed cost of one load point (fork, barrier, reap, scratch set-up and removal) and the
# release skew, with one trivial job per task, at 1, 100 and 1000 tasks; medians of REPEAT runs.
# usage: bench/point_overhead.sh [REPEAT]   (needs sqlite3; writes nothing outside a temp dir)
set -eu
repeat=${1:-7}
top=$(cd "$(dirname "$0")/.." && pwd)
reaim=${REAIM:-$top/reaim}
t=$(mktemp -d "${TMPDIR:-/tmp}/reaim-bench.XXXXXX")
trap 'rm -rf "$t"' EXIT
printf '1 matrix_rtns\n' >"$t/trivial"
"$reaim" -q -f "$t/trivial" -t 1,100,1000 -j 1 -r "$repeat" -d "$t" --db "$t/b.db" >/dev/null
echo "Tasks  runs  overhead_ms(median)  release_skew_ms(median)  real_ms(median)"
for n in 1 100 1000; do
	sqlite3 "$t/b.db" "SELECT overhead_s * 1000, release_skew_s * 1000, real_s * 1000 FROM points
		WHERE tasks = $n AND valid" | sort -t'|' -k1,1g | awk -F'|' -v n="$n" '
		{ o[NR] = $1; s[NR] = $2; r[NR] = $3 }
		function median(a, k,   i, j, t) {
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
		}
		END { printf "%-6d %-5d %-20.2f %-24.2f %.2f\n", n, NR, median(o, NR), median(s, NR), median(r, NR) }'
done
