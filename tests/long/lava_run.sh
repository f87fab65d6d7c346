#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The project's LAVA test definition run by a real LAVA dispatcher: Debian's lava-run with a QEMU
# device (the device-type templates of Debian's lava-server package, rendered as lava-server
# renders a device dictionary), Debian's kernel booted under TCG with a busybox root in an initramfs
# holding reaim installed by `make install`, and an inline test definition calling
# contrib/lava/reaim.sh. Two jobs, one a side (the second boots with pti=on): each finishes
# correctly with every figure a test case, `reaim merge --from-lava-log` takes each job's database
# out of its YAML log, and `reaim compare` judges the two. Needs lava-dispatcher, qemu-system-x86,
# busybox-static, python3-jinja2, cpio and apt-get (for the kernel and lava-server's templates).
. "$(dirname "$0")/../functional/lib.sh"

if ! have "a LAVA job run by lava-run" lava-run qemu-system-x86_64 busybox cpio python3 apt-get dpkg-deb; then
	finish
	exit
fi
python3 -c 'import jinja2' 2>/dev/null || { echo "ok 1 - a LAVA job run by lava-run # SKIP no python3-jinja2"; echo "1..1"; exit 0; }
BUILDDIR=${REAIM_BUILDDIR:-$(dirname "$REAIM")}
cache=${REAIM_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reaim/kernel}
mkdir -p "$cache"

# download PACKAGE_REGEX: the newest Debian package of that name unpacked into $cache/root (the
# kernel comes from debian_kernel.sh, as the boot test's)
download() {
	pkg=$(apt-cache search --names-only "$1" | cut -d' ' -f1 | sort -V | tail -1)
	[ -n "$pkg" ] && (cd "$cache" && apt-get download "$pkg" >/dev/null 2>&1) &&
		dpkg-deb -x "$(ls "$cache"/"$pkg"_*.deb | tail -1)" "$cache/root"
}
image=$(sh "$SRCDIR/tests/long/debian_kernel.sh" "$cache")
templates=
for d in /etc/lava-server/dispatcher-config/device-types /usr/share/lava-server/device-types \
	"$cache/root/usr/share/lava-server/device-types"; do
	[ -f "$d/qemu.jinja2" ] && { templates=$d; break; }
done
[ -n "$templates" ] || { download '^lava-server$'; templates=$cache/root/usr/share/lava-server/device-types; }
ok "$([ -n "$image" ] && [ -f "$templates/qemu.jinja2" ] && echo 0 || echo 1)" \
	"a Debian kernel ($image) and LAVA's QEMU device type ($templates)"
[ -n "$image" ] && [ -f "$templates/qemu.jinja2" ] || { finish; exit; }
release=${image##*/vmlinuz-}
modules=$(cd "$(dirname "$image")/../lib/modules/$release" && pwd)
# a kernel unpacked from its package has no modules.dep until depmod makes it (supermin needs it too)
[ -f "$modules/modules.dep" ] || depmod -b "${modules%/lib/modules/*}" "$release"

# The guest's root (contrib/lava/lab-root.sh, as reaim lab's): busybox, the kernel's modules for virtio
# disks and ext4 (LAVA's overlay disk), reaim installed with its libraries, the test definition; its
# init names the disks by UUID and gives a shell on the console.
sh "$SRCDIR/contrib/lava/lab-root.sh" "$image" "$T/rootfs.cpio.gz" "$BUILDDIR" >"$T/root.log" 2>&1
ok $? "the guest's initramfs ($(du -k "$T/rootfs.cpio.gz" 2>/dev/null | cut -f1) kB)"

# the device, rendered from its dictionary and the job's context as lava-server does
cat >"$T/qemu01.jinja2" <<'EOF'
{% extends 'qemu.jinja2' %}
{% set netdevice = 'user' %}
{% set memory = 1024 %}
{% set no_kvm = True %}
{% set guestfs_interface = 'virtio' %}
EOF
python3 - "$templates" "$T" >"$T/qemu01.yaml" <<'EOF'
import sys, jinja2
env = jinja2.Environment(loader=jinja2.FileSystemLoader([sys.argv[2], sys.argv[1]]), autoescape=False, trim_blocks=True)
# the job's context, as lava-server renders the device for a job
print(env.get_template("qemu01.jinja2").render(arch="amd64", extra_options=["-accel tcg", "-smp 2"]))
EOF
ok $? "the device dictionary rendered"

# job SIDE CMDLINE: one boot of one side
job() {
	cat <<EOF
device_type: qemu
job_name: reaim $1
timeouts: {job: {minutes: 20}, action: {minutes: 15}, connection: {minutes: 2}}
priority: medium
visibility: public
context:
  arch: amd64
  extra_options: ['-accel tcg', '-smp 2']
actions:
- deploy:
    to: tmpfs
    images:
      kernel:
        image_arg: -kernel {kernel} -append "console=ttyS0,115200 rdinit=/init panic=-1 $2"
        url: file://$image
      initrd:
        image_arg: -initrd {initrd}
        url: file://$T/rootfs.cpio.gz
- boot:
    method: qemu
    media: tmpfs
    prompts: ['root@reaim:~#']
- test:
    timeout: {minutes: 8}
    definitions:
    - repository:
        metadata: {format: Lava-Test Test Definition 1.0, name: reaim}
        run:
          steps:
          - cd /opt/reaim/contrib/lava && ./reaim.sh -b /usr/local/bin/reaim -s quick -t 1,2 -j 10 -l $1 -S true
      from: inline
      name: reaim-$1
      path: inline/reaim.yaml
EOF
}
export LIBGUESTFS_BACKEND_SETTINGS=force_tcg SUPERMIN_KERNEL="$image" SUPERMIN_MODULES="$modules"
i=0
for side in base pti; do
	i=$((i + 1))
	[ $side = pti ] && cmdline=pti=on || cmdline=
	job $side "$cmdline" >"$T/job-$side.yaml"
	start=$(date +%s)
	lava-run --job-id $i --output-dir "$T/out-$side" --device "$T/qemu01.yaml" "$T/job-$side.yaml" >"$T/lava-$side.log" 2>&1
	rc=$?
	echo "# job $side took $(($(date +%s) - start)) s"
	# lava-run writes the job's log on its standard output; the output dir holds the results
	ok "$([ $rc -eq 0 ] && grep -q '"Job finished correctly"' "$T/lava-$side.log" && echo 0 || echo 1)" \
		"lava-run: the $side job finished correctly"
	grep -q '"Job finished correctly"' "$T/lava-$side.log" || grep -v '"lvl": "debug"' "$T/lava-$side.log" | tail -20 | sed 's/^/#   /'
	contains "$T/lava-$side.log" "TEST_CASE_ID=reaim-run-quick RESULT=pass" "the $side job's run is a passing test case"
	status 0 "merge --from-lava-log the $side job's log" "$REAIM" merge --from-lava-log "$T/lava-$side.log" --db "$T/lab.db"
done
ok "$([ "$(sqlite3 "$T/lab.db" "SELECT group_concat(label, ' ') FROM (SELECT label FROM runs ORDER BY id)")" = "base pti" ] &&
	echo 0 || echo 1)" "both jobs' runs in one database, labelled"
"$REAIM" compare base pti --db "$T/lab.db" >"$T/out" 2>&1
rc=$?
sed 's/^/#   /' "$T/out" | head -30
ok "$([ $rc -le 5 ] && grep -q "Workload" "$T/out" && echo 0 || echo 1)" "compare base pti judges the two jobs (exit $rc)"
finish
