#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# O_SYNC on and off grouped and labelled: per workload, O_SYNC off before on, each block headed
# by its workload and setting in show and in every export (a sweep interleaves the settings, a
# search runs them one after the other).
. "$(dirname "$0")/lib.sh"

printf 'FILESIZE: 16K\n10 add_int\n10 sync_disk_wrt\n' >"$T/mix"
cat >"$T/two.cfg" <<CFG
name = "two";
tasks = "1,2";
jobs_per_task = 2;
osync = "both";
workloads = (
    { name = "alpha"; workfile = "$T/mix"; },
    { name = "beta"; workfile = "$T/mix"; mode = "crossover"; max_tasks = 2; threshold = 0.001; }
);
CFG
blocks="alpha off|alpha on|beta off|beta on|"

status 0 "a sweep and a search, O_SYNC both" "$REAIM" --no-quiet-check -s "$T/two.cfg" -d "$T/scratch"
cp "$T/out" "$T/run.out"
# the search ran off, then on; the sweep's interleaved rows end with a table per setting, off first
got=$(sed -n 's/^Workload \([a-z]*\), O_SYNC \(o[nf]f*\)$/\1 \2/p' "$T/run.out" | tr '\n' '|')
ok "$([ "$got" = "$blocks" ] && echo 0 || echo 1)" "the run: a table per workload and setting, off first ($got)"
status 0 "show" "$REAIM" show last
got=$(sed -n 's/^Workload \([a-z]*\), O_SYNC \(o[nf]f*\)$/\1 \2/p' "$T/out" | tr '\n' '|')
ok "$([ "$got" = "$blocks" ] && echo 0 || echo 1)" "show: the same headings in the same order ($got)"
status 0 "show --brief" "$REAIM" show last --brief
got=$(grep '^Workload' "$T/out" | sed 's/^Workload \([a-z]*\), O_SYNC \(.*\)$/\1 \2/' | tr '\n' '|')
ok "$([ "$got" = "$blocks" ] && echo 0 || echo 1)" "show --brief: each setting's table alone ($got)"

# headings "Workload W, O_SYNC S" in the tables: each block's, in order, and the rows under each are its own
for fmt in aim7 reaim7; do
	status 0 "export $fmt" "$REAIM" export last --format "$fmt"
	got=$(sed -n 's/^Workload \([a-z]*\), O_SYNC \(o[nf]f*\)$/\1 \2/p' "$T/out" | uniq | tr '\n' '|')
	ok "$([ "$got" = "$blocks" ] && echo 0 || echo 1)" "$fmt: a heading per workload and setting, off first ($got)"
done
# lkp: a comment line heads each block; its "name: value" lines are as before
status 0 "export lkp" "$REAIM" export last --format lkp
got=$(sed -n 's/^# Workload \([a-z]*\), O_SYNC \(o[nf]f*\)$/\1 \2/p' "$T/out" | tr '\n' '|')
ok "$([ "$got" = "$blocks" ] && echo 0 || echo 1)" "lkp: a comment heading per block, off first ($got)"
ok "$(grep -v '^# Workload \|^[a-z_]*: [0-9.]*$\|^$' "$T/out" | grep -q .; [ $? -ne 0 ] && echo 0 || echo 1)" \
	"lkp: every other line is still name: value"
# csv and counters: the block's columns, rows grouped in the same order
status 0 "export csv" "$REAIM" export last --format csv
got=$(awk -F, 'NR > 1 { print $13 " " $14 }' "$T/out" | tr -d '"' | uniq | tr '\n' '|')
ok "$([ "$got" = "$blocks" ] && echo 0 || echo 1)" "csv: rows grouped by workload and setting, off first ($got)"
# lava: each test case named by its block, the blocks in order
status 0 "export lava" "$REAIM" export last --format lava
got=$(sed -n 's/^\([a-z]*\)-osync_\(o[nf]f*\)-.*/\1 \2/p' "$T/out" | uniq | tr '\n' '|')
ok "$([ "$got" = "$blocks" ] && echo 0 || echo 1)" "lava: test cases named by block, off first ($got)"
# json: the points in the same order, and a block list naming each block's points
status 0 "export json" "$REAIM" export last --format json
if have "json blocks" python3; then
	python3 - "$T/out" >"$T/py.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pts, blocks = d["points"], d["blocks"]
assert [(b["workload"], b["osync"]) for b in blocks] == [("alpha", "off"), ("alpha", "on"), ("beta", "off"),
                                                          ("beta", "on")], blocks
seen = []
for b in blocks:
    for i in b["points"]:
        p = pts[i]
        assert p["workload"] == b["workload"] and p["osync"] == (b["osync"] == "on"), (b, p)
        seen.append(i)
assert seen == list(range(len(pts))), seen
PY
	ok $? "json: blocks in order, each naming its own points"
	sed 's/^/#   /' "$T/py.out" | head -5
fi
# kcidb: every test says its setting, off first within a workload
status 0 "export kcidb" "$REAIM" export last --format kcidb
got=$(grep -o '"workload": "[a-z]*", "tasks": [0-9]*, "jobs_per_task": [0-9]*, "osync": "o[nf]f*"' "$T/out" |
	sed 's/"workload": "\([a-z]*\)".*"osync": "\(o[nf]f*\)"/\1 \2/' | uniq | tr '\n' '|')
ok "$([ "$got" = "$blocks" ] && echo 0 || echo 1)" "kcidb: tests grouped by block, off first ($got)"

# lkp of a run of one block: exactly LKP's stats, no heading
status 0 "a run of one block" "$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 2 -d "$T/scratch" --osync off
status 0 "export lkp of one block" "$REAIM" export last --format lkp
ok "$(grep -q '^#' "$T/out" && echo 1 || echo 0)" "lkp: one block prints LKP's stats alone, no heading"

echo "1..$n"
[ "$failed" -eq 0 ]
