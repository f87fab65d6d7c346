#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Input files as an adversary would give them: fifos, devices, directories, unreadable,
# oversized and binary files, @include from other directories and of the wrong things, keys
# that would be ignored, and user text with control characters. Each gets a message naming
# the file (and line), exit 1, nothing stored, and never a hang.
. "$(dirname "$0")/lib.sh"

# refused WHAT TEXT CMD...: exit 1 within 10 s, TEXT on stderr, no database
refused() {
	what=$1 text=$2
	shift 2
	timeout 10 "$@" >"$T/out" 2>"$T/err"
	rc=$?
	ok "$([ $rc -eq 1 ] && echo 0 || echo 1)" "$what: exit 1 (got $rc${rc:+, 124 is a hang})"
	contains "$T/err" "$text" "$what: says why"
	ok "$([ ! -e "$REAIM_DB" ] && echo 0 || echo 1)" "$what: nothing stored"
}

printf '10 matrix_rtns\n' >"$T/mix"
mkfifo "$T/fifo"
refused "a fifo as workfile" "$T/fifo: cannot read workfile: a fifo, not a regular file" \
	"$REAIM" -f "$T/fifo" -d "$T/scratch"
refused "a fifo as suite" "$T/fifo: cannot read suite: a fifo" "$REAIM" -s "$T/fifo" -d "$T/scratch"
refused "check of a fifo" "a fifo, not a regular file" "$REAIM" check "$T/fifo"
refused "a fifo as classic's reaim.config" "$T/fifo: cannot read the config file: a fifo, not a regular file" \
	"$REAIM" -s1 -e1 -fworkfile.jmp_test -c "$T/fifo" -j1 -d "$T/scratch"
refused "a directory as workfile" "$T/scratch: cannot read workfile: a directory" "$REAIM" -f "$T/scratch"
refused "a device as workfile" "/dev/zero: cannot read workfile: a character device" "$REAIM" -f /dev/zero -d "$T/scratch"
refused "/dev/stdin as suite" "cannot read suite" "$REAIM" -s /dev/stdin -d "$T/scratch" </dev/null
head -c 1048577 /dev/zero | tr '\0' '#' >"$T/big"
refused "a workfile over 1 MiB" "$T/big: cannot read workfile: 1048577 bytes, more than the 1048576 allowed" \
	"$REAIM" -f "$T/big" -d "$T/scratch"
printf '10 matrix_rtns\n# fine\n10 add_int\0 trailing\n' >"$T/nul"
refused "a NUL byte in a workfile" "$T/nul:3: contains a NUL byte" "$REAIM" -f "$T/nul" -d "$T/scratch"
printf 'workfile = "mix";\n\0' >"$T/nul.cfg"
refused "a NUL byte in a suite" "$T/nul.cfg:2: contains a NUL byte" "$REAIM" -s "$T/nul.cfg" -d "$T/scratch"
if [ "$(id -u)" != 0 ]; then
	cp "$T/mix" "$T/secret" && chmod 000 "$T/secret"
	refused "an unreadable workfile" "Permission denied" "$REAIM" -f "$T/secret" -d "$T/scratch"
elif command -v setpriv >/dev/null 2>&1 && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$REAIM"; then
	cp "$T/mix" "$T/secret" && chmod 600 "$T/secret" && chmod 755 "$T"
	refused "an unreadable workfile" "Permission denied" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$REAIM" check "$T/secret"
else
	ok 0 "an unreadable workfile # SKIP root without setpriv"
fi
printf 'FILESIZE: 2000G\n10 matrix_rtns\n' >"$T/hugefile"
refused "a FILESIZE past the option's bound" "$T/hugefile:1: FILESIZE 2000G is too large (at most 1024G)" \
	"$REAIM" -f "$T/hugefile" -d "$T/scratch"

# @include: relative to the including file, nested across directories; errors name the file
mkdir -p "$T/suites/common/deeper" "$T/elsewhere"
printf '10 matrix_rtns\n' >"$T/suites/common/deeper/inc.wf"
printf 'workfile = "inc.wf";\ntasks = [1];\njobs_per_task = 1;\n' >"$T/suites/common/deeper/wl.cfg"
printf '@include "deeper/wl.cfg"\nrepeat = 2;\n' >"$T/suites/common/base.cfg"
printf 'name = "inc";\n@include "common/base.cfg"\nlabel = "included";\n' >"$T/suites/top.cfg"
(cd "$T/elsewhere" && "$REAIM" -s ../suites/top.cfg -d "$T/scratch" >"$T/out" 2>"$T/err")
rc=$?
ok "$([ $rc -eq 0 ] && echo 0 || echo 1)" "nested includes from another working dir: exit $rc"
[ $rc -eq 0 ] || sed 's/^/#   /' "$T/err" | head -3
"$REAIM" list --label included >"$T/list"
contains "$T/list" "complete" "the included suite ran"
rm -f "$REAIM_DB" "$REAIM_DB-wal" "$REAIM_DB-shm"
printf 'workfile = "mix";\n\n@include "nowhere/x.cfg"\n' >"$T/missing.cfg"
refused "a missing include" "$T/missing.cfg:3: @include \"nowhere/x.cfg\": cannot read $T/nowhere/x.cfg: No such file" \
	"$REAIM" -s "$T/missing.cfg" -d "$T/scratch"
printf 'jobs_per_task = 1;\nrepeat = "x";\n' >"$T/suites/common/badinc.cfg"
printf 'workfile = "../mix";\n@include "common/badinc.cfg"\n' >"$T/suites/usesbad.cfg"
refused "an error in an included file" "$T/suites/common/badinc.cfg:2: 'repeat' has the wrong type" \
	"$REAIM" -s "$T/suites/usesbad.cfg" -d "$T/scratch"
printf 'workfile = "mix";\n@include "loop.cfg"\n' >"$T/loop.cfg"
refused "a suite including itself" "nested includes" "$REAIM" -s "$T/loop.cfg" -d "$T/scratch"
printf 'workfile = "mix";\n@include "fifo"\n' >"$T/incfifo.cfg"
refused "including a fifo" "$T/incfifo.cfg:2: @include \"fifo\": cannot read $T/fifo: a fifo" \
	"$REAIM" -s "$T/incfifo.cfg" -d "$T/scratch"

# keys that would otherwise be ignored
printf 'workfile = "mix";\nname = 7;\n' >"$T/badname.cfg"
refused "a suite name that is not a string" "$T/badname.cfg:2: 'name' must be a string" "$REAIM" check "$T/badname.cfg"
printf 'workloads = ( { workfile = "mix"; workloads = ( { workfile = "mix"; } ); } );\n' >"$T/nested.cfg"
refused "nested workloads" "$T/nested.cfg:1: 'workloads' cannot be nested" "$REAIM" check "$T/nested.cfg"
printf 'workfile = "mix";\ntasks = { one = 1; };\n' >"$T/group.cfg"
refused "a group where a list belongs" "$T/group.cfg:2: 'tasks' is a group" "$REAIM" check "$T/group.cfg"
printf 'workfile = "mix";\ntimeout = 1e999;\n' >"$T/inf.cfg"
refused "an infinite suite timeout" "$T/inf.cfg:2: 'timeout'" "$REAIM" check "$T/inf.cfg"
printf 'workfile = "mix";\nthreshold = 1e308;\n' >"$T/thr.cfg"
refused "a threshold of 1e308" "$T/thr.cfg:2: 'threshold' = '1e+308': not a finite number in range (allowed: 0 to 1000000)" \
	"$REAIM" check "$T/thr.cfg"
printf 'workfile = "mix";\nrepeat = 100000000000;\n' >"$T/rep.cfg"
refused "a huge repeat (libconfig would cut it to 32 bits)" "$T/rep.cfg:2: the number 100000000000 is too large" \
	"$REAIM" check "$T/rep.cfg"
printf 'workfile = "mix";\nseed = 99999999999999999999L;\n' >"$T/seed.cfg"
refused "a seed past 64 bits" "$T/seed.cfg:2: the number 99999999999999999999L is too large" "$REAIM" check "$T/seed.cfg"
printf 'workfile = "mix";\ntasks = [1, 4294967297];\n' >"$T/tasks.cfg"
refused "a task count that wraps to 1" "$T/tasks.cfg:2: the number 4294967297 is too large" "$REAIM" check "$T/tasks.cfg"
printf 'workfile = "mix";\nperiod = -1.0;\n' >"$T/neg.cfg"
refused "a negative period" "$T/neg.cfg:2: 'period'" "$REAIM" check "$T/neg.cfg"

# user text with control characters never reaches the terminal raw
printf 'workfile = "mix";\nlabel = "a\\x1b[2Jb";\n' >"$T/esc.cfg"
esc=$(printf '\033')
refused "a label with an escape sequence" "$T/esc.cfg:2: 'label' = 'a\x1b[2Jb': contains a control character" \
	"$REAIM" check "$T/esc.cfg"
ok "$(grep -q "$esc" "$T/err" "$T/out" && echo 1 || echo 0)" "no raw escape byte in the messages"
printf 'workloads = ( { name = "x\\x1b]0;title\\x07"; workfile = "mix"; } );\n' >"$T/wlname.cfg"
refused "a workload name with control characters" "'name': contains a control character" "$REAIM" check "$T/wlname.cfg"
cp "$T/mix" "$T/$(printf 'we\033[31mird')"
refused "a workfile named with an escape sequence" 'we\x1b[31mird: contains a control character' \
	"$REAIM" -f "$T/$(printf 'we\033[31mird')" -t 1 -j 1 -d "$T/scratch"
ok "$(grep -q "$esc" "$T/out" "$T/err" && echo 1 || echo 0)" "its name printed escaped"
finish
