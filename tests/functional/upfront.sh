#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What can be known before the first fork is checked before it, nothing stored: a disk dir the
# tasks cannot use, whatever the mix; a disk too small, said in the unit that shows it; classic's
# -l prefix that PREFIX.csv could not be written under.
. "$(dirname "$0")/lib.sh"

printf '10 add_int\n' >"$T/cpu"
printf 'FILESIZE: 1M\n10 disk_wrt\n' >"$T/disk"
for dir in /proc /sys; do
	for mix in cpu disk; do
		status 1 "-d $dir refused for a $mix mix" "$REAIM" -q --no-quiet-check -f "$T/$mix" -t 1 -j 2 -d "$dir"
		contains "$T/err" "reaim: error: disk dir $dir: the tasks cannot work there" "-d $dir, $mix: says why"
		ok "$([ ! -e "$REAIM_DB" ] && echo 0 || echo 1)" "-d $dir, $mix: nothing stored"
	done
done

# a filesystem too small, or out of inodes, in a mount namespace of its own
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	mkdir "$T/tiny"
	unshare -m sh -c "mount -t tmpfs -o size=256k tmpfs '$T/tiny' && exec '$REAIM' -q --no-quiet-check \
		-f '$T/disk' -t 1 -j 2 -d '$T/tiny'" >"$T/out" 2>"$T/err"
	ok "$([ $? -eq 1 ] && echo 0 || echo 1)" "a 256 KiB filesystem refused for 1 MiB files"
	contains "$T/err" "KiB in $T/tiny at its largest point, but only 256 KiB are free" "said in KiB, not as 0 MiB"
	ok "$(grep -q ' 0 MiB' "$T/err" && echo 1 || echo 0)" "no '0 MiB' in it"
	unshare -m sh -c "mount -t tmpfs -o size=64m,nr_inodes=4 tmpfs '$T/tiny' && exec '$REAIM' -q --no-quiet-check \
		-f '$T/cpu' -t 8 -j 2 -d '$T/tiny'" >"$T/out" 2>"$T/err"
	ok "$([ $? -eq 1 ] && echo 0 || echo 1)" "a filesystem with 4 inodes refused for 8 tasks"
	contains "$T/err" "inodes in $T/tiny" "names the inodes"
	ok "$([ ! -e "$REAIM_DB" ] && echo 0 || echo 1)" "nothing stored"
else
	for what in "a filesystem too small" "said in KiB" "no 0 MiB" "out of inodes" "names the inodes" "nothing stored"; do
		n=$((n + 1))
		echo "ok $n - $what # SKIP needs root and unshare -m"
	done
fi

# classic's -l: PREFIX.csv is written after the run, so where it goes is checked before it
printf 'FILESIZE: 10K\nPOOLSIZE: 1M\n10 add_int\n' >"$T/workfile.x"
printf 'DISKDIR %s\n' "$T/scratch" >"$T/reaim.config"
classic() { "$REAIM" -s 1 -e 1 -i 1 -j 2 -f "$T/workfile.x" -c "$T/reaim.config" "$@"; }
status 1 "-l in a directory that does not exist" classic -l "$T/nodir/reaim_debug"
contains "$T/err" "reaim: error: -l $T/nodir/reaim_debug: cannot write $T/nodir/reaim_debug.csv" "names the file"
mkdir "$T/lp" "$T/lp/y.csv"
status 1 "-l where PREFIX.csv is a directory" classic -l "$T/lp/y"
contains "$T/err" "not a regular file" "says why"
status 1 "-l ''" classic -l ''
contains "$T/err" "not a file name prefix" "an empty prefix refused"
ok "$([ ! -e "$REAIM_DB" ] && echo 0 || echo 1)" "no run stored for any of them"
status 0 "-l in a directory that exists" classic -l "$T/lp/x"
ok "$([ -s "$T/lp/x.csv" ] && echo 0 || echo 1)" "PREFIX.csv written"
scratch_is_empty
ok $? "scratch is clean"
finish
