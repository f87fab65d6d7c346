#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Single-user calibration: every test of the catalog alone in one task for PERIOD seconds
# (default 2), so users see what one job of each test costs on this machine.
# usage: bench/calibrate.sh [PERIOD] [DIR]   (DIR must support O_DIRECT; default /var/tmp)
set -eu
period=${1:-2}
dir=${2:-/var/tmp}
. "$(dirname "$0")/lib.sh"
bench_dir calibrate "$dir"
echo "FILESIZE: 1M" >"$t/all"
"$reaim" tests | awk 'NR > 1 { print "1", $1 }' >>"$t/all"
"$reaim" single -q -f "$t/all" -p "$period" -d "$t" --db "$t/c.db"
