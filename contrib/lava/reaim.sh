#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# reaim under LAVA (or Linaro's test-runner): build reaim from this tree unless one is
# installed, run a suite, and report each load point as a LAVA test case with its
# measurement. Results go to output/result.txt ("NAME pass|fail VALUE UNITS", the
# test-definitions form) and to LAVA: lava-test-case when it exists, else the
# <LAVA_SIGNAL_TESTCASE ...> lines test-runner reads from stdout.
set -u
SUITE=quick TASKS="" JOBS="" REPEAT=1 DIR=/var/tmp SKIP_INSTALL=false

usage() {
	echo "usage: $0 [-s SUITE] [-t TASKS] [-j JOBS] [-r REPEAT] [-d DIR] [-S true|false]" >&2
	exit 1
}

while getopts "s:t:j:r:d:S:h" o; do
	case "$o" in
	s) SUITE=$OPTARG ;;
	t) TASKS=$OPTARG ;;
	j) JOBS=$OPTARG ;;
	r) REPEAT=$OPTARG ;;
	d) DIR=$OPTARG ;;
	S) SKIP_INSTALL=$OPTARG ;;
	*) usage ;;
	esac
done

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
OUTPUT="$here/output"
RESULT_FILE="$OUTPUT/result.txt"
mkdir -p "$OUTPUT"
: >"$RESULT_FILE"

# One result: into result.txt, and to LAVA now.
report() { # name result [measurement units]
	echo "$*" >>"$RESULT_FILE"
	if command -v lava-test-case >/dev/null 2>&1; then
		if [ $# -ge 4 ]; then
			lava-test-case "$1" --result "$2" --measurement "$3" --units "$4"
		else
			lava-test-case "$1" --result "$2"
		fi
	elif [ $# -ge 4 ]; then
		echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$1 RESULT=$2 MEASUREMENT=$3 UNITS=$4>"
	else
		echo "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$1 RESULT=$2>"
	fi
}

# Build dependencies on distributions whose package names bootstrap does not know.
install_deps() {
	if command -v apt-get >/dev/null 2>&1; then
		return 0 # bootstrap installs what is missing with apt-get
	fi
	pkgs="autoconf automake make gcc pkgconf-pkg-config libconfig-devel sqlite-devel zlib-devel"
	if command -v dnf >/dev/null 2>&1; then
		dnf install -y $pkgs
	elif command -v yum >/dev/null 2>&1; then
		yum install -y $pkgs
	fi
}

if [ -x "$top/bootstrap" ]; then
	[ "$SKIP_INSTALL" = true ] || install_deps
	if (cd "$top" && ./bootstrap) >"$OUTPUT/build.log" 2>&1; then
		report reaim-build pass
		REAIM=$top/reaim
	else
		report reaim-build fail
		tail -20 "$OUTPUT/build.log" >&2
		exit 0
	fi
elif command -v reaim >/dev/null 2>&1; then
	REAIM=$(command -v reaim)
else
	report reaim-build fail
	exit 0
fi

# The run: every point is stored in output/reaim.db (keep it: `reaim merge` gathers them).
set -- -s "$SUITE" -r "$REPEAT" -d "$DIR" --db "$OUTPUT/reaim.db"
[ -n "$TASKS" ] && set -- "$@" -t "$TASKS"
[ -n "$JOBS" ] && set -- "$@" -j "$JOBS"
(cd "$top" && "$REAIM" "$@") >"$OUTPUT/reaim.txt"
rc=$?
cat "$OUTPUT/reaim.txt"
# 0: every point valid; 2: a point failed (it is reported as such below); else no run
if [ "$rc" -eq 0 ]; then
	report "reaim-run-$SUITE" pass
else
	report "reaim-run-$SUITE" fail
fi

# Every point: NAME pass|fail VALUE UNITS
"$REAIM" export last --db "$OUTPUT/reaim.db" --format lava >"$OUTPUT/points.txt" || true
while read -r name result value units; do
	if [ -n "$value" ]; then
		report "$name" "$result" "$value" "$units"
	else
		report "$name" "$result"
	fi
done <"$OUTPUT/points.txt"
exit 0
