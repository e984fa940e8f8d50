# decode --packets on an Intel PT buffer with bytes no packet starts with:
# the listing's first error, as a record, carries the offset of the byte
# perf's own packet dump (`perf report -D`, "Bad packet!") stops at first,
# in jsonl as "offset" (the text line's "[OFFSET: error ..]" says the same
# in hex); and the jsonl listing's "text" fields are the text listing's
# lines, one for one.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
[ -f "$Q" ] || { echo "FAIL: $Q is missing" >&2; exit 1; }
have_pt_decoder "packet error offset" || { finish; exit $?; }
command -v perf >/dev/null || { fail "perf (linux-perf) is not installed"; finish; exit 1; }

# The first AUXTRACE record (0x30 bytes at 0x29c0) is followed by cpu 0's
# buffer: 0x02 (an extended opcode) before bytes none continues, from its
# byte 0x100 on.
python3 - "$Q" "$TMP/bad.data" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
start = 0x29c0 + 0x30
for i in range(0x100, 0x140, 2):
    d[start + i], d[start + i + 1] = 0x02, 0x02
open(sys.argv[2], "wb").write(d)
PY
perf report -D -i "$TMP/bad.data" >"$TMP/perf.txt" 2>/dev/null ||
	fail "perf report -D failed"
bad=$(awk '/Bad packet!/ { sub(":", "", $2); print $2; exit }' "$TMP/perf.txt")
want=$((16#${bad:-0}))
expect_eq "perf's first bad packet" "$want" 256

"$HWTRACE" decode -q --packets --format jsonl "$TMP/bad.data" >"$TMP/p.jsonl" 2>"$TMP/err" ||
	fail "decode --packets --format jsonl: $(cat "$TMP/err")"
"$HWTRACE" decode -q --packets "$TMP/bad.data" >"$TMP/p.txt" 2>"$TMP/err" ||
	fail "decode --packets: $(cat "$TMP/err")"
python3 - "$TMP/p.jsonl" "$TMP/p.txt" >"$TMP/check" <<'PY' || fail "jsonl does not parse"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
err = next(o for o in objs if "error decoding packet" in o.get("text", ""))
hex_in_text = int(err["text"][1:err["text"].index(":")], 16)
print(err.get("offset"), hex_in_text)
texts = [o["text"] for o in objs if o["type"] == "packet"]
lines = [l.rstrip("\n") for l in open(sys.argv[2]) if not l.startswith("# AUXTRACE")]
print("same" if texts == lines else "differ at %d" % next(
    i for i, (a, b) in enumerate(zip(texts + [None], lines + [None])) if a != b))
PY
expect_eq "the error's offset, and its text's" "$(head -1 "$TMP/check")" "$want $want"
expect_eq "jsonl texts are the text lines" "$(sed -n 2p "$TMP/check")" same
finish
