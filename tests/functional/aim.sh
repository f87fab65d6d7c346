#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# reaim called as AIM Suite VII's multitask and Suite IX's singleuser, driven as LKP's aim7 and
# aim9 jobs drive them: the answers piped in, workfile/s9workfile and config in the current
# directory; LKP's parse rules (tests/data/lab) read the stored figures from the output.
. "$(dirname "$0")/lib.sh"

data="$SRCDIR/tests/data/lab"
mkdir -p "$T/bench" "$T/disk"
cd "$T/bench" || exit 1
ln -s "$REAIM" multitask
ln -s "$REAIM" singleuser
export PATH="$T/bench:$PATH"

# LKP's aim7: workfile with "FILESIZE: 1M", config with the disk dir, `( echo ... ) | ./multitask -t &`
printf 'FILESIZE: 1M\nPOOLSIZE: 10M\n10 add_short\n' >workfile
echo "$T/disk" >config
cat "$data/aim7.answers" | ./multitask -t >aim7.out 2>aim7.err &
wait $!
ok $? "multitask answers LKP's aim7 dialogue"
awk -f "$data/aim7.parse.awk" aim7.out >aim7.parsed
# Real keeps three significant digits below a second (report_real_decimals)
want=$(sqlite3 "$REAIM_DB" "SELECT printf('jobs-per-min: %.2f|jti: %d|jobs-per-min-per-task: %.4f|real: %.*f|cpu: %.2f',
	jobs_per_min, CAST(jti AS INTEGER), jobs_per_min_task,
	CASE WHEN real_s >= 1 THEN 2 WHEN real_s >= 0.1 THEN 3 WHEN real_s >= 0.01 THEN 4 WHEN real_s >= 0.001 THEN 5 ELSE 6 END,
	real_s, cpu_s) FROM points WHERE tasks = 2" 2>/dev/null | tr '|' '\n')
ok "$([ -n "$want" ] && [ "$(cat aim7.parsed)" = "$want" ] && echo 0 || echo 1)" "LKP's aim7 parse reads the stored point"
[ -n "$want" ] && [ "$(cat aim7.parsed)" = "$want" ] || { echo "# parsed:"; sed 's/^/#   /' aim7.parsed; echo "# stored: $want"; }
ok "$(sqlite3 "$REAIM_DB" "SELECT r.label, (SELECT group_concat(value, ':') FROM workload_options o WHERE o.workload_id = w.id AND o.key = 'filesize'), (SELECT group_concat(value, ':') FROM workload_options o WHERE o.workload_id = w.id AND o.key = 'poolsize'),
	(SELECT group_concat(value, ':') FROM workload_options o WHERE o.workload_id = w.id AND o.key = 'sync_mode'), (SELECT group_concat(value, ':') FROM workload_options o WHERE o.workload_id = w.id AND o.key = 'jobs_per_task') FROM runs r JOIN workloads w ON w.run_id = r.id" 2>/dev/null |
	grep -qx 'add_short|1024K|10240K|global|100'; echo $?)" "stored: the test's name as label, the workfile's sizes, classic's sync, 100 jobs"
ok "$(sqlite3 "$REAIM_DB" "SELECT w.name || '|' || w.workfile_name FROM workloads w" 2>/dev/null |
	grep -qx 'add_short|workfile'; echo $?)" "the workload is named by the answered test (LKP's reaim.add_short), not 'workfile'"
"$REAIM" export last --format aim7 >aim7.export
sed -n '/Run Beginning/,$p' aim7.out >aim7.table
sed -n '/Run Beginning/,$p' aim7.export >aim7.export.table
ok "$([ -s aim7.table ] && cmp -s aim7.table aim7.export.table && echo 0 || echo 1)" "the table is the stored run's aim7 export"
ok "$(sqlite3 "$REAIM_DB" "SELECT value FROM workload_options WHERE key = 'dirs'" 2>/dev/null | grep -qF "$T/disk"; echo $?)" "the disk dir is config's"

# LKP's aim9: s9workfile with "FILESIZE: 5M", `( echo host; echo test; echo secs; echo /tmp ) | ./singleuser -nl &`
printf '# @(#) s9workfile:1.2 1/22/96 00:00:00\n# AIM Independent Resource Benchmark - Suite IX Workfile\nFILESIZE: 5M\ncreat-clo\n' >s9workfile
sed "s|^DISKDIR\$|$T/disk|" "$data/aim9.answers" >aim9.answers
cat aim9.answers | ./singleuser -nl >aim9.out 2>aim9.err &
wait $!
ok $? "singleuser answers LKP's aim9 dialogue"
awk -f "$data/aim9.parse.awk" aim9.out >aim9.parsed
"$REAIM" export last --format aim9 | awk -f "$data/aim9.parse.awk" >aim9.export.parsed
ok "$(grep -qE '^creat-clo\.ops_per_sec: [0-9]+\.[0-9]+$' aim9.parsed && cmp -s aim9.parsed aim9.export.parsed && echo 0 || echo 1)" \
	"LKP's aim9 parse reads creat-clo's ops/s, as the stored run's aim9 export says"
ok "$(sqlite3 "$REAIM_DB" "SELECT r.mode, (SELECT group_concat(value, ':') FROM workload_options o WHERE o.workload_id = w.id AND o.key = 'filesize'), (SELECT group_concat(value, ':') FROM workload_options o WHERE o.workload_id = w.id AND o.key = 'dirs')
	FROM runs r JOIN workloads w ON w.run_id = r.id ORDER BY r.id DESC LIMIT 1" 2>/dev/null |
	grep -qxF "single|5120K|$T/disk"; echo $?)" "stored as a single-user run with the workfile's size and the answered disk dir"

# two iterations: their loads one after the other; a crossover among them is refused
printf 'h\ntwo\n2\n1\n2\n1\n1\n2\n2\n2\n1\n' >two.answers
check "two iterations" ./multitask -t <two.answers
ok "$(sqlite3 "$REAIM_DB" "SELECT group_concat(tasks) FROM (SELECT tasks FROM points p JOIN runs r ON r.id = p.run_id WHERE r.label = 'two' ORDER BY p.id)" 2>/dev/null |
	grep -qx '1,2'; echo $?)" "run as one run of 1 then 2 tasks"
printf 'h\nc\n2\n1\n1\n1\n1\n2\n2\n1\n' >cross.answers
status 1 "a crossover iteration among two is refused" ./multitask -t <cross.answers
contains "$T/err" "a crossover iteration among 2" "saying why"

# the dialogue cut short, a bad answer, a missing file, an option AIM did not have: exit 1, said where
head -3 "$data/aim7.answers" >short.answers
status 1 "a dialogue cut short is refused" ./multitask -t <short.answers
contains "$T/err" "stdin:4: no answer to \"Starting number of operation loads [1 to 10000]\"" "naming the line and the question"
printf 'h\nc\n0\n' >bad.answers
status 1 "an answer out of range is refused" ./multitask -t <bad.answers
contains "$T/err" "stdin:3: \"Number of iterations to run\": '0' is not a whole number from 1 to 10" "with its range"
printf 'h\nc\n2 3\n' >bad.answers
status 1 "an answer of two words is refused" ./multitask -t <bad.answers
contains "$T/err" "'2 3' is not a whole number" "quoting the whole answer"
mv config config.aside
status 1 "multitask without its config is refused" ./multitask -t <"$data/aim7.answers"
contains "$T/err" "config: No such file or directory" "naming the file"
mv config.aside config
status 1 "an option AIM did not have is refused" ./singleuser -x </dev/null
contains "$T/err" "unknown option '-x'" "naming it"
ok "$([ "$(sqlite3 "$REAIM_DB" "SELECT count(*) FROM runs" 2>/dev/null)" = 3 ] && echo 0 || echo 1)" "none of those stored a run"

# an answer that never ends: a line of 32 MiB with no newline is refused after 4 KiB, not read
# whole (what is left of stdin is never read: its offset shows how much was)
head -c 33554432 /dev/zero | tr '\0' x >big.answers
sh -c './multitask -t >/dev/null 2>big.err; echo "exit $?"; sed -n "s/^pos:[[:space:]]*//p" /proc/self/fdinfo/0' <big.answers >big.out
ok "$([ "$(sed -n 1p big.out)" = "exit 1" ] && echo 0 || echo 1)" "an endless answer is refused ($(sed -n 1p big.out))"
contains big.err "stdin:1: the answer to \"Machine's name\" is longer than the 4096 bytes" "naming the line and the question"
ok "$([ "$(sed -n 2p big.out)" -lt 1048576 ] && echo 0 || echo 1)" "only its first bytes were read ($(sed -n 2p big.out))"
rm -f big.answers
printf 'h\n%04096d\n' 0 >edge.answers
status 1 "an answer of 4096 bytes is taken" ./multitask -t <edge.answers
contains "$T/err" "stdin:3: no answer to \"Number of iterations" "and the dialogue goes on to the next question"

# the build makes the links beside reaim (make install puts them beside the installed one)
ok "$([ -L "${REAIM_BUILDDIR:-.}/multitask" ] && [ -L "${REAIM_BUILDDIR:-.}/singleuser" ] && echo 0 || echo 1)" \
	"multitask and singleuser are links to reaim in the build dir"
finish
