#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --cpus through a cpuset: where the machine has one (cgroup2's cpuset controller, or a v1 cpuset
# hierarchy on a hybrid machine) a task asking for every CPU still runs on the point's, read from
# /proc while it runs; without one (a mount namespace without the v1 cpuset hierarchy, and one with
# cgroup2 alone and no controller in it) the tasks are confined by affinity, which is said once and
# stored as the run's cpus_confinement.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n10 sieve\n' >"$T/cpu"
ncpu=$(nproc)
if [ "$ncpu" -lt 2 ] || ! command -v taskset >/dev/null 2>&1; then
	echo "ok 1 - --cpus through a cpuset # SKIP one CPU or no taskset"
	n=1
	finish
	exit $?
fi
last=$((ncpu - 1))
# each task of the point, after asking for every CPU (the escape a cpuset refuses), and its CPUs
# (tried until the tasks are seen: the hook may start before the first fork)
escape='i=0; while [ $i -lt 100 ]; do for p in $(cat "$REAIM_POINT_CGROUP/cgroup.procs" 2>/dev/null); do taskset -a -p -c 0-'$last' $p >/dev/null 2>&1 && grep Cpus_allowed_list /proc/$p/status && i=100; done; i=$((i + 1)); sleep 0.02; done'
look='i=0; while [ $i -lt 100 ]; do for p in $(cat "$REAIM_POINT_CGROUP/cgroup.procs" 2>/dev/null); do grep Cpus_allowed_list /proc/$p/status && i=100; done; i=$((i + 1)); sleep 0.02; done'
run() { "$REAIM" -f "$T/cpu" -d "$T/scratch" --sample-interval 0 --counters off --no-quiet-check -j 60 -t 2 --cpus 1 "$@"; }
# the CPUs the tasks of the last run's point were seen on, one line each
seen() { cat "$(ls -d "$T"/*-run-"$1"-hook)"/*/hook.out | awk '{print $2}' | sort -u; }
confinement() { "$REAIM" export "$1" --format json | grep -o '"cpus_confinement": "[^"]*"'; }
one_cpu() { s=$(seen "$1"); [ -n "$s" ] && case $s in *[-,]* | *"
"*) false ;; *) true ;; esac; }

status 0 "--cpus 1 with a task asking for every CPU" run -v --point-hook "$escape"
cp "$T/err" "$T/err1"
contains "$T/err1" "--cpus confines the tasks by" "the run says how it confines"
status 0 "export" confinement 1
how=$(cat "$T/out")
case $how in
*'"cpuset (cgroup v'*)
	ok 0 "stored: $how"
	check "a cpuset: the task asking for every CPU still runs on one (got $(seen 1 | tr '\n' ' '))" one_cpu 1 ;;
*'"affinity only: '*)
	ok 0 "stored: $how"
	n=$((n + 1))
	echo "ok $n - a task cannot widen its CPUs # SKIP no cpuset here: $how" ;;
*) ok 1 "cpus_confinement stored (got '$how')" ;;
esac

# without a cpuset: the same run in a mount namespace where none is mounted (root and unshare only)
nocpuset() {
	mounts=$1
	shift
	unshare -m sh -c 'for m in '"$mounts"'; do umount "$m" || exit 1; done; exec "$@"' sh "$@"
}
v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuset(,|$)/ {print $2}' /proc/mounts | head -1)
if [ "$(id -u)" -ne 0 ] || [ -z "$v1" ] || ! command -v unshare >/dev/null 2>&1; then
	n=$((n + 1))
	echo "ok $n - the fallback to affinity # SKIP needs root, unshare and a v1 cpuset hierarchy"
else
	status 0 "hybrid without the v1 cpuset: the run" nocpuset "$v1" "$REAIM" -f "$T/cpu" -d "$T/scratch" \
		--sample-interval 0 --counters off --no-quiet-check -j 60 -t 2 --cpus 1 --point-hook "$look"
	contains "$T/err" "--cpus confines the tasks by affinity only: no cpuset controller" "the fallback is said"
	status 0 "export" confinement 2
	contains "$T/out" '"cpus_confinement": "affinity only: no cpuset controller' "... and stored"
	check "affinity alone still keeps the tasks on one CPU (got $(seen 2 | tr '\n' ' '))" one_cpu 2
	status 0 "the same again" nocpuset "$v1" "$REAIM" -f "$T/cpu" -d "$T/scratch" \
		--sample-interval 0 --counters off --no-quiet-check -j 60 -t 2 --cpus 1
	check "the fallback is said once beside a database" sh -c "! grep -q 'confines the tasks' '$T/err'"
	# cgroup2 alone: every v1 hierarchy unmounted, so cgroup2 is the only one, without controllers
	all=$(awk '$3 == "cgroup" {print $2}' /proc/mounts | tr '\n' ' ')
	status 0 "cgroup2 alone: the run" nocpuset "$all" "$REAIM" -v -f "$T/cpu" -d "$T/scratch" \
		--sample-interval 0 --counters off --no-quiet-check -j 60 -t 2 --cpus 1 --point-hook "$look"
	contains "$T/err" "--cpus confines the tasks by affinity only" "cgroup2 without cpuset: affinity, said"
	check "cgroup2 without cpuset: the tasks on one CPU (got $(seen 4 | tr '\n' ' '))" one_cpu 4
fi
check "no run cgroup is left" sh -c "! ls -d /sys/fs/cgroup/*/reaim-$$-* /sys/fs/cgroup/reaim-$$-* 2>/dev/null | grep -q ."
finish
