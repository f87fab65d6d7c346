#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command's option table: --help lists each option, the man page has each, an option of
# another command is refused, misspellings get a "did you mean", a database that cannot be
# used exits 2 from every command, and bash completion offers what the tables hold.
. "$(dirname "$0")/lib.sh"

# the commands, as completion lists them (from the command table)
commands=$("$REAIM" __complete -- 1 reaim "" | sed 1d)
ok "$(echo "$commands" | grep -qx compare && echo "$commands" | grep -qx run && echo 0 || echo 1)" \
	"completion lists the commands"
ok "$(echo "$commands" | grep -q __complete; [ $? -ne 0 ] && echo 0 || echo 1)" "but not the hidden helper"
"$REAIM" man --roff 1 >"$T/man1"

# options_of CMD: each option of CMD's table as completion offers it (--long, and -s)
options_of() {
	"$REAIM" __complete -- 2 reaim "$1" - | sed 1d | grep -vx -- '--help'
}

for cmd in $commands; do
	options_of "$cmd" >"$T/opts.$cmd"
	status 0 "$cmd --help exits 0" "$REAIM" "$cmd" --help
	ok "$([ ! -s "$T/err" ] && head -n 1 "$T/out" | grep -q "^usage: reaim $cmd" && echo 0 || echo 1)" \
		"$cmd --help: usage first, on stdout only"
	cp "$T/out" "$T/help.$cmd"
	status 0 "$cmd -h exits 0" "$REAIM" "$cmd" -h
	ok "$(cmp -s "$T/out" "$T/help.$cmd"; echo $?)" "$cmd -h is --help"
	missing=""
	for o in $(cat "$T/opts.$cmd"); do
		case $o in
		--*) grep -qE -- "(^| )$o( |$)" "$T/help.$cmd" || missing="$missing $o" ;;
		*) grep -qE -- "^  $o(,| )" "$T/help.$cmd" || missing="$missing $o" ;;
		esac
	done
	ok "$([ -z "$missing" ] && echo 0 || echo 1)" "$cmd --help lists every option of its table${missing:+ (missing:$missing)}"
	# reaim(1): a section per command with each of its long options (roff escapes '-')
	sed -n "/^\\.SS \"reaim $cmd\"/,/^\\.S[SH] /p" "$T/man1" >"$T/man.$cmd"
	# a command sharing the table of the one before says so rather than repeating it
	same=$(sed -n 's/^It takes the options of \\fBreaim \([a-z]*\)\\fR\.$/\1/p' "$T/man.$cmd")
	[ -n "$same" ] && cat "$T/man.$same" >>"$T/man.$cmd"
	missing=""
	for o in $(grep -- '^--' "$T/opts.$cmd"); do
		grep -qF -- "$(echo "$o" | sed 's/-/\\-/g')" "$T/man.$cmd" || missing="$missing $o"
	done
	ok "$([ -s "$T/man.$cmd" ] && [ -z "$missing" ] && echo 0 || echo 1)" \
		"reaim(1) has a section for $cmd with every option${missing:+ (missing:$missing)}"
done
ok "$([ "$(wc -l <"$T/opts.run")" -ge 20 ] && echo 0 || echo 1)" "run's table includes the suite keys"
grep -q -- '--max-tasks' "$T/opts.single"
ok $? "single takes the run options"
for section in "ENVIRONMENT" "FILES" "EXIT STATUS" "EXAMPLES"; do
	contains "$T/man1" ".SH $section" "reaim(1) has $section"
done
contains "$T/man1" "REAIM_DB" "ENVIRONMENT names REAIM_DB"
contains "$T/man1" "TMPDIR" "and TMPDIR"

# an option of another command is refused, named, and its command named
for cmd in $commands; do
	other=""
	for c in $commands; do
		[ "$c" = "$cmd" ] && continue
		for o in $(grep -- '^--' "$T/opts.$c"); do
			grep -qx -- "$o" "$T/opts.$cmd" || { other=$o; break; }
		done
		[ -n "$other" ] && break
	done
	status 1 "$cmd refuses $other (an option of $c)" "$REAIM" "$cmd" "$other"
	ok "$(grep -qF "unknown option '$other'" "$T/err" && grep -qF "is an option of" "$T/err" && [ ! -s "$T/out" ] && echo 0 || echo 1)" \
		"$cmd $other: named on stderr with the command it belongs to"
done
status 1 "list --tests is refused" "$REAIM" list --tests
contains "$T/err" "'--tests' is an option of reaim show, not of reaim list" "and says whose it is"
contains "$T/err" "usage: reaim list [-n N]" "the usage line follows"
ok "$([ ! -e "$REAIM_DB" ] && echo 0 || echo 1)" "refused before any database is touched"

# both value spellings, clusters and -- on the real binary
status 1 "a bad --alpha names the option" "$REAIM" compare a b --alpha=0.7
contains "$T/err" "--alpha 0.7: not a number above 0 and below 0.5" "with its bounds"
status 1 "an unknown export format" "$REAIM" export --format xml
contains "$T/err" "--format xml: not one of csv, json, lkp, reaim7" "the formats come from the table"
status 1 "plot without -o" "$REAIM" plot last
contains "$T/err" "missing --output FILE" "names the required option"
status 0 "man with no section opens section 1, as man(1) opens the first" "$REAIM" man --roff
contains "$T/out" ".TH REAIM 1 " "reaim(1)"
status 1 "man 3" "$REAIM" man 3
contains "$T/err" "not one of 1, 5" "the sections come from the table"

# did you mean: command, option, value, suite, workfile, test
status 1 "a misspelled command" "$REAIM" lsit
contains "$T/err" "unknown command 'lsit'; did you mean list?" "did you mean list"
status 1 "a misspelled option" "$REAIM" list --lable x
contains "$T/err" "did you mean --label?" "did you mean --label"
status 1 "a misspelled format" "$REAIM" export --format jsno
contains "$T/err" "did you mean json?" "did you mean json"
status 1 "a misspelled suite" "$REAIM" -s dbse --dry-run
contains "$T/err" "cannot read suite: No such file or directory; did you mean dbase?" "did you mean dbase"
status 1 "a misspelled workfile" "$REAIM" -f fsrever --dry-run
contains "$T/err" "did you mean fserver?" "did you mean fserver"
status 1 "a misspelled test" "$REAIM" tests sync_disk_wrtt
contains "$T/err" "did you mean sync_disk_wrt?" "did you mean sync_disk_wrt"
status 1 "help for a misspelled command" "$REAIM" help comapre
contains "$T/err" "did you mean compare?" "did you mean compare"
status 0 "help COMMAND" "$REAIM" help export
ok "$(cmp -s "$T/out" "$T/help.export"; echo $?)" "is COMMAND --help"

# one exit code for a database that cannot be used, from every command that reads one
printf 'not a database\n' >"$T/text.db"
for args in "list" "show" "export" "compare 1 2" "plot 1 -o $T/x.svg"; do
	# shellcheck disable=SC2086
	status 2 "$args: a missing database exits 2" "$REAIM" $args --db "$T/none.db"
	contains "$T/err" "no results database at $T/none.db" "$args: says where it looked"
	# shellcheck disable=SC2086
	status 2 "$args: a file that is not a database exits 2" "$REAIM" $args --db "$T/text.db"
done
status 2 "merge from a file that is not a database exits 2" "$REAIM" merge "$T/text.db" --db "$T/m.db"
status 2 "merge from a database that does not exist exits 2" "$REAIM" merge "$T/none.db" --db "$T/m.db"
printf '10 add_int\n' >"$T/cpu"
status 2 "run into a file that is not a database exits 2" "$REAIM" -q --no-quiet-check -f "$T/cpu" -t 1 -j 2 -d "$T/scratch" --db "$T/text.db"

# a real database: the value spellings work, an unknown run is a usage error
check "a run" "$REAIM" -q --no-quiet-check -f "$T/cpu" -t 1 -j 2 -d "$T/scratch" --label compl-a
check "list -n1 (attached value)" "$REAIM" list -n1
contains "$T/out" "compl-a" "lists the run"
check "show --db=FILE last" "$REAIM" show --db="$REAIM_DB" last
for args in "show nosuch" "export nosuch" "compare nosuch" "plot nosuch -o $T/x.svg"; do
	# shellcheck disable=SC2086
	status 1 "$args: a run that is not stored is a usage error" "$REAIM" $args
	contains "$T/err" "no run matches 'nosuch'" "$args: names it"
done
status 2 "plot into a directory that does not exist exits 2" "$REAIM" plot last -o "$T/no/dir/x.svg"
status 2 "merge into a file that is not a database exits 2" "$REAIM" merge "$REAIM_DB" --db "$T/text.db"

# bash completion (bash -c with COMP_WORDS and COMP_CWORD, as bash calls it)
if command -v bash >/dev/null 2>&1; then
	comp() {
		cword=$1
		shift
		bash -c '. "$1"; shift; cw=$1; shift; COMP_WORDS=("$@"); COMP_CWORD=$cw; _reaim; printf "%s\n" "${COMPREPLY[@]}"' \
			comp "$SRCDIR/completion/reaim.bash" "$cword" "$REAIM" "$@" 2>/dev/null
	}
	ok "$(comp 1 li | grep -qx list; echo $?)" "completion: a command"
	ok "$([ "$(comp 1 '' | wc -l)" -eq "$(echo "$commands" | wc -l)" ] && echo 0 || echo 1)" "completion: every command"
	ok "$(comp 2 compare --fo | grep -qx -- --format; echo $?)" "completion: a command's option"
	ok "$(comp 2 list --te | grep -q .; [ $? -ne 0 ] && echo 0 || echo 1)" "completion: not another command's option"
	# the formats export --help lists from the same table, in its order
	formats=$("$REAIM" export --help | sed -n '/--format FORMAT/,/^  [-A-Z]/p' | awk '/^                               [a-z0-9]/ { printf "%s ", $1 }')
	ok "$([ -n "$formats" ] && [ "$(comp 3 export --format '' | tr '\n' ' ')" = "$formats" ] && echo 0 || echo 1)" \
		"completion: the formats from the table ($formats)"
	ok "$(comp 4 export --format = j | grep -qx json; echo $?)" "completion: --format=VALUE split at '='"
	ok "$(comp 2 -s db | grep -qx dbase; echo $?)" "completion: suite names"
	ok "$(comp 2 -f fser | grep -qx fserver; echo $?)" "completion: workfile names"
	ok "$(comp 3 single -f all | grep -qx alltests; echo $?)" "completion: workfile names for single"
	ok "$(comp 2 --osync '' | tr '\n' ' ' | grep -qx 'off on both '; echo $?)" "completion: a suite key's choices"
	ok "$(comp 2 show co | grep -qx compl-a; echo $?)" "completion: run labels from the database"
	ok "$(comp 2 show la | grep -qx last; echo $?)" "completion: last"
	ok "$(comp 4 show --db "$T/none.db" co | grep -q .; [ $? -ne 0 ] && echo 0 || echo 1)" "completion: the database --db names"
	ok "$(comp 3 list --label '' | grep -qx compl-a; echo $?)" "completion: labels for --label"
	ok "$(comp 2 tests sync_disk_w | grep -qx sync_disk_wrt; echo $?)" "completion: test names"
	mkdir -p "$T/cdir/sub"
	ok "$(cd "$T/cdir" && comp 2 -d s | grep -qx sub; echo $?)" "completion: directories for -d"
	ok "$(cd "$T/cdir" && comp 3 check s | grep -qx sub; echo $?)" "completion: files for check"
else
	ok 0 "completion # SKIP bash not installed"
fi
finish
