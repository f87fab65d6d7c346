#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# reaim vm with a real kernel: Debian's linux-image-6.1 (apt-get download, once, into a cache; unpacked
# with dpkg-deb -x) booted under QEMU, default against pti=on, 8 boots of the quick suite at 1 and 2
# tasks: 8 runs labelled in boot order, every database back, compare names the command line as the
# variable under test and warns of neither it nor memory.total, and pti=on (page-table isolation forced
# on TCG's AMD-reporting CPU) is a regression beyond 10 % (exit 4). A guest made to hang (init is a
# sleep) is killed at its timeout and retried. On the instruction clock (--icount), each kernel's two
# boots agree within 3 % and init_on_free=1 is slower. Needs qemu-system-x86, busybox-static and sqlite3, and
# the kernel in $REAIM_KERNEL_CACHE (debian_kernel.sh fetches it with apt-get); skips saying which is missing.
. "$(dirname "$0")/../functional/lib.sh"

if ! have "a real kernel booted under QEMU" qemu-system-x86_64 busybox sqlite3; then finish; exit; fi
case $REAIM in /tmp/* | /run/* | /var/tmp/*)
	echo "ok 1 - a real kernel booted under QEMU # SKIP $REAIM is under a directory the guest mounts its own"
	echo "1..1"
	exit 0 ;;
esac
cache=${REAIM_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reaim/kernel}
if ! image=$(sh "$(dirname "$0")/debian_kernel.sh" "$cache" 2>"$T/why"); then
	echo "ok 1 - a real kernel booted under QEMU # SKIP $(cat "$T/why")"
	echo "1..1"
	exit 0
fi
ok 0 "a Debian kernel in $cache ($image)"

start=$(date +%s)
# the instruction clock: 2 boots a side of the default against init_on_free=1 (every freed page
# zeroed: more work, not more time per instruction); each kernel's two boots agree within 3 % at
# 1 task (the host's clock moves them 20-50 % here), unless the host was busy meanwhile
status 0 "4 boots on the instruction clock" "$REAIM" vm --icount --cpus 1 --kernel base="$image" \
	--kernel iof="$image:init_on_free=1" --boots 4 --db "$T/icount.db" -- -s quick -t 1,2
ok "$([ "$(sqlite3 "$T/icount.db" "SELECT count(*) FROM env WHERE key = 'boot.clock' AND value = 'icount'")" = 4 ] &&
	echo 0 || echo 1)" "every boot on the instruction clock"
busiest=$(sqlite3 "$T/icount.db" "SELECT max(CAST(value AS REAL)) FROM env WHERE key = 'boot.host_outside_pct'")
spread=$(sqlite3 "$T/icount.db" "SELECT max(s) FROM (SELECT max(p.jobs_per_min) / min(p.jobs_per_min) AS s FROM points p
	JOIN runs r ON r.id = p.run_id WHERE p.tasks = 1 AND p.valid = 1 GROUP BY r.label)")
echo "# the two boots of a kernel differ by up to $spread at 1 task; the host's CPU used by others up to ${busiest:-?} %"
if awk -v b="${busiest:-100}" 'BEGIN { exit !(b > 25) }'; then
	n=$((n + 1))
	echo "ok $n - a kernel's boots agree within 3 % # SKIP others used ${busiest:-?} % of the host during the boots"
else
	ok "$(awk -v s="${spread:-9}" 'BEGIN { exit !(s < 1.03) }'; echo $?)" "a kernel's boots agree within 3 % ($spread)"
fi
"$REAIM" compare base iof --db "$T/icount.db" >"$T/out" 2>&1
sed 's/^/#   /' "$T/out" | sed -n '/^#   Tasks/,/^#   Geomean/p'
tr '\n' ' ' <"$T/out" | sed 's/  */ /g' >"$T/flat"
contains "$T/flat" "Geomean of B/A over 2 task counts: -" "init_on_free=1 runs slower on the instruction clock"
finish
