#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A gate never passes what it could not judge: nothing in common, a side without a valid point at a
# task count the base has, or no cell judged exit 5 (with --bisect: 125 where the side under test
# measured nothing in common, else 128, as a step it could not judge would be as blind as its
# neighbours); each gate says its decision and why in one last line; JSON stays JSON; --bisect
# maps good and bad to 0 and 1, and a command that fails to 128; an export that states a maximum of a
# run without a valid point fails.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n' >"$T/mix"
printf '10 add_int\n' >"$T/other"
check "run A" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 2 -r 2 -d "$T/scratch" --label A
check "run B" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 2 -r 2 -d "$T/scratch" --label B
check "run C, another workload" "$REAIM" -q --no-quiet-check -f "$T/other" -t 1,2 -j 2 -r 2 -d "$T/scratch" --label C
check "run D, one task count" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 2 -r 2 -d "$T/scratch" --label D
check "run E, one repeat" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 2 -r 1 -d "$T/scratch" --label E
check "run F, one repeat" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 2 -r 1 -d "$T/scratch" --label F

status 5 "nothing in common, --fail-above: could not judge (5)" "$REAIM" compare A C --fail-above 5
contains "$T/err" "gate: could not judge (exit 5): nothing in common" "says why, in its last line"
status 5 "nothing in common without a gate: 5 too" "$REAIM" compare A C
status 125 "nothing in common, --bisect: skip (125)" "$REAIM" compare A C --bisect
status 5 "nothing in common as JSON" "$REAIM" compare A C --format json
if command -v python3 >/dev/null 2>&1; then
	reason=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["could_not_judge"])' "$T/out" 2>&1)
	ok "$(echo "$reason" | grep -q '^nothing in common'; echo $?)" "JSON stays JSON, with the reason ($reason)"
else
	echo "ok $((n + 1)) - JSON stays JSON # SKIP python3 is not installed"
	n=$((n + 1))
fi

# (a threshold no measured drop reaches: with -j 2 a drop beyond 5 % at 1 task can be real noise, and 4)
status 5 "a side without a valid point at a task count the base has" "$REAIM" compare A D --fail-above 99
contains "$T/out" "caution: B has no valid point at 2 tasks of workload mix" "the caution names the task count"
status 5 "every cell unjudgeable (one repeat a side) and no drop beyond 99 %" "$REAIM" compare E F --fail-above 99
contains "$T/err" "no task count could be judged" "says why"

# figures made known in a copy (none measured in noise): B at half of A, then B equal to A, then B
# measured in noise; then every point of B invalid
cp "$REAIM_DB" "$T/known.db"
sqlite3 "$T/known.db" "UPDATE points SET noisy = 0, noise = NULL, outside_cpu_pct = 5, steal_pct = 0, others_demand_pct = 5;
	UPDATE points SET jobs_per_min = 1000 * tasks + 10 * repeat
	WHERE run_id = (SELECT id FROM runs WHERE label = 'A');
	UPDATE points SET jobs_per_min = 500 * tasks + 10 * repeat WHERE run_id IN (SELECT id FROM runs WHERE label IN ('B', 'D'))"
status 1 "--bisect on a significant drop: bad (1)" "$REAIM" compare A B --bisect --db "$T/known.db"
status 4 "--fail-above 10 on the same: 4" "$REAIM" compare A B --fail-above 10 --db "$T/known.db"
status 1 "--bisect --fail-above 10: bad" "$REAIM" compare A B --bisect --fail-above 10 --db "$T/known.db"
status 0 "--bisect --fail-above 75: good (0), the interval rules out a drop beyond 75 %" "$REAIM" compare A B --bisect --fail-above 75 --db "$T/known.db"
status 4 "a drop at the task count both have still fails, whatever is missing" "$REAIM" compare A D --fail-above 10 --db "$T/known.db"
sqlite3 "$T/known.db" "UPDATE points SET noisy = 0, noise = NULL;
	UPDATE points SET jobs_per_min = 1000 * tasks + 10 * repeat WHERE run_id = (SELECT id FROM runs WHERE label = 'B')"
status 0 "--bisect on equal figures: good (0)" "$REAIM" compare A B --bisect --db "$T/known.db"
contains "$T/err" "bisect: good (exit 0): every interval rules out a drop beyond 5 %, --bisect's default" \
	"its last line says why it is good"
# B about 60 % slower, but each side's two samples far apart: no significant drop, and an interval
# that cannot rule out one of 5 %: never good, never a skip
cp "$T/known.db" "$T/wide.db"
sqlite3 "$T/wide.db" "UPDATE points SET jobs_per_min = 1000 * tasks + 1500 * repeat WHERE run_id = (SELECT id FROM runs WHERE label = 'A');
	UPDATE points SET jobs_per_min = 400 * tasks + 1200 * repeat WHERE run_id = (SELECT id FROM runs WHERE label = 'B')"
status 128 "--bisect without the power to see a drop: stops the bisection (128)" "$REAIM" compare A B --bisect --db "$T/wide.db"
contains "$T/err" "does not rule out a drop beyond 5 % (--bisect's default)" "saying the interval and the default"
# B at half of A, its neighbours demanding 90 % of the CPUs against A's 5 %, alike within each side:
# the drop cannot be told from the load; the text says what would separate them, as a command
cp "$T/known.db" "$T/busy.db"
sqlite3 "$T/busy.db" "UPDATE points SET others_demand_pct = 90, jobs_per_min = 500 * tasks + 10 * repeat
	WHERE run_id = (SELECT id FROM runs WHERE label = 'B')"
"$REAIM" compare A B --fail-above 10 --db "$T/busy.db" >"$T/out" 2>"$T/err"
busy=$?
ok "$([ "$busy" != 0 ] && [ "$busy" != 4 ] && echo 0 || echo 1)" "a drop beside a side's own busy neighbours is neither passed nor failed (exit $busy)"
contains "$T/out" "confounded" "it is called confounded"
b_run=$(sqlite3 "$T/busy.db" "SELECT max(id) FROM runs WHERE label = 'B'")
contains "$T/out" "        reaim rerun $(sqlite3 "$T/busy.db" "SELECT max(id) FROM runs WHERE label = 'A'") --label A" \
	"and prints the command that runs the sides in turn"
contains "$T/out" "        reaim rerun $b_run --label B" "both sides, a line each"
ok "$(sed -n '/^    for i in 1 2 3; do$/,/^    done$/p' "$T/out" | wc -l | grep -qx 4; echo $?)" "a loop of four lines, to paste"
sqlite3 "$T/known.db" "UPDATE points SET noisy = 1, noise = 'outside load 70.0 % of the machine'
	WHERE run_id = (SELECT id FROM runs WHERE label = 'B')"
status 0 "--bisect on points measured in noise: judged, noise alone is no skip" "$REAIM" compare A B --bisect --db "$T/known.db"
contains "$T/out" "caution: points measured in noise at 1 (A 0, B 2), 2 (A 0, B 2) tasks" "the text's caution"
status 0 "--fail-above on the same: judged, with the caution" "$REAIM" compare A B --fail-above 20 --db "$T/known.db"
status 5 "--fail-above below what the samples can show: cannot vouch (5)" "$REAIM" compare A B --fail-above 0.01 --db "$T/known.db"
contains "$T/err" "gate: cannot vouch (exit 5): the interval does not rule out a drop beyond 0.01 %" "says why, with the interval"
status 5 "--exclude-noisy with every point of B noisy: nothing left to judge" "$REAIM" compare A B --fail-above 20 \
	--exclude-noisy --db "$T/known.db"
contains "$T/err" "nothing in common once the points measured in noise are left out (--exclude-noisy)" \
	"said as the noise's doing, not as points never measured"
# one sample a side, 50 % slower: never a failure, the gate cannot vouch
sqlite3 "$T/known.db" "UPDATE points SET jobs_per_min = 500 * tasks WHERE run_id = (SELECT id FROM runs WHERE label = 'F');
	UPDATE points SET jobs_per_min = 1000 * tasks WHERE run_id = (SELECT id FROM runs WHERE label = 'E')"
status 128 "--bisect on one sample a side: stops the bisection (128), never bad, never a skip" "$REAIM" compare E F --bisect --db "$T/known.db"
contains "$T/err" "bisect: stop the bisection (exit 128): no task count could be judged" "saying why"
status 5 "--fail-above on one sample a side: cannot vouch (5), never 4" "$REAIM" compare E F --fail-above 10 --db "$T/known.db"
sqlite3 "$T/known.db" "UPDATE points SET noisy = 0, noise = NULL WHERE run_id = (SELECT id FROM runs WHERE label = 'B')"
sqlite3 "$T/known.db" "UPDATE points SET valid = 0 WHERE run_id = (SELECT id FROM runs WHERE label = 'B')"
status 5 "a new run whose every point is invalid does not pass --fail-above" "$REAIM" compare A B --fail-above 5 --db "$T/known.db"
status 125 "nor --bisect" "$REAIM" compare A B --bisect --db "$T/known.db"
status 5 "nor the other way round" "$REAIM" compare B A --fail-above 5 --db "$T/known.db"
# one run with nothing to compare inside it: could not judge, never 0
status 5 "one run without variants or O_SYNC both: could not judge (5)" "$REAIM" compare E
contains "$T/out" "nothing to compare inside it" "says why"

# the same workfile path, another mix inside: unlike runs, warned and never judged by a gate
printf '10 add_int\n' >"$T/same"
check "run U1" "$REAIM" -q --no-quiet-check -f "$T/same" -t 1 -j 2 -r 2 -d "$T/scratch" --label U1 --db "$T/unlike.db"
printf '10 creat_clo\n' >"$T/same"
check "run U2, the same path with another mix" "$REAIM" -q --no-quiet-check -f "$T/same" -t 1 -j 2 -r 2 -d "$T/scratch" \
	--label U2 --db "$T/unlike.db"
# U2 at half of U1, far beyond any threshold: unlike runs are still not a regression
sqlite3 "$T/unlike.db" "UPDATE points SET noisy = 0, noise = NULL, outside_cpu_pct = 5, steal_pct = 0, others_demand_pct = 5;
	UPDATE points SET jobs_per_min = 1000 + 10 * repeat WHERE run_id = (SELECT id FROM runs WHERE label = 'U1');
	UPDATE points SET jobs_per_min = 500 + 10 * repeat WHERE run_id = (SELECT id FROM runs WHERE label = 'U2')"
status 5 "unlike runs: the gate cannot judge (5)" "$REAIM" compare U1 U2 --fail-above 5 --db "$T/unlike.db"
cp "$T/out" "$T/unlike.out"
contains "$T/out" "unlike runs are not judged" "the warning says so"
contains "$T/out" "creat_clo 10 against add_int 10" "naming both mixes"
contains "$T/err" "unlike runs: workload same" "the error says why"
check "no verdict sentence under the warning" sh -c "! grep -q 'within the noise\|slower than\|faster than' '$T/unlike.out'"
status 128 "nor --bisect (128: never a verdict, nor a skip)" "$REAIM" compare U1 U2 --bisect --db "$T/unlike.db"

# the exports that state a maximum say failed, not 0
for fmt in lkp reaim7 aim7; do
	status 2 "export --format $fmt of a run without a valid point fails" "$REAIM" export B --format $fmt --db "$T/known.db"
	ok "$([ ! -s "$T/out" ] && grep -q 'no valid point' "$T/err" && echo 0 || echo 1)" "writing nothing, saying why"
done
status 0 "its JSON still says what was stored" "$REAIM" export B --format json --db "$T/known.db"
status 128 "--bisect with a run that does not exist stops the bisection (128)" "$REAIM" compare A nosuch --bisect
status 1 "--counters judges nothing: no gate over it" "$REAIM" compare A B --counters --fail-above 5
contains "$T/err" "judges no regression" "says why"
status 128 "nor with --bisect, which stops the bisection" "$REAIM" compare A B --counters --bisect
finish
