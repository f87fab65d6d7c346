#!/bin/sh
# Ctrl-C and kill during a run: every task gone, no scratch left, run kept as interrupted, exit 3.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n10 creat_clo\n10 sync_disk_wrt\n' >"$T/mix"

for sig in INT TERM; do
	"$REAIM" -f "$T/mix" -t 4 -j 100000 -d "$T/scratch" --label "stop-$sig" >"$T/out" 2>"$T/err" &
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
	ok "$([ -z "$(pgrep -f "stop-$sig")" ] && echo 0 || echo 1)" "SIG$sig: no reaim process left"
	ok "$(scratch_is_empty; echo $?)" "SIG$sig: no scratch left"
	"$REAIM" list >"$T/list"
	contains "$T/list" "interrupted" "SIG$sig: run marked interrupted"
done
# the tasks' own children (shell scripts and their commands) go with them
printf '10 shell_rtns_1\n10 shell_rtns_2\n10 shell_rtns_3\n' >"$T/shells"
"$REAIM" -f "$T/shells" -t 4 -j 100000 -d "$T/scratch" --label stop-shells >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ $i -lt 100 ] && [ -z "$(pgrep -f "$SRCDIR/scripts/shell_rtns_[123].sh")" ]; do sleep 0.05; i=$((i + 1)); done
kill -INT $pid
wait $pid
rc=$?
ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "scripts running: exit 3 (got $rc)"
ok "$([ -z "$(pgrep -f "$SRCDIR/scripts/shell_rtns_[123].sh")" ] && echo 0 || echo 1)" "no script outlives its task"
sleep 0.2
ok "$(scratch_is_empty; echo $?)" "scripts running: no scratch left"
finish
