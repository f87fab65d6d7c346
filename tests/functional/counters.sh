#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's counters per point: stored as rows for every point (vmstat, interrupts, softirqs at
# least), none with --counters off, exported, and copied by merge.
. "$(dirname "$0")/lib.sh"

printf '1 add_int\n1 pipe_cpy\n' >"$T/mix"
run() { "$REAIM" --no-quiet-check -f "$T/mix" -d "$T/scratch" -t 1,2 -j 4 "$@"; }
q() { sqlite3 "$REAIM_DB" "$1"; }

status 0 "a run with counters" run --label on
for src in vmstat interrupts softirqs; do
	ok "$([ "$(q "SELECT COUNT(DISTINCT p.id) FROM points p JOIN runs r ON r.id = p.run_id
		JOIN point_counters c ON c.point_id = p.id WHERE r.label = 'on' AND c.source = '$src'")" -eq 2 ] &&
		echo 0 || echo 1)" "every point has $src counters"
done
ok "$([ "$(q "SELECT COUNT(*) FROM point_counters c JOIN points p ON p.id = c.point_id JOIN runs r ON
	r.id = p.run_id WHERE r.label = 'on' AND c.source = 'vmstat' AND c.name = 'pgfault' AND c.value > 0")" -eq 2 ] &&
	echo 0 || echo 1)" "the tasks' page faults are counted in vmstat's pgfault"

status 0 "a run with --counters off" run --label off --counters off
ok "$([ "$(q "SELECT COUNT(*) FROM point_counters c JOIN points p ON p.id = c.point_id JOIN runs r ON
	r.id = p.run_id WHERE r.label = 'off'")" -eq 0 ] && echo 0 || echo 1)" "--counters off stores none"

status 0 "export the counters as CSV" "$REAIM" export on --format counters
ok "$(head -1 "$T/out" | grep -qx 'workload,osync,variant,tasks,round,valid,source,name,value,unit,running_pct'; echo $?)" \
	"the CSV's header"
ok "$(grep -q '^"mix",on,"",2,1,1,"vmstat","pgfault",[0-9]' "$T/out"; echo $?)" "a vmstat line of the 2-task point"
status 0 "export as JSON" "$REAIM" export on --format json
contains "$T/out" '"counters": [{"source": ' "the JSON has the points' counters"

stored=$(q "SELECT COUNT(*) FROM point_counters")
status 0 "merge into a new database" "$REAIM" merge --db "$T/merged.db" "$REAIM_DB"
ok "$([ "$(sqlite3 "$T/merged.db" "SELECT COUNT(*) FROM point_counters")" -eq "$stored" ] && echo 0 || echo 1)" \
	"merge copies every counter ($stored)"
finish
