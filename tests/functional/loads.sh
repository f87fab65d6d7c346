#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --load: each point once per load, no_load the base, storing the load, its units of work and its
# CPU %; show's contest table; an unknown load names the loads; no load process or file is left
# after Ctrl-C, nor (its processes at once, its files at the next run's sweep) after SIGKILL.
. "$(dirname "$0")/lib.sh"

export REAIM_LOAD_MAX_MIB=32
printf '10 add_int\n10 sieve\n' >"$T/cpu"
run() { "$REAIM" -f "$T/cpu" -d "$T/scratch" --sample-interval 0 --counters off "$@"; }
loads_left() { find "$T/scratch" -name 'load-*' | head -3; }

status 1 "an unknown load is refused" run -t 1 --load io,cache
contains "$T/err" "no_load, process, io, read, list, tar, mem" "... naming the loads"

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

# Ctrl-C while a point runs beside a load
start_session "$REAIM" -f "$T/cpu" -d "$T/scratch" --sample-interval 0 --counters off -t 1 -j 400 --load process
i=0
while [ $i -lt 1200 ] && [ -z "$(loads_left)" ]; do sleep 0.05; i=$((i + 1)); done
check "the load started" test -n "$(loads_left)"
sleep 0.3
kill -INT "$session"
wait "$session"
st=$?; [ "$st" -eq 3 ]; ok $? "Ctrl-C: exit 3 (got $st)"
check "after Ctrl-C no process of the run is left" session_gone "$session"
check "after Ctrl-C no load file is left" test -z "$(loads_left)"

# SIGKILL of reaim: the load dies with it; the next run sweeps its files
start_session "$REAIM" -f "$T/cpu" -d "$T/scratch" --sample-interval 0 --counters off -t 1 -j 400 --load list
i=0
while [ $i -lt 1200 ] && [ -z "$(loads_left)" ]; do sleep 0.05; i=$((i + 1)); done
check "the load started (SIGKILL)" test -n "$(loads_left)"
sleep 0.3
kill -KILL "$session"
wait "$session" 2>/dev/null
check "after SIGKILL no process of the run is left" session_gone "$session"
status 0 "the next run" run -t 1 -j 1
check "after the next run no load file is left" test -z "$(loads_left)"
finish
