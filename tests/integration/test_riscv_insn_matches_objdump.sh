# RISC-V instructions as hwtrace prints them (hwt_insn_format: --disasm,
# annotate) against binutils' objdump -M no-aliases, the canonical forms:
# - every instruction of t1's test.elf (RV32IMC, Zicsr, Zifencei) and of
#   the cross toolchain's libm.a and six members of libc.a (RV64GC: F, D,
#   A, Zicsr, C; about 90,000 instructions), text for text, and the flow
#   class and direct target each implies (the link-register rules: jal
#   to ra or t0 is a call, jalr from one a return, ...);
# - `hwtrace annotate` on an emulated rvtrace capture of t1: every
#   instruction of each function that ran, with objdump's text, and its
#   count equal to the times the PC occurs in test-PCOUT.txt (the
#   simulator's own list).
# A positive control: one flipped bit in an encoding changes the text.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
T="$HWT_TESTDATA/riscv-ntrace/t1"
OBJDUMP=riscv64-linux-gnu-objdump
SYSROOT=/usr/riscv64-linux-gnu/lib
command -v "$OBJDUMP" >/dev/null ||
	{ echo "FAIL: $OBJDUMP is needed (Debian: binutils-riscv64-linux-gnu)" >&2; exit 1; }
NORM="$HWT_SOURCE_DIR/tests/integration/objdump_rv_norm.awk"

# same ISA FILE: hwtrace's text of every instruction objdump lists in FILE.
same() {
	"$OBJDUMP" -d -M no-aliases "$2" >"$TMP/od" || { fail "objdump $2"; return; }
	awk -f "$NORM" "$TMP/od" >"$TMP/want"
	${HWT_TARGET_RUN:-} "$HWT_INSN_LINES" "$1" <"$TMP/od" >"$TMP/got"
	cut -f1,2 "$TMP/got" >"$TMP/got.text"
	expect_eq "$(basename "$2"): instructions" "$(wc -l <"$TMP/got.text")" "$(wc -l <"$TMP/want")"
	expect_eq "$(basename "$2"): text = objdump's" \
		"$(diff "$TMP/want" "$TMP/got.text" | grep '^[<>]' | head -n 6)" ""
	# The class and target from objdump's text by the specification's
	# rules; a 32-bit hart's targets wrap at 4 GiB as objdump's do.
	paste "$TMP/want" <(cut -f3 "$TMP/got") | awk -F'\t' '
		function link(r) { return r == "ra" || r == "t0" }
		{ split($2, w, " "); m = w[1]; n = split(w[2], op, ",")
		  want = "other"
		  if (m == "jal") want = (link(op[1]) ? "call" : "jump") " " op[2]
		  else if (m == "c.jal") want = "call " op[1]
		  else if (m == "c.j") want = "jump " op[1]
		  else if (m ~ /^b(eq|ne|lt|ge|ltu|geu)$/) want = "cond " op[3]
		  else if (m == "c.beqz" || m == "c.bnez") want = "cond " op[2]
		  else if (m == "jalr") { r = op[2]; sub(/.*\(/, "", r); sub(/\)/, "", r)
			want = link(op[1]) ? "call_ind" : link(r) ? "return" : "jump_ind" }
		  else if (m == "c.jr") want = link(op[1]) ? "return" : "jump_ind"
		  else if (m == "c.jalr") want = "call_ind"
		  else if (m == "ecall" || m == "ebreak" || m == "c.ebreak") want = "syscall"
		  else if (m == "mret" || m == "sret") want = "sysret"
		  if ($3 != want) { print $1 " " $2 ": " $3 ", want " want; bad++ }
		} END { exit bad > 0 }' >"$TMP/cls"
	expect_eq "$(basename "$2"): classes and targets" "$(head -n 6 "$TMP/cls")" ""
}
same rv32 "$T/test.elf"
same rv64 "$SYSROOT/libm.a"
# libc.a whole costs objdump 4 s: the members with most atomics.
(cd "$TMP" && ar x "$SYSROOT/libc.a" malloc.o pthread_create.o genops.o \
	pthread_cond_wait.o dl-find_object.o pthread_mutex_lock.o) || fail "ar x libc.a"
ar rc "$TMP/libc-part.a" "$TMP"/*.o
same rv64 "$TMP/libc-part.a"
expect_contains "libc.a members have atomics" "$(cut -f2 "$TMP/got" | grep -m1 '^amoadd.w.aq ')" "amoadd.w.aq"

# The positive control: c.addi sp,-16 (0x1141) with its rd bit 1 flipped
# is c.addi gp,-16 (0x11c1), not the same text.
printf '   10:\t11c1                \tc.addi\tgp,-16\n' >"$TMP/one"
expect_eq "flipped bit" "$(${HWT_TARGET_RUN:-} "$HWT_INSN_LINES" rv32 <"$TMP/one" | cut -f2)" "c.addi gp,-16"
expect_eq "text is not the original's" \
	"$([ "$(${HWT_TARGET_RUN:-} "$HWT_INSN_LINES" rv32 <"$TMP/one" | cut -f2)" != "c.addi sp,-16" ] && echo differs)" differs

# annotate on a capture of t1 through the emulated rvtrace PMU.
${HWT_TARGET_RUN:-} "$HWT_RVTRACE_CAPTURE" "$T/test-NEX.bin" "$T/test.elf" 0x2000f000 "$TMP/cap.data" ||
	fail "capture"
"$HWTRACE" record --emulate "$TMP/cap.data" -o "$TMP/emu.data" 2>/dev/null || fail "record --emulate"
"$HWTRACE" annotate "$TMP/emu.data" --format jsonl -o "$TMP/ann.jsonl" 2>"$TMP/err"
expect_eq "annotate status" "$?" 0
"$OBJDUMP" -d -M no-aliases "$T/test.elf" >"$TMP/od"
awk -f "$NORM" "$TMP/od" >"$TMP/t1.text"
python3 - "$TMP/ann.jsonl" "$TMP/t1.text" "$T/test-PCOUT.txt" "$TMP/od" >"$TMP/ann.check" <<'PY'
import collections, json, re, sys
ann, text, pcout, od = sys.argv[1:]
want = dict(l.rstrip("\n").split("\t", 1) for l in open(text))
runs = collections.Counter(int(l.strip(), 16) for l in open(pcout) if l.strip())
# objdump's functions: "ADDR <NAME>:" and the instructions under each.
funcs, cur = {}, None
for l in open(od):
    m = re.match(r"^([0-9a-f]+) <(.+)>:$", l)
    if m:
        cur = m.group(2); funcs[cur] = []
    elif cur and re.match(r"^ *[0-9a-f]+:\t[0-9a-f]+ +\t", l):
        funcs[cur].append(int(l.split(":")[0], 16))
listed, bad, total = collections.defaultdict(list), [], 0
for l in open(ann):
    e = json.loads(l)
    if e["type"] != "insn":
        continue
    a = int(e["addr"], 16)
    listed[e["sym"]].append(a)
    total += 1
    if want.get("%x" % a) != e["text"]:
        bad.append("0x%x: %r, objdump %r" % (a, e["text"], want.get("%x" % a)))
    if e["count"] != runs[a]:
        bad.append("0x%x: count %d, test-PCOUT.txt %d" % (a, e["count"], runs[a]))
for name, addrs in listed.items():
    if addrs != funcs.get(name):
        bad.append("%s: %d instructions listed, objdump %d" % (name, len(addrs), len(funcs.get(name, []))))
ran = {f for f, addrs in funcs.items() if any(runs[a] for a in addrs)}
print("functions", len(listed), "ran", len(ran), "listed all" if set(listed) == ran else "missing %s" % sorted(ran - set(listed)))
print("insns", total, "counted", sum(runs[a] for f in listed for a in listed[f]), "of", sum(runs.values()))
for b in bad[:6]:
    print(b)
PY
expect_eq "annotate functions" "$(sed -n 1p "$TMP/ann.check")" "functions 4 ran 4 listed all"
expect_eq "annotate counts" "$(sed -n 2p "$TMP/ann.check" | cut -d' ' -f3-)" "counted 164959 of 164959"
expect_eq "annotate text and counts" "$(sed -n '3,$p' "$TMP/ann.check")" ""
finish
