#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Per-job time of each test, ours against a classic re-aim-7 build: every single-test workfile
# at N = 1 task, ours and classic interleaved (their order alternating), the ratio of job
# times ours/classic per repeat and its median (with the smallest and largest), and the same
# for CPU time per job (user + system of the task), steadier on a busy machine.
#
# usage: bench/classic_ratio.sh CLASSIC_DIR [REPEATS] [TEST...]
#   CLASSIC_DIR  a built re-aim 7.0.1.13 tree: its binary as reaim, src/reaim or out/reaim,
#                and its data/ (fakeh.tgz for disk_src); its scripts at the path it was
#                compiled with (exec_test and shell_rtns_*)
#   REPEATS      interleaved pairs per test (default 3)
#   TEST         tests to measure (default: every test of `reaim tests`)
# environment: REAIM (our binary), DIR (disk dir, default /var/tmp), FILESIZE and POOLSIZE
#   (default 10k and 1m, as LKP and mmtests configure classic), OURS_ARGS (more options for
#   ours, e.g. "--sync-mode global"), CLASSIC_ARGS (more options for classic's per-test runs,
#   e.g. "-y", its nosync), SECONDS_PER_RUN (the job count is chosen so that one run of ours
#   lasts about this long; default 1). Needs sqlite3.
#   CALLGRIND=1: instead, the instructions per job of each (callgrind's Ir in user space, all
#   processes, the difference between runs of J1 and J2 jobs over J2 - J1, JOBS "J1 J2",
#   default "5 45") and their ratio: repeatable on a busy machine, blind to the kernel's work,
#   so for the CPU tests. Ours runs with a point limit of a day (--timeout 86400), as its
#   default of 10 minutes is short for 45 jobs of a test 10 to 50 times slower under valgrind;
#   a side that fails prints its last message. Needs valgrind.
#   MIXES="compute dbase ...": instead, the stock mixes by classic's command line on both sides
#   (-s1 -eMIX_TASKS -i1 -fCLASSIC_DIR/data/workfile.MIX -r1 -c./reaim.config -jMIX_JOBS, so
#   classic's machine-wide sync points on both; MIX_TASKS default 2, MIX_JOBS default 100),
#   REPEATS interleaved pairs (order alternating), from classic's stdout rows: per mix and task
#   count the medians of Jobs/Min and of the tasks' whole-life CPU (child user + system) of each,
#   and the ratios ours/classic per pair, median (smallest-largest).
set -eu
. "$(dirname "$0")/lib.sh"
[ $# -ge 1 ] || { sed -n '2,31s/^# \{0,1\}//p' "$0"; exit 1; }
classic_dir=$(cd "$1" && pwd)
repeats=${2:-3}
shift
[ $# -ge 1 ] && shift
classic=
for c in "$classic_dir/reaim" "$classic_dir/src/reaim" "$classic_dir/out/reaim"; do
	[ -x "$c" ] && [ ! -d "$c" ] && { classic=$c; break; }
done
[ -n "$classic" ] || { echo "no classic reaim binary under $classic_dir" >&2; exit 1; }
[ -d "$classic_dir/data" ] || { echo "no data/ under $classic_dir (classic needs data/fakeh.tgz)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "sqlite3 is needed" >&2; exit 1; }
filesize=${FILESIZE:-10k}
poolsize=${POOLSIZE:-1m}
per_run=${SECONDS_PER_RUN:-1}

t=$(mktemp -d "${DIR:-/var/tmp}/reaim-ratio.XXXXXX")
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
trap 'echo "load average after:  $(cut -d" " -f1-3 /proc/loadavg)"; rm -rf "$t"' EXIT
trap 'exit 130' INT TERM
mkdir "$t/disk" "$t/classic"
ln -s "$classic_dir/data" "$t/classic/data"
printf 'FILESIZE %s\nPOOLSIZE %s\nDISKDIR %s\n' "$filesize" "$poolsize" "$t/disk" >"$t/classic/reaim.config"
db="$t/ours.db"

if [ $# -eq 0 ]; then
	set -- $("$reaim" tests | awk 'NR > 1 { print $1 }')
fi

# ours: "wall cpu" seconds of one job (the point's real and CPU time / jobs), or nothing if the
# point failed
ours() { # test jobs
	# shellcheck disable=SC2086 # OURS_ARGS is a list of options
	"$reaim" -q -f "$t/wf.$1" -t 1 -j "$2" --filesize "$filesize" --poolsize "$poolsize" \
		-d "$t/disk" --db "$db" --label "$1" ${OURS_ARGS:-} >/dev/null 2>"$t/ours.err" || return 0
	sqlite3 -separator ' ' "$db" "SELECT p.real_s / p.jobs_per_task, p.cpu_s / p.jobs_per_task FROM points p
		JOIN runs r ON r.id = p.run_id WHERE r.label = '$1' AND p.valid ORDER BY p.id DESC LIMIT 1"
}

# classic: "wall cpu" seconds of one job from its parent time and its child user and system
# times (10 ms ticks), or nothing if it failed
classic() { # test jobs
	# shellcheck disable=SC2086 # CLASSIC_ARGS is a list of options
	(cd "$t/classic" && "$classic" -s1 -e1 -i1 -f"$t/wf.$1" -r1 -c./reaim.config -l"$t/classic/out" \
		-j"$2" ${CLASSIC_ARGS:-} 2>"$t/classic.err") |
		awk -v j="$2" '/^[0-9][0-9. ]*$/ && NF == 9 { printf "%.9g %.9g\n", $2 / j, ($3 + $4) / j }'
}

# the median of column $1 of a file of "wall cpu" pairs, in ms
col_ms() { awk -v c="$1" '{ print $c * 1000 }' "$2" | median; }

# ir_ours TEST JOBS, ir_classic TEST JOBS: the instructions of one run, all its processes
ir_ours() {
	rm -f "$t/ir.db"
	# shellcheck disable=SC2086 # OURS_ARGS is a list of options
	callgrind_ir "$t/cg" "$reaim" -q -f "$t/wf.$1" -t 1 -j "$2" --filesize "$filesize" \
		--poolsize "$poolsize" -d "$t/disk" --db "$t/ir.db" $(no_quiet_check_flag "$reaim") \
		--sample-interval 0 --timeout 86400 ${OURS_ARGS:-}
}
ir_classic() {
	# shellcheck disable=SC2086 # CLASSIC_ARGS is a list of options
	(cd "$t/classic" && callgrind_ir "$t/cg" "$classic" -s1 -e1 -i1 -f"$t/wf.$1" -r1 \
		-c./reaim.config -l"$t/classic/out" -j"$2" ${CLASSIC_ARGS:-})
}

# ir_per_job ours|classic TEST: instructions per job, or nothing if a run failed (callgrind_ir
# said why on stderr, kept in $t/ir.err)
ir_per_job() {
	_i1=$("ir_$1" "$2" "$j1" 2>"$t/ir.err") && _i2=$("ir_$1" "$2" "$j2" 2>"$t/ir.err") || return 0
	awk -v a="$_i1" -v b="$_i2" -v n=$((j2 - j1)) 'BEGIN { printf "%.0f\n", (b - a) / n }'
}

# mix_rows ours|classic MIX: "tasks jobs_per_min cpu_s" for each row classic's stdout has (the
# same classic command line for both; ours stores its run in its own database), or nothing
mix_rows() {
	_mr_bin=$classic _mr_db=
	[ "$1" = ours ] && _mr_bin=$reaim _mr_db="--db $db"
	# shellcheck disable=SC2086 # _mr_db is empty or an option and its value
	(cd "$t/classic" && "$_mr_bin" -s1 -e"$mix_tasks" -i1 -f"$classic_dir/data/workfile.$2" -r1 \
		-c./reaim.config -l"$t/classic/out" -j"$mix_jobs" $_mr_db 2>"$t/$1.err") |
		awk '/^[0-9][0-9. ]*$/ && NF == 9 { printf "%d %.9g %.9g\n", $1, $5, $3 + $4 }'
}

# col_of COLUMN TASKS FILE: column COLUMN of FILE's lines whose first field is TASKS
col_of() { awk -v c="$1" -v n="$2" '$1 == n { print $c }' "$3"; }

if [ -n "${MIXES:-}" ]; then
	mix_tasks=${MIX_TASKS:-2}
	mix_jobs=${MIX_JOBS:-100}
	printf '%-12s %5s %10s %10s %25s %9s %9s %25s\n' mix tasks ours_jpm classic_jpm \
		'jpm ours/classic (range)' ours_cpu classic_cpu 'cpu ours/classic (range)'
	for mix in $MIXES; do
		[ -f "$classic_dir/data/workfile.$mix" ] || { printf '%-12s no data/workfile.%s\n' "$mix" "$mix"; continue; }
		: >"$t/mo" && : >"$t/mc" && : >"$t/m"
		for r in $(seq "$repeats"); do
			if [ $((r % 2)) -eq 1 ]; then
				mix_rows ours "$mix" >"$t/o"; mix_rows classic "$mix" >"$t/c"
			else
				mix_rows classic "$mix" >"$t/c"; mix_rows ours "$mix" >"$t/o"
			fi
			cat "$t/o" >>"$t/mo" && cat "$t/c" >>"$t/mc"
			# the pair's ratios, task count by task count
			awk 'NR == FNR { j[$1] = $2; u[$1] = $3; next }
				($1 in j) && $2 > 0 && $3 > 0 { printf "%d %.6g %.6g\n", $1, j[$1] / $2, u[$1] / $3 }' \
				"$t/o" "$t/c" >>"$t/m"
		done
		if [ ! -s "$t/m" ]; then
			printf '%-12s failed: %s\n' "$mix" "$(cat "$t/ours.err" "$t/classic.err" | grep -v '^$' | tail -1)"
			continue
		fi
		for n in $(awk '{ print $1 }' "$t/m" | sort -un); do
			printf '%-12s %5d %10.1f %10.1f %25s %9.3f %9.3f %25s\n' "$mix" "$n" \
				"$(col_of 2 "$n" "$t/mo" | median)" "$(col_of 2 "$n" "$t/mc" | median)" \
				"$(col_of 2 "$n" "$t/m" | median_range '%.3f (%.3f-%.3f)')" \
				"$(col_of 3 "$n" "$t/mo" | median)" "$(col_of 3 "$n" "$t/mc" | median)" \
				"$(col_of 3 "$n" "$t/m" | median_range '%.3f (%.3f-%.3f)')"
		done
	done
	exit 0
fi

if [ "${CALLGRIND:-0}" = 1 ]; then
	command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 1; }
	j1=${JOBS:-5 45} j2=${j1#* } j1=${j1%% *}
	printf '%-18s %14s %14s %7s\n' test ours_Ir_job classic_Ir_job ratio
	# why a count failed: callgrind_ir's line (a shell may say "Aborted" of the job around it), else the last
	ir_reason() {
		_why=$(grep '^callgrind_ir:' "$t/ir.err" | tail -1)
		[ -n "$_why" ] || _why=$(tail -1 "$t/ir.err")
		echo "$_why"
	}
	for test in "$@"; do
		echo "10 $test" >"$t/wf.$test"
		o=$(ir_per_job ours "$test")
		[ -n "$o" ] && ow= || ow=$(ir_reason)
		c=$(ir_per_job classic "$test")
		[ -n "$c" ] && cw= || cw=$(ir_reason)
		awk -v t="$test" -v o="${o:-failed}" -v c="${c:-failed}" 'BEGIN {
			r = (o + 0 > 0 && c + 0 > 0) ? sprintf("%.3f", o / c) : "-"
			printf "%-18s %14s %14s %7s\n", t, o, c, r }'
		[ -z "$ow" ] || printf '%-18s ours failed: %s\n' "$test" "${ow#callgrind_ir: }"
		[ -z "$cw" ] || printf '%-18s classic failed: %s\n' "$test" "${cw#callgrind_ir: }"
	done
	exit 0
fi

printf '%-18s %8s %10s %10s %7s %7s %7s %9s %9s %7s %7s %7s\n' test jobs ours_ms classic_ms ratio min max \
	ours_cpu classic_cpu cpu_rat min max
for test in "$@"; do
	echo "10 $test" >"$t/wf.$test"
	# as many jobs as make one run of ours last about SECONDS_PER_RUN
	one=$(ours "$test" 1 | awk '{ print $1 }')
	[ -n "$one" ] || { printf '%-18s ours failed: %s\n' "$test" "$(tail -1 "$t/ours.err")"; continue; }
	jobs=$(awk -v s="$one" -v p="$per_run" 'BEGIN { j = int(p / (s > 1e-6 ? s : 1e-6)); print (j < 1 ? 1 : (j > 100000 ? 100000 : j)) }')
	: >"$t/o" && : >"$t/c" && : >"$t/r" && : >"$t/rc"
	for r in $(seq "$repeats"); do
		if [ $((r % 2)) -eq 1 ]; then
			o=$(ours "$test" "$jobs"); c=$(classic "$test" "$jobs")
		else
			c=$(classic "$test" "$jobs"); o=$(ours "$test" "$jobs")
		fi
		[ -n "$o" ] && echo "$o" >>"$t/o"
		[ -n "$c" ] && echo "$c" >>"$t/c"
		[ -n "$o" ] && [ -n "$c" ] && echo "$o $c" |
			awk -v r="$t/r" -v rc="$t/rc" '{ if ($3 > 0) printf "%.6g\n", $1 / $3 >>r; if ($4 > 0) printf "%.6g\n", $2 / $4 >>rc }'
	done
	if [ ! -s "$t/c" ]; then
		printf '%-18s %8s %10.3f classic failed: %s\n' "$test" "$jobs" "$(col_ms 1 "$t/o")" \
			"$(grep -v '^$' "$t/classic.err" | tail -1)"
		continue
	fi
	printf '%-18s %8s %10.3f %10.3f %s %9.3f %9.3f %s\n' "$test" "$jobs" \
		"$(col_ms 1 "$t/o")" "$(col_ms 1 "$t/c")" "$(median_range '%7.3f %7.3f %7.3f' <"$t/r")" \
		"$(col_ms 2 "$t/o")" "$(col_ms 2 "$t/c")" "$(median_range '%7.3f %7.3f %7.3f' <"$t/rc")"
done
