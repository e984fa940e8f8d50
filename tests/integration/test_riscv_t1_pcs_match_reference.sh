# `hwtrace decode --raw riscv_ntrace` on the RISC-V Nexus Trace TG's t1
# example (RV32, HTM, implicit returns with an 8-deep stack, repeated
# history): the PC of every instruction of the decoded ranges, in order,
# is exactly test-PCOUT.txt (164,959 PCs from the simulator, CRLF line
# ends). Ranges become PCs through the instruction addresses in
# test-OBJD.txt (binutils' objdump of test.elf), not through hwtrace's own
# instruction lengths. Negative controls: without the call stack, as RV64
# (0x2001.. is c.addiw there, not c.jal), and with one history bit
# flipped, the list is not the reference's.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
T="$HWT_TESTDATA/riscv-ntrace/t1"
command -v python3 >/dev/null || { echo "FAIL: python3 is needed" >&2; exit 1; }

# pcs JSONL OUT: the PCs of JSONL's ranges, one a line, as 0x%X.
pcs() {
	python3 - "$1" "$T/test-OBJD.txt" >"$2" <<'PY'
import bisect, json, re, sys
objd = sorted(int(m.group(1), 16) for line in open(sys.argv[2])
              for m in [re.match(r"^([0-9a-f]+):\t", line)] if m)
out = []
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") != "range":
        continue
    s, t = int(e["start"], 16), int(e["end"], 16)
    got = objd[bisect.bisect_left(objd, s):bisect.bisect_left(objd, t)]
    if len(got) != e["insns"]:
        out.append("range %s..%s: %d insns, objdump has %d" %
                   (e["start"], e["end"], e["insns"], len(got)))
    out += ["0x%X" % a for a in got]
print("\n".join(out))
PY
}

tr -d '\r' <"$T/test-PCOUT.txt" >"$TMP/want"
expect_eq "reference PCs" "$(wc -l <"$TMP/want")" 164959

decode() {
	"$HWTRACE" decode --format jsonl --no-symbols --raw "riscv_ntrace,$1:$2" \
		--elf "$T/test.elf" >"$TMP/out.jsonl" 2>"$TMP/err"
}

decode xlen=32,callstack=8 "$T/test-NEX.bin" || fail "decode: $(cat "$TMP/err")"
pcs "$TMP/out.jsonl" "$TMP/got"
expect_eq "PCs of the decoded ranges" "$(cmp "$TMP/got" "$TMP/want" 2>&1)" ""
expect_eq "instructions" "$(grep -c . "$TMP/got")" 164959
expect_contains "summary" "$(cat "$TMP/err")" "(164959 instructions)"
expect_contains "summary" "$(cat "$TMP/err")" "0 errors, 0 gaps"
expect_eq "trace on, trace off" \
	"$(grep -o '"type":"trace_o[nf]*","at":"[^"]*"' "$TMP/out.jsonl" | tr '\n' ' ')" \
	'"type":"trace_on","at":"0x20010522" "type":"trace_off","at":"0x200104ec" '
expect_eq "isa" "$(grep -c '"isa":"rv32"' "$TMP/out.jsonl")" \
	"$(grep -c '"type":"range"' "$TMP/out.jsonl")"

# The default stack depth (32, the specification's maximum) decodes it
# the same: a deeper stack than the encoder's never predicts a return
# the encoder did not.
decode xlen=32 "$T/test-NEX.bin" || fail "decode (callstack 32): $(cat "$TMP/err")"
pcs "$TMP/out.jsonl" "$TMP/got32"
expect_eq "PCs with callstack=32" "$(cmp "$TMP/got32" "$TMP/want" 2>&1)" ""

# Negative controls: each must fail to give the reference list.
differs() {
	checks=$((checks + 1))
	pcs "$TMP/out.jsonl" "$TMP/bad"
	cmp -s "$TMP/bad" "$TMP/want" && fail "$1: gave the reference PCs"
}
decode xlen=32,callstack=0 "$T/test-NEX.bin"
differs "no call stack"
expect_contains "no call stack: the error" "$(cat "$TMP/out.jsonl")" \
	"a return with no call on the stack"
decode xlen=64,callstack=8 "$T/test-NEX.bin"
differs "as RV64"
# Byte 0x0a is in MSG #1's RDATA (a history bit): flip one MDO bit.
cp "$T/test-NEX.bin" "$TMP/flip.bin"
printf "\\x$(printf %02x $(( $(od -An -tu1 -j10 -N1 "$T/test-NEX.bin") ^ 0x10 )))" |
	dd of="$TMP/flip.bin" bs=1 seek=10 conv=notrunc status=none
decode xlen=32,callstack=8 "$TMP/flip.bin"
differs "one history bit flipped"
finish
