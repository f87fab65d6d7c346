#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A real CPU cap: the compute mix run free, then in a cgroup of its own capped at 10 % of a CPU (v1
# cpu.cfs_quota_us, or cgroup v2's cpu.max), made under the cgroup this test runs in and removed
# on exit. The capped run's points store the cap's throttling (cgroup nr_throttled, throttled_usec),
# the free run's none of it, and `compare --counters` says each side's throttling and names it.
# Needs root and a cpu controller; skipped with the reason otherwise.
. "$(dirname "$0")/lib.sh"

q() { sqlite3 "$REAIM_DB" "$1"; }
skip() {
	echo "ok 1 # SKIP $1"
	echo "1..1"
	exit 0
}
[ "$(id -u)" = 0 ] || skip "needs root to make a capped cgroup"
have "the stored throttling" sqlite3 || { finish; exit $?; }

# the cpu controller: a v1 hierarchy that has it, else cgroup2 when it lists cpu
cg= procs= kind=
v1=$(awk '$9 == "cgroup" && ("," $NF ",") ~ /,cpu,/ { print $5; exit }' /proc/self/mountinfo)
v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ -n "$v1" ] && [ -w "$v1/cpu.cfs_quota_us" ]; then
	self=$(awk -F: '("," $2 ",") ~ /,cpu,/ { print $3; exit }' /proc/self/cgroup)
	cg="$v1${self%/}/reaim-cap-$$"
	kind=v1
elif [ -n "$v2" ] && grep -qw cpu "$v2/cgroup.controllers" 2>/dev/null; then
	self=$(awk -F: '$1 == "0" { print $3; exit }' /proc/self/cgroup)
	parent="$v2${self%/}"
	# cgroup v2 lets a cgroup with processes pass no controller down: only a parent without them will do
	if [ -s "$parent/cgroup.procs" ] || ! grep -qw cpu "$parent/cgroup.subtree_control" 2>/dev/null; then
		skip "cgroup v2: the cpu controller is not passed down to a child of $parent"
	fi
	cg="$parent/reaim-cap-$$"
	kind=v2
else
	skip "no cpu controller (neither a v1 cpu hierarchy nor cgroup2 with cpu)"
fi
cleanup() {
	if [ -d "$cg" ]; then
		# whatever is still in it goes back to the parent, then the cgroup goes
		while read -r pid; do echo "$pid" >"${cg%/*}/cgroup.procs" 2>/dev/null; done <"$cg/cgroup.procs"
		rmdir "$cg" 2>/dev/null
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
mkdir "$cg" || skip "cannot make $cg"
if [ "$kind" = v1 ]; then
	echo 100000 >"$cg/cpu.cfs_period_us" && echo 10000 >"$cg/cpu.cfs_quota_us"
else
	echo "10000 100000" >"$cg/cpu.max"
fi || skip "cannot set the cap on $cg"
ok 0 "a cgroup capped at 10 % of a CPU ($kind, $cg)"

cmix() { "$REAIM" --no-quiet-check -f compute -d "$T/scratch" -t 2 -j 6 -r 3 "$@"; }
status 0 "the compute mix, free" cmix --label free
# (the note is broken at 100 columns: read it joined)
tr '\n' ' ' <"$T/err" | tr -s ' ' | grep -q 'CPU throttling from cpu.stat' && ok 0 "the run says it reads the throttling" ||
	ok 1 "the run says it reads the throttling"
# the capped run: a shell moved into the cgroup first, so reaim and every task it forks start there
status 0 "the compute mix, capped at 10 %" sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
	"$REAIM" --no-quiet-check -f compute -d "$T/scratch" -t 2 -j 6 -r 3 --label capped
thr() { q "SELECT COUNT(*) FROM point_counters c JOIN points p ON p.id = c.point_id JOIN runs r ON r.id = p.run_id
	WHERE r.label = '$1' AND c.source = 'cgroup' AND c.name = '$2' AND c.value $3"; }
ok "$([ "$(thr free nr_throttled '= 0')" -eq 3 ] && echo 0 || echo 1)" "the free run's 3 points: stored, no throttling"
ok "$([ "$(thr capped nr_throttled '> 0')" -eq 3 ] && [ "$(thr capped throttled_usec '> 0')" -eq 3 ] && echo 0 ||
	echo 1)" "the capped run's 3 points: throttled, periods and time"

status 0 "compare --counters" "$REAIM" compare free capped --counters
sed 's/^/# /' "$T/out" | sed -n '/^# Workload/,$p' | head -24
ok "$(grep -A3 '^  A: ' "$T/out" | tr '\n' ' ' | grep -Eq 'throttled 0 s +in +0 ' && echo 0 || echo 1)" "the free side: throttled 0 s"
ok "$(grep -A3 '^  B: ' "$T/out" | tr '\n' ' ' | grep -Eq 'throttled [0-9.e+]+ s +in +[1-9][0-9]* ' && echo 0 || echo 1)" \
	"the capped side: its throttling a point"
# the counter moves against Jobs/Min where the cap slowed the run; on a machine so busy that the free run
# got no more CPU than the cap allows, the sides do not differ and there is nothing to move against
change=$(sed -n 's/.*: B against A, Jobs\/Min \([-+][0-9.]*\)%.*/\1/p' "$T/out" | head -1)
if [ -n "$change" ] && awk -v c="$change" 'BEGIN { exit !(c <= -20) }'; then
	ok "$(grep -q '^> cgroup throttled_usec, us per job' "$T/out" || grep -q '^> cgroup nr_throttled' "$T/out"; echo $?)" \
		"the throttling listed as a counter that moved against Jobs/Min"
else
	n=$((n + 1))
	echo "ok $n - the throttling listed as a counter that moved against Jobs/Min # SKIP the cap did not slow the run at this load (Jobs/Min ${change:-?}%)"
fi
status 0 "compare --counters --format json" "$REAIM" compare free capped --counters --format json
contains "$T/out" '"nr_throttled": 0' "the JSON has each side's throttling"
finish
