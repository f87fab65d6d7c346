#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Several suites in one command (-s A -s B): each planned first, then run one after the other,
# each stored as its own run with its own table; a wrong suite runs nothing.
. "$(dirname "$0")/lib.sh"

printf 'FILESIZE: 16K\n10 add_int\n10 sync_disk_wrt\n' >"$T/mix"
printf 'name = "one";\nworkfile = "%s";\ntasks = "1";\njobs_per_task = 2;\n' "$T/mix" >"$T/one.cfg"
printf 'name = "two";\nworkfile = "%s";\ntasks = "1,2";\njobs_per_task = 2;\nosync = "off";\n' "$T/mix" >"$T/two.cfg"
printf 'name = "bad";\nworkfile = "%s";\ntasks = "0";\n' "$T/mix" >"$T/bad.cfg"

status 0 "-s one -s two" "$REAIM" --no-quiet-check -s "$T/one.cfg" -s "$T/two.cfg" -d "$T/scratch"
cp "$T/out" "$T/run.out"
got=$(grep -c '^Suite .*(. of 2)$' "$T/run.out")
ok "$([ "$got" -eq 2 ] && echo 0 || echo 1)" "a heading per suite ($got)"
# each suite's table under its heading: one's single task count, then two's O_SYNC off block
order=$(sed -n 's/^Suite .*\/\([a-z]*\)\.cfg (\(.\) of 2)$/\1/p; s/^Workload mix, O_SYNC \(o[nf]f*\)$/\1/p' "$T/run.out" | tr '\n' ' ')
ok "$([ "$order" = "one on two off " ] && echo 0 || echo 1)" "the suites run in the order given, each its table ($order)"
status 0 "list" "$REAIM" list
suites=$(awk 'NR > 1 { print $4 }' "$T/out" | tr '\n' ' ')
ok "$([ "$suites" = "two one " ] && echo 0 || echo 1)" "each suite stored as its own run ($suites)"
status 0 "show the second" "$REAIM" show last --brief
ok "$(grep -c '^[12]	' "$T/out" | grep -qx 2; echo $?)" "the second run holds its own two points"

# a wrong suite anywhere: its error, and nothing runs, not even the suites before it
status 1 "-s one -s bad" "$REAIM" --no-quiet-check -s "$T/one.cfg" -s "$T/bad.cfg" -d "$T/scratch"
contains "$T/err" "bad.cfg" "the error names the wrong suite"
ok "$(grep -q '^Suite\|^Workload' "$T/out"; [ $? -ne 0 ] && echo 0 || echo 1)" "nothing ran"
"$REAIM" list >"$T/list"
ok "$([ "$(awk 'NR > 1' "$T/list" | wc -l)" -eq 2 ] && echo 0 || echo 1)" "no run stored"

# --name with two suites and a wrong suite: both errors in one pass, nothing run
status 1 "--name with -s one -s bad" "$REAIM" --no-quiet-check -s "$T/one.cfg" -s "$T/bad.cfg" --name x -d "$T/scratch"
contains "$T/err" "names the workload of -f" "--name refused"
contains "$T/err" "bad.cfg" "and the wrong suite named in the same pass"

# --dry-run: every suite's plan
status 0 "--dry-run of two suites" "$REAIM" --dry-run -s "$T/one.cfg" -s "$T/two.cfg" -d "$T/scratch"
ok "$([ "$(grep -c '^Suite .*(. of 2)$' "$T/out")" -eq 2 ] && echo 0 || echo 1)" "--dry-run: each suite's plan"

echo "1..$n"
[ "$failed" -eq 0 ]
