#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The guests' root for `reaim lab --root`: an initramfs (cpio, gzip) holding busybox, reaim installed
# from a built tree with its libraries, the project's contrib/ at /opt/reaim (the definition
# reaim.sh), the kernel's modules for virtio disks and ext4 (LAVA's overlay disk), and an init that
# names the disks by UUID (LAVA mounts its overlay by /dev/disk/by-uuid) and gives a shell on the
# console with the prompt "root@reaim:~#".
# usage: lab-root.sh KERNEL-IMAGE OUT.cpio.gz [BUILDDIR]   (the modules: beside the image, as a Debian
# package unpacks, ../lib/modules/RELEASE, or /lib/modules/RELEASE)
set -eu
[ $# -ge 2 ] || { echo "usage: $0 KERNEL-IMAGE OUT.cpio.gz [BUILDDIR]" >&2; exit 1; }
image=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
build=${3:-$here/../..}
for t in busybox cpio gzip make ldd; do
	command -v "$t" >/dev/null 2>&1 || { echo "$0: $t is needed" >&2; exit 1; }
done
release=${image##*/vmlinuz-}
modules=$(dirname "$image")/../lib/modules/$release
[ -d "$modules" ] || modules=/lib/modules/$release
[ -d "$modules" ] || { echo "$0: no modules for $release beside $image or in /lib/modules" >&2; exit 1; }
[ -f "$modules/modules.dep" ] || depmod -b "${modules%/lib/modules/*}" "$release"

root=$(mktemp -d "${TMPDIR:-/tmp}/reaim-lab-root.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/lib/modules" "$root/opt/reaim" "$root/etc" "$root/root" "$root/proc" "$root/sys" "$root/dev"
cp "$(command -v busybox)" "$root/bin/busybox"
make -C "$build" install DESTDIR="$root" prefix=/usr/local >"$root/install.log" 2>&1 ||
	{ tail "$root/install.log" >&2; exit 1; }
rm -f "$root/install.log"
for lib in $(ldd "$root/usr/local/bin/reaim" | awk '/\// { print ($3 ~ /^\//) ? $3 : $1 }'); do
	mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib"
done
cp -R "$here/.." "$root/opt/reaim/contrib"
rm -rf "$root/opt/reaim/contrib/lava/output"
# each wanted module after what it depends on, from modules.dep (ext4 needs a crc32c it does not name)
for m in virtio_pci virtio_blk crc32c_generic ext4; do
	line=$(grep -E "/$m\.ko(\.xz)?:" "$modules/modules.dep" || true)
	[ -n "$line" ] || continue # built in
	for dep in $(echo "${line#*:}" | tr ' ' '\n' | tac) "${line%%:*}"; do
		[ -n "$dep" ] && [ ! -e "$root/lib/modules/$(basename "$dep")" ] || continue
		cp "$modules/$dep" "$root/lib/modules/" && basename "$dep" >>"$root/lib/modules/order"
	done
done
touch "$root/lib/modules/order"
echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
# LAVA ends a job with `poweroff`, which a shell as PID 1 would ignore
echo 'poweroff() { sync; command poweroff -f; }' >"$root/etc/shrc"
cat >"$root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/usr/local/bin HOME=/root ENV=/etc/shrc
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
mkdir -p /tmp /run /var/tmp /dev/disk/by-uuid
mount -t tmpfs tmpfs /tmp; mount -t tmpfs tmpfs /run; mount -t tmpfs tmpfs /var/tmp
while read -r m; do insmod "/lib/modules/$m"; done </lib/modules/order
ip link set lo up
sleep 1
# an ext2/3/4 disk's UUID is 16 bytes at 1128 (busybox has no blkid)
for d in /dev/vd? /dev/sd?; do
	[ -b "$d" ] || continue
	u=$(dd if="$d" bs=1 skip=1128 count=16 2>/dev/null | od -An -tx1 | tr -d ' \n' |
		sed 's/\(.\{8\}\)\(.\{4\}\)\(.\{4\}\)\(.\{4\}\)/\1-\2-\3-\4-/')
	[ ${#u} -eq 36 ] && ln -s "$d" "/dev/disk/by-uuid/$u"
done
cd /root
while :; do PS1='root@reaim:~# ' setsid cttyhack sh -i; done
EOF
chmod 755 "$root/init"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out: $(du -k "$out" | cut -f1) kB"
