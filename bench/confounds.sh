#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The verdict against the machine. RUNS runs a side of the compute mix, one side after another, as a
# user compares two kernels by hand:
#   quiet, quiet2   nothing added (an A/A pair)
#   hog, hog2       the same binary and settings beside an intermittent CPU hog (no real change;
#                   an A/A pair under the hog)
#   cap             beside the same hog and inside a v1 cpu cgroup capped at 90 % of the machine
#                   (a real slowdown where the tasks could use more than that), when root can make one
# then `reaim compare` of quiet against each, and of the A/A pairs, with --fail-above FAIL: per
# comparison the cells by state (slower, faster, within, not detected, confounded, not judged) and
# the gate's exit status. The goals: quiet against hog, no cell slower and no exit 4; quiet against
# cap, slower or confounded, never faster, never 0; the A/A pairs, at most 5 % of cells significant.
# The hog spins HOG_ON seconds and sleeps HOG_OFF on one CPU, so its share of each point varies.
# Every hog and the cgroup are removed at exit; KEEP=1 keeps the database.
# usage: bench/confounds.sh [RUNS] [JOBS] [TASKS] [FAIL]
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-3}
jobs=${2:-40}
tasks=${3:-1,2,4}
fail=${4:-5}
hog_on=${HOG_ON:-1.5}
hog_off=${HOG_OFF:-1}
bench_dir confounds
flag=$t/hog-on
cg=
hog_pid=
cleanup() {
	rm -f "$flag"
	[ -n "$hog_pid" ] && { kill "$hog_pid" 2>/dev/null || :; wait "$hog_pid" 2>/dev/null || :; }
	if [ -n "$cg" ] && [ -d "$cg" ]; then
		while read -r p; do echo "$p" >/sys/fs/cgroup/cpu/cgroup.procs 2>/dev/null || :; done <"$cg/cgroup.procs"
		rmdir "$cg" 2>/dev/null || :
	fi
	if [ -n "${KEEP:-}" ]; then echo "kept: $t/bench.db"; else rm -rf "$t"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# one hog: spins while the flag exists, for hog_on seconds, then sleeps hog_off
sh -c 'while :; do
	if [ -e "$1" ]; then timeout "$2" sh -c "while :; do :; done" || :; sleep "$3"; else sleep 0.1; fi
done' hog "$flag" "$hog_on" "$hog_off" &
hog_pid=$!

side() { # LABEL [hog] [cap]
	label=$1
	shift
	case " $* " in *" hog "*) touch "$flag" ;; *) rm -f "$flag" ;; esac
	prefix=
	case " $* " in *" cap "*) [ -n "$cg" ] && prefix="cap" ;; esac
	for _ in $(seq "$runs"); do
		if [ -n "$prefix" ]; then
			sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' cap "$cg" \
				"$reaim" run -q $(no_quiet_check_flag "$reaim") -f compute -t "$tasks" -j "$jobs" -d "$t" \
				--db "$t/bench.db" --label "$label" >"$t/run.out" 2>&1 || { cat "$t/run.out"; exit 1; }
		else
			"$reaim" run -q $(no_quiet_check_flag "$reaim") -f compute -t "$tasks" -j "$jobs" -d "$t" \
				--db "$t/bench.db" --label "$label" >"$t/run.out" 2>&1 || { cat "$t/run.out"; exit 1; }
		fi
	done
	rm -f "$flag"
}

if [ "$(id -u)" = 0 ] && [ -w /sys/fs/cgroup/cpu/cgroup.procs ] && [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	cg=/sys/fs/cgroup/cpu/reaim-confounds-$$
	mkdir "$cg"
	period=$(cat "$cg/cpu.cfs_period_us")
	echo $((period * $(nproc) * 9 / 10)) >"$cg/cpu.cfs_quota_us"
fi

echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $runs runs a side, -j $jobs, tasks $tasks"
side quiet
side hog hog
side quiet2
side hog2 hog
[ -n "$cg" ] && side cap hog cap

# the states of a comparison's cells and its gate, from compare's JSON
judge() { # BASE OTHER
	set +e
	"$reaim" compare "$1" "$2" --db "$t/bench.db" --fail-above "$fail" --format json >"$t/cmp.json" 2>"$t/cmp.err"
	rc=$?
	set -e
	python3 - "$t/cmp.json" "$1" "$2" "$rc" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
states = {}
for r in m["rows"]:
    states[r["state"]] = states.get(r["state"], 0) + 1
def rng(l):
    return "-" if l is None else "%.0f-%.0f" % (l["min"], l["max"])
loads = ", ".join("%d: %s -> %s %s" % (r["tasks"], rng(r["load_base"]), rng(r["load_other"]), r["load_model"])
                  for r in m["rows"])
raw = ", ".join("%d: %+.1f%% raw, %+.1f%% judged" % (r["tasks"], r["raw_pct"] or 0, r["pct"] or 0) for r in m["rows"])
print("%-7s vs %-7s exit %s  %s" % (sys.argv[2], sys.argv[3], sys.argv[4],
      ", ".join("%s %d" % kv for kv in sorted(states.items()))))
print("    outside load %s" % loads)
print("    change %s" % raw)
EOF
}
echo "compare --fail-above $fail: cells by state, the gate's exit (0 pass, 4 fail, 5 cannot vouch)"
judge quiet hog
judge quiet quiet2
judge hog hog2
[ -n "$cg" ] && judge quiet cap
:
