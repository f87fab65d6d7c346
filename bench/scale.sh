#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Scale: one point of TASKS concurrent tasks (default 10000) of the short mix, one job of each
# test per task, RUNS times (default 3). Per run: the command's wall time, the measured Real,
# the time outside it (set-up, fork, ready, reap, clean-up: the point's overhead, and the
# phases it splits into), the tasks' CPU, the release skew, the parent's peak RSS and a task's
# private memory. Prints the medians and ranges.
# usage: bench/scale.sh [TASKS] [RUNS]   (needs sqlite3)
#   REAIM_BEFORE: a second reaim binary, run alternately with this one (before/after).
#   CLASSIC: classic re-aim-7's binary, run alternately too, with -y (it has no fsync mode)
#   and CLASSIC_DATA holding its workfile.short (default: the data/ dir beside its parent).
#   NICE: a prefix for every run, e.g. "nice -n -10" on a shared machine.
#   MEMORY=0: do not sample the memory figures (the sampling reads /proc twice a second).
set -eu
. "$(dirname "$0")/lib.sh"
tasks=${1:-10000}
runs=${2:-3}
t=$(mktemp -d "${TMPDIR:-/var/tmp}/reaim-scale.XXXXXX")
# shared_memory in every task may hold one SysV segment each at once: kernel.shmmni must
# allow TASKS (reaim refuses to start otherwise). As root, raise it for the run and restore it.
old_shmmni=$(cat /proc/sys/kernel/shmmni)
restore() { [ "$(cat /proc/sys/kernel/shmmni)" = "$old_shmmni" ] || echo "$old_shmmni" >/proc/sys/kernel/shmmni; rm -rf "$t"; }
trap restore EXIT
if [ "$old_shmmni" -lt "$tasks" ] && [ "$(id -u)" = 0 ]; then
	echo "raising kernel.shmmni from $old_shmmni to $tasks for this run"
	echo "$tasks" >/proc/sys/kernel/shmmni
fi
bins="$reaim"
[ -n "${REAIM_BEFORE:-}" ] && bins="${REAIM_BEFORE} $bins"
if [ -n "${CLASSIC:-}" ]; then
	mkdir -p "$t/classic/data" "$t/cdisk"
	cdata=${CLASSIC_DATA:-$(dirname "$CLASSIC")/../data}
	cp "$cdata/workfile.short" "$t/classic/"
	cp "$cdata/fakeh.tgz" "$t/classic/data/"
	printf 'FILESIZE 10k\nPOOLSIZE 0k\nDISKDIR %s/cdisk\n' "$t" >"$t/classic/reaim.config"
	bins="$bins classic"
fi

now() { date +%s.%N; }

# The parent's peak RSS and one task's private memory, sampled while PID runs.
watch_memory() {
	peak=0 priv=""
	# (a zombie still answers kill -0: look at its state)
	while [ -e /proc/"$1" ] && [ "$(awk '{ print $3 }' /proc/"$1"/stat 2>/dev/null)" != Z ]; do
		rss=$(awk '/^VmHWM/ { print $2 }' /proc/"$1"/status 2>/dev/null || echo 0)
		[ -n "$rss" ] && [ "$rss" -gt "$peak" ] && peak=$rss
		# the largest private memory of the last task forked so far, over all samples
		# (the kernel's list of its children: one file, where pgrep would read every process's)
		child=$(awk '{ print $NF }' /proc/"$1"/task/"$1"/children 2>/dev/null)
		p=$([ -n "$child" ] && awk '/^Private_(Clean|Dirty)/ { s += $2 } END { print s + 0 }' /proc/"$child"/smaps_rollup 2>/dev/null || echo 0)
		[ -n "$p" ] && [ "$p" -gt "${priv:-0}" ] && priv=$p
		sleep 0.5
	done
	echo "$peak ${priv:-0}"
}

memory_of() {
	if [ "${MEMORY:-1}" = 0 ]; then echo "- -"; else watch_memory "$1"; fi
}

i=0
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$runs"); do
	i=0
	for b in $bins; do
		i=$((i + 1))
		s0=$(now)
		if [ "$b" = classic ]; then
			(cd "$t/classic" && exec $nice "$CLASSIC" -s "$tasks" -e "$tasks" -i 1 -f workfile.short \
				-c reaim.config -j 1 -y -l "$t/classic/log" >/dev/null 2>&1) &
			pid=$!
			mem=$(memory_of $pid)
			wait $pid || true
			s1=$(now)
			# Forks,JPM,JPM_C,JPS_C,parent_tm,childU_tm,childS_tm,...
			awk -F, -v s0="$s0" -v s1="$s1" -v mem="$mem" 'prev ~ /^Forks,JPM/ {
				printf "%.2f %.2f %.2f - - - - %.1f - - %s\n", s1 - s0, $5, s1 - s0 - $5, $6 + $7, mem }
				{ prev = $0 }' "$t/classic/log.csv" >>"$t/r.$i"
			rm -f "$t/classic/log.csv" "$t/classic/log.log"
			continue
		fi
		$nice "$b" $(no_quiet_check_flag "$b") -v -f "$top/workfiles/short" -t "$tasks" -j 1 -d "$t" --db "$t/s$i.db" --sample-interval 0 \
			>"$t/out" 2>&1 &
		pid=$!
		mem=$(memory_of $pid)
		wait $pid || { echo "run failed:"; tail -5 "$t/out"; exit 1; }
		s1=$(now)
		# the phases of the point's overhead, when the binary logs them
		ph=$(sed -n 's/.*set-up \([0-9.]*\), start \([0-9.]*\), finish \([0-9.]*\), clean-up \([0-9.]*\).*/\1 \2 \3 \4/p' "$t/out")
		[ -n "$ph" ] || ph="- - - -"
		sqlite3 "$t/s$i.db" "SELECT printf('%.2f %.2f %.2f $ph %.1f %.2f %d', $s1 - $s0, real_s, overhead_s,
			user_s + sys_s, release_skew_s, valid) FROM points ORDER BY id DESC LIMIT 1" | tr -d '\n' >>"$t/r.$i"
		echo " $mem" >>"$t/r.$i"
	done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$tasks tasks of the short mix, $runs runs each: median (min-max)"
i=0
for b in $bins; do
	i=$((i + 1))
	echo "== $b"
	for col in 1:wall_s 2:real_s 3:outside_real_s 4:setup_ms 5:start_ms 6:finish_ms 7:cleanup_ms 8:cpu_s \
		9:release_skew_s 11:parent_peak_rss_kib 12:task_private_kib; do
		c=${col%%:*} name=${col#*:}
		m=$(awk -v c="$c" '{ print $c }' "$t/r.$i" | grep -v '^-$' | median_range '%10.2f  (%.2f-%.2f)')
		[ "$m" = nan ] || printf '  %-22s %s\n' "$name" "$m"
	done
	awk '$10 != "-" && $10 != 1 { bad++ } END { if (bad) print "  invalid points: " bad }' "$t/r.$i"
done
