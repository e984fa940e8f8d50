# hwtrace decode --edges on libipt's ptt streams (raw, with the code at
# the .ptt's org; test_pt_edges_match_decode compares every stream in
# process): text and jsonl output of the loop stream, exactly; the
# --edges-bitmap file equals one computed here (python) from the full
# decode's jsonl branches with AFL's hash as docs/decode.md gives it; an
# overflow stream and a decode-error stream count them and exit 0; the
# quipper perf.data's per-CPU buffers go through the element decoder; usage
# errors exit 2.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

PTT=$HWT_TESTDATA/ptt
if have_pt_decoder "decode --edges on the ptt streams"; then

# The loop: jmp 0x100007->0x10000d once, the jle taken twice; jsonl.
LOOP=$PTT/expected/loop-tnt
"$HWTRACE" decode --raw intel_pt:"$LOOP.pt" --map "$LOOP.bin@0x100000" --edges \
	--format jsonl > "$TMP/loop.jsonl" 2> "$TMP/loop.err"
expect_eq "loop-tnt jsonl exit status" "$?" 0
expect_eq "loop-tnt jsonl" "$(cat "$TMP/loop.jsonl")" \
'{"type":"header","version":4,"listing":"edges","producer":"hwtrace '"$("$HWTRACE" --version | awk '{ print $2 }')"'"}
{"type":"edge","from":"0x100007","to":"0x10000d","count":1}
{"type":"edge","from":"0x100011","to":"0x100009","count":2}'
expect_eq "loop-tnt summary" "$(cat "$TMP/loop.err")" \
	"hwtrace decode: 2 edges (3 taken branches), 0 overflows, 0 errors, 0 other gaps"

# The bitmap against one computed from the full decode's branches, for
# streams with calls, returns, indirect branches and interrupts.
for name in loop-tnt call_indirect-ret_uncompressed ptxed-tick fup-tip \
	    call_direct-ret_compressed tip_pgd-indirect_jump; do
	org=$(awk '$1 == "org" { print $2; exit }' "$PTT/src/$name.ptt")
	args="--raw intel_pt:$PTT/expected/$name.pt --map $PTT/expected/$name.bin@$org"
	"$HWTRACE" decode $args --format jsonl -o "$TMP/b.jsonl" 2> /dev/null
	"$HWTRACE" decode $args --edges-bitmap 64K -o "$TMP/b.map" 2> /dev/null
	expect_eq "$name bitmap exit status" "$?" 0
	python3 - "$TMP/b.jsonl" "$TMP/b.map" 65536 > "$TMP/b.out" <<'PY'
import json, sys
size = int(sys.argv[3])
def loc(a):
    return ((a * 0x9e3779b97f4a7c15) % (1 << 64)) >> 32
want = bytearray(size)
n = 0
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["type"] != "branch":
        continue
    f, t = int(e["from"], 16), int(e["to"], 16)
    s = (loc(t) ^ (loc(f) >> 1)) & (size - 1)
    want[s] = min(255, want[s] + 1)
    n += 1
got = open(sys.argv[2], "rb").read()
print("same" if got == bytes(want) else "differ", n, sum(1 for b in got if b))
PY
	read -r verdict branches slots < "$TMP/b.out"
	expect_eq "$name bitmap equals the one computed from the branches" "$verdict" same
	[ "$branches" -gt 0 ] || fail "$name: no branches to compare"
done

# An overflow and a decode error: counted as the full decode shows them,
# and not fatal.
OVF=$PTT/expected/ovf-fup
"$HWTRACE" decode --raw intel_pt:"$OVF.pt" --map "$OVF.bin@0x1000" --edges \
	> /dev/null 2> "$TMP/ovf.err"
expect_eq "overflow exit status" "$?" 0
expect_contains "overflow counted" "$(cat "$TMP/ovf.err")" ", 1 overflows, 0 errors,"
BAD=$PTT/expected/ptxed-resync-bad_query-tip
"$HWTRACE" decode --raw intel_pt:"$BAD.pt" --map "$BAD.bin@0x100000" --edges \
	> /dev/null 2> "$TMP/bad.err"
expect_eq "decode error exit status" "$?" 0
"$HWTRACE" decode --raw intel_pt:"$BAD.pt" --map "$BAD.bin@0x100000" > /dev/null \
	2> "$TMP/bad.full"
expect_contains "full decode's error" "$(cat "$TMP/bad.full")" "branches, 1 errors"
expect_contains "decode error counted" "$(cat "$TMP/bad.err")" ", 0 overflows, 1 errors,"

# A perf.data: the quipper capture's two per-CPU buffers (the processes on
# a CPU change with the scheduler) go through the element decoder; without
# the traced binaries there are its 10 no_image gaps and the 4 interrupts
# the packets alone give (FUP to TIP; the TIP targets whose source is
# unknown are no edges).
"$HWTRACE" decode --edges "$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14" \
	> "$TMP/q.edges" 2> "$TMP/q.err"
expect_eq "quipper exit status" "$?" 0
expect_eq "quipper edges" "$(cat "$TMP/q.edges")" "0x5cba631ef570->0xffffffffba001340 1
0x5cba63221580->0xffffffffba001340 1
0x7fb36d08bd60->0xffffffffba001340 1
0x7fb36d296300->0xffffffffba001340 1"
expect_eq "quipper summary" "$(cat "$TMP/q.err")" "hwtrace decode: 4 edges (4 taken \
branches), 0 overflows, 0 errors, 10 other gaps; 2 chunks decoded (in part) by the \
element decoder"

# Usage errors.
"$HWTRACE" decode --raw intel_pt:"$LOOP.pt" --map "$LOOP.bin@0x100000" \
	--edges-bitmap 1000 > /dev/null 2> "$TMP/err"
expect_eq "bitmap size not a power of two exit" "$?" 2
expect_contains "bitmap size message" "$(cat "$TMP/err")" "power of two"
"$HWTRACE" decode --raw intel_pt:"$LOOP.pt" --map "$LOOP.bin@0x100000" \
	--edges --packets > /dev/null 2> "$TMP/err"
expect_eq "--edges with --packets exit" "$?" 2
fi
finish
