#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# reaim report --stat and --runs: the page's cells show the statistics and the runs compare shows,
# from the same model (each figure equal to compare's JSON), the verdict still the means'.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n10 pipe_cpy\n' >"$T/mix"
for l in A A B B; do
	check "a run labelled $l" "$REAIM" -q -f "$T/mix" -t 1,2 -j 6 -d "$T/scratch" --label "$l" \
		--sample-interval 0 --counters off
done

page="$T/views.html"
status 0 "report --stat median --stat max --runs" "$REAIM" report A B --stat median --stat max --runs -o "$page"
contains "$page" "<th>A Median Jobs/Min</th>" "the first statistic heads the sides' columns"
contains "$page" "the change, its interval, p and the verdict stay those of the means" "the page says the verdict stays the means'"
check "a max row under each task count" test "$(grep -c 'data-stat="max"' "$page")" -eq 2
check "a row per run under each task count" test "$(grep -c 'data-run=' "$page")" -eq 8
if have "the page is well-formed" xmllint; then
	check "the page is well-formed (xmllint)" xmllint --noout "$page"
fi

status 0 "compare's JSON of the same" "$REAIM" compare A B --runs --format json
cp "$T/out" "$T/compare.json"
if have "the page's figures against compare's JSON" python3; then
	python3 - "$page" "$T/compare.json" >"$T/cmp" 2>&1 <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
rows = json.load(open(sys.argv[2]))["rows"]
# each task count's row, then its max row, then its run rows, in the page's order
cells = re.findall(r'<tr><td>(\d+)</td><td>([^<]*)</td><td>\d+</td><td>([^<]*)</td>', page)
maxes = re.findall(r'data-stat="max"><td>max</td><td>([^<]*)</td><td></td><td>([^<]*)</td>', page)
runs = re.findall(r'data-run="(\d+)"><td>#\d+</td><td>([^<]*)</td><td></td><td>([^<]*)</td>', page)
bad = []
# the page prints one decimal of the model's double, the JSON six significant digits: within 0.1
def near(text, want):
    return text != "" and abs(float(text) - want) <= 0.1
for i, r in enumerate(rows):
    t, med_a, med_b = cells[i]
    if t != str(r["tasks"]) or not near(med_a, r["stats_base"]["median"]) or not near(med_b, r["stats_other"]["median"]):
        bad.append(("median", cells[i], r["stats_base"]["median"], r["stats_other"]["median"]))
    if not near(maxes[i][0], r["stats_base"]["max"]) or not near(maxes[i][1], r["stats_other"]["max"]):
        bad.append(("max", maxes[i], r["stats_base"]["max"], r["stats_other"]["max"]))
    got = runs[4 * i:4 * i + 4]
    want = [(v["run"], v["value"], 0) for v in r["runs_base"]] + [(v["run"], v["value"], 1) for v in r["runs_other"]]
    if len(got) != 4 or any(g[0] != str(w[0]) or g[2 - w[2]] != "" or not near(g[1 + w[2]], w[1])
                            for g, w in zip(got, want)):
        bad.append(("runs", got, want))
print(bad if bad else "same")
sys.exit(1 if bad or len(rows) != 2 else 0)
PY
	ok $? "every median, max and run figure of the page is compare's ($(tail -1 "$T/cmp" | cut -c1-200))"
fi

# compare's CSV with --runs: each side's runs and figures in two fields of their own, the JSON's
status 0 "compare --runs, CSV" "$REAIM" compare A B --runs --format csv
cp "$T/out" "$T/runs.csv"
if have "the CSV's runs against compare's JSON" python3; then
	python3 - "$T/runs.csv" "$T/compare.json" >"$T/cmp" 2>&1 <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
want = json.load(open(sys.argv[2]))["rows"]
bad = []
def pairs(field):
    return [(int(p.split(":")[0]), float(p.split(":")[1])) for p in field.split()]
for got, w in zip(rows, want):
    for col, key in (("base_run_values", "runs_base"), ("other_run_values", "runs_other")):
        exp = [(v["run"], v["value"]) for v in w[key]]
        have = pairs(got[col])
        if len(have) != len(exp) or any(a[0] != b[0] or abs(a[1] - b[1]) > 1e-5 * abs(b[1]) for a, b in zip(have, exp)):
            bad.append((got["tasks"], col, have, exp))
print(bad if bad else "same")
sys.exit(1 if bad or len(rows) != len(want) or len(rows) != 2 else 0)
PY
	ok $? "each row's runs and figures are compare's JSON's ($(tail -1 "$T/cmp" | cut -c1-200))"
fi
status 0 "compare's CSV without --runs" "$REAIM" compare A B --format csv
cp "$T/out" "$T/plain.csv"
check "... has no run columns" sh -c "head -1 '$T/plain.csv' | grep -q ',metric\$'"

status 0 "report without them" "$REAIM" report A B -o "$T/plain.html"
check "no further rows, the means' heading" sh -c "! grep -q 'class=\"more\"' '$T/plain.html' &&
	grep -q '<th>A Jobs/Min</th>' '$T/plain.html'"
status 1 "an unknown --stat is refused" "$REAIM" report A B --stat mode -o "$T/never.html"
contains "$T/err" "mean, median, min, max, sd, cv" "... naming the statistics"
check "... and no page is written" test ! -e "$T/never.html"
finish
