#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run-to-run noise of Jobs/Min: classic re-aim-7 against reaim on the same mix, the same task
# count and the same nominal jobs, one point per run, the tools' runs interleaved (c, r, c, r,
# ...) so drift in the machine falls on both alike. Prints each series' median and CV.
# usage: CLASSIC=/path/to/classic/reaim bench/noise.sh [RUNS] [JOBS] [TASKS] [DIR]
#   RUNS (default 7) runs of each series; JOBS (default 100) nominal jobs per task; TASKS
#   (default 2); DIR the disk dir both tools use (default /var/tmp).
#   CLASSIC_DATA: a dir holding classic's workfile.compute and fakeh.tgz (default: the
#   data/ dir beside CLASSIC's parent). Without CLASSIC only reaim's series run.
#   SERIES: which series, of: classic classic-y reaim reaim-none reaim-global (default all
#   five; classic-y is classic with -y, no syncs; reaim-none and reaim-global are reaim with
#   --sync-mode none and global, the matches of classic -y and of classic's default).
#   QUIET=N: wait for a quiet moment (at most N runnable tasks) before each run.
#   REAIM_JOBS: reaim's nominal jobs when they should differ from classic's (points of equal
#   length rather than equal jobs; reaim's jobs take less time than classic's).
#   NICE: a prefix for every run, e.g. "nice -n -10" on a shared machine. Needs sqlite3.
set -eu
runs=${1:-7}
jobs=${2:-100}
tasks=${3:-2}
dir=${4:-/var/tmp}
top=$(cd "$(dirname "$0")/.." && pwd)
reaim=${REAIM:-$top/reaim}
classic=${CLASSIC:-}
series=${SERIES:-classic classic-y reaim reaim-none reaim-global}
nice=${NICE:-}
# the quiet check a run makes first (a second of watching the machine) is outside what these
# scripts time; a binary from before it has no such flag
no_qc() { "$1" run --help 2>&1 | grep -q -- --no-quiet-check && echo --no-quiet-check || true; }
t=$(mktemp -d "$dir/reaim-noise.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/disk" "$t/classic/data"
if [ -n "$classic" ]; then
	data=${CLASSIC_DATA:-$(dirname "$classic")/../data}
	cp "$data/workfile.compute" "$t/classic/"
	cp "$data/fakeh.tgz" "$t/classic/data/"
	# the same FILESIZE and POOLSIZE as workfiles/compute
	printf 'FILESIZE 10k\nPOOLSIZE 1m\nDISKDIR %s/disk\n' "$t" >"$t/classic/reaim.config"
else
	series=$(echo "$series" | tr ' ' '\n' | grep -v '^classic' | tr '\n' ' ')
fi

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

# one point of one series; appends "Jobs/Min seconds" to $t/<series>
one() {
	case $1 in
	classic*)
		y=""
		[ "$1" = classic-y ] && y=-y
		(cd "$t/classic" && $nice "$classic" -s "$tasks" -e "$tasks" -i 1 -f workfile.compute \
			-c reaim.config -j "$jobs" $y -l "$t/classic/log" >/dev/null 2>&1)
		# classic's CSV: Forks,JPM,JPM_C,JPS_C,parent_tm,...
		awk -F, -v n="$tasks" 'prev ~ /^Forks,JPM/ { print $2, $5, ($6 + $7) / ($2 * $5 / 60) } { prev = $0 }' \
			"$t/classic/log.csv" >>"$t/s.$1"
		rm -f "$t/classic/log.csv" "$t/classic/log.log"
		;;
	reaim*)
		sm=""
		[ "$1" = reaim-none ] && sm="--sync-mode none"
		[ "$1" = reaim-global ] && sm="--sync-mode global"
		$nice "$reaim" $(no_qc "$reaim") -q -f "$top/workfiles/compute" -t "$tasks" -j "${REAIM_JOBS:-$jobs}" $sm -d "$t/disk" \
			--db "$t/r.db" --label "$1" >/dev/null
		sqlite3 -separator ' ' "$t/r.db" "SELECT jobs_per_min, real_s, (user_s + sys_s) / (jobs_per_task * tasks)
			FROM points ORDER BY id DESC LIMIT 1" >>"$t/s.$1"
		;;
	esac
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$runs"); do
	for s in $series; do
		wait_quiet
		one "$s"
	done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
# Jobs/Min (CV, and rCV: 1.4826 x the median absolute deviation over the median, which a burst
# of load on a shared machine moves less), the point's seconds, and the tasks' CPU seconds per
# job: the last hardly moves with the machine's other load (a task waiting for a CPU uses
# none), so its CV isolates the noise in the work itself from the noise of sharing the machine.
printf '%-13s %4s %12s %7s %7s %12s %12s %10s %10s %7s\n' series runs "median JPM" "CV %" "rCV %" min max "median s" "CPU ms/job" "CV %"
for s in $series; do
	ms=$(awk '{ print $2 }' "$t/s.$s" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	sort -g "$t/s.$s" | awk -v s="$s" -v ms="$ms" '
		{ v[NR] = $1; sum += $1; sq += $1 * $1; c += $3; cq += $3 * $3 }
		END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			for (i = 1; i <= NR; i++) d[i] = v[i] > m ? v[i] - m : m - v[i]
			for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) if (d[j] < d[i]) { x = d[i]; d[i] = d[j]; d[j] = x }
			mad = NR % 2 ? d[(NR + 1) / 2] : (d[NR / 2] + d[NR / 2 + 1]) / 2
			mean = sum / NR; sd = NR > 1 ? sqrt((sq - NR * mean * mean) / (NR - 1)) : 0
			cm = c / NR; csd = NR > 1 ? sqrt((cq - NR * cm * cm) / (NR - 1)) : 0
			printf "%-13s %4d %12.1f %7.2f %7.2f %12.1f %12.1f %10.2f %10.2f %7.2f\n", s, NR, m, 100 * sd / mean,
				100 * 1.4826 * mad / m, v[1], v[NR], ms,
				cm * 1000, 100 * csd / cm
		}'
done
