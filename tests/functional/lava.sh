#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/lava's definition run as LAVA's test shell runs it (tests/data/lab/lava-run.awk) from a
# test-definitions tree, with a built reaim given by path: every figure of each point (Jobs/Min,
# Real, CPU, JTI) is a lava-test-case with its measurement, the stored value; the database printed at the
# end comes home with `reaim merge --from-lava-log`, from the console or LAVA's YAML log.
. "$(dirname "$0")/lib.sh"

# a test-definitions tree with our definition where its own live
td="$T/test-definitions"
mkdir -p "$td/automated/linux/reaim" "$td/automated/utils" "$T/bin" "$T/disk"
cp "$SRCDIR/contrib/lava/reaim.yaml" "$SRCDIR/contrib/lava/reaim.sh" "$td/automated/linux/reaim/"
# LAVA's lava-test-case, recording what it is told
cat >"$T/bin/lava-test-case" <<EOS
#!/bin/sh
echo "\$*" >>"$T/cases"
EOS
chmod +x "$T/bin/lava-test-case"

awk -v tree="$td" -v set="REAIM=$REAIM SUITE=quick TASKS=1,2 JOBS=3 DIR=$T/disk SKIP_INSTALL=true LABEL=side-b" \
	-f "$SRCDIR/tests/data/lab/lava-run.awk" "$SRCDIR/contrib/lava/reaim.yaml" >"$T/run.sh"
(unset REAIM_DB; PATH="$T/bin:$PATH" sh "$T/run.sh") >"$T/out" 2>"$T/err"
ok $? "the definition runs from a test-definitions tree"
db="$td/automated/linux/reaim/output/reaim.db"
contains "$T/cases" "reaim-build --result pass" "the given reaim is taken, nothing built"
contains "$T/cases" "reaim-run-quick --result pass" "the run passes"
# each valid point: four measurements, the stored figures
want=$(sqlite3 "$db" "SELECT printf('quick-osync_on-tasks_%d-jobs_per_min --result pass --measurement %.2f --units jobs/min|quick-osync_on-tasks_%d-real_s --result pass --measurement %.4f --units s|quick-osync_on-tasks_%d-cpu_s --result pass --measurement %.4f --units s|quick-osync_on-tasks_%d-jti --result pass --measurement %.2f --units %%',
	tasks, jobs_per_min, tasks, real_s, tasks, cpu_s, tasks, jti) FROM points WHERE valid ORDER BY tasks" 2>/dev/null | tr '|' '\n')
got=$(grep -E -- '-tasks_[0-9]+-' "$T/cases")
# the same names and units, each measurement equal to the stored value within its last printed digit
# (SQLite's printf rounds a tie otherwise than the C library's)
same() {
	printf '%s\n' "$got" >"$T/got.cases"
	printf '%s\n' "$want" >"$T/want.cases"
	paste -d'|' "$T/got.cases" "$T/want.cases" | awk -F'|' '
		{ split($1, g, " "); split($2, w, " "); d = g[5] - w[5]; if (d < 0) d = -d
		  if (g[1] != w[1] || g[7] != w[7] || d > 0.00011 * (1 + (w[5] < 0 ? -w[5] : w[5]) / 1e4)) bad = 1 }
		END { exit bad || NR != 8 }'
}
ok "$([ -n "$want" ] && [ "$(echo "$want" | wc -l)" -eq 8 ] && same && echo 0 || echo 1)" \
	"Jobs/Min, Real, CPU and JTI of both points, as stored"
same || { echo "# got:"; echo "$got" | sed 's/^/#   /'; echo "# stored:"; echo "$want" | sed 's/^/#   /'; }
contains "$T/cases" "quick-osync_on-max_jobs_per_min --result pass --measurement" "and the peak"
ok "$([ "$(wc -l <"$td/automated/linux/reaim/output/result.txt")" -eq "$(wc -l <"$T/cases")" ] && echo 0 || echo 1)" \
	"output/result.txt holds the same results"

# the database comes home in the job's log: printed at the end, taken out by merge --from-lava-log
contains "$T/cases" "reaim-db-printed --result pass" "the database is printed on the console"
cp "$T/out" "$T/job.log"
uuid=$(sqlite3 "$db" "SELECT uuid FROM runs")
status 0 "merge --from-lava-log takes it from the console" "$REAIM" merge --from-lava-log "$T/job.log" --db "$T/home.db"
contains "$T/out" "merged 1 runs from the 1 database" "one run from one database"
ok "$([ -n "$uuid" ] && [ "$(sqlite3 "$T/home.db" "SELECT uuid FROM runs")" = "$uuid" ] && echo 0 || echo 1)" "the job's run, by its uuid"
ok "$([ "$(sqlite3 "$T/home.db" "SELECT label FROM runs")" = side-b ] && echo 0 || echo 1)" "labelled with LABEL, the side it measures"
ok "$([ "$(sqlite3 "$T/home.db" "SELECT count(*) FROM points")" = "$(sqlite3 "$db" "SELECT count(*) FROM points")" ] &&
	echo 0 || echo 1)" "with every point"
# LAVA's own log: one YAML mapping a console line, with the time and level around the message
sed 's/.*/- {"dt": "2024-05-01T10:00:00.000000", "lvl": "target", "msg": "&"}/' "$T/job.log" >"$T/job.yaml"
status 0 "from LAVA's YAML log" "$REAIM" merge --from-lava-log "$T/job.yaml" --db "$T/home2.db"
ok "$([ "$(sqlite3 "$T/home2.db" "SELECT uuid FROM runs")" = "$uuid" ] && echo 0 || echo 1)" "the same run"
status 0 "merging the log again copies nothing" "$REAIM" merge --from-lava-log "$T/job.yaml" --db "$T/home2.db"
contains "$T/out" "merged 0 runs" "the run is there already"
# a line lost on the way, a log cut short, a log without a database: said, exit 2, nothing merged
awk '/REAIM-DB: / && !done { done = 1; next } { print }' "$T/job.log" >"$T/lost.log"
status 2 "a lost line is found" "$REAIM" merge --from-lava-log "$T/lost.log" --db "$T/lost.db"
contains "$T/err" "lines were lost or changed on the way" "by its checksum"
sed '/REAIM-DB-END/,$d' "$T/job.log" >"$T/cut.log"
status 2 "a log cut short" "$REAIM" merge --from-lava-log "$T/cut.log" --db "$T/lost.db"
contains "$T/err" "has no end marker" "is said"
status 2 "a log with no database" "$REAIM" merge --from-lava-log "$T/cases" --db "$T/lost.db"
contains "$T/err" "carries no database" "is said"
ok "$([ ! -e "$T/lost.db" ] && echo 0 || echo 1)" "and no database is made"
status 1 "a database and a log at once" "$REAIM" merge "$db" --from-lava-log "$T/job.log"
# a log whose first database was cut short, a whole one after it: an error naming the cut one
sed '/REAIM-DB-END/,$d' "$T/job.log" >"$T/twice.log"
cat "$T/job.log" >>"$T/twice.log"
cut_at=$(grep -n REAIM-DB-BEGIN "$T/twice.log" | head -1 | cut -d: -f1)
status 2 "a cut database before a whole one is an error" "$REAIM" merge --from-lava-log "$T/twice.log" --db "$T/lost.db"
contains "$T/err" "twice.log:$cut_at: the database begun there has no end marker" "naming the cut one's line"
ok "$([ ! -e "$T/lost.db" ] && echo 0 || echo 1)" "and nothing is merged"

# inputs that never come: a fifo or a device is refused at once, never opened to wait on
mkfifo "$T/fifo"
start=$(date +%s)
status 2 "a fifo as the log is refused" timeout -k 1 10 env TMPDIR="$T" "$REAIM" merge --from-lava-log "$T/fifo" --db "$T/lost.db"
ok "$([ $(($(date +%s) - start)) -le 2 ] && echo 0 || echo 1)" "at once"
contains "$T/err" "a fifo, not a regular file" "said as a fifo"
status 2 "a device as the log is refused" "$REAIM" merge --from-lava-log /dev/null --db "$T/lost.db"
contains "$T/err" "a character device, not a regular file" "said as a device"
ok "$([ -z "$(ls -d "$T"/reaim-lava.* 2>/dev/null)" ] && [ ! -e "$T/lost.db" ] && echo 0 || echo 1)" \
	"nothing made, nothing left"
# a stop signal while a big log is scanned: exit 3 within 2 s, nothing merged, the temporary files gone
{ yes x | head -c 64M; cat "$T/job.log"; } >"$T/big.log"
for sig in INT TERM; do
	env TMPDIR="$T" "$REAIM" merge --from-lava-log "$T/big.log" --db "$T/stopped.db" >"$T/out" 2>"$T/err" &
	mp=$!
	sleep 0.5
	kill -"$sig" "$mp"
	t0=$(date +%s%N)
	wait "$mp"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	ok "$([ $rc -eq 3 ] && [ "$ms" -le 2000 ] && echo 0 || echo 1)" \
		"SIG$sig during the scan of a 64 MB log: exit 3 (got $rc) within 2 s (took $ms ms)"
	ok "$([ -z "$(ls -d "$T"/reaim-lava.* 2>/dev/null)" ] && [ "$(sqlite3 "$T/stopped.db" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" = 0 ] &&
		echo 0 || echo 1)" "nothing merged, no reaim-lava.* left"
done
rm -f "$T/big.log"

# without lava-test-case (test-runner): the signal lines it reads from stdout
rm -rf "$td/automated/linux/reaim/output"
(unset REAIM_DB; sh "$T/run.sh") >"$T/out" 2>"$T/err"
ok "$(grep -cE '^<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=quick-osync_on-tasks_[12]-(jobs_per_min|real_s|cpu_s|jti) RESULT=pass MEASUREMENT=[0-9.]+ UNITS=[^ ]+>$' "$T/out" |
	grep -qx 8; echo $?)" "without lava-test-case: a signal line per figure"

# no reaim to be had: a failed build case, not a broken job
awk -v tree="$td" -v set="REAIM=$T/no-such-reaim SUITE=quick" -f "$SRCDIR/tests/data/lab/lava-run.awk" \
	"$SRCDIR/contrib/lava/reaim.yaml" >"$T/run2.sh"
(PATH="$T/bin:$PATH" sh "$T/run2.sh") >"$T/out" 2>"$T/err"
ok $? "a reaim that is not there ends the job well"
ok "$(tail -1 "$T/cases" | grep -qx "reaim-build --result fail"; echo $?)" "and reports reaim-build fail"
finish
