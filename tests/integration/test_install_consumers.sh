# cmake --install into a temporary prefix, then three consumers built
# against that prefix only, and run: the docs/api.md example (C, through
# pkg-config, shared and static), examples/cxx-consumer (C++, through
# find_package(hwtrace), shared and static) and the out-of-tree backend
# examples/out-of-tree-backend (a plugin built with pkg-config's flags,
# registered with hwt_backend_register, recording through the emulator
# with its own sysfs fixture and decoding). Their outputs are checked
# against the installed `hwtrace decode`.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
P="$TMP/prefix"
cmake --install "$HWT_BUILD_DIR" --prefix "$P" >"$TMP/install.log" 2>&1
expect_eq "cmake --install" "$?" 0
pc=$(find "$P" -name hwtrace.pc)
export PKG_CONFIG_PATH=${pc%/hwtrace.pc}
libdir=$(pkg-config --variable=libdir hwtrace)
expect_eq "pkg-config version" "$(pkg-config --modversion hwtrace)" \
	"$(sed -n 's/^#define HWT_VERSION_STRING "\(.*\)"/\1/p' "$P/include/hwtrace/version.h")"
expect_eq "SONAME" "$(readelf -d "$libdir/libhwtrace.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')" \
	"libhwtrace.so.0"
for f in "$libdir/libhwtrace.a" "$libdir/cmake/hwtrace/hwtraceConfig.cmake" \
	"$P/bin/hwtrace" "$P/share/man/man1/hwtrace-record.1" \
	"$P/share/man/man5/hwtrace-profile.5" \
	"$P/share/bash-completion/completions/hwtrace" \
	"$P/share/hwtrace/configs/intel_pt_full.ini" "$P/include/hwtrace/backend.h"; do
	expect_eq "installed ${f#$P/}" "$([ -s "$f" ] && echo yes)" yes
done
HW="$P/bin/hwtrace"
# A sanitizer build installs an instrumented library: its consumers are
# built with the same runtime.
SAN=""
if readelf -d "$libdir/libhwtrace.so" | grep -q 'libasan'; then
	SAN="-fsanitize=address,undefined"
fi

# A capture to decode: the real ETM capture replayed by the installed CLI.
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"
mkdir -p "$TMP/symfs/data/local/tmp"
ln -s "$ETM/etm_test_loop" "$TMP/symfs/data/local/tmp/etm_test_loop"
"$HW" record --emulate "$ETM/perf_etm.data" --emulate-lossless -o "$TMP/etm.data" 2>/dev/null
"$HW" decode --format jsonl --symfs "$TMP/symfs" "$TMP/etm.data" >"$TMP/etm.jsonl" 2>/dev/null
sed -n 's/.*"type":"branch".*"from":"\(0x[0-9a-f]*\)","to":"\(0x[0-9a-f]*\)","kind":"\([a-z]*\)".*/\3 \1 \2/p' \
	"$TMP/etm.jsonl" >"$TMP/want.branches"
expect_eq "hwtrace decode branches" "$(wc -l <"$TMP/want.branches")" 207

# 1. The C example of docs/api.md, as the document shows it.
awk '/^```c$/ { on = 1; next } /^```$/ { on = 0 } on' "$HWT_SOURCE_DIR/docs/api.md" >"$TMP/branches.c"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror $SAN "$TMP/branches.c" -o "$TMP/branches" \
	$(pkg-config --cflags --libs hwtrace) 2>"$TMP/cc.err"
expect_eq "api.md example builds (shared)" "$?" 0
cat "$TMP/cc.err" >&2
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror $SAN "$TMP/branches.c" -o "$TMP/branches-static" \
	$(pkg-config --cflags hwtrace) "$libdir/libhwtrace.a" \
	$(pkg-config --libs --static hwtrace | sed 's/-lhwtrace//') 2>"$TMP/cc.err"
status=$?
expect_eq "api.md example builds (static)" "$status" 0
cat "$TMP/cc.err" >&2
expect_eq "static: no libhwtrace.so needed" \
	"$(readelf -d "$TMP/branches-static" | grep -c 'libhwtrace')" 0
for prog in branches branches-static; do
	LD_LIBRARY_PATH="$libdir" "$TMP/$prog" "$TMP/etm.data" "$TMP/symfs" >"$TMP/$prog.out" 2>"$TMP/$prog.err"
	expect_eq "$prog runs" "$?" 0
	expect_eq "$prog summary" "$(cat "$TMP/$prog.err")" "207 branches, $(grep -c '"type":"gap"' "$TMP/etm.jsonl") gaps"
	awk '{ print $(NF-3), $(NF-2), $NF }' "$TMP/$prog.out" >"$TMP/$prog.branches"
	expect_eq "$prog: branches as hwtrace decode" \
		"$(cmp -s "$TMP/$prog.branches" "$TMP/want.branches" && echo same)" same
done

# 2. C++ through find_package(hwtrace).
cmake -S "$HWT_SOURCE_DIR/examples/cxx-consumer" -B "$TMP/cxx" -DCMAKE_PREFIX_PATH="$P" \
	-DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$SAN" -DCMAKE_CXX_FLAGS="$SAN" \
	-DCMAKE_EXE_LINKER_FLAGS="$SAN" >"$TMP/cxx.log" 2>&1 &&
	cmake --build "$TMP/cxx" -j2 >>"$TMP/cxx.log" 2>&1
status=$?
expect_eq "cxx-consumer builds" "$status" 0
[ "$status" = 0 ] || tail -20 "$TMP/cxx.log" >&2
# (hwtrace decode's jsonl opens with a header line, which is no element.)
want=$(sed -n 's/^{"type":"\([a-z_]*\)".*/\1/p' "$TMP/etm.jsonl" | grep -v '^header$' | sort | uniq -c | awk '{ print $2, $1 }')
for prog in element_counts element_counts_static; do
	LD_LIBRARY_PATH="$libdir" "$TMP/cxx/$prog" "$TMP/etm.data" "$TMP/symfs" >"$TMP/$prog.out" 2>/dev/null
	expect_eq "$prog runs" "$?" 0
	expect_eq "$prog: element counts as hwtrace decode" "$(tail -n +2 "$TMP/$prog.out")" "$want"
done
expect_eq "element_counts links the shared library" \
	"$(readelf -d "$TMP/cxx/element_counts" | grep -c 'libhwtrace.so.0')" 1

# 3. The out-of-tree backend, built as its Makefile builds it.
cp -r "$HWT_SOURCE_DIR/examples/out-of-tree-backend" "$TMP/toy"
make -C "$TMP/toy" CFLAGS="-O2 -Wall -Wextra -Wno-unused-parameter -Werror" >"$TMP/toy.log" 2>&1
status=$?
expect_eq "toy_trace builds against the install" "$status" 0
[ "$status" = 0 ] || cat "$TMP/toy.log" >&2
# Two branches, 16-byte records {from, to}: 0x401000->0x402000, 0x402008->0x403000.
printf '\x00\x10\x40\0\0\0\0\0\x00\x20\x40\0\0\0\0\0\x08\x20\x40\0\0\0\0\0\x00\x30\x40\0\0\0\0\0' >"$TMP/toy.bin"
"$HW" --plugin "$TMP/toy/toy_trace.so" list --sysfs "$TMP/toy/sysfs" >"$TMP/toy.list"
expect_contains "the fake PMU is listed as supported" "$(cat "$TMP/toy.list")" \
	"toy_trace: type 42, toy branch trace (an out-of-tree example backend), supported"
"$HW" --plugin "$TMP/toy/toy_trace.so" record --sysfs "$TMP/toy/sysfs" \
	--emulate-trace "$TMP/toy.bin" -e toy_trace// -o "$TMP/toy.data" 2>"$TMP/toy.rec"
expect_eq "record through the emulator" "$?" 0
expect_contains "both CPUs captured" "$(cat "$TMP/toy.rec")" "cpu 1: 32 bytes captured"
"$HW" --plugin "$TMP/toy/toy_trace.so" decode --format jsonl "$TMP/toy.data" 2>/dev/null |
	grep '"type":"branch"' >"$TMP/toy.out"
expect_eq "decoded by the plugin" "$(cat "$TMP/toy.out")" \
'{"type":"branch","cpu":0,"from":"0x401000","to":"0x402000","kind":"jump"}
{"type":"branch","cpu":0,"from":"0x402008","to":"0x403000","kind":"jump"}
{"type":"branch","cpu":1,"from":"0x401000","to":"0x402000","kind":"jump"}
{"type":"branch","cpu":1,"from":"0x402008","to":"0x403000","kind":"jump"}'
"$HW" decode "$TMP/toy.data" >/dev/null 2>"$TMP/toy.err"
expect_eq "without the plugin: exit status" "$?" 1
expect_contains "without the plugin: message" "$(cat "$TMP/toy.err")" \
	"no backend decodes AUXTRACE type 7630713"
finish
