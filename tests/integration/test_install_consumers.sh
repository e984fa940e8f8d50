# cmake --install into a temporary prefix, then three consumers built
# against that prefix only, and run: the docs/api.md examples (C, through
# pkg-config, shared, static and with an rpath, with the document's own
# command lines; a cursor counting branches), examples/cxx-consumer (C++, through
# find_package(hwtrace), shared and static) and the out-of-tree backend
# examples/out-of-tree-backend (a plugin built with pkg-config's flags,
# registered with hwt_backend_register, recording through the emulator
# with its own sysfs fixture and decoding), and examples/record_emulated.c
# (built with the line of its comment: records a BTS trace it makes through
# the emulator with hwt_record_setup and hwt_recorder, then counts its
# branches with a cursor). Their outputs are checked against the installed
# `hwtrace decode`, and the recorded file against perf report -D and the
# branches the example fed the emulator.
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

# 1. The C examples of docs/api.md, as the document shows them: each
# ```c block is saved as the file its first line names, and built and run
# with the document's own command lines, in a folder of their own.
W="$TMP/doc"
mkdir -p "$W"
awk -v dir="$W" '
	/^```c$/ { on = 1; file = ""; next }
	/^```$/ { on = 0; next }
	on && file == "" { split($2, a, ":"); file = dir "/" a[1] }
	on { print > file }' "$HWT_SOURCE_DIR/docs/api.md"
expect_eq "api.md examples" "$(cd "$W" && ls)" "branches.c
count_branches.c"
# The pkg-config lines: the block after "With pkg-config", and the
# rpath line.
doc_lines() {
	awk -v from="$1" 'index($0, from) { on = 1; next }
		on && /^```$/ { if (inb) exit; inb = 1; next }
		on && inb' "$HWT_SOURCE_DIR/docs/api.md"
}
run_doc() { (cd "$W" && bash -e -c "$1") 2>"$TMP/cc.err"; }
builds=$(doc_lines "With pkg-config")
expect_eq "documented build lines" "$(wc -l <<<"$builds")" 2
while IFS= read -r line; do
	[ -n "$SAN" ] && line="$line $SAN"
	run_doc "$line"
	expect_eq "api.md: $line" "$?" 0
	cat "$TMP/cc.err" >&2
done <<<"$builds"
expect_eq "static: no libhwtrace.so needed" \
	"$(readelf -d "$W/branches-static" | grep -c 'libhwtrace')" 0
expect_eq "shared: libhwtrace.so.0 needed" \
	"$(readelf -d "$W/branches" | grep -c 'NEEDED.*libhwtrace.so.0')" 1
for prog in branches branches-static; do
	LD_LIBRARY_PATH="$libdir" "$W/$prog" "$TMP/etm.data" "$TMP/symfs" >"$TMP/$prog.out" 2>"$TMP/$prog.err"
	expect_eq "$prog runs" "$?" 0
	expect_eq "$prog summary" "$(cat "$TMP/$prog.err")" "207 branches, $(grep -c '"type":"gap"' "$TMP/etm.jsonl") gaps"
	awk '{ print $(NF-3), $(NF-2), $NF }' "$TMP/$prog.out" >"$TMP/$prog.branches"
	expect_eq "$prog: branches as hwtrace decode" \
		"$(cmp -s "$TMP/$prog.branches" "$TMP/want.branches" && echo same)" same
done
# Without the library on the loader path the shared build does not start;
# with LD_LIBRARY_PATH, or built with the rpath line, it does.
cp "$TMP/etm.data" "$W/perf.data"
(cd "$W" && env -u LD_LIBRARY_PATH ./branches perf.data) >/dev/null 2>"$TMP/ld.err"
expect_eq "no loader path: does not start" "$?" 127
expect_contains "no loader path: the loader says why" "$(cat "$TMP/ld.err")" "libhwtrace.so.0"
run_line=$(doc_lines "with the library's directory on")
expect_eq "documented run line" "$run_line" \
	'LD_LIBRARY_PATH=$(pkg-config --variable=libdir hwtrace) ./branches perf.data'
run_doc "$run_line >/dev/null"
expect_eq "api.md: $run_line" "$?" 0
rpath_line=$(doc_lines "or build it with an rpath line")
[ -n "$SAN" ] && rpath_line="$rpath_line $SAN"
run_doc "$rpath_line"
expect_eq "api.md: $rpath_line" "$?" 0
(cd "$W" && env -u LD_LIBRARY_PATH ./branches-rpath perf.data) >/dev/null 2>&1
expect_eq "built with the rpath line: runs as it is" "$?" 0

# count_branches.c, built with the line of its comment: the branches of
# hwtrace decode, by kind.
cline=$(sed -n 's/^ \*   \(cc count_branches\.c .*\)$/\1/p' "$W/count_branches.c")
[ -n "$SAN" ] && cline="$cline $SAN"
run_doc "$cline -Wall -Wextra -Werror"
expect_eq "api.md: $cline" "$?" 0
cat "$TMP/cc.err" >&2
LD_LIBRARY_PATH="$libdir" "$W/count_branches" "$TMP/etm.data" "$TMP/symfs" >"$TMP/count.out" 2>"$TMP/count.err"
expect_eq "count_branches runs" "$?" 0
expect_eq "count_branches: counts as hwtrace decode" "$(cat "$TMP/count.out")" \
	"cs_etm capture, 207 branches
$(awk '{ n[$1]++ } END { for (k in n) print k, n[k] }' "$TMP/want.branches" |
	sort -t' ' -k1,1 | awk 'BEGIN { split("call return jump cond indirect syscall sysret exception interrupt eret", o, " ")
		for (i in o) rank[o[i]] = i } { line[rank[$1]] = $0 } END { for (i = 1; i <= 10; i++) if (i in line) print line[i] }')"

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

# 4. examples/record_emulated.c: the recorder and a cursor, through the
# emulator, against the installed library and profile.
cp "$HWT_SOURCE_DIR/examples/record_emulated.c" "$TMP/record_emulated.c"
rline=$(sed -n 's/^ \*   \(cc record_emulated\.c .*\)$/\1/p' "$TMP/record_emulated.c")
expect_eq "record_emulated.c names its build line" "$([ -n "$rline" ] && echo yes)" yes
[ -n "$SAN" ] && rline="$rline $SAN"
(cd "$TMP" && bash -e -c "$rline -Wall -Wextra -Werror") 2>"$TMP/re.cc"
expect_eq "record_emulated builds: $rline" "$?" 0
cat "$TMP/re.cc" >&2
LD_LIBRARY_PATH="$libdir" "$TMP/record_emulated" "$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client" \
	"$P/share/hwtrace/configs/intel_bts.ini" "$TMP/re.data" 300 >"$TMP/re.out" 2>"$TMP/re.err"
expect_eq "record_emulated runs" "$?" 0
# ASan warns once per process that it does not fully follow swapcontext
# (the example's cursor decodes on a coroutine at one job): ASan's line,
# not the example's.
[ -n "$SAN" ] && sed -i '/^==[0-9]*==WARNING: ASan doesn.t fully support makecontext\/swapcontext /d' "$TMP/re.err"
expect_eq "record_emulated: what it says" "$(cat "$TMP/re.out" "$TMP/re.err")" \
	"recorded 300 branches: 7200 bytes of trace
decoded 300 branches"
# perf reads the file: an intel_bts AUXTRACE_INFO (type 2) and 300
# 24-byte records of trace.
perf report -D -i "$TMP/re.data" >"$TMP/re.D" 2>/dev/null
expect_eq "perf: AUXTRACE_INFO type" "$(grep -o 'PERF_RECORD_AUXTRACE_INFO type: [0-9]*' "$TMP/re.D")" \
	"PERF_RECORD_AUXTRACE_INFO type: 2"
expect_eq "perf: trace bytes" "$((0 $(awk '/PERF_RECORD_AUXTRACE size:/ { printf " + %s", $7 }' "$TMP/re.D")))" 7200
# The installed decode gives the branches the example fed the emulator
# (call k from 0x401000 + 16 (k % 64) to 0x402000, its return from 0x402010
# to 5 bytes past the call).
"$HW" decode --format jsonl "$TMP/re.data" 2>/dev/null |
	sed -n 's/.*"type":"branch".*"from":"\(0x[0-9a-f]*\)","to":"\(0x[0-9a-f]*\)".*/\1 \2/p' >"$TMP/re.branches"
expect_eq "record_emulated: the branches it recorded" "$(cat "$TMP/re.branches")" \
	"$(awk 'BEGIN { for (i = 0; i < 300; i++) { s = 4198400 + 16 * (int(i / 2) % 64)
		if (i % 2 == 0) printf "0x%x 0x402000\n", s; else printf "0x402010 0x%x\n", s + 5 } }')"
LD_LIBRARY_PATH="$libdir" "$TMP/record_emulated" /nonexistent "$P/share/hwtrace/configs/intel_bts.ini" \
	"$TMP/re2.data" >/dev/null 2>"$TMP/re2.err"
expect_eq "record_emulated without intel_bts: exit status" "$?" 1
expect_eq "record_emulated without intel_bts: no file left" "$([ -e "$TMP/re2.data" ] && echo left)" ""
finish
