#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Each point in a cgroup of its own: a grandchild that leaves the task's process group and session and
# ignores SIGTERM and SIGINT is still killed at the end of the point and on Ctrl-C, and reaim reaps
# what it adopts, so no process and no zombie of the run remain. Only this test's processes are
# looked at: reaim runs in a session of its own and the grandchild carries this test's mark.
. "$(dirname "$0")/lib.sh"

mark="reaim-orphan-$(basename "$T")"
trap 'pkill -KILL -f "$mark" 2>/dev/null; rm -rf "$T"' EXIT

# a data dir whose shell_rtns_1 leaves, once per task, a process behind in a session of its own
mkdir -p "$T/data/scripts"
cat >"$T/data/scripts/shell_rtns_1.sh" <<EOF
#!/bin/sh
[ -e orphan.made ] && exit 0
: >orphan.made
setsid sh -c 'trap "" TERM INT HUP; while :; do sleep 1; done' $mark </dev/null >/dev/null 2>&1 &
exit 0
EOF
printf '10 shell_rtns_1\n10 add_int\n' >"$T/mix"

# session_left SID: the processes (zombies too) still in the session
session_left() {
	ps -e -o sid=,pid=,stat=,args= | awk -v s="$1" '$1 == s'
}

REAIM_DATADIR="$T/data" setsid "$REAIM" --no-quiet-check -f "$T/mix" -t 2 -j 3 -d "$T/scratch" --label done \
	>"$T/out" 2>"$T/err" &
pid=$!
wait $pid
ok "$([ $? -eq 0 ] && echo 0 || echo 1)" "a run whose script leaves a process behind"
if ! grep -q 'accounting: cgroup v2' "$T/err"; then
	reason=$(sed -n 's/.*accounting: //p' "$T/err")
	echo "ok $((n + 1)) # SKIP no cgroups, so nothing kills a process that left the task's session: $reason"
	n=$((n + 1))
	finish
	exit $?
fi
ok "$([ -z "$(pgrep -f "$mark")" ] && echo 0 || echo 1)" "the end of the point killed it"
ok "$([ -z "$(session_left $pid)" ] && echo 0 || echo 1)" "nothing of the run is left in its session"

REAIM_DATADIR="$T/data" setsid "$REAIM" -v --no-quiet-check -f "$T/mix" -t 2 -j 100000 -d "$T/scratch" --label stopped \
	>"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ $i -lt 200 ] && [ "$(pgrep -c -f "$mark")" -lt 2 ]; do sleep 0.05; i=$((i + 1)); done
ok "$([ "$(pgrep -c -f "$mark")" -ge 2 ] && echo 0 || echo 1)" "each task left its process behind"
# one of them dies while the point goes on: reaim adopted it, and must reap it
victim=$(pgrep -f "$mark" | head -n 1)
kill -KILL "$victim" 2>/dev/null
sleep 0.5
state=$(ps -o stat= -p "$victim" 2>/dev/null)
ok "$([ -z "$state" ] && echo 0 || echo 1)" "an adopted process that died was reaped at once (state '$state')"
kill -INT $pid
wait $pid
rc=$?
ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "Ctrl-C: exit 3 (got $rc)"
ok "$([ -z "$(pgrep -f "$mark")" ] && echo 0 || echo 1)" "Ctrl-C: the process that ignores SIGINT and SIGTERM is gone"
session_left $pid >"$T/left"
ok "$([ -s "$T/left" ] && echo 1 || echo 0)" "Ctrl-C: no process and no zombie of the run's session remain"
sed 's/^/#   /' "$T/left"
ok "$(scratch_is_empty; echo $?)" "Ctrl-C: no scratch left"
cg=$(sed -n 's/.*accounting: cgroup v2 at \([^ ]*\).*/\1/p' "$T/err")
ok "$([ -n "$cg" ] && [ ! -e "$cg" ] && echo 0 || echo 1)" "Ctrl-C: the run's cgroup $cg is removed"

# a live run's cgroup is never taken for a dead run's: not by a run in another pid namespace
# (where its pid names nothing), since liveness is the lock the run holds, not its pid
if [ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
	printf '10 add_int\n' >"$T/cpu"
	: >"$T/err" # the background run truncates it late: an earlier run's cgroup must not be read here
	setsid "$REAIM" -v --no-quiet-check -f "$T/cpu" -t 1 -j 10000000 -d "$T/scratch" --label long >"$T/out" 2>"$T/err" &
	pid=$!
	i=0
	cg=
	# the whole line, not the first bytes of it
	while [ $i -lt 600 ] && [ -z "$cg" ]; do
		sleep 0.1
		cg=$(sed -n 's/.*accounting: cgroup v2 at \([^ ]*\).*/\1/p' "$T/err")
		i=$((i + 1))
	done
	unshare --pid --fork --mount-proc "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 2 -d "$T/scratch" \
		--label other-ns >/dev/null 2>&1
	if [ -n "$cg" ] && [ -d "$cg" ] && kill -0 $pid 2>/dev/null; then
		ok 0 "a run in another pid namespace left the live run's cgroup $cg"
	elif [ -z "$cg" ]; then
		ok 0 "a run in another pid namespace # SKIP the long run named no cgroup v2 in 60 s: $(tail -n 1 "$T/err")"
	elif grep -q "fork of task .* failed" "$T/err"; then
		# a machine out of processes (other tests' runs) fails the long run's point: nothing to judge
		ok 0 "a run in another pid namespace # SKIP the long run ended first: $(tail -n 1 "$T/err")"
	else # removed, or its tasks killed, by the other run: the long run says how its point ended
		ok 1 "a run in another pid namespace left the live run's cgroup '$cg'"
		sed 's/^/#   long run: /' "$T/err" "$T/out"
	fi
	kill -INT $pid 2>/dev/null
	wait $pid
	ok "$([ ! -e "$cg" ] && echo 0 || echo 1)" "the run removed its cgroup itself"
else
	ok 0 "a run in another pid namespace # SKIP needs root and unshare"
fi
finish
