# `hwtrace decode -j N --raw riscv_ntrace` gives the same output for 1,
# 2, 3 and 8 threads on 64 copies of the Nexus Trace TG's t1 stream
# (167 KB: the split op cuts it into segments of at least 16 KiB before
# ProgTraceSync messages that follow trace off), and that output is 64
# times t1's own: 164,959 instructions, one trace_on and trace_off, per
# copy.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
T="$HWT_TESTDATA/riscv-ntrace/t1"
for i in $(seq 64); do cat "$T/test-NEX.bin"; done >"$TMP/t1x64.bin"

for j in 1 2 3 8; do
	"$HWTRACE" decode -q -j $j --format jsonl --no-symbols \
		--raw "riscv_ntrace,xlen=32,callstack=8:$TMP/t1x64.bin" \
		--elf "$T/test.elf" >"$TMP/j$j" 2>"$TMP/err$j" ||
		fail "-j $j: $(cat "$TMP/err$j")"
done
for j in 2 3 8; do
	expect_eq "-j $j output = -j 1 output" "$(cmp "$TMP/j1" "$TMP/j$j" 2>&1)" ""
	expect_eq "-j $j summary" "$(cat "$TMP/err$j")" "$(cat "$TMP/err1")"
done
expect_eq "summary" "$(cat "$TMP/err1")" \
	"hwtrace decode: 550784 ranges (10557376 instructions), 550784 branches, 0 errors, 0 gaps"
expect_eq "instructions: 64 x 164959" \
	"$(awk -F'"insns":' 'NF > 1 { split($2, a, ","); n += a[1] } END { print n }' "$TMP/j1")" \
	$((64 * 164959))
expect_eq "trace_on" "$(grep -c '"type":"trace_on"' "$TMP/j1")" 64
expect_eq "trace_off" "$(grep -c '"type":"trace_off"' "$TMP/j1")" 64
finish
