#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A run on the same database tells a live run from a dead one by the lock the live run holds,
# not by its process name or pid: a run started through a link with another name (or in another
# pid namespace) stays 'running' while another run starts, and ends complete.
# Processes are found by the run's session id, so other runs on the machine do not matter.
. "$(dirname "$0")/lib.sh"

printf '10 matrix_rtns\n' >"$T/cpu"
ln -s "$REAIM" "$T/bench-x"

# A point that lasts about 3 s on this machine now: matrix_rtns's jobs take microseconds, and a
# fixed 60,000 of them (0.3 to 1.3 s) once ended before a loaded machine's test saw its tasks.
mkdir -p "$T/scratch"
"$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 20000 -d "$T/scratch" --db "$T/timing.db" --label timing \
	>"$T/timing" 2>&1
real=$(awk -F'\t' '$1 == 1 && NF >= 4 { for (i = 3; i <= NF; i++) if ($i != "") { print $i; exit } }' "$T/timing")
jobs=$(awk -v r="$real" 'BEGIN { j = r > 0 ? 20000 * 3 / r : 0; if (j < 60000) j = 60000; if (j > 4000000) j = 4000000
	printf "%d", j }')
echo "# 20,000 jobs took ${real:-?} s: $jobs jobs a task make a point of about 3 s"
rm -f "$T/timing.db"

# wait_running LABEL: until `list` shows the run labelled LABEL running (up to 10 s)
wait_running() {
	i=0
	while [ $i -lt 200 ] && ! "$REAIM" list --label "$1" 2>/dev/null | grep -q running; do
		sleep 0.05
		i=$((i + 1))
	done
	[ $i -lt 200 ]
}

# children PID N: the children of PID once there are N of them (waits up to 30 s: a run in a new pid
# namespace on a loaded machine once took more than 10 s to start its tasks); a reaim's tasks are the
# children of its reaim-forker when it has one
children() {
	i=0
	while [ $i -lt 600 ]; do
		kids=$(pgrep -P "$1")
		forker=$(pgrep -x -P "$1" reaim-forker)
		[ -n "$forker" ] && kids=$(pgrep -P "$forker")
		[ "$(echo $kids | wc -w)" -ge "$2" ] && break
		sleep 0.05
		i=$((i + 1))
	done
	echo $kids
}

# beside NAME WRAPPED CMD...: start CMD (a run labelled NAME, of one point with two tasks) in its
# own session, hold its tasks stopped while a second run starts on the same database, then let
# it finish. Its point lasts as long as needed, and its own process, not stopped, never keeps
# the database locked. WRAPPED 1: CMD starts reaim as its child (unshare).
beside() {
	name=$1 wrapped=$2
	shift 2
	start_session "$@" --no-quiet-check -f "$T/cpu" -t 2 -j "$jobs" -d "$T/scratch" --label "$name" \
		>"$T/$name.out" 2>"$T/$name.err"
	lead=$session parent=$session
	[ "$wrapped" = 1 ] && parent=$(children "$lead" 1)
	tasks=$(children "$parent" 2)
	ok "$([ "$(echo $tasks | wc -w)" = 2 ] && kill -STOP $tasks && echo 0 || echo 1)" "$name: its tasks stopped"
	if [ "$(echo $tasks | wc -w)" != 2 ]; then # what was there instead, for the next time it fails
		echo "# children of $parent: '$tasks'; now:"
		ps -o pid=,ppid=,stat=,etime=,args= -s "$lead" 2>&1 | sed 's/^/#   /'
		sed 's/^/#   stderr: /' "$T/$name.err" | head -5
	fi
	"$REAIM" list --label "$name" >"$T/list"
	contains "$T/list" "running" "$name: stored as running"
	grep -q running "$T/list" || sed 's/^/#   list: /' "$T/list" | head -5
	status 0 "$name: another run on the same database" "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 1 \
		-d "$T/scratch" --label "second-$name"
	ok "$(grep -q 'marked .* as interrupted' "$T/err" && echo 1 || echo 0)" "$name: the other run marked nothing"
	"$REAIM" list --label "$name" >"$T/list"
	contains "$T/list" "running" "$name: still running beside it"
	kill -CONT $tasks
	wait "$lead"
	rc=$?
	ok "$([ $rc -eq 0 ] && echo 0 || echo 1)" "$name: it finished (exit $rc)"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T/$name.err" | head -3
	"$REAIM" list --label "$name" >"$T/list"
	contains "$T/list" "complete" "$name: stored complete"
	ok "$(session_gone "$lead"; echo $?)" "$name: no process of it left"
	ok "$([ -z "$(find "$T" -maxdepth 1 -name '*.lock')" ] && echo 0 || echo 1)" "$name: no lock file left"
}

beside renamed 0 "$T/bench-x"

# the same for a run in another pid namespace, where its pid means nothing here (root only)
if [ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
	beside namespaced 1 unshare --pid --fork --mount-proc "$REAIM"
else
	ok 0 "a run in another pid namespace # SKIP needs root and unshare"
fi

# a run that really died is still found: killed, its lock goes with it
start_session "$T/bench-x" --no-quiet-check -f "$T/cpu" -t 1,2,2,2 -j "$jobs" -d "$T/scratch" --label killed \
	>/dev/null 2>&1
a=$session
ok "$(wait_running killed; echo $?)" "killed: stored as running"
kill -KILL "$a"
wait "$a" 2>/dev/null
ok "$(session_gone "$a"; echo $?)" "killed: no process of it left"
status 0 "killed: the next run" "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 1 -d "$T/scratch" --label after
contains "$T/err" "marked 1 earlier run whose reaim process died as interrupted" "killed: the next run says so"
# its cgroup, swept by the next run (or by another's), is nothing to act on: said only under -v
ok "$(! grep -q 'accounting: removed' "$T/err" && echo 0 || echo 1)" "killed: the sweep of its cgroup is not said"
"$REAIM" list --label killed >"$T/list"
contains "$T/list" "interrupted" "killed: stored interrupted"
ok "$([ -z "$(find "$T" -maxdepth 1 -name '*.lock')" ] && echo 0 || echo 1)" "killed: its lock file is removed"
# One database, two names: a run writes through link.db -> real/data.db (the link made before the
# file, so the run creates it through the link). A merge from real/data.db and a run on
# real/data.db both see it alive (its lock is beside the file, whatever name it was opened by);
# the merge leaves it for later and takes it complete once it has finished.
mkdir "$T/real"
ln -s real/data.db "$T/link.db"
start_session sh -c 'cd "$1" && shift && exec "$@"' sh "$T" "$REAIM" --no-quiet-check -f "$T/cpu" -t 2 -j "$jobs" \
	-d "$T/scratch" --db link.db --label twonames >"$T/twonames.out" 2>"$T/twonames.err"
lead=$session
tasks=$(children "$lead" 2)
ok "$([ "$(echo $tasks | wc -w)" = 2 ] && kill -STOP $tasks && echo 0 || echo 1)" "two names: its tasks stopped"
ok "$([ -f "$T/real/data.db" ] && [ -n "$(find "$T/real" -name 'data.db-run-*.lock')" ] && echo 0 || echo 1)" \
	"two names: the file and its run's lock are in real/, not beside the link"
status 0 "two names: merge from the file's own name while it runs" "$REAIM" merge "$T/real/data.db" --db "$T/merged.db"
contains "$T/out" "merged 0 runs" "two names: the live run is left for a later merge"
"$REAIM" list --db "$T/merged.db" >"$T/list" 2>&1
ok "$(grep -q twonames "$T/list" && echo 1 || echo 0)" "two names: nothing of it copied"
status 0 "two names: another run on the file's own name" "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 1 \
	-d "$T/scratch" --db "$T/real/data.db" --label second-twonames
ok "$(grep -q 'marked .* as interrupted' "$T/err" && echo 1 || echo 0)" "two names: the other run marked nothing"
"$REAIM" list --db "$T/real/data.db" --label twonames >"$T/list"
contains "$T/list" "running" "two names: still running beside it"
(cd "$T" && "$REAIM" list --db ./real/../link.db --label twonames) >"$T/list"
contains "$T/list" "running" "two names: a third name reads it running too"
kill -CONT $tasks
wait "$lead"
rc=$?
ok "$([ $rc -eq 0 ] && echo 0 || echo 1)" "two names: it finished (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/#   /' "$T/twonames.err" | head -3
status 0 "two names: merge again once it finished" "$REAIM" merge "$T/real/data.db" --db "$T/merged.db"
"$REAIM" list --db "$T/merged.db" --label twonames >"$T/list"
contains "$T/list" "complete" "two names: merged complete"
ok "$([ -z "$(find "$T" -name '*.lock')" ] && echo 0 || echo 1)" "two names: no lock file left"

# a copy merge took as interrupted, its writer looking dead, is replaced once the source says it
# finished; a copy that already says what the source does is left alone
if have "a copy merged as interrupted is replaced" sqlite3; then
	sqlite3 "$T/merged.db" "UPDATE runs SET status = 'interrupted', reason = 'the reaim process died (killed, or \
the machine went down) before the run finished' WHERE label = 'twonames'"
	status 0 "misjudged copy: merge again" "$REAIM" merge "$T/real/data.db" --db "$T/merged.db"
	contains "$T/out" "merged 1 runs" "misjudged copy: that run copied again"
	"$REAIM" list --db "$T/merged.db" --label twonames >"$T/list"
	contains "$T/list" "complete" "misjudged copy: now complete"
	status 0 "misjudged copy: a merge after it" "$REAIM" merge "$T/real/data.db" --db "$T/merged.db"
	contains "$T/out" "merged 0 runs" "misjudged copy: nothing copied twice"
fi

# a second hard link is a second name SQLite keeps a journal beside: refused for writing, read
ln "$T/real/data.db" "$T/hard.db"
status 2 "a hard-linked database: a run refuses it" "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 1 \
	-d "$T/scratch" --db "$T/hard.db"
contains "$T/err" "$T/hard.db: the database file has 2 names (hard links)" "a hard-linked database: said, named"
status 0 "a hard-linked database: still read" "$REAIM" list --db "$T/hard.db"
rm -f "$T/hard.db"
finish
