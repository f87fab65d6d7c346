#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Outside load: a CPU hog this test starts beside the run is named by the quiet check, refused by
# --require-quiet, reported on every point and marks each noisy in show and the exports; the
# point's cgroup CPU agrees with wait4's.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n10 add_float\n' >"$T/cpu"

# the hog: a busy shell loop under a name of its own, so the quiet check can be seen naming it
cp "$(command -v sh)" "$T/reaimhog"
"$T/reaimhog" -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null; rm -rf "$T"' EXIT
sleep 0.3

status 2 "--require-quiet refuses to start while the hog runs" "$REAIM" -f "$T/cpu" -t 1 -j 5 -d "$T/scratch" \
	--require-quiet --label refused
contains "$T/err" "not quiet" "... saying the machine is not quiet"
contains "$T/err" "reaimhog" "... naming the hog"
ok "$([ -e "$REAIM_DB" ] && echo 1 || echo 0)" "... before anything is stored"

status 0 "a run beside the hog, noise limit 5 %" "$REAIM" -f "$T/cpu" -t 1,2 -j 30 -d "$T/scratch" --noise-limit 5 \
	--label hogged
cp "$T/out" "$T/run.out"
cp "$T/err" "$T/run.err"
contains "$T/run.err" "busy before the run" "the quiet check warns"
contains "$T/run.err" "reaimhog" "... naming the hog"
contains "$T/run.err" "accounting: " "the accounting is said once, at the start"
ok "$([ "$(grep -c 'accounting: ' "$T/run.err")" -eq 1 ] && echo 0 || echo 1)" "... only once"
# a DAMON monitor is stored as a fact of the machine, and said at the start of a run that
# reaches 1000 tasks, where its checks of pages every task maps start to cost
ok "$(grep -q 'DAMON is on' "$T/run.err" && echo 1 || echo 0)" "no DAMON note for a run of at most 2 tasks"
printf '10 matrix_rtns\n' >"$T/trivial"
status 0 "a run of 1000 trivial tasks" "$REAIM" -f "$T/trivial" -t 1000 -j 1 -d "$T/scratch" --no-quiet-check \
	--label thousand
"$REAIM" show -v thousand >"$T/show" 2>&1
damon=$(sed -n 's/^ *mm\.damon  *//p' "$T/show")
if [ -n "$damon" ] && [ "$damon" != off ]; then
	contains "$T/err" "note: DAMON is on ($damon)" "a running DAMON monitor is said at the start of it"
else
	ok "$(grep -q 'DAMON is on' "$T/err" && echo 1 || echo 0)" "no DAMON note where none runs (mm.damon: ${damon:-absent})"
fi

# the figures of every point, from the JSON export (one point a line)
"$REAIM" export hogged --format json >"$T/json"
fig() {
	grep '^{"workload"' "$T/json" | sed -n "s/.*\"$1\": \([^,}]*\).*/\1/p"
}
fig outside_cpu_pct >"$T/outside"
sed 's/^/# outside_cpu_pct /' "$T/outside"
ok "$([ "$(wc -l <"$T/outside")" -eq 2 ] && echo 0 || echo 1)" "two points with an outside share"
ok "$(awk '!($1 >= 15) { bad = 1 } END { exit bad }' "$T/outside"; echo $?)" "the hog is seen on every point (15 % or more)"
ok "$([ "$(fig noisy | grep -c true)" -eq 2 ] && echo 0 || echo 1)" "every point is stored noisy"
# others' demand, measured while the run was idle: the hog is one runnable thread of N CPUs
fig others_demand_pct >"$T/demand"
sed 's/^/# others_demand_pct /' "$T/demand"
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
ok "$(awk -v least="$((60 / cpus))" 'NF == 0 || !($1 >= least) { bad = 1 } END { exit bad || NR != 2 }' "$T/demand"; echo $?)" \
	"the hog is seen as others' demand on every point ($((60 / cpus)) % of the CPUs or more)"
ok "$(fig io_write_kbs | grep -cv '^[0-9.e+-]*$' | grep -q '^0$'; echo $?)" "the tasks' own writes a second are stored"
status 0 "the tasks' own writes a second are a metric" "$REAIM" plot hogged --metric io_write_kbs -o "$T/io.svg"
contains "$T/io.svg" "Run&#39;s own disk writes KB/s" "named as the run's own"
ok "$([ "$(fig valid | grep -c true)" -eq 2 ] && echo 0 || echo 1)" "... and still valid"
ok "$([ "$(grep -c 'noisy: outside load [0-9.]* % of the machine' "$T/run.out")" -eq 2 ] && echo 0 || echo 1)" \
	"the run's rows say noisy, with the figure"
contains "$T/run.out" "Noisy: 2 of 2 valid points" "the block's summary counts them"
"$REAIM" show hogged >"$T/show"
ok "$([ "$(grep -c 'noisy: outside load [0-9.]* % of the machine' "$T/show")" -eq 2 ] && echo 0 || echo 1)" \
	"show says so on every row"
"$REAIM" export hogged --format csv >"$T/csv"
ok "$([ "$(grep -c ',"\{0,1\}outside load [0-9.]* % of the machine[,;]' "$T/csv")" -eq 2 ] && echo 0 || echo 1)" \
	"the CSV export names the noise"
check "plot" "$REAIM" plot hogged -o "$T/plot.svg"
ok "$([ "$(grep -c 'class="noisy"' "$T/plot.svg")" -eq 2 ] && echo 0 || echo 1)" "plot rings both noisy points"
contains "$T/plot.svg" "Noisy (dashed rings): 2 points, e.g. outside load" "plot names the noise with its figure"
"$REAIM" show hogged -v >"$T/showv"
contains "$T/showv" "outside the run: CPU" "show -v gives the outside figures"

# cgroup CPU against wait4 CPU, where this machine lets reaim make cgroups
if grep -q 'accounting: cgroup v2' "$T/run.err"; then
	fig cpu_s >"$T/w4"
	fig cgroup_cpu_s >"$T/cg"
	paste "$T/w4" "$T/cg" | sed 's/^/# wait4, cgroup CPU: /'
	# within 2 % or 5 ms: points here are 0.2-0.4 s of CPU, and a loaded machine moved them past 2 % alone
	ok "$(paste "$T/w4" "$T/cg" | awk '{ d = $2 - $1; if (d < 0) d = -d; if (!($1 > 0) || d > 0.02 * $1 + 0.005) bad = 1 }
		END { exit bad + (NR != 2) }'; echo $?)" "cgroup CPU and wait4 CPU agree within 2 % (or 5 ms) on every point"
	ok "$(fig psi_cpu_some_pct | awk '!($1 >= 0 && $1 <= 100) { bad = 1 } END { exit bad }'; echo $?)" \
		"CPU pressure of every point is a share"
	contains "$T/showv" "cgroup: CPU" "show -v gives the cgroup figures"
else
	reason=$(sed -n 's/.*accounting: //p' "$T/run.err")
	echo "ok $((n + 1)) # SKIP cgroup CPU against wait4: $reason"
	n=$((n + 1))
fi

status 0 "a noise limit of 100 % never marks a point" "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 5 -d "$T/scratch" \
	--noise-limit 100 --label limit100
"$REAIM" export limit100 --format json >"$T/json"
ok "$([ "$(fig noisy | grep -c false)" -eq 1 ] && echo 0 || echo 1)" "... not noisy"
finish
