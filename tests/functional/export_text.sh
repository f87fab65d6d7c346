#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Machine-read outputs stay valid for any stored text and number: a run labelled with control
# characters, quotes and invalid UTF-8, from a workfile with such a name, exported as JSON and CSV,
# compared, plotted; and figures that are NaN or infinite in the database.
. "$(dirname "$0")/lib.sh"

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# reaim refuses such text on its command line, so it is put in the database as another
# program (or an older version, or a merge) might have left it
label_a=$(printf 'k\001\t"q",\377\300x\nline')
label_b=$(printf 'b\033[1m\302')
printf '10 add_int\n10 pipe_cpy\n' >"$T/wf"
check "a run" "$REAIM" -q --no-quiet-check -f "$T/wf" -t 1,2 -j 4 -d "$T/scratch" --label plain-a
check "a second run" "$REAIM" -q --no-quiet-check -f "$T/wf" -t 1,2 -j 4 -d "$T/scratch" --label plain-b
if have "labels with control characters and invalid UTF-8 stored" python3; then
	check "labels with control characters and invalid UTF-8 stored" python3 -c '
import sqlite3, sys
a = bytes.fromhex("6b0109227122 2cffc0780a6c696e65".replace(" ", ""))
b = bytes.fromhex("621b5b316dc2")
w = bytes.fromhex("7701ff2c2278")
c = sqlite3.connect(sys.argv[1])
c.text_factory = bytes
for run, label in ((1, a), (2, b)):
    c.execute("UPDATE runs SET label = CAST(? AS TEXT) WHERE id = ?", (label, run))
    c.execute("UPDATE workload_options SET value = CAST(? AS TEXT) WHERE key = \x27label\x27 AND workload_id IN"
              " (SELECT id FROM workloads WHERE run_id = ?)", (label, run))
c.execute("UPDATE workloads SET name = CAST(? AS TEXT)", (w,))
c.commit()' "$REAIM_DB"
fi

status 0 "export json" "$REAIM" export 1 --format json
cp "$T/out" "$T/a.json"
status 0 "export csv" "$REAIM" export 1 --format csv
cp "$T/out" "$T/a.csv"
status 0 "compare json" "$REAIM" compare 1 2 --format json
cp "$T/out" "$T/c.json"
status 0 "compare csv" "$REAIM" compare 1 2 --format csv
cp "$T/out" "$T/c.csv"
status 0 "plot" "$REAIM" plot 1 2 -o "$T/p.svg" --diff --title "$label_a"
status 0 "timeline" "$REAIM" plot 1 --timeline -o "$T/t.svg" --title "$label_b"

if command -v python3 >/dev/null 2>&1; then
	check "the json export is valid JSON (python3 -m json.tool)" python3 -m json.tool "$T/a.json"
	check "compare's json is valid JSON" python3 -m json.tool "$T/c.json"
	# shellcheck disable=SC2016
	check "the label comes back with U+FFFD for each invalid byte, control characters kept" python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8", errors="strict"))
assert d["run"]["label"] == "k\x01\t\"q\",\ufffd\ufffdx\nline", repr(d["run"]["label"])
assert d["points"][0]["workload"] == "w\x01\ufffd,\"x", repr(d["points"][0]["workload"])
assert d["workloads"][0]["options"]["label"] == d["run"]["label"]
c = json.load(open(sys.argv[2], encoding="utf-8"))
assert c["rows"][0]["workload"] == "w\x01\ufffd,\"x", repr(c["rows"][0])
' "$T/a.json" "$T/c.json"
	check "the csv export parses (python csv), one row per valid point" python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
assert rows[0][0] == "Forks" and rows[0][11:] == ["noise", "workload", "osync", "variant", "round", "cpus", "load"], rows[0]
assert len(rows) == 3 and all(len(r) == 18 for r in rows), rows
assert rows[1][12] == "w\x01\ufffd,\"x", rows[1]
' "$T/a.csv"
	check "compare's csv parses, labels and workload in one field each" python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
assert len(rows) == 3 and all(len(r) == 72 for r in rows), rows
assert rows[1][0] == "w\x01\ufffd,\"x" and rows[1][5] == "k\x01\t\"q\",\ufffd\ufffdx\nline", rows[1]
assert rows[1][6] == "1" and rows[1][10] == "b\x1b[1m\ufffd" and rows[1][11] == "2", rows[1]
' "$T/c.csv"
else
	for what in "json export" "compare json" "label round trip" "csv export" "compare csv"; do
		skip "$what parses" "python3 missing"
	done
fi
for svg in p t; do
	if command -v xmllint >/dev/null 2>&1; then
		check "the $svg SVG is well-formed XML (xmllint)" xmllint --noout "$T/$svg.svg"
	elif command -v python3 >/dev/null 2>&1; then
		check "the $svg SVG is well-formed XML (python3)" python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$T/$svg.svg"
	else
		skip "the $svg SVG is well-formed XML" "neither xmllint nor python3"
	fi
done

# figures that are not finite: NULL (what NaN is stored as) and infinity, written in the database
if command -v sqlite3 >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	sqlite3 "$REAIM_DB" "UPDATE points SET jobs_per_min = NULL, jti = 9e999, user_pct = -9e999 WHERE run_id = 1 AND tasks = 1;
		UPDATE samples SET sys_pct = NULL WHERE point_id = (SELECT id FROM points WHERE run_id = 1 AND tasks = 1)"
	status 0 "export json of NaN and infinite figures" "$REAIM" export 1 --format json
	cp "$T/out" "$T/nan.json"
	# shellcheck disable=SC2016
	check "they are null in JSON, which stays valid" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["points"][0]
assert p["tasks"] == 1 and p["jobs_per_min"] is None and p["jti"] is None, p
assert p["system"]["user_pct"] is None and all(s["sys_pct"] is None for s in p["samples"]), p
' "$T/nan.json"
	status 0 "export csv of them" "$REAIM" export 1 --format csv
	cp "$T/out" "$T/nan.csv"
	check "they are empty fields in CSV" python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[1][0] == "1" and rows[1][1] == "" and rows[1][8] == "" and rows[1][2] != "", rows
' "$T/nan.csv"
	status 0 "compare json with them" "$REAIM" compare 1 2 --format json
	cp "$T/out" "$T/nan-c.json"
	check "compare's json stays valid" python3 -m json.tool "$T/nan-c.json"
	status 0 "timeline of a series with a NULL reading" "$REAIM" plot 1 --timeline --metric sys_pct -o "$T/n.svg"
	check "no NaN reaches the SVG" sh -c "! grep -qi nan '$T/n.svg'"
else
	skip "NaN and infinity in exports" "sqlite3 or python3 missing"
fi
# a merged row of +inf and -inf figures: show prints '-' for each, never inf or nan
if have "show of infinite figures" sqlite3; then
	sqlite3 "$REAIM_DB" "UPDATE points SET jobs_per_min = 9e999, real_s = 9e999, user_s = -9e999 WHERE run_id = 2 AND tasks = 1"
	for v in "" -v --brief; do
		status 0 "show ${v:-of} a run with infinite figures" "$REAIM" show 2 $v
		ok "$(! grep -qiwE 'inf|nan' "$T/out" && echo 0 || echo 1)" "show ${v:-plain}: no inf or nan printed"
		grep -iE 'inf|nan' "$T/out" | head -3 | sed 's/^/#   /'
	done
	contains "$T/out" "Max Jobs per Minute - at 1 tasks" "the maximum an infinite figure reaches is '-'"
fi
finish
