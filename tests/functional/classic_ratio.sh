#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/classic_ratio.sh against a stand-in classic (a script printing classic's stdout rows with
# known figures) and the real reaim: the per-test ratios and the stock mixes' ratios are the
# figures of the two sides, a side that prints no row is said, and the load averages are printed.
. "$(dirname "$0")/lib.sh"

if have "bench/classic_ratio.sh" sqlite3; then
	# the stand-in: for each task count of -sS -eE, a row of classic's nine columns with a
	# parent time of 2 s a job, 0.1 s system and 0.4 s user a job, and 1000 Jobs/Min
	mkdir -p "$T/classic/data"
	cat >"$T/classic/reaim" <<'EOF'
#!/bin/sh
s=1 e=1 j=1
for a in "$@"; do
	case $a in -s*) s=${a#-s} ;; -e*) e=${a#-e} ;; -j*) j=${a#-j} ;; esac
done
echo "$*" >>"$(dirname "$0")/args"
[ -n "${CLASSIC_SILENT:-}" ] && { echo "classic: cannot start" >&2; exit 1; }
n=$s
while [ "$n" -le "$e" ]; do
	awk -v n="$n" -v j="$j" 'BEGIN { printf "%-8d%-8.2f %-7.2f %-7.2f %-10.2f %-10.2f %-8.2f %-8.2f %d\n",
		n, 2 * j, 0.1 * j, 0.4 * j, 1000, 1000 / n, 0, 0, 100 }'
	n=$((n + 1))
done
EOF
	chmod +x "$T/classic/reaim"
	printf '10 add_int\n' >"$T/classic/data/workfile.tiny"
	export REAIM DIR="$T"

	# per test: classic's CPU per job is (0.1 + 0.4) s, so the CPU ratio is ours in s / 0.5
	SECONDS_PER_RUN=0.2 sh "$SRCDIR/bench/classic_ratio.sh" "$T/classic" 1 add_int >"$T/t.out" 2>"$T/t.err"
	ok $? "classic_ratio.sh: one test, one pair"
	row=$(awk '$1 == "add_int"' "$T/t.out")
	# columns: test jobs ours_ms classic_ms ratio min max ours_cpu classic_cpu cpu_rat min max
	is_ok=$(echo "$row" | awk 'NF == 12 && $5 > 0 && $4 == 2000 && ($9 == 500) &&
		(($8 / $9) - $10 < 0.0015 && $10 - ($8 / $9) < 0.0015) && $11 == $10 && $12 == $10 { print 0; exit }
		{ print 1 }')
	ok "${is_ok:-1}" "... classic's job and CPU time from its row, the CPU ratio ours over classic and its range"
	[ "${is_ok:-1}" -eq 0 ] || sed 's/^/#   /' "$T/t.out"
	contains "$T/t.out" "load average before:" "... the load average before"
	contains "$T/t.out" "load average after:" "... and after"
	: >"$T/classic/args"
	CLASSIC_ARGS=-y SECONDS_PER_RUN=0.1 sh "$SRCDIR/bench/classic_ratio.sh" "$T/classic" 1 add_int >"$T/y.out" 2>&1
	ok "$(grep -q . "$T/classic/args" && ! grep -qv -- ' -y$' "$T/classic/args" && echo 0 || echo 1)" \
		"... CLASSIC_ARGS go on each of classic's command lines"

	# instructions: a side that fails is named with its last message, the other still counted
	if command -v valgrind >/dev/null 2>&1; then
		CALLGRIND=1 JOBS="1 2" CLASSIC_SILENT=1 sh "$SRCDIR/bench/classic_ratio.sh" "$T/classic" 1 jmp_test \
			>"$T/c.out" 2>&1
		ok "$(awk '$1 == "jmp_test" && NF == 4 && $2 > 0 && $3 == "failed" && $4 == "-" { f = 1 } END { print f ? 0 : 1 }' \
			"$T/c.out")" "CALLGRIND=1: ours counted, classic failed"
		contains "$T/c.out" "jmp_test           classic failed: $T/classic/reaim exited 1: classic: cannot start" \
			"... with classic's exit status and last message"
		CALLGRIND=1 JOBS="1 2" OURS_ARGS=--no-such-option sh "$SRCDIR/bench/classic_ratio.sh" "$T/classic" 1 \
			jmp_test >"$T/o.out" 2>&1
		# its usage error's 1, or under a sanitizer that cannot run beneath valgrind its abort's 134
		contains "$T/o.out" "jmp_test           ours failed: $REAIM exited " "... and ours' when ours fails"
		[ "$(grep -c "ours failed" "$T/o.out")" -eq 1 ] && ! grep -q "classic failed" "$T/o.out"
		ok $? "... classic's side still counted"
	else
		for w in "CALLGRIND=1: ours counted, classic failed" "... with classic's exit status and last message" \
			"... and ours' when ours fails" "... classic's side still counted"; do
			ok 0 "$w # SKIP no valgrind"
		done
	fi

	# the mixes: ours and the stand-in at 1 and 2 tasks; the Jobs/Min ratio is ours / 1000
	MIXES="tiny absent" MIX_JOBS=2 sh "$SRCDIR/bench/classic_ratio.sh" "$T/classic" 1 >"$T/m.out" 2>"$T/m.err"
	ok $? "classic_ratio.sh MIXES: a mix, one pair"
	for tasks in 1 2; do
		row=$(awk -v n="$tasks" '$1 == "tiny" && $2 == n' "$T/m.out")
		# columns: mix tasks ours_jpm classic_jpm ratio (range) ours_cpu classic_cpu ratio (range);
		# classic's CPU a run is 2 jobs x 0.5 s, so the CPU ratio is ours in s
		is_ok=$(echo "$row" | awk 'function near(a, b) { return a - b < 0.0006 && b - a < 0.0006 }
			NF == 10 && $4 == 1000 && $3 > 0 && near($3 / 1000, $5) && $8 == 1 && $7 > 0 && near($7, $9) {
				print 0; exit
			} { print 1 }')
		ok "${is_ok:-1}" "... $tasks task(s): Jobs/Min and CPU of each side and their ratios"
		[ "${is_ok:-1}" -eq 0 ] || sed 's/^/#   /' "$T/m.out"
	done
	contains "$T/m.out" "absent       no data/workfile.absent" "... a mix classic has no workfile of is said"
	CLASSIC_SILENT=1 MIXES=tiny MIX_JOBS=1 sh "$SRCDIR/bench/classic_ratio.sh" "$T/classic" 1 >"$T/f.out" 2>&1
	contains "$T/f.out" "tiny         failed: classic: cannot start" "... a side without rows fails the mix with its last message"
fi
finish
