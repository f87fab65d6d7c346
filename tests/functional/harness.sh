#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Under a test harness the results database goes where the harness collects the job's results:
# LKP's $RESULT_ROOT, LAVA's $LAVA_RESULT_DIR, autotest's test results dir under $AUTODIR; said
# on stderr at the start; --db and $REAIM_DB still win.
. "$(dirname "$0")/lib.sh"

unset REAIM_DB RESULT_ROOT LAVA_RESULT_DIR AUTODIR
cd "$T" || exit 1
echo "10 add_short" >workfile.add_short
run_quick() { "$REAIM" run -f "$T/workfile.add_short" -t 1 -j 5 -d "$T/scratch" --no-quiet-check "$@"; }

# LKP: its classic command line, RESULT_ROOT exported by the job
mkdir -p lkp/result
printf 'FILESIZE 10k\nPOOLSIZE 1m\nDISKDIR %s/scratch\n' "$T" >reaim.config
RESULT_ROOT="$T/lkp/result" status 0 "LKP's command line under \$RESULT_ROOT" \
	"$REAIM" -s1 -e1 -i1 -fworkfile.add_short -r1 -c./reaim.config -l"$T/lkp/result/reaim_debug" -j5
ok "$([ -f lkp/result/reaim.db ] && [ ! -e results ] && echo 0 || echo 1)" "the database is in the result dir, not ./results"
contains "$T/err" "note: the results database is $T/lkp/result/reaim.db, in LKP's results directory (\$RESULT_ROOT)" \
	"said at the start"
ok "$([ "$(grep -n 'results database is' "$T/err" | cut -d: -f1)" = 1 ] && echo 0 || echo 1)" "before anything else"
RESULT_ROOT="$T/lkp/result" check "export finds it there" "$REAIM" export last --format aim7
RESULT_ROOT="$T/lkp/result" status 0 "--db still wins" run_quick --db "$T/flag.db"
ok "$([ -f flag.db ] && ! grep -q "results database is" "$T/err" && echo 0 || echo 1)" "there, without the note"
RESULT_ROOT="$T/lkp/result" REAIM_DB="$T/env.db" status 0 "\$REAIM_DB still wins" run_quick
ok "$([ -f env.db ] && [ "$(sqlite3 lkp/result/reaim.db 'SELECT count(*) FROM runs' 2>/dev/null)" = 1 ] && echo 0 || echo 1)" \
	"there, and the harness's database has only its own run"
RESULT_ROOT="$T/no/such/dir" status 0 "a \$RESULT_ROOT that is no directory" run_quick
ok "$([ -f results/reaim.db ] && [ ! -e no ] && echo 0 || echo 1)" "leaves the database in ./results"

# LAVA: the test shell's result dir
mkdir -p lava/0_reaim
LAVA_RESULT_DIR="$T/lava/0_reaim" status 0 "under LAVA's \$LAVA_RESULT_DIR" run_quick
ok "$([ -f lava/0_reaim/reaim.db ] && echo 0 || echo 1)" "the database is in LAVA's result dir"
contains "$T/err" "in LAVA's results directory (\$LAVA_RESULT_DIR)" "said"

# autotest: the test runs in $AUTODIR/tmp/reaim/src; its results go to $AUTODIR/results/TAG/reaim/results
mkdir -p autotest/tmp/reaim/src autotest/results/default/reaim/results autotest/results/default/other/results
touch autotest/results/default/other/results # another test's dir, newer, is not ours
cd autotest/tmp/reaim/src || exit 1
AUTODIR="$T/autotest" status 0 "under autotest (\$AUTODIR), from the test's src dir" run_quick
cd "$T" || exit 1
ok "$([ -f autotest/results/default/reaim/results/reaim.db ] && [ ! -e autotest/results/default/other/results/reaim.db ] &&
	echo 0 || echo 1)" "the database is in the reaim test's results dir"
contains "$T/err" "in autotest's results directory (\$AUTODIR)" "said"
# a variable holding a pattern or a path that is not there names no directory, whatever it would
# match: passed over, the database stays in ./results (never in another tree the pattern matches)
rm -rf results
AUTODIR="$T/auto*" status 0 "an \$AUTODIR that is a pattern" run_quick
ok "$([ -f results/reaim.db ] && [ "$(sqlite3 autotest/results/default/reaim/results/reaim.db 'SELECT count(*) FROM runs' 2>/dev/null)" = 1 ] &&
	echo 0 || echo 1)" "the database stays in ./results, not in the tree the pattern matches"
ok "$(grep -q "results database is" "$T/err" && echo 1 || echo 0)" "and no note claims otherwise"
RESULT_ROOT="$T/lkp/res*" status 0 "a \$RESULT_ROOT that is a pattern" run_quick
ok "$([ "$(sqlite3 lkp/result/reaim.db 'SELECT count(*) FROM runs' 2>/dev/null)" = 1 ] && echo 0 || echo 1)" \
	"the result dir it matches is left alone"
# autotest's tagged test dir (reaim.TAG) is the test's; another test named with the same start is not
mkdir -p autotest/results/t2/reaim.smoke/results autotest/results/t2/reaimx/results
touch autotest/results/t2/reaimx/results
cd autotest/tmp/reaim/src || exit 1
AUTODIR="$T/autotest" status 0 "autotest with a tagged test dir" run_quick
cd "$T" || exit 1
ok "$([ -f autotest/results/t2/reaim.smoke/results/reaim.db ] && [ ! -e autotest/results/t2/reaimx/results/reaim.db ] &&
	echo 0 || echo 1)" "the database is in the tagged dir, not in another test's"
finish
