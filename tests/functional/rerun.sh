#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# How a run was made (show, show --files, export json), `reaim rerun` repeating it from the
# database alone, and `list` showing a running run's progress.
. "$(dirname "$0")/lib.sh"

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

mkdir -p "$T/files" "$T/tmp"
printf 'FILESIZE: 16K\n10 add_int\n10 pipe_cpy\n10 sync_disk_wrt\n' >"$T/files/mix_a"
printf '10 add_long\n5 creat_clo\n' >"$T/files/mix_b"
cat >"$T/files/two.cfg" <<EOF
name = "two";
tasks = "1,2";
jobs_per_task = 4;
dirs = [ "$T/scratch" ];
workloads = (
  { name = "a"; workfile = "mix_a"; osync = "both"; },
  { name = "b"; workfile = "mix_b"; jobs_per_task = 6; filesize = "8K"; sync_mode = "none"; }
);
EOF

check "the original run" "$REAIM" -q -s "$T/files/two.cfg" --seed 4242 --label 'first try'

# show and export say how the run was made
status 0 "show" "$REAIM" show last
contains "$T/out" "command_line             reaim -q -s $T/files/two.cfg --seed 4242 --label 'first try'" \
	"show prints the command line, quoted as a shell reads it"
contains "$T/out" "seed                     4242" "show prints the seed"
ok "$(grep -q "^  version  *$("$REAIM" --version | cut -d' ' -f2)\$" "$T/out"; echo $?)" "show prints the version"
ok "$(grep -q 'jobs_per_task' "$T/out"; [ $? -ne 0 ] && echo 0 || echo 1)" "the options only with -v"
status 0 "show -v" "$REAIM" show -v last
contains "$T/out" "Options of workload b:" "show -v prints each workload's options"
contains "$T/out" "  sync_mode                none" "with their values"
status 0 "show --files" "$REAIM" show --files last
contains "$T/out" "Suite two as stored:" "show --files prints the suite"
contains "$T/out" '{ name = "b"; workfile = "mix_b"; jobs_per_task = 6;' "its text"
contains "$T/out" "Workfile mix_b as stored:" "and each workfile"
contains "$T/out" "5 creat_clo" "with its text"
"$REAIM" export last --format json >"$T/orig.json"
contains "$T/orig.json" '"seed": 4242' "export json has the seed"
contains "$T/orig.json" '"command_line": "reaim -q -s ' "the command line"
contains "$T/orig.json" '"suite_text": "name = \"two\";\n' "the suite text"
contains "$T/orig.json" '"workfile_text": "10 add_long\n5 creat_clo\n"' "each workfile's text"
contains "$T/orig.json" '"filesize": "8K"' "the options"
contains "$T/orig.json" '"planned_points": 6, "planned_exact": true' "and the points it planned"

# the files are gone: the rerun needs only the database, and writes no file of its own
rm -r "$T/files"
nruns=$("$REAIM" list | grep -c '^[0-9]')
status 0 "rerun --dry-run" "$REAIM" rerun 'first try' --dry-run
contains "$T/out" "Suite two from run 1" "the dry run names the stored run"
contains "$T/out" "Points: 4 (2 task counts x 1 round x 2 O_SYNC settings)" "and its plan"
ok "$([ "$("$REAIM" list | grep -c '^[0-9]')" -eq "$nruns" ] && echo 0 || echo 1)" "a dry run stores nothing"
TMPDIR="$T/tmp" "$REAIM" rerun 'first try' >"$T/out" 2>"$T/err"
ok $? "rerun after its suite and workfiles were deleted"
contains "$T/err" "repeating run 1 (two, label first try): 2 workloads, seed 4242" "says what it repeats"
ok "$([ -z "$(ls -A "$T/tmp")" ] && echo 0 || echo 1)" "no temporary file left"
ok "$(scratch_is_empty; echo $?)" "no scratch left"
status 0 "show the rerun" "$REAIM" show last
contains "$T/out" "label $(uname -r)" "the label is the kernel's, as for a new run"
contains "$T/out" "rerun_of                 run 1 (label first try," "it names the run it repeats"
contains "$T/out" "command_line             reaim rerun 'first try'" "its own command line"
"$REAIM" export last --format json >"$T/again.json"

# the same plan: seed, suite, workloads, options, and per point the task count, jobs per
# task, O_SYNC setting, round, file size and each test's job count; only times differ
if command -v python3 >/dev/null 2>&1; then
	plan() {
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["run"]
wls = [(w["name"], w["workfile"], w["workfile_text"],
        sorted((k, str(v)) for k, v in w["options"].items() if k != "label")) for w in d["workloads"]]
pts = [(p["workload"], p["osync"], p["tasks"], p["repeat"], p["jobs_per_task"], p["file_kib"], p["valid"],
        [(t["name"], t["count"]) for t in p["tests"]]) for p in d["points"]]
print(json.dumps([r["seed"], r["suite"], r["suite_text"], r["mode"], r["version"], wls, pts], indent=1))' "$1"
	}
	plan "$T/orig.json" >"$T/orig.plan"
	plan "$T/again.json" >"$T/again.plan"
	if diff "$T/orig.plan" "$T/again.plan" >"$T/diff"; then ok 0 "the rerun has the same plan"; else
		ok 1 "the rerun has the same plan"
		sed 's/^/#   /' "$T/diff" | head -20
	fi
	ok "$(grep -c '"add_long"' "$T/again.plan" | grep -qx 2; echo $?)" "both task counts of workload b ran"
	ok "$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["run"]; b=json.load(open(sys.argv[2]))["run"]
sys.exit(0 if b["rerun_of"] == a["uuid"] and a["rerun_of"] is None else 1)' "$T/orig.json" "$T/again.json"; echo $?)" \
		"export json names the original by its uuid"
else
	skip "the rerun has the same plan" "python3 missing"
fi
status 0 "rerun with a label" "$REAIM" rerun 1 --label again -q
ok "$("$REAIM" list --label again | grep -q complete; echo $?)" "stored under that label"
status 1 "rerun of no run" "$REAIM" rerun nosuch
contains "$T/err" "no run matches 'nosuch'" "says so"
status 1 "rerun needs a run" "$REAIM" rerun

# single mode stores a row per test; its rerun measures the same tests again
printf '10 add_int\n10 creat_clo\n' >"$T/single_mix"
check "single mode" "$REAIM" single -q -f "$T/single_mix" -p 0.1 -d "$T/scratch" --label single-a
rm "$T/single_mix"
check "rerun of single mode" "$REAIM" rerun single-a --label single-b -q
if have "rerun of single mode stores the same tests" sqlite3; then
	tests_of() { sqlite3 "$REAIM_DB" "SELECT group_concat(name) FROM (SELECT w.name FROM workloads w JOIN runs r ON r.id = w.run_id WHERE r.label = '$1' ORDER BY w.id)"; }
	ok "$([ "$(tests_of single-a)" = "$(tests_of single-b)" ] && [ "$(tests_of single-b)" = "add_int,creat_clo" ] && echo 0 || echo 1)" \
		"the same tests, once each ($(tests_of single-b))"
fi

# growing and searching modes plan at most so many points, or cannot say
printf '10 add_int\n' >"$T/one"
check "crossover" "$REAIM" -q --no-quiet-check -f "$T/one" -t 1 -j 2 --mode crossover --max-tasks 4 --threshold 1 -d "$T/scratch"
"$REAIM" export last --format json >"$T/x.json"
contains "$T/x.json" '"planned_points": 3, "planned_exact": false' "crossover: at most 3 points (1, 2, 4 tasks)"
check "peak" "$REAIM" -q --no-quiet-check -f "$T/one" -t 1 -j 2 --mode peak --max-tasks 2 -d "$T/scratch"
"$REAIM" export last --format json >"$T/x.json"
contains "$T/x.json" '"planned_points": null' "peak: cannot say"

# a running run's progress, then stopped: its whole plan is stored all the same
cat >"$T/long.cfg" <<EOF
tasks = "1";
repeat = 40;
jobs_per_task = 3;
dirs = [ "$T/scratch" ];
workloads = ( { name = "first"; workfile = "$T/one"; }, { name = "second"; workfile = "$T/one"; } );
EOF
"$REAIM" -q -s "$T/long.cfg" --label progress >/dev/null 2>"$T/long.err" &
pid=$!
seen=
i=0
while [ $i -lt 300 ] && kill -0 $pid 2>/dev/null; do
	seen=$("$REAIM" list --label progress 2>/dev/null | sed -n 's/.* \(running [0-9]*\/[0-9?≤]*\) .*/\1/p')
	case "$seen" in "running "[1-9]*) break ;; esac
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
ok "$(echo "$seen" | grep -Eq '^running [1-9][0-9]*/80$'; echo $?)" "list shows the running run's progress ('$seen' of 80 points)"
ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "stopped: exit 3 (got $rc)"
status 0 "list after" "$REAIM" list --label progress
contains "$T/out" "interrupted" "the stopped run is listed as interrupted, with no progress"
if have "the stopped run's workloads stored" sqlite3; then
	ok "$([ "$(sqlite3 "$REAIM_DB" "SELECT COUNT(*) FROM workloads w JOIN runs r ON r.id = w.run_id WHERE r.label = 'progress'")" -eq 2 ] && echo 0 || echo 1)" \
		"both workloads are stored though the second never began"
fi
status 0 "rerun of the stopped run, dry" "$REAIM" rerun progress --dry-run
contains "$T/out" "Workload second" "repeats the workload that never began"
finish
