#!/bin/sh
# Interrupts runs at 30 random moments (SIGINT, SIGTERM or SIGHUP, from start-up to the last
# point) and checks each time: no reaim process left, no scratch file, a consistent database
# that keeps the finished points. Part of `make check-long`.
. "$(dirname "$0")/../functional/lib.sh"

printf 'FILESIZE: 64K\n10 add_int\n10 fork_test\n10 creat_clo\n10 disk_rr\n10 sync_disk_wrt\n10 tcp_test\n' >"$T/mix"
rounds=${ROUNDS:-30}
i=0
while [ $i -lt "$rounds" ]; do
	i=$((i + 1))
	delay=$(awk -v s="$i" 'BEGIN { srand(s * 7919); printf "%.2f", rand() * 3 }')
	sig=$(echo "INT TERM HUP" | awk -v s="$i" '{ srand(s); print $(int(rand() * 3) + 1) }')
	start_session "$REAIM" -f "$T/mix" -t "1-8*2" -j 30 -d "$T/scratch" --label "round-$i" >"$T/out" 2>"$T/err"
	pid=$session
	sleep "$delay"
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	ok "$([ $rc -eq 3 ] || [ $rc -eq 0 ] && echo 0 || echo 1)" "round $i: SIG$sig after ${delay}s: exit $rc"
	ok "$(session_gone "$pid"; echo $?)" "round $i: no process of the run left"
	ok "$(scratch_is_empty; echo $?)" "round $i: no scratch left"
	if command -v sqlite3 >/dev/null 2>&1; then
		ok "$([ "$(sqlite3 "$REAIM_DB" 'PRAGMA integrity_check')" = ok ] && echo 0 || echo 1)" "round $i: database consistent"
		st=$(sqlite3 "$REAIM_DB" "SELECT status FROM runs WHERE label = 'round-$i'" 2>/dev/null)
		# stopped in the quiet check, before the run began: nothing stored and nothing shown
		[ -z "$st" ] && [ ! -s "$T/out" ] && st="not begun"
		ok "$([ "$st" = interrupted ] || [ "$st" = complete ] || [ "$st" = "not begun" ] && echo 0 || echo 1)" \
			"round $i: run stored as $st"
	fi
done
finish
