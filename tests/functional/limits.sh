#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Limits checked before the first point, each naming the limit, the value and the fix:
# open files, file size, address space, System V objects already in use, the cgroup's pids
# and memory limits, and the processes the user already has. Then System V objects never
# outlive a run stopped with Ctrl-C or SIGKILL. The SysV cases run in a private IPC
# namespace, the cgroup cases in a cgroup of their own, so nothing else on the machine is
# touched or counted.
. "$(dirname "$0")/lib.sh"

printf '10 matrix_rtns\n10 creat_clo\n' >"$T/mix"
printf 'FILESIZE: 100K\n10 disk_rd\n' >"$T/disk"
printf '10 shared_memory\n' >"$T/shm"
is_root=$([ "$(id -u)" = 0 ] && echo 1 || echo 0)

# refused WHAT TEXT CMD...: exit 1 before anything is stored, TEXT on stderr
refused() {
	what=$1 text=$2
	shift 2
	rm -f "$REAIM_DB" "$REAIM_DB-wal" "$REAIM_DB-shm"
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if grep -q AddressSanitizer "$T/err"; then
		ok 0 "$what # SKIP the sanitizer runtime cannot start under this limit"
		return
	fi
	ok "$([ $rc -eq 1 ] && echo 0 || echo 1)" "$what: exit 1 (got $rc)"
	contains "$T/err" "$text" "$what: names the limit and the fix"
	ok "$([ ! -e "$REAIM_DB" ] && echo 0 || echo 1)" "$what: nothing stored"
}

if command -v prlimit >/dev/null 2>&1; then
	refused "RLIMIT_NOFILE too low" "but RLIMIT_NOFILE is 24 (raise it with \`ulimit -n" \
		prlimit --nofile=24:24 "$REAIM" -f "$T/mix" -t 2 -d "$T/scratch"
	refused "RLIMIT_FSIZE below the disk tests' files" "the disk tests write files of 100 KiB, but RLIMIT_FSIZE is 40 KiB" \
		prlimit --fsize=40960 "$REAIM" -f "$T/disk" -t 2 -d "$T/scratch"
	refused "RLIMIT_AS too low for a task" "but RLIMIT_AS is 60 MiB (raise it with \`ulimit -v" \
		prlimit --as=62914560 "$REAIM" -f "$T/mix" -t 2 -d "$T/scratch"
else
	ok 0 "resource limits # SKIP no prlimit"
fi

# System V objects already in use count against the limits (a private IPC namespace with
# its own, small limits)
if [ "$is_root" = 1 ] && command -v unshare >/dev/null 2>&1 && command -v ipcmk >/dev/null 2>&1 &&
	unshare --ipc true 2>/dev/null; then
	cat >"$T/ipc_full.sh" <<EOS
echo "250 32000 32 12" >/proc/sys/kernel/sem
for i in 1 2 3 4 5 6 7 8 9 10; do ipcmk -S 1 >/dev/null; done
exec "$REAIM" -f "$T/shm" -t 4 -j 1 -d "$T/scratch"
EOS
	refused "SysV semaphore sets already in use" "kernel.sem is '250 32000 32 12' with 10 sets (10 semaphores) in use" \
		unshare --ipc sh "$T/ipc_full.sh"
	cat >"$T/shm_full.sh" <<EOS
echo 6 >/proc/sys/kernel/shmmni
for i in 1 2 3 4; do ipcmk -M 4096 >/dev/null; done
exec "$REAIM" -f "$T/shm" -t 4 -j 1 -d "$T/scratch"
EOS
	refused "SysV segments already in use" "kernel.shmmni is 6 and 4 are in use" unshare --ipc sh "$T/shm_full.sh"

	# Ctrl-C at moments spread over the points: nothing of the run's stays in the namespace
	cat >"$T/ipc_stop.sh" <<EOS
"$REAIM" -f "$T/shm" -t 8 -j 100000 -d "$T/scratch" --label "ipc-\$1" >/dev/null 2>&1 &
pid=\$!
sleep "\$1"
kill -\$2 \$pid
wait \$pid
echo "rc=\$?"
[ "\$2" = KILL ] && sleep 0.3 && "$REAIM" -f "$T/mix" -t 1 -j 1 -d "$T/scratch" >/dev/null 2>"$T/sweep.err"
echo "objects=\$(cat /proc/sysvipc/sem /proc/sysvipc/shm | grep -vc '^ *key')"
EOS
	for d in 0.3 0.6 0.9 1.3 1.7; do
		unshare --ipc sh "$T/ipc_stop.sh" "$d" INT >"$T/out" 2>&1
		contains "$T/out" "rc=3" "Ctrl-C after ${d}s inside shared_memory: exit 3"
		contains "$T/out" "objects=0" "Ctrl-C after ${d}s: no semaphore set or segment left"
		ok "$(scratch_is_empty; echo $?)" "Ctrl-C after ${d}s: no scratch left"
	done
	# SIGKILL leaves them to the next run, whose sweep removes them with the scratch
	unshare --ipc sh "$T/ipc_stop.sh" 1 KILL >"$T/out" 2>&1
	contains "$T/out" "objects=0" "SIGKILL: the next run removes what the killed run's tasks held"
	ok "$(scratch_is_empty; echo $?)" "SIGKILL: and its scratch"
else
	ok 0 "System V limits and clean-up # SKIP needs root, unshare --ipc and ipcmk"
fi

# the cgroup's pids and memory limits, in a cgroup made for this test (root)
cgroup_mount() { # CONTROLLER: where a hierarchy holding it is mounted (v1, or v2 with it)
	awk -v c="$1" '{ for (i = 1; $i != "-"; i++); fs = $(i + 1); n = split($(i + 3), o, ",");
		if (fs == "cgroup") for (k = 1; k <= n; k++) if (o[k] == c) { print $5; exit }
		if (fs == "cgroup2") v2 = $5 }
		END { if (v2 != "" && (getline l < (v2 "/cgroup.controllers")) > 0 && l ~ ("(^| )" c "( |$)")) print v2 }' \
		/proc/self/mountinfo | head -n 1
}
# in_cgroup DIR CMD...: run CMD inside the cgroup DIR
in_cgroup() {
	d=$1
	shift
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$d" "$@"
}
cg_test() { # CONTROLLER LIMIT_FILE VALUE WHAT TEXT ARGS...
	ctl=$1 file=$2 value=$3 what=$4 text=$5
	shift 5
	mnt=$(cgroup_mount "$ctl")
	cg="$mnt/reaim-test-$$"
	if [ "$is_root" = 1 ] && [ -n "$mnt" ] && mkdir "$cg" 2>/dev/null; then
		if [ -e "$cg/$file" ] && echo "$value" >"$cg/$file" 2>/dev/null; then
			refused "$what" "$text" in_cgroup "$cg" "$REAIM" "$@"
		else
			ok 0 "$what # SKIP cannot set $file"
		fi
		rmdir "$cg"
	else
		ok 0 "$what # SKIP needs root and a $ctl cgroup"
	fi
}
cg_test pids pids.max 30 "the cgroup's pids.max" "allows" -f "$T/mix" -t 40 -j 1 -d "$T/scratch"
contains "$T/err" "pids.max is 30" "pids.max: names the file and the limit"
if [ -n "$(cgroup_mount memory)" ] && [ -e "$(cgroup_mount memory)/cgroup.controllers" ]; then memfile=memory.max; else memfile=memory.limit_in_bytes; fi
cg_test memory "$memfile" 67108864 "the cgroup's memory limit" "MiB left ($(cgroup_mount memory)/reaim-test-$$/$memfile is 64 MiB" \
	-f "$T/disk" -t 200 -j 1 --filesize 1M -d "$T/scratch"

# processes the user already has count against RLIMIT_NPROC (as an unprivileged user)
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ "$is_root" = 1 ] && command -v setpriv >/dev/null 2>&1 && command -v prlimit >/dev/null 2>&1 &&
	$nobody test -x "$REAIM"; then
	chmod 755 "$T"
	mkdir -p "$T/nobody" && chmod 777 "$T/nobody"
	sleepers=""
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		$nobody sleep 60 &
		sleepers="$sleepers $!"
	done
	# each counts once it is sleep, run as nobody (setpriv changes the user, then execs)
	for s in $sleepers; do
		i=0
		while [ $i -lt 200 ] && [ "$(cat /proc/"$s"/comm 2>/dev/null)" != sleep ]; do sleep 0.05; i=$((i + 1)); done
	done
	refused "processes the user already has" "your user already has" \
		$nobody prlimit --nproc=40 "$REAIM" -f "$T/mix" -t 10 -j 1 -d "$T/nobody" --db "$T/nobody/r.db"
	# shellcheck disable=SC2086
	kill $sleepers 2>/dev/null
	wait 2>/dev/null
else
	ok 0 "processes the user already has # SKIP needs root, setpriv and prlimit"
fi
# a 64 KiB stack: the run (its cgroups, sampler, disk, pipe and shell tests) needs no big buffer on it
printf 'FILESIZE: 64K\n10 add_int\n10 disk_rd\n10 pipe_cpy\n10 shell_rtns_1\n' >"$T/stack_mix"
rm -f "$T/stack.db"
# three runs, since where the stack starts (and so whether a big frame crosses the limit) is random
rc=0
for try in 1 2 3; do
	[ $rc -eq 0 ] || break
	sh -c 'ulimit -s 64 && exec "$@"' sh "$REAIM" -q -f "$T/stack_mix" -t 1,2 -j 2 -d "$T/scratch" \
		--sample-interval 0.05 --db "$T/stack.db" >"$T/out" 2>"$T/err"
	rc=$?
done
if grep -q AddressSanitizer "$T/err"; then
	ok 0 "a run under a 64 KiB stack limit # SKIP the sanitizer runtime needs a bigger stack"
else
	ok "$([ $rc -eq 0 ] && echo 0 || echo 1)" "three runs under a 64 KiB stack limit complete (exit $rc)"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T/err" | head -5
	ok "$([ -z "$(find "$T" -maxdepth 1 -name 'stack.db-run-*.lock')" ] && echo 0 || echo 1)" "and leaves no lock file"
	"$REAIM" list --db "$T/stack.db" >"$T/out" 2>&1
	ok "$([ "$(grep -c complete "$T/out")" -eq 3 ] && echo 0 || echo 1)" "their runs are stored complete"
fi
finish
