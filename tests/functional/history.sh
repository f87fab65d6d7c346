#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run history across commands: compare two real runs, O_SYNC both ratio, merge (twice is a
# no-op), exports, and run names.
. "$(dirname "$0")/lib.sh"

printf 'FILESIZE: 16K\n10 add_int\n10 pipe_cpy\n10 sync_disk_wrt\n' >"$T/mix"
check "run A" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 6 -r 2 -d "$T/scratch" --label kernel-a
check "run B" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 6 -r 2 -d "$T/scratch" --label kernel-b --osync both

status 0 "compare A B" "$REAIM" compare kernel-a kernel-b
ok "$(tr '\n' ' ' <"$T/out" | grep -q "Welch's t test, Holm over"; echo $?)" "compare states its test and correction"
contains "$T/out" "B: kernel-b, run 2" "compare names the other run"
contains "$T/out" "Peak: A " "peak line"
contains "$T/out" "caution: A, B have one run" "one run a side: the caution"
status 0 "compare csv" "$REAIM" compare last~1 last --format csv
contains "$T/out" "workload,osync,variant,tasks,base,base_label" "csv header"
status 0 "compare json" "$REAIM" compare 1 2 --format json
contains "$T/out" '"format_version": 2' "json format version"
status 1 "compare an unknown run" "$REAIM" compare kernel-a nosuch
contains "$T/err" "no run matches 'nosuch'" "unknown run named"
status 0 "O_SYNC on against off" "$REAIM" compare kernel-b
contains "$T/out" "O_SYNC off against on, paired round by round" "one run made with --osync both: off against on"
contains "$T/out" "Workload mix: B against A" "a block per workload, the settings as sides"

status 0 "plot two runs" "$REAIM" plot kernel-a kernel-b -o "$T/ab.svg" --diff
ok "$([ "$(grep -o 'class="series"' "$T/ab.svg" | wc -l)" -eq 3 ] && echo 0 || echo 1)" \
	"a series per curve: kernel-a, and kernel-b's O_SYNC on and off"
contains "$T/ab.svg" "kernel-b (run 2), O_SYNC off" "the O_SYNC off curve of the run made with both is drawn and named"
ok "$([ "$(grep -o 'class="diff-series"' "$T/ab.svg" | wc -l)" -eq 1 ] && echo 0 || echo 1)" \
	"one difference line: kernel-b against kernel-a, both O_SYNC on"
contains "$T/ab.svg" "Error bars: mean" "the error bars are explained"
contains "$T/ab.svg" "n = 2 per task count" "with their n"
kernel=$(uname -r)
contains "$T/ab.svg" "kernel-a (run 1): kernel $kernel, host" "the footer names label, kernel and host"
if have "the SVG is well-formed XML" xmllint; then
	check "the SVG is well-formed XML" xmllint --noout "$T/ab.svg"
fi
status 0 "plot one run made with --osync both" "$REAIM" plot kernel-b -o "$T/b.svg" --diff
ok "$([ "$(grep -o 'class="series"' "$T/b.svg" | wc -l)" -eq 2 ] && echo 0 || echo 1)" "both O_SYNC curves drawn together"
contains "$T/b.svg" "O_SYNC on against off" "the difference panel is on against off"
status 0 "plot only O_SYNC off" "$REAIM" plot kernel-b -o "$T/boff.svg" --osync off
contains "$T/err" "Not drawn: kernel-b (run 2) workload mix O_SYNC on" "what was left out is said on stderr"
contains "$T/boff.svg" "Not drawn: kernel-b (run 2) workload mix O_SYNC on" "and under the plot"
if have "plot to a .png" rsvg-convert; then
	status 0 "plot to a .png" "$REAIM" plot kernel-a kernel-b -o "$T/ab.png" --diff
	ok "$([ "$(head -c 8 "$T/ab.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] && echo 0 || echo 1)" \
		"a real PNG (magic bytes)"
fi
status 2 "a .png without rsvg-convert (exit 2: the work cannot be done here)" env PATH=/nonexistent "$REAIM" plot kernel-a -o "$T/none.png"
contains "$T/err" "rsvg-convert is not installed" "says what is missing"
ok "$([ ! -e "$T/none.png" ] && echo 0 || echo 1)" "and writes nothing under the PNG name"
status 1 "SVG under a .png name refused" "$REAIM" plot kernel-a -o "$T/x.png" --format svg
status 0 "plot for gnuplot" "$REAIM" plot kernel-a kernel-b -o "$T/ab" --format gnuplot
ok "$([ -s "$T/ab.dat" ] && [ -s "$T/ab.gp" ] && echo 0 || echo 1)" "gnuplot data and script written"
contains "$T/ab.gp" "'$T/ab.dat'" "the script names its data by absolute path"
if have "gnuplot runs the script" gnuplot; then
	(cd / && gnuplot "$T/ab.gp") >"$T/out" 2>"$T/err"
	ok "$([ -s "$T/ab.svg" ] && echo 0 || echo 1)" "gnuplot runs the script from another directory"
fi
status 1 "plot without -o" "$REAIM" plot kernel-a
status 0 "plot a system metric" "$REAIM" plot kernel-a kernel-b -o "$T/sys.svg" --metric sys_pct
contains "$T/sys.svg" "CPU system %" "the axis names the metric"
status 0 "plot a system metric with --diff" "$REAIM" plot kernel-a kernel-b -o "$T/sysd.svg" --metric sys_pct --diff
contains "$T/sysd.svg" "the comparison judges Jobs/Min" "its difference panel says the comparison judges Jobs/Min only"
status 0 "plot a run's system time series" "$REAIM" plot kernel-a --timeline --metric iowait_pct -o "$T/tl.svg"
ok "$([ "$(grep -o 'class="series"' "$T/tl.svg" | wc -l)" -ge 1 ] && echo 0 || echo 1)" "a line per point with samples"
contains "$T/tl.svg" "Seconds into the point" "the time axis"
ok "$([ "$(grep -o 'class="panel"' "$T/tl.svg" | wc -l)" -eq 2 ] && echo 0 || echo 1)" "a panel per task count"
contains "$T/tl.svg" ">100</text>" "the percentage axis ends at 100"
status 0 "a timeline of one point" "$REAIM" plot kernel-a --timeline --point 2 -o "$T/tl2.svg"
ok "$([ "$(grep -o 'class="panel"' "$T/tl2.svg" | wc -l)" -eq 1 ] && echo 0 || echo 1)" "one panel"
status 2 "a timeline of a point the run lacks" "$REAIM" plot kernel-a --timeline --point 7 -o "$T/tl7.svg"
status 1 "a timeline of a figure that is not sampled" "$REAIM" plot kernel-a --timeline --metric real_s -o "$T/x.svg"
status 1 "plot an unknown metric" "$REAIM" plot kernel-a -o "$T/x.svg" --metric speed
contains "$T/err" "iowait_pct" "lists the metrics there are"

# a second database gathered on another machine, merged into the first
other="$T/other.db"
check "run on the other machine" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 4 -d "$T/scratch" --label kernel-c --db "$other"
status 0 "merge" "$REAIM" merge "$other"
contains "$T/out" "merged 1 runs" "one run merged"
status 0 "merge again" "$REAIM" merge "$other"
contains "$T/out" "merged 0 runs" "merging twice is a no-op"
status 0 "list" "$REAIM" list
contains "$T/out" "kernel-c" "merged run listed"
status 0 "list by label" "$REAIM" list --label kernel-a
ok "$([ "$(grep -c kernel "$T/out")" -eq 1 ] && echo 0 || echo 1)" "label filter"
status 0 "export reaim7" "$REAIM" export kernel-c --format reaim7
contains "$T/out" "Max Jobs per Minute" "re-aim-7's stdout"
status 1 "the old export classic is refused (parsers misread it)" "$REAIM" export kernel-c --format classic
contains "$T/err" "reaim7" "naming the formats there are"
status 2 "merge a file that is not a database (a database error)" "$REAIM" merge "$T/mix"
if have "the stored points in SQLite" sqlite3; then
	ok "$([ "$(sqlite3 "$REAIM_DB" 'PRAGMA integrity_check')" = ok ] && echo 0 || echo 1)" "integrity check"
	order=$(sqlite3 "$REAIM_DB" "SELECT group_concat(tasks) FROM (SELECT p.tasks FROM points p JOIN runs r ON r.id = p.run_id WHERE r.label = 'kernel-a' ORDER BY p.id)")
	ok "$([ "$order" = "1,2,1,2" ] && echo 0 || echo 1)" "repeats go round the task list ($order)"
	ok "$([ "$(sqlite3 "$REAIM_DB" 'SELECT COUNT(*) FROM runs')" -eq 3 ] && echo 0 || echo 1)" "three runs stored"
fi
# two reaim processes writing one database at once both complete and store every point
"$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2,3 -j 6 -d "$T/scratch" --label conc-1 >/dev/null 2>"$T/e1" &
p1=$!
"$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2,3 -j 6 -d "$T/scratch" --label conc-2 >/dev/null 2>"$T/e2" &
p2=$!
wait $p1
r1=$?
wait $p2
r2=$?
ok "$([ $r1 -eq 0 ] && [ $r2 -eq 0 ] && echo 0 || echo 1)" "two concurrent writers both exit 0 ($r1, $r2)"
ok "$(scratch_is_empty; echo $?)" "and leave no scratch"

if have "export round trips against SQLite" sqlite3; then
	q() { sqlite3 "$REAIM_DB" "$1"; }
	ok "$([ "$(q "SELECT COUNT(*) FROM run_points WHERE label LIKE 'conc-%' AND valid")" -eq 6 ] && echo 0 || echo 1)" "every point of both stored"
	# export round trips: what comes out is what is stored
	"$REAIM" export conc-1 --format json >"$T/e.json"
	ok "$(sqlite3 :memory: "SELECT json_valid(readfile('$T/e.json'))" | grep -qx 1; echo $?)" "json export is valid JSON"
	db_jpm=$(q "SELECT printf('%.4f', jobs_per_min) FROM run_points WHERE label = 'conc-1' ORDER BY tasks")
	js_jpm=$(sqlite3 :memory: "SELECT printf('%.4f', json_extract(value, '\$.jobs_per_min')) FROM json_each(json_extract(readfile('$T/e.json'), '\$.points'))")
	ok "$([ "$db_jpm" = "$js_jpm" ] && echo 0 || echo 1)" "json round trip: Jobs/Min of every point"
	js_count=$(sqlite3 :memory: "SELECT SUM(json_extract(value, '\$.count')) FROM json_each(json_extract(readfile('$T/e.json'), '\$.points[2].tests'))")
	db_count=$(q "SELECT SUM(count) FROM test_stats t JOIN points p ON p.id = t.point_id JOIN runs r ON r.id = p.run_id WHERE r.label = 'conc-1' AND p.tasks = 3")
	ok "$([ "$js_count" = "$db_count" ] && echo 0 || echo 1)" "json round trip: per-test job counts ($js_count)"
	"$REAIM" export conc-1 --format csv >"$T/e.csv"
	csv_jpm=$(awk -F, 'NR > 1 { printf "%.2f\n", $2 }' "$T/e.csv")
	db_jpm2=$(q "SELECT printf('%.2f', jobs_per_min) FROM run_points WHERE label = 'conc-1' ORDER BY tasks")
	ok "$([ "$csv_jpm" = "$db_jpm2" ] && echo 0 || echo 1)" "csv round trip: JPM column"
	"$REAIM" export conc-1 --format lkp >"$T/e.lkp"
	lkp_jpm=$(awk '/^jobs_per_min:/ { print $2 }' "$T/e.lkp")
	ok "$([ "$lkp_jpm" = "$db_jpm2" ] && echo 0 || echo 1)" "lkp round trip: jobs_per_min lines"
	# --fail-above: exit 4 on a regression beyond the threshold (a copy with known figures:
	# kernel-b at half of kernel-a, with a little spread between repeats)
	cp "$REAIM_DB" "$T/halved.db"
	sqlite3 "$T/halved.db" "UPDATE points SET outside_cpu_pct = 5, steal_pct = 0, others_demand_pct = 5;
		UPDATE points SET jobs_per_min = 1000 * tasks + 10 * repeat
		WHERE run_id = (SELECT id FROM runs WHERE label = 'kernel-a');
		UPDATE points SET jobs_per_min = 500 * tasks + 10 * repeat
		WHERE run_id = (SELECT id FROM runs WHERE label = 'kernel-b')"
	status 4 "compare --fail-above 10 on a halved run exits 4" "$REAIM" compare kernel-a kernel-b --db "$T/halved.db" --fail-above 10
	contains "$T/err" "gate: regression (exit 4): significantly slower by more than 10 % at 1 task of mix" "and says so, naming the cells"
	status 0 "compare --fail-above 75 on the same runs exits 0: the intervals rule out a drop beyond 75 %" \
		"$REAIM" compare kernel-a kernel-b --db "$T/halved.db" --fail-above 75
	"$REAIM" export conc-1 --format reaim7 >"$T/e.classic"
	# the export prints two decimals: equal to the stored value within its rounding
	awk 'NF == 9 && $1 ~ /^[0-9]+$/ { print $5 }' "$T/e.classic" >"$T/e.jpm"
	q "SELECT jobs_per_min FROM run_points WHERE label = 'conc-1' ORDER BY tasks" >"$T/db.jpm"
	ok "$(paste "$T/e.jpm" "$T/db.jpm" | awk 'NF != 2 || $1 - $2 > 0.005 || $2 - $1 > 0.005 { bad = 1 }
		END { exit bad || NR == 0 }'; echo $?)" "classic round trip: Jobs/Min column"
fi
finish
