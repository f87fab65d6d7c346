#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Scale: one point of TASKS concurrent tasks (default 10000) of the short mix. Reports the
# parent's peak RSS, a task's private memory, the release skew and the point overhead.
# usage: bench/scale.sh [TASKS]   (needs sqlite3)
set -eu
tasks=${1:-10000}
top=$(cd "$(dirname "$0")/.." && pwd)
reaim=${REAIM:-$top/reaim}
t=$(mktemp -d "${TMPDIR:-/var/tmp}/reaim-scale.XXXXXX")
# shared_memory in every task may hold one SysV segment each at once: kernel.shmmni must
# allow TASKS (reaim refuses to start otherwise). As root, raise it for the run and restore it.
old_shmmni=$(cat /proc/sys/kernel/shmmni)
restore() { [ "$(cat /proc/sys/kernel/shmmni)" = "$old_shmmni" ] || echo "$old_shmmni" >/proc/sys/kernel/shmmni; rm -rf "$t"; }
trap restore EXIT
if [ "$old_shmmni" -lt "$tasks" ] && [ "$(id -u)" = 0 ]; then
	echo "raising kernel.shmmni from $old_shmmni to $tasks for this run"
	echo "$tasks" >/proc/sys/kernel/shmmni
fi
"$reaim" -q -f "$top/workfiles/short" -t "$tasks" -j 1 -d "$t" --db "$t/s.db" >"$t/out" 2>&1 &
pid=$!
peak=0
priv=""
while kill -0 $pid 2>/dev/null; do
	rss=$(awk '/^VmHWM/ { print $2 }' /proc/$pid/status 2>/dev/null || echo 0)
	[ -n "$rss" ] && [ "$rss" -gt "$peak" ] && peak=$rss
	if [ -z "$priv" ]; then
		child=$(pgrep -P $pid | tail -n 1)
		[ -n "$child" ] && priv=$(awk '/^Private_(Clean|Dirty)/ { s += $2 } END { if (s) print s }' /proc/"$child"/smaps_rollup 2>/dev/null || true)
	fi
	sleep 0.2
done
wait $pid
cat "$t/out"
echo "parent peak RSS: $peak KiB; a task's private memory: ${priv:-?} KiB"
sqlite3 "$t/s.db" "SELECT printf('valid %d, real %.1f s, release skew %.1f ms, point overhead %.2f s, Jobs/Min %.1f',
	valid, real_s, release_skew_s * 1000, overhead_s, jobs_per_min) FROM points"
