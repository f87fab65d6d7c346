#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The read-only commands: help, the catalog, check, dry-run, man pages and exit codes.
. "$(dirname "$0")/lib.sh"

status 0 "--help exits 0" "$REAIM" --help
contains "$T/out" "--sync-mode fsync|none|global" "help lists options from the table"
status 0 "tests lists the catalog" "$REAIM" tests
# as many as the catalog has: the man page's TESTS section comes from the same table
ntests=$("$REAIM" man --roff 1 | sed -n '/^\.SH TESTS/,/^\.SH /p' | grep -c '^\.TP')
ok "$([ "$ntests" -gt 0 ] && [ "$(grep -c '^[a-z]' "$T/out")" -eq "$ntests" ] && echo 0 || echo 1)" "every test listed ($ntests)"
status 0 "tests NAME explains one" "$REAIM" tests sync_disk_update
contains "$T/out" "family disk" "explanation names the family"
status 1 "tests with an unknown name" "$REAIM" tests nosuch
status 1 "unknown command exits 1" "$REAIM" frobnicate
status 1 "run with nothing to run exits 1" "$REAIM"
contains "$T/err" "nothing to run" "and says what is missing"

for f in "$SRCDIR"/suites/*.cfg "$SRCDIR"/workfiles/*; do
	status 0 "check $(basename "$f")" "$REAIM" check "$f"
done

status 0 "dry run" "$REAIM" -s "$SRCDIR/suites/dbase.cfg" -t 1,8 -j 50 --dry-run
contains "$T/out" "jobs per task P = " "dry run shows P"
contains "$T/out" "filesize         10K" "dry run shows the file size"
contains "$T/out" "poolsize         1024K" "and the pool size"
contains "$T/out" "8        138" "per-task file size n = 10 + 1024/8 at 8 tasks"
ok "$([ ! -e "$REAIM_DB" ] && echo 0 || echo 1)" "dry run writes no database"

status 0 "man 1" "$REAIM" man --roff 1
contains "$T/out" "sync_disk_update" "reaim(1) lists tests from the table"
contains "$T/out" "\\-\\-max\\-tasks" "reaim(1) lists options from the table"
contains "$T/out" ".SS \"reaim merge\"" "reaim(1) has a section per command"
status 0 "man 5" "$REAIM" man --roff 5
contains "$T/out" "jobs_per_task" "reaim-suite(5) lists keys from the table"
# the progress line: only on a terminal (a pty from script(1)), erased before each table row
if command -v script >/dev/null 2>&1; then
	printf '10 add_int\n10 sieve\n' >"$T/cpu"
	script -qec "'$REAIM' -f '$T/cpu' -t 1,2 -j 60 -d '$T/scratch' --db '$T/pty.db'" /dev/null >"$T/pty" 2>&1
	contains "$T/pty" "1 tasks (point 1 of 2), repeat 1/1, elapsed" "progress shown on a terminal"
	ok "$(tr '\r' '\n' <"$T/pty" | grep -q '^.\[K2	[0-9]' ; echo $?)" "the line is erased before the table row"
	"$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 5 -d "$T/scratch" --db "$T/pty.db" >"$T/out" 2>"$T/err"
	ok "$(grep -q 'point 1 of' "$T/err"; [ $? -ne 0 ] && echo 0 || echo 1)" "no progress when stderr is not a terminal"
else
	ok 0 "progress on a terminal # SKIP script(1) not installed"
fi
finish
