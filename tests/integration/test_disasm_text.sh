# `hwtrace decode --disasm` gives one range per instruction with its text,
# for every backend: Intel PT (libipt's loop-tnt conformance stream, whose
# assembly source is in the .ptt file), Intel BTS (records of known_path's
# real addresses; the assembly is in known_path.c), in text and JSON lines.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PTT="$HWT_TESTDATA/ptt"
PROG="$HWT_BUILD_DIR/tests/programs/known_path_x86"
[ -f "$PTT/expected/loop-tnt.pt" ] || { echo "FAIL: $PTT/expected/loop-tnt.pt is missing (HWT_TESTDATA)" >&2; exit 1; }

# loop-tnt.ptt: l1: mov rax, 0x0; l2: jmp l4; l4: cmp rax, 0x1; l5: jle l3;
# l3: add rax, 0x1; then cmp, jle (taken), add, cmp, jle (not taken).
"$HWTRACE" decode --disasm --raw "intel_pt:$PTT/expected/loop-tnt.pt" \
	--map "$PTT/expected/loop-tnt.bin@0x100000" >"$TMP/pt.txt" 2>"$TMP/err" ||
	fail "decode loop-tnt: $(cat "$TMP/err")"
got=$(sed -n 's/^range .* x86_64  \([a-z]*\).*/\1/p' "$TMP/pt.txt" | tr '\n' ' ')
expect_eq "PT instructions" "$got" "mov jmp cmp jle add cmp jle add cmp jle "
expect_contains "PT first instruction" "$(head -n 1 "$TMP/pt.txt")" "range     0x100000..0x100007 1 insns x86_64  mov rax, 0"

# BTS: known_path n = 1 from kp_run to kp_done, records built from nm.
sym() { printf '%d' "0x$(nm "$PROG" | awk -v s="$1" '$3 == s { print $1 }')"; }
le64() {
	local n=$1 i out=""
	for i in 0 1 2 3 4 5 6 7; do out+=$(printf '\\x%02x' $(((n >> (8 * i)) & 255))); done
	printf "$out"
}
record() { le64 "$1"; le64 "$2"; le64 0; }
{
	record 0 "$(sym kp_run)"
	record "$(sym kp_call_site)" "$(sym kp_leaf)"
	record "$(sym kp_leaf_jcc)" "$(sym kp_leaf_ret)"
	record "$(sym kp_leaf_ret)" "$(sym kp_after_call)"
	record "$(sym kp_done_call)" "$(sym kp_done)"
	record "$(sym kp_done)" 0
} >"$TMP/kp.bts"
"$HWTRACE" decode --disasm --format jsonl --raw "intel_bts:$TMP/kp.bts" \
	--map "$PROG@0" >"$TMP/bts.jsonl" 2>"$TMP/err" || fail "decode bts: $(cat "$TMP/err")"
got=$(sed -n 's/.*"insn":"\([^"]*\)".*/\1/p' "$TMP/bts.jsonl" | sed 's/ 0x[0-9a-f]*$//' | tr '\n' ';')
expect_eq "BTS instructions" "$got" \
	"mov ecx, edi;xor eax, eax;xor edx, edx;call;add eax, 1;test al, 1;jne;ret;sub ecx, 1;jne;call;"
expect_eq "BTS ranges hold one instruction each" \
	"$(grep '"type":"range"' "$TMP/bts.jsonl" | grep -vc '"insns":1,')" 0
finish
