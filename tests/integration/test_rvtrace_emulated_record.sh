# hwtrace record through an emulated rvtrace PMU. On the fixture machine
# riscv-rvtrace (the emulated trace unit writes the Nexus TG's t1
# stream): the perf.data's AUXTRACE_INFO is type 8 with the PMU type and
# hwtrace's version-1 settings words, its AUX bytes are t1's byte for
# byte, `decode --packets` of it lists t1's 367 messages (test-DUMP.txt
# has 367) as the raw decode does, `info` names the backend; the profile
# and bad knobs are checked. Replaying a capture of a process that ran
# test.elf (written by tests/tools/rvtrace_capture.c) through the
# emulated PMU (`record --emulate`): `hwtrace decode` of the new file
# gives the raw decode's elements exactly, so t1's 164,959 PCs
# (test_riscv_t1_pcs_match_reference checks those against test-PCOUT.txt),
# and -j 1/2/3 decode 64 copies of t1 the same. perf 6.1 has no RISC-V
# trace type: it reads the records up to AUXTRACE_INFO and refuses that
# one (a perf with the series' patches reads type 8).
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
grep '^  [0-9a-f]*: ' "$TMP/pk" | grep -v padding >"$TMP/got"
expect_eq "padding listed" "$(grep padding "$TMP/pk")" \
	"  00000a2c: perf's AUXTRACE padding (4 zero bytes)"
expect_eq "messages (as test-DUMP.txt)" "$(wc -l <"$TMP/want")" "$(grep -c TCODE "$T/test-DUMP.txt")"
expect_eq "messages equal the raw stream's" "$(cmp "$TMP/want" "$TMP/got" 2>&1)" ""

# No process ran on the fixture machine, so no code: the decode stops
# at the first instruction, and the padding is no truncated message.
"$HWTRACE" decode --format jsonl "$TMP/rv.data" >"$TMP/nocode" 2>"$TMP/err"
expect_eq "decode status" "$?" 0
expect_eq "decode summary" "$(tail -n 1 "$TMP/err")" "hwtrace decode: 0 ranges (0 instructions), 0 branches, 0 errors, 2 gaps (1 no_sync, 1 no_image; 2590 bytes of trace skipped)"
expect_contains "trace on at t1's start" "$(cat "$TMP/nocode")" '"type":"trace_on","cpu":0,"at":"0x20010522"'

expect_contains "info" "$("$HWTRACE" info "$TMP/rv.data")" \
	"backend:     riscv_ntrace (AUXTRACE_INFO type 8)"
expect_contains "list" "$("$HWTRACE" list --sysfs "$FIX")" "rvtrace: type 9"
"$HWTRACE" config check "$HWT_SOURCE_DIR/configs/rvtrace_ramsink.ini" --sysfs "$FIX" >"$TMP/cc" 2>&1
expect_eq "profile check status" "$?" 0
expect_contains "profile check" "$(cat "$TMP/cc")" "backend: riscv_ntrace (PMU type 9), mode full"

# The backend's name takes the PMU's terms too.
"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$T/test-NEX.bin" \
	-e riscv_ntrace/xlen=32,callstack=4/ -C 0 -o "$TMP/b.data" 2>/dev/null
expect_eq "-e riscv_ntrace// status" "$?" 0
expect_contains "-e riscv_ntrace// words" "$("$HWTRACE" dump "$TMP/b.data")" \
	".  priv: 0000000000000009 4857525600000001 0000000000000020 0000000000000004 0000000000000000 0000000000000000 0000000000000000"

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

# A process that ran test.elf (its file mapped at 0x2000f000 puts its
# code segment, file offset 0x1000, at 0x20010000), replayed.
${HWT_TARGET_RUN:-} "$HWT_RVTRACE_CAPTURE" "$T/test-NEX.bin" "$T/test.elf" 0x2000f000 "$TMP/cap.data"
expect_eq "capture written" "$?" 0
"$HWTRACE" record --emulate "$TMP/cap.data" -o "$TMP/emu.data" 2>"$TMP/err"
expect_eq "record --emulate status" "$?" 0
expect_contains "replay stats" "$(cat "$TMP/err")" "thread: 2608 bytes captured in 1 chunks"
"$HWTRACE" decode --format jsonl --no-symbols "$TMP/emu.data" >"$TMP/emu.jsonl" 2>"$TMP/err"
expect_eq "decode status" "$?" 0
expect_eq "decode summary" "$(cat "$TMP/err")" \
	"hwtrace decode: 8606 ranges (164959 instructions), 8606 branches, 0 errors, 0 gaps"
"$HWTRACE" decode --format jsonl --no-symbols --raw "riscv_ntrace,xlen=32,callstack=8:$T/test-NEX.bin" \
	--elf "$T/test.elf" >"$TMP/raw.jsonl" 2>/dev/null
expect_eq "elements equal the raw decode's (thread fields aside)" \
	"$(sed 's/"pid":[0-9]*,"tid":[0-9]*,//' "$TMP/emu.jsonl" | cmp - "$TMP/raw.jsonl" 2>&1)" ""
expect_contains "info" "$("$HWTRACE" info "$TMP/emu.data")" \
	"event:       rvtrace/event=1/u (type 9, config 0x1)"

# The series' own layout (the PMU type alone) decodes with the defaults,
# as the raw decode without options does (RV64: not t1's PCs); another
# version word is refused.
${HWT_TARGET_RUN:-} "$HWT_RVTRACE_CAPTURE" "$T/test-NEX.bin" "$T/test.elf" 0x2000f000 "$TMP/s.data" series
"$HWTRACE" decode --format jsonl --no-symbols "$TMP/s.data" >"$TMP/s.jsonl" 2>"$TMP/err"
expect_eq "series layout status" "$?" 0
"$HWTRACE" decode --format jsonl --no-symbols --raw "riscv_ntrace:$T/test-NEX.bin" \
	--elf "$T/test.elf" >"$TMP/sraw.jsonl" 2>"$TMP/serr"
expect_eq "series layout = raw defaults" \
	"$(sed 's/"pid":[0-9]*,//; s/"tid":[0-9]*,//' "$TMP/s.jsonl" | cmp - "$TMP/sraw.jsonl" 2>&1)" ""
expect_eq "series layout summary" "$(cat "$TMP/err")" \
	"hwtrace decode: 2 ranges (41 instructions), 1 branches, 0 errors, 2 gaps (1 decode_error, 1 no_sync; 2590 bytes of trace skipped)"
${HWT_TARGET_RUN:-} "$HWT_RVTRACE_CAPTURE" "$T/test-NEX.bin" "$T/test.elf" 0x2000f000 "$TMP/v2.data" 0x4857525600000002
"$HWTRACE" decode "$TMP/v2.data" >/dev/null 2>"$TMP/err"
expect_eq "version 2 status" "$?" 1
expect_eq "version 2 message" "$(cat "$TMP/err")" \
	"hwtrace: riscv_ntrace: AUXTRACE_INFO layout version 2; this hwtrace reads version 1 (a newer hwtrace wrote the file)"
${HWT_TARGET_RUN:-} "$HWT_RVTRACE_CAPTURE" "$T/test-NEX.bin" "$T/test.elf" 0x2000f000 "$TMP/vx.data" 0x1234
"$HWTRACE" decode "$TMP/vx.data" >/dev/null 2>"$TMP/err"
expect_eq "foreign word 1 status" "$?" 1
expect_eq "foreign word 1 message" "$(cat "$TMP/err")" \
	"hwtrace: riscv_ntrace: AUXTRACE_INFO word 1 is 0x1234, not hwtrace's version word (0x4857525600000001): a layout this hwtrace does not know"

for i in $(seq 64); do cat "$T/test-NEX.bin"; done >"$TMP/t1x64.bin"
${HWT_TARGET_RUN:-} "$HWT_RVTRACE_CAPTURE" "$TMP/t1x64.bin" "$T/test.elf" 0x2000f000 "$TMP/cap64.data"
"$HWTRACE" record --emulate "$TMP/cap64.data" -o "$TMP/emu64.data" 2>/dev/null
expect_eq "record --emulate (64 copies) status" "$?" 0
for j in 1 2 3; do
	"$HWTRACE" decode -j $j --format jsonl --no-symbols "$TMP/emu64.data" \
		>"$TMP/j$j" 2>"$TMP/e$j"
	expect_eq "-j $j status" "$?" 0
done
expect_eq "-j 1 summary" "$(cat "$TMP/e1")" \
	"hwtrace decode: 550784 ranges (10557376 instructions), 550784 branches, 0 errors, 0 gaps"
expect_eq "-j 2 = -j 1" "$(cmp "$TMP/j1" "$TMP/j2" 2>&1)" ""
expect_eq "-j 3 = -j 1" "$(cmp "$TMP/j1" "$TMP/j3" 2>&1)" ""

command -v perf >/dev/null || fail "perf (linux-perf) is not installed"
perf report -D -i "$TMP/rv.data" >"$TMP/perf" 2>&1
expect_contains "perf 6.1 reads up to AUXTRACE_INFO" "$(cat "$TMP/perf")" \
	"0 0 0x198 [0x48]: PERF_RECORD_AUXTRACE_INFO type: 8"
expect_contains "perf 6.1 refuses type 8" "$(cat "$TMP/perf")" \
	"0x198 [0x48]: failed to process type: 70 [Invalid argument]"
finish
