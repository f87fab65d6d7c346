#!/bin/sh
# The options that quieten a measurement: --warmup (points run, never stored), --pin and
# --drop-caches (root only: refused up front otherwise).
. "$(dirname "$0")/lib.sh"

printf '1 add_int\n1 pipe_cpy\n' >"$T/mix"

status 0 "two warm-up points, then a sweep of two" "$REAIM" -f "$T/mix" -t 1,2 -j 4 --warmup 2 -d "$T/scratch" --label warm
cp "$T/err" "$T/warm.err"
contains "$T/warm.err" "warm-up 1 of 2, 1 tasks" "first warm-up reported"
contains "$T/warm.err" "warm-up 2 of 2, 1 tasks" "second warm-up reported"
status 0 "export the warm run" "$REAIM" export warm --format csv
ok "$([ "$(grep -c '^[12],' "$T/out")" -eq 2 ] && echo 0 || echo 1)" "only the two measured points are stored"
ok "$(scratch_is_empty; echo $?)" "scratch left empty after warm-up points"

status 0 "--pin on runs" "$REAIM" -f "$T/mix" -t 3 -j 4 --pin on -d "$T/scratch" --label pinned
ok "$(awk -F'\t' '$1 == "3" && $2 > 0 { f = 1 } END { exit !f }' "$T/out"; echo $?)" "pinned point is valid"
status 1 "--pin takes on or off" "$REAIM" -f "$T/mix" -t 1 --pin maybe -d "$T/scratch"
contains "$T/err" "--pin maybe" "the bad value is named"

if [ "$(id -u)" = 0 ]; then
	status 0 "--drop-caches on runs as root" "$REAIM" -f "$T/mix" -t 1 -j 2 --drop-caches on -d "$T/scratch" --label dropped
	ok "$(awk -F'\t' '$1 == "1" && $2 > 0 { f = 1 } END { exit !f }' "$T/out"; echo $?)" "point after dropping caches is valid"
else
	status 1 "--drop-caches on is refused without root" "$REAIM" -f "$T/mix" -t 1 -j 2 --drop-caches on -d "$T/scratch"
	contains "$T/err" "--drop-caches needs root" "and says why"
fi
finish
