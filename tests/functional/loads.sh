#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --load: each point once per load, no_load the base, storing the load, its units of work and its
# CPU %; show's contest table; an unknown load names the loads; no load cgroup (so no process) or
# file is left after its point, nor after Ctrl-C, nor (its processes at once, its files and cgroups
# at the next run's sweep) after SIGKILL.
. "$(dirname "$0")/lib.sh"

# every session this test starts is killed on the way out, whatever failed
sessions=""
trap 'for s in $sessions; do pkill -KILL -s "$s" 2>/dev/null; done; rm -rf "$T"' EXIT
# the run cgroups of session SID's reaim (named reaim-PID-TAG), in any hierarchy
run_cgroups() { find /sys/fs/cgroup -maxdepth 3 -type d -name "reaim-$1-*" 2>/dev/null; }

export REAIM_LOAD_MAX_MIB=32
printf '10 add_int\n10 sieve\n' >"$T/cpu"
run() { "$REAIM" -f "$T/cpu" -d "$T/scratch" --sample-interval 0 --counters off --no-quiet-check "$@"; }
loads_left() { find "$T/scratch" -name 'load-*' | head -3; }

status 1 "an unknown load is refused" run -t 1 --load io,dbench
contains "$T/err" "no_load, process, io, read, list, tar, mem, cache" "... naming the loads"
# an option a mode ignores is refused, not dropped: quick mode's points are one per task count
for m in quick crossover peak single; do
	status 1 "--mode $m --load process is refused" run -t 1 --mode "$m" --load process
	contains "$T/err" "--load goes with --mode sweep only, not $m" "... saying --load is for sweep mode"
done
ok "$([ ! -e "$REAIM_DB" ] && echo 0 || echo 1)" "and nothing is stored"

# cache (contest's cacherun): the point run twice, the warm second run stored as load cache
status 0 "--load cache" run -v -t 1 -j 20 --load cache
check "three runs of the point: no_load once, cache twice" test "$(grep -c 'tasks: overhead' "$T/err")" -eq 3
status 0 "json export" "$REAIM" export last --format json
cp "$T/out" "$T/cache.json"
check "two points stored: no_load and cache" test "$(grep -o '"load": "[a-z_]*"' "$T/cache.json" | tr '\n' ' ')" = '"load": "no_load" "load": "cache" '
check "cache has no units of its own" test "$(grep -o '"load_units": null' "$T/cache.json" | wc -l)" -eq 2
# the plan counts cache's point twice: its estimate is 3 passes of the stored point (no_load, cache's
# cold and warm), against 1 without a load
estimate() { sed -n 's/.*Estimate, O_SYNC on: \([0-9.]*\)s, from run.*/\1/p' "$T/out"; }
status 0 "dry run without a load" run -t 1 -j 20 --dry-run
one=$(estimate)
status 0 "dry run with cache" run -t 1 -j 20 --load cache --dry-run
three=$(estimate)
contains "$T/out" "x 2 loads, cache's point twice, its cold pass unstored" "the points line says cache runs twice"
check "cache's estimate is three passes of the point ($one s, $three s)" \
	awk -v a="$one" -v b="$three" 'BEGIN { exit !(a > 0 && b >= 3 * a - 0.2 && b <= 3 * a + 0.2) }'

status 0 "--load io,process -r 2" run -t 2 -j 20 --load io,process -r 2
status 0 "json export" "$REAIM" export last --format json
cp "$T/out" "$T/json"
for l in no_load io process; do
	check "a point of load $l" grep -q "\"load\": \"$l\"" "$T/json"
done
check "the io load's units are stored" grep -Eq '"load_units": [1-9]' "$T/json"
check "its CPU % is stored" grep -Eq '"load_cpu_pct": [0-9]' "$T/json"
check "six points: 3 loads x 2 rounds" test "$(grep -o '"load": "[a-z_]*"' "$T/json" | wc -l)" -eq 6
status 0 "show" "$REAIM" show last
cp "$T/out" "$T/show"
contains "$T/show" "Load	Tasks	Jobs/Min	Ratio	Loads	LCPU%" "contest's table"
check "no_load's ratio is 1.00" grep -Eq '^no_load	2	[0-9.]+		1\.00	-	-	2$' "$T/show"
check "no load file is left" test -z "$(loads_left)"

# compare inside the run: each load against no_load, paired by round, with contest's columns
status 0 "compare of the run's loads" "$REAIM" compare last
cp "$T/out" "$T/cmp"
contains "$T/cmp" "each background load against no_load" "the loads are the sides"
contains "$T/cmp" "A (base): no_load" "... no_load the base"
contains "$T/cmp" "load io: B against A" "a panel for io"
contains "$T/cmp" "load process: C against A" "a panel for process"
check "contest's columns" grep -Eq '^Tasks +Time B/A +A Loads +A LCPU% +B Loads +B LCPU%$' "$T/cmp"
check "io's row: a ratio, no_load's none, io's units and CPU" grep -Eq '^ +2 +[0-9]+\.[0-9]{3} +- +- +[0-9.]+ +[0-9.]+$' "$T/cmp"
status 0 "compare of the run's loads as JSON" "$REAIM" compare last --format json
cp "$T/out" "$T/cmp.json"
check "JSON: kind loads" grep -q '"kind": "loads"' "$T/cmp.json"
check "JSON: io's units" grep -Eq '"load": "io".*"loads_other": [1-9]' "$T/cmp.json"
status 0 "compare --wide of the run's loads" "$REAIM" compare last --wide
contains "$T/out" "Loads, LCPU%" "the wide table's load rows"

# after each point its load is gone: a hook at every point counts the load cgroups beside the point's
# and the load files in the scratch root; at 1,2 tasks the arms run no_load, process, process, no_load
hook='sleep 0.1; ls -d "$(dirname "${REAIM_POINT_CGROUP:-/nonexistent/x}")"/load-* 2>/dev/null | wc -l; find "'$T/scratch'" -name "load-*" | wc -l'
status 0 "--load process at 1 and 2 tasks with a hook at every point" run -t 1,2 -j 40 --load process --point-hook "$hook"
hookdir=$(ls -d "$T"/*-run-*-hook | tail -1)
cat "$hookdir"/*/hook.out | paste - - >"$T/seen"
check "four points seen by the hook" test "$(wc -l <"$T/seen")" -eq 4
check "two points saw no load, as no_load: the load before was gone" test "$(grep -c '^0	0$' "$T/seen")" -eq 2
check "two saw their own load alone" test "$(grep -Ec '^[01]	1$' "$T/seen")" -eq 2

# a load whose processes are killed while its point runs: the point is invalid, saying why, never a
# loaded point (a hook kills every process of the load's cgroup, beside the point's)
if [ "$(id -u)" = 0 ] && test -n "$(find /sys/fs/cgroup -maxdepth 2 -name cgroup.procs 2>/dev/null | head -1)"; then
	killer='sleep 0.3; cat "$(dirname "${REAIM_POINT_CGROUP:-/none/x}")"/load-process/cgroup.procs 2>/dev/null | xargs -r kill -KILL'
	status 2 "a point whose load was killed: exit 2" run -t 1 -j 60 --load process --point-hook "$killer"
	cp "$T/out" "$T/killed"
	check "its row is INVALID with the load's death as the reason" \
		grep -Eq '^1	INVALID	.*	process	load process ended before the point did' "$T/killed"
	check "contest's table shows no loaded figure for it" grep -Eq '^process	1	INVALID		-	-	-	0$' "$T/killed"
	status 2 "json export of the failed run" "$REAIM" export last --format json
	cp "$T/out" "$T/killed.json"
	check "stored invalid, with the reason" \
		grep -q '"load": "process",.*"valid": false, "reason": "load process ended before the point did' "$T/killed.json"
else
	ok 0 "a killed load # SKIP needs root and cgroups to find the load's processes"
fi

# Ctrl-C while a point runs beside a load
start_session "$REAIM" -f "$T/cpu" -d "$T/scratch" --sample-interval 0 --counters off --no-quiet-check -t 1 -j 400 --load process
sessions="$sessions $session"
i=0
while [ $i -lt 1200 ] && [ -z "$(loads_left)" ]; do sleep 0.05; i=$((i + 1)); done
check "the load started" test -n "$(loads_left)"
sleep 0.3
kill -INT "$session"
wait "$session"
st=$?; [ "$st" -eq 3 ]; ok $? "Ctrl-C: exit 3 (got $st)"
check "after Ctrl-C no process of the run is left" session_gone "$session"
check "after Ctrl-C no load file is left" test -z "$(loads_left)"
check "after Ctrl-C no cgroup of the run is left" test -z "$(run_cgroups "$session")"

# SIGKILL of reaim: the load dies with it; the next run sweeps its files
start_session "$REAIM" -f "$T/cpu" -d "$T/scratch" --sample-interval 0 --counters off --no-quiet-check -t 1 -j 400 --load list
sessions="$sessions $session"
i=0
while [ $i -lt 1200 ] && [ -z "$(loads_left)" ]; do sleep 0.05; i=$((i + 1)); done
check "the load started (SIGKILL)" test -n "$(loads_left)"
sleep 0.3
kill -KILL "$session"
wait "$session" 2>/dev/null
check "after SIGKILL no process of the run is left" session_gone "$session"
status 0 "the next run" run -t 1 -j 1
check "after the next run no load file is left" test -z "$(loads_left)"
check "after the next run no cgroup of the killed run is left" test -z "$(run_cgroups "$session")"
finish
