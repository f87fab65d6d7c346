#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a run inherits and what other processes do around it: ignored and blocked signals, a
# umask that masks the owner, a core-size limit and the caller's directory, a second run
# started under another name or in another pid namespace (its scratch must survive a sweep),
# and files in the disk dir reaim did not make. Processes are found by session id.
. "$(dirname "$0")/lib.sh"

printf '10 matrix_rtns\n10 creat_clo\n' >"$T/mix"
printf '10 matrix_rtns\n' >"$T/cpu"
is_root=$([ "$(id -u)" = 0 ] && echo 1 || echo 0)

# an ignored SIGCHLD (the kernel then reaps the tasks itself) must not make points wait for
# their time limit; the limit here would mark them invalid
if env --ignore-signal=CHLD true 2>/dev/null; then
	start=$(date +%s)
	status 0 "SIGCHLD ignored by the caller" env --ignore-signal=CHLD "$REAIM" -f "$T/mix" -t 1,2 -j 2 --timeout 20 -d "$T/scratch"
	ok "$([ $(($(date +%s) - start)) -lt 15 ] && echo 0 || echo 1)" "SIGCHLD ignored: no point waits for its limit"
	ok "$(grep -q INVALID "$T/out" && echo 1 || echo 0)" "SIGCHLD ignored: every point valid"
	# SIGINT and SIGTERM ignored and blocked (as a shell's background job may have them):
	# Ctrl-C still stops the run at once
	start_session env --ignore-signal=INT,TERM --block-signal=INT,TERM,USR2 "$REAIM" -f "$T/mix" -t 2 -j 100000 \
		-d "$T/scratch" --label blocked >"$T/out" 2>"$T/err"
	pid=$session
	wait_session "$pid" 3
	sleep 0.3
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "SIGINT ignored and blocked by the caller: still interrupts (exit $rc)"
	ok "$(session_gone "$pid"; echo $?)" "and no process of the run is left"
else
	ok 0 "inherited signal dispositions # SKIP env cannot ignore or block signals"
fi

# inherited settings that change what a run measures or how it ends are pointed out
if command -v taskset >/dev/null 2>&1 && [ "$(getconf _NPROCESSORS_ONLN)" -gt 1 ]; then
	status 0 "a run pinned to one CPU" taskset -c 0 "$REAIM" -f "$T/cpu" -t 1 -j 1 -d "$T/scratch"
	contains "$T/err" "reaim may use only 1 of the" "the CPU affinity is pointed out"
else
	ok 0 "a run pinned to one CPU # SKIP no taskset or one CPU"
	ok 0 "the CPU affinity is pointed out # SKIP"
fi
if have "a CPU time limit pointed out" prlimit; then
	status 0 "a run with a CPU time limit" prlimit --cpu=100000 "$REAIM" -f "$T/cpu" -t 1 -j 1 -d "$T/scratch"
	contains "$T/err" "RLIMIT_CPU is 100000 s" "the CPU time limit is pointed out"
fi

# tasks work in their own dir, with no core size, whatever the caller's directory and limit
mkdir -p "$T/cwd"
(
	cd "$T/cwd" || exit 1
	ulimit -c unlimited 2>/dev/null
	exec setsid "$REAIM" -f "$T/mix" -t 2 -j 100000 -d "$T/scratch" --db "$REAIM_DB" --label cores
) >"$T/out" 2>"$T/err" &
pid=$!
wait_session "$pid" 3
sleep 0.3
task=$(session_tasks "$pid" | head -n 1)
cwd=$(readlink "/proc/$task/cwd" 2>/dev/null)
case $cwd in
"$T/scratch"/reaim-*) ok 0 "a task works in its scratch dir ($cwd)" ;;
*) ok 1 "a task works in its scratch dir (got '$cwd')" ;;
esac
core_limit=$(awk '/^Max core file size/ { print $5 }' "/proc/$task/limits" 2>/dev/null)
ok "$([ "$core_limit" = 0 ] && echo 0 || echo 1)" "a task's core size limit is 0 (got '$core_limit')"
kill -SEGV "$task"
sleep 0.3
kill -INT "$pid"
wait "$pid"
ok "$([ -z "$(ls -A "$T/cwd")" ] && echo 0 || echo 1)" "a crashing task leaves no core in the caller's directory"
ok "$(session_gone "$pid"; echo $?)" "cores: no process of the run left"
ok "$(scratch_is_empty; echo $?)" "cores: no scratch left"
(
	cd "$T/cwd" || exit 1
	ulimit -c unlimited 2>/dev/null
	exec setsid "$REAIM" -f "$T/mix" -t 2 -j 100000 -d "$T/scratch" --db "$REAIM_DB" --task-cores on
) >"$T/out" 2>"$T/err" &
pid=$!
wait_session "$pid" 3
sleep 0.3
task=$(session_tasks "$pid" | head -n 1)
core_limit=$(awk '/^Max core file size/ { print $5 }' "/proc/$task/limits" 2>/dev/null)
parent_limit=$(awk '/^Max core file size/ { print $5 }' "/proc/$pid/limits" 2>/dev/null)
if [ "$parent_limit" = unlimited ]; then
	ok "$([ "$core_limit" = unlimited ] && echo 0 || echo 1)" "--task-cores on keeps the inherited limit (got '$core_limit')"
else # the sanitizer runtime sets its own limit to 0 at start
	ok 0 "--task-cores on keeps the inherited limit # SKIP reaim itself runs with a core limit of '$parent_limit'"
fi
kill -SEGV "$task"
sleep 0.3
kill -INT "$pid"
wait "$pid"
ok "$([ -z "$(ls -A "$T/cwd")" ] && echo 0 || echo 1)" "even then, no core in the caller's directory"
ok "$(scratch_is_empty; echo $?)" "task cores: no scratch left"

# a run that is alive keeps its scratch, whatever its process is called
# beside NAME DB CMD...: a long run started as CMD keeps its scratch while a second run starts
# beside it, and completes with every point valid
beside() {
	name=$1 db=$2
	shift 2
	start_session "$@" -f "$T/mix" -t 1,2,2,2,2,2 -j 40 -d "$T/scratch" --db "$db" >"$T/long.out" 2>"$T/long.err"
	long=$session
	i=0
	while [ $i -lt 200 ] && [ -z "$(ls "$T/scratch")" ]; do sleep 0.05; i=$((i + 1)); done
	status 0 "another run beside the $name one" "$REAIM" -f "$T/cpu" -t 1 -j 1 -d "$T/scratch" --db "$T/b.db"
	ok "$(grep -q 'removed .*reaim-' "$T/err" && echo 1 || echo 0)" "$name: it swept nothing"
	wait "$long"
	rc=$?
	ok "$([ $rc -eq 0 ] && ! grep -q INVALID "$T/long.out" && echo 0 || echo 1)" \
		"the $name run completed, every point valid (exit $rc)"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T/long.err" | head -3
	ok "$(scratch_is_empty; echo $?)" "$name: no scratch left"
}
# a second run's sweep must not touch the dir of one that runs through a link with another name
ln -s "$REAIM" "$T/bench"
beside renamed "$T/a.db" "$T/bench"

# the same for a run in another pid namespace, where its pid means nothing here (root only)
if [ "$is_root" = 1 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
	beside namespaced "$T/c.db" unshare --pid --fork --mount-proc "$REAIM"
	# its O_DIRECT probe (it is pid 1 there) never removes a file of that name it did not make
	printf 'FILESIZE: 8K\n10 disk_dio_rd\n' >"$T/dio"
	mkdir -p "$T/diodir"
	for f in .reaim-dio-probe-1 .reaim-dio-probe-2 .reaim-dio-probe-XXXXXX; do echo mine >"$T/diodir/$f"; done
	unshare --pid --fork --mount-proc "$REAIM" -f "$T/dio" -t 1 -j 1 -d "$T/diodir" --db "$T/c.db" >"$T/out" 2>"$T/err"
	rc=$?
	ok "$([ $rc -eq 0 ] || [ $rc -eq 1 ] && echo 0 || echo 1)" "a dio run (exit $rc: 1 if the dir has no O_DIRECT)"
	ok "$([ "$(cat "$T/diodir/.reaim-dio-probe-1" 2>/dev/null)" = mine ] && echo 0 || echo 1)" \
		"a file named like reaim's probe is left alone"
	ok "$([ "$(ls -A "$T/diodir" | wc -l)" = 3 ] && echo 0 || echo 1)" "and no probe of reaim's is left"
else
	ok 0 "a run in another pid namespace # SKIP needs root and unshare"
fi

# a umask that masks the owner's own bits (as an unprivileged user: root ignores modes)
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ "$is_root" = 1 ] && command -v setpriv >/dev/null 2>&1 && $nobody test -x "$REAIM"; then
	chmod 755 "$T"
	mkdir -p "$T/nobody" && chmod 777 "$T/nobody"
	(umask 0777 && exec $nobody "$REAIM" -f "$T/mix" -t 2 -j 2 -d "$T/nobody" --db "$T/nobody/r.db") >"$T/out" 2>"$T/err"
	rc=$?
	ok "$([ $rc -eq 0 ] && ! grep -q INVALID "$T/out" && echo 0 || echo 1)" "umask 0777: the run works (exit $rc)"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T/err" "$T/out" | head -4
	ok "$([ -z "$(ls -A "$T/nobody" | grep -v '^r\.db\|^\.reaim-said$')" ] && echo 0 || echo 1)" "umask 0777: no scratch left"
else
	ok 0 "umask 0777 # SKIP needs root, setpriv and a binary others may run"
fi
finish
