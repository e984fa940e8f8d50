# hwtrace record through an emulated rvtrace PMU (the sysfs fixture
# riscv-rvtrace; the emulated trace unit writes the Nexus TG's t1
# stream): the perf.data's AUXTRACE_INFO is type 8 with the PMU type and
# hwtrace's version-1 settings words, its AUX bytes are t1's byte for
# byte, `decode --packets` of it lists t1's messages as the raw decode
# does, -j 1/2/3 decode it the same, `info` names the backend; the
# profile and bad knobs are checked. perf 6.1 has no RISC-V trace type:
# it reads the records up to AUXTRACE_INFO and refuses that one.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs/riscv-rvtrace"
T="$HWT_TESTDATA/riscv-ntrace/t1"
file_bytes() { od -An -tx1 -v "$1" | tr -s ' ' '\n' | grep -v '^$'; }

"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$T/test-NEX.bin" \
	-e rvtrace/event=1,xlen=32,callstack=8/ -C 0 -o "$TMP/rv.data" 2>"$TMP/err"
expect_eq "record status" "$?" 0
expect_contains "stats" "$(cat "$TMP/err")" "cpu 0: 2604 bytes captured"
"$HWTRACE" dump "$TMP/rv.data" >"$TMP/dump"
expect_contains "AUXTRACE_INFO type" "$(cat "$TMP/dump")" "PERF_RECORD_AUXTRACE_INFO type: 8"
expect_contains "AUXTRACE_INFO words" "$(cat "$TMP/dump")" \
	".  priv: 0000000000000009 4857525600000001 0000000000000020 0000000000000008 0000000000000000 0000000000000000 0000000000000000"
# perf pads an AUXTRACE record's data to 8 bytes (the writer does as
# perf record does): the first 2604 bytes are the stream's.
aux_bytes "$TMP/rv.data" | cut -d' ' -f2 >"$TMP/aux"
expect_eq "AUX bytes" "$(wc -l <"$TMP/aux")" 2608
expect_eq "AUX bytes are t1's" \
	"$(cmp -s <(file_bytes "$T/test-NEX.bin") <(head -n 2604 "$TMP/aux") && echo same)" same
expect_eq "padding" "$(tail -n 4 "$TMP/aux" | tr '\n' ' ')" "00 00 00 00 "

# The messages of the capture, as those of the raw stream.
"$HWTRACE" decode --packets "$TMP/rv.data" >"$TMP/pk" 2>&1
expect_eq "decode --packets status" "$?" 0
"$HWTRACE" decode --packets --raw "riscv_ntrace,xlen=32,callstack=8:$T/test-NEX.bin" \
	>"$TMP/pkraw" 2>&1
grep '^  [0-9a-f]*: ' "$TMP/pkraw" >"$TMP/want"
grep '^  [0-9a-f]*: ' "$TMP/pk" | head -n "$(wc -l <"$TMP/want")" >"$TMP/got"
expect_eq "messages (as test-DUMP.txt)" "$(wc -l <"$TMP/want")" "$(grep -c TCODE "$T/test-DUMP.txt")"
expect_eq "messages equal the raw stream's" "$(cmp "$TMP/want" "$TMP/got" 2>&1)" ""

for j in 1 2 3; do
	"$HWTRACE" decode -q -j $j --format jsonl "$TMP/rv.data" >"$TMP/j$j" 2>/dev/null
	expect_eq "-j $j status" "$?" 0
done
expect_eq "-j 2 = -j 1" "$(cmp "$TMP/j1" "$TMP/j2" 2>&1)" ""
expect_eq "-j 3 = -j 1" "$(cmp "$TMP/j1" "$TMP/j3" 2>&1)" ""
expect_contains "trace on at t1's start" "$(cat "$TMP/j1")" '"type":"trace_on","cpu":0,"at":"0x20010522"'

expect_contains "info" "$("$HWTRACE" info "$TMP/rv.data")" \
	"backend:     riscv_ntrace (AUXTRACE_INFO type 8)"
expect_contains "list" "$("$HWTRACE" list --sysfs "$FIX")" "rvtrace: type 9"
"$HWTRACE" config check "$HWT_SOURCE_DIR/configs/rvtrace_ramsink.ini" --sysfs "$FIX" >"$TMP/cc" 2>&1
expect_eq "profile check status" "$?" 0
expect_contains "profile check" "$(cat "$TMP/cc")" "backend: riscv_ntrace (PMU type 9), mode full"

# Bad knobs: usage errors naming the key.
bad() {
	"$HWTRACE" record --sysfs "$FIX" -e "$1" -o "$TMP/x.data" 2>"$TMP/e"
	expect_eq "$1 status" "$?" 2
	expect_eq "$1 message" "$(cat "$TMP/e")" "$2"
	expect_eq "$1 wrote nothing" "$(test -e "$TMP/x.data" && echo yes)" ""
}
bad rvtrace/xlen=48/ "hwtrace: -e: [rvtrace]: xlen=48: expected 32 or 64"
bad rvtrace/callstak=8/ 'hwtrace: -e: unknown key "callstak" in [rvtrace]; did you mean "callstack"? Valid keys: event, xlen, callstack, src, ts, extaddr'
bad rvtrace/event=2/ "hwtrace: -e: [rvtrace] event = 2: value 2 does not fit event (1 bit of config); the largest value is 1"

command -v perf >/dev/null || fail "perf (linux-perf) is not installed"
perf report -D -i "$TMP/rv.data" >"$TMP/perf" 2>&1
expect_contains "perf 6.1 reads up to AUXTRACE_INFO" "$(cat "$TMP/perf")" \
	"0 0 0x198 [0x48]: PERF_RECORD_AUXTRACE_INFO type: 8"
expect_contains "perf 6.1 refuses type 8" "$(cat "$TMP/perf")" \
	"0x198 [0x48]: failed to process type: 70 [Invalid argument]"
finish
