#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest's table on this machine: the dbase mix at 2 tasks under no_load, process, io, read and mem,
# ROUNDS rounds (each load interleaved with no_load in every round); prints the machine's load
# average, show's contest table (Jobs/Min, Ratio, Loads, LCPU%) and compare's verdict of each load
# against no_load (paired by round) with its time ratio. The io, read and mem sizes are capped by
# $REAIM_LOAD_MAX_MIB (default here 64).
# usage: bench/contest.sh [ROUNDS] [JOBS] [DIR]   (defaults 3, 100, /var/tmp)
set -eu
rounds=${1:-3}
jobs=${2:-100}
dir=${3:-/var/tmp}
. "$(dirname "$0")/lib.sh"
bench_dir contest "$dir"
mkdir "$t/s"
REAIM_LOAD_MAX_MIB=${REAIM_LOAD_MAX_MIB:-64}
export REAIM_LOAD_MAX_MIB
echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
$nice "$reaim" -q -f "$top/workfiles/dbase" -t 2 -r "$rounds" -j "$jobs" --load process,io,read,mem -d "$t/s" \
	--db "$t/b.db" --sample-interval 0 --counters off >/dev/null 2>&1 || true
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== dbase, 2 tasks, $rounds rounds, $jobs jobs per task, loads capped at $REAIM_LOAD_MAX_MIB MiB"
"$reaim" show last --db "$t/b.db" | sed -n '/^Loads as contest/,/^Per test/p' | grep -v '^Per test'
"$reaim" compare last --db "$t/b.db" | grep -E '^Workload|^Tasks|^ +2 +[0-9]|^[B-Z] \(load'

