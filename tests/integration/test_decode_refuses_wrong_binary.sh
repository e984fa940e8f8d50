# A binary found under --symfs that is not the traced one is refused, as
# perf refuses it: /bin/ls (x86-64) at the arm64 program's path of the
# simpleperf ETM capture, and etm_test_loop with one byte of its build id
# changed, are each named once on stderr and treated as missing (gaps name
# the program); --ignore-build-ids decodes them anyway. The real program
# (build id 16 bytes in the ELF, padded to 20 in simpleperf's header)
# decodes the 944 instructions perf script --itrace=i1i gives.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
DIR="$HWT_TESTDATA/perf-data/simpleperf-etm"
CAP="$DIR/perf_etm.data"
PROG=/data/local/tmp/etm_test_loop

mkdir -p "$TMP/ls$(dirname $PROG)" "$TMP/good$(dirname $PROG)" "$TMP/other$(dirname $PROG)"
cp /bin/ls "$TMP/ls$PROG"
cp "$DIR/etm_test_loop" "$TMP/good$PROG"
cp "$DIR/etm_test_loop" "$TMP/other$PROG"
# The build id's first byte: the note's descriptor starts 16 bytes into
# .note.gnu.build-id (name size, desc size, type, "GNU\0").
off=$(readelf -SW "$DIR/etm_test_loop" | sed -n 's/.*\.note\.gnu\.build-id *NOTE *[0-9a-f]* \([0-9a-f]*\) .*/\1/p')
printf '\377' | dd of="$TMP/other$PROG" bs=1 seek=$((0x$off + 16)) conv=notrunc 2>/dev/null
expect_eq "changed build id" \
	"$(readelf -n "$TMP/other$PROG" | sed -n 's/.*Build ID: //p')" \
	"ff9a20bf9c009d0e4e8bbf9fad0300ae"

# The real program: no warning, perf's instruction count.
"$HWTRACE" decode --symfs "$TMP/good" --format jsonl "$CAP" >"$TMP/good.jsonl" 2>"$TMP/good.err"
expect_eq "real program exit" "$?" 0
expect_eq "real program instructions" \
	"$(sed -n 's/.*"insns":\([0-9]*\).*/\1/p' "$TMP/good.jsonl" | awk '{ n += $1 } END { print n }')" 944
expect_eq "real program warnings" "$(grep -c "not used" "$TMP/good.err")" 0

# /bin/ls in its place: one message, no A64 decoded from x86 bytes.
"$HWTRACE" decode --symfs "$TMP/ls" --format jsonl "$CAP" >"$TMP/ls.jsonl" 2>"$TMP/ls.err"
expect_eq "x86 binary exit" "$?" 0
expect_eq "x86 binary named once" "$(grep -c "$PROG" "$TMP/ls.err")" 1
expect_contains "x86 binary message" "$(cat "$TMP/ls.err")" \
	"$PROG: $TMP/ls/$PROG holds x86-64 code, the trace is of Arm (AArch64 or AArch32): not used"
expect_eq "x86 binary ranges" "$(grep -c '"type":"range"' "$TMP/ls.jsonl")" 0
expect_contains "x86 binary gap" "$(grep '"type":"gap"' "$TMP/ls.jsonl")" \
	"$PROG: $TMP/ls/$PROG holds x86-64 code"
"$HWTRACE" decode --symfs "$TMP/ls" --ignore-build-ids --format jsonl "$CAP" \
	>"$TMP/lsi.jsonl" 2>"$TMP/lsi.err"
expect_contains "x86 binary overridden" "$(cat "$TMP/lsi.err")" "used anyway (--ignore-build-ids)"
expect_eq "x86 binary decoded when overridden" \
	"$(grep -c '"type":"range"' "$TMP/lsi.jsonl" | awk '{ print ($1 > 0) }')" 1

# Another build of the program: refused with both build ids.
"$HWTRACE" decode --symfs "$TMP/other" --format jsonl "$CAP" >"$TMP/o.jsonl" 2>"$TMP/o.err"
expect_eq "rebuilt program named once" "$(grep -c "$PROG" "$TMP/o.err")" 1
expect_contains "rebuilt program message" "$(cat "$TMP/o.err")" \
	"$TMP/other/$PROG has build id ff9a20bf9c009d0e4e8bbf9fad0300ae, the capture's is 0c9a20bf9c009d0e4e8bbf9fad0300ae00000000: not used"
expect_eq "rebuilt program ranges" "$(grep -c '"type":"range"' "$TMP/o.jsonl")" 0
"$HWTRACE" decode --symfs "$TMP/other" --ignore-build-ids --format jsonl "$CAP" \
	>"$TMP/oi.jsonl" 2>/dev/null
expect_eq "rebuilt program overridden" \
	"$(sed -n 's/.*"insns":\([0-9]*\).*/\1/p' "$TMP/oi.jsonl" | awk '{ n += $1 } END { print n }')" 944
finish
