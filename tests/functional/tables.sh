#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The tables kernel developers post, each one reaim command over small real runs: several kernels
# wide (a column per kernel, the change against the first, Amean/Hmean/Gmean), whose every figure is
# compare's JSON for the same groups and whose text fits 80 columns for three groups; the ratio; the
# source threads' tables: AIM7's kernel x tasks with Jobs/Min, Real and CPU, O_SYNC off and on with the
# ratio, contest's loads, a per-case change with a TOTAL, min/avg/max/stddev over runs with CPU shares.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n' >"$T/mix"
for k in k1 k1 k2 k2 k3 k3 k4 k5; do
	check "run $k" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 2 -r 2 -d "$T/scratch" --label "$k"
done

# several kernels wide
check "compare --wide, three groups" "$REAIM" compare k1 k2 k3 --wide
cp "$T/out" "$T/wide3"
contains "$T/wide3" "A: k1" "the base's column is headed by its label"
contains "$T/wide3" "2 runs" "and its run count"
contains "$T/wide3" "Amean" "an Amean row"
contains "$T/wide3" "Hmean" "an Hmean row"
contains "$T/wide3" "Gmean" "a Gmean row"
contains "$T/wide3" "Geomean over every cell, against A: B" "a geomean per side over every cell"
ok "$([ "$(sed -n '/^Workload/q;p' "$T/wide3" | wc -l)" -le 8 ]; echo $?)" "the table first: the sides and a few lines"
ok "$(sed -n '/^Workload/q;p' "$T/wide3" | grep -qE '^(caution|warning): ' && echo 1 || echo 0)" "no caution before the table"
check "compare --wide -v" "$REAIM" compare k1 k2 k3 --wide -v
contains "$T/out" "correction family of its" "-v says each side is its own correction family"
long=$(awk 'length > 80' "$T/wide3" | wc -l)
ok "$([ "$long" -eq 0 ] && echo 0 || echo 1)" "three groups wide fit 80 columns ($long lines longer)"
rows=$(sed -n '/^Workload mix/,$p' "$T/wide3" | grep -cE '^ +[12] +[0-9]')
ok "$([ "$rows" -eq 2 ] && echo 0 || echo 1)" "a row per task count ($rows)"

contains "$T/wide3" "  Peak " "a Peak row: each side's best mean against the base's"
ok "$(grep -q TOTAL "$T/wide3" && echo 1 || echo 0)" "no TOTAL of Jobs/Min"
check "compare --wide --stat min --stat mean" "$REAIM" compare k1 k2 --wide --stat min --stat mean
ok "$(grep -qE '^ +1 Min +[0-9.]+ +[0-9.]+$' "$T/out" && grep -qE '^ +Mean +[0-9.]+ +[0-9.]+ +[-+][0-9.]+%' "$T/out"; echo $?)" \
	"the change of the means on the Mean row, not the Min row"
check "compare --stat min --stat mean" "$REAIM" compare k1 k2 --stat min --stat mean
cp "$T/out" "$T/minmean"
check "compare, the means" "$REAIM" compare k1 k2
ok "$(awk 'NR == FNR { if ($1 == 1 && NF > 5) m = $2 " " $4 " " $6; next } $1 == 1 && NF > 5 { exit !($2 " " $4 " " $6 == m) }' \
	"$T/minmean" "$T/out" && grep -qE '^ +min +[0-9.]+ +[0-9.]+$' "$T/minmean"; echo $?)" \
	"compare's blocks: the mean on the task count's row beside its change, the min on a row under it"
check "compare --wide --ratio: the geomean a ratio" "$REAIM" compare k1 k2 --wide --ratio
ok "$(grep -qE '^Geomean over every cell, against A: B [0-9]+\.[0-9]{3} ' "$T/out"; echo $?)" "in the table's unit"
check "compare --ratio: the geomean a ratio" "$REAIM" compare k1 k2 --ratio
ok "$(grep -qE '^Geomean of B/A over 2 task counts: [0-9]+\.[0-9]{3}' "$T/out"; echo $?)" "in the table's unit"
check "compare --wide --metric iowait_pct (0 against 0)" "$REAIM" compare k1 k2 --wide --metric iowait_pct
ok "$(grep -qi nan "$T/out" && echo 1 || echo 0)" "no nan printed"

check "compare --wide, five groups" "$REAIM" compare k1 k2 k3 k4 k5 --wide
long=$(awk 'length > 80' "$T/out" | wc -l)
ok "$([ "$long" -eq 0 ] && echo 0 || echo 1)" "five groups wrap within 80 columns ($long lines longer)"
contains "$T/out" "(D to E)" "the second chunk names its groups"
contains "$T/out" "D: k4" "the second chunk has D"

check "compare --wide --format markdown" "$REAIM" compare k1 k2 k3 --wide --format markdown
contains "$T/out" "| Tasks | A: k1 (2 runs) | B: k2 (2 runs) | C: k3 (2 runs) |" "Markdown: one table, a column per group"
check "compare --wide --format csv" "$REAIM" compare k1 k2 k3 --wide --format csv
contains "$T/out" "workload,osync,variant,row,side,label,runs,n,mean,pct,ratio" "CSV: its header"
contains "$T/out" "mix,on,,Amean,B," "CSV: the summary rows"

check "compare --wide --format json" "$REAIM" compare k1 k2 k3 k4 k5 --wide --format json
cp "$T/out" "$T/wide.json"
check "compare --format json, the same groups" "$REAIM" compare k1 k2 k3 k4 k5 --format json
cp "$T/out" "$T/compare.json"
if have "the wide table against compare's JSON" python3; then
	python3 - "$T/wide.json" "$T/compare.json" >"$T/cmp" 2>&1 <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
bad, seen = [], 0
for r in c["rows"]:
    blk = [b for b in w["blocks"] if b["workload"] == r["workload"] and b["osync"] == r["osync"]
           and b["variant"] == r["variant"]]
    row = [x for x in blk[0]["rows"] if x["tasks"] == r["tasks"]][0]
    base = [x for x in row["cells"] if x["side"] == r["base"]][0]
    other = [x for x in row["cells"] if x["side"] == r["other"]][0]
    pairs = [(base["mean"], r["base_jpm"]), (other["mean"], r["other_jpm"]), (other["pct"], r["pct"]),
             (other["ratio"], r["ratio"]), (other["p_adj"], r["p_adj"]), (other["ci_low_pct"], r["ci_low_pct"]),
             (other["significant"], r["significant"]), (other["judged"], r["judged"]), (other["n"], r["n_other"]),
             (base["stats"], r["stats_base"]), (other["stats"], r["stats_other"]), (base["runs"], r["runs_base"]),
             (other["runs"], r["runs_other"])]
    for a, b in pairs:
        seen += 1
        if a != b and not (isinstance(a, float) and isinstance(b, float) and abs(a - b) < 1e-9):
            bad.append((r["other"], r["tasks"], a, b))
print(seen, bad)
sys.exit(1 if bad or seen == 0 else 0)
PY
	ok $? "every figure of --wide equals compare's JSON ($(cat "$T/cmp"))"
fi

# the ratio (B/A) in place of the % change
check "compare --ratio" "$REAIM" compare k1 k2 --ratio
contains "$T/out" "Ratio" "the column is the ratio"
contains "$T/out" "B/A" "the legend says what it is"
check "compare --wide --ratio" "$REAIM" compare k1 k2 k3 --wide --ratio
ok "$(grep -qE '^ +1 +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]{3}' "$T/out"; echo $?)" "the wide cells show B/A"
status 1 "--counters and --wide are refused together" "$REAIM" compare k1 k2 --wide --counters

# choosing runs: a label with runs of another suite is refused as one group, and chosen by suite
printf '10 add_int\n' >"$T/other"
check "k1 again, another workload" "$REAIM" -q --no-quiet-check -f "$T/other" -t 1,2 -j 2 -r 2 -d "$T/scratch" --label k1
status 1 "a label pooling two suites is refused" "$REAIM" compare k1 k2
contains "$T/err" "'k1' pools runs of different suites or modes: run 1 (mix, sweep) and run 9 (other, sweep)" \
	"naming the runs, their suites and modes"
contains "$T/err" "k1:mix" "and how to choose"
check "LABEL:SUITE chooses the label's runs of one suite" "$REAIM" compare k1:mix k2 --format json
contains "$T/out" '"runs": [1, 2]' "the runs of suite mix only"
status 5 "LABEL:workload=NAME:mode=MODE (nothing in common with mix)" "$REAIM" compare k1:workload=other:mode=sweep k2:mix --format json
contains "$T/out" '"runs": [9]' "the run of workload other"
status 1 "a filter no run passes" "$REAIM" compare k1:mode=quick k2
contains "$T/err" "no run labelled 'k1' passes 'mode=quick'" "says which"
status 1 "an unknown filter key" "$REAIM" compare k1:colour=red k2
contains "$T/err" "no filter 'colour'" "names it"
check "list" "$REAIM" list
contains "$T/out" "Mode" "list shows the mode"
contains "$T/out" "Best JPM" "and the best Jobs/Min"
ok "$(grep -qE '^9 .* other +sweep +k1 .* [0-9]+\.[0-9] +4\/4$' "$T/out"; echo $?)" "a row with suite, mode and a best Jobs/Min"

# the AIM7 table of one run: each export block headed by its workload and O_SYNC setting; Real of a
# short point keeps its digits
check "export --format aim7" "$REAIM" export 1 --format aim7
contains "$T/out" "Workload mix, O_SYNC on" "the aim7 block says its workload and O_SYNC setting"
ok "$(grep -E '^ +[12] ' "$T/out" | awk '{ if ($5 + 0 > 0 && $5 !~ /^0\.0[0-9][0-9]/ && $5 + 0 < 0.1) bad = 1 } END { exit bad }'; echo $?)" \
	"Real below 0.1 s keeps three significant digits"
check "export --format reaim7" "$REAIM" export 1 --format reaim7
contains "$T/out" "Workload mix, O_SYNC on" "the reaim7 tables say theirs"

# several suites in one command: each planned, a run each (the dry run shows every plan); quick mode
# stops at --max-tasks, as --dry-run says
status 0 "-s dbase -s fserver -s shared, dry run" "$REAIM" -s dbase -s fserver -s shared --dry-run
ok "$([ "$(grep -c '^Suite \(dbase\|fserver\|shared\) (. of 3)$' "$T/out")" -eq 3 ] && echo 0 || echo 1)" \
	"every suite's plan, named"
check "quick mode with a suite and --max-tasks 16, dry run" "$REAIM" -s dbase --mode quick --max-tasks 16 --dry-run
ok "$(grep -qE '^  tasks +1,2,4,8,16$' "$T/out"; echo $?)" "the plan's task counts stop at 16"
ok "$(grep -qE '^  (32|64) ' "$T/out" && echo 1 || echo 0)" "no row for 32 or 64 tasks"

# any stored figure judged: --metric NAME, the same tests and gate, the way a change counts as worse
check "compare --metric real_s" "$REAIM" compare k2 k3 --metric real_s
contains "$T/out" "A real_s" "the table's header names the metric"
contains "$T/out" "Judged: real_s" "the legend says what was judged"
check "compare --metric real_s --format json" "$REAIM" compare k2 k3 --metric real_s --format json
contains "$T/out" '"metric": "real_s", "rise_better": false' "the JSON says which metric and its direction"
check "compare --metric window_cpu_s --format csv" "$REAIM" compare k2 k3 --metric window_cpu_s --format csv
ok "$(head -1 "$T/out" | grep -q ',metric$' && sed -n 2p "$T/out" | grep -q ',window_cpu_s$'; echo $?)" \
	"CSV: a metric column"
check "compare --wide --metric cpu_s" "$REAIM" compare k2 k3 k4 --wide --metric cpu_s --format json
contains "$T/out" '"metric": "cpu_s"' "the wide JSON says its metric"
status 1 "an unknown metric is refused" "$REAIM" compare k2 k3 --metric no_such
contains "$T/err" "real_s" "naming the metrics there are"
# a gate on real time: 20 times the jobs a task is 20 times the real time, a rise (4); the other way a fall (0)
check "light run" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 2 -r 4 -d "$T/scratch" --label light
check "heavy run" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 40 -r 4 -d "$T/scratch" --label heavy
status 4 "a gate on real_s fails on its rise" "$REAIM" compare light heavy --metric real_s --fail-above 10
contains "$T/out" "slower than A" "a rise of real time reads slower"
check "--format json of it" "$REAIM" compare light heavy --metric real_s --format json
contains "$T/out" '"state": "slower"' "its cell's state is slower"
status 0 "a gate on real_s passes its fall" "$REAIM" compare heavy light --metric real_s --fail-above 10
status 1 "--bisect: a rise of real_s is bad" "$REAIM" compare light heavy --metric real_s --bisect

# --- the source threads' tables, each one command ---
# AIM7: kernels x task counts with Jobs/Min, Real and CPU, each judged in turn
check "AIM7 kernel x tasks: Jobs/Min, Real, CPU" "$REAIM" compare k1:mix k2 k3 --wide --metric jobs_per_min \
	--metric real_s --metric window_cpu_s
cp "$T/out" "$T/aim7"
ok "$([ "$(grep -c '^==== Metric ' "$T/aim7")" -eq 3 ]; echo $?)" "a table per figure"
contains "$T/aim7" "==== Metric real_s: Real time (s) ====" "Real's table is headed"
rows=$(grep -cE '^ +[12] +[0-9.]+ +[0-9.]+ +[-+][0-9.]+%' "$T/aim7")
ok "$([ "$rows" -eq 6 ]; echo $?)" "a row per task count in each ($rows)"
long=$(awk 'length > 80' "$T/aim7" | wc -l)
ok "$([ "$long" -eq 0 ]; echo $?)" "within 80 columns ($long lines longer)"
status 1 "an unknown --stat is refused" "$REAIM" compare k2 k3 --stat mode
contains "$T/err" "--stat mode: not one of mean, median, min, max, sd, cv" "naming the statistics there are"
status 1 "several metrics in one JSON are refused" "$REAIM" compare k1:mix k2 --metric real_s --metric cpu_s --format json
contains "$T/err" "one --metric a command" "saying how"
# a wide figure against compare's JSON: B's Real at 2 tasks as the table prints it
check "Real, JSON" "$REAIM" compare k1:mix k2 --metric real_s --format json
want=$(sed -n 's/.*"tasks": 2, .*"other_mean": \([0-9.e+-]*\),.*/\1/p' "$T/out" | head -1)
shown=$(sed -n '/^==== Metric real_s/,/^==== Metric window/p' "$T/aim7" | awk '$1 == 2 && $2 ~ /^[0-9.]+$/ { print $3; exit }')
# the table shows 4 significant digits of the double, the JSON 6: equal within the table's last digit
ok "$(awk -v a="$want" -v b="$shown" 'BEGIN { e = log(b) / log(10); f = int(e); if (f > e) f--
	d = a - b; if (d < 0) d = -d; exit !(a != "" && b > 0 && d <= 10 ^ (f - 3)) }'; echo $?)" \
	"the wide Real of B at 2 tasks ($shown) is the JSON's ($want)"

# O_SYNC off and on per task count, with the ratio: one run made with --osync both
check "a run with --osync both" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 2 -r 2 -d "$T/scratch" \
	--osync both --label os
check "O_SYNC off against on, the ratio" "$REAIM" compare os --wide --ratio
contains "$T/out" "A: O_SYNC off" "a column for O_SYNC off"
contains "$T/out" "B: O_SYNC on" "one for O_SYNC on"
ok "$([ "$(grep -cE '^ +[12] +[0-9.]+ +[0-9.]+ +[0-9]+\.[0-9]{3}' "$T/out")" -eq 2 ]; echo $?)" \
	"a row per task count with the ratio B/A"

# contest: a kernel's time with and without a background load, CPU % and the ratio
check "a run with --load process" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 2 -r 2 -d "$T/scratch" \
	--load process --label ct
check "contest's table" "$REAIM" compare ct --metric real_s --metric user_pct --ratio
contains "$T/out" "Tasks  Time B/A      A Loads  A LCPU%      B Loads  B LCPU%" "Time B/A, Loads and LCPU% as contest"
contains "$T/out" "==== Metric real_s" "the time"
contains "$T/out" "==== Metric user_pct" "the CPU share"
contains "$T/out" "Ratio" "as a ratio"

# --long: several figures side by side, a row per kernel within each task count (the posted shapes)
narrow() { # FILE WHAT: no line of FILE over 80 columns
	long=$(awk 'length > 80' "$1" | wc -l)
	ok "$([ "$long" -eq 0 ]; echo $?)" "$2 within 80 columns ($long lines longer)"
}
check "AIM7 as posted: kernel Tasks Jobs/Min Real CPU" "$REAIM" compare k1:mix k2 k3 --long --metric jobs_per_min \
	--metric real_s --metric window_cpu_s
cp "$T/out" "$T/long"
ok "$(grep -qE '^Kernel +Tasks +n +Jobs/Min +Change +Real +Change +CPU +Change$' "$T/long"; echo $?)" \
	"one header: the kernel, the task count, n, each figure with its change"
rows=$(grep -cE '^k[123] +[12] +2 +[0-9.]+ ' "$T/long")
ok "$([ "$rows" -eq 6 ]; echo $?)" "a row per kernel within each task count ($rows)"
ok "$(grep -qE '^k2 +1 +2 +[0-9.]+ +[-+][0-9.]+%.? +[0-9.]+ +[-+][0-9.]+%.? +[0-9.]+ +[-+][0-9.]+%' "$T/long"; echo $?)" \
	"each figure's change beside it"
ok "$([ "$(grep -c '^A (base): k1' "$T/long")" -eq 1 ] && ! grep -q '^==== Metric' "$T/long"; echo $?)" \
	"the sides and legend once, one table"
ok "$([ "$(grep -c . "$T/long")" -le 30 ]; echo $?)" "$(grep -c . "$T/long") lines where a table a figure took 104"
narrow "$T/long" "AIM7's table"
check "Real, JSON" "$REAIM" compare k1:mix k2 --metric real_s --format json
want=$(sed -n 's/.*"tasks": 2, .*"other_mean": \([0-9.e+-]*\),.*/\1/p' "$T/out" | head -1)
shown=$(awk '$1 == "k2" && $2 == 2 { print $6; exit }' "$T/long")
ok "$(awk -v a="$want" -v b="$shown" 'BEGIN { e = log(b) / log(10); f = int(e); if (f > e) f--
	d = a - b; if (d < 0) d = -d; exit !(a != "" && b > 0 && d <= 10 ^ (f - 3)) }'; echo $?)" \
	"--long's Real of k2 at 2 tasks ($shown) is the JSON's ($want)"
check "ten runs as posted: Min Avg Max StdDev with %user %sys %iowait" "$REAIM" compare k1:mix k2 --long \
	--stat min --stat mean --stat max --stat sd --metric real_s --metric user_pct --metric sys_pct --metric iowait_pct
cp "$T/out" "$T/tenruns"
ok "$(grep -qE '^Kernel +Tasks +n +Min +Mean +Max +Stddev +%user +%sys +%iowait$' "$T/tenruns"; echo $?)" \
	"one header: the time's statistics, then the CPU shares"
ok "$([ "$(grep -cE '^k[12] +[12] +2( +[0-9.e-]+){7}$' "$T/tenruns")" -eq 4 ]; echo $?)" "a row per kernel and task count"
ok "$(grep -qE '^ +[-+][0-9.]+%.? +[-+][0-9.]+%' "$T/tenruns"; echo $?)" \
	"the changes on a row under the kernel's (beside them would pass 80 columns)"
narrow "$T/tenruns" "ten runs' table"
check "contest's load run of a second kernel" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 2 -r 2 -d "$T/scratch" \
	--load process --label ct2
check "compare --wide, one task count" "$REAIM" compare ct ct2 --wide
ok "$(grep -qE '^ +(Amean|Hmean|Gmean|Peak) ' "$T/out" && echo 1 || echo 0)" "no summary rows over one task count"
check "contest as posted: a row per kernel, a table per load" "$REAIM" compare ct ct2 --long --metric real_s \
	--metric user_pct
cp "$T/out" "$T/contest"
ok "$([ "$(grep -cE '^Workload mix, O_SYNC on, load (no_load|process), 1 task$' "$T/contest")" -eq 2 ]; echo $?)" \
	"a table per load"
ok "$(grep -qE '^Kernel +n +Real +Change +%user +Change +Loads +LCPU% +Ratio$' "$T/contest"; echo $?)" \
	"[runs] Time CPU% Loads LCPU% Ratio, each change beside"
ok "$(grep -qE '^ct2 +2 +[0-9.]+ +[-+][0-9.]+%.? +[0-9.]+ +[-+][0-9.]+%.? +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$T/contest"; echo $?)" \
	"ct2's row under the load: its Loads, LCPU% and its time against its own no_load"
narrow "$T/contest" "contest's tables"
check "one run's loads, --long" "$REAIM" compare ct --long --metric real_s --metric user_pct
ok "$(grep -qE '^no_load +2 +[0-9.]+ ' "$T/out" && grep -qE '^load process +2 ' "$T/out"; echo $?)" "a row per load"
check "--long --format markdown" "$REAIM" compare k1:mix k2 --long --metric jobs_per_min --metric real_s --format markdown
ok "$([ "$(head -1 "$T/out")" = '```' ] && [ "$(tail -1 "$T/out")" = '```' ] && grep -qE '^Kernel +Tasks +n +Jobs/Min' "$T/out"; echo $?)" \
	"Markdown: the table as a code block, its columns kept"
"$REAIM" compare k1:mix k2 --long --metric jobs_per_min --metric real_s --fail-above 100 >"$T/out" 2>"$T/err"
rc=$?
ok "$([ $rc = 0 ] || [ $rc = 5 ]; echo $?)" "--long with a gate: it judges the first figure (exit $rc: passed or cannot vouch, never failed)"
contains "$T/err" "gate: " "and says its decision"
status 1 "--long refuses --runs" "$REAIM" compare k1:mix k2 --long --runs
contains "$T/err" "--long has a column per figure" "saying why"
status 1 "--long refuses CSV" "$REAIM" compare k1:mix k2 --long --metric real_s --format csv
contains "$T/err" "--long lays several figures out as text or Markdown" "saying why"

# a per-case change with a TOTAL, one line a case
check "per-case change with a TOTAL" "$REAIM" compare k1:mix k2 k3 --summary --metric real_s
ok "$([ "$(grep -cE '^mix +O_SYNC on +[12] tasks? +B +[-+][0-9.]+%.? +C +[-+][0-9.]+%' "$T/out")" -eq 2 ]; echo $?)" \
	"a line per case with each side's change"
contains "$T/out" "TOTAL over the 2 cases every side has (the sum of the means): B" "the TOTAL line"
check "no TOTAL of Jobs/Min" "$REAIM" compare k1:mix k2 k3 --summary
ok "$(grep -q TOTAL "$T/out" && echo 1 || echo 0)" "Jobs/Min at different task counts adds up to nothing"
check "no TOTAL of a share, nor -nan where both sides are 0" "$REAIM" compare k1:mix k2 k3 --summary --metric iowait_pct
ok "$(grep -qiE 'nan|TOTAL' "$T/out" && echo 1 || echo 0)" "neither"
check "--summary --format json" "$REAIM" compare k1:mix k2 k3 --summary --metric real_s --format json
cp "$T/out" "$T/sum.json"
check "--wide --format json" "$REAIM" compare k1:mix k2 k3 --wide --metric real_s --format json
if have "the summary's TOTAL against the wide JSON" python3; then
	python3 - "$T/sum.json" "$T/out" >"$T/cmp" 2>&1 <<'PY'
import json, sys
s, w = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
t = {x["side"]: x for x in s["total"]}
bad = [x["side"] for x in w["sides"] if abs((t[x["side"]]["value"] or 0) - (x["total"] or 0)) > 1e-3 * abs(x["total"] or 1)]
print(len(t), bad)
sys.exit(1 if bad or not t else 0)
PY
	ok $? "the TOTAL is the wide table's ($(cat "$T/cmp"))"
fi

# min/avg/max/stddev over the runs, a row per run, with the CPU shares
check "min/avg/max/stddev over runs" "$REAIM" compare k1:mix k2 --wide --runs --stat min --stat mean --stat max \
	--stat sd --metric real_s --metric user_pct --metric sys_pct
cp "$T/out" "$T/004"
for w in "1 Min" Mean Max Stddev; do
	ok "$([ "$(grep -cE "^ +$w +[0-9.]+" "$T/004")" -ge 3 ]; echo $?)" "a $w row in each figure's table"
done
ok "$([ "$(grep -cE '^ +#[0-9]+ +[0-9.]+$' "$T/004")" -ge 12 ]; echo $?)" "a row per run and task count"
ok "$(tr '\n' ' ' <"$T/004" | grep -qF "(the verdict is the means', whatever the cell shows)"; echo $?)" \
	"the legend: the change and the verdict stay the means'"
long=$(awk 'length > 80' "$T/004" | wc -l)
ok "$([ "$long" -eq 0 ]; echo $?)" "within 80 columns ($long lines longer)"
# a --stat figure against the JSON: A's standard deviation of Real at 1 task
check "the same as JSON" "$REAIM" compare k1:mix k2 --wide --runs --metric real_s --format json
if have "a --stat figure against JSON" python3; then
	sd=$(sed -n '/^==== Metric real_s/,/^==== Metric user_pct/p' "$T/004" | awk '$1 == "Stddev" { print $2; exit }')
	python3 - "$T/out" "$sd" >"$T/cmp" 2>&1 <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))
row = [r for r in w["blocks"][0]["rows"] if r["tasks"] == 1][0]
v = row["cells"][0]["stats"]["sd"]
print(v, sys.argv[2])
# the table shows 4 significant digits of the double, the JSON 6 (0.0035345 may be 0.003534 or
# 0.003535 shown): equal within the table's last digit
import math
shown = float(sys.argv[2])
sys.exit(0 if shown > 0 and abs(v - shown) <= 10 ** (math.floor(math.log10(shown)) - 3) else 1)
PY
	ok $? "the wide Stddev is the JSON's ($(cat "$T/cmp"))"
fi
# the posted shapes not made above (docs/tables.md numbers them), each within 80 columns
check "shape 12: each case run by run with a TOTAL" "$REAIM" compare k1:mix k2 --summary --runs --metric real_s
cp "$T/out" "$T/case_runs"
ok "$([ "$(grep -cE '^mix +O_SYNC on +[12] tasks?$' "$T/case_runs")" -eq 2 ]; echo $?)" "a block per case under the summary"
ok "$([ "$(grep -cE '^ +[0-9.]+ +[-+][0-9.]+% +[0-9.]+ +run [0-9]+, run [0-9]+$' "$T/case_runs")" -eq 4 ]; echo $?)" \
	"a row per run pair: A's figure, the change, B's, the runs"
ok "$(awk '/^mix +O_SYNC on +1 task$/ { on = 1; next } on && / run / { a += $1; b += $3 }
	on && /TOTAL real_s$/ { d = a - $1; e = b - $3; exit !(d * d < 1e-6 * a * a && e * e < 1e-6 * b * b) }' "$T/case_runs"; echo $?)" \
	"the case's TOTAL is the sum of its runs"
narrow "$T/case_runs" "shape 12"
check "O_SYNC both on 1 and 2 CPUs (t5)" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 2 -r 2 -d "$T/scratch" \
	--osync both --cpus 1,2 --label t5
check "and t8" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 2 -r 2 -d "$T/scratch" --osync both --cpus 1,2 --label t8
check "shape 6: O_SYNC off against on, the CPU count an axis" "$REAIM" compare t5 --wide --ratio
ok "$(grep -q '^Workload mix, 1 CPU$' "$T/out" && grep -q '^Workload mix, 2 CPUs$' "$T/out"; echo $?)" "a block per CPU count"
narrow "$T/out" "shape 6"
cp "$T/out" "$T/osync_ba"
check "shape 8: 'x faster without O_SYNC', the ratio inverted" "$REAIM" compare t5 --wide --ratio --invert
ok "$(awk 'NR == FNR { if ($1 ~ /^[12]$/ && NF == 4 && $4 ~ /^[0-9.]+$/) ba[FNR] = $4; next }
	FNR in ba { n++; p = ba[FNR] * $4; lo = ba[FNR] < $4 ? ba[FNR] : $4; tol = 0.0006 / lo + 0.001  # 3 decimals each
		if (p < 1 - tol || p > 1 + tol) bad = 1 } END { exit bad || n != 4 }' "$T/osync_ba" "$T/out"; echo $?)" \
	"A/B: each cell's B/A turned over"
awk '$1 ~ /^[12]$/ && NF == 4 { print "# " FILENAME ": " $0 }' "$T/osync_ba" "$T/out"
narrow "$T/out" "shape 8"
check "shape 7: one kernel against another per CPU count" "$REAIM" compare t5 t8
ok "$([ "$(grep -cE '^Workload mix, O_SYNC o(n|ff), [12] CPUs?: B against A$' "$T/out")" -eq 4 ]; echo $?)" \
	"a block per O_SYNC setting and CPU count"
narrow "$T/out" "shape 7"
check "shape 9: peaks compared across kernels" "$REAIM" compare t5 t8 --wide --ratio
ok "$(awk '$1 == "Peak" { n++; if (!($3 / $2 / $4 > 0.998 && $3 / $2 / $4 < 1.002)) bad = 1 } END { exit bad || n != 4 }' "$T/out"; echo $?)" \
	"a Peak row per block: B's best over A's, wherever each lies"
narrow "$T/out" "shape 9"
check "shape 3: 'went from 300 to 601', a ratio" "$REAIM" compare k1:mix k2 --ratio
ok "$(grep -qE '^ +2 +[0-9.]+ +2 +[0-9.]+ +2 +[0-9]+\.[0-9]{3} ' "$T/out"; echo $?)" "B/A at each task count"
narrow "$T/out" "shape 3"
# shape 4: STP's Peak Load and Quick Convergence per kernel, a run of each mode (the I/O scheduler in the label)
for k in s5/deadline s5/as; do
	for mode in peak quick; do
		check "$k, --mode $mode" "$REAIM" -q --no-quiet-check -f "$T/mix" -j 2 -r 1 -d "$T/scratch" --mode $mode \
			--max-tasks 4 --label "$k"
	done
done
check "shape 4: each mode's best side by side" "$REAIM" list --modes --label s5/deadline
ok "$(grep -qE '^Label +Runs +Peak Load +Quick Convergence$' "$T/out"; echo $?)" "Peak Load beside Quick Convergence"
best=$("$REAIM" list --label s5/deadline 2>/dev/null | awk '$5 == "peak" { print $(NF - 1) }')
ok "$(grep -qE "^s5/deadline +[0-9]+,[0-9]+ +$best +[0-9.]+$" "$T/out"; echo $?)" \
	"a row per label: its runs, the peak run's best ($best, as list has it) and the quick run's"
narrow "$T/out" "shape 4"

check "--runs in compare's table" "$REAIM" compare k1:mix k2 --runs --stat median
ok "$(grep -qE '^ +#1 +[0-9.]+ +k1$' "$T/out"; echo $?)" "run 1's row, its figure and label"
contains "$T/out" "A med" "the column names the statistic"

finish
