#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Where reaim's run-to-run noise comes from: the compute mix at TASKS tasks, RUNS separate runs
# of each setting below, the settings' runs interleaved (a, b, c, a, b, c, ...), then each
# setting's median Jobs/Min and CV. A setting that removes a source of noise has a lower CV.
#   default     as shipped
#   seed        a new --seed every run (job orders differ between runs)
#   tmpfs       scratch on /dev/shm (no disk: file placement, writeback, journal)
#   nosync      --sync-mode none (no fsync at the disk tests' sync points)
#   drop        --drop-caches on before the point (root)
#   pin         --pin on
#   warmup      --warmup 1 (one unstored point first)
#   cpu         the compute mix's CPU-only tests (no disk, no IPC: no long and short tests of
#               different kinds mixed; different Jobs/Min, compare CVs only)
#   first/later -r 3 in one run: CV of the first points and of the later ones
# usage: bench/noise_sources.sh [RUNS] [JOBS] [TASKS] [DIR]   (needs sqlite3; root for drop)
#   SETTINGS: which settings (default all of the above); NICE: a prefix for every run;
#   QUIET=N: wait for a quiet moment (at most N runnable tasks) before each run.
set -eu
. "$(dirname "$0")/lib.sh"
noise_args "$@"
settings=${SETTINGS:-default seed tmpfs nosync drop pin warmup cpu repeat}
[ "$(id -u)" = 0 ] || settings=$(echo "$settings" | sed 's/drop//')
t=$(mktemp -d "$dir/reaim-sources.XXXXXX")
s=$(mktemp -d /dev/shm/reaim-sources.XXXXXX)
trap 'rm -rf "$t" "$s"' EXIT
grep -E '^[0-9]+ +(add_|div_|mul_|array_rtns|matrix_rtns|new_raph|num_rtns|series_|sieve|string_rtns|trig_rtns)' \
	"$top/workfiles/compute" >"$t/cpu"
wf="$top/workfiles/compute"

one() {
	d=$t
	[ "$1" = tmpfs ] && d=$s
	f=$wf
	[ "$1" = cpu ] && f=$t/cpu
	set -- "$1" -q -f "$f" -t "$tasks" -j "$jobs" -d "$d" --db "$t/$1.db" --label "$1"
	case $1 in
	seed) set -- "$@" --seed "$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')" ;;
	nosync) set -- "$@" --sync-mode none ;;
	drop) set -- "$@" --drop-caches on ;;
	pin) set -- "$@" --pin on ;;
	warmup) set -- "$@" --warmup 1 ;;
	repeat) set -- "$@" -r 3 ;;
	esac
	shift
	$nice "$reaim" $(no_quiet_check_flag "$reaim") "$@" >/dev/null
}

run_interleaved "$runs" "$settings" one

# Jobs/Min, and the tasks' CPU seconds per job: the second hardly moves with the machine's
# other load (a task waiting for a CPU uses none), so it isolates what changes the work itself.
printf '%-14s %4s %12s %7s %7s %12s %12s %10s %7s\n' setting points "median JPM" "CV %" "rCV %" min max "CPU ms/job" "CV %"
q="SELECT jobs_per_min, (user_s + sys_s) / (jobs_per_task * tasks) FROM points"
for x in $settings; do
	if [ "$x" = repeat ]; then
		sqlite3 -separator ' ' "$t/$x.db" "$q WHERE repeat = 0" | noise_row first 14 2
		sqlite3 -separator ' ' "$t/$x.db" "$q WHERE repeat > 0" | noise_row later 14 2
	else
		sqlite3 -separator ' ' "$t/$x.db" "$q" | noise_row "$x" 14 2
	fi
done
