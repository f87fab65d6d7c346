#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The database as a shared, fallible resource: names that keep nothing, other programs' files,
# read-only files, another writer's lock, merging into itself or a run still going, damage.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n' >"$T/mix"
run() { "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 4 -d "$T/scratch" "$@"; }

# names that cannot keep a run are refused before anything runs; a database that cannot be
# used exits 2, as from every command
for db in '' ':memory:' 'file:x.db?mode=memory' /dev/null "$T"; do
	status 2 "--db '$db' refused" run --db "$db"
	contains "$T/err" "reaim: error:" "--db '$db': says why"
done
ok "$([ ! -e /dev/null-journal ] && [ ! -e /dev/null-wal ] && echo 0 || echo 1)" "nothing written next to /dev/null"

# another program's database: refused, named, and not changed at all (not even its journal mode)
if have "another program's database left untouched" sqlite3; then
	sqlite3 "$T/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
	before=$(cksum <"$T/other.db")
	status 2 "another program's database refused" run --db "$T/other.db"
	contains "$T/err" "$T/other.db" "the refusal names the file"
	ok "$([ "$before" = "$(cksum <"$T/other.db")" ] && echo 0 || echo 1)" "the file is unchanged"
	ok "$([ "$(sqlite3 "$T/other.db" 'PRAGMA journal_mode')" = delete ] && echo 0 || echo 1)" "journal mode untouched"
	status 2 "list refuses it too" "$REAIM" list --db "$T/other.db"
	contains "$T/err" "$T/other.db" "list names the file"
fi

check "a run to read" run --label first
# readers open read-only: an unprivileged user can read root's file in a directory it cannot write
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ "$(id -u)" = 0 ] && $nobody true 2>/dev/null; then
	mkdir "$T/ro" && cp "$REAIM_DB" "$T/ro/r.db" && chmod 755 "$T" "$T/ro" && chmod 444 "$T/ro/r.db"
	for c in list "show last" "export last --format json"; do
		# shellcheck disable=SC2086
		status 0 "read-only: $c" $nobody "$REAIM" $c --db "$T/ro/r.db"
	done
	# one run with nothing inside to compare: read all the same, and said (5), not a database error (2)
	status 5 "read-only: compare last" $nobody "$REAIM" compare last --db "$T/ro/r.db"
	contains "$T/err" "nothing to compare inside it" "read-only: compare says why"
	ok "$(ls "$T/ro" | grep -qv '^r.db$' && echo 1 || echo 0)" "read commands leave no journal behind"
	status 2 "a writer is refused on a file it cannot write" $nobody "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 2 -d /tmp \
		--db "$T/ro/r.db"
else
	n=$((n + 1))
	echo "ok $n - another user's database, read-only # SKIP needs root and setpriv"
fi

# a reader leaves no WAL files it made (SQLite leaves a read-only connection's behind)
for c in list "show last" "compare last"; do
	# shellcheck disable=SC2086
	"$REAIM" $c >/dev/null 2>&1
done
ok "$([ ! -e "$REAIM_DB-wal" ] && [ ! -e "$REAIM_DB-shm" ] && echo 0 || echo 1)" "read commands remove the WAL files they made"

# missing database: read commands say so, and do not create one
status 2 "list of a missing database" "$REAIM" list --db "$T/none.db"
contains "$T/err" "$T/none.db" "names the missing file"
ok "$([ ! -e "$T/none.db" ] && echo 0 || echo 1)" "and does not create it"

# another program holds the write lock: readers do not wait, a run waits and stores every point
if have "another program's write lock" python3; then
	# exec: $! is the holder itself, so killing it ends the lock (not a shell its holder outlives)
	lock() { exec python3 -c 'import sqlite3,sys,time
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute("BEGIN IMMEDIATE")
open(sys.argv[3], "w").close(); time.sleep(float(sys.argv[2]))' "$REAIM_DB" "$1" "$T/locked"; }
	rm -f "$T/locked"
	lock 3 &
	lk=$!
	while [ ! -e "$T/locked" ]; do sleep 0.05; done
	start=$(date +%s%N)
	status 0 "list while another program writes" "$REAIM" list
	ok "$([ $(( ($(date +%s%N) - start) / 1000000 )) -lt 1500 ] && echo 0 || echo 1)" "list does not wait for the writer"
	status 0 "a run waits for the lock, then stores" run --label waited
	wait "$lk"
	status 0 "show the run that waited" "$REAIM" show waited
	contains "$T/out" "1	" "its point is stored"

	rm -f "$T/locked"
	lock 30 &
	lk=$!
	while [ ! -e "$T/locked" ]; do sleep 0.05; done
	"$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 4 -d "$T/scratch" --label stopped >"$T/out" 2>"$T/err" &
	rp=$!
	sleep 1.5
	kill -INT "$rp"
	start=$(date +%s%N)
	wait "$rp"
	got=$?
	ok "$([ "$got" -eq 3 ] && echo 0 || echo 1)" "Ctrl-C while waiting for the lock: exit 3 (got $got)"
	ok "$([ $(( ($(date +%s%N) - start) / 1000000 )) -lt 1500 ] && echo 0 || echo 1)" "within a second"
	kill "$lk" 2>/dev/null
	wait "$lk" 2>/dev/null
fi

# merge: into itself (also under another name), and a run still going is not copied half done
status 2 "merge a database into itself" "$REAIM" merge "$REAIM_DB"
contains "$T/err" "being merged into" "says it is the same database"
ln -s "$REAIM_DB" "$T/alias.db"
status 2 "merge into itself through a link" "$REAIM" merge "$T/alias.db"
if have "merge of a live run, damaged and foreign files" sqlite3; then
	check "a run in another database" run --db "$T/lab.db" --label lab
	# a run going on there: its writer holds the lock file its row names
	sqlite3 "$T/lab.db" "UPDATE runs SET status = 'running'"
	lockf="$T/$(sqlite3 "$T/lab.db" "SELECT lock_file FROM runs")"
	echo "a writer's lock" >"$lockf"
	# flock -o: only flock itself holds the lock, so killing it frees the lock
	flock -o "$lockf" sleep 30 &
	holder=$!
	while flock -n "$lockf" true; do sleep 0.05; done
	status 0 "merge while that run is going" "$REAIM" merge "$T/lab.db"
	contains "$T/out" "merged 0 runs" "the running run is not copied"
	pkill -P "$holder" sleep 2>/dev/null
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	# its writer died: the lock is free, so the run is the interrupted run it is
	status 0 "merge once its writer is dead" "$REAIM" merge "$T/lab.db"
	contains "$T/out" "merged 1 runs" "a run whose writer died is copied"
	ok "$([ "$(sqlite3 "$REAIM_DB" "SELECT status FROM runs WHERE label = 'lab'")" = interrupted ] && echo 0 || echo 1)" \
		"stored interrupted"
	ok "$([ -e "$lockf" ] && [ "$(sqlite3 "$T/lab.db" "SELECT status FROM runs")" = running ] && echo 0 || echo 1)" \
		"the source is left as it was (its row and lock file)"
	status 0 "merge again" "$REAIM" merge "$T/lab.db"
	contains "$T/out" "merged 0 runs" "the run is not copied twice"

	# a damaged page is found before anything is appended
	cp "$REAIM_DB" "$T/bad.db"
	sqlite3 "$T/bad.db" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = delete" >/dev/null
	# the headers of pages 2 to 4 (b-tree pages: the schema's tables)
	for pg in 1 2 3; do
		printf '\377\377\377\377\377\377\377\377' | dd of="$T/bad.db" bs=1 seek=$((pg * 4096)) conv=notrunc 2>/dev/null
	done
	before=$(cksum <"$T/bad.db")
	status 2 "a damaged database is refused" run --db "$T/bad.db"
	contains "$T/err" "damaged" "says it is damaged"
	ok "$([ "$before" = "$(cksum <"$T/bad.db")" ] && echo 0 || echo 1)" "nothing appended to it"
	status 2 "merging a damaged database" "$REAIM" merge "$T/bad.db"
	contains "$T/err" "reaim: error: $T/bad.db: the database is damaged" "merge names the damaged source"

	# every reader on a damaged page says so and exits 2: no phantom rows, no runs dropped
	for c in list "show 1" "export 1" "compare 1" "plot 1 -o $T/p.svg" "report 1 -o $T/r.html" "rerun 1"; do
		# shellcheck disable=SC2086
		status 2 "a reader on a damaged page: $c" "$REAIM" $c --db "$T/bad.db"
		contains "$T/err" "damaged" "$c: says it is damaged"
	done
	ok "$([ "$before" = "$(cksum <"$T/bad.db")" ] && echo 0 || echo 1)" "the readers left it as it was"

	# refusing a damaged database in WAL mode leaves nothing beside it
	cp "$T/bad.db" "$T/badwal.db"
	printf '\002\002' | dd of="$T/badwal.db" bs=1 seek=18 conv=notrunc 2>/dev/null # the header's WAL mode
	status 2 "a damaged WAL database is refused" run --db "$T/badwal.db"
	contains "$T/err" "damaged" "says it is damaged"
	ok "$([ "$(ls "$T" | grep -c '^badwal')" -eq 1 ] && echo 0 || echo 1)" "no -wal or -shm left beside it"
	status 2 "a reader of it" "$REAIM" list --db "$T/badwal.db"
	ok "$([ "$(ls "$T" | grep -c '^badwal')" -eq 1 ] && echo 0 || echo 1)" "a reader leaves nothing beside it either"

	# another program's file, whatever its user_version and journal mode, is never modified
	stamp() { echo "$(stat -c '%s %Y' "$1") $(cksum <"$1")"; }
	for v in 5 99; do
		for mode in delete wal; do
			f="$T/app-$v-$mode.db"
			sqlite3 "$f" "PRAGMA journal_mode = $mode; CREATE TABLE t (x); INSERT INTO t VALUES (1);
				PRAGMA user_version = $v;" >/dev/null
			touch -d '2001-01-01' "$f"
			was=$(stamp "$f")
			status 2 "another program's file (user_version $v, $mode) refused by a run" run --db "$f"
			contains "$T/err" "not a reaim results database" "user_version $v, $mode: says why"
			status 2 "and by list" "$REAIM" list --db "$f"
			status 2 "and by merge" "$REAIM" merge "$f"
			contains "$T/err" "$f" "merge names the source"
			ok "$([ "$was" = "$(stamp "$f")" ] && echo 0 || echo 1)" "user_version $v, $mode: bytes and mtime unchanged"
			ok "$([ ! -e "$f-wal" ] && [ ! -e "$f-shm" ] && [ ! -e "$f-journal" ] && echo 0 || echo 1)" \
				"user_version $v, $mode: nothing made beside it"
			ok "$([ "$(sqlite3 "$f" 'PRAGMA journal_mode')" = "$mode" ] && echo 0 || echo 1)" \
				"user_version $v, $mode: journal mode unchanged"
		done
	done

	# a newer reaim's database: a run names that file and leaves it alone
	cp "$T/lab.db" "$T/newer.db"
	sqlite3 "$T/newer.db" "PRAGMA user_version = 99"
	was=$(stamp "$T/newer.db")
	status 2 "a newer reaim's database refused by a run" run --db "$T/newer.db"
	contains "$T/err" "reaim: error: $T/newer.db: schema version 99, newer" "the run names the newer file"
	status 2 "merge of a newer reaim's database" "$REAIM" merge "$T/newer.db"
	contains "$T/err" "reaim: error: $T/newer.db: schema version 99" "merge names the source"
	ok "$([ "$was" = "$(stamp "$T/newer.db")" ] && echo 0 || echo 1)" "the newer file is unchanged"
	# an older one: a reader says how to upgrade it only where this user could
	cp "$T/lab.db" "$T/older.db"
	sqlite3 "$T/older.db" "PRAGMA user_version = 8"
	status 2 "list of an older schema" "$REAIM" list --db "$T/older.db"
	contains "$T/err" "upgrades it" "says a run or merge upgrades it"
	if [ "$(id -u)" = 0 ] && $nobody true 2>/dev/null; then
		chmod 755 "$T" && chmod 644 "$T/older.db"
		status 2 "list of an older schema it cannot write" $nobody "$REAIM" list --db "$T/older.db"
		contains "$T/err" "only its owner can upgrade it" "no advice this user cannot follow"
	else
		n=$((n + 1))
		echo "ok $n - no advice a user who cannot write the file could follow # SKIP needs root and setpriv"
	fi
fi

# a file that is no database at all, given to merge, is named as the source
head -c 3000 /dev/urandom >"$T/noise.db"
status 2 "merge of a file that is no database" "$REAIM" merge "$T/noise.db"
contains "$T/err" "reaim: error: $T/noise.db:" "the error names the source, not the database merged into"
status 2 "merge of it into a database not yet made" "$REAIM" merge "$T/noise.db" --db "$T/fresh.db"
ok "$([ ! -e "$T/fresh.db" ] && echo 0 || echo 1)" "the source is vetted first: no database made for nothing"

# a --db path ending in / is a directory name: refused, never turned into a file
for c in run list; do
	if [ "$c" = run ]; then status 2 "--db ending in / refused by a run" run --db "$T/newdir/"
	else status 2 "--db ending in / refused by list" "$REAIM" list --db "$T/newdir/"; fi
	contains "$T/err" "ends in '/'" "$c: says why"
done
ok "$([ ! -e "$T/newdir" ] && echo 0 || echo 1)" "no file made of the name"
scratch_is_empty
ok $? "scratch is clean"
# long paths: every error names the path as given, whole; past what SQLite opens (504 bytes of
# the full path) the path is refused up front, saying so
deep="$T"
while [ ${#deep} -lt 420 ]; do deep="$deep/dddddddddddddddddddddddddddddddddddddddddddddddd"; done
mkdir -p "$deep"
echo "not a database" >"$deep/junk.db"
status 2 "a long path to a file that is no database" "$REAIM" -f "$T/mix" -t 1 -j 1 --no-quiet-check \
	-d "$T/scratch" --db "$deep/junk.db"
contains "$T/err" "$deep/junk.db:" "the long path named whole"
long="$deep/eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee.db"
status 2 "a path past what SQLite opens" "$REAIM" -f "$T/mix" -t 1 -j 1 --no-quiet-check -d "$T/scratch" \
	--db "$long"
contains "$T/err" "$long: its full path, " "that path named as given"
contains "$T/err" "longer than the 504 SQLite can open" "and why it is refused"
ok "$([ ! -e "$long" ] && echo 0 || echo 1)" "nothing made there"
longer=$(printf "$T/%01100d.db" 0)
status 2 "a path of 1100 bytes" "$REAIM" list --db "$longer"
contains "$T/err" "$longer" "it is named whole"
# a database made under umask 0777 stays its owner's to read and write
status 0 "a run under umask 0777" sh -c 'umask 0777 && exec "$@"' sh "$REAIM" -f "$T/mix" -t 1 -j 1 --no-quiet-check \
	-d "$T/scratch" --db "$T/masked.db"
ok "$([ "$(stat -c %a "$T/masked.db")" = 600 ] && echo 0 || echo 1)" "its database is 0600 ($(stat -c %a "$T/masked.db"))"
status 0 "a merge into a new database under umask 0777" sh -c 'umask 0777 && exec "$@"' sh "$REAIM" merge \
	"$T/masked.db" --db "$T/masked2.db"
ok "$([ "$(stat -c %a "$T/masked2.db")" = 600 ] && echo 0 || echo 1)" "that database is 0600 ($(stat -c %a "$T/masked2.db"))"
# the default database in a directory the user cannot write: the error names the directory
mkdir "$T/rocwd"
chmod 755 "$T"
chmod 555 "$T/rocwd"
runner=""
[ "$(id -u)" = 0 ] && runner=$nobody
if [ "$(id -u)" != 0 ] || $nobody true 2>/dev/null; then
	# shellcheck disable=SC2086
	status 2 "the default database in an unwritable directory" env -u REAIM_DB $runner sh -c 'cd "$1" && shift && exec "$@"' \
		sh "$T/rocwd" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1 -j 1 -d /tmp
	contains "$T/err" "cannot create the results directory $T/rocwd/results: Permission denied" "naming it"
else
	ok 0 "the default database in an unwritable directory # SKIP needs setpriv as root"
fi
finish
