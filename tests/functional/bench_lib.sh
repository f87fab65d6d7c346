#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bench scripts' shared helpers (bench/lib.sh) against hand-computed values, and every bench
# script parses and takes its helpers from there.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/bench/lib.sh"

# is DESCRIPTION WANT GOT
is() {
	if [ "$2" = "$3" ]; then ok 0 "$1"; else ok 1 "$1"; echo "#   want '$2', got '$3'"; fi
}
nums() { printf '%s\n' "$@"; }

# a compare CSV whose group labels hold commas (one quoted field) and a quote inside a label
cat >"$T/cmp.csv" <<'EOF2'
workload,osync,variant,tasks,base,base_label,pct,significant
mix,on,,1,A,"a1,a2,a3",-4.5,yes
mix,on,,2,A,"x ""q"", y",1.25,no
mix,on,,4,A,"a1,a2,a3",,
EOF2
is "compare_cells splits quoted commas" "$(printf 'yes -4.5\nno 1.25\n- ')" "$(compare_cells "$T/cmp.csv")"

noise_args
is "noise_args: the defaults" "7 100 2 /var/tmp" "$runs $jobs $tasks $dir"
noise_args 9 600 4 "$T"
is "noise_args: as given" "9 600 4 $T" "$runs $jobs $tasks $dir"
made=$(sh -c '. "$1"; bench_dir probe "$2"; echo "$t"; [ -d "$t" ] && echo there' sh "$SRCDIR/bench/lib.sh" "$T")
is "bench_dir makes a private dir in the parent given" "there" "$(echo "$made" | sed -n 2p)"
case $(echo "$made" | sed -n 1p) in "$T"/reaim-probe.*) ok 0 "... named for the script" ;; *) ok 1 "... named for the script" ;; esac
ok "$([ -e "$(echo "$made" | sed -n 1p)" ] && echo 1 || echo 0)" "... and removes it when the script exits"

is "median of an odd count" 2 "$(nums 1 2 3 | median)"
is "median of an even count" 2.5 "$(nums 1 2 3 4 | median)"
is "median of unsorted input" 7 "$(nums 9 1 7 8 3 | median)"
is "median of negative numbers" -4 "$(nums -1 -10 -3 -5 | median)"
is "median of decimals" 0.275 "$(nums 0.45 0.1 0.3 0.25 | median)"
is "median of one number" 42 "$(nums 42 | median)"
is "median orders 1e1 as ten" 3 "$(nums 1e1 3 2 | median)"
is "median of nothing" nan "$(: | median)"

is "median_range, default format" "3.00 (1.00-5.00)" "$(nums 5 1 3 | median_range)"
is "median_range of an even count" "2.50 (-1.00-10.00)" "$(nums 10 3 -1 2 | median_range)"
is "median_range with a format" "2.5 [1..10]" "$(nums 10 3 1 2 | median_range '%.1f [%.0f..%.0f]')"
is "median_range of nothing" nan "$(: | median_range)"

# mean 5, squared deviations 32, sample sd sqrt(32 / 7) = 2.13809
is "cv of eight numbers" 42.76 "$(nums 2 4 4 4 5 5 7 9 | cv)"
# mean 15, sd sqrt(50) = 7.07107
is "cv of two numbers" 47.14 "$(nums 20 10 | cv)"
is "cv of equal numbers" 0.00 "$(nums 5 5 5 | cv)"
is "cv of one number" nan "$(nums 5 | cv)"

# Jobs/Min 100 200 300: median 200, sd 100 (CV 50 %), absolute deviations 0 100 100 (MAD 100,
# rCV 1.4826 x 100 / 200 = 74.13 %); CPU 1 2 3 s a job: mean 2000 ms, sd 1 s (CV 50 %).
is "noise_row without median seconds" \
	"$(printf '%-14s %4d %12.1f %7.2f %7.2f %12.1f %12.1f %10.2f %7.2f' first 3 200 50 74.13 100 300 2000 50)" \
	"$(printf '300 3\n100 1\n200 2\n' | noise_row first 14 2)"
is "noise_row with median seconds, CPU in column 3" \
	"$(printf '%-13s %4d %12.1f %7.2f %7.2f %12.1f %12.1f %10.2f %10.2f %7.2f' reaim 3 200 50 74.13 100 300 1.5 2000 50)" \
	"$(printf '300 9 3\n100 9 1\n200 9 2\n' | noise_row reaim 13 3 1.5)"

printf '#!/bin/sh\necho "  --no-quiet-check  skip it"\n' >"$T/new"
printf '#!/bin/sh\necho "  -q  quiet"\n' >"$T/old"
chmod +x "$T/new" "$T/old"
is "no_quiet_check_flag of a binary with the option" --no-quiet-check "$(no_quiet_check_flag "$T/new")"
is "no_quiet_check_flag of a binary without it" "" "$(no_quiet_check_flag "$T/old")"
is "no_quiet_check_flag of reaim" --no-quiet-check "$(no_quiet_check_flag "$REAIM")"

ok "$(unset QUIET; wait_quiet; echo $?)" "wait_quiet without QUIET returns at once"
r=mine calm=mine waited=mine
QUIET=1000000
wait_quiet
ok $? "wait_quiet returns once the machine is quiet"
unset QUIET
is "wait_quiet leaves the caller's variables alone" "mine mine mine" "$r $calm $waited"

record() { echo "$1" >>"$T/order"; }
run_interleaved 2 "a b c" record >"$T/out"
is "run_interleaved: every setting in turn, each round" "a b c a b c" "$(paste -sd' ' "$T/order")"
contains "$T/out" "load average after:" "run_interleaved prints the load averages"

if command -v valgrind >/dev/null 2>&1; then
	none=$(callgrind_ir "$T/cg" sh -c 'exit 0')
	one=$(callgrind_ir "$T/cg" sh -c 'sh -c "exit 0"; exit 0')
	is "callgrind_ir leaves out the command's own instructions: 0 when it starts nothing" 0 "$none"
	ok "$([ "${one:-0}" -gt 0 ] && echo 0 || echo 1)" "... and counts those of the processes it starts ($one)"
	ok "$(callgrind_ir "$T/cg" false >/dev/null 2>&1 && echo 1 || echo 0)" "... and fails with the command"
	callgrind_ir "$T/cg" sh -c 'echo first >&2; echo "the reason" >&2; echo >&2; exit 3' >/dev/null 2>"$T/why"
	is "... saying its exit status and its last message" "callgrind_ir: sh exited 3: the reason" "$(cat "$T/why")"
	# the parent's loop is not counted (reaim's parent moves from run to run; its tasks do the jobs),
	# and a forked child's count is its own work, never a copy of what its parent had counted before
	# the fork (four forks would count the loop four times)
	loop=$(callgrind_ir "$T/cg" sh -c 'i=0; while [ $i -lt 5000 ]; do i=$((i+1)); done; sh -c "exit 0"; exit 0')
	ok "$([ "${loop:-0}" -gt 0 ] && [ "${loop:-0}" -lt $((one * 3 / 2)) ] && echo 0 || echo 1)" \
		"... the command's own work left out ($loop with a loop in it, $one without)"
	forked=$(callgrind_ir "$T/cg" sh -c 'i=0; while [ $i -lt 5000 ]; do i=$((i+1)); done; (:); (:); (:); (:); exit 0')
	ok "$([ "${forked:-0}" -gt 0 ] && [ "${forked:-0}" -lt "$one" ] && echo 0 || echo 1)" \
		"... each forked child only its own work ($forked for four subshells, against $one for one sh)"
else
	for w in "callgrind_ir leaves out the command's own" "... the processes it starts" "... fails with the command" \
		"... saying its exit status and its last message" "... the command's own work left out" \
		"... each forked child only its own work"; do
		ok 0 "$w # SKIP no valgrind"
	done
fi

for f in "$SRCDIR"/bench/*.sh; do
	status 0 "sh -n ${f#"$SRCDIR"/}" sh -n "$f"
done
helpers=$(sed -n 's/^\([a-z_]*\)() {.*/\1/p' "$SRCDIR/bench/lib.sh")
is "bench/lib.sh defines the helpers" "bench_dir noise_args median median_range cv no_quiet_check_flag wait_quiet run_interleaved noise_row compare_cells callgrind_ir" \
	"$(echo $helpers)"
: >"$T/copies"
# one awk over every bench script (not a grep per script and helper): a helper defined again, a
# helper called where bench/lib.sh is not sourced, top, reaim or nice set by the script itself
scripts=$(for f in "$SRCDIR"/bench/*.sh; do [ "${f##*/}" = lib.sh ] || echo "$f"; done)
# shellcheck disable=SC2086 # one argument a script (no spaces in the bench scripts' names)
awk -v helpers="$helpers" -v source_line='. "$(dirname "$0")/lib.sh"' '
function flush(   i, name) {
	if (file == "")
		return
	name = file
	sub(/.*\//, "", name)
	for (i = 1; i <= nh; i++) {
		if (own[h[i]])
			print name " has its own " h[i]
		else if (uses[h[i]] && !sourced)
			print name " calls " h[i] " without sourcing bench/lib.sh"
	}
	if (sets)
		late = late name " sets top, reaim or nice itself\n"
}
BEGIN { nh = split(helpers, h, /[ \n]+/) }
FNR == 1 {
	flush()
	file = FILENAME
	sourced = sets = 0
	for (i = 1; i <= nh; i++)
		own[h[i]] = uses[h[i]] = 0
}
{
	if ($0 == source_line)
		sourced = 1
	if ($0 ~ /^(top|reaim|nice)=/)
		sets = 1
	for (i = 1; i <= nh; i++) {
		if ($0 ~ ("^[[:space:]]*" h[i] "\\(\\)"))
			own[h[i]] = 1
		if ($0 ~ ("(^|[^a-z_])" h[i] "([^a-z_]|$)"))
			uses[h[i]] = 1
	}
}
END { flush(); printf "%s", late }
' $scripts >>"$T/copies"
ok "$([ -s "$T/copies" ] && echo 1 || echo 0)" "no bench script keeps a copy of a helper, calls one unsourced or sets what lib.sh sets"
sed 's/^/#   /' "$T/copies"
finish
