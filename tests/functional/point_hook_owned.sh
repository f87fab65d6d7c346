#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --point-hook at its edges: a daemon the hook starts (setsid) does not outlive the point; the end of
# a point never signals a process group whose id another process took after the hook was reaped (in a
# private pid namespace, as root); $REAIM_POINT_DIR is absolute; every point gets a directory of its
# own (two databases in one directory, a repeated task count, two workload names that read the same
# in a file name); a planted symbolic link is never followed; a hook that ignores SIGINT does not hold
# up an interrupted run; --point-hook-tasks naming a task count the plan lacks is refused up front.
# The hook's processes carry this test's mark, so only they are looked for and killed.
. "$(dirname "$0")/lib.sh"

mark="reaim-hookown-$(basename "$T")"
trap 'pkill -KILL -f "$mark" 2>/dev/null; rm -rf "$T"' EXIT

printf '10 add_int\n' >"$T/cpu"
cat >"$T/$mark-daemon" <<EOF
#!/bin/sh
while :; do sleep 1; done
EOF
chmod +x "$T/$mark-daemon"

# run DESCRIPTION ARGS...: a short run of the cpu mix, exit 0 expected
run() {
	d=$1
	shift
	status 0 "$d" "$REAIM" --no-quiet-check -f "$T/cpu" -j 10 -d "$T/scratch" "$@"
}

# 1. a daemon the hook starts in a session of its own goes with the point (through the hook's cgroup)
status 0 "a hook that starts a daemon with setsid" "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 40 -d "$T/scratch" \
	--point-hook "setsid '$T/$mark-daemon' </dev/null >/dev/null 2>&1 & echo started"
if grep -q 'accounting: cgroup v2' "$T/err"; then
	sleep 0.3 # a daemon that survived has exec'd its mark by now
	ok "$([ -z "$(pgrep -f "$mark-daemon")" ] && echo 0 || echo 1)" "nothing the hook started outlives the point"
else
	n=$((n + 1))
	echo "ok $n - nothing the hook started outlives the point # SKIP no cgroups here: $(sed -n 's/.*accounting: //p' "$T/err" | cut -c1-120)"
fi
pkill -KILL -f "$mark-daemon" 2>/dev/null

# 2. the hook ends at once and is reaped with the tasks; a process reaim never started then takes its
# pid as its session's and group's id (ns_last_pid in a private pid namespace): the end of the point
# must not kill it
if [ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
	cat >"$T/reuse.sh" <<EOF
#!/bin/sh
mkdir "$T/reuse.d"
"$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 100 -d "$T/scratch" --db "$T/reuse.d/reuse.db" \\
	--point-hook 'echo \$PPID >"$T/hookpid"' >"$T/reuse.out" 2>"$T/reuse.err" &
run=\$!
i=0
while [ ! -s "$T/hookpid" ] && [ \$i -lt 200 ]; do sleep 0.02; i=\$((i + 1)); done
hp=\$(cat "$T/hookpid")
i=0
while [ -e "/proc/\$hp" ] && [ \$i -lt 200 ]; do sleep 0.02; i=\$((i + 1)); done
echo \$((hp - 1)) >/proc/sys/kernel/ns_last_pid
setsid sleep 1000 &
victim=\$!
sleep 0.1
echo "\$hp \$victim \$(ps -o pgid= -p \$victim | tr -d ' ')" >"$T/reuse"
wait \$run
echo "\$?" >>"$T/reuse"
if kill -0 \$victim 2>/dev/null; then echo alive >>"$T/reuse"; else echo dead >>"$T/reuse"; fi
kill -KILL \$victim 2>/dev/null
EOF
	unshare --pid --fork --mount-proc sh "$T/reuse.sh"
	sed 's/^/# /' "$T/reuse"
	{ read -r hp victim pgid; read -r rc; read -r fate; } <"$T/reuse"
	if [ "$victim" = "$hp" ] && [ "$pgid" = "$hp" ]; then
		ok "$([ "$rc" = 0 ] && echo 0 || echo 1)" "a run whose hook's pid was taken by another group meanwhile"
		ok "$([ "$fate" = alive ] && echo 0 || echo 1)" "that group (never reaim's) is not killed at the end of the point"
	else
		n=$((n + 1))
		echo "ok $n - a reused group id is not signalled # SKIP the pid $hp was not given to the new group ($victim, $pgid)"
	fi
else
	n=$((n + 1))
	echo "ok $n - a reused group id is not signalled # SKIP needs root and unshare --pid"
fi

# 3. $REAIM_POINT_DIR is absolute, also for a database named relative to the working directory (a
# point of 100 jobs, so the hook's shell gets to write on a busy machine before the point ends)
mkdir "$T/rel"
(cd "$T/rel" && "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 100 -d "$T/scratch" --db rel.db \
	--point-hook 'echo "$REAIM_POINT_DIR" >"$REAIM_POINT_DIR/x.data"' >"$T/out" 2>"$T/err")
ok "$?" "a run with a relative database and a hook that writes to \$REAIM_POINT_DIR/x.data"
f=$(find "$T/rel" -name x.data)
ok "$([ -n "$f" ] && case $(cat "$f") in /*) echo 0 ;; *) echo 1 ;; esac || echo 1)" "the hook wrote there, told an absolute path ($f)"

# hooks_ran N DESCRIPTION DB...: N points' hooks, each run in a directory of its own: each wrote its
# file `ran`, or was started there and stopped by the end of its point before its shell got to write
# (a point of 10 short jobs can end first on a busy machine); a hook never started fails
hooks_ran() {
	want=$1 what=$2
	shift 2
	: >"$T/hooks"
	for db in "$@"; do
		"$REAIM" show last --db "$db" 2>&1 | sed -n 's/.*point hook output in \([^ ]*\) (\(.*\))$/\1	\2/p' >>"$T/hooks"
	done
	sed 's/^/# /' "$T/hooks"
	good=$(while IFS='	' read -r dir end; do
		if [ -e "$dir/ran" ] || { [ -e "$dir/hook.out" ] && case $end in *"with SIGINT"*) true ;; *) false ;; esac; }; then
			echo "$dir"
		fi
	done <"$T/hooks" | sort -u | wc -l)
	ok "$([ "$good" -eq "$want" ] && [ "$(wc -l <"$T/hooks")" -eq "$want" ] && echo 0 || echo 1)" "$what ($good of $want)"
}

# 4. every point's directory is its own: each hook runs and writes its file
mkdir "$T/two"
run "database a in a directory" -t 1 --db "$T/two/a.db" --point-hook 'echo a >ran'
run "database b beside it" -t 1 --db "$T/two/b.db" --point-hook 'echo b >ran'
hooks_ran 2 "two databases in one directory: both hooks ran" "$T/two/a.db" "$T/two/b.db"
mkdir "$T/rep"
run "a repeated task count (-t 1,1)" -t 1,1 --db "$T/rep/r.db" --point-hook 'echo r >ran'
hooks_ran 2 "-t 1,1: the hook ran at both points, each in its own directory" "$T/rep/r.db"
mkdir "$T/names"
cat >"$T/names/s.cfg" <<EOF
workloads = ( { name = "a b"; workfile = "$T/cpu"; }, { name = "a_b"; workfile = "$T/cpu"; } );
tasks = "1";
jobs_per_task = 10;
point_hook = "echo n >ran";
EOF
status 0 "two workloads whose names read the same in a file name (a b, a_b)" "$REAIM" --no-quiet-check \
	-s "$T/names/s.cfg" -d "$T/scratch" --db "$T/names/n.db"
hooks_ran 2 "both workloads' hooks ran" "$T/names/n.db"

# 5. a hook directory planted as a symbolic link (a shared directory) is never followed
mkdir "$T/shared" "$T/elsewhere"
ln -s "$T/elsewhere" "$T/shared/s-run-1-hook"
ln -s "$T/elsewhere" "$T/shared/reaim-run-1-hook"
status 2 "a run whose hook directory is a planted link" "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 10 \
	-d "$T/scratch" --db "$T/shared/s.db" --point-hook 'echo x >ran'
contains "$T/err" "a symbolic link is never followed" "the link is named and refused"
ok "$([ -z "$(ls -A "$T/elsewhere")" ] && echo 0 || echo 1)" "nothing was made where it points"
if [ "$(id -u)" = 0 ]; then
	mkdir "$T/theirs" "$T/theirs/t-run-1-hook" "$T/theirs/reaim-run-1-hook"
	chown nobody "$T/theirs/t-run-1-hook" "$T/theirs/reaim-run-1-hook"
	status 2 "a hook directory another user made" "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 10 \
		-d "$T/scratch" --db "$T/theirs/t.db" --point-hook 'echo x >ran'
	contains "$T/err" "owned by another user" "it is refused"
else
	n=$((n + 1))
	echo "ok $n - a hook directory another user made # SKIP needs root"
fi

# 6. --point-hook-tasks naming a task count the plan never runs: refused before anything runs
status 1 "--point-hook-tasks 5 with -t 1,2" "$REAIM" --no-quiet-check -f "$T/cpu" -t 1,2 -j 10 -d "$T/scratch" \
	--db "$T/refused.db" --point-hook 'true' --point-hook-tasks 5
contains "$T/err" "--point-hook-tasks 5" "the error names the count"
ok "$([ ! -e "$T/refused.db" ] && echo 0 || echo 1)" "nothing was stored"

# 7. a hook that ignores SIGINT does not hold up an interrupted run
cat >"$T/$mark-deaf" <<EOF
#!/bin/sh
trap '' INT
echo up >"$T/deaf.up"
while :; do sleep 0.1; done
EOF
chmod +x "$T/$mark-deaf"
mkdir "$T/deaf"
start_session "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 100000 -d "$T/scratch" --db "$T/deaf/deaf.db" \
	--point-hook "exec '$T/$mark-deaf'" >"$T/out" 2>"$T/err"
pid=$session
i=0
while [ ! -e "$T/deaf.up" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
ok "$([ -e "$T/deaf.up" ] && echo 0 || echo 1)" "a run with a hook that ignores SIGINT: the hook started"
t0=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
ok "$([ $rc -eq 3 ] && echo 0 || echo 1)" "interrupted with a hook that ignores SIGINT: exit 3 (got $rc)"
ok "$([ $ms -lt 4000 ] && echo 0 || echo 1)" "and at once: $ms ms, not the 10 s a hook gets to end by itself"
ok "$([ -z "$(pgrep -f "$mark-deaf")" ] && echo 0 || echo 1)" "the hook is gone"
finish
