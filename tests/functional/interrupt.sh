#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Ctrl-C and kill during a run (SIGINT, SIGTERM, SIGHUP and every other signal that would end it):
# every task gone (and a variant command's children), no scratch left, run kept as interrupted,
# exit 3; merge stopped the same way exits 3 with nothing merged.
# Processes are found by the run's session id, so other runs on the machine do not matter.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n10 creat_clo\n10 sync_disk_wrt\n' >"$T/mix"

for sig in INT TERM HUP; do
	start_session "$REAIM" --no-quiet-check -f "$T/mix" -t 4 -j 100000 -d "$T/scratch" --label "stop-$sig" >"$T/out" 2>"$T/err"
	pid=$session
	ok "$([ "$(ps -o sid= -p "$pid" | tr -d ' ')" = "$pid" ] && echo 0 || echo 1)" "SIG$sig: the run leads its own session"
	wait_session "$pid" 5 # the parent and its 4 tasks
	sleep 0.5
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "SIG$sig: exit 3 (got $rc)"
	ok "$(session_gone "$pid"; echo $?)" "SIG$sig: no process of the run left"
	ok "$(scratch_is_empty; echo $?)" "SIG$sig: no scratch left"
	"$REAIM" list --label "stop-$sig" >"$T/list"
	contains "$T/list" "interrupted" "SIG$sig: run marked interrupted"
	"$REAIM" show "stop-$sig" | grep -v -e '^Run [0-9]' -e '^Reason: ' -e '^  ' -e '^Per test at the peak' >"$T/show"
	ok "$(diff "$T/out" "$T/show" >/dev/null; echo $?)" "SIG$sig: show prints what the interrupted run printed"
done
# every other signal whose default action would end reaim stops the run as SIGINT does
for sig in QUIT USR1 USR2 ALRM XCPU PWR; do
	start_session "$REAIM" --no-quiet-check -f "$T/mix" -t 2 -j 100000 -d "$T/scratch" --label "stop-$sig" >"$T/out" 2>"$T/err"
	pid=$session
	wait_session "$pid" 3
	sleep 0.2
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "SIG$sig: exit 3 (got $rc)"
	ok "$(session_gone "$pid" && scratch_is_empty; echo $?)" "SIG$sig: no process and no scratch left"
	"$REAIM" list --label "stop-$sig" >"$T/list"
	contains "$T/list" "interrupted" "SIG$sig: run marked interrupted"
done
# the tasks' own children (shell scripts and their commands) go with them
printf '10 shell_rtns_1\n10 shell_rtns_2\n10 shell_rtns_3\n' >"$T/shells"
start_session "$REAIM" --no-quiet-check -f "$T/shells" -t 4 -j 100000 -d "$T/scratch" --label stop-shells >"$T/out" 2>"$T/err"
pid=$session
i=0
while [ $i -lt 200 ] && ! ps -o args= -p "$(session_pids "$pid" | tr '\n' ',' | sed 's/,$//')" 2>/dev/null |
	grep -q 'shell_rtns_[123].sh'; do
	sleep 0.05
	i=$((i + 1))
done
ok "$([ $i -lt 200 ] && echo 0 || echo 1)" "scripts running in the run's session"
kill -INT "$pid"
wait "$pid"
rc=$?
ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "scripts running: exit 3 (got $rc)"
ok "$(session_gone "$pid"; echo $?)" "no script outlives its task"
ok "$(scratch_is_empty; echo $?)" "scripts running: no scratch left"
# a variant's command stopped with the run: the shell, what it waits for and its background job
printf '10 add_int\n' >"$T/cpu"
for sig in INT TERM; do
	rm -f "$T/bg.pid"
	start_session "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 2 -d "$T/scratch" --label "variant-$sig" \
		--variant a=true --variant "b=sleep 60 & echo \$! >$T/bg.pid; sleep 60" >"$T/out" 2>"$T/err"
	pid=$session
	i=0
	while [ $i -lt 200 ] && [ ! -s "$T/bg.pid" ]; do sleep 0.05; i=$((i + 1)); done
	ok "$([ -s "$T/bg.pid" ] && echo 0 || echo 1)" "SIG$sig in a variant's command: the command is running"
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "SIG$sig in a variant's command: exit 3 (got $rc)"
	ok "$(session_gone "$pid"; echo $?)" "SIG$sig in a variant's command: none of its processes is left"
	[ -s "$T/bg.pid" ] && kill "$(cat "$T/bg.pid")" 2>/dev/null
done
# reaim killed with SIGKILL in a variant's command: the command's group goes with it
rm -f "$T/bg.pid"
start_session "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 2 -d "$T/scratch" --label variant-KILL \
	--variant a=true --variant "b=sleep 60 & echo \$! >$T/bg.pid; sleep 60" >"$T/out" 2>"$T/err"
pid=$session
i=0
while [ $i -lt 200 ] && [ ! -s "$T/bg.pid" ]; do sleep 0.05; i=$((i + 1)); done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
i=0
while [ $i -lt 40 ] && [ -n "$(live_left "$pid")" ]; do sleep 0.05; i=$((i + 1)); done
ok "$([ -z "$(live_left "$pid")" ] && echo 0 || echo 1)" "SIGKILL in a variant's command: none of its processes is left"
# shellcheck disable=SC2046
kill -KILL $(live_left "$pid") 2>/dev/null
# merge stopped while it waits for another program's lock: exit 3, nothing merged
if command -v python3 >/dev/null 2>&1; then
	"$REAIM" list >/dev/null 2>&1
	cp "$REAIM_DB" "$T/source.db"
	"$REAIM" -q --no-quiet-check -f "$T/cpu" -t 1 -j 2 -d "$T/scratch" --db "$T/target.db" >/dev/null 2>&1
	before=$("$REAIM" list --db "$T/target.db" 2>/dev/null | wc -l)
	rm -f "$T/locked"
	python3 -c 'import sqlite3,sys,time
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").close(); time.sleep(300)' "$T/target.db" "$T/locked" &
	lk=$!
	# it holds the lock until this test ends it (a fixed 20 s ran out under a heavy load), on failure too
	trap 'kill "$lk" 2>/dev/null; rm -rf "$T"' EXIT
	i=0
	while [ $i -lt 200 ] && [ ! -e "$T/locked" ]; do sleep 0.05; i=$((i + 1)); done
	for sig in INT QUIT; do
		"$REAIM" merge "$T/source.db" --db "$T/target.db" >"$T/out" 2>"$T/err" &
		mp=$!
		sleep 0.5
		kill -"$sig" "$mp"
		wait "$mp"
		rc=$?
		ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "merge stopped by SIG$sig: exit 3 (got $rc)"
	done
	kill "$lk" 2>/dev/null
	wait "$lk" 2>/dev/null
	ok "$([ "$("$REAIM" list --db "$T/target.db" 2>/dev/null | wc -l)" -eq "$before" ] && echo 0 || echo 1)" \
		"and nothing was merged"
else
	echo "ok $((n + 1)) - merge stopped by a signal # SKIP python3 is missing (it holds the lock)"
	n=$((n + 1))
fi
finish
