#!/bin/sh
# Run history across commands: compare two real runs, O_SYNC both ratio, merge (twice is a
# no-op), exports, and run names.
. "$(dirname "$0")/lib.sh"

printf 'FILESIZE: 16K\n10 add_int\n10 pipe_cpy\n10 sync_disk_wrt\n' >"$T/mix"
check "run A" "$REAIM" -q -f "$T/mix" -t 1,2 -j 6 -r 2 -d "$T/scratch" --label kernel-a
check "run B" "$REAIM" -q -f "$T/mix" -t 1,2 -j 6 -r 2 -d "$T/scratch" --label kernel-b --osync both

status 0 "compare A B" "$REAIM" compare kernel-a kernel-b
contains "$T/out" "Welch's t-test" "compare states its test"
contains "$T/out" "kernel-b (run 2)" "compare names the other run"
contains "$T/out" "Peak: base" "peak line"
status 0 "compare csv" "$REAIM" compare last~1 last --format csv
contains "$T/out" "workload,osync,tasks,base_label" "csv header"
status 0 "compare json" "$REAIM" compare 1 2 --format json
contains "$T/out" '"format_version": 1' "json format version"
status 1 "compare an unknown run" "$REAIM" compare kernel-a nosuch
contains "$T/err" "no run matches 'nosuch'" "unknown run named"
status 0 "O_SYNC on against off" "$REAIM" compare kernel-b
contains "$T/out" "O_SYNC on against off" "on/off ratio table"

status 0 "plot two runs" "$REAIM" plot kernel-a kernel-b -o "$T/ab.svg" --diff
ok "$([ "$(grep -o 'class="series"' "$T/ab.svg" | wc -l)" -eq 2 ] && echo 0 || echo 1)" "one series per run"
if command -v xmllint >/dev/null 2>&1; then
	check "the SVG is well-formed XML" xmllint --noout "$T/ab.svg"
fi
status 0 "plot for gnuplot" "$REAIM" plot kernel-a kernel-b -o "$T/ab" --format gnuplot
ok "$([ -s "$T/ab.dat" ] && [ -s "$T/ab.gp" ] && echo 0 || echo 1)" "gnuplot data and script written"
status 1 "plot without -o" "$REAIM" plot kernel-a

# a second database gathered on another machine, merged into the first
other="$T/other.db"
check "run on the other machine" "$REAIM" -q -f "$T/mix" -t 1 -j 4 -d "$T/scratch" --label kernel-c --db "$other"
status 0 "merge" "$REAIM" merge "$other"
contains "$T/out" "merged 1 runs" "one run merged"
status 0 "merge again" "$REAIM" merge "$other"
contains "$T/out" "merged 0 runs" "merging twice is a no-op"
status 0 "list" "$REAIM" list
contains "$T/out" "kernel-c" "merged run listed"
status 0 "list by label" "$REAIM" list --label kernel-a
ok "$([ "$(grep -c kernel "$T/out")" -eq 1 ] && echo 0 || echo 1)" "label filter"
status 0 "export classic" "$REAIM" export kernel-c --format classic
contains "$T/out" "AIM Multiuser Benchmark - Suite VII" "classic block"
status 1 "merge a file that is not a database" "$REAIM" merge "$T/mix"
if command -v sqlite3 >/dev/null 2>&1; then
	ok "$([ "$(sqlite3 "$REAIM_DB" 'PRAGMA integrity_check')" = ok ] && echo 0 || echo 1)" "integrity check"
	ok "$([ "$(sqlite3 "$REAIM_DB" 'SELECT COUNT(*) FROM runs')" -eq 3 ] && echo 0 || echo 1)" "three runs stored"
fi
finish
