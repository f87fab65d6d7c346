#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The rare modes with extreme values: crossover, quick, peak, interleaved sweeps and single
# mode with many repeats, thresholds at both ends, every point invalid, the largest seed.
# Each run must end normally with every printed row stored, no scratch left and the run
# complete (or failed, when its points are invalid). Run under ASan this is where a buffer
# sized by a formula would overflow.
. "$(dirname "$0")/lib.sh"

# matrix_rtns takes microseconds a job, so hundreds of points stay cheap
printf '10 matrix_rtns\n' >"$T/cpu"
printf '10 matrix_rtns\n10 creat_clo\n' >"$T/two"
have_sqlite=$(command -v sqlite3 >/dev/null 2>&1 && echo 1 || echo 0)

# No run waits out the quiet check (a second each); one crossover of both workloads and both O_SYNC
# settings (osync-both-r5) keeps the system sampler and the counters, the others run without ($lean)
# at a third of the cost a point.
lean="--sample-interval 0 --counters off"

# mode LABEL WANT_EXIT ARGS...: run, then check the exit, the rows printed against the points
# stored, the scratch and the run's status
mode() {
	label=$1 want=$2
	shift 2
	"$REAIM" --label "$label" -d "$T/scratch" --no-quiet-check "$@" >"$T/out" 2>"$T/err"
	rc=$?
	ok "$([ $rc -eq "$want" ] && echo 0 || echo 1)" "$label: exit $rc (want $want)"
	[ $rc -eq "$want" ] || sed 's/^/#   /' "$T/err" | head -5
	# the rows of the point tables, not of the "Over repeats" summaries under them
	rows=$(awk '/^Workload /{ t = 1 } /^Means over/{ t = 0 } t && /^[0-9]+\t/{ n++ } END { print n + 0 }' "$T/out")
	case $label in single*) rows=$(awk '/^Test /{ t = 1; next } t && NF >= 5 { n++ } END { print n + 0 }' "$T/out") ;; esac
	if [ "$have_sqlite" = 1 ]; then
		stored=$(sqlite3 "$REAIM_DB" "SELECT count(*) FROM points p JOIN runs r ON r.id = p.run_id WHERE r.label = '$label'")
		case $label in
		single*) # calibration points are stored too: at least one per test printed
			ok "$([ "$rows" -gt 0 ] && [ "$stored" -ge "$rows" ] && echo 0 || echo 1)" "$label: $rows tests printed, $stored points stored" ;;
		*) ok "$([ "$rows" -gt 0 ] && [ "$rows" = "$stored" ] && echo 0 || echo 1)" "$label: $rows rows printed, $stored stored" ;;
		esac
		st=$(sqlite3 "$REAIM_DB" "SELECT status FROM runs WHERE label = '$label'")
		want_st=complete
		[ "$want" = 2 ] && want_st=failed
		ok "$([ "$st" = "$want_st" ] && echo 0 || echo 1)" "$label: run $st"
	else
		ok "$([ "$rows" -gt 0 ] && echo 0 || echo 1)" "$label: $rows rows printed # SKIP no sqlite3 to count stored points"
	fi
	ok "$(scratch_is_empty; echo $?)" "$label: no scratch left"
}

# 25 repeats at 1, 2, 4 and 8 tasks: 100 points, more than the task list times the repeats
mode crossover-r25 0 $lean -f "$T/cpu" -t 1 -j 1 -r 25 --mode crossover --max-tasks 8 --threshold 0.001
ok "$([ "$rows" = 100 ] && echo 0 || echo 1)" "crossover-r25: doubled to max-tasks, 100 points"
ok "$(grep -q Crossover: "$T/out" && echo 1 || echo 0)" "crossover-r25: never crossed a threshold that low"
# the highest threshold: the first task count already falls below it
mode quick-r20 0 $lean -f "$T/two" -t 1 -j 1 -r 20 --mode quick --max-tasks 16 --threshold 1000000
contains "$T/out" "Crossover: mean Jobs/Min per task" "quick-r20: stops at the first task count"
ok "$([ "$rows" = 20 ] && echo 0 || echo 1)" "quick-r20: 20 points"
# listed counts above max-tasks: the list is run, nothing is added
mode crossover-listed 0 $lean -f "$T/cpu" -t 1,2,3 -j 1 -r 4 --mode crossover --max-tasks 1 --threshold 0.001
ok "$([ "$rows" = 12 ] && echo 0 || echo 1)" "crossover-listed: 12 points"
# every point invalid (1 ms limit): crossover grows to max-tasks and stores them all
mode crossover-invalid 2 $lean -f "$T/two" -t 1 -j 50 -r 20 --mode crossover --max-tasks 4 --timeout 0.001
contains "$T/out" "INVALID" "crossover-invalid: invalid rows shown"
mode peak-r20 0 $lean -f "$T/cpu" -t 1 -j 1 -r 20 --mode peak --max-tasks 8
contains "$T/out" "Max Jobs per Minute" "peak-r20: max line"
mode peak-one 0 $lean -f "$T/cpu" -t 1 -j 1 -r 3 --mode peak --max-tasks 1
mode sweep-r30 0 $lean -f "$T/cpu" -t 1,2 -j 1 -r 30
contains "$T/out" "Means over the valid rounds" "sweep-r30: repeats summarised"
mode sweep-dup 0 $lean -f "$T/cpu" -t 1,1,2,2 -j 1 -r 3 --seed 9223372036854775807
mode osync-both-r5 0 -f "$T/two" -t 1,2 -j 1 -r 5 --osync both --mode crossover --max-tasks 4 --threshold 0.001
mode single-short 0 $lean -f "$T/two" --mode single -p 0.01
ok "$([ "$rows" = 2 ] && echo 0 || echo 1)" "single-short: a line per test"
mode single-extremes 0 $lean -f "$T/two" --mode single -p 10ms -r 1000 -t 100000 --max-tasks 100000 --seed 0
finish
