#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Instructions per job of each test in two reaim builds (callgrind's Ir, user space), the
# difference between runs of J1 and J2 jobs at N = 1 task divided by J2 - J1, and their ratio
# B/A: a change to a test's code measured without the noise of a shared machine.
#
# usage: bench/ir_per_job.sh REAIM_A REAIM_B [TEST...]
#   REAIM_A, REAIM_B  two reaim binaries (e.g. a build of the previous release and this tree's)
#   TEST              tests to measure (default: every test of `reaim tests` of REAIM_B)
# environment: JOBS ("J1 J2", default "5 45"), DIR (disk dir, default /var/tmp). Needs valgrind.
# Each run has a point limit of a day (--timeout 86400; reaim's default of 10 minutes is short
# for a test 10 to 50 times slower under valgrind); a run that fails says why on stderr.
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || { sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 1; }
a=$1 b=$2
shift 2
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }
set -f
# shellcheck disable=SC2086 # JOBS is two numbers
set -- ${JOBS:-5 45} "$@"
set +f
j1=$1 j2=$2
shift 2
[ "$j2" -gt "$j1" ] || { echo "JOBS: the second count must be larger" >&2; exit 1; }
bench_dir ir "${DIR:-/var/tmp}"
if [ $# -eq 0 ]; then
	set -- $("$b" tests | awk 'NR > 1 { print $1 }')
fi

# ir_of BINARY TEST JOBS: the Ir of one run of TEST, into a new database each time (creating
# one is work of its own)
ir_of() {
	rm -f "$t/db"
	callgrind_ir "$t/cg" "$1" -q -f "$t/wf.$2" -t 1 -j "$3" -d "$t" --db "$t/db" \
		$(no_quiet_check_flag "$1") --sample-interval 0 --timeout 86400
}

# per_job BINARY TEST: Ir per job, or "failed"
per_job() {
	i1=$(ir_of "$1" "$2" "$j1") && i2=$(ir_of "$1" "$2" "$j2") || { echo failed; return; }
	awk -v a="$i1" -v b="$i2" -v n=$((j2 - j1)) 'BEGIN { printf "%.0f\n", (b - a) / n }'
}

printf '%-18s %14s %14s %7s\n' test A_Ir_per_job B_Ir_per_job B/A
for test in "$@"; do
	echo "10 $test" >"$t/wf.$test"
	ia=$(per_job "$a" "$test")
	ib=$(per_job "$b" "$test")
	awk -v t="$test" -v a="$ia" -v b="$ib" 'BEGIN {
		r = (a + 0 > 0 && b + 0 > 0) ? sprintf("%.3f", b / a) : "-"
		printf "%-18s %14s %14s %7s\n", t, a, b, r }'
done
