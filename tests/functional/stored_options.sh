#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Databases stored by an older reaim read as they did: two runs (a sweep over two task counts,
# two rounds, O_SYNC both and two dirs; a crossover with its threshold) as reaim stored them at
# schema 15 (every option twice: the workloads' own columns and the option rows) and at schema 3
# (before the option rows), in tests/data/db/. Each is upgraded by merging a run into it, and
# what every view prints of the two runs (show, the exports LKP, mmtests, autotest and LAVA read,
# compare, report, a rerun's and a new run's plan with its estimate) must be what reaim printed
# before the options were stored once: tests/data/db/schema*.expected, written by this script
# with REAIM_RECORD=1 and the reaim of schema 15.
. "$(dirname "$0")/lib.sh"
DATA=$SRCDIR/tests/data/db

if have "databases of older schemas" sqlite3; then
	printf 'FILESIZE: 16K\n10 add_int\n10 pipe_cpy\n10 sync_disk_wrt\n' >"$T/mix"
	printf '10 add_int\n' >"$T/tiny"
	cd "$T" || exit 1
	check "a run to merge" "$REAIM" -q --no-quiet-check --no-counters -f tiny -t 1 -j 1 -d "$T/scratch" --db "$T/tiny.db"
	for v in 15 3; do
		db=$T/schema$v.db
		sqlite3 "$db" <"$DATA/schema$v.sql"
		ok $? "the database of schema $v loads"
		status 0 "merging a run into the database of schema $v upgrades it" "$REAIM" merge "$T/tiny.db" --db "$db"
		# views RUN...: what each view prints of the stored runs, each under a heading
		{
			for args in "show 1" "show 1 -v" "show 2" "show 2 -v" "show 1 --files" \
				"export 1 --format csv" "export 1 --format json" "export 1 --format lkp" \
				"export 1 --format reaim7" "export 1 --format aim7" "export 1 --format lava" \
				"export 1 --format kcidb" "export 2 --format csv" "export 2 --format lkp" \
				"export 2 --format reaim7" "export 2 --format lava" "export 2 --format json" \
				"compare 1 2" "compare 1 2 --format json" "rerun 1 --dry-run --label fix-c" "rerun 2 --dry-run --label fix-c" \
				"run -f mix -t 1,2 -j 4 --osync both -d $T/scratch --label fix-c --dry-run"; do
				echo "== reaim $args"
				# shellcheck disable=SC2086
				"$REAIM" $args --db "$db" 2>&1
				echo "== exit $?"
			done
			echo "== reaim report 1 2"
			"$REAIM" report 1 2 -o "$T/report.html" --db "$db" 2>&1
			echo "== exit $?"
			cat "$T/report.html"
		} | sed "s|$T|TMP|g" >"$T/schema$v.views"
		if [ -n "${REAIM_RECORD-}" ]; then
			cp "$T/schema$v.views" "$DATA/schema$v.expected"
		fi
		ok "$(cmp -s "$T/schema$v.views" "$DATA/schema$v.expected" && echo 0 || echo 1)" \
			"every view of the runs stored at schema $v prints what it did ($(wc -l <"$T/schema$v.views") lines)"
		diff "$DATA/schema$v.expected" "$T/schema$v.views" | head -20 | sed 's/^/#   /'
	done
	# the options are stored once: the workloads keep no option of their own
	ok "$(sqlite3 "$T/schema15.db" "SELECT COUNT(*) FROM pragma_table_info('workloads') WHERE name IN
		('tasks', 'jobs_per_task', 'repeat', 'osync', 'sync_mode', 'filesize_kib', 'poolsize_kib', 'dirs', 'threshold')")" \
		"the workloads' own option columns are gone"
	ok "$([ "$(sqlite3 "$T/schema3.db" "SELECT o.key || '=' || o.value FROM workload_options o JOIN workloads w ON w.id = o.workload_id
		WHERE w.run_id = 2 ORDER BY o.key" | tr '\n' ' ')" = \
		"dirs=d1 filesize=16K jobs_per_task=4 osync=on poolsize=0K repeat=1 seed=8 sync_mode=fsync tasks=1 threshold=1000000.0 workfile=mix " ] &&
		echo 0 || echo 1)" "a run stored before the option rows keeps what its columns held, as option rows"
fi
finish
