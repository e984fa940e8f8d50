#!/bin/bash
# riscv64_sysroot.sh DIR: cross-build the libraries hwtrace needs for
# riscv64 from Debian bookworm's own source packages into DIR/sysroot
# (sources in DIR/src). Bookworm's archive has no riscv64 architecture,
# so `apt-get install libelf-dev:riscv64` cannot work; this needs a
# deb-src entry for bookworm (make deps-riscv64 adds it). Each library is
# built once: DIR/sysroot/.done-NAME marks it, so a second run costs
# nothing. A package whose source cannot be had stops the run, named.
set -euo pipefail
dir=$(realpath -m "${1:?usage: riscv64_sysroot.sh DIR}")
host=riscv64-linux-gnu
prefix=$dir/sysroot/usr
jobs=${JOBS:-$(nproc)}
mkdir -p "$dir/src" "$prefix"
export CC=$host-gcc AR=$host-ar RANLIB=$host-ranlib
export PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig
export CPPFLAGS="-I$prefix/include" LDFLAGS="-L$prefix/lib"

# fetch SOURCE_PACKAGE: unpack its Debian source (patches applied) and
# print the directory.
fetch() {
	local pkg=$1 d
	d=$(find "$dir/src" -maxdepth 1 -type d -name "$pkg-[0-9]*" | head -n 1)
	if [ -z "$d" ]; then
		(cd "$dir/src" && apt-get source -q "$pkg" >&2) || {
			echo "riscv64_sysroot: the Debian source of $pkg cannot be had (apt-get source $pkg failed)" >&2
			return 1; }
		d=$(find "$dir/src" -maxdepth 1 -type d -name "$pkg-[0-9]*" | head -n 1)
	fi
	echo "$d"
}
done_() { [ -e "$dir/sysroot/.done-$1" ]; }
mark() { touch "$dir/sysroot/.done-$1"; echo "riscv64_sysroot: $1 built"; }

# Every source first: a package that cannot be had stops the run before
# the long builds.
for pkg in zlib libzstd libseccomp elfutils protobuf-c iniparser; do
	fetch "$pkg" >/dev/null
done

if ! done_ zlib; then
	s=$(fetch zlib)
	(cd "$s" && CHOST=$host ./configure --prefix="$prefix" && make -j"$jobs" && make install)
	mark zlib
fi
if ! done_ zstd; then
	s=$(fetch libzstd)
	make -C "$s/lib" -j"$jobs" PREFIX="$prefix" install-shared install-includes install-pc
	mark zstd
fi
if ! done_ seccomp; then
	s=$(fetch libseccomp)
	(cd "$s" && ./configure --host=$host --prefix="$prefix" --disable-python &&
	 make -j"$jobs" -C src && make -C src install && make -C include install)
	mark seccomp
fi
if ! done_ elfutils; then
	s=$(fetch elfutils)
	# libdw.so links the backends' and libcpu's archives: they come first.
	(cd "$s" && ./configure --host=$host --prefix="$prefix" --disable-debuginfod \
		--enable-libdebuginfod=dummy --without-bzlib --without-lzma --without-zstd \
		--disable-nls &&
	 make -j"$jobs" -C lib && make -j"$jobs" -C libelf && make -j"$jobs" -C libebl &&
	 make -j"$jobs" -C libdwelf && make -j"$jobs" -C libdwfl &&
	 make -j"$jobs" -C backends && make -j"$jobs" -C libcpu &&
	 make -j"$jobs" -C libdw && make -j"$jobs" -C debuginfod &&
	 make -C libelf install && make -C libdw install && make -C debuginfod install)
	mark elfutils
fi
if ! done_ protobuf-c; then
	s=$(fetch protobuf-c)
	(cd "$s" && ./configure --host=$host --prefix="$prefix" --disable-protoc &&
	 make -j"$jobs" && make install)
	mark protobuf-c
fi
if ! done_ iniparser; then
	s=$(fetch iniparser)
	mkdir -p "$prefix/include/iniparser"
	"$CC" -O2 -fPIC -shared -o "$prefix/lib/libiniparser.so.1" -Wl,-soname,libiniparser.so.1 \
		"$s/src/dictionary.c" "$s/src/iniparser.c"
	ln -sf libiniparser.so.1 "$prefix/lib/libiniparser.so"
	cp "$s/src/dictionary.h" "$s/src/iniparser.h" "$prefix/include/iniparser/"
	mark iniparser
fi
echo "riscv64_sysroot: $dir/sysroot is complete"
