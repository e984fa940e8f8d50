# `hwtrace decode --raw intel_bts` on BTS records built here from the real
# branch addresses of tests/programs/known_path (read with binutils' nm) for
# input n = 1, with the binary as the memory image: the whole stream, and
# the same records in a wrapped 100-byte snapshot buffer (4 records and 4
# bytes of padding at the wrap point).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/known_path_x86"
command -v nm >/dev/null || { echo "FAIL: nm (binutils) is needed" >&2; exit 1; }
[ -x "$PROG" ] || { echo "FAIL: $PROG is not built" >&2; exit 1; }

sym() { printf '%d' "0x$(nm "$PROG" | awk -v s="$1" '$3 == s { print $1 }')"; }
for s in run call_site after_call after_done_call leaf leaf_jcc leaf_fall leaf_ret done_call done; do
	eval "$s=$(sym kp_$s)"
done

# le64 N: N as 8 little-endian bytes.
le64() {
	local n=$1 i out=""
	for i in 0 1 2 3 4 5 6 7; do
		out+=$(printf '\\x%02x' $(((n >> (8 * i)) & 255)))
	done
	printf "$out"
}
record() { le64 "$1"; le64 "$2"; le64 0; }

# n = 1: begin, call leaf, odd test taken, return, call kp_done, end.
{
	record 0 "$run"
	record "$call_site" "$leaf"
	record "$leaf_jcc" "$leaf_ret"
	record "$leaf_ret" "$after_call"
	record "$done_call" "$done"
	record "$done" 0
} >"$TMP/stream.bts"
expect_eq "stream size" "$(stat -c %s "$TMP/stream.bts")" 144

hex() { printf '0x%x' "$1"; }
# --no-symbols: the elements alone (symbols: test_symbols_*).
"$HWTRACE" decode --format jsonl --no-symbols --raw "intel_bts:$TMP/stream.bts" --map "$PROG@0" \
	>"$TMP/out.jsonl" 2>"$TMP/err" || fail "decode: $(cat "$TMP/err")"
sed -e '/"type":"header"/d' -e 's/,"offset":[0-9]*//' "$TMP/out.jsonl" >"$TMP/got"
cat >"$TMP/want" <<WANT
{"type":"trace_on","at":"$(hex $run)"}
{"type":"range","start":"$(hex $run)","end":"$(hex $after_call)","insns":4,"isa":"x86_64"}
{"type":"branch","from":"$(hex $call_site)","to":"$(hex $leaf)","kind":"call"}
{"type":"range","start":"$(hex $leaf)","end":"$(hex $leaf_fall)","insns":3,"isa":"x86_64"}
{"type":"branch","from":"$(hex $leaf_jcc)","to":"$(hex $leaf_ret)","kind":"cond"}
{"type":"range","start":"$(hex $leaf_ret)","end":"$(hex $done)","insns":1,"isa":"x86_64"}
{"type":"branch","from":"$(hex $leaf_ret)","to":"$(hex $after_call)","kind":"return"}
{"type":"range","start":"$(hex $after_call)","end":"$(hex $after_done_call)","insns":3,"isa":"x86_64"}
{"type":"branch","from":"$(hex $done_call)","to":"$(hex $done)","kind":"call"}
{"type":"trace_off","at":"$(hex $done)"}
WANT
expect_eq "raw stream elements" "$(cat "$TMP/got")" "$(cat "$TMP/want")"

# The buffer holds 4 records; 6 were written, so the 2 oldest were
# overwritten and the write position is at record slot 2.
dd if="$TMP/stream.bts" of="$TMP/ring" bs=1 count=96 status=none
{ head -c 96 "$TMP/ring"; printf '\0\0\0\0'; } >"$TMP/ring100"
dd if="$TMP/stream.bts" of="$TMP/ring100" bs=1 skip=96 seek=0 count=48 conv=notrunc status=none
{ tail -c +49 "$TMP/ring100"; head -c 48 "$TMP/ring100"; } >"$TMP/snap.bts"
expect_eq "snapshot size" "$(stat -c %s "$TMP/snap.bts")" 100
"$HWTRACE" decode --format jsonl --no-symbols --raw "intel_bts,snapshot:$TMP/snap.bts" --map "$PROG@0" \
	>"$TMP/out.jsonl" 2>"$TMP/err" || fail "decode snapshot: $(cat "$TMP/err")"
sed -e '/"type":"header"/d' -e 's/,"offset":[0-9]*//' "$TMP/out.jsonl" >"$TMP/got"
# The newest 4 records: from the odd test on; the first has no range
# before it (its predecessor was overwritten).
tail -n 6 "$TMP/want" >"$TMP/want.snap"
expect_eq "wrapped snapshot elements" "$(cat "$TMP/got")" "$(cat "$TMP/want.snap")"

# Cut inside the last record: a counted truncated gap of 10 bytes.
head -c 130 "$TMP/stream.bts" >"$TMP/cut.bts"
"$HWTRACE" decode --format jsonl --no-symbols --raw "intel_bts:$TMP/cut.bts" --map "$PROG@0" \
	>"$TMP/out.jsonl" 2>"$TMP/err" || fail "decode cut: $(cat "$TMP/err")"
expect_contains "cut record" "$(tail -n 1 "$TMP/out.jsonl")" '"type":"gap","reason":"truncated","bytes":10'
finish
