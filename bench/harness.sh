#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Harness benchmarks: scaling efficiency of a CPU-only mix, run-to-run repeatability of the
# compute mix, the sampler's own CPU cost, and the cost of timing one job.
# usage: bench/harness.sh [RUNS]   (RUNS >= 5; medians and CVs over them; needs sqlite3)
set -eu
. "$(dirname "$0")/lib.sh"
runs=${1:-5}
bench_dir bench
cpus=$(nproc)
db="$t/h.db"

# 1. Scaling: all_utime is pure user-space arithmetic; N = 1 and N = CPUs, interleaved per run.
for r in $(seq "$runs"); do
	"$reaim" -q -f "$top/workfiles/all_utime" -t "1,$cpus" -j 40 -d "$t" --db "$db" --label "scale-$r" >/dev/null
done
one=$(sqlite3 "$db" "SELECT jobs_per_min FROM run_points WHERE label LIKE 'scale-%' AND tasks = 1" | median)
all=$(sqlite3 "$db" "SELECT jobs_per_min FROM run_points WHERE label LIKE 'scale-%' AND tasks = $cpus" | median)
echo "scaling efficiency (all_utime, median of $runs): JPM(N=$cpus) / ($cpus x JPM(N=1)) = $all / ($cpus x $one) = $(awk -v a="$all" -v o="$one" -v c="$cpus" 'BEGIN { printf "%.3f", a / (c * o) }')"

# 2. Repeatability: the compute mix at N = 2, RUNS separate runs.
for r in $(seq "$runs"); do
	"$reaim" -q -f "$top/workfiles/compute" -t 2 -j 1000 -d "$t" --db "$db" --label "repeat-$r" >/dev/null
done
sqlite3 "$db" "SELECT jobs_per_min FROM run_points WHERE label LIKE 'repeat-%'" >"$t/rep"
echo "repeatability (compute, N=2, $runs runs): median $(median <"$t/rep") Jobs/Min, CV $(cv <"$t/rep")%"

# 3. The sampler's own CPU time at the default interval (stored with every point).
echo "sampler CPU at 100 ms (median over all points): $(sqlite3 "$db" "SELECT sampler_cpu_pct FROM points WHERE sampler_cpu_pct IS NOT NULL" | median)% of one CPU"

# 4. Cost of timing a job: a point of trivial jobs with and without... the timing is always on,
# so compare a 1 us job's measured mean with the wall time per job of the whole point.
printf '1 matrix_rtns\n' >"$t/trivial"
"$reaim" -q -f "$t/trivial" -t 1 -j 200000 -d "$t" --db "$db" --label cost >/dev/null
sqlite3 "$db" "SELECT printf('per-job harness cost: %.0f ns (wall per job %.0f ns - mean timed job %.0f ns)',
	p.real_s / p.jobs_per_task * 1e9 - s.mean_s * 1e9, p.real_s / p.jobs_per_task * 1e9, s.mean_s * 1e9)
	FROM points p JOIN runs r ON r.id = p.run_id JOIN test_stats s ON s.point_id = p.id WHERE r.label = 'cost'"
