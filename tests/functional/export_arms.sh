#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every export keeps apart what a run kept apart: a --load run's loads, a --cpus run's CPU counts and
# a --variant run's variants each have their own LAVA test case names, CSV rows that say which, KCIDB
# paths of their own; LKP's max_jobs_per_min is the workload's, measured without a load beside it.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n' >"$T/cpu"
run() { "$REAIM" -q -f "$T/cpu" -d "$T/scratch" --sample-interval 0 --counters off --no-quiet-check -t 1,2 -j 4 "$@"; }
# no test case name (the first word of a lava line) given twice
lava_unique() { [ -s "$T/out" ] && [ -z "$(cut -d' ' -f1 "$T/out" | sort | uniq -d)" ]; }
kcidb_paths() { grep -o '"path": "[^"]*"' "$T/out" | grep -v '"reaim"' | sort | uniq -c | awk '{ print $1 }' | sort -u; }

check "a --load run" run --load cache --label loads
check "a --cpus run" run --cpus 1,2 --label cpus
check "a --variant run" run --variant a=true --variant b=true --label variants

for label in loads cpus variants; do
	status 0 "$label: lava export" "$REAIM" export "$label" --format lava
	ok "$(lava_unique && echo 0 || echo 1)" "$label: no LAVA test case name repeats"
	[ "$label" = loads ] || continue
	contains "$T/out" "cpu-load_no_load-osync_on-tasks_2-jobs_per_min pass" "$label: the no_load points name their load"
	contains "$T/out" "cpu-load_cache-osync_on-max_jobs_per_min pass" "$label: each load its maximum"
done
status 0 "cpus: lava export" "$REAIM" export cpus --format lava
contains "$T/out" "cpu-cpus_2-osync_on-tasks_1-jobs_per_min pass" "cpus: the test case names its CPU count"

status 0 "loads: csv export" "$REAIM" export loads --format csv
ok "$(head -1 "$T/out" | grep -q ',variant,round,cpus,load$' && echo 0 || echo 1)" "the CSV has variant, cpus and load columns"
ok "$([ "$(grep -c ',"no_load"$' "$T/out")" -eq 2 ] && [ "$(grep -c ',"cache"$' "$T/out")" -eq 2 ] && echo 0 || echo 1)" \
	"each row says its load"

for label in loads cpus variants; do
	status 0 "$label: kcidb export" "$REAIM" export "$label" --format kcidb
	ok "$([ "$(kcidb_paths)" = 1 ] && echo 0 || echo 1)" "$label: every KCIDB test its own path"
done
contains "$T/out" '"path": "reaim.cpu.variant_b.2"' "a variant's path names it"

# LKP's max_jobs_per_min: the best point without a load, whatever the loaded ones measured
if have "LKP's maximum is the no-load one" sqlite3; then
	sqlite3 "$REAIM_DB" "UPDATE points SET jobs_per_min = 1e9 WHERE load = 'cache'"
	best=$(sqlite3 "$REAIM_DB" "SELECT printf('%.2f', max(jobs_per_min)) FROM points p JOIN runs r ON r.id = p.run_id
		WHERE r.label = 'loads' AND load = 'no_load' AND valid")
	status 0 "loads: lkp export" "$REAIM" export loads --format lkp
	contains "$T/out" "max_jobs_per_min: $best" "LKP's max_jobs_per_min is the no-load maximum ($best)"
fi
finish
