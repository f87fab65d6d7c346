#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The counters explain a CPU hog: the compute mix in two in-run variants paired round by round, a
# hog beside every round of the second (shell loops that work a few milliseconds and sleep 5, one
# more than there are CPUs, working only while the "hog" variant's flag file exists). Its tasks are
# preempted more often, so `compare RUN --counters` must list perf's context-switches per job as
# moved against Jobs/Min, from a real run's stored counters. Every hog is killed, on failure too.
# In `make check-long`: it needs the machine to itself, as other load preempts the quiet rounds too.
. "$(dirname "$0")/../functional/lib.sh"

flag=$T/hog-on
hogs=
trap 'for p in $hogs; do kill "$p" 2>/dev/null; done; for p in $hogs; do wait "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
for _ in $(seq $(($(nproc) + 1))); do
	sh -c 'while :; do
		if [ -e "$1" ]; then i=0; while [ $i -lt 10000 ]; do i=$((i + 1)); done; sleep 0.005; else sleep 0.05; fi
	done' hog "$flag" &
	hogs="$hogs $!"
done
status 0 "the compute mix, a hog beside half its rounds" "$REAIM" run --no-quiet-check -f compute -t 2 -j 100 \
	-r 8 -d "$T/scratch" --variant quiet="rm -f '$flag'" --variant hog="touch '$flag'"
rm -f "$flag"
for p in $hogs; do kill "$p" 2>/dev/null; done
for p in $hogs; do wait "$p" 2>/dev/null; done
hogs=
ok "$([ -z "$(jobs -p)" ] && echo 0 || echo 1)" "no hog is left"

if grep -q 'perf none' "$T/err"; then
	ok 0 "context-switches moved with the hog # SKIP perf_event_open refused every event here"
else
	status 0 "compare --counters of the run's variants" "$REAIM" compare 1 --counters --format csv
	ok "$(awk -F, '{ gsub(/"/, "") } $7 == "perf" && $8 == "context-switches" && $11 > $10 && $17 == 1 { found = 1 }
		END { exit !found }' "$T/out"; echo $?)" "perf context-switches per job rose, listed as moving against Jobs/Min"
	awk -F, 'NR > 1 { gsub(/"/, ""); printf "# moved: %s %s %+.1f%% (p adj %s)\n", $7, $8, $12, $16 }' "$T/out"
fi
finish
