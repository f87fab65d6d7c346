#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What the kernel's counters say about a CPU hog: the compute mix at TASKS tasks with two in-run
# variants, "quiet" and "hog", paired round by round (A B B A ...). HOGS shell loops run for the
# whole script and work only while a flag file exists, which the "hog" variant's command makes and
# the "quiet" one removes, so the hog is beside exactly half the rounds. Then
# `reaim compare RUN --counters`: the counters that moved with Jobs/Min, per job. A hog spins a
# few milliseconds and sleeps 5: with one task a CPU, its wake-ups preempt the tasks (perf
# context-switches) and the CPU it leaves idle pulls them over (perf cpu-migrations; a hog that
# never sleeps leaves no CPU idle, and the tasks stay put). Every hog is killed at exit.
# usage: bench/hog_counters.sh [ROUNDS] [TASKS] [JOBS] [HOGS]
set -eu
. "$(dirname "$0")/lib.sh"
rounds=${1:-12}
tasks=${2:-2}
jobs=${3:-400}
hogs=${4:-$(($(nproc) + 1))}
bench_dir hog
flag=$t/hog-on
hog_pids=
cleanup() {
	for p in $hog_pids; do kill "$p" 2>/dev/null || :; done
	for p in $hog_pids; do wait "$p" 2>/dev/null || :; done
	rm -rf "$t"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$hogs"); do
	sh -c 'while :; do
		if [ -e "$1" ]; then i=0; while [ $i -lt 10000 ]; do i=$((i + 1)); done; sleep 0.005; else sleep 0.05; fi
	done' hog "$flag" &
	hog_pids="$hog_pids $!"
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $hogs hogs on $(nproc) CPUs"
$nice "$reaim" run -q $(no_quiet_check_flag "$reaim") -f compute -t "$tasks" -j "$jobs" -r "$rounds" \
	-d "$t" --db "$t/bench.db" --label hog --variant quiet="rm -f '$flag'" --variant hog="touch '$flag'" \
	>"$t/run.out" 2>&1 || { cat "$t/run.out"; exit 1; }
rm -f "$flag"
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
"$reaim" compare 1 --db "$t/bench.db" | grep -E '^ *Tasks|^ +[0-9]+ '
"$reaim" compare 1 --counters --db "$t/bench.db"
