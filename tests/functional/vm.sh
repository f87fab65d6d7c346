#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# reaim vm end to end with a stand-in for QEMU ($REAIM_QEMU): it reads the boot's share from its
# command line and writes a canned database labelled as the guest's script says, or panics, or hangs.
# The boots come back in ABBA order with their facts, a failed boot is retried once in its place, one
# that fails twice is stored as failed, a hang is killed at --timeout, Ctrl-C and SIGKILL leave no
# QEMU behind, the next reaim vm sweeps the directory a killed one left, compare cautions where the
# host's load during the boots differs between the sides, and bad words are refused by name.
. "$(dirname "$0")/lib.sh"

if ! have "reaim vm with a stand-in QEMU" sqlite3 busybox; then finish; exit; fi

printf '10 add_int\n' >"$T/mix"
check "a canned guest run" "$REAIM" -q --no-quiet-check -f "$T/mix" -t 1,2 -j 2 -d "$T/scratch" --label canned \
	--db "$T/canned.db"

# a bzImage as far as the boot header goes
printf '6.1.0-fake-amd64 (builder@host) #1 SMP\n' >"$T/version"
dd if=/dev/zero of="$T/bzImage" bs=1024 count=2 2>/dev/null
printf 'HdrS' | dd of="$T/bzImage" bs=1 seek=514 conv=notrunc 2>/dev/null
printf '\000\001' | dd of="$T/bzImage" bs=1 seek=526 conv=notrunc 2>/dev/null
dd if="$T/version" of="$T/bzImage" bs=1 seek=768 conv=notrunc 2>/dev/null
cp "$T/bzImage" "$T/bzImage2"
printf 'x' >>"$T/bzImage2" # another build: another checksum

# the stand-in: boot N (counted in $T/count) panics when listed in $T/panic, hangs in $T/hang
cat >"$T/qemu" <<EOS
#!/bin/sh
for a in "\$@"; do
	case \$a in local,id=reaimout,path=*) share=\${a#local,id=reaimout,path=}; share=\${share%%,*} ;; esac
	case \$a in local,id=reaimprog,path=*) prog=\${a#local,id=reaimprog,path=}; prog=\${prog%%,*} ;; esac
done
n=\$(( \$(cat "$T/count" 2>/dev/null || echo 0) + 1 ))
echo \$n >"$T/count"
echo "\$*" >"$T/qemu.\$n"
[ -n "\$prog" ] && (cd "\$prog" && find . -type f | sort >"$T/prog.\$n" && cp "\$share/guest.sh" "$T/guest.\$n")
# a KVM probe (no guest.sh in its share): what $T/kvm-mode says, a guest that boots by default
if [ ! -e "\$share/guest.sh" ]; then
	case \$(cat "$T/kvm-mode" 2>/dev/null) in
	fail) echo "qemu-system-x86_64: failed to initialize kvm: Operation not supported"; exit 1 ;;
	hang) echo \$\$ >>"$T/hung.pids"; exec sleep 300 ;;
	esac
	grep -q "echo ok >/out/probe" "\$share/boot.sh" && echo ok >"\$share/probe"
	exit 0
fi
# a helper QEMU forks, and one that leaves QEMU's process group (setsid), both left running
if [ -e "$T/helpers" ]; then
	sleep 300 &
	echo \$! >"$T/helper.pid"
	setsid sh -c 'echo \$\$ >"\$1"; exec sleep 300' sh "$T/daemon.pid" &
	i=0; while [ ! -s "$T/daemon.pid" ] && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i + 1)); done
fi
grep -qx "\$n" "$T/panic" 2>/dev/null && { echo "Kernel panic - not syncing: boot \$n"; exit 0; }
grep -qx "\$n" "$T/hang" 2>/dev/null && { echo \$\$ >>"$T/hung.pids"; echo \$\$ >"$T/hung.pid"; exec sleep 300; }
label=\$(sed -n "s/.* --label \\([^ ]*\\) --db .*/\\1/p" "\$share/guest.sh")
cp "$T/canned.db" "\$share/reaim.db"
sqlite3 "\$share/reaim.db" "UPDATE runs SET label = '\$label', uuid = lower(hex(randomblob(16)))"
# what the kernel reserves moves memory.total by a few kB from boot to boot
sqlite3 "\$share/reaim.db" "INSERT OR REPLACE INTO env (run_id, key, value) SELECT id, 'memory.total', '\$((1000000 + n * 4)) kB' FROM runs"
# a guest on the instruction clock keeps time at its own pace: its run says it started years on
case "\$*" in *-icount*) sqlite3 "\$share/reaim.db" "UPDATE runs SET started_at = '2031-01-01T00:00:00Z', finished_at = '2031-01-01T00:05:00Z'" ;; esac
echo 0 >"\$share/rc"
echo "reaim-vm: powering off"
EOS
chmod +x "$T/qemu"
# every stand-in that hung is gone at the end, whatever happened
trap 'for p in $(cat "$T/hung.pids" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done; rm -rf "$T"' EXIT
# running: there, and not a zombie (an orphan's is reaped by init when it gets to it)
running() { [ -e "/proc/$1" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }
mkdir -p "$T/tmp"
# the host's /dev/kvm is never asked: a KVM device of our own, missing unless a check makes it
export REAIM_QEMU="$T/qemu" XDG_CACHE_HOME="$T/cache" TMPDIR="$T/tmp" REAIM_KVM_DEVICE="$T/kvm"
db="$T/vm.db"

status 0 "four boots of two kernels" "$REAIM" vm --kernel base="$T/bzImage" --kernel pti="$T/bzImage2:pti=on" \
	--boots 4 --db "$db" -- -f "$T/mix" -t 1,2 -j 2
contains "$T/err" "4 boots in this order: base pti pti base" "the order is ABBA"
contains "$T/out" "4 of 4 boots stored" "every boot stored"
ok "$([ "$(sqlite3 "$db" "SELECT group_concat(label, ' ') FROM (SELECT label FROM runs ORDER BY id)")" = "base pti pti base" ] &&
	echo 0 || echo 1)" "4 runs labelled in the order they booted"
ok "$([ "$(sqlite3 "$db" "SELECT group_concat(value, ' ') FROM (SELECT value FROM env WHERE key = 'boot.index' ORDER BY run_id)")" = "1 2 3 4" ] &&
	echo 0 || echo 1)" "each run knows its boot"
ok "$([ "$(sqlite3 "$db" "SELECT value FROM env e JOIN runs r ON r.id = e.run_id WHERE r.label = 'pti' AND key = 'boot.cmdline' LIMIT 1")" = "pti=on" ] &&
	echo 0 || echo 1)" "the declared command line is a fact of the run"
sha=$(sha256sum "$T/bzImage" | cut -d' ' -f1)
ok "$([ "$(sqlite3 "$db" "SELECT value FROM env WHERE key = 'boot.image_sha256' LIMIT 1")" = "$sha" ] && echo 0 || echo 1)" \
	"the image's sha256"
for k in boot.accel boot.qemu boot.wall_s boot.attempt; do
	ok "$([ "$(sqlite3 "$db" "SELECT count(*) FROM env WHERE key = '$k'")" -eq 4 ] && echo 0 || echo 1)" "every boot stores $k"
done
contains "$T/qemu.2" "panic=-1 softlockup_panic=1 hung_task_panic=1" "the guest panics out, never hangs on a panic"
contains "$T/qemu.2" "pti=on" "the B kernel gets its command line"
contains "$T/qemu.2" "-accel tcg" "TCG without KVM"
contains "$T/err" "no usable KVM ($T/kvm: No such file or directory)" "said, naming the device"
# reaim and what it reads travel on a share of their own, wherever they are on the host ($T is in a
# temporary directory, which the guest mounts its own)
contains "$T/qemu.2" "local,id=reaimprog,path=$TMPDIR/reaim-vm." "the program share"
contains "$T/qemu.2" ",readonly=on" "read-only"
for f in ./reaim ./data/suites/quick.cfg ./data/workfiles/quick ./data/scripts/shell_rtns_1.sh ./files/2/mix; do
	contains "$T/prog.2" "$f" "the program share holds $f"
done
contains "$T/guest.2" "export REAIM_DATADIR=/run/reaim-prog/data REAIM_LIBEXECDIR=/run/reaim-prog" "the guest's reaim finds its data there"
contains "$T/guest.2" "/run/reaim-prog/reaim run -f /run/reaim-prog/files/2/mix -t 1,2" "the guest runs the program share's reaim on its copy of the workfile"
ok "$(ls "$T/cache/reaim/" | grep -c '^initramfs-6.1.0-fake-amd64-.*\.cpio\.gz$' | grep -qx 2; echo $?)" \
	"an initramfs per kernel, cached"
ok "$(zcat "$T/cache/reaim/"initramfs-* | head -c 200000 | grep -qa 'reaim vm: the guest'; echo $?)" \
	"it carries the init script"
ok "$([ -z "$(ls -A "$TMPDIR")" ] && echo 0 || echo 1)" "no share or console is left behind"
status 0 "compare base pti" "$REAIM" compare base pti --db "$db"
ok "$(grep -c "warning" "$T/out" | grep -qx 0; echo $?)" "no warning about the boots' facts, the command line or memory.total"
grep warning "$T/out" | sed 's/^/#   /'
tr '\n' ' ' <"$T/out" | sed 's/  */ /g' >"$T/flat"
contains "$T/flat" "the variable under test (reaim vm): A boots base (image ${sha%"${sha#????????????}"}, command line ''), B boots pti" \
	"the declared difference is shown as the variable under test"
contains "$T/flat" "command line 'pti=on')" "with B's command line"
cp "$db" "$T/drift.db"
sqlite3 "$T/drift.db" "UPDATE env SET value = '2000000 kB' WHERE key = 'memory.total' AND run_id = 3"
status 0 "compare with memory.total off by half" "$REAIM" compare base pti --db "$T/drift.db"
contains "$T/out" "warning: run 3 (B) differs from run 1 (A) in memory.total" "a real difference in memory.total still warns"
sqlite3 "$T/drift.db" "UPDATE env SET value = '5.0' WHERE key = 'boot.host_outside_pct'"
status 0 "compare boots on an equally loaded host" "$REAIM" compare base pti --db "$T/drift.db"
ok "$(grep -q "host's CPU used by others" "$T/out" && echo 1 || echo 0)" "no host-load caution"
sqlite3 "$T/drift.db" "UPDATE env SET value = CASE WHEN run_id IN (2, 3) THEN '60.0' ELSE '5.0' END WHERE key = 'boot.host_outside_pct'"
status 0 "compare with B booted on a busier host" "$REAIM" compare base pti --db "$T/drift.db"
tr '\n' ' ' <"$T/out" | sed 's/  */ /g' >"$T/flat"
contains "$T/flat" "caution: the host's CPU used by others during the boots differs: B's 2 boots saw 60-60 % (mean 60), A's 2 saw 5-5 % (mean 5)" \
	"a caution that the host's load differs between the sides"

# --icount: the guests' clock counts instructions; a boot on the host's clock against one on the
# instruction clock is unlike, and warned of
rm -f "$T/count"
status 0 "two boots on the instruction clock" "$REAIM" vm --icount --boots 2 --kernel base="$T/bzImage" \
	--kernel pti="$T/bzImage2:pti=on" --db "$T/ic.db" -- -f "$T/mix" -t 1,2 -j 2
contains "$T/qemu.1" "-accel tcg -icount shift=0,sleep=off" "QEMU gets the instruction clock"
ok "$([ "$(sqlite3 "$T/ic.db" "SELECT count(*) FROM env WHERE key = 'boot.clock' AND value = 'icount'")" -eq 2 ] &&
	echo 0 || echo 1)" "every boot stores its clock"
ok "$([ "$(sqlite3 "$T/ic.db" "SELECT count(*) FROM runs WHERE started_at < '2030' AND finished_at >= started_at")" -eq 2 ] &&
	echo 0 || echo 1)" "the runs' times are the host's, not the instruction clock's ($(sqlite3 "$T/ic.db" "SELECT started_at FROM runs" | tr '\n' ' '))"
ok "$([ "$(sqlite3 "$db" "SELECT count(*) FROM env WHERE key = 'boot.clock' AND value = 'host'")" -eq 4 ] &&
	echo 0 || echo 1)" "and the host's clock where not asked"
sqlite3 "$T/ic.db" "UPDATE env SET value = 'host' WHERE key = 'boot.clock' AND run_id = 2"
status 0 "compare a boot on each clock" "$REAIM" compare base pti --db "$T/ic.db"
contains "$T/out" "in boot.clock: 'host' against 'icount'" "the clocks differ: warned"

# a build copied whole (the binary beside its suites and workfiles, no REAIM_DATADIR): its data is
# found beside it, and travels to the guest from there
mkdir -p "$T/copy/suites" "$T/copy/workfiles"
cp "$REAIM" "$T/copy/reaim"
printf 'name = "copied";\nworkfile = "copied";\n' >"$T/copy/suites/copied.cfg"
printf '10 add_int\n' >"$T/copy/workfiles/copied"
rm -f "$T/count"
status 0 "a copied build's own suite" env -u REAIM_DATADIR "$T/copy/reaim" vm --kernel a="$T/bzImage" --boots 1 \
	--db "$T/copy.db" -- -s copied -t 1
contains "$T/prog.1" "./data/suites/copied.cfg" "its suite on the program share"
contains "$T/prog.1" "./data/workfiles/copied" "and its workfile"
contains "$T/guest.1" "run -s copied -t 1" "named as given"

# the accelerator: a KVM whose guest hangs (probed within --timeout), one that fails at once, one
# that works; the answer remembered for this host boot, QEMU binary and device
: >"$T/kvm"
kvm_boot() { # kvm_boot DESCRIPTION [OPTION...]: one boot of base, the stand-in's calls counted afresh
	d=$1
	shift
	rm -f "$T/count"
	status 0 "$d" "$REAIM" vm --kernel base="$T/bzImage" --boots 1 --timeout 2 --db "$T/kvm.db" "$@" -- -f "$T/mix"
}
echo hang >"$T/kvm-mode"
kvm_boot "a KVM whose guest hangs"
contains "$T/err" "KVM did not boot a guest within 2 s (it hung): the guests run under TCG" "the probe's timeout, said"
contains "$T/qemu.1" "-accel kvm" "the probe tried KVM"
contains "$T/qemu.2" "-accel tcg" "the boot runs under TCG"
ok "$(sqlite3 "$T/kvm.db" "SELECT value FROM env WHERE key = 'boot.accel' ORDER BY run_id DESC LIMIT 1" | grep -qx tcg; echo $?)" \
	"boot.accel says tcg"
kvm_boot "the next reaim vm"
contains "$T/err" "as the KVM probe found earlier in this host's boot (KVM did not boot a guest within 2 s" "remembers the answer"
ok "$([ "$(cat "$T/count")" = 1 ] && echo 0 || echo 1)" "and probes no more"
touch -d '2001-01-01' "$T/qemu"
echo fail >"$T/kvm-mode"
kvm_boot "another QEMU binary"
contains "$T/err" "KVM failed at once: QEMU exited with status 1 after" "probed again: failed at once, said"
contains "$T/err" "failed to initialize kvm" "with QEMU's last line"
rm -f "$T/kvm-mode"
touch "$T/qemu"
kvm_boot "a KVM that works"
contains "$T/err" "a KVM guest booted in" "the probe booted"
contains "$T/qemu.2" "-accel kvm -cpu host" "the boot runs under KVM"
ok "$(sqlite3 "$T/kvm.db" "SELECT value FROM env WHERE key = 'boot.accel' ORDER BY run_id DESC LIMIT 1" | grep -qx kvm; echo $?)" \
	"boot.accel says kvm"
kvm_boot "--accel tcg" --accel tcg
contains "$T/qemu.1" "-accel tcg" "no probe, TCG"
ok "$([ "$(cat "$T/count")" = 1 ] && echo 0 || echo 1)" "one QEMU: the boot's"
status 1 "--accel kvm without the device" env REAIM_KVM_DEVICE="$T/no-kvm" "$REAIM" vm --accel kvm --kernel a="$T/bzImage" \
	--db "$T/kvm.db" -- -f "$T/mix"
contains "$T/err" "--accel kvm: cannot open $T/no-kvm" "named"
status 1 "--accel kvm with --icount" "$REAIM" vm --accel kvm --icount --kernel a="$T/bzImage" --db "$T/kvm.db" -- -f "$T/mix"
contains "$T/err" "cannot be had with --accel kvm" "refused"
rm -f "$T/kvm"

# what QEMU forks ends with its boot: a helper in its process group always; one that left the group
# (a daemon) where QEMU has a cgroup of its own
touch "$T/helpers"
rm -f "$T/count" "$T/helper.pid" "$T/daemon.pid"
status 0 "a QEMU that forks a helper and a daemon" "$REAIM" vm --kernel a="$T/bzImage" --boots 1 --db "$T/d.db" -- -f "$T/mix"
rm -f "$T/helpers"
cat "$T/helper.pid" "$T/daemon.pid" >>"$T/hung.pids" 2>/dev/null
ok "$([ -s "$T/helper.pid" ] && ! running "$(cat "$T/helper.pid")" && echo 0 || echo 1)" "its helper is gone"
if grep -q "QEMU is held by its process group" "$T/err"; then
	n=$((n + 1))
	echo "ok $n - its daemon is gone # SKIP no cgroup of its own here: $(sed -n 's/.*no cgroup of its own: \(.*\))$/\1/p' "$T/err" | head -1)"
	kill -KILL "$(cat "$T/daemon.pid")" 2>/dev/null
else
	ok "$([ -s "$T/daemon.pid" ] && ! running "$(cat "$T/daemon.pid")" && echo 0 || echo 1)" \
		"its daemon is gone with QEMU's cgroup"
fi

# a boot that panics once is retried in its place; one that fails twice is stored as failed
rm -f "$T/count"
echo 2 >"$T/panic"
status 0 "a panic is retried once" "$REAIM" vm --kernel a="$T/bzImage" --kernel b="$T/bzImage2" --db "$T/r.db" -- -f "$T/mix"
contains "$T/err" "boot 2 of 4 (b) failed: the guest never ran reaim" "the failed boot is named"
contains "$T/err" "Kernel panic - not syncing: boot 2" "with its console's last lines"
ok "$([ "$(sqlite3 "$T/r.db" "SELECT group_concat(label, ' ') FROM (SELECT label FROM runs ORDER BY id)")" = "a b b a" ] &&
	echo 0 || echo 1)" "the retry takes its place: still ABBA"
rm -f "$T/count"
printf '2\n3\n' >"$T/panic"
status 2 "a boot that fails twice: exit 2" "$REAIM" vm --kernel a="$T/bzImage" --kernel b="$T/bzImage2" --db "$T/f.db" -- -f "$T/mix"
ok "$([ "$(sqlite3 "$T/f.db" "SELECT group_concat(label || ':' || status, ' ') FROM (SELECT * FROM runs ORDER BY id)")" = "a:complete b:failed b:complete a:complete" ] &&
	echo 0 || echo 1)" "stored as a failed run in its place, the others go on"
contains "$T/out" "1 failed twice" "and said"
ok "$(sqlite3 "$T/f.db" "SELECT reason FROM runs WHERE status = 'failed'" | grep -q 'Kernel panic'; echo $?)" \
	"the failed run keeps the console's last lines"

# a hang is killed at --timeout and retried
rm -f "$T/count" "$T/panic"
echo 1 >"$T/hang"
status 0 "a hung boot is killed at its timeout" "$REAIM" vm --kernel a="$T/bzImage" --boots 2 --timeout 2 --db "$T/h.db" -- -f "$T/mix"
contains "$T/err" "no power-off within 2 s" "said as a timeout"
ok "$(kill -0 "$(cat "$T/hung.pid")" 2>/dev/null && echo 1 || echo 0)" "the hung QEMU is gone"

# Ctrl-C: no QEMU left, exit 3
rm -f "$T/count" "$T/hung.pid"
printf '1\n2\n' >"$T/hang"
start_session "$REAIM" vm --kernel a="$T/bzImage" --boots 2 --db "$T/i.db" -- -f "$T/mix" >"$T/out" 2>"$T/err"
i=0
while [ ! -s "$T/hung.pid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -INT "$session"
wait "$session"
ok "$([ $? -eq 3 ] && echo 0 || echo 1)" "Ctrl-C exits 3"
ok "$(kill -0 "$(cat "$T/hung.pid")" 2>/dev/null && echo 1 || echo 0)" "no QEMU left after Ctrl-C"
# SIGKILL of reaim: the kernel ends QEMU (PR_SET_PDEATHSIG); a daemon it started outlives it, until
# the next reaim vm kills what is left in the cgroups of one that is gone
rm -f "$T/count" "$T/hung.pid" "$T/daemon.pid"
touch "$T/helpers"
start_session "$REAIM" vm --kernel a="$T/bzImage" --boots 2 --db "$T/k.db" -- -f "$T/mix" >"$T/out" 2>"$T/err"
i=0
while [ ! -s "$T/hung.pid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -KILL "$session"
wait "$session" 2>/dev/null
i=0
while kill -0 "$(cat "$T/hung.pid")" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
ok "$(kill -0 "$(cat "$T/hung.pid")" 2>/dev/null && echo 1 || echo 0)" "no QEMU left after SIGKILL of reaim"
kill -KILL "$(cat "$T/hung.pid")" 2>/dev/null
rm -f "$T/helpers"
left=$(ls -d "$TMPDIR"/reaim-vm.* 2>/dev/null)
ok "$([ -n "$left" ] && [ -f "$left/owner" ] && echo 0 || echo 1)" "the killed reaim left its directory, naming its owner"
# a directory of a reaim vm still running is not touched, though its pid is none here (one in
# another pid namespace): its owner holds the lock
mkdir "$TMPDIR/reaim-vm.live"
echo 999999999 >"$TMPDIR/reaim-vm.live/owner"
sh -c 'exec 9>>"$1"; flock 9 && exec sleep 300' sh "$TMPDIR/reaim-vm.live/owner" &
holder=$!
echo $holder >>"$T/hung.pids"
i=0
while flock -n -s "$TMPDIR/reaim-vm.live/owner" true && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
rm -f "$T/hang" "$T/count"
status 0 "the next reaim vm" "$REAIM" vm --kernel a="$T/bzImage" --boots 1 --db "$T/k2.db" -- -f "$T/mix"
contains "$T/err" "removed $left, left by reaim vm process $session, which is gone" "sweeps what the killed one left, said"
cat "$T/daemon.pid" >>"$T/hung.pids" 2>/dev/null
if grep -q "QEMU is held by its process group" "$T/err"; then
	n=$((n + 1))
	echo "ok $n - the daemon of the killed one's QEMU is gone # SKIP no cgroup of its own here"
else
	# the next reaim vm sweeps it, this one or another checkout's running beside it: what counts is
	# that it is gone, and said where this one swept it
	killed_cg=$(find /sys/fs/cgroup -maxdepth 6 -type d -name "reaim-vm-$session-*" 2>/dev/null)
	ok "$([ -z "$killed_cg" ] && { grep -q "killed and removed 1 cgroup of reaim vm commands that are gone" "$T/err" ||
		! ls /run/lock/reaim-vm-"$session"-* /tmp/reaim-vm-"$session"-*.cgroup.lock >/dev/null 2>&1; } && echo 0 || echo 1)" \
		"its cgroup swept, said where this one swept it${killed_cg:+ (left: $killed_cg)}"
	ok "$([ -s "$T/daemon.pid" ] && ! running "$(cat "$T/daemon.pid")" && echo 0 || echo 1)" \
		"the daemon of the killed one's QEMU is gone with it"
fi
ok "$([ ! -e "$left" ] && echo 0 || echo 1)" "nothing of it is left"
ok "$([ -d "$TMPDIR/reaim-vm.live" ] && echo 0 || echo 1)" "a live reaim vm's directory is kept, whatever pid its owner file names"
kill "$holder"
wait "$holder" 2>/dev/null
rm -f "$T/count"
status 0 "a reaim vm once its owner's lock is free" "$REAIM" vm --kernel a="$T/bzImage" --boots 1 --db "$T/k2.db" -- -f "$T/mix"
ok "$([ ! -e "$TMPDIR/reaim-vm.live" ] && echo 0 || echo 1)" "sweeps it"

# a second reaim vm booting 9 other kernels while one is booting: the live one's initramfs is held,
# never pruned, and its next boot finds it
for i in 1 2 3 4 5 6 7 8 9; do cp "$T/bzImage" "$T/other$i"; printf '%s' "$i" >>"$T/other$i"; done
rm -f "$T/count" "$T/hung.pid"
echo 1 >"$T/hang"
start_session "$REAIM" vm --kernel live="$T/bzImage2" --boots 2 --timeout 60 --db "$T/live.db" -- -f "$T/mix" \
	>"$T/live.out" 2>"$T/live.err"
i=0
while [ ! -s "$T/hung.pid" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
rm -f "$T/hang"
live_initrd=$(sed -n 's/.* -initrd \([^ ]*\) .*/\1/p' "$T/qemu.1")
status 0 "a second reaim vm of 9 other kernels" "$REAIM" vm --kernel o1="$T/other1" --kernel o2="$T/other2" \
	--kernel o3="$T/other3" --kernel o4="$T/other4" --kernel o5="$T/other5" --kernel o6="$T/other6" \
	--kernel o7="$T/other7" --kernel o8="$T/other8" --kernel o9="$T/other9" --boots 9 --db "$T/o.db" -- -f "$T/mix"
ok "$([ -n "$live_initrd" ] && [ -f "$live_initrd" ] && echo 0 || echo 1)" "the live one's initramfs is not pruned"
contains "$T/err" "from the cache, which keeps the 8 kernels used last" "though the cache was pruned"
kill -KILL "$(cat "$T/hung.pid")" 2>/dev/null
wait "$session"
ok "$([ $? -eq 0 ] && echo 0 || echo 1)" "the live one's retry boots: exit 0"
ok "$([ "$(sqlite3 "$T/live.db" "SELECT count(*) FROM runs WHERE status = 'complete'")" = 2 ] && echo 0 || echo 1)" \
	"both its boots stored"

# bad words: named, exit 1
status 1 "an image that is not a kernel" "$REAIM" vm --kernel a="$T/mix" -- -f "$T/mix"
contains "$T/err" "$T/mix is not a kernel image" "named"
mkfifo "$T/kfifo"
status 1 "a fifo as the kernel image is refused, never waited on" timeout -k 1 10 "$REAIM" vm --kernel a="$T/kfifo" -- -f "$T/mix"
contains "$T/err" "a fifo, not a regular file" "said as a fifo"
status 1 "a missing image" "$REAIM" vm --kernel a="$T/nope" -- -f "$T/mix"
contains "$T/err" "$T/nope" "named"
mkfifo "$T/fifo"
status 1 "a FIFO as the image, refused at once" timeout 20 "$REAIM" vm --kernel a="$T/fifo" -- -f "$T/mix"
contains "$T/err" "kernel image $T/fifo: a fifo, not a regular file" "named"
status 1 "a name given twice" "$REAIM" vm --kernel a="$T/bzImage" --kernel a="$T/bzImage2" -- -f "$T/mix"
contains "$T/err" "the name a is given twice" "named"
status 1 "a quote in a command line" "$REAIM" vm --kernel a="$T/bzImage:x='1 2'" -- -f "$T/mix"
contains "$T/err" "quote" "named"
status 1 "boots not a multiple of the kernels" "$REAIM" vm --kernel a="$T/bzImage" --kernel b="$T/bzImage2" --boots 3 -- -f "$T/mix"
status 1 "the run's --label is the boot's" "$REAIM" vm --kernel a="$T/bzImage" -- -f "$T/mix" --label x
# the guests' run words are checked before the first boot: nothing booted, nothing stored
status 1 "a word before -- that is not reaim vm's" "$REAIM" vm --kernel a="$T/bzImage" pti=on --db "$T/w.db" -- -f "$T/mix"
contains "$T/err" "unexpected argument 'pti=on'" "named"
contains "$T/err" "the guests' reaim run would refuse these options" "refused before booting"
status 1 "a suite that is not there" "$REAIM" vm --kernel a="$T/bzImage" --db "$T/w.db" -- -s "$T/nosuch"
contains "$T/err" "$T/nosuch: cannot read suite" "named"
status 1 "--name with two suites" "$REAIM" vm --kernel a="$T/bzImage" --db "$T/w.db" -- -f "$T/mix" -s quick -s quick --name x
contains "$T/err" "names the workload of -f" "refused as reaim run refuses it"
ok "$([ -e "$T/w.db" ] && echo 1 || echo 0)" "no database made for refused words"
status 1 "no QEMU" env REAIM_QEMU="$T/no-qemu" "$REAIM" vm --kernel a="$T/bzImage" -- -f "$T/mix"
contains "$T/err" "apt-get install qemu-system-x86" "says how to install it"
finish
