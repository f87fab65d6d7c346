#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --cpus: a block per CPU count, each point storing its count; the tasks confined to that many
# CPUs (read from /proc by a point hook while they run); the scaling lines in show; the CSV's
# cpus column; the plan's points; a count beyond the machine's CPUs refused before anything runs.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n10 sieve\n' >"$T/cpu"
ncpu=$(nproc)
run() { "$REAIM" -f "$T/cpu" -d "$T/scratch" --sample-interval 0 --counters off --no-quiet-check -j 20 "$@"; }

status 0 "dry run: the points of every CPU count" run -t 2 --cpus 1 --dry-run
contains "$T/out" "x 1 CPU count)" "the plan names the CPU counts"

status 1 "--cpus beyond the CPUs reaim may use is refused" run -t 2 --cpus 1,99
contains "$T/err" "--cpus 99: reaim may use only $ncpu CPU" "the refusal says how many it may use"
check "... before a database is made" test ! -e "$T/results.db"
status 1 "--cpus 0 is not a count" run -t 2 --cpus 0

if [ "$ncpu" -ge 2 ]; then
	# the hook waits for the point's tasks to show in their cgroup (a quiet machine runs them fast)
	hook='i=0; while [ $i -lt 300 ] && [ -z "$(cat "$REAIM_POINT_CGROUP/cgroup.procs" 2>/dev/null)" ]; do sleep 0.01; i=$((i + 1)); done; for p in $(cat "$REAIM_POINT_CGROUP/cgroup.procs" 2>/dev/null); do grep Cpus_allowed_list /proc/$p/status; done'
	status 0 "reaim -t 2 --cpus 1,2 runs" run -t 2 --cpus 1,2 -j 200 --point-hook "$hook"
	status 0 "show" "$REAIM" show last
	cp "$T/out" "$T/show"
	contains "$T/show" "Workload cpu, O_SYNC on, 1 CPU" "a heading for 1 CPU"
	contains "$T/show" "Workload cpu, O_SYNC on, 2 CPUs" "a heading for 2 CPUs"
	contains "$T/show" "Scaling of workload cpu" "the scaling over the smallest count"
	check "the scaling row: 2 tasks, 1.00 at 1 CPU" grep -Eq '^2	[0-9.]+	1\.00	[0-9.]+	[0-9.]+$' "$T/show"
	status 0 "csv export" "$REAIM" export last --format csv
	check "each point stores its CPU count" test "$(cut -d, -f17 "$T/out" | tr '\n' ' ')" = "cpus 1 2 "
	status 0 "json export" "$REAIM" export last --format json
	contains "$T/out" '"cpus": 2' "the JSON carries the CPU count"
	hookdir=$(ls -d "$T"/*-run-*-hook 2>/dev/null | head -1)
	if [ -n "$hookdir" ] && [ -s "$hookdir/cpu-osync-on-tasks-2-round-1-cpus-1/hook.out" ]; then
		one=$(sort -u "$hookdir/cpu-osync-on-tasks-2-round-1-cpus-1/hook.out" | awk '{print $2}')
		two=$(sort -u "$hookdir/cpu-osync-on-tasks-2-round-1-cpus-2/hook.out" | awk '{print $2}')
		case $one in *[-,]*) ok 1 "1 CPU: the tasks may run on one CPU (got $one)" ;; *) ok 0 "1 CPU: the tasks may run on one CPU" ;; esac
		case $two in *[-,]*) ok 0 "2 CPUs: the tasks may run on two" ;; *) ok 1 "2 CPUs: the tasks may run on two (got $two)" ;; esac
	else
		n=$((n + 1))
		echo "ok $n - the tasks' CPUs read while they run # SKIP no point cgroup here"
	fi
	status 0 "a second run" run -t 2 --cpus 1,2
	"$REAIM" compare last~1 last >"$T/out" 2>&1
	contains "$T/out" "Workload cpu, O_SYNC on, 1 CPU: B against A" "compare: a panel per CPU count (1)"
	contains "$T/out" "Workload cpu, O_SYNC on, 2 CPUs: B against A" "compare: a panel per CPU count (2)"
else
	n=$((n + 1))
	echo "ok $n - --cpus 1,2 # SKIP one CPU"
fi
finish
