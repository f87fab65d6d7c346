# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers the bench scripts share (sourced, POSIX sh): medians, CVs, the noise tables' rows, and
# waiting for a quiet moment of a shared machine.
# shellcheck shell=sh

# Sourcing sets, for the calling script: top (the source tree), reaim (REAIM, else the tree's
# binary) and nice (NICE: a prefix for every run, e.g. "nice -n -10" on a shared machine).
top=$(cd "$(dirname "$0")/.." && pwd)
reaim=${REAIM:-$top/reaim}
nice=${NICE:-}

# bench_dir NAME [PARENT]: a private dir for the script's files in PARENT (TMPDIR, else /var/tmp),
# as $t, removed when the script exits.
bench_dir() {
	t=$(mktemp -d "${2:-${TMPDIR:-/var/tmp}}/reaim-$1.XXXXXX")
	trap 'rm -rf "$t"' EXIT
}

# noise_args [RUNS] [JOBS] [TASKS] [DIR]: the noise scripts' arguments, as runs (default 7),
# jobs (nominal jobs per task, default 100), tasks (default 2) and dir (default /var/tmp).
noise_args() {
	runs=${1:-7}
	jobs=${2:-100}
	tasks=${3:-2}
	dir=${4:-/var/tmp}
}

# median: the median of the numbers on stdin, one a line (any form sort -g reads, e.g. 1e-3),
# printed as awk prints a number; "nan" without input.
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (NR == 0) print "nan"; else print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# median_range [FORMAT]: the median of the numbers on stdin with the smallest and the largest,
# printed with FORMAT, an awk printf format of three numbers (default "%.2f (%.2f-%.2f)",
# "M (lo-hi)"); "nan" without input.
median_range() {
	sort -g | awk -v f="${1:-%.2f (%.2f-%.2f)}" '{ v[NR] = $1 }
		END {
			if (NR == 0) { print "nan"; exit }
			printf f "\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR]
		}'
}

# cv: the coefficient of variation of the numbers on stdin (sample standard deviation over the
# mean) in %, with two decimals; "nan" with fewer than two numbers or a zero mean.
cv() {
	awk '{ s += $1; q += $1 * $1; n++ }
		END {
			if (n < 2 || s == 0) { print "nan"; exit }
			m = s / n; var = (q - n * m * m) / (n - 1)
			printf "%.2f\n", 100 * sqrt(var > 0 ? var : 0) / m
		}'
}

# no_quiet_check_flag BINARY: --no-quiet-check if BINARY has it, else nothing. The quiet check a
# run makes first (a second of watching the machine) is outside what the scripts time; a binary
# from before it has no such flag.
no_quiet_check_flag() {
	if "$1" run --help 2>&1 | grep -q -- --no-quiet-check; then echo --no-quiet-check; fi
}

# wait_quiet: with QUIET=N set, wait (up to 5 minutes) until at most N tasks are runnable on
# the machine for a second (the 4th field of /proc/loadavg), so runs start in a quiet moment
# of a shared machine; without QUIET, return at once.
wait_quiet() {
	[ -n "${QUIET:-}" ] || return 0
	_wq_calm=0 _wq_waited=0
	while [ "$_wq_calm" -lt 5 ] && [ "$_wq_waited" -lt 1500 ]; do
		_wq_r=$(awk '{ split($4, a, "/"); print a[1] - 1 }' /proc/loadavg)
		if [ "$_wq_r" -le "$QUIET" ]; then _wq_calm=$((_wq_calm + 1)); else _wq_calm=0; fi
		sleep 0.2
		_wq_waited=$((_wq_waited + 1))
	done
}

# run_interleaved RUNS "SETTINGS" COMMAND: RUNS rounds of COMMAND SETTING for every setting in
# turn (a, b, c, a, b, c, ...: drift in the machine falls on all alike), each after
# wait_quiet, between the load averages before and after.
run_interleaved() {
	echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
	for _ri_r in $(seq "$1"); do
		for _ri_x in $2; do
			wait_quiet
			"$3" "$_ri_x"
		done
	done
	echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
}

# noise_row NAME WIDTH CPU_COLUMN [MEDIAN_S]: one row of the noise tables from the points on
# stdin, one a line, Jobs/Min first and the tasks' CPU seconds per job in column CPU_COLUMN:
# NAME (WIDTH wide), points, median Jobs/Min, its CV and rCV (1.4826 x the median absolute
# deviation over the median, which a burst of load on a shared machine moves less), smallest,
# largest, MEDIAN_S if given, the median CPU ms per job and its CV.
noise_row() {
	sort -g | awk -v s="$1" -v w="$2" -v cc="$3" -v ms="${4-}" '
		{ v[NR] = $1; sum += $1; sq += $1 * $1; c += $cc; cq += $cc * $cc }
		END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			for (i = 1; i <= NR; i++) d[i] = v[i] > m ? v[i] - m : m - v[i]
			for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) if (d[j] < d[i]) { x = d[i]; d[i] = d[j]; d[j] = x }
			mad = NR % 2 ? d[(NR + 1) / 2] : (d[NR / 2] + d[NR / 2 + 1]) / 2
			mean = sum / NR; sd = NR > 1 ? sqrt((sq - NR * mean * mean) / (NR - 1)) : 0
			cm = c / NR; csd = NR > 1 ? sqrt((cq - NR * cm * cm) / (NR - 1)) : 0
			printf "%-" w "s %4d %12.1f %7.2f %7.2f %12.1f %12.1f", s, NR, m, 100 * sd / mean,
				100 * 1.4826 * mad / m, v[1], v[NR]
			if (ms != "") printf " %10.2f", ms
			printf " %10.2f %7.2f\n", cm * 1000, 100 * csd / cm
		}'
}

# compare_cells FILE: "SIGNIFICANT PCT" for each cell of a `reaim compare --format csv` file,
# SIGNIFICANT being yes, no or - (not judged). Fields are split as CSV: a group's labels
# ("a1,a2") are one quoted field.
compare_cells() {
	awk '
	function fields(line, out,   n, i, c, f, q) {
		n = 0; f = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { f = f c; i++ }
			else if (c == "\"") q = !q
			else if (!q && c == ",") { out[++n] = f; f = "" }
			else f = f c
		}
		out[++n] = f
		return n
	}
	NR == 1 { n = fields($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
	{ fields($0, v); s = v[col["significant"]]; print (s == "" ? "-" : s), v[col["pct"]] }' "$1"
}

# callgrind_ir DIR COMMAND...: the instructions (callgrind's Ir) that the processes COMMAND forks or
# execs (at any depth) executed in user space, summed; COMMAND's own are left out. DIR holds the
# output files (emptied first). For reaim (or classic) COMMAND is the parent and its children the
# tasks that do the jobs: the parent's own count (its start, sampler and waits) moves from run to
# run by thousands of instructions a job, the tasks' does not, so the difference between two job
# counts of the children gives a job's cost repeatably; the kernel's work is not in them.
# A child forked under callgrind starts with a copy of its parent's counters, so adding up each
# process's total would count the parent's work again for every fork: the counters are dumped
# and zeroed before each fork (--dump-before on fork, vfork, _Fork, __libc_fork), and the sum is
# of each part's own cost (its summary line), so each process counts only its own work. COMMAND's
# parts are the files named after its pid (cg.PID, cg.PID.N): valgrind runs it as the process the
# shell started, so that pid is $!.
# When COMMAND fails, its exit status and the last line it wrote on stderr (kept in DIR/stderr)
# go to stderr, and callgrind_ir fails: a run ten to fifty times slower under valgrind can
# trip a limit (reaim's per-point --timeout) that the same run never reaches outside it.
callgrind_ir() {
	_ci_dir=$1
	shift
	rm -rf "$_ci_dir" && mkdir -p "$_ci_dir"
	_ci_rc=0
	valgrind --tool=callgrind --trace-children=yes --dump-before='*fork' --callgrind-out-file="$_ci_dir/cg.%p" \
		--log-file="$_ci_dir/log.%p" "$@" >/dev/null 2>"$_ci_dir/stderr" &
	_ci_top=$!
	wait "$_ci_top" || _ci_rc=$?
	if [ "$_ci_rc" -ne 0 ]; then
		echo "callgrind_ir: $1 exited $_ci_rc: $(grep -v '^[[:space:]]*$' "$_ci_dir/stderr" | tail -1)" >&2
		return 1
	fi
	# every part but COMMAND's own (cg.PID, cg.PID.N); 0 when it started nothing
	awk -v top="cg.$_ci_top" 'FNR == 1 { s += part; part = 0; have = 0; name = FILENAME; sub(/.*\//, "", name)
			own = name == top || index(name, top ".") == 1 }
		own { next } /^summary:/ { part = $2; have = 1 } /^totals:/ && !have { part = $2 }
		END { s += part; printf "%.0f\n", s }' "$_ci_dir"/cg.*
}
