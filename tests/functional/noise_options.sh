#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The options that quieten a measurement: --warmup (points run, never stored), --pin and
# --drop-caches (root only: refused up front otherwise), each in the plan and the run's options.
. "$(dirname "$0")/lib.sh"

printf '1 add_int\n1 pipe_cpy\n' >"$T/mix"
run() { "$REAIM" --no-quiet-check -f "$T/mix" -d "$T/scratch" "$@"; }

status 0 "--dry-run with the three options" run -t 1,2 -j 4 --warmup 2 --pin on --drop-caches off --dry-run
contains "$T/out" "Warm-up: 2 points at 1 tasks" "the plan counts the warm-up points"
ok "$(grep -Eq '^  pin +on$' "$T/out" && grep -Eq '^  drop_caches +off$' "$T/out"; echo $?)" "the plan shows --pin and --drop-caches"

status 0 "two warm-up points, then a sweep of two" run -t 1,2 -j 4 --warmup 2 --label warm
cp "$T/err" "$T/warm.err"
contains "$T/warm.err" "warm-up 1 of 2, 1 tasks" "first warm-up reported"
contains "$T/warm.err" "warm-up 2 of 2, 1 tasks" "second warm-up reported"
status 0 "export the warm run" "$REAIM" export warm --format csv
ok "$([ "$(grep -c '^[12],' "$T/out")" -eq 2 ] && echo 0 || echo 1)" "only the two measured points are stored"
ok "$(scratch_is_empty; echo $?)" "scratch left empty after warm-up points"
status 0 "show -v of the warm run" "$REAIM" show -v warm
ok "$(grep -Eq '^ *warmup +2$' "$T/out"; echo $?)" "--warmup 2 is stored with the run's options"

status 0 "--pin on runs" run -t 3 -j 4 --pin on --label pinned
ok "$(awk -F'\t' '$1 == "3" && $2 > 0 { f = 1 } END { exit !f }' "$T/out"; echo $?)" "pinned point is valid"
status 0 "show -v of the pinned run" "$REAIM" show -v pinned
ok "$(grep -Eq '^ *pin +on$' "$T/out"; echo $?)" "--pin on is stored with the run's options"
status 1 "--pin takes on or off" run -t 1 --pin maybe
contains "$T/err" "--pin maybe" "the bad value is named"

# --drop-caches drops the whole machine's caches: only where the test can see it work (root,
# fincore(1), a file of its own on a filesystem with a page cache), never as a side effect.
skip_drop() { ok 0 "--drop-caches on drops the page cache # SKIP $1"; }
if [ "$(id -u)" != 0 ]; then
	if [ -w /proc/sys/vm/drop_caches ]; then
		skip_drop "drop_caches is writable without root here"
	else
		status 1 "--drop-caches on is refused without root" run -t 1 -j 2 --drop-caches on
		contains "$T/err" "--drop-caches needs root" "and says why"
		skip_drop "needs root"
	fi
elif ! command -v fincore >/dev/null 2>&1; then
	skip_drop "needs fincore(1) to see a file leave the page cache"
elif [ "$(stat -f -c %T "$T")" = tmpfs ]; then
	skip_drop "$T is on tmpfs, whose pages cannot be dropped"
else
	dd if=/dev/zero of="$T/cached" bs=64k count=64 2>/dev/null && sync "$T/cached" && cat "$T/cached" >/dev/null
	before=$(fincore -n -b -o RES "$T/cached")
	status 0 "--drop-caches on runs as root" run -t 1 -j 2 --drop-caches on --label dropped
	after=$(fincore -n -b -o RES "$T/cached")
	echo "# a file of 4 MiB of ours in the page cache: $before bytes before the run, $after after"
	ok "$([ "${before:-0}" -gt 0 ] && [ "${after:-1}" -lt $((before / 2)) ] && echo 0 || echo 1)" \
		"--drop-caches on drops the page cache before the point"
	"$REAIM" show -v dropped >"$T/out" 2>&1
	ok "$(grep -Eq '^ *drop_caches +on$' "$T/out"; echo $?)" "--drop-caches on is stored with the run's options"
fi
finish
