#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A true change beside busy neighbours: the verdict must find it, never adjust it away. Two CPU-bound
# neighbours (`while :; do :; done`) run through every side. Per cap in CAPS (% of one CPU):
#   baseN   RUNS runs of the compute mix, uncapped
#   capN    RUNS runs inside a v1 cpu cgroup capped at N % of one CPU (a real 2-10x slowdown),
#           interleaved with baseN's (baseN capN capN baseN ...)
# then `reaim compare baseN capN` with --fail-above FAIL and with a bare --bisect. Then the other half,
# three sides interleaved (one aa ab, RUNS times):
#   one     a third neighbour beside this side only, no change of the run, against aa: never
#           slower, never exit 4
#   ab      uncapped runs against aa (A/A): false alarms at most 5 % of cells
# Per comparison, a table per side: others' demand (runnable threads not the run's, % of the CPUs,
# measured before and after each point: the verdict's covariate) against the CPU others used during
# the points (the old covariate, which the run's own slowdown moves), the change raw and as judged,
# the states and the gates' exits, and what the old covariate (the CPU others used, which the run's
# own slowdown moves) would have judged on the same runs. Needs root and a v1 cpu hierarchy (else it says so and exits 0).
# Every neighbour and the cgroup are removed at exit; KEEP=1 keeps the database.
# usage: bench/true_change.sh [RUNS] [JOBS] [TASKS] [FAIL] [CAPS]
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-3}
jobs=${2:-20}
tasks=${3:-1,2}
fail=${4:-20}
caps=${5:-10 25 50}
v1=/sys/fs/cgroup/cpu
if [ "$(id -u)" != 0 ] || [ ! -w "$v1/cgroup.procs" ] || [ ! -e "$v1/cpu.cfs_quota_us" ]; then
	echo "true_change: needs root and a v1 cpu hierarchy at $v1 to cap a run: nothing measured"
	exit 0
fi
bench_dir true-change
cg=$v1/reaim-true-change-$$
hogs=""
cleanup() {
	for p in $hogs; do kill "$p" 2>/dev/null || :; done
	for p in $hogs; do wait "$p" 2>/dev/null || :; done
	if [ -d "$cg" ]; then
		while read -r p; do echo "$p" >"$v1/cgroup.procs" 2>/dev/null || :; done <"$cg/cgroup.procs"
		rmdir "$cg" 2>/dev/null || :
	fi
	if [ -n "${KEEP:-}" ]; then echo "kept: $t/bench.db"; else rm -rf "$t"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
hog() { sh -c 'while :; do :; done' & hogs="$hogs $!"; }
mkdir "$cg"
period=$(cat "$cg/cpu.cfs_period_us")

one_run() { # LABEL [capped]: one run of the mix, inside the capped cgroup when asked
	cap_into=
	[ -n "${2:-}" ] && cap_into=$cg
	sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit 1; shift; exec "$@"' run "$cap_into" \
		"$reaim" run -q $(no_quiet_check_flag "$reaim") -f compute -t "$tasks" -j "$jobs" -d "$t" \
		--db "$t/bench.db" --label "$1" >"$t/run.out" 2>&1 || { echo "run $1 failed:"; cat "$t/run.out"; exit 1; }
}

# compare's JSON of BASE against OTHER: per side the demand and the CPU used by others, the changes
report() { # BASE OTHER
	set +e
	"$reaim" compare "$1" "$2" --db "$t/bench.db" --fail-above "$fail" --format json >"$t/cmp.json" 2>"$t/gate.err"
	gate=$?
	"$reaim" compare "$1" "$2" --db "$t/bench.db" --bisect >/dev/null 2>"$t/bisect.err"
	bisect=$?
	set -e
	for side in "$1" "$2"; do
		sqlite3 -separator ' ' "$t/bench.db" "SELECT p.tasks, printf('%.0f', avg(p.others_demand_pct)),
			printf('%.0f', min(p.others_demand_pct)), printf('%.0f', max(p.others_demand_pct)),
			printf('%.0f', avg(p.outside_cpu_pct)), printf('%.0f', min(p.outside_cpu_pct)),
			printf('%.0f', max(p.outside_cpu_pct)), printf('%.1f', avg(p.jobs_per_min))
			FROM points p JOIN runs r ON r.id = p.run_id WHERE r.label = '$side' AND p.valid
			GROUP BY p.tasks ORDER BY p.tasks" |
			while read -r k dm dlo dhi um ulo uhi jpm; do
				printf '  %-7s %5s %10s %4s-%-4s %10s %4s-%-4s %10s\n' "$side" "$k" "$dm" "$dlo" "$dhi" "$um" "$ulo" "$uhi" "$jpm"
			done
	done
	python3 - "$t/cmp.json" "$gate" "$bisect" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
for r in m["rows"]:
    print("  %d tasks: raw %+.1f %%, judged %+.1f %% (%s, %s), state %s" % (r["tasks"], r["raw_pct"] or 0,
          r["pct"] or 0, r.get("pct_kind", "?"), r["load_model"], r["state"]))
print("  --fail-above: exit %s; bare --bisect: exit %s" % (sys.argv[2], sys.argv[3]))
EOF
	tail -n 1 "$t/gate.err" | sed 's/^/  /'
	tail -n 1 "$t/bisect.err" | sed 's/^/  /'
	# the old covariate on the same runs: the CPU others used during the points in the demand's place
	cp "$t/bench.db" "$t/old.db"
	sqlite3 "$t/old.db" "UPDATE points SET others_demand_pct = outside_cpu_pct"
	set +e
	"$reaim" compare "$1" "$2" --db "$t/old.db" --fail-above "$fail" --format json >"$t/old.json" 2>/dev/null
	old_gate=$?
	set -e
	python3 - "$t/old.json" "$old_gate" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
print("  old covariate (CPU others used): " + "; ".join("%d tasks %+.1f %% %s" % (r["tasks"], r["pct"] or 0, r["state"])
      for r in m["rows"]) + "; --fail-above: exit %s" % sys.argv[2])
EOF
	rm -f "$t/old.db"
}
header() {
	printf '  %-7s %5s %10s %9s %10s %9s %10s\n' side tasks "demand %" range "used %" range Jobs/Min
}

hog
hog
echo "$(nproc) CPUs, two CPU-bound neighbours throughout; $runs runs a side, -j $jobs, tasks $tasks"
echo "demand: others' runnable threads, % of the CPUs, while the run was idle (the verdict's covariate)"
echo "used:   CPU others used during the points, % of the machine (what the run left them; describes only)"
for cap in $caps; do
	echo $((period * cap / 100)) >"$cg/cpu.cfs_quota_us"
	for i in $(seq "$runs"); do
		if [ $((i % 2)) = 1 ]; then one_run "base$cap"; one_run "cap$cap" capped; else one_run "cap$cap" capped; one_run "base$cap"; fi
	done
	echo
	echo "B capped at $cap % of one CPU:"
	header
	report "base$cap" "cap$cap"
done
echo
echo "a third neighbour beside one side only (no change of the run):"
for i in $(seq "$runs"); do
	hog
	one_run one
	last=${hogs##* }
	kill "$last"
	wait "$last" 2>/dev/null || :
	hogs=${hogs% *}
	one_run aa
	one_run ab
done
header
report aa one
echo
echo "A/A beside the neighbours:"
header
report aa ab
