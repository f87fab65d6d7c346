#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# In-run A/B variants and compare's statistics: two no-op variants are not flagged, a variant that
# starts CPU hogs is flagged slower with an interval that excludes 0, a failing variant command
# stops the run (exit 2, its output shown), a background process a command leaves is neither waited
# for nor killed; groups of runs as replicates with n, intervals and the Holm note, within 80
# columns; --precision rounds until the interval is narrow enough.
. "$(dirname "$0")/lib.sh"

# hogs are found by the pid file this test writes, never by name: other checkouts run tests too
hogs_off() {
	if [ -s "$T/hog.pids" ]; then
		# shellcheck disable=SC2046
		kill $(cat "$T/hog.pids") 2>/dev/null
	fi
	rm -f "$T/hog.pids"
}
trap 'hogs_off; rm -rf "$T"' EXIT
ncpu=$(nproc 2>/dev/null || echo 2)
[ "$ncpu" -gt 4 ] && ncpu=4
cat >"$T/hog_on.sh" <<EOF
#!/bin/sh
# one busy loop per CPU the tasks use, started once, left running in the background
[ -s "$T/hog.pids" ] && exit 0
i=0
while [ \$i -lt $ncpu ]; do
	sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
	echo \$! >>"$T/hog.pids"
	i=\$((i + 1))
done
EOF
cat >"$T/hog_off.sh" <<EOF
#!/bin/sh
[ -s "$T/hog.pids" ] && kill \$(cat "$T/hog.pids") 2>/dev/null
rm -f "$T/hog.pids"
exit 0
EOF
chmod +x "$T/hog_on.sh" "$T/hog_off.sh"
printf '10 add_int\n10 sieve\n' >"$T/cpu"
run() { "$REAIM" -f "$T/cpu" -d "$T/scratch" --sample-interval 0 --counters off --no-quiet-check "$@"; }

# two no-op variants: the same load twice. At --alpha 0.001 a false alarm is a 1-in-1000 event, so
# a failure here means the pairing is wrong, not bad luck.
check "two no-op variants" run -t "$ncpu" -j 8 -r 4 --label noop --variant a=true --variant b=true
cp "$T/out" "$T/noop.out"
# the gate passes only what its interval shows: 0, or 5 where 4 pairs cannot rule out 1 %; never 4
"$REAIM" compare noop --alpha 0.001 --fail-above 1 >"$T/out" 2>"$T/err"
rc=$?
ok "$([ $rc = 0 ] || [ $rc = 5 ]; echo $?)" "compare the no-op variants: no regression (exit $rc)"
ok "$(tr '\n' ' ' <"$T/out" | grep -q 'a paired t test'; echo $?)" "the variants are paired"
contains "$T/out" "A (base): variant a" "the first variant is the base"
ok "$(grep -Eq '^ +[0-9]+ .*[0-9]\*' "$T/out" && echo 1 || echo 0)" "no cell flagged significant"
# a 0.001 % threshold: never a regression (4); 5 unless a cell is significantly faster, whose interval rules out any drop
# (at --alpha 0.001 too: at the default 0.05 a no-op is judged significantly slower about once in 20)
"$REAIM" compare noop --alpha 0.001 --fail-above 0.001 >"$T/out" 2>"$T/err"
rc=$?
ok "$([ $rc = 5 ] || { [ $rc = 0 ] && grep -Eq '^ +[0-9]+ .*\+[0-9.]+% .*[0-9]\*' "$T/out"; }; echo $?)" \
	"the no-op variants cannot vouch for a 0.001 % threshold (exit $rc)"
grep -E '^ +[0-9]+ ' "$T/out" | sed 's/^/#   /'
"$REAIM" show noop | grep -v -e '^Run [0-9]' -e '^  ' -e '^Per test at the peak' >"$T/show"
ok "$(diff "$T/noop.out" "$T/show" >/dev/null; echo $?)" "show prints what the variant run printed"
contains "$T/show" "Variant b:" "summaries per variant"
status 0 "plot the variant run" "$REAIM" plot noop -o "$T/v.svg"
ok "$([ "$(grep -o 'class="series"' "$T/v.svg" | wc -l)" -eq 2 ] && echo 0 || echo 1)" "one curve per variant"

# a variant that starts a busy loop per CPU before each of its points (and the other stops them).
# A machine already running many times more processes than CPUs hides even that: a second run is
# made when the first is not judged slower, and only a machine that busy excuses two misses.
slower() {
	"$REAIM" compare "$1" --format json >"$T/hog.json" 2>/dev/null || return 1
	if command -v python3 >/dev/null 2>&1; then
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "variants" and d["correction"] == "holm", d
r = d["rows"][0]
assert r["paired"] and r["n_base"] == 6 and r["significant"], r
assert r["pct"] < -10 and r["ci_low_pct"] < r["pct"] < r["ci_high_pct"] < 0, r
' "$T/hog.json" 2>/dev/null
	else
		# one cell: significant after Holm is an interval that excludes 0
		"$REAIM" compare "$1" | grep -Eq '^ +[0-9]+ +[0-9.]+ +6 +[0-9.]+ +6 +-[0-9.]+% .*[0-9]\*'
	fi
}
label=
for attempt in 1 2; do
	check "a variant with CPU hogs (run $attempt)" run -t "$ncpu" -j 8 -r 6 --label "hog$attempt" \
		--variant "none=$T/hog_off.sh" --variant "hog=$T/hog_on.sh"
	hogs_off
	if slower "hog$attempt"; then
		label=hog$attempt
		break
	fi
done
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
if [ -n "$label" ]; then
	ok 0 "the hog variant significantly slower, its interval below 0 ($label)"
elif awk -v l="$load" -v n="$ncpu" 'BEGIN { exit !(l > 3 * n) }'; then
	echo "ok $((n = n + 1)) - the hog variant significantly slower # SKIP the machine is too busy (load $load on $ncpu CPUs)"
else
	ok 1 "the hog variant significantly slower, its interval below 0 (load $load)"
fi
if have "the variants' order in SQLite" sqlite3; then
	order=$(sqlite3 "$REAIM_DB" "SELECT group_concat(variant, '') FROM (SELECT p.variant FROM points p
		JOIN runs r ON r.id = p.run_id WHERE r.label = 'hog1' ORDER BY p.id)")
	ok "$([ "$order" = "nonehoghognonenonehoghognonenonehoghognone" ] && echo 0 || echo 1)" \
		"counterbalanced order A B B A A B ... ($order)"
fi
if [ -n "$label" ]; then
	status 4 "compare: the hog variant is a regression beyond 10%" "$REAIM" compare "$label" --fail-above 10
	sed 's/^/#   /' "$T/out" | grep -A4 '^#   Workload'
fi

# a failing command stops the run with its status and output
status 2 "a failing variant command exits 2" run -t 1 -j 2 --label broken --variant a=true \
	--variant 'b=echo broken-setup-output >&2; exit 3'
contains "$T/err" "broken-setup-output" "its output is shown"
contains "$T/err" "exited with status 3" "its exit status is named"
status 0 "the run is stored as failed" "$REAIM" show broken
contains "$T/out" "variant b: command" "with the reason"

# a background process a command leaves: not waited for (even through a pipe), not killed
start=$(date +%s)
run -q -t 1 -j 2 --label bg --variant a=true --variant "b=sleep 7 & echo \$! >$T/sleep.pid" | cat >/dev/null
took=$(($(date +%s) - start))
ok "$([ "$took" -lt 6 ] && echo 0 || echo 1)" "the run does not wait for it (${took}s)"
ok "$(kill -0 "$(cat "$T/sleep.pid")" 2>/dev/null; echo $?)" "and leaves it running"
kill "$(cat "$T/sleep.pid")" 2>/dev/null

# variants and --precision come from suites too, and only in sweep mode
printf 'workfile = "%s";\ntasks = [1];\nvariant = ["x=true", "y=true"];\n' "$T/cpu" >"$T/v.cfg"
status 0 "a suite's variant list" "$REAIM" -s "$T/v.cfg" --dry-run
contains "$T/out" "x 2 variants" "the plan counts the variants"
status 1 "variants in peak mode are refused" "$REAIM" -s "$T/v.cfg" --mode peak --dry-run
status 1 "a variant without NAME=" run -t 1 --variant nonsense --dry-run
status 1 "a variant named twice" run -t 1 --variant a=true --variant a=false --dry-run

# --precision: at least 3 rounds, at most --max-repeat, the interval reached printed and stored
check "--precision" run -t 1 -j 4 --precision 100 --max-repeat 5 --label prec
contains "$T/out" "Precision asked" "the precision table"
cp "$T/out" "$T/prec.out"
"$REAIM" show prec | grep -v -e '^Run [0-9]' -e '^  ' -e '^Per test at the peak' >"$T/show"
ok "$(diff "$T/prec.out" "$T/show" >/dev/null; echo $?)" "show prints the precision reached as the run did"
if have "the rounds in SQLite" sqlite3; then
	np=$(sqlite3 "$REAIM_DB" "SELECT COUNT(*) FROM run_points WHERE label = 'prec'")
	ok "$([ "$np" -ge 3 ] && [ "$np" -le 5 ] && echo 0 || echo 1)" "3 to 5 rounds ($np)"
fi

# groups: runs are the replicates
for l in ga ga gb gb; do
	run -q -t 1,2 -j 4 -r 2 --label $l >/dev/null 2>&1
done
status 0 "compare two groups of two runs (labels)" "$REAIM" compare ga gb
cp "$T/out" "$T/groups.txt"
ok "$([ "$(sed -n '/^Workload/q;p' "$T/out" | wc -l)" -le 8 ]; echo $?)" "the table first: a few lines before it"
ok "$(tr '\n' ' ' <"$T/out" | grep -q 'Holm over the 2 cells compared'; echo $?)" "the correction, in short"
status 0 "compare -v: every column explained before the table" "$REAIM" compare ga gb -v
contains "$T/out" "runs are the replicates" "says what a sample is"
contains "$T/out" "Holm's method over the" "the correction note"
contains "$T/out" "A (base): ga, runs " "a label stands for all its runs"
ok "$(grep -Eq '^ +1 +[0-9.]+ +2 +[0-9.]+ +2 .*(\[.*%\]|unbounded)' "$T/out"; echo $?)" \
	"a row with n 2 and 2 and its interval (or: unbounded)"
ok "$(awk 'length > 80 { bad = 1 } END { exit bad }' "$T/out"; echo $?)" \
	"no line over 80 columns$(awk 'length > 80 { printf " (%d: %s)", length, $0 }' "$T/out")"
ids=$(sqlite3 "$REAIM_DB" "SELECT group_concat(id) FROM runs WHERE label = 'ga'" 2>/dev/null)
if [ -n "$ids" ]; then
	ids_b=$(sqlite3 "$REAIM_DB" "SELECT group_concat(id) FROM runs WHERE label = 'gb'")
	status 0 "the same groups by id" "$REAIM" compare "$ids" "$ids_b"
	ok "$(diff "$T/out" "$T/groups.txt" >/dev/null; echo $?)" "prints the same"
fi
status 1 "one group alone has nothing to compare with" "$REAIM" compare ga
status 1 "a run on both sides" "$REAIM" compare ga ga
status 0 "Benjamini-Hochberg instead" "$REAIM" compare ga gb --correction bh
contains "$T/out" "Benjamini-Hochberg over" "and says so"
finish
