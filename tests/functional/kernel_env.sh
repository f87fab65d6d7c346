#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's identity and what shapes a point, as environment facts compare tells apart: a run
# started in a cgroup with a CPU cap against one without (where this user may make one), and two
# runs whose stored kernel configs differ, which compare lists option by option.
. "$(dirname "$0")/lib.sh"

cg=""
cleanup() {
	[ -n "$cg" ] && rmdir "$cg" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

printf '10 add_int\n' >"$T/mix"
run() {
	"$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 2 -d "$T/scratch" "$@"
}
# compare's notes wrap at 80 columns: its output as one line
flat() {
	tr -s '\n ' '  ' <"$T/out" >"$T/flat"
}

status 0 "a run with no cap" run --label free
status 0 "show the run" "$REAIM" show last -v
contains "$T/out" "vm.dirty_ratio" "the vm writeback knobs are stored"
contains "$T/out" "sched.preempt" "so is the preemption model"

# a cgroup capped at half a CPU: v1 cpu (cfs quota), else cgroup2 (cpu.max) below our own cgroup;
# sets cg (the cgroup made, for the clean-up) and fact (the fact compare should name)
make_capped() {
	mnt=$(awk '$9 == "cgroup" && $NF ~ /(^|,)cpu(,|$)/ { print $5; exit }' /proc/self/mountinfo)
	if [ -n "$mnt" ] && mkdir "$mnt/reaim-ft-$$" 2>/dev/null; then
		cg="$mnt/reaim-ft-$$" fact="cgroup.v1.cpu.cfs_quota_us"
		echo 50000 2>/dev/null >"$cg/cpu.cfs_quota_us"
		return
	fi
	mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	self=$(sed -n 's/^0:://p' /proc/self/cgroup)
	if [ -n "$mnt" ] && mkdir "$mnt$self/reaim-ft-$$" 2>/dev/null; then
		cg="$mnt$self/reaim-ft-$$" fact="cgroup.cpu.max"
		echo "50000 100000" 2>/dev/null >"$cg/cpu.max"
		return
	fi
	return 1
}
if make_capped; then
	status 0 "a run started in a cgroup capped at half a CPU" \
		sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
		"$REAIM" --no-quiet-check -f "$T/mix" -t 1 -j 2 -d "$T/scratch" --label capped
	status 0 "compare the two" "$REAIM" compare free capped
	flat
	contains "$T/flat" "in $fact: '50000" "compare names the cgroup limit that differs"
	grep -o "warning: [^:]*in $fact: [^)]*'[^']*'" "$T/flat" | sed 's/^/# /'
	status 0 "the report of the two" "$REAIM" report free capped -o "$T/r.html"
	contains "$T/r.html" "<tr class=\"differs\"><td class=\"l\"><code>$fact</code>" "the report names it among the facts that differ"
else
	why="cannot make a cgroup with a CPU cap as $(id -un)"
	[ -n "$cg" ] && why="$cg takes no CPU cap"
	for what in "a run in a capped cgroup" "compare it" "compare names the cgroup limit" "the report" \
		"the report names it"; do
		echo "ok $((n = n + 1)) - $what # SKIP $why"
	done
fi

# two runs whose kernels were built with different options (the stored configs edited, so the test
# does not depend on this machine having /proc/config.gz)
if command -v sqlite3 >/dev/null 2>&1; then
	status 0 "a second run with no cap" run --label other
	cp "$REAIM_DB" "$T/configs.db"
	sqlite3 "$T/configs.db" "
		DELETE FROM kernel_configs;
		INSERT INTO kernel_configs VALUES ((SELECT id FROM runs WHERE label = 'free'),
			'CONFIG_HZ=250' || char(10) || 'CONFIG_KASAN=y' || char(10) || '# CONFIG_PREEMPT is not set' || char(10));
		INSERT INTO kernel_configs VALUES ((SELECT id FROM runs WHERE label = 'other'),
			'CONFIG_HZ=1000' || char(10) || '# CONFIG_KASAN is not set' || char(10) || 'CONFIG_PREEMPT=y' || char(10));
		INSERT OR REPLACE INTO env SELECT id, 'kernel.config', 'fnv1a64:' || label FROM runs;"
	status 0 "compare two runs whose kernel configs differ" env REAIM_DB="$T/configs.db" "$REAIM" compare free other
	flat
	contains "$T/flat" "in 3 kernel config options: CONFIG_HZ '1000' against '250', CONFIG_KASAN 'n' against 'y', CONFIG_PREEMPT 'y' against 'n'" \
		"compare lists the options set otherwise"
	status 0 "the report of the two" env REAIM_DB="$T/configs.db" "$REAIM" report free other -o "$T/k.html"
	contains "$T/k.html" "is built with 3 options set otherwise than that of" "the report lists them too"
	contains "$T/k.html" "<code>CONFIG_HZ" "beginning with the first by name"
	sqlite3 "$T/configs.db" "UPDATE env SET value = 'same' WHERE key = 'kernel.config'"
	status 0 "compare with the configs' hashes alike" env REAIM_DB="$T/configs.db" "$REAIM" compare free other
	flat
	ok "$(grep -q 'kernel config option' "$T/flat" && echo 1 || echo 0)" "then no options are listed"
else
	for what in "a second run" "compare configs" "compare lists the options" "the report" "it lists them" \
		"the first by name" "compare alike" "no options listed"; do
		echo "ok $((n = n + 1)) - $what # SKIP no sqlite3 to edit the stored configs"
	done
fi
finish
