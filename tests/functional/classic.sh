#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Classic re-aim-7 command lines as LKP, mmtests and autotest issue them: they run, print
# classic's table, write PREFIX.csv, and store the run; classic files (workfile.alltests,
# s9workfile, creat-clo) run; reaim's own command lines keep their meaning.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
mkdir -p disk data
# what LKP's run script writes: reaim.config, and "echo 10 $test > workfile.$test"
printf 'FILESIZE 10k\nPOOLSIZE 1m\nDISKDIR %s/disk\n' "$T" >reaim.config
echo "10 jmp_test" >workfile.jmp_test

# LKP: ./reaim -s$START -e$END -i$INCR -fworkfile.$test -r1 -c./reaim.config -l$DIR/reaim_debug -j$nr_job
check "LKP's command line runs" "$REAIM" -s2 -e2 -i2 -fworkfile.jmp_test -r1 -c./reaim.config -l"$T/reaim_debug" -j100
cp "$T/out" lkp.out
ok "$([ "$(grep -cE '^[ 0-9.]+$' lkp.out)" -eq 1 ] && echo 0 || echo 1)" "one row LKP's parser reads (/^[ \\d.]+\$/)"
ok "$(awk '/^[ 0-9.]+$/ { exit !($1 == 2 && NF == 9) }' lkp.out; echo $?)" "2 tasks, 9 columns"
contains lkp.out "Max Jobs per Minute " "the Max Jobs per Minute line"
contains reaim_debug.csv "Forks,JPM,JPM_C,JPS_C,parent_tm,childU_tm,childS_tm,std_dev,JTI,max_c,min_c" "PREFIX.csv has classic's header"
ok "$([ "$(wc -l <reaim_debug.csv)" -eq 2 ] && echo 0 || echo 1)" "and one row"
ok "$([ "$(sqlite3 "$REAIM_DB" "SELECT count(*) FROM points WHERE valid" 2>/dev/null || echo 1)" -eq 1 ] && echo 0 || echo 1)" "the run is stored"
jpm_out=$(awk '/^[ 0-9.]+$/ { print $5 }' lkp.out)
jpm_db=$(sqlite3 "$REAIM_DB" "SELECT printf('%.2f', jobs_per_min) FROM points ORDER BY id DESC LIMIT 1" 2>/dev/null)
ok "$([ "$jpm_out" = "$jpm_db" ] && echo 0 || echo 1)" "the row's Jobs/Min is the stored one ($jpm_out, $jpm_db)"
ok "$(sqlite3 "$REAIM_DB" "SELECT value FROM workload_options WHERE key = 'sync_mode' ORDER BY workload_id DESC LIMIT 1" 2>/dev/null | grep -qx global; echo $?)" \
	"without -y, classic's machine-wide sync points"

# the table is printed as the points come (a human or a log reader sees each row then), and is
# what `export --format reaim7` writes of the stored run, after classic's preamble
echo "10 add_int" >workfile.slow
"$REAIM" -s1 -e3 -i2 -fworkfile.slow -c./reaim.config -lstream -j150 >stream.out 2>stream.err &
pid=$!
i=0
while [ $i -lt 600 ] && ! grep -q '^1 ' stream.out; do sleep 0.05; i=$((i + 1)); done
ok "$(grep -q '^1 ' stream.out && kill -0 $pid 2>/dev/null && ! grep -q '^3 ' stream.out; echo $?)" \
	"the 1-task row is out while the 3-task point runs"
wait $pid
ok $? "the streamed run ends well"
"$REAIM" export last --format reaim7 >stream.export
ok "$(tail -n +3 stream.out | diff - stream.export >/dev/null; echo $?)" "the streamed table is the stored run's reaim7 export"

# mmtests: ./src/reaim -s1 -e$END -t -i$INCR -fdata/workfile.X.mmtests -r1 -c./reaim.config -l$DIR/reaim
printf '10 jmp_test\n10 creat-clo\n' >data/workfile.mix.mmtests
check "mmtests' command line runs" "$REAIM" -s1 -e3 -t -i2 -fdata/workfile.mix.mmtests -r1 -c./reaim.config -l"$T/reaim" -j4
ok "$([ "$(grep -cE '^[ 0-9.]+$' "$T/out")" -eq 2 ] && echo 0 || echo 1)" "1 and 3 tasks"
ok "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "JPM") j = i } NR > 1 { print $1, $j }' reaim.csv |
	awk 'NR == 1 && $1 == 1 && $2 > 0 { a = 1 } NR == 2 && $1 == 3 && $2 > 0 { b = 1 } END { exit !(a && b) }'; echo $?)" \
	"mmtests reads Forks and JPM from reaim.csv"

# autotest: ./reaim -f data/workfile.short -s 1 -e 10 -i 2 -c ./reaim.config (here smaller)
check "autotest's command line runs" "$REAIM" -f data/workfile.mix.mmtests -s 1 -e 3 -i 2 -c ./reaim.config -j 4
ok "$(grep -qE '^Max Jobs per Minute [0-9]+' "$T/out"; echo $?)" "autotest's max_jobs_per_min line"
ok "$([ -f reaim.csv ] && echo 0 || echo 1)" "no -l: reaim.csv, as classic"

# classic files: alltests as classic ships it (string_rtns twice), an AIM9 s9workfile
printf '# sample workfile\n20 string_rtns\n10 jmp_test\n30 string_rtns\n' >workfile.twice
check "a workfile listing a test twice runs" "$REAIM" -s1 -e1 -fworkfile.twice -c./reaim.config -j6
contains "$T/err" "listed twice, weights added: string_rtns (lines 2 and 4: 20 + 30)" "and says so"
ok "$([ "$(grep -c 'listed twice' "$T/err")" -eq 1 ] && echo 0 || echo 1)" "once"
printf '# @(#) s9workfile:1.2 1/22/96 00:00:00\n# AIM Independent Resource Benchmark - Suite IX Workfile\nFILESIZE: 5M\njmp_test\ncreat-clo\n' >s9workfile
check "an AIM9 s9workfile runs single-user (-o)" "$REAIM" -o -p 1 -fs9workfile -c./reaim.config
contains "$T/out" "Number Name        Time(sec) Count     Rate(loops/s)  Rate (ops/sec)" "re-aim-7's single-user table"
ok "$(grep -qE '^2 +creat_clo ' "$T/out"; echo $?)" "creat-clo is creat_clo"
check "the stock mix by classic's file name" "$REAIM" check workfile.alltests

# the same stored runs, exported in the formats other programs parse
check "export --format aim9 of the single-user run" "$REAIM" export last --format aim9
ok "$(awk '/^[ ]+[0-9]+.*[ ]+[0-9|.]+.*/ { n++; if ($6 + 0 <= 0) bad = 1 } END { exit !(n == 2 && !bad) }' "$T/out"; echo $?)" \
	"LKP's aim9 parser reads ops/s for both tests"
contains "$T/out" " creat-clo " "in AIM9's spelling"
check "export --format lava" "$REAIM" export last~1 --format lava
ok "$([ "$(grep -c '^twice-osync_on-.* pass [0-9.]* jobs/min$' "$T/out")" -eq 2 ] && echo 0 || echo 1)" \
	"a result line for the point and one for the maximum"
check "export --format reaim7" "$REAIM" export last~1 --format reaim7
ok "$([ "$(grep -cE '^[ 0-9.]+$' "$T/out")" -eq 1 ] && echo 0 || echo 1)" "re-aim-7's row"
check "export --format aim7" "$REAIM" export last~1 --format aim7
ok "$(awk '/Tasks.*jobs\/min.*jti/ { getline; exit !($1 == 1 && $2 > 0 && NF == 6) }' "$T/out"; echo $?)" \
	"LKP's aim7 parser reads the line after the heading"

# what is not classic, what is ambiguous, what is refused
check "reaim's own -s SUITE keeps its meaning" "$REAIM" -s quick --dry-run -d "$T/scratch"
contains "$T/out" "Suite quick" "the quick suite's plan"
mkdir -p suites && cp "$SRCDIR/suites/quick.cfg" suites/7.cfg
status 1 "-s 7 with a suite named 7 is ambiguous" "$REAIM" -s 7
contains "$T/err" "-s 7 is ambiguous" "and says why"
check "run -s 7 is the suite" "$REAIM" run -s 7 --dry-run
rm -rf suites
status 1 "a classic line with reaim's own --tasks is refused" "$REAIM" -s1 -e2 --tasks 4
contains "$T/err" "--tasks is not a classic re-aim option" "naming the option"
status 1 "-b is refused" "$REAIM" -s1 -e2 -b
status 0 "-h prints the classic usage" "$REAIM" -s1 -h
contains "$T/out" "-l, --logprefix P" "listing the classic options"
# a suite whose two workloads use that workfile says it once too
printf 'name = "twice";\nworkloads = (\n { name = "a"; workfile = "workfile.twice"; },\n { name = "b"; workfile = "workfile.twice"; }\n);\ntasks = "1";\njobs_per_task = 3;\n' >twice.cfg
check "a suite with two workloads on it runs" "$REAIM" run -s ./twice.cfg -d "$T/disk" --no-quiet-check
ok "$([ "$(grep -c 'listed twice' "$T/err")" -eq 1 ] && echo 0 || echo 1)" "and says it once a run"
finish
