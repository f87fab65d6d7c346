#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Text another program put in the database (a merged file, an old version): labels, suite and
# workload names and reasons with escape sequences, newlines, quotes and invalid UTF-8 reach
# the terminal escaped, and the CSV, JSON and SVG outputs stay well formed.
. "$(dirname "$0")/lib.sh"

if ! command -v sqlite3 >/dev/null 2>&1; then
	ok 0 "hostile stored text # SKIP needs sqlite3"
	finish
	exit 0
fi
printf '10 matrix_rtns\n' >"$T/mix"
check "run a" "$REAIM" -f "$T/mix" -t 1,2 -j 1 -r 2 -d "$T/scratch" --label a
check "run b" "$REAIM" -f "$T/mix" -t 1,2 -j 1 -r 2 -d "$T/scratch" --label b
# escape sequences (clear screen, set title), a newline, a quote, a comma and invalid UTF-8
bad="'x' || char(27) || '[2J' || char(27) || ']0;owned' || char(7) || char(10) || '\"q\",c' || CAST(x'ff' AS TEXT)"
sqlite3 "$REAIM_DB" "UPDATE runs SET label = $bad, suite_name = $bad, reason = $bad, host = $bad;
	UPDATE workloads SET name = $bad;" 2>"$T/err"
ok $? "hostile text stored"
esc=$(printf '\033')
bel=$(printf '\007')
raw() { # FILE: 0 when it holds no ESC or BEL byte
	! grep -q "[$esc$bel]" "$1"
}
status 0 "list" "$REAIM" list
ok "$(raw "$T/out"; echo $?)" "list: no raw control byte"
contains "$T/out" 'x\x1b[2J\x1b]0;owned\x07\n"q",c\xff' "list: the label shown escaped"
status 0 "show" "$REAIM" show 1 -v --tests
ok "$(raw "$T/out"; echo $?)" "show: no raw control byte"
contains "$T/out" 'label x\x1b[2J' "show: label escaped"
status 0 "compare" "$REAIM" compare 1 2
ok "$(raw "$T/out"; echo $?)" "compare: no raw control byte"
status 0 "compare --wide" "$REAIM" compare 1 2 --wide
ok "$(raw "$T/out"; echo $?)" "compare --wide: no raw control byte"
status 0 "compare csv" "$REAIM" compare 1 2 --format csv
# CSV carries stored text as it is, quoted (RFC 4180): a parser gets the same bytes back
if have "compare csv parses" python3; then
	rows=$(python3 -c 'import csv,sys; r = list(csv.reader(open(sys.argv[1], newline=""))); print(len(r) if len(r) > 1 and all(len(x) == len(r[0]) for x in r) else 0)' "$T/out")
	ok "$([ "$rows" -gt 1 ] && echo 0 || echo 1)" "compare csv: every row has every field ($rows rows)"
fi
status 0 "compare json" "$REAIM" compare 1 2 --format json
if have "json parses" python3; then
	ok "$(python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" 2>/dev/null; echo $?)" "compare json parses"
	status 0 "export json" "$REAIM" export 1 --format json
	ok "$(python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" 2>/dev/null; echo $?)" "export json parses"
	ok "$(raw "$T/out"; echo $?)" "export json: no raw control byte"
fi
status 0 "export reaim7" "$REAIM" export 1 --format reaim7
status 0 "plot" "$REAIM" plot 1 2 -o "$T/p.svg"
ok "$(raw "$T/p.svg"; echo $?)" "plot: no raw control byte in the SVG"
if have "the SVG parses" python3; then
	ok "$(python3 -c 'import sys,xml.dom.minidom as m; m.parse(sys.argv[1])' "$T/p.svg" 2>/dev/null; echo $?)" "the SVG parses"
fi
finish
