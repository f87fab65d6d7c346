#!/bin/sh
# Ctrl-C and kill during a run: every task gone, no scratch left, run kept as interrupted, exit 3.
# reaim starts in a session of its own, so "nothing of the run is left" means its session is empty:
# this test looks at its own processes only.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n10 creat_clo\n10 sync_disk_wrt\n' >"$T/mix"

# session_left SID: the processes (zombies too) still in the session
session_left() {
	ps -e -o sid=,pid=,stat=,args= | awk -v s="$1" '$1 == s'
}

for sig in INT TERM; do
	setsid "$REAIM" --no-quiet-check -f "$T/mix" -t 4 -j 100000 -d "$T/scratch" --label "stop-$sig" >"$T/out" 2>"$T/err" &
	pid=$!
	# wait until the tasks are running
	i=0
	while [ $i -lt 100 ] && [ "$(pgrep -c -P $pid)" -lt 4 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.5
	kill -$sig $pid
	wait $pid
	rc=$?
	ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "SIG$sig: exit 3 (got $rc)"
	sleep 0.2
	session_left $pid >"$T/left"
	ok "$([ -s "$T/left" ] && echo 1 || echo 0)" "SIG$sig: no process of the run left"
	sed 's/^/#   /' "$T/left"
	ok "$(scratch_is_empty; echo $?)" "SIG$sig: no scratch left"
	"$REAIM" list >"$T/list"
	contains "$T/list" "interrupted" "SIG$sig: run marked interrupted"
	"$REAIM" show "stop-$sig" | grep -v -e '^Run [0-9]' -e '^Reason: ' -e '^  ' -e '^Per test at the peak' >"$T/show"
	ok "$(diff "$T/out" "$T/show" >/dev/null; echo $?)" "SIG$sig: show prints what the interrupted run printed"
done
# the tasks' own children (shell scripts and their commands) go with them
printf '10 shell_rtns_1\n10 shell_rtns_2\n10 shell_rtns_3\n' >"$T/shells"
setsid "$REAIM" --no-quiet-check -f "$T/shells" -t 4 -j 100000 -d "$T/scratch" --label stop-shells >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ $i -lt 100 ] && ! session_left $pid | grep -q 'shell_rtns_[123].sh'; do sleep 0.05; i=$((i + 1)); done
kill -INT $pid
wait $pid
rc=$?
ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "scripts running: exit 3 (got $rc)"
session_left $pid >"$T/left"
ok "$([ -s "$T/left" ] && echo 1 || echo 0)" "no script outlives its task"
sed 's/^/#   /' "$T/left"
sleep 0.2
ok "$(scratch_is_empty; echo $?)" "scripts running: no scratch left"
finish
