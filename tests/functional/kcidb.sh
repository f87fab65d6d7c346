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
assert len(k["tests"]) == len(points), (len(k["tests"]), len(points))
assert len({t["id"] for t in k["tests"]}) == len(points), "test ids repeat"
pathre = re.compile(r"^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$")
allowed = {"build_id", "id", "origin", "environment", "path", "comment", "log_url", "log_excerpt", "status",
           "number", "start_time", "duration", "input_files", "output_files", "misc"}
for t, p in zip(k["tests"], points):
    assert set(t) <= allowed, sorted(set(t) - allowed)
    assert idre.match(t["id"]) and t["id"].startswith(origin + ":") and t["origin"] == origin, t["id"]
    assert t["build_id"] == build_id, t["build_id"]
    assert pathre.match(t["path"]) and t["path"] == "reaim.%s.%d" % (p["workload"], p["tasks"]), t["path"]
    if p["valid"]:
        assert t["status"] == "DONE", t["status"]
        assert set(t["number"]) <= {"value", "unit", "prefix"}, t["number"]
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
contains "$T/err" "--origin: KCIDB takes an origin of lower-case letters" "says what it takes"
status 1 "an id without its origin" "$REAIM" export last --format kcidb --checkout-id abc123
contains "$T/err" "--checkout-id" "names the option"

# an invalid point: ERROR, no number
status 2 "a run with invalid points" "$REAIM" --no-quiet-check -f "$T/mix" -t 2 -j 20 -d "$T/scratch" --timeout 0.001
"$REAIM" export last --format kcidb >"$T/k3.json"
"$REAIM" export last --format json >"$T/run3.json"
check "an invalid point is an ERROR without a number" python3 "$T/kcidb.py" "$T/k3.json" "$T/run3.json" reaim - -
ok "$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["tests"]; sys.exit(not any(x["status"] == "ERROR" and x.get("log_excerpt") for x in t))' "$T/k3.json"; echo $?)" \
	"with the reason in its log excerpt"
finish
