#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs the real binary on real files: the table, the database, scratch clean-up, exit codes.
. "$(dirname "$0")/lib.sh"

cat >"$T/mix" <<'WF'
# a small mix over several families
FILESIZE: 32K
10 add_int
10 pipe_cpy
10 creat_clo
10 disk_rd
10 sync_disk_wrt
WF

status 0 "a small sweep runs" "$REAIM" --no-quiet-check -f "$T/mix" -t 1,2 -j 10 -d "$T/scratch" --label kernel-a
cp "$T/out" "$T/table"
contains "$T/table" "Tasks	Jobs/Min	Real	CPU" "classic table header"
ok "$(awk -F'\t' '$1 ~ /^[12]$/ && $2 > 0 && $4 > 0 { n++ } END { exit n != 2 }' "$T/table"; echo $?)" "two rows with Jobs/Min and Real"
contains "$T/table" "Max Jobs per Minute" "max line"
ok "$(scratch_is_empty; echo $?)" "scratch dir left empty"

status 0 "list shows the run" "$REAIM" list
contains "$T/out" "kernel-a" "label stored"
contains "$T/out" "complete" "status complete"
status 0 "export csv" "$REAIM" export last --format csv
contains "$T/out" "Forks,JPM,JPM_C,JPS_C,parent_tm,childU_tm,childS_tm,std_dev,JTI,max_c,min_c" "classic CSV header"
contains "$T/out" "max_c,min_c,noise,workload,osync,variant,round" "then the noise, the block and the round"
ok "$([ "$(grep -c '^[12],' "$T/out")" -eq 2 ] && echo 0 || echo 1)" "two CSV rows"
# the stored Jobs/Min equals the printed one
printed=$(awk -F'\t' '$1 == "2" { print $2 }' "$T/table")
stored=$(awk -F, '$1 == "2" { print $2 }' "$T/out")
ok "$(awk -v a="$printed" -v b="$stored" 'BEGIN { d = a - b; exit !(d < 0.051 && d > -0.051) }'; echo $?)" "stored Jobs/Min matches the table ($printed ~ $stored)"
status 0 "export json" "$REAIM" export kernel-a --format json
contains "$T/out" '"format_version": 1' "json has a format version"
contains "$T/out" '"name": "sync_disk_wrt", "count": 4,' "per-test counts stored (2 jobs x 2 tasks)"
status 0 "export lkp" "$REAIM" export last --format lkp
contains "$T/out" "max_jobs_per_min: " "lkp names"
contains "$T/out" "workload: " "lkp's total jobs"
status 0 "show -v --tests" "$REAIM" show last -v --tests
contains "$T/out" "dir0.fstype" "environment stored"
contains "$T/out" "cpu user " "show -v prints the sampler averages"
contains "$T/out" ">2s%" "show --tests prints the share of slow jobs"
status 0 "show --samples" "$REAIM" show last --samples
contains "$T/out" "iowait%" "show --samples prints the system time series"

if have "the points in SQLite" sqlite3; then
	ok "$([ "$(sqlite3 "$REAIM_DB" 'SELECT COUNT(*) FROM points WHERE valid')" -eq 2 ] && echo 0 || echo 1)" "two valid points in SQLite"
	ok "$([ "$(sqlite3 "$REAIM_DB" 'PRAGMA user_version')" -ge 1 ] && echo 0 || echo 1)" "schema version set"
	ok "$([ "$(sqlite3 "$REAIM_DB" 'SELECT COUNT(*) FROM points WHERE idle_pct >= 0 AND user_pct + sys_pct > 0')" -eq 2 ] && echo 0 || echo 1)" "system figures stored for both points"
	ok "$([ "$(sqlite3 "$REAIM_DB" 'SELECT COUNT(*) FROM samples')" -ge 1 ] && echo 0 || echo 1)" "a system time series stored"
	# the table's CPU is the measured window; the whole lives (set-up and clean-up too) stay stored
	window=$(sqlite3 "$REAIM_DB" 'SELECT printf("%.2f", window_cpu_s) FROM points WHERE run_id = 1 AND tasks = 2')
	ok "$([ "$(awk -F'	' '$1 == "2" { print $5 }' "$T/table")" = "$window" ] && echo 0 || echo 1)" \
		"the table's CPU is the stored window_cpu_s ($window)"
	ok "$([ "$(sqlite3 "$REAIM_DB" 'SELECT COUNT(*) FROM points WHERE run_id = 1 AND window_cpu_s > 0 AND window_cpu_s <= cpu_s')" -eq 2 ] && echo 0 || echo 1)" \
		"the window's CPU is within the tasks' whole lives (cpu_s) on both points"
fi
if command -v sqlite3 >/dev/null 2>&1; then
	status 0 "export csv again" "$REAIM" export kernel-a --format csv
	life=$(sqlite3 "$REAIM_DB" 'SELECT printf("%.2f", user_s + sys_s) FROM points WHERE run_id = 1 AND tasks = 2')
	ok "$(awk -F, -v want="$life" '$1 == "2" { got = sprintf("%.2f", $6 + $7) } END { d = got - want; exit !(d < 0.015 && d > -0.015) }' "$T/out"; echo $?)" \
		"the classic CSV keeps the whole lives' user and system time ($life)"
fi

status 0 "osync both runs the workload twice" "$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 5 -d "$T/scratch" --osync both
contains "$T/out" "O_SYNC on" "an O_SYNC on block"
contains "$T/out" "O_SYNC off" "an O_SYNC off block"

# a point that cannot finish in time is invalid, stored, and the run exits 2
status 2 "an invalid point exits 2" "$REAIM" --no-quiet-check -f "$T/mix" -t 2 -j 20 -d "$T/scratch" --timeout 0.001 --label broken
contains "$T/out" "INVALID" "the row says INVALID"
contains "$T/err" "timed out" "the reason is given"
status 0 "list" "$REAIM" list
contains "$T/out" "failed" "run stored as failed"
# a run without a valid point has no maximum: a format read as measurements says it failed
for fmt in lkp reaim7 aim7; do
	status 2 "export --format $fmt of a run without a valid point fails" "$REAIM" export broken --format "$fmt"
	contains "$T/err" "reaim: error: run " "export $fmt: the error says the run failed"
	ok "$([ ! -s "$T/out" ] && echo 0 || echo 1)" "export $fmt: no figure printed"
done
status 2 "export lava of it lists the points as failed, and exits 2 as the run failed" "$REAIM" export broken --format lava
contains "$T/out" "max_jobs_per_min fail" "lava: the maximum is a fail line"
contains "$T/out" "run-complete fail" "lava: the run's own case fails"
ok "$(scratch_is_empty; echo $?)" "scratch dir left empty after the failure"
# single-user mode: each test alone, calls/s and ops/s with units
status 0 "single mode" "$REAIM" single --no-quiet-check -f "$T/mix" -p 0.2 -d "$T/scratch" --label single
contains "$T/out" "Calls/s" "single mode table"
ok "$(awk '$1 ~ /^(add_int|pipe_cpy|creat_clo|disk_rd|sync_disk_wrt)$/ && $4 > 0 { n++ } END { exit n != 5 }' "$T/out"; echo $?)" "a rate for each of the 5 tests"
contains "$T/out" "KiB/s)" "disk tests report KiB/s"
ok "$(scratch_is_empty; echo $?)" "scratch dir left empty after single mode"
finish
