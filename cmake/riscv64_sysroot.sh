#!/bin/bash
# riscv64_sysroot.sh DIR PACKAGE...: lay out a riscv64 sysroot in
# DIR/sysroot from Debian trixie's riscv64 binary packages: PACKAGEs (the
# -dev packages hwtrace builds against, and libc6-dev) and every package
# they depend on, unpacked with `dpkg -x`.
#
# Why trixie: bookworm, this machine's release, has no riscv64
# architecture, so there are no libfoo-dev:riscv64 multiarch packages to
# install; trixie (Debian 13) has riscv64 as an official architecture.
# Nothing is installed on the host: apt runs with a private configuration
# (sources, lists, cache and an empty dpkg status, all in DIR/apt) that
# knows riscv64 only, resolves the dependencies and downloads the .debs.
# The archive is the one this machine's apt uses for bookworm (read from
# /etc/apt), or HWT_DEBIAN_MIRROR; its trixie signature is checked with
# debian-archive-keyring.
#
# Trixie's glibc (2.41) is newer than the one beside bookworm's cross
# compiler (2.36), and trixie's libraries need its symbols
# (__isoc23_strtol@GLIBC_2.38), so the sysroot's own libc6-dev is used for
# everything: cmake/riscv64-linux-gnu.cmake compiles with its headers
# first and links with its libraries first, and qemu-riscv64 -L DIR/sysroot
# runs the programs with its loader and libc.
#
# DIR/sysroot/.hwtrace-sysroot lists the packages and versions unpacked;
# a second run with the same PACKAGEs costs nothing, a run with others
# lays the sysroot out anew (only a sysroot this script made is removed).
set -euo pipefail
dir=${1:?usage: riscv64_sysroot.sh DIR PACKAGE...}
shift
[ "$#" -gt 0 ] || { echo "usage: riscv64_sysroot.sh DIR PACKAGE..." >&2; exit 2; }
mkdir -p "$dir"
dir=$(realpath "$dir")
sysroot=$dir/sysroot
stamp=$sysroot/.hwtrace-sysroot
suite=trixie
host_triple=riscv64-linux-gnu
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# The first line of the stamp: the layout (raise it when this script
# changes what it lays out) and the packages asked for.
want="layout 4; packages: $*"

if [ -e "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$want" ]; then
	echo "riscv64_sysroot: $sysroot is there ($(($(wc -l <"$stamp") - 1)) packages)"
	exit 0
fi
if [ -e "$sysroot" ] && [ ! -e "$stamp" ]; then
	echo "riscv64_sysroot: $sysroot exists and was not made by this script; move it away and run again" >&2
	exit 1
fi

# The Debian archive this machine's apt reads bookworm from.
mirror() {
	if [ -n "${HWT_DEBIAN_MIRROR:-}" ]; then
		echo "$HWT_DEBIAN_MIRROR"
		return
	fi
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		# deb822 stanzas: the URIs of one whose Suites has "bookworm".
		awk 'BEGIN { RS = ""; FS = "\n" }
		function has(line, word,   n, w, i) {
			n = split(line, w, /[ \t]+/)
			for (i = 2; i <= n; i++) if (w[i] == word) return 1
			return 0
		}
		{
			uri = ""; deb = 0; suite = 0
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^Types:/ && has($i, "deb")) deb = 1
				if ($i ~ /^Suites:/ && has($i, "bookworm")) suite = 1
				if ($i ~ /^URIs:/) { split($i, w, /[ \t]+/); uri = w[2] }
			}
			if (deb && suite && uri != "") { print uri; exit }
		}' "$f"
	done
	if [ -e /etc/apt/sources.list ]; then
		awk '$1 == "deb" { for (i = 2; i < NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/ && $(i + 1) == "bookworm") { print $i; exit } }' \
			/etc/apt/sources.list
	fi
}
uri=$(mirror | head -n 1)
if [ -z "$uri" ]; then
	echo "riscv64_sysroot: no Debian archive for bookworm in /etc/apt (sources.list or sources.list.d/*.sources); set HWT_DEBIAN_MIRROR to a Debian archive URL that carries $suite's riscv64 packages" >&2
	exit 1
fi
if [ ! -r "$keyring" ]; then
	echo "riscv64_sysroot: $keyring is missing: install debian-archive-keyring" >&2
	exit 1
fi

apt=$dir/apt
mkdir -p "$apt/lists/partial" "$apt/archives/partial"
: >"$apt/status"
echo "deb [arch=riscv64 signed-by=$keyring] $uri $suite main" >"$apt/sources.list"
aptopts=(
	-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
	-o Dir::State="$apt" -o Dir::State::Lists="$apt/lists"
	-o Dir::State::status="$apt/status" -o Dir::Cache="$apt" -o Dir::Cache::Archives="$apt/archives"
	-o APT::Architecture=riscv64 -o APT::Architectures::=riscv64
	-o APT::Install-Recommends=false -o APT::Install-Suggests=false
	# The private cache is in the build tree, which apt's download user
	# may not be able to write.
	-o APT::Sandbox::User=root
)
# Only this run's downloads are unpacked.
rm -f "$apt"/archives/*.deb
echo "riscv64_sysroot: $suite riscv64 packages from $uri"
apt-get "${aptopts[@]}" -q update ||
	{ echo "riscv64_sysroot: apt-get update of $uri $suite (riscv64) failed: see above" >&2; exit 1; }
apt-get "${aptopts[@]}" -q -y install --download-only "$@" ||
	{ echo "riscv64_sysroot: the $suite riscv64 packages could not be downloaded (apt-get install --download-only $*): see above" >&2; exit 1; }

# Unpack into a new tree and put it in place at the end, so that an
# interrupted run leaves no half sysroot behind.
new=$sysroot.new
rm -rf "$new"
trap 'rm -rf "$new"' EXIT
mkdir -p "$new"
echo "$want" >"$new/.hwtrace-sysroot.tmp"
for deb in "$apt"/archives/*.deb; do
	dpkg -x "$deb" "$new"
	dpkg-deb -f "$deb" Package Version | paste -sd ' ' >>"$new/.hwtrace-sysroot.tmp"
done
# Trixie's packages put everything under /usr (merged /usr); the loader
# path in every program (/lib/ld-linux-riscv64-lp64d.so.1) and the paths
# in libc.so's linker script go through /lib, which base-files would make
# a link on a real system.
for d in lib bin sbin; do
	[ -e "$new/$d" ] || ln -s "usr/$d" "$new/$d"
done
# The kernel's headers are bookworm's (Linux 6.1, linux-libc-dev-riscv64-cross,
# which the cross compiler depends on), as in the x86-64 and arm64 builds:
# perf.data files carry sizeof(struct perf_event_attr) of the headers
# hwtrace is built with, and trixie's (6.12) give a larger one than perf
# 6.1, the tests' independent reader, accepts ("more recent and
# unsupported ABI"). With the same headers every build writes the same
# bytes. The C library's headers do not need newer kernel headers.
kdeb=$(find "$apt/archives" -maxdepth 1 -name 'linux-libc-dev_*.deb' | head -n 1)
kcross=/usr/$host_triple/include
if [ -n "$kdeb" ]; then
	dpkg-deb --fsys-tarfile "$kdeb" | tar -t | grep -v '/$' | sed 's|^\./||' |
		while read -r f; do rm -f "$new/$f"; done
	find "$new/usr/include" -type d -empty -delete
fi
if ! dpkg -L linux-libc-dev-riscv64-cross >/dev/null 2>&1; then
	echo "riscv64_sysroot: linux-libc-dev-riscv64-cross is not installed (the kernel headers of the cross compiler): install gcc-riscv64-linux-gnu" >&2
	exit 1
fi
mkdir -p "$new/usr/include"
dpkg -L linux-libc-dev-riscv64-cross | sed -n "s|^$kcross/||p" |
	(cd "$kcross" && while read -r f; do [ -d "$f" ] || printf '%s\n' "$f"; done) |
	tar -C "$kcross" -c -T - | tar -C "$new/usr/include" -x
# Bookworm's riscv64 g++ (GCC 12) would link its own libstdc++, older
# than the one trixie's C++ libraries (OpenCSD) were built with: they need
# GLIBCXX_3.4.32. The development link (libstdc++-dev's job on a real
# system) makes it link the sysroot's, which runs its older code too.
if [ -e "$new/usr/lib/riscv64-linux-gnu/libstdc++.so.6" ]; then
	ln -s libstdc++.so.6 "$new/usr/lib/riscv64-linux-gnu/libstdc++.so"
fi
# A link to an absolute path would point into the host's /usr.
if find "$new" -type l -lname '/*' | grep -q .; then
	echo "riscv64_sysroot: links to absolute paths in the unpacked packages:" >&2
	find "$new" -type l -lname '/*' -printf '  %p -> %l\n' >&2
	exit 1
fi
mv "$new/.hwtrace-sysroot.tmp" "$new/.hwtrace-sysroot"
rm -rf "$sysroot"
mv "$new" "$sysroot"
trap - EXIT
echo "riscv64_sysroot: $sysroot has $(($(wc -l <"$stamp") - 1)) packages"
