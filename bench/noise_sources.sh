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
runs=${1:-7}
jobs=${2:-100}
tasks=${3:-2}
dir=${4:-/var/tmp}
top=$(cd "$(dirname "$0")/.." && pwd)
reaim=${REAIM:-$top/reaim}
nice=${NICE:-}
# the quiet check a run makes first (a second of watching the machine) is outside what these
# scripts time; a binary from before it has no such flag
no_qc() { "$1" run --help 2>&1 | grep -q -- --no-quiet-check && echo --no-quiet-check || true; }
settings=${SETTINGS:-default seed tmpfs nosync drop pin warmup cpu repeat}
[ "$(id -u)" = 0 ] || settings=$(echo "$settings" | sed 's/drop//')
t=$(mktemp -d "$dir/reaim-sources.XXXXXX")
s=$(mktemp -d /dev/shm/reaim-sources.XXXXXX)
trap 'rm -rf "$t" "$s"' EXIT
grep -E '^[0-9]+ +(add_|div_|mul_|array_rtns|matrix_rtns|new_raph|num_rtns|series_|sieve|string_rtns|trig_rtns)' \
	"$top/workfiles/compute" >"$t/cpu"
wf="$top/workfiles/compute"

# QUIET=N: before each run, wait (up to 5 minutes) until at most N tasks are runnable on the
# machine for a second (the 4th field of /proc/loadavg), so runs start in a quiet moment of a
# shared machine.
wait_quiet() {
	[ -n "${QUIET:-}" ] || return 0
	calm=0 waited=0
	while [ "$calm" -lt 5 ] && [ "$waited" -lt 1500 ]; do
		r=$(awk '{ split($4, a, "/"); print a[1] - 1 }' /proc/loadavg)
		if [ "$r" -le "$QUIET" ]; then calm=$((calm + 1)); else calm=0; fi
		sleep 0.2
		waited=$((waited + 1))
	done
}

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
	$nice "$reaim" $(no_qc "$reaim") "$@" >/dev/null
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$runs"); do
	for x in $settings; do
		wait_quiet
		one "$x"
	done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

# Jobs/Min, and the tasks' CPU seconds per job: the second hardly moves with the machine's
# other load (a task waiting for a CPU uses none), so it isolates what changes the work itself.
summary() {
	sort -g | awk -v s="$1" '
		{ v[NR] = $1; sum += $1; sq += $1 * $1; c += $2; cq += $2 * $2 }
		END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			for (i = 1; i <= NR; i++) d[i] = v[i] > m ? v[i] - m : m - v[i]
			for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) if (d[j] < d[i]) { x = d[i]; d[i] = d[j]; d[j] = x }
			mad = NR % 2 ? d[(NR + 1) / 2] : (d[NR / 2] + d[NR / 2 + 1]) / 2
			mean = sum / NR; sd = NR > 1 ? sqrt((sq - NR * mean * mean) / (NR - 1)) : 0
			cm = c / NR; csd = NR > 1 ? sqrt((cq - NR * cm * cm) / (NR - 1)) : 0
			printf "%-14s %4d %12.1f %7.2f %7.2f %12.1f %12.1f %10.2f %7.2f\n", s, NR, m, 100 * sd / mean,
				100 * 1.4826 * mad / m, v[1], v[NR],
				cm * 1000, 100 * csd / cm
		}'
}
printf '%-14s %4s %12s %7s %7s %12s %12s %10s %7s\n' setting points "median JPM" "CV %" "rCV %" min max "CPU ms/job" "CV %"
q="SELECT jobs_per_min, (user_s + sys_s) / (jobs_per_task * tasks) FROM points"
for x in $settings; do
	if [ "$x" = repeat ]; then
		sqlite3 -separator ' ' "$t/$x.db" "$q WHERE repeat = 0" | summary first
		sqlite3 -separator ' ' "$t/$x.db" "$q WHERE repeat > 0" | summary later
	else
		sqlite3 -separator ' ' "$t/$x.db" "$q" | summary "$x"
	fi
done
