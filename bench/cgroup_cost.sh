#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a point's own cgroup costs: the overhead of a trivial point (one job per task) with per-point
# cgroups (as root) against the same binary without them (as nobody, where reaim falls back to
# wait4), ROUNDS times interleaved, REPEAT points a run, at 1 and at TASKS tasks. Medians of the
# stored overhead_s (set-up, fork, ready, reap and clean-up around the measured Real).
# usage: bench/cgroup_cost.sh [ROUNDS] [REPEAT] [TASKS]   (needs root, setpriv and sqlite3)
set -eu
. "$(dirname "$0")/lib.sh"
rounds=${1:-5}
repeat=${2:-9}
many=${3:-100}
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
	echo "cgroup_cost.sh: needs root and setpriv (the run without cgroups is made as nobody)" >&2
	exit 1
fi
bench_dir cgcost
chmod 777 "$t"
printf '1 matrix_rtns\n' >"$t/trivial"
chmod 644 "$t/trivial"
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in 1 "$many"; do
	r=0
	while [ "$r" -lt "$rounds" ]; do
		for who in cgroup wait4; do
			as=
			[ "$who" = wait4 ] && as=$nobody
			$as "$reaim" -q --no-quiet-check -f "$t/trivial" -t "$n" -j 1 -r "$repeat" -d "$t" \
				--db "$t/$who.db" --label "$who-$n" >/dev/null 2>&1
		done
		r=$((r + 1))
	done
	for who in cgroup wait4; do
		m=$(sqlite3 "$t/$who.db" "SELECT p.overhead_s * 1000 FROM points p JOIN runs r ON r.id = p.run_id
			WHERE r.label = '$who-$n'" | median)
		acct=$(sqlite3 "$t/$who.db" "SELECT value FROM env WHERE key = 'accounting' LIMIT 1" | cut -c1-40)
		printf '%5s tasks  %-7s overhead median %7.2f ms of %d points  (%s...)\n' "$n" "$who" "$m" \
			$((rounds * repeat)) "$acct"
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
