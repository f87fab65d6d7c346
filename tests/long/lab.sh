#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# reaim lab on a real LAVA lab, set up on this machine by contrib/lava/lab-setup.sh (lava-server,
# a worker, two QEMU devices under TCG, the identity reaim-lab): Debian's kernel against itself with
# pti=on, 4 boots on the 2 devices, the quick suite at 1 and 2 tasks. The first call is stopped once
# its first jobs are out and a second finishes the comparison without submitting any job again; every
# boot's run is in the database naming its job and device, every figure each job reported to LAVA
# equals the merged run's, and compare judges the kernels with the devices as blocks. Needs root,
# Debian's lava-server, lava-dispatcher, lavacli, qemu-system-x86, busybox-static and cpio; skipped
# saying which is missing.
. "$(dirname "$0")/../functional/lib.sh"

if [ "$(id -u)" != 0 ]; then
	echo "ok 1 - a comparison on a LAVA lab # SKIP not root (lab-setup.sh installs and starts a lab)"
	echo "1..1"
	exit 0
fi
if ! have "a comparison on a LAVA lab" lava-server lava-worker lavacli qemu-system-x86_64 busybox cpio python3 curl; then
	finish
	exit
fi
BUILDDIR=${REAIM_BUILDDIR:-$(dirname "$REAIM")}
cache=${REAIM_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reaim/kernel}
image=$(sh "$SRCDIR/tests/long/debian_kernel.sh" "$cache")
if [ -z "$image" ]; then
	echo "ok 1 - a comparison on a LAVA lab # SKIP no Debian kernel (tests/long/debian_kernel.sh could not fetch one)"
	echo "1..1"
	exit 0
fi
start=$(date +%s)
LAB_KERNEL=$image sh "$SRCDIR/contrib/lava/lab-setup.sh" >"$T/setup.log" 2>&1
ok $? "lab-setup.sh: a lab on the loopback ($(($(date +%s) - start)) s)"
tail -3 "$T/setup.log" | sed 's/^/#   /'
sh "$SRCDIR/contrib/lava/lab-root.sh" "$image" "$T/root.cpio.gz" "$BUILDDIR" >"$T/root.log" 2>&1
ok $? "lab-root.sh: the guests' root"

# (in a subshell it replaces: the first call's pid is reaim's, which the stop signal reaches). One
# virtual CPU a guest: with two, the two devices' four TCG threads on this 2-core machine wedged 2 of 12
# guests for good (no console line, not even -T's timeout ran), each until LAVA's timeout.
lab() {
	exec "$REAIM" lab --identity reaim-lab --device-type qemu --kernel "base=$image" --kernel "pti=$image:pti=on" \
		--root "$T/root.cpio.gz" --boots 4 --qemu-option '-smp 1' --timeout 15 --db "$T/lab.db" \
		-- -s quick -t 1,2 -j 10
}
# the first call, stopped once two jobs are out
start=$(date +%s)
(lab) >"$T/out1" 2>"$T/err1" &
first=$!
for _ in $(seq 120); do
	[ "$(grep -c ': submitted$' "$T/out1")" -ge 2 ] && break
	sleep 1
done
kill -INT "$first"
wait "$first"
ok "$([ $? -eq 3 ] && echo 0 || echo 1)" "the first call stopped once two jobs were out (exit 3)"
(lab) >"$T/out2" 2>"$T/err2"
rc=$?
echo "# the comparison took $(($(date +%s) - start)) s"
sed 's/^/#   /' "$T/out2" | tail -40
sed 's/^/#   /' "$T/err2" | tail -5
ok "$([ $rc -le 5 ] && [ $rc -ne 1 ] && [ $rc -ne 2 ] && [ $rc -ne 3 ] && echo 0 || echo 1)" "the second call finished the comparison and compared (exit $rc)"
cat "$T/out1" "$T/out2" | sed -n 's/^job \([0-9]*\): .*: submitted$/\1/p' | sort | uniq -d >"$T/twice"
ok "$([ ! -s "$T/twice" ] && echo 0 || echo 1)" "no job submitted twice"
contains "$T/out2" "reaim lab: 4 of 4 jobs merged" "every boot's run merged"
nruns=$(sqlite3 "$T/lab.db" "SELECT count(*) FROM runs r JOIN env d ON d.run_id = r.id AND d.key = 'lab.device'
	JOIN env j ON j.run_id = r.id AND j.key = 'lab.job'" 2>/dev/null)
ok "$([ "${nruns:-0}" -eq 4 ] && echo 0 || echo 1)" "4 runs, each naming its job and device"
contains "$T/out2" "blocked by device" "compare pairs the kernels' runs by device, and says so"

# every figure each job gave LAVA is the merged run's
python3 - "$T/lab.db" "$REAIM" >"$T/figures" 2>&1 <<'EOF'
import json, os, sqlite3, subprocess, sys, urllib.request, yaml
db, reaim = sys.argv[1:]
ident = yaml.safe_load(open(os.path.join(os.environ.get("XDG_CONFIG_HOME", os.path.expanduser("~/.config")), "lavacli.yaml")))["reaim-lab"]
base = ident["uri"].rsplit("/RPC2", 1)[0]
bad = 0
for run, job in sqlite3.connect(db).execute("SELECT run_id, value FROM env WHERE key = 'lab.job'"):
    req = urllib.request.Request("%s/api/v0.2/jobs/%s/logs/" % (base, job), headers={"Authorization": "Token " + ident["token"]})
    got = {}
    for entry in yaml.safe_load(urllib.request.urlopen(req).read()) or []:
        m = entry.get("msg")
        if entry.get("lvl") == "results" and isinstance(m, dict) and "measurement" in m and m.get("definition") != "lava":
            got[m["case"]] = float(m["measurement"])
    want = {}
    for line in subprocess.run([reaim, "export", str(run), "--format", "lava", "--db", db], capture_output=True, text=True).stdout.splitlines():
        w = line.split()
        if len(w) >= 3:
            want[w[0]] = float(w[2])
    same = want and all(k in got and abs(got[k] - v) <= 1e-6 * max(1, abs(v)) for k, v in want.items())
    print("job %s run %s: %d figures, %d reported, %s" % (job, run, len(want), len(got), "equal" if same else "DIFFERENT"))
    bad += not same
sys.exit(1 if bad else 0)
EOF
ok $? "every figure of every job equals the merged database's"
sed 's/^/#   /' "$T/figures"
finish
