#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# reaim under LAVA (or Linaro's test-runner), from a test-definitions tree (automated/linux/reaim/)
# or from reaim's own (contrib/lava/): find or build reaim, run a suite, and report every figure of
# each load point (Jobs/Min, Real, CPU, JTI) as a LAVA test case with its measurement. Results go
# to output/result.txt ("NAME pass|fail VALUE UNITS", the test-definitions form) and to LAVA:
# lava-test-case when it exists, else the <LAVA_SIGNAL_TESTCASE ...> lines test-runner reads.
# LAVA deletes the job's files, so at the end the database is printed on the console, gzipped and in
# base64 between markers, for `reaim merge --from-lava-log LOG` to take out of the job's log (-B false:
# not printed).
set -u
REAIM="" TEST_DIR="" TEST_GIT_URL="" TEST_PROG_VERSION=""
SUITE=quick TASKS="" JOBS="" REPEAT=1 DIR=/var/tmp SKIP_INSTALL=false BRING_DB=true LABEL="" RUN_ARGS="" TIME_LIMIT=""

usage() {
	echo "usage: $0 [-b REAIM] [-D TEST_DIR] [-g TEST_GIT_URL] [-V VERSION] [-s SUITE] [-t TASKS] [-j JOBS]" \
		"[-r REPEAT] [-d DIR] [-S true|false] [-B true|false] [-l LABEL] [-a RUN_ARGS] [-T SECONDS]" >&2
	exit 1
}

while getopts "b:D:g:V:s:t:j:r:d:S:B:l:a:T:h" o; do
	case "$o" in
	b) REAIM=$OPTARG ;;
	D) TEST_DIR=$OPTARG ;;
	g) TEST_GIT_URL=$OPTARG ;;
	V) TEST_PROG_VERSION=$OPTARG ;;
	s) SUITE=$OPTARG ;;
	t) TASKS=$OPTARG ;;
	j) JOBS=$OPTARG ;;
	r) REPEAT=$OPTARG ;;
	d) DIR=$OPTARG ;;
	S) SKIP_INSTALL=$OPTARG ;;
	B) BRING_DB=$OPTARG ;;
	l) LABEL=$OPTARG ;;
	a) RUN_ARGS=$OPTARG ;;
	T) TIME_LIMIT=$OPTARG ;;
	*) usage ;;
	esac
done

here=$(cd "$(dirname "$0")" && pwd)
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
		# shellcheck disable=SC2086 # one word per package
		dnf install -y $pkgs
	elif command -v yum >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		yum install -y $pkgs
	fi
}

# Build reaim in source tree $1 (its ./bootstrap configures and makes); the program is $1/reaim.
build() {
	[ "$SKIP_INSTALL" = true ] || install_deps
	(cd "$1" && ./bootstrap) >"$OUTPUT/build.log" 2>&1 && [ -x "$1/reaim" ]
}

is_reaim_tree() {
	[ -x "$1/bootstrap" ] && [ -f "$1/src/main.c" ] && [ -d "$1/workfiles" ]
}

# reaim: the one given, else one built from TEST_DIR (cloned from TEST_GIT_URL first) or from the
# reaim tree this definition sits in, else the one on PATH.
how="" tree=$here
if [ -n "$REAIM" ]; then
	how=given
elif [ -n "$TEST_DIR" ] || [ -n "$TEST_GIT_URL" ]; then
	src=${TEST_DIR:-$here/reaim-src}
	if [ -n "$TEST_GIT_URL" ] && [ ! -d "$src/.git" ]; then
		git clone "$TEST_GIT_URL" "$src" >"$OUTPUT/clone.log" 2>&1 || src=""
	fi
	if [ -n "$src" ] && [ -n "$TEST_PROG_VERSION" ]; then
		(cd "$src" && git checkout -q "$TEST_PROG_VERSION") >>"$OUTPUT/clone.log" 2>&1 || src=""
	fi
	if [ -n "$src" ] && is_reaim_tree "$src" && build "$src"; then
		REAIM=$(cd "$src" && pwd)/reaim how=built tree=$src
	else
		how=failed
	fi
elif is_reaim_tree "$here/../.."; then
	if build "$here/../.."; then
		tree=$(cd "$here/../.." && pwd)
		REAIM=$tree/reaim how=built
	else
		how=failed
	fi
elif command -v reaim >/dev/null 2>&1; then
	REAIM=$(command -v reaim) how=path
fi
if [ -z "$how" ] || [ "$how" = failed ] || [ ! -x "$REAIM" ]; then
	report reaim-build fail
	[ -f "$OUTPUT/build.log" ] && tail -20 "$OUTPUT/build.log" >&2
	echo "reaim.sh: no reaim: give REAIM (a built reaim), TEST_DIR or TEST_GIT_URL (a reaim source), or put reaim on PATH" >&2
	exit 0
fi
report reaim-build pass

# The run: every point is stored in output/reaim.db (keep it: `reaim merge` gathers them). A suite
# named by path is relative to the tree reaim was built in, when there is one.
# -a: the run's own words (reaim lab's RUN-WORDS, blank-separated) in place of -s, -t, -j and -r (a
# second -s would be a second suite, so a second run)
if [ -n "$RUN_ARGS" ]; then
	set -f
	# shellcheck disable=SC2086 # one word each
	set -- run -d "$DIR" --db "$OUTPUT/reaim.db" $RUN_ARGS
	set +f
	SUITE=given
else
	set -- run -s "$SUITE" -r "$REPEAT" -d "$DIR" --db "$OUTPUT/reaim.db"
	[ -n "$TASKS" ] && set -- "$@" -t "$TASKS"
	[ -n "$JOBS" ] && set -- "$@" -j "$JOBS"
fi
[ -n "$LABEL" ] && set -- "$@" --label "$LABEL"
# -T: the run is stopped after that many seconds (SIGINT, as ^C: the points done stay stored, the one
# running is ended), so that a point that stalls cannot take the database with it when LAVA ends the job
# at its own timeout; the database is printed below whatever the run's status
if [ -n "$TIME_LIMIT" ] && command -v timeout >/dev/null 2>&1; then
	(cd "$tree" && timeout -s INT -k 60 "$TIME_LIMIT" "$REAIM" "$@") >"$OUTPUT/reaim.txt"
else
	(cd "$tree" && "$REAIM" "$@") >"$OUTPUT/reaim.txt"
fi
rc=$?
[ "$rc" -eq 124 ] && echo "reaim.sh: the run was stopped after $TIME_LIMIT s (-T)" >&2
cat "$OUTPUT/reaim.txt"
# 0: every point valid; 2: a point failed (it is reported as such below); else no run
if [ "$rc" -eq 0 ]; then
	report "reaim-run-$SUITE" pass
else
	report "reaim-run-$SUITE" fail
fi

# Every figure of every point: NAME pass|fail VALUE UNITS
"$REAIM" export last --db "$OUTPUT/reaim.db" --format lava >"$OUTPUT/points.txt" || true
while read -r name result value units; do
	if [ -n "$value" ]; then
		report "$name" "$result" "$value" "$units"
	else
		report "$name" "$result"
	fi
done <"$OUTPUT/points.txt"

# The database home: gzip, base64, each line after a prefix so that whatever LAVA wraps a console line in
# (its YAML log) can be cut away; the end marker carries the gzip's size and sha256. The prefix is
# built from pieces so that a traced shell (set -x) prints no line that looks like the payload.
bring_db() {
	m=REAIM-DB
	gzip -c "$OUTPUT/reaim.db" >"$OUTPUT/reaim.db.gz" || return 1
	echo "$m-BEGIN reaim.db.gz"
	base64 "$OUTPUT/reaim.db.gz" | awk -v p="$m" '{ print p ": " $0 }'
	echo "$m-END sha256=$(sha256sum <"$OUTPUT/reaim.db.gz" | cut -d' ' -f1) bytes=$(wc -c <"$OUTPUT/reaim.db.gz" | tr -d ' ')"
}
if [ "$BRING_DB" = true ] && [ -s "$OUTPUT/reaim.db" ]; then
	if command -v gzip >/dev/null 2>&1 && command -v base64 >/dev/null 2>&1 && bring_db; then
		report reaim-db-printed pass
	else
		report reaim-db-printed fail
	fi
fi
exit 0
