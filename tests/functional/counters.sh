#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's counters per point: stored as rows for every point (vmstat, interrupts, softirqs at
# least; perf's software events where perf_event_open allows them), the events that cannot be
# opened said once, none with --counters off or --no-counters, exported, and copied by merge; and
# `compare --counters` of two runs of the compute mix, one with a CPU hog beside it, in every format
# (the structure: which counters move on a shared machine is left to the unit test).
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

cp "$T/err" "$T/on.err"
ok "$([ "$(grep -c 'perf counters that cannot be opened' "$T/on.err")" -le 1 ] && echo 0 || echo 1)" \
	"the events that cannot be opened are said at most once"
perf_rows=$(q "SELECT COUNT(DISTINCT c.point_id) FROM point_counters c JOIN points p ON p.id = c.point_id
	JOIN runs r ON r.id = p.run_id WHERE r.label = 'on' AND c.source = 'perf' AND c.name = 'context-switches'")
if grep -q 'perf none' "$T/on.err"; then
	ok 0 "perf counters per point # SKIP perf_event_open refused every event here"
	ok 0 "task-clock within the tasks' CPU # SKIP no perf counters"
else
	ok "$([ "$perf_rows" -eq 2 ] && echo 0 || echo 1)" "every point has perf's context-switches"
	# task-clock is the tasks' CPU from the release to done: at most their whole-life CPU (cpu_s)
	ok "$([ "$(q "SELECT COUNT(*) FROM point_counters c JOIN points p ON p.id = c.point_id JOIN runs r ON
		r.id = p.run_id WHERE r.label = 'on' AND c.source = 'perf' AND c.name = 'task-clock' AND c.value > 0
		AND c.value / 1e9 <= p.cpu_s * 1.05 + 0.01 AND c.running_pct = 100")" -eq 2 ] && echo 0 || echo 1)" \
		"task-clock within the tasks' CPU, never multiplexed"
fi

status 0 "a run with --no-counters" run --label none --no-counters
ok "$([ "$(q "SELECT COUNT(*) FROM point_counters c JOIN points p ON p.id = c.point_id JOIN runs r ON
	r.id = p.run_id WHERE r.label = 'none'")" -eq 0 ] && echo 0 || echo 1)" "--no-counters stores none"
ok "$(grep -q 'perf counters' "$T/err"; [ $? -ne 0 ] && echo 0 || echo 1)" "and opens no perf counter"
printf 'name = "nocount";\nworkfile = "%s";\ntasks = "1";\njobs_per_task = 4;\ncounters = "off";\n' "$T/mix" >"$T/nocount.cfg"
status 0 "a suite with counters = \"off\"" "$REAIM" run --no-quiet-check -s "$T/nocount.cfg" -d "$T/scratch" --label suite-off
ok "$([ "$(q "SELECT COUNT(*) FROM point_counters c JOIN points p ON p.id = c.point_id JOIN runs r ON
	r.id = p.run_id WHERE r.label = 'suite-off'")" -eq 0 ] && echo 0 || echo 1)" "the suite key turns them off too"
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
# two runs of the compute mix, the second beside a CPU hog
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$T"' EXIT
cmix() { "$REAIM" --no-quiet-check -f compute -d "$T/scratch" -t 2 -j 8 -r 3 "$@"; }
status 0 "the compute mix alone" cmix --label alone
sh -c 'while :; do :; done' &
hog=$!
status 0 "the compute mix beside a CPU hog" cmix --label hogged
kill "$hog" 2>/dev/null
wait "$hog" 2>/dev/null
hog=
for l in alone hogged; do
	ok "$([ "$(q "SELECT COUNT(DISTINCT c.point_id) FROM point_counters c JOIN points p ON p.id = c.point_id
		JOIN runs r ON r.id = p.run_id WHERE r.label = '$l' AND c.source = 'vmstat'")" -eq 3 ] && echo 0 || echo 1)" \
		"every point of the $l run has counters"
done
status 0 "compare --counters" "$REAIM" compare alone hogged --counters
contains "$T/out" "Counters that moved with Jobs/Min, per job" "the text says what it lists"
ok "$(awk 'length > 80 { bad = 1 } END { exit bad }' "$T/out"; echo $?)" "within 80 columns"
status 0 "compare --counters --format json" "$REAIM" compare alone hogged --counters --format json
if command -v jq >/dev/null 2>&1; then
	ok "$(jq -e '.cells_with_counters == 1 and .counters_tested > 0 and (.moved | type) == "array" and
		all(.moved[]; has("source") and has("name") and has("mean_base_per_job") and has("change_pct") and
		has("ci_low_pct") and has("p_adj") and has("against_jobs_per_min"))' "$T/out" >/dev/null; echo $?)" \
		"the JSON parses, with the cell and the fields of each moved counter"
	echo "# moved: $(jq -r '[.moved[] | .source + " " + .name] | join(", ")' "$T/out")"
else
	ok 0 "the JSON parses # SKIP no jq"
fi
status 0 "compare --counters --format csv" "$REAIM" compare alone hogged --counters --format csv
ok "$(head -1 "$T/out" | grep -q '^workload,osync,variant,side,tasks,jobs_per_min_change_pct,source,name,unit,'; echo $?)" \
	"the CSV's header"
status 0 "compare --counters --format markdown" "$REAIM" compare alone hogged --counters --format markdown
contains "$T/out" "Counters that moved with Jobs/Min" "the Markdown too"
finish
