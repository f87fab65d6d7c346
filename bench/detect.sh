#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Time to detect a CPU slowdown: the tasks of a run lose SLOW % of their CPU bandwidth (a CFS
# quota on a cgroup the whole run sits in: cpu.max in cgroup v2, cpu.cfs_quota_us in v1) and we
# ask how much machine time reaim needs before `reaim compare` calls it, at 95 % (Holm), slower.
#
#  - variants: one run, `--variant base=... --variant slow=...`, the quota set before each
#    point; R rounds, R growing. Detected when the slow variant's cell is significant and lower.
#  - runs: separate runs, base and slow alternating, compared as groups (runs as replicates),
#    n runs a side, n growing.
# For each way and each size, REPS tries: the share detected and the median wall time of a try.
# The smallest size detected in every try is the time to detect.
# Needs root and a cpu controller (v2 cpu.max, or a v1 cpu hierarchy).
# The slowdown only binds while the tasks could use all TASKS CPUs: on a busy machine it hides in the
# outside load (and the points say noisy). KEEP=1 keeps the database.
# usage: bench/detect.sh [REPS] [TASKS] [JOBS] [SLOW_PCT] [ROUNDS_LIST] [RUNS_LIST]
set -eu
. "$(dirname "$0")/lib.sh"
reps=${1:-3}
tasks=${2:-2}
jobs=${3:-40}
slow=${4:-5}
rounds_list=${5:-2 3 4 6 8}
runs_list=${6:-2 3 4 6}
t=$(mktemp -d "${TMPDIR:-/tmp}/reaim-detect.XXXXXX")
cg=

# the cgroup the run sits in, and how its quota is written
if [ "$(id -u)" != 0 ]; then
	echo "detect.sh: needs root to set a CPU quota" >&2
	exit 1
fi
if grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	cg=/sys/fs/cgroup/reaim-detect-$$
	echo +cpu >/sys/fs/cgroup/cgroup.subtree_control
	mkdir "$cg"
	file=cpu.max per=" 100000" unlimited=max home=/sys/fs/cgroup
elif [ -d /sys/fs/cgroup/cpu ]; then
	cg=/sys/fs/cgroup/cpu/reaim-detect-$$
	mkdir "$cg"
	echo 100000 >"$cg/cpu.cfs_period_us"
	file=cpu.cfs_quota_us per= unlimited=-1 home=/sys/fs/cgroup/cpu
else
	echo "detect.sh: no cpu controller (cgroup v2 cpu.max or v1 cpu)" >&2
	exit 1
fi
cleanup() {
	echo $$ >"$home/cgroup.procs" 2>/dev/null || true
	rmdir "$cg" 2>/dev/null || true
	if [ -n "${KEEP:-}" ]; then echo "kept $t (its database: $t/d.db)"; else rm -rf "$t"; fi
}
trap cleanup EXIT
echo $$ >"$cg/cgroup.procs" # reaim and every task it forks inherit it
# the quota that takes SLOW % from TASKS busy CPUs, per 100 ms period
limited=$((tasks * 100000 * (100 - slow) / 100))
quota() { echo "$1$per" >"$cg/$file"; }
# the variants' commands: reaim runs one before each point of its variant
printf '#!/bin/sh\necho "%s%s" >%s\n' "$unlimited" "$per" "$cg/$file" >"$t/base.sh"
printf '#!/bin/sh\necho "%s%s" >%s\n' "$limited" "$per" "$cg/$file" >"$t/slow.sh"
chmod +x "$t/base.sh" "$t/slow.sh"
quota "$unlimited"

db="$t/d.db"
run() {
	"$reaim" -q --no-quiet-check -s all_utime -t "$tasks" -j "$jobs" -d "$t" --db "$db" "$@" >/dev/null
}
now() { date +%s.%N; }
# tally START COMPARE_ARGS...: record the try's machine time since START (the runs, not the
# compare), compare, and count a hit when the cell is significant and lower
tally() {
	awk -v s="$1" -v e="$(now)" 'BEGIN { print e - s }' >>"$t/times"
	shift
	"$reaim" compare "$@" --db "$db" --format csv >"$t/c.csv"
	hits=$((hits + $(compare_cells "$t/c.csv" | awk '$1 == "yes" && $2 < 0 { d = 1 } END { print d + 0 }')))
}

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); all_utime mix, $tasks tasks," \
	"$jobs jobs per task, a $slow % CPU slowdown (quota $limited of $((tasks * 100000)) us per 100 ms)"
echo "way       size  detected  median s  (wall time of one try)"
id=0
for r in $rounds_list; do
	hits=0
	: >"$t/times"
	i=0
	while [ "$i" -lt "$reps" ]; do
		id=$((id + 1))
		s=$(now)
		run -r "$r" --label "v$id" --variant "base=$t/base.sh" --variant "slow=$t/slow.sh"
		tally "$s" "v$id"
		i=$((i + 1))
	done
	printf 'variants  %2d rounds  %d of %d  %8.1f\n' "$r" "$hits" "$reps" "$(median <"$t/times")"
done
for n in $runs_list; do
	hits=0
	: >"$t/times"
	i=0
	while [ "$i" -lt "$reps" ]; do
		a= b=
		s=$(now)
		k=0
		while [ "$k" -lt "$n" ]; do # base and slow alternate, so drift falls on both
			id=$((id + 1))
			quota "$unlimited"
			run --label "b$id"
			quota "$limited"
			run --label "s$id"
			a="${a:+$a,}b$id"
			b="${b:+$b,}s$id"
			k=$((k + 1))
		done
		quota "$unlimited"
		tally "$s" "$a" "$b"
		i=$((i + 1))
	done
	printf 'runs      %2d a side  %d of %d  %8.1f\n' "$n" "$hits" "$reps" "$(median <"$t/times")"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
