#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a first hour with reaim meets: the man page in order on a pipe, `reaim man` without a
# section, help cut short by its reader, a first screen holding only what to act on, a mistyped
# run name, a bad task count said once, and completion for ./reaim in the tree.
. "$(dirname "$0")/lib.sh"

# the page in its order: .TH first, EXIT STATUS's entries under their heading, EXAMPLES after them
check "man --roff 1 on a pipe" "$REAIM" man --roff 1
ok "$([ "$(head -1 "$T/out" | cut -c1-3)" = ".TH" ] && echo 0 || echo 1)" "the page begins with .TH"
order=$(grep -n '^\.SH \(EXIT STATUS\|EXAMPLES\)\|^\.B 125$' "$T/out" | cut -d: -f2 | tr '\n' '|')
ok "$([ "$order" = ".SH EXIT STATUS|.B 125|.SH EXAMPLES|" ] && echo 0 || echo 1)" "exit statuses under their heading, before EXAMPLES ($order)"
check "man with no section" "$REAIM" man --roff
head -1 "$T/out" >"$T/first"
contains "$T/first" ".TH REAIM 1 " "opens section 1, as man(1) opens the first"
# `reaim man 1 | head` is read by a person: the page rendered, not its roff source
if have "man 1 piped is rendered" man; then
	"$REAIM" man 1 2>"$T/err" | head >"$T/head"
	ok "$(! grep -q '^\.\(TH\|SH\|TP\)' "$T/head" && grep -q 'REAIM(1)' "$T/head" && echo 0 || echo 1)" \
		"man 1 | head: the rendered page, not roff ($(head -1 "$T/head"))"
	ok "$([ ! -s "$T/err" ] && echo 0 || echo 1)" "... and nothing said when head stops reading"
	# a narrow terminal or a long install prefix leaves lines troff cannot fill: no warnings for them
	MANWIDTH=24 "$REAIM" man 1 >/dev/null 2>"$T/err"
	ok "$([ ! -s "$T/err" ] && echo 0 || echo 1)" "man 1 at 24 columns says nothing on stderr ($(head -c 120 "$T/err"))"
fi

# `help` is an overview, a screen: shorter than --help, which adds every run option
check "help" "$REAIM" help
help_lines=$(wc -l <"$T/out")
check "--help" "$REAIM" --help
full_lines=$(wc -l <"$T/out")
ok "$([ "$help_lines" -le 40 ] && [ "$help_lines" -lt "$full_lines" ] && echo 0 || echo 1)" \
	"help is $help_lines lines, --help $full_lines"

# help whose reader goes away at once: no word of a run, none was made
{ sleep 0.3; "$REAIM" run --help 2>"$T/help.err"; } | :
ok "$([ ! -s "$T/help.err" ] && echo 0 || echo 1)" "run --help to a closed pipe says nothing of a run ($(head -c 120 "$T/help.err"))"

# the first screen: facts of the machine said once beside the database, every time under -v
printf '10 add_short\n' >"$T/mix"
check "a first run" "$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 5 -d "$T/scratch"
contains "$T/err" "stored in" "says where its runs go, the first time"
contains "$T/err" "accounting: " "and how it accounts"
ok "$(awk 'length($0) > 100 { bad = 1 } END { exit bad }' "$T/err" && echo 0 || echo 1)" \
	"its first screen of stderr keeps within 100 columns ($(awk '{ print length($0) }' "$T/err" | sort -n | tail -1))"
# the quiet check on a busy machine (a CPU hog of ours, a limit of 0): within 100 columns too, the
# machine's busy share and the processes it names in one unit
sh -c 'while :; do :; done' &
hog=$!
trap 'kill "$hog" 2>/dev/null; rm -rf "$T"' EXIT
mkdir -p "$T/busy"
check "a run on a busy machine" "$REAIM" --noise-limit 0 -f "$T/mix" -t 1 -j 5 -d "$T/scratch" --db "$T/busy/r.db"
kill "$hog"
contains "$T/err" "the machine is busy before the run" "the quiet check warns"
ok "$(awk 'length($0) > 100 { bad = 1 } END { exit bad }' "$T/err" && echo 0 || echo 1)" \
	"every line of it within 100 columns ($(awk '{ print length($0) }' "$T/err" | sort -n | tail -1))"
tr '\n' ' ' <"$T/err" | tr -s ' ' >"$T/busy.err"
# (our hog is one of the busiest, unless a machine shared with builds has five busier)
ok "$(grep -q 'busy [0-9]*% of a CPU ([0-9.]*% of [0-9]* CPUs*), steal [0-9.]*%; the busiest, in % of a CPU: [^ ]* [0-9]*% (' \
	"$T/busy.err" && echo 0 || echo 1)" "the busy share and each process in % of a CPU ($(cut -c1-300 "$T/busy.err"))"
check "a second run" "$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 5 -d "$T/scratch"
ok "$(! grep -q 'stored in\|accounting: \|counters: \|perf counters that cannot' "$T/err" && echo 0 || echo 1)" \
	"the second run repeats none of it ($(tr '\n' ' ' <"$T/err" | head -c 160))"
check "a run with -v" "$REAIM" -v --no-quiet-check -f "$T/mix" -t 1 -j 5 -d "$T/scratch"
contains "$T/err" "accounting: " "-v says it every time"
ok "$([ -f "$T/.reaim-said" ] && echo 0 || echo 1)" "what was said is kept beside the database"
status 0 "a planted link in the marker's place" ln -sf "$T/victim" "$T/.reaim-said"
check "a run beside it" "$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 5 -d "$T/scratch"
ok "$([ ! -e "$T/victim" ] && echo 0 || echo 1)" "is never followed"

# a mistyped run name: did you mean
status 1 "show lsat" "$REAIM" show lsat
contains "$T/err" "did you mean 'last'?" "suggests last"

# -t 0: the range said once
status 1 "-t 0" "$REAIM" -t 0 -f "$T/mix"
ok "$([ "$(grep -o '100000' "$T/err" | wc -l)" -eq 1 ] && echo 0 || echo 1)" "states its range once ($(cat "$T/err"))"

# completion is registered for ./reaim, as the tree's binary is run
ok "$(grep -q '^complete -F _reaim .*\./reaim' "$SRCDIR/completion/reaim.bash"; echo $?)" "completion registered for ./reaim"
if have "completion in bash" bash; then
	out=$(cd "$(dirname "$REAIM")" && bash -c ". '$SRCDIR/completion/reaim.bash'; complete -p ./reaim" 2>&1)
	ok "$(echo "$out" | grep -q '_reaim'; echo $?)" "bash knows ./reaim ($out)"
fi
finish
