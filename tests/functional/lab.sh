#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# reaim lab against bad input: words it refuses, an identity file without the identity, a server that
# is not there (a free port of 127.0.0.1), and servers that answer badly, each served by a small HTTP
# responder this test starts on 127.0.0.1 and kills: one refusing every token, one answering garbage,
# one without the device type, one whose device has no tag of its own, one whose job ends Incomplete (an infrastructure failure resubmitted once),
# one whose job's log carries no database. Each is a clear error naming it, exit 1 for words the lab
# refuses and 2 for work that could not be done, nothing merged and what the database had kept; the
# jobs submitted are in the ledger, so a second call submits none again. The definition's -T stops a
# run in time with its database printed. The real lab is tests/long/lab.sh's.
. "$(dirname "$0")/lib.sh"

if ! have "reaim lab against bad servers" python3; then
	finish
	exit
fi
responder=""
stop_responder() {
	[ -n "$responder" ] && kill "$responder" 2>/dev/null && wait "$responder" 2>/dev/null
	responder=""
}
trap 'stop_responder; rm -rf "$T"' EXIT

export XDG_CONFIG_HOME="$T/config"
mkdir -p "$XDG_CONFIG_HOME"
printf 'kernel\n' >"$T/bzImage"
printf 'root\n' >"$T/root.cpio.gz"
mkdir -p "$T/tmp"
lab() { TMPDIR="$T/tmp" "$REAIM" lab --identity t --device-type qemu --kernel "a=$T/bzImage" --kernel "b=$T/bzImage:pti=on" \
	--root "$T/root.cpio.gz" --poll 0.2 --db "$T/lab.db" "$@"; }
identity() { printf 't:\n  uri: http://127.0.0.1:%s/RPC2\n  token: the-token\n' "$1" >"$XDG_CONFIG_HOME/lavacli.yaml"; }

# ---- words ----
status 1 "one kernel is no comparison" "$REAIM" lab --device-type qemu --kernel "a=$T/bzImage" --root "$T/root.cpio.gz"
contains "$T/err" "two or more --kernel" "... saying so"
status 1 "a kernel that is not there" lab --kernel "c=$T/nothing"
contains "$T/err" "$T/nothing" "... naming it"
status 1 "a run word a job cannot carry" lab -- -s 'quick;reboot'
contains "$T/err" "';'" "... naming the character"
status 1 "a run option the lab sets" lab -- --label x
status 1 "no identity file" lab
contains "$T/err" "$XDG_CONFIG_HOME/lavacli.yaml: no such file" "... naming the file"
printf 'other:\n  uri: http://127.0.0.1/RPC2\n  token: x\n' >"$XDG_CONFIG_HOME/lavacli.yaml"
status 1 "an identity the file has not" lab
contains "$T/err" "no identity t (it has: other)" "... naming the ones it has"

# ---- a server that is not there: a port nothing listens on ----
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
identity "$port"
status 2 "an unreachable server" lab
contains "$T/err" "http://127.0.0.1:$port (identity t)" "... naming the server and the identity"
ok "$([ ! -e "$T/lab.db" ] && echo 0 || echo 1)" "... and no database made"

# ---- bad servers ----
cat >"$T/responder.py" <<'EOF'
# A server that answers badly, as MODE says; it writes its port to PORTFILE and counts job submissions.
import http.server, json, sys
mode, portfile, counts = sys.argv[1:]
class Bad(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def send(self, code, body, ctype="application/json"):
        data = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        p = self.path
        if mode == "token":
            return self.send(401, '{"detail": "Invalid token."}')
        if mode == "garbage":
            return self.send(200, "<html>it works</html>", "text/html")
        if p.startswith("/api/v0.2/devicetypes/"):
            return self.send(404 if mode == "notype" else 200, '{"name": "qemu"}')
        if p.startswith("/api/v0.2/tags/"):
            return self.send(200, '{"results": [{"id": 1, "name": "qemu01"}]}')
        if p.startswith("/api/v0.2/devices/"):
            tags = [] if mode == "untagged" else [1]
            return self.send(200, json.dumps({"results": [{"hostname": "qemu01", "worker_host": "w1",
                                                             "health": "Good", "tags": tags}]}))
        if p.startswith("/api/v0.2/jobs/") and p.endswith("/logs/"):
            with open(counts, "a") as f:
                f.write("log\n")
            kind = "Infrastructure" if mode == "infra" else "Test"
            err = '- {"lvl": "results", "msg": {"definition": "lava", "case": "job", "result": "fail", "error_type": "%s"}}\n' % kind
            return self.send(200, '- {"lvl": "target", "msg": "no database here"}\n' + (err if mode in ("incomplete", "infra") else ""),
                             "application/yaml")
        if p.startswith("/api/v0.2/jobs/"):
            health = "Incomplete" if mode in ("incomplete", "infra") else "Complete"
            return self.send(200, json.dumps({"id": 7, "state": "Finished", "health": health, "actual_device": "qemu01",
                                              "failure_comment": "the test shell died" if mode == "incomplete" else None}))
        self.send(404, '{"detail": "Not found."}')
    def do_POST(self):
        n = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        json.loads(n)["definition"]
        with open(counts, "a") as f:
            f.write("submitted\n")
        self.send(201, json.dumps({"message": "job(s) successfully submitted", "job_ids": [7]}))
srv = http.server.HTTPServer(("127.0.0.1", 0), Bad)
with open(portfile + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
import os
os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
EOF
# serve MODE: the responder started in that mode, the identity pointed at it
serve() {
	stop_responder
	rm -f "$T/port"
	python3 "$T/responder.py" "$1" "$T/port" "$T/posts" &
	responder=$!
	for _ in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
	identity "$(cat "$T/port" 2>/dev/null)"
}

serve token
status 2 "a wrong token" lab
contains "$T/err" "refused the token of identity t (HTTP 401" "... said as such"
serve garbage
status 2 "a server answering garbage" lab
contains "$T/err" "not LAVA's JSON: \"<html>it works</html>\"" "... quoting it"
serve notype
status 1 "an unknown device type" lab
contains "$T/err" "has no device type qemu" "... naming it"
serve untagged
status 1 "a device without a tag of its own" lab
contains "$T/err" "devices tags add qemu01 qemu01" "... saying how to give it one"

# a database with a run already: kept whatever a job does
"$REAIM" run -s quick -t 1 -j 2 --label before --db "$T/lab.db" >/dev/null 2>&1
runs() { sqlite3 "$T/lab.db" "SELECT group_concat(label) FROM runs" 2>/dev/null || echo none; }
have_sqlite=0
command -v sqlite3 >/dev/null 2>&1 || have_sqlite=1
serve incomplete
: >"$T/posts"
status 2 "jobs that end Incomplete" lab --boots 2 --ledger "$T/inc.lab"
contains "$T/err" "job 7 (a on qemu01): Incomplete (Test): the test shell died" "... with LAVA's error type and reason"
ok "$([ "$(grep -c submitted "$T/posts")" -eq 2 ] && echo 0 || echo 1)" "... a Test error not resubmitted (2 jobs, 2 submissions)"
ok "$([ "$(tr '\n' ' ' <"$T/posts")" = "submitted log submitted log " ] && echo 0 || echo 1)" \
	"... the device's second job submitted only once its first was done"
serve infra
: >"$T/posts"
status 2 "jobs that fail in the lab's infrastructure" lab --boots 2 --ledger "$T/infra.lab"
ok "$([ "$(grep -c submitted "$T/posts")" -eq 4 ] && echo 0 || echo 1)" "... each resubmitted once (2 jobs, 4 submissions)"
contains "$T/out" "2 resubmitted after an infrastructure failure, 2 failed" "... and said"
serve nodb
: >"$T/posts"
status 2 "a job whose log carries no database" lab --boots 2 --ledger "$T/nodb.lab"
contains "$T/err" "carries 0 databases" "... said"
if [ $have_sqlite -eq 0 ]; then
	ok "$([ "$(runs)" = before ] && echo 0 || echo 1)" "... nothing merged, the run already there kept"
else
	ok 0 "nothing merged # SKIP no sqlite3"
fi
contains "$T/nodb.lab" "slot 0 failed 1 7 qemu01" "the failed job is in the ledger"
status 2 "called again" lab --boots 2 --ledger "$T/nodb.lab"
ok "$([ "$(grep -c submitted "$T/posts")" -eq 2 ] && echo 0 || echo 1)" "... no job submitted twice (2 submissions in all)"
contains "$T/out" "0 of 2 jobs merged" "... and the summary says what the ledger holds"
status 1 "a ledger of another plan" lab --boots 4 --ledger "$T/nodb.lab"
contains "$T/err" "nodb.lab:2: the ledger of another comparison" "... refused naming it"
stop_responder
ok "$([ -z "$(ls -A "$T/tmp")" ] && echo 0 || echo 1)" "every temporary file removed by the call that made it"

# the definition's -T (reaim lab sets it below the job's timeout): a run stopped in time still prints
# its database, which merges with the points it finished
mkdir -p "$T/def" "$T/disk"
cp "$SRCDIR/contrib/lava/reaim.sh" "$T/def/"
start=$(date +%s)
(unset REAIM_DB; sh "$T/def/reaim.sh" -b "$REAIM" -S true -l stalled -T 3 -a "-s quick -t 1,2,4,8,16 -j 60 -d $T/disk") \
	>"$T/def.out" 2>"$T/def.err"
took=$(($(date +%s) - start))
ok "$([ "$took" -lt 60 ] && echo 0 || echo 1)" "reaim.sh -T 3: the run stopped in time (${took} s)"
contains "$T/def/output/result.txt" "reaim-db-printed pass" "... its database printed all the same"
contains "$T/def/output/result.txt" "reaim-run-given fail" "... the run reported as failed"
status 0 "... and merged from the log" "$REAIM" merge --from-lava-log "$T/def.out" --db "$T/stalled.db"
"$REAIM" list --db "$T/stalled.db" >"$T/out" 2>&1
contains "$T/out" "interrupted" "... as an interrupted run, its points done kept"
finish
