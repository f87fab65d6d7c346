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
. "$(dirname "$0")/lib.sh"
noise_args "$@"
classic=${CLASSIC:-}
series=${SERIES:-classic classic-y reaim reaim-none reaim-global}
bench_dir noise "$dir"
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
		$nice "$reaim" $(no_quiet_check_flag "$reaim") -q -f "$top/workfiles/compute" -t "$tasks" -j "${REAIM_JOBS:-$jobs}" $sm -d "$t/disk" \
			--db "$t/r.db" --label "$1" >/dev/null
		sqlite3 -separator ' ' "$t/r.db" "SELECT jobs_per_min, real_s, (user_s + sys_s) / (jobs_per_task * tasks)
			FROM points ORDER BY id DESC LIMIT 1" >>"$t/s.$1"
		;;
	esac
}

run_interleaved "$runs" "$series" one
# Jobs/Min (CV, and rCV: 1.4826 x the median absolute deviation over the median, which a burst
# of load on a shared machine moves less), the point's seconds, and the tasks' CPU seconds per
# job: the last hardly moves with the machine's other load (a task waiting for a CPU uses
# none), so its CV isolates the noise in the work itself from the noise of sharing the machine.
printf '%-13s %4s %12s %7s %7s %12s %12s %10s %10s %7s\n' series runs "median JPM" "CV %" "rCV %" min max "median s" "CPU ms/job" "CV %"
for s in $series; do
	ms=$(awk '{ print $2 }' "$t/s.$s" | median)
	noise_row "$s" 13 3 "$ms" <"$t/s.$s"
done
