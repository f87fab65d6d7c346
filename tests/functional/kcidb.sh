#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `reaim export --format kcidb`: a KCIDB schema v5 submission of a stored run, its required
# fields and links checked our own way, its figures those the JSON export holds.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "ok 1 # SKIP python3 is not installed"
	echo "1..1"
	exit 0
fi
printf '10 add_short\n' >"$T/mix"
check "a run of two points" "$REAIM" --no-quiet-check -f "$T/mix" -t 1,2 -j 5 -d "$T/scratch"
check "exported as kcidb" "$REAIM" export last --format kcidb
cp "$T/out" "$T/k.json"
check "and as json" "$REAIM" export last --format json
cp "$T/out" "$T/run.json"

# kcidb.py K.json RUN.json ORIGIN CHECKOUT_ID BUILD_ID (- for the defaults): what KCIDB requires of
# a submission (schema v5), and that each test's figures are the stored point's
cat >"$T/kcidb.py" <<'PY'
import json, re, sys
k = json.load(open(sys.argv[1]))
run = json.load(open(sys.argv[2]))
origin = sys.argv[3]
release = run["environment"]["kernel.release"]
checkout_id = sys.argv[4] if sys.argv[4] != "-" else origin + ":" + release
build_id = sys.argv[5] if sys.argv[5] != "-" else checkout_id
def nulls(x):
    if x is None:
        return True
    if isinstance(x, dict):
        return any(nulls(v) for v in x.values())
    if isinstance(x, list):
        return any(nulls(v) for v in x)
    return False
assert not nulls(k), "a null"
assert set(k) <= {"version", "checkouts", "builds", "tests", "issues", "incidents"}, sorted(k)
assert k["version"]["major"] == 5 and 0 <= k["version"].get("minor", 0) <= 3, k["version"]
idre = re.compile(r"^[a-z0-9_]+:[^\0]*$")
(c,) = k["checkouts"]
assert c["id"] == checkout_id and c["origin"] == origin, c
(b,) = k["builds"]
assert b["id"] == build_id and b["checkout_id"] == checkout_id and b["origin"] == origin, b
assert all(idre.match(x) for x in (c["id"], b["id"], b["checkout_id"]))
points = run["points"]
tests = [t for t in k["tests"] if t["path"] != "reaim"]
whole = [t for t in k["tests"] if t["path"] == "reaim"]
# a run that did not complete says so in a test of its own; its points alone would all be DONE
if run["run"]["status"] in ("complete", "running"):
    assert not whole, whole
else:
    assert len(whole) == 1 and whole[0]["status"] == "ERROR" and whole[0]["log_excerpt"], whole
single = run["run"]["mode"] == "single"
if single:
    # the calibration points before each test's last are no results
    last = {}
    for p in points:
        last[p["workload"]] = p
    points = list(last.values())
assert len(tests) == len(points), (len(tests), len(points))
assert len({t["id"] for t in k["tests"]}) == len(k["tests"]), "test ids repeat"
pathre = re.compile(r"^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$")
allowed = {"build_id", "id", "origin", "environment", "path", "comment", "log_url", "log_excerpt", "status",
           "number", "start_time", "duration", "input_files", "output_files", "misc"}
for t, p in zip(tests, points):
    assert set(t) <= allowed, sorted(set(t) - allowed)
    assert idre.match(t["id"]) and t["id"].startswith(origin + ":") and t["origin"] == origin, t["id"]
    assert t["build_id"] == build_id, t["build_id"]
    assert pathre.match(t["path"]) and t["path"] == "reaim.%s.%d" % (p["workload"], p["tasks"]), t["path"]
    if p["valid"]:
        assert t["status"] == "DONE", t["status"]
        assert set(t["number"]) <= {"value", "unit", "prefix"}, t["number"]
        if single:
            # AIM9's ops/s, calls not called jobs
            assert t["number"]["unit"] == "ops/s" and t["number"]["value"] > 0, t["number"]
            assert "jobs_per_min" not in t["misc"] and t["misc"]["calls_per_s"] > 0, t["misc"]
            continue
        assert t["number"] == {"value": p["jobs_per_min"], "unit": "jobs/min"}, (t["number"], p["jobs_per_min"])
        for key in ("real_s", "cpu_s", "jti"):
            assert t["misc"][key] == p[key], (key, t["misc"][key], p[key])
    else:
        assert t["status"] in ("ERROR", "FAIL") and "number" not in t, t
print("ok", len(points))
PY
check "the required fields, the links and the stored figures" python3 "$T/kcidb.py" "$T/k.json" "$T/run.json" reaim - -
contains "$T/out" "ok 2" "one test per point"

# origin and ids from the options
check "origin and ids given" "$REAIM" export last --format kcidb --origin lab_1 --checkout-id lab_1:abc123 --build-id lab_1:abc123-x86
cp "$T/out" "$T/k2.json"
check "are those written" python3 "$T/kcidb.py" "$T/k2.json" "$T/run.json" lab_1 lab_1:abc123 lab_1:abc123-x86
status 1 "an origin KCIDB refuses" "$REAIM" export last --format kcidb --origin Lab-1
contains "$T/err" "--origin Lab-1: KCIDB takes an origin of lower-case letters" "says what it takes"
status 1 "an id without its origin" "$REAIM" export last --format kcidb --checkout-id abc123
contains "$T/err" "--checkout-id" "names the option"

status 1 "an id of another origin" "$REAIM" export last --format kcidb --build-id other:x
contains "$T/err" "--build-id other:x: KCIDB takes an id of the form ORIGIN:TEXT, with the export's origin: reaim:" \
	"names the origin it must have"
status 1 "an id of another origin than --origin" "$REAIM" export last --format kcidb --origin lab_1 --checkout-id reaim:x
check "ids of the origin given" "$REAIM" export last --format kcidb --origin lab_1 --checkout-id lab_1:x --build-id lab_1:y

# --name: the workload's name in the paths, not the workfile's
check "a run with --name" "$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 5 -d "$T/scratch" --name add_short
check "exported" "$REAIM" export last --format kcidb
contains "$T/out" '"path": "reaim.add_short.1"' "its path names the workload"
status 1 "a --name no output could carry" "$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 5 -d "$T/scratch" --name 'a b'
contains "$T/err" "--name: 'a b': not a name" "says why"

# a single-user (AIM9) run: each test's last point, its number AIM9's ops/s; the calibration points left out
printf '1 add_short\n1 creat_clo\n' >"$T/s9"
check "a single-user run" "$REAIM" single --no-quiet-check -f "$T/s9" -p 0.3 -d "$T/scratch"
ok "$([ "$(sqlite3 "$REAIM_DB" "SELECT COUNT(*) > 2 FROM points WHERE run_id = (SELECT MAX(id) FROM runs)" 2>/dev/null)" != 0 ] && echo 0 || echo 1)" \
	"with calibration points before the measured ones"
"$REAIM" export last --format kcidb >"$T/k4.json"
"$REAIM" export last --format json >"$T/run4.json"
check "single-user: one test per test, ops/s its number" python3 "$T/kcidb.py" "$T/k4.json" "$T/run4.json" reaim - -
contains "$T/out" "ok 2" "two tests, no calibration point"

# an invalid point: ERROR, no number
status 2 "a run with invalid points" "$REAIM" --no-quiet-check -f "$T/mix" -t 2 -j 20 -d "$T/scratch" --timeout 0.001
"$REAIM" export last --format kcidb >"$T/k3.json"
"$REAIM" export last --format json >"$T/run3.json"
check "an invalid point is an ERROR without a number" python3 "$T/kcidb.py" "$T/k3.json" "$T/run3.json" reaim - -
ok "$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["tests"]; sys.exit(not any(x["status"] == "ERROR" and x.get("log_excerpt") for x in t))' "$T/k3.json"; echo $?)" \
	"with the reason in its log excerpt"

# a run killed with SIGKILL, its row still 'running' (no run since marked it): no export says it passed
start_session "$REAIM" --no-quiet-check -f "$T/mix" -t 1,2,2,2,2,2,2 -j 20 -d "$T/scratch" --label killed >/dev/null 2>&1
pid=$session
i=0
while [ $i -lt 400 ] && [ "$(sqlite3 "$REAIM_DB" "SELECT COUNT(*) FROM points p JOIN runs r ON r.id = p.run_id WHERE r.label = 'killed'" 2>/dev/null)" = 0 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
session_gone "$pid"
ok "$([ "$(sqlite3 "$REAIM_DB" "SELECT status FROM runs WHERE label = 'killed'" 2>/dev/null)" = running ] && echo 0 || echo 1)" \
	"the killed run's row still says running"
status 2 "kcidb export of the killed run: exit 2" "$REAIM" export killed --format kcidb
cp "$T/out" "$T/k5.json"
contains "$T/err" "was interrupted (the reaim process died" "saying the run died"
"$REAIM" export killed --format json >"$T/run5.json" 2>/dev/null
check "kcidb: the run an ERROR test of its own, with why" python3 "$T/kcidb.py" "$T/k5.json" "$T/run5.json" reaim - -
contains "$T/run5.json" '"status": "interrupted"' "json: interrupted"
status 2 "lava export of the killed run: exit 2" "$REAIM" export killed --format lava
contains "$T/out" "run-complete fail" "lava: the run's own case fails"
status 2 "reaim7 export of the killed run: exit 2" "$REAIM" export killed --format reaim7
check "a completed run exports with exit 0" "$REAIM" export 1 --format lava
contains "$T/out" "run-complete pass" "lava: its run case passes"
finish
