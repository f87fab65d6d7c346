#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An I/O-scheduler A/B and the counters that moved with it: a loop device of its own (a file
# here, direct I/O to it) with an ext4 on it, the disk mix at TASKS tasks in two in-run variants
# that set the loop device's scheduler before each point (A B B A ...), then
# `reaim compare RUN --counters`: per job, the device's diskstats (merges, times), the writeback
# (vmstat) and block softirqs that moved. Root only; the device is detached at exit.
# usage: bench/iosched_counters.sh [ROUNDS] [TASKS] [JOBS] [SCHED_A] [SCHED_B]
set -eu
. "$(dirname "$0")/lib.sh"
rounds=${1:-10}
tasks=${2:-4}
jobs=${3:-20}
sched_a=${4:-none}
sched_b=${5:-bfq}
[ "$(id -u)" = 0 ] || { echo "$0: needs root (losetup, mount)" >&2; exit 1; }
bench_dir iosched
dev=""
mnt=$t/mnt
cleanup() {
	if [ -n "$dev" ]; then
		umount "$mnt" 2>/dev/null || :
		losetup -d "$dev" || :
	fi
	rm -rf "$t"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
truncate -s 1G "$t/disk.img"
dev=$(losetup --direct-io=on --find --show "$t/disk.img")
queue=/sys/block/${dev##*/}/queue
for s in "$sched_a" "$sched_b"; do
	grep -qw -- "$s" "$queue/scheduler" || { echo "$0: ${dev##*/} has no scheduler $s: $(cat "$queue/scheduler")" >&2; exit 1; }
done
mkfs.ext4 -q "$dev"
mkdir "$mnt"
mount "$dev" "$mnt"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); ${dev##*/} ($(cat "$queue/scheduler"))"
$nice "$reaim" run -q $(no_quiet_check_flag "$reaim") -f disk -t "$tasks" -j "$jobs" -r "$rounds" \
	-d "$mnt" --db "$t/bench.db" --label iosched \
	--variant "$sched_a=echo $sched_a > $queue/scheduler" --variant "$sched_b=echo $sched_b > $queue/scheduler" \
	>"$t/run.out" 2>&1 || { cat "$t/run.out"; exit 1; }
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
"$reaim" compare 1 --db "$t/bench.db" | grep -E '^ *Tasks|^ +[0-9]+ '
"$reaim" compare 1 --counters --db "$t/bench.db"
