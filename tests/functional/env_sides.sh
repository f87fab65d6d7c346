#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The environment by side: compare warns once per fact and side (the side's runs that share a
# differing value named in one warning), and the report's environment table has a column per side,
# the facts that differ first and those every run shares folded away.
. "$(dirname "$0")/lib.sh"

if ! have "the environment by side" sqlite3; then finish; exit; fi
printf '10 add_int\n' >"$T/mix"
for k in a a b b c; do
	check "run $k" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 2 -d "$T/scratch" --label "$k"
done
# a fact of every run: side B's two runs share another value, and one of A's a third
sqlite3 "$REAIM_DB" "INSERT INTO env (run_id, key, value) SELECT id, 'dir0.scheduler.test', 'sched' FROM runs;
	UPDATE env SET value = 'sched-b' WHERE key = 'dir0.scheduler.test' AND run_id IN (3, 4);
	UPDATE env SET value = 'sched-a2' WHERE key = 'dir0.scheduler.test' AND run_id = 2"

check "compare a b c" "$REAIM" compare a b c
tr '\n' ' ' <"$T/out" | sed 's/  */ /g' >"$T/flat"
contains "$T/flat" "warning: runs 3, 4 (B) differ from run 1 (A) in dir0.scheduler.test: 'sched-b'" \
	"one warning for B's two runs that share the value"
ok "$([ "$(grep -o 'warning: [^:]*dir0.scheduler.test' "$T/flat" | wc -l)" -eq 2 ] && echo 0 || echo 1)" \
	"two warnings in all: B's and A's second run"
check "compare a b c --format json" "$REAIM" compare a b c --format json
contains "$T/out" '"count": 2' "the joined warning counts its runs in the JSON"

check "report a b c" "$REAIM" report a b c -o "$T/r.html"
sed -n '/id="environment"/,/<\/details>/p' "$T/r.html" >"$T/env"
contains "$T/env" '<th class="l">A: a <small>(runs 1, 2)</small></th><th class="l">B: b <small>(runs 3, 4)</small></th><th class="l">C: c <small>(run 5)</small></th>' \
	"a column per side, naming its runs"
ok "$([ "$(grep -c '<tr class="differs">' "$T/env")" -eq 1 ] && echo 0 || echo 1)" "one row for the one fact that differs"
contains "$T/env" ">sched / sched-a2<" "a side whose runs differ shows both values"
contains "$T/env" "facts every run shares</summary>" "the shared facts folded in one list"
finish
