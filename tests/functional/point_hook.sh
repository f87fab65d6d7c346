#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --point-hook: the command starts after the chosen point's release (no job of that point began before
# the release it is told of, and it starts after it), is stopped with SIGINT once the last job has ended
# but before the tasks exit (their scratch dirs, removed on the way out, are still there), leaves nothing
# running, and `show` names its output dir. Jobs and hook log times to one file (date +%s%N).
. "$(dirname "$0")/lib.sh"

mark="reaim-hook-$(basename "$T")"
trap 'pkill -KILL -f "$mark" 2>/dev/null; rm -rf "$T"' EXIT

# each job logs its start and end around a short sleep
mkdir -p "$T/data/scripts"
cat >"$T/data/scripts/shell_rtns_1.sh" <<EOF
#!/bin/sh
echo "job-start \$(date +%s%N)" >>"$T/log"
sleep 0.2
echo "job-end \$(date +%s%N)" >>"$T/log"
EOF
chmod +x "$T/data/scripts/shell_rtns_1.sh"
printf '10 shell_rtns_1\n' >"$T/mix"
# the hook logs its start with the release it was given, and at SIGINT how many task dirs are left
cat >"$T/$mark" <<EOF
#!/bin/sh
echo "hook-start \$(date +%s%N) \$REAIM_POINT_RELEASE" >>"$T/log"
env | grep '^REAIM_POINT_' >env.txt
trap 'echo "hook-stop \$(date +%s%N) \$(find "$T/scratch" -type d -name "t[0-9]*" | wc -l)" >>"$T/log"; exit 0' INT
while :; do sleep 0.01; done
EOF
chmod +x "$T/$mark"

REAIM_DATADIR="$T/data" status 0 "a run with a point hook at 2 tasks" "$REAIM" --no-quiet-check -f "$T/mix" \
	-t 1,2 -j 2 -d "$T/scratch" --point-hook "exec '$T/$mark'" --point-hook-tasks 2
cp "$T/err" "$T/run.err"
sed 's/^/# /' "$T/log"
ok "$([ "$(grep -c '^hook-start' "$T/log")" -eq 1 ] && echo 0 || echo 1)" "the hook ran once: only at the chosen task count"
# times as seconds (awk's doubles keep well under a microsecond at this size)
awk '
	$1 == "hook-start" { start = $2 / 1e9; release = $3 }
	$1 == "hook-stop" { stop = $2 / 1e9; dirs = $3 }
	$1 == "job-start" { js[++nj] = $2 / 1e9 }
	$1 == "job-end" { if ($2 / 1e9 > last_end) last_end = $2 / 1e9 }
	END {
		after = 0
		for (i = 1; i <= nj; i++) if (js[i] >= release) after++
		printf "%s %d %d %d %d %d\n", release, (start >= release), (after == 4 && nj == 6), (stop >= last_end), dirs, (stop > 0)
	}' "$T/log" >"$T/order"
read -r release started_after jobs_after stopped_after dirs_left stopped <"$T/order"
ok "$([ "$started_after" = 1 ] && echo 0 || echo 1)" "the hook started after the release ($release)"
ok "$([ "$jobs_after" = 1 ] && echo 0 || echo 1)" "every job of its point (4) began after that release, those of the 1-task point (2) before"
ok "$([ "$stopped" = 1 ] && [ "$stopped_after" = 1 ] && echo 0 || echo 1)" "it was stopped with SIGINT after the last job ended"
ok "$([ "$dirs_left" = 2 ] && echo 0 || echo 1)" "and before the tasks exited: both task dirs were still there ($dirs_left)"
ok "$([ -z "$(pgrep -f "$mark")" ] && echo 0 || echo 1)" "no process of the hook is left"
dir=$(find "$T" -maxdepth 2 -type d -name 'mix-osync-on-tasks-2-round-1')
ok "$([ -n "$dir" ] && [ -f "$dir/hook.out" ] && [ "$(find "$T" -maxdepth 2 -name 'mix-osync-*' | wc -l)" -eq 1 ] && echo 0 || echo 1)" \
	"its output dir is kept beside the database, one for the one point"
contains "$dir/env.txt" "REAIM_POINT_TASKS=2" "the hook is told the point's task count"
contains "$dir/env.txt" "REAIM_POINT_DIR=$dir" "and its dir"
contains "$dir/env.txt" "REAIM_POINT_CGROUP=" "and the point's cgroup (empty without cgroups)"
status 0 "show the run" "$REAIM" show last
contains "$T/out" "2 tasks, round 1: point hook output in $dir (stopped after" "show names the hook's dir and how it ended"
contains "$T/out" "with SIGINT: exited with status 0)" "it ended on the SIGINT, by itself"
contains "$T/run.err" "--point-hook stopped after" "the run said so as it went"

printf '10 add_int\n' >"$T/cpu"
# the point's one job waits for the hook's last word, so the point outlasts it however busy the machine
mkdir -p "$T/waits/scripts"
cat >"$T/waits/scripts/shell_rtns_1.sh" <<EOF
#!/bin/sh
i=0
while [ ! -e "$T/ending" ] && [ \$i -lt 3000 ]; do sleep 0.01; i=\$((i + 1)); done
sleep 0.3
EOF
chmod +x "$T/waits/scripts/shell_rtns_1.sh"
printf '1 shell_rtns_1\n' >"$T/wait-mix"
REAIM_DATADIR="$T/waits" status 0 "a hook that ends by itself at once" "$REAIM" --no-quiet-check -f "$T/wait-mix" -t 1 -j 1 \
	-d "$T/scratch" --point-hook ": >'$T/ending'; exit 3"
status 0 "show it" "$REAIM" show last
contains "$T/out" "(ended by itself before the point did" "show says it ended by itself"
# a hook slow to stop (perf writing its data): not the engine's stall, so no overhead warning
status 0 "a hook that takes 2.5 s to stop" "$REAIM" --no-quiet-check -f "$T/cpu" -t 1 -j 10 -d "$T/scratch" \
	--point-hook 'trap "sleep 2.5; exit 0" INT; while :; do sleep 0.01; done'
# (a slow start, the forks of an ASan build on a busy machine, is another matter: not this check's)
ok "$(grep 'point overhead' "$T/err" | grep -q "from the last task's finish" && echo 1 || echo 0)" \
	"its stop is not called a stall of the point's finish"
contains "$T/err" "--point-hook stopped after" "and it was stopped"
finish
