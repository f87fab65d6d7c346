#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --cpus: the compute mix at 2 and 4 tasks confined to 1 and to 2 CPUs, ROUNDS rounds each; prints
# show's scaling lines (Jobs/Min at 2 CPUs over 1), then the same sweep unconfined, so what
# confining the tasks costs a point reads as the 2-CPU column against it. Then the mix taken
# apart at 2 tasks: without page_test, page_test alone and add_double alone, so a ratio far
# from 2 can be traced to the tests (or the machine) that do not run side by side.
# usage: bench/cpus_scaling.sh [ROUNDS] [JOBS] [DIR]   (defaults 5, 400, /var/tmp)
set -eu
rounds=${1:-5}
jobs=${2:-400}
dir=${3:-/var/tmp}
. "$(dirname "$0")/lib.sh"
bench_dir cpus "$dir"
mkdir "$t/s"
cpus=$(nproc)
[ "$cpus" -ge 2 ] || { echo "needs 2 CPUs" >&2; exit 1; }
echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
$nice "$reaim" -q -f "$top/workfiles/compute" -t 2,4 -r "$rounds" -j "$jobs" --cpus 1,2 -d "$t/s" --db "$t/b.db" \
	--sample-interval 0 --counters off >/dev/null 2>&1 || true
$nice "$reaim" -q -f "$top/workfiles/compute" -t 2,4 -r "$rounds" -j "$jobs" -d "$t/s" --db "$t/b.db" \
	--sample-interval 0 --counters off >/dev/null 2>&1 || true
echo "== compute, $rounds rounds, $jobs jobs per task, on $cpus online CPUs"
"$reaim" show last~1 --db "$t/b.db" | sed -n '/^Scaling of/,/^$/p'
echo "== unconfined (every CPU), the same sweep"
"$reaim" show last --db "$t/b.db" | grep -E '^Max|^[0-9]+	[0-9.]+		' | awk -F'\t' '
	/^Max/ { print; next } NF == 5 { n[$1]++; s[$1] += $2 }
	END { for (k in n) printf "%s tasks: mean %.1f Jobs/Min over %d rounds\n", k, s[k] / n[k], n[k] }'
"$reaim" show last~1 --db "$t/b.db" | grep -E '^Max'

# The mix in parts, each a workfile of its own (the workload is named for the file).
grep -v page_test "$top/workfiles/compute" >"$t/compute_without_page_test"
for one in page_test add_double; do
	grep -E '^(FILESIZE|POOLSIZE):' "$top/workfiles/compute" >"$t/$one"
	echo "10 $one" >>"$t/$one"
done
for part in compute_without_page_test page_test add_double; do
	$nice "$reaim" -q -f "$t/$part" -t 2 -r "$rounds" --cpus 1,2 -d "$t/s" --db "$t/b.db" \
		--sample-interval 0 --counters off >/dev/null 2>&1 || true
	echo "== $part at 2 tasks, the workfile's own jobs"
	"$reaim" show last --db "$t/b.db" | sed -n '/^Scaling of/,/^$/p' | sed 1d
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
