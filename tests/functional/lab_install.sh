#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `reaim lab-install CLIENT DIR` lays reaim out where each client looks, and the client's own
# steps (restated in tests/data/lab) run against it: LKP's reaim, aim7 and aim9 jobs, mmtests'
# reaim shellpack, autotest's reaim test; what each reads back is the stored figure.
. "$(dirname "$0")/lib.sh"

data="$SRCDIR/tests/data/lab"
mkdir -p "$T/disk"
DISKDIR="$T/disk"
export DISKDIR
unset RESULT_ROOT LAVA_RESULT_DIR AUTODIR

# ---- LKP: $BENCHMARK_ROOT/{reaim,aim7,aim9}; the database goes to the job's $RESULT_ROOT ----
check "lab-install lkp" "$REAIM" lab-install lkp "$T/lkp"
ok "$([ -L "$T/lkp/reaim/reaim" ] && [ -L "$T/lkp/aim7/multitask" ] && [ -L "$T/lkp/aim9/singleuser" ] &&
	[ -f "$T/lkp/reaim/data/workfile.dbase" ] && [ -f "$T/lkp/aim7/workfiles/workfile.dbase" ] && echo 0 || echo 1)" \
	"the programs and the stock mixes are where LKP looks"
check "a second lab-install lkp changes nothing" "$REAIM" lab-install lkp "$T/lkp"
mkdir -p "$T/result"
export BENCHMARK_ROOT="$T/lkp"
(unset REAIM_DB; RESULT_ROOT="$T/result" test=jmp_test nr_task=2 nr_job=20 sh "$data/lkp-reaim.sh") >"$T/lkp.out" 2>"$T/lkp.err"
ok $? "LKP's reaim job runs"
row=$(grep -E '^[ 0-9.]+$' "$T/lkp.out")
jpm_db=$(sqlite3 "$T/result/reaim.db" "SELECT printf('%.2f', jobs_per_min) FROM points WHERE tasks = 2" 2>/dev/null)
ok "$([ -n "$jpm_db" ] && [ "$(echo "$row" | awk '{ print $5 }')" = "$jpm_db" ] && echo 0 || echo 1)" \
	"LKP's row holds the stored Jobs/Min, in \$RESULT_ROOT's database ($jpm_db)"
(unset REAIM_DB; RESULT_ROOT="$T/result" test=add_short load=1 sh "$data/lkp-aim7.sh") >"$T/aim7.out" 2>"$T/aim7.err"
ok $? "LKP's aim7 job runs"
jpm=$(awk -f "$data/aim7.parse.awk" "$T/aim7.out" | sed -n 's/^jobs-per-min: //p')
jpm_db=$(sqlite3 "$T/result/reaim.db" "SELECT printf('%.2f', jobs_per_min) FROM points ORDER BY id DESC LIMIT 1" 2>/dev/null)
ok "$([ -n "$jpm" ] && [ "$jpm" = "$jpm_db" ] && echo 0 || echo 1)" "LKP's aim7 parse reads the stored Jobs/Min ($jpm)"
(unset REAIM_DB; RESULT_ROOT="$T/result" test=creat-clo testtime=2s sh "$data/lkp-aim9.sh") >"$T/aim9.out" 2>"$T/aim9.err"
ok $? "LKP's aim9 job runs"
ok "$(awk -f "$data/aim9.parse.awk" "$T/aim9.out" | grep -qE '^creat-clo\.ops_per_sec: [0-9.]+$'; echo $?)" \
	"LKP's aim9 parse reads creat-clo's ops/s"
ok "$([ "$(sqlite3 "$T/result/reaim.db" 'SELECT count(*) FROM runs' 2>/dev/null)" = 3 ] && echo 0 || echo 1)" \
	"the three jobs' runs are in \$RESULT_ROOT/reaim.db"

# ---- mmtests (6c93ff57): work/sources/reaim-7.0.1.13-installed; ExtractReaim reads reaim.csv ----
check "lab-install mmtests" "$REAIM" lab-install mmtests "$T/mmtests"
# mmtests' own workfile, page_test, takes most of this script's time (page faults serialise across
# the vCPUs of a small VM): `make check` runs the shellpack on a one-test workfile of its own
# beside it (the path and the figures read back are the same), `make check-long` (LAB_FULL=1) on
# the page_test that lab-install laid out
mm_workfile=workfile.page_test
if [ -z "${LAB_FULL:-}" ]; then
	mm_workfile=workfile.add_int
	printf '10 add_int\n' >"$T/mmtests/work/sources/reaim-7.0.1.13-installed/data/$mm_workfile"
fi
check "lab-install laid out mmtests' page_test workfile" \
	test -s "$T/mmtests/work/sources/reaim-7.0.1.13-installed/data/workfile.page_test"
SHELLPACK_SOURCES="$T/mmtests/work/sources" SHELLPACK_DATA="$T/mmtests/work/testdisk/data" \
	LOGDIR_RESULTS="$T/mmtests/work/log/reaim" REAIM_WORKFILE=$mm_workfile REAIM_EXCLUDE=none REAIM_ENDUSERS=1 \
	sh "$data/mmtests-reaim.sh" >"$T/mm.out" 2>"$T/mm.err"
ok $? "mmtests' reaim-bench runs without installing ($mm_workfile)"
csv="$T/mmtests/work/log/reaim/$mm_workfile/reaim.csv"
jpm=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "JPM") j = i } NR == 2 { print $j }' "$csv" 2>/dev/null)
jpm_db=$(sqlite3 "$REAIM_DB" "SELECT printf('%.2f', jobs_per_min) FROM points ORDER BY id DESC LIMIT 1" 2>/dev/null)
ok "$([ -n "$jpm" ] && [ "$jpm" = "$jpm_db" ] && echo 0 || echo 1)" "ExtractReaim's JPM column is the stored Jobs/Min ($jpm)"

# ---- autotest: $AUTODIR/tmp/reaim/src with its .version; the database in the test's results dir ----
check "lab-install autotest" "$REAIM" lab-install autotest "$T/autotest/client"
mkdir -p "$T/autotest/client/tests/reaim" "$T/autotest/client/results/default/reaim/results"
cp "$data/autotest-reaim.config" "$T/autotest/client/tests/reaim/reaim.config"
(unset REAIM_DB; AUTODIR="$T/autotest/client" BINDIR="$T/autotest/client/tests/reaim" start=1 end=1 increment=2 \
	extra_args="-j 5" sh "$data/autotest-reaim.sh") >"$T/at.out" 2>"$T/at.err"
ok $? "autotest's reaim test runs without setup()"
max=$(sed -n 's/^Max Jobs per Minute \([0-9][0-9]*\).*/\1/p' "$T/at.out")
fields=$(grep -E '^[0-9. ]+$' "$T/at.out" | tail -1 | wc -w)
db="$T/autotest/client/results/default/reaim/results/reaim.db"
# the stored figure as the table prints it (2 decimals: 23106.996 is shown, and read, as 23107)
jpm_db=$(sqlite3 "$db" "SELECT printf('%.2f', max(jobs_per_min)) FROM points WHERE valid = 1" 2>/dev/null)
ok "$([ -n "$max" ] && [ "$fields" -eq 9 ] && [ "$max" = "${jpm_db%.*}" ] && echo 0 || echo 1)" \
	"autotest's keyval: max_jobs_per_min ($max) and the 9 fields, from the database in its results dir ($jpm_db)"
[ "$fields" -eq 9 ] && [ "$max" = "${jpm_db%.*}" ] || sed 's/^/# /' "$T/at.out"

# refused: a client it does not know, a file in the way that is not ours
status 1 "an unknown client is refused" "$REAIM" lab-install lava "$T/x"
contains "$T/err" "unknown client 'lava'" "naming it"
mkdir -p "$T/busy/reaim"
echo "classic" >"$T/busy/reaim/reaim"
status 2 "a file in the way is left alone" "$REAIM" lab-install lkp "$T/busy"
ok "$([ "$(cat "$T/busy/reaim/reaim")" = classic ] && echo 0 || echo 1)" "and not changed"
# inputs that never come: a fifo where a stock mix is installed, or where one is read from, is
# refused at once (never opened to wait for a writer); nothing reaim did not make is touched
mkdir -p "$T/fifo/reaim/data"
mkfifo "$T/fifo/reaim/data/workfile.dbase"
status 2 "a fifo in place of an installed workfile: refused, not waited on" timeout 20 "$REAIM" lab-install lkp "$T/fifo"
contains "$T/err" "$T/fifo/reaim/data/workfile.dbase is already there and is not a regular file" "naming it"
ok "$([ -p "$T/fifo/reaim/data/workfile.dbase" ] && echo 0 || echo 1)" "the fifo is left as it was"
mkdir -p "$T/fifodata/workfiles"
mkfifo "$T/fifodata/workfiles/dbase"
REAIM_DATADIR="$T/fifodata" status 2 "a fifo in place of a stock mix read: refused, not waited on" \
	timeout 20 "$REAIM" lab-install lkp "$T/fifosrc"
contains "$T/err" "$T/fifodata/workfiles/dbase: a fifo, not a regular file" "naming it"

# a binary deleted since it started has no path to link to: refused before anything is made
cp "$REAIM" "$T/gone"
REAIM_DATADIR="$SRCDIR" status 2 "lab-install from a deleted binary is refused" \
	sh -c 'exec 3<"$1" && rm "$1" && exec /proc/self/fd/3 lab-install lkp "$2"' sh "$T/gone" "$T/deleted"
contains "$T/err" "this program's file was deleted or replaced since it started" "saying why"
ok "$([ ! -e "$T/deleted" ] && echo 0 || echo 1)" "nothing made"

# umask 0777 masks everyone's bits but never the owner's: directories 0700, files 0600
(umask 0777 && "$REAIM" lab-install mmtests "$T/masked") >/dev/null 2>"$T/err"
ok $? "lab-install under umask 0777"
ok "$([ "$(stat -c %a "$T/masked/work")" = 700 ] &&
	[ "$(stat -c %a "$T/masked/work/sources/reaim-7.0.1.13-installed/data/workfile.dbase")" = 600 ] && echo 0 || echo 1)" \
	"its directories and files stay the owner's to read ($(stat -c %a "$T/masked/work" 2>/dev/null))"
(umask 022 && "$REAIM" lab-install autotest "$T/unmasked") >/dev/null 2>"$T/err"
ok "$([ "$(stat -c %a "$T/unmasked/tmp")" = 755 ] &&
	[ "$(stat -c %a "$T/unmasked/tmp/reaim/src/.version")" = 644 ] && echo 0 || echo 1)" \
	"under umask 022: 0755 and 0644"
finish
