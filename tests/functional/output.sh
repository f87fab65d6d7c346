#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Output hygiene: a reader that goes away ends a read command quietly and a run goes on; man on a
# terminal is rendered; messages never land between the rows of a table; list stays aligned;
# every error starts "reaim: error:" and a near miss gets a suggestion.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n10 pipe_cpy\n' >"$T/mix"
run() { "$REAIM" -q --no-quiet-check -f "$T/mix" -d "$T/scratch" "$@"; }
check "a run to read" run -t 1,2 -j 4 --label kernel-a
check "a run to compare it with" run -t 1,2 -j 4 --label kernel-b

# gone CMD...: CMD writes to a pipe whose reader has already exited; its exit status in $T/rc
gone() {
	{
		sleep 0.3
		"$@" 2>"$T/err"
		echo $? >"$T/rc"
	} | true
}

for c in "man 1" "man 5" list "show 1 -v --tests" "export 1 --format json" "compare 1 2" help tests "--help"; do
	# shellcheck disable=SC2086
	gone "$REAIM" $c
	ok "$([ "$(cat "$T/rc")" -eq 0 ] && [ ! -s "$T/err" ] && echo 0 || echo 1)" \
		"reaim $c into a reader that went away: exit 0, nothing said (exit $(cat "$T/rc"))"
	[ -s "$T/err" ] && sed 's/^/#   /' "$T/err" | head -3
done

# a run goes on, stores every point, and says once that its output was closed
gone "$REAIM" --no-quiet-check -f "$T/mix" -d "$T/scratch" -t 1,2 -j 4 --label reader-gone
ok "$([ "$(cat "$T/rc")" -eq 0 ] && echo 0 || echo 1)" "a run whose reader went away: exit 0 (got $(cat "$T/rc"))"
ok "$([ "$(grep -c 'output was closed' "$T/err")" -eq 1 ] && echo 0 || echo 1)" "... says once that its output was closed"
status 0 "list it" "$REAIM" list --label reader-gone
contains "$T/out" "complete" "... and it is stored complete"

# a closed stdout is an error, and nothing reaim opens takes its place
"$REAIM" list >&- 2>"$T/err"
ok "$([ $? -eq 2 ] && echo 0 || echo 1)" "list with stdout closed: exit 2"
contains "$T/err" "reaim: error: stdout: error writing output" "... said as an error"

# man: rendered through man(1) on a terminal and on a pipe, raw roff with --roff
status 0 "man --roff 5 piped" "$REAIM" man --roff 5
contains "$T/out" ".TH REAIM" "--roff: raw roff"
if command -v script >/dev/null 2>&1 && command -v man >/dev/null 2>&1; then
	MANPAGER=cat PAGER=cat script -qec "$REAIM man 5" /dev/null >"$T/tty" 2>&1
	ok "$(! grep -q '^\.TH' "$T/tty" && grep -q 'REAIM-SUITE(5)' "$T/tty" && echo 0 || echo 1)" \
		"on a terminal: rendered by man"
else
	n=$((n + 1))
	echo "ok $n - on a terminal: rendered by man # SKIP script(1) or man(1) not installed"
fi

# messages said while a table is printed to the same place come after it, never between rows
run -t 1,2,3 -j 40 --timeout 0.01 --label late >"$T/both" 2>&1
awk '/^Tasks/ { t = 1; next } /^Max Jobs/ { t = 0 } t && /^reaim: / { bad = 1 } END { exit bad }' "$T/both"
ok $? "no message between the rows of the table"
contains "$T/both" "reaim: error: mix, 2 tasks: point timed out" "the messages still come, after it"

# list keeps its columns when a status, a label or a suite is wider than the heading
if have "list keeps its columns aligned" sqlite3; then
	sqlite3 "$REAIM_DB" "UPDATE runs SET status = 'running', planned_points = 240, planned_exact = 1 WHERE id = 1;
		UPDATE runs SET label = 'a-label-much-wider-than-its-column-is' WHERE id = 2"
	status 0 "list" "$REAIM" list
	# the last column (Points) starts at one place on every line ("running 2/240" is wider than
	# "Status", and ASCII, as awk counts bytes)
	awk '{ s = length($0) - length($NF) } NR == 1 { want = s } s != want { bad = 1 } END { exit bad }' "$T/out"
	ok $? "list: every column aligned"
	sqlite3 "$REAIM_DB" "UPDATE runs SET status = 'complete' WHERE id = 1; UPDATE runs SET label = 'kernel-a' WHERE id = 2"
fi

# near misses: a label, a suite where a command goes
status 1 "an unknown label" "$REAIM" show kernel-b
contains "$T/err" "reaim: error: no run matches 'kernel-b'; did you mean 'kernel-a'?" "the nearest label suggested"
if have "no advice that cannot help: a database without runs" sqlite3; then
	cp "$REAIM_DB" "$T/none.db"
	sqlite3 "$T/none.db" "PRAGMA foreign_keys = ON; DELETE FROM runs"
	status 1 "show in a database without runs" "$REAIM" show --db "$T/none.db"
	contains "$T/err" "holds no run yet" "says it holds no run"
	ok "$(grep -q "reaim list" "$T/err" && echo 1 || echo 0)" "and does not send to 'reaim list', which would show nothing"
fi
status 1 "a suite where a command goes" "$REAIM" dbase
contains "$T/err" "did you mean \`reaim -s dbase\`" "reaim -s suggested"
status 1 "a misspelt command" "$REAIM" lst
contains "$T/err" "reaim: error: unknown command 'lst'; did you mean list?" "the nearest command suggested"
scratch_is_empty
ok $? "scratch is clean"
finish
