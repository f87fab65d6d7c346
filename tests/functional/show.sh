#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `reaim show` of a run prints what the run printed, in every mode; rounds and their means;
# the dry run's points and time estimate from stored runs.
. "$(dirname "$0")/lib.sh"

printf 'FILESIZE: 16K\n10 add_int\n10 pipe_cpy\n10 sync_disk_wrt\n' >"$T/mix"

# show_matches NAME: the last run's stdout ($T/out) against `reaim show last`, less what only
# show adds (its run line, reason, environment, per-test figures: all indented or titled)
show_matches() {
	cp "$T/out" "$T/run.out"
	"$REAIM" show last >"$T/show.out" 2>"$T/show.err"
	grep -v -e '^Run [0-9]' -e '^Reason: ' -e '^  ' -e '^Per test at the peak' "$T/show.out" >"$T/show.cut"
	if diff "$T/run.out" "$T/show.cut" >"$T/diff"; then
		ok 0 "$1: show prints what the run printed"
	else
		ok 1 "$1: show prints what the run printed"
		sed 's/^/#   /' "$T/diff" | head -20
	fi
}

status 0 "sweep with 3 rounds, O_SYNC both" "$REAIM" --no-quiet-check -f "$T/mix" -t 1,2 -j 4 -r 3 --osync both -d "$T/scratch"
show_matches "sweep with rounds"
contains "$T/run.out" "Tasks	Jobs/Min	Real	CPU	Round" "rounds add a Round column"
ok "$([ "$(grep -c '	[123]/3	o[nf]f\{0,1\}\(	noisy: .*\)\{0,1\}$' "$T/run.out")" -eq 12 ] && echo 0 || echo 1)" \
	"every row says its round and its O_SYNC setting (2 x 2 x 3)"
contains "$T/run.out" "O_SYNC on and off, interleaved" "O_SYNC both: one block, the settings interleaved"
# mirrored per task count and round: on off, off on at the next task count, off on in the next round
order=$(awk -F'\t' '/^Workload/ { b++ } b == 1 && $1 ~ /^[0-9]+$/ { printf "%s%s", sep, $7; sep = " " }' "$T/run.out")
ok "$([ "$order" = "on off off on off on on off on off off on" ] && echo 0 || echo 1)" \
	"in mirrored order, as variants ($order)"
contains "$T/run.out" "Means over the valid rounds:" "the summary says it holds means"
contains "$T/run.out" "(mean of 3 rounds, ±" "the Max line says it is a mean, and how sure"
# then each setting's own table, O_SYNC off first, headed by its workload and setting
headings=$(grep '^Workload' "$T/run.out" | tr '\n' '|')
ok "$([ "$headings" = "Workload mix, O_SYNC on and off, interleaved|Workload mix, O_SYNC off|Workload mix, O_SYNC on|" ] &&
	echo 0 || echo 1)" "each setting's table after the rows as they ran, off first ($headings)"
# each setting's table holds that setting's rows, round by round
rows=$(awk -F'\t' '/^Workload/ { b++ } /^Means/ { m = 1 } /^Workload/ { m = 0 }
	b >= 2 && !m && $1 ~ /^[0-9]+$/ { printf "%s%d:%s:%s", sep, b, $1, $6; sep = " " }' "$T/run.out")
ok "$([ "$rows" = "2:1:1/3 2:2:1/3 2:1:2/3 2:2:2/3 2:1:3/3 2:2:3/3 3:1:1/3 3:2:1/3 3:1:2/3 3:2:2/3 3:1:3/3 3:2:3/3" ] &&
	echo 0 || echo 1)" "each setting's rows in its own table ($rows)"
# show --brief pastes the settings' tables alone, not the rows as they ran
"$REAIM" show last --brief >"$T/brief.out"
ok "$([ "$(grep '^Workload' "$T/brief.out" | tr '\n' '|')" = "Workload mix, O_SYNC off|Workload mix, O_SYNC on|" ] &&
	echo 0 || echo 1)" "show --brief: each O_SYNC setting's table, off first"
# the Max line is the highest mean of the rows at one task count (of the O_SYNC on table, the third)
awk -F'\t' '/^Workload/ { b++ }
	b == 1 && $1 ~ /^[0-9]+$/ && $2 != "INVALID" && $7 == "on" { s[$1] += $2; n[$1]++ }
	b == 3 && /^Max Jobs per Minute/ && !seen++ { split($0, w, " "); jpm = w[5]; at = w[7]; note = substr($0, index($0, "(")) }
	END { for (t in s) if (s[t] / n[t] > best) { best = s[t] / n[t]; bt = t }
	      d = jpm - best  # the rows are rounded to 0.1
	      if (at != bt || d > 0.1 || d < -0.1 || index(note, "(mean of 3 rounds, ±") != 1) {
		      print "# Max line: " jpm " at " at " " note "; mean of the rows: " best " at " bt; exit 1 } }' \
	"$T/run.out" >"$T/awk.out"
ok $? "the Max line is the highest mean over rounds"
cat "$T/awk.out"

status 0 "one round" "$REAIM" --no-quiet-check -f "$T/mix" -t 1,2 -j 4 -d "$T/scratch"
show_matches "one round"
# --brief: the table alone, to paste: the run's rows and Max line, no heading, environment or per-test table
status 0 "show --brief" "$REAIM" show last --brief
contains "$T/out" "Tasks	Jobs/Min	Real	CPU" "--brief: the table"
contains "$T/out" "Max Jobs per Minute" "--brief: its Max line"
ok "$(grep -q '^Run [0-9]\|^Per test\|^Environment\|^kernel' "$T/out"; [ $? -ne 0 ] && echo 0 || echo 1)" \
	"--brief: no heading, environment or per-test table"
ok "$(grep -q 'Round\|Means\|mean of' "$T/run.out"; [ $? -ne 0 ] && echo 0 || echo 1)" "one round: the classic table alone"

status 0 "crossover" "$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 4 -r 2 --mode crossover --threshold 100000 --max-tasks 4 -d "$T/scratch"
show_matches "crossover"
contains "$T/run.out" "Crossover: mean Jobs/Min per task" "crossover line"

status 0 "peak" "$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 3 --mode peak --max-tasks 4 -d "$T/scratch"
show_matches "peak"
contains "$T/run.out" "Peak: " "peak line"

status 0 "single" "$REAIM" single --no-quiet-check -f "$T/mix" -p 0.05 -d "$T/scratch"
show_matches "single"
contains "$T/show.out" "mode single" "show names the mode"
ok "$(grep -q 'CV\|Round' "$T/show.out"; [ $? -ne 0 ] && echo 0 || echo 1)" "calibration points are not shown as rounds"

status 2 "a run with invalid points" "$REAIM" --no-quiet-check -f "$T/mix" -t 2 -j 20 -r 2 -d "$T/scratch" --timeout 0.001
show_matches "invalid points"

# the dry run: points, and an estimate from the stored one-round run (tasks 1,2, -j 4)
status 0 "dry run with a stored run" "$REAIM" -f "$T/mix" -t 1,2 -j 4 -d "$T/scratch" --dry-run
contains "$T/out" "Points: 2 (2 task counts x 1 round x 1 O_SYNC setting)" "the number of points"
contains "$T/out" "Estimate, O_SYNC on: " "an estimate"
contains "$T/out" ", from run 2 (label " "from the run of the same workload"
if have "the estimate matches SQLite" sqlite3; then
	want=$(sqlite3 "$REAIM_DB" "SELECT SUM(real_s + overhead_s) FROM points WHERE run_id = 2")
	got=$(sed -n 's/^  Estimate, O_SYNC on: \([0-9.]*\)s, from run 2 .*/\1/p' "$T/out")
	ok "$(awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(a != "" && d < 0.051 && d > -0.051) }'; echo $?)" \
		"the estimate is that run's time ($got s ~ $want s)"
fi
status 0 "dry run of another job count" "$REAIM" -f "$T/mix" -t 1,2 -j 5 -d "$T/scratch" --dry-run
contains "$T/out" "Estimate, O_SYNC on: none (no stored run of workfile mix with 5 jobs per task" "no estimate"
ok "$(scratch_is_empty; echo $?)" "scratch dir left empty"

# to paste into mail: show --brief and list within 80 columns (tabs at 8), for a run whose every point
# is noisy, labelled by default (the kernel's release), in a database of one host
widest() { expand "$1" | awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }'; }
status 0 "a run of two rounds" "$REAIM" --no-quiet-check -f "$T/mix" -t 1,2 -j 4 -r 2 -d "$T/scratch"
if have "noisy points planted" sqlite3; then
	sqlite3 "$REAIM_DB" "UPDATE points SET noisy = 1, noise = 'outside load 100.0 % of the machine'
		WHERE run_id = (SELECT max(id) FROM runs)"
fi
status 0 "show --brief" "$REAIM" show last --brief
ok "$([ "$(widest "$T/out")" -le 80 ] && echo 0 || echo 1)" "show --brief within 80 columns ($(widest "$T/out"))"
contains "$T/out" "Noisy: 4 of 4 valid points" "the Noisy line still says why"
status 0 "list" "$REAIM" list
ok "$([ "$(widest "$T/out")" -le 80 ] && echo 0 || echo 1)" "list within 80 columns ($(widest "$T/out"), label $(uname -r))"
finish
