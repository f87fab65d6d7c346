#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# debian_kernel.sh CACHE: Debian's kernel for the tests that boot one, fetched once into CACHE: the
# linux-image-6.1.0-N-amd64 package apt offers (the one linux-image-amd64 depends on, else the newest
# 6.1.0 one apt knows), `apt-get download`, unpacked with `dpkg-deb -x` into CACHE/root. Prints the
# image's path; exits 1 saying why on stderr when there is none and none can be fetched.
set -u
cache=${1:?usage: debian_kernel.sh CACHE}
found() { ls "$cache"/root/boot/vmlinuz-* 2>/dev/null | head -1; }
image=$(found)
if [ -n "$image" ]; then echo "$image"; exit 0; fi
for tool in apt-get apt-cache dpkg-deb; do
	command -v "$tool" >/dev/null 2>&1 || { echo "no Debian kernel in $cache and no $tool to fetch one" >&2; exit 1; }
done
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-6\.1\.0-[0-9]*-amd64\)$/\1/p' | head -1)
[ -n "$pkg" ] || pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' 2>/dev/null | cut -d' ' -f1 | sort -V | tail -1)
[ -n "$pkg" ] || { echo "apt offers no linux-image-6.1.0-*-amd64 (apt-get update?)" >&2; exit 1; }
mkdir -p "$cache" || exit 1
tmp=$(mktemp -d "$cache/fetch.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && apt-get download "$pkg" >download.log 2>&1); then
	echo "apt-get download $pkg failed: $(tail -1 "$tmp/download.log")" >&2
	exit 1
fi
dpkg-deb -x "$tmp"/"$pkg"_*.deb "$tmp/root" && { [ -e "$cache/root" ] || mv "$tmp/root" "$cache/root"; }
image=$(found)
[ -n "$image" ] || { echo "cannot unpack $pkg into $cache/root" >&2; exit 1; }
echo "$image"
