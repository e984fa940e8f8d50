# N-Trace the t1 example does not cover, checked against a PC list
# obtained without hwtrace: tests/programs/riscv/ntrace_flow*.c (RV64,
# with and without the C extension, calls deeper than an 8-entry return
# stack, calls through pointers, a jump table) is built with Debian's
# riscv64-linux-gnu-gcc and run under qemu-riscv64 -singlestep -d
# exec,nochain, which prints the PC of every instruction it runs. That
# list is the oracle. tests/tools/ntrace_encode.py (an encoder for tests
# only, which knows the code from objdump) turns it into N-Trace as
# encoders configured in several ways would: BTM and HTM, no call stack
# and an 8-deep one, repeats (RepeatBranch, ResourceFull RCODE 2),
# I-CNT and HIST full, periodic synchronization, SRC and TSTAMP fields,
# idle bytes, two harts in one stream, and a FIFO overflow. Each decodes
# to exactly qemu's PCs (without the final ecall, which does not retire),
# the overflow to qemu's PCs with one run left out, where the gap is. Negative controls:
# a call stack shallower than the encoder's, a missing src= and the
# wrong xlen do not give qemu's list.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
for t in riscv64-linux-gnu-gcc riscv64-linux-gnu-objdump qemu-riscv64 python3; do
	command -v $t >/dev/null || {
		echo "SKIP: $t is not installed (Debian: gcc-riscv64-linux-gnu, qemu-user, python3)"
		exit 77
	}
done
P="$HWT_SOURCE_DIR/tests/programs/riscv"
ENC="$HWT_SOURCE_DIR/tests/tools/ntrace_encode.py"
cc() { riscv64-linux-gnu-gcc -O2 -mabi=lp64d -ffreestanding -fno-pic "$@"; }
cc -march=rv64gc -c "$P/ntrace_flow.c" -o "$TMP/a.o" &&
	cc -march=rv64g -c "$P/ntrace_flow_nc.c" -o "$TMP/b.o" &&
	riscv64-linux-gnu-gcc -static -nostdlib -o "$TMP/prog" "$TMP/a.o" "$TMP/b.o" ||
	{ fail "building the riscv64 program"; finish; exit; }
riscv64-linux-gnu-objdump -d -M no-aliases,numeric "$TMP/prog" >"$TMP/objd"
qemu-riscv64 -singlestep -d exec,nochain -D "$TMP/qemu.log" "$TMP/prog"
expect_eq "the program's exit status" $? 70
sed -n 's|^Trace [0-9]*: 0x[0-9a-f]* \[[0-9a-f]*/0*\([0-9a-f]*\)/.*|0x\1|p' \
	"$TMP/qemu.log" >"$TMP/qemu.pcs"
last=$(tail -1 "$TMP/qemu.pcs")
expect_contains "qemu's last instruction" \
	"$(grep "^ *${last#0x}:" "$TMP/objd")" "ecall"
sed '$d' "$TMP/qemu.pcs" >"$TMP/want"
n=$(wc -l <"$TMP/want")
[ "$n" -gt 3000 ] || fail "qemu ran $n instructions, want more than 3000"
# Both encodings ran: 16-bit and 32-bit instructions, the latter alone
# in the functions built without C.
expect_eq "instructions of nc_sum run" "$(awk -v lo="$(grep '<nc_sum>:' "$TMP/objd" | cut -c1-16)" \
	-v hi="$(grep '<nc_pick>:' "$TMP/objd" | cut -c1-16)" "$AWK_HEX"'
	{ a = hex(substr($1, 3)) } a >= hex(lo) && a < hex(hi) { n++ } END { print (n > 100) }' \
	"$TMP/want")" 1

# pcs JSONL: the PCs of the ranges, through objdump's instruction list.
pcs() {
	python3 - "$1" "$TMP/objd" <<'PY'
import bisect, json, re, sys
objd = sorted(int(m.group(1), 16) for line in open(sys.argv[2])
              for m in [re.match(r"^\s+([0-9a-f]+):\t", line)] if m)
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") == "range":
        s, t = int(e["start"], 16), int(e["end"], 16)
        for a in objd[bisect.bisect_left(objd, s):bisect.bisect_left(objd, t)]:
            print("0x%x" % a)
PY
}

# case NAME ENCODER-OPTIONS DECODER-OPTIONS MESSAGES...: encodes, checks
# that the listing has each of MESSAGES ("Name" or "Name FIELD[n]=0xv"
# fragments), decodes; the PCs are in $TMP/NAME.pcs, elements in
# $TMP/NAME.jsonl.
case_() {
	local name=$1 enc=$2 dec=$3
	shift 3
	# shellcheck disable=SC2086
	python3 "$ENC" "$TMP/objd" "$TMP/qemu.log" "$TMP/$name.bin" $enc ||
		{ fail "$name: encoding"; return; }
	"$HWTRACE" decode --packets --raw "riscv_ntrace,$dec:$TMP/$name.bin" \
		>"$TMP/$name.packets" 2>&1 || fail "$name: --packets: $(tail -1 "$TMP/$name.packets")"
	for m in "$@"; do
		expect_contains "$name: the listing has" "$(cat "$TMP/$name.packets")" "$m"
	done
	"$HWTRACE" decode --format jsonl --no-symbols --raw "riscv_ntrace,$dec:$TMP/$name.bin" \
		--elf "$TMP/prog" >"$TMP/$name.jsonl" 2>"$TMP/$name.err" ||
		fail "$name: decode: $(cat "$TMP/$name.err")"
	pcs "$TMP/$name.jsonl" >"$TMP/$name.pcs"
}
exact() {
	expect_eq "$1: PCs = qemu's" "$(cmp "$TMP/$1.pcs" "$TMP/want" 2>&1)" ""
	expect_contains "$1: no gaps" "$(cat "$TMP/$1.err")" "($n instructions), "
	expect_contains "$1: no gaps" "$(cat "$TMP/$1.err")" " 0 errors, 0 gaps"
}

case_ htm8 "mode=htm callstack=8" "callstack=8" \
	"IndirectBranchHist TCODE" "ResourceFull TCODE[6]=27 RCODE[4]=0x1"
exact htm8
expect_eq "htm8: isa" "$(grep -c '"isa":"rv64"' "$TMP/htm8.jsonl")" \
	"$(grep -c '"type":"range"' "$TMP/htm8.jsonl")"
case_ btm0 "mode=btm callstack=0" "callstack=0" \
	"DirectBranch TCODE" "IndirectBranch TCODE"
exact btm0
case_ btm_rep "mode=btm callstack=8 repeat=1 icnt=0x20 ts=1 sync=300" "callstack=8" \
	"RepeatBranch TCODE[6]=30 BCNT" "RCODE[4]=0x0" "ProgTraceSync TCODE[6]=9 SYNC[4]=0x2" \
	"TSTAMP"
exact btm_rep
# The encoder's clock is 1000 + 3 per instruction: trace stops at the
# ecall, qemu's instruction number $n.
expect_contains "btm_rep: time of trace off" "$(grep trace_off "$TMP/btm_rep.jsonl")" \
	"\"time\":$((1000 + 3 * n))"
# Absolute timestamps in every message (ts=full), and times left out.
case_ htm_full "mode=htm callstack=8 ts=full" "callstack=8,ts=full" "TSTAMP"
exact htm_full
expect_contains "htm_full: time of trace off" "$(grep trace_off "$TMP/htm_full.jsonl")" \
	"\"time\":$((1000 + 3 * n))"
"$HWTRACE" decode --format jsonl --no-symbols --raw "riscv_ntrace,callstack=8,ts=off:$TMP/htm_full.bin" \
	--elf "$TMP/prog" >"$TMP/ts_off.jsonl" 2>/dev/null
expect_eq "ts=off: no times" "$(grep -c '"time"' "$TMP/ts_off.jsonl")" 0
# Read as deltas, the absolute stamps add up past the encoder's clock.
"$HWTRACE" decode --format jsonl --no-symbols --raw "riscv_ntrace,callstack=8:$TMP/htm_full.bin" \
	--elf "$TMP/prog" >"$TMP/ts_delta.jsonl" 2>/dev/null
checks=$((checks + 1))
grep trace_off "$TMP/ts_delta.jsonl" | grep -q "\"time\":$((1000 + 3 * n))[,}]" &&
	fail "ts=full stamps read as deltas gave the encoder's time"
case_ htm_rep "mode=htm callstack=0 repeat=1 hist=0x40 icnt=0x40" "callstack=0" \
	"RCODE[4]=0x2" "HREPEAT" "RCODE[4]=0x0"
exact htm_rep
case_ htm_src "mode=htm callstack=8 src=4,5 ts=1 sync=500 idle=1" "callstack=8,src=4" \
	"SRC[4]=0x5" "IndirectBranchHistSync TCODE[6]=29 SRC[4]=0x5 SYNC[4]=0x2" "idle"
exact htm_src
expect_eq "htm_src: every element on cpu 5 (SRC)" \
	"$(grep -vc '"type":"header"\|"cpu":5,' "$TMP/htm_src.jsonl")" 0

# Two harts in one stream: their messages interleaved one by one (as a
# funnel merges encoders), told apart by SRC; each hart's elements
# (cpu = SRC) are qemu's PCs.
python3 "$ENC" "$TMP/objd" "$TMP/qemu.log" "$TMP/h1.bin" mode=htm callstack=8 src=4,1 ts=1
python3 "$ENC" "$TMP/objd" "$TMP/qemu.log" "$TMP/h2.bin" mode=btm callstack=8 src=4,2 repeat=1
python3 - "$TMP/h1.bin" "$TMP/h2.bin" "$TMP/harts.bin" <<'PY'
import sys
def messages(data):
    out, start = [], 0
    for i, b in enumerate(data):
        if b & 3 == 3:
            out.append(data[start:i + 1])
            start = i + 1
    return out
a, b = (messages(open(f, "rb").read()) for f in sys.argv[1:3])
mixed = bytearray()
for i in range(max(len(a), len(b))):
    for m in (a, b):
        if i < len(m):
            mixed += m[i]
open(sys.argv[3], "wb").write(mixed)
PY
"$HWTRACE" decode --format jsonl --no-symbols --raw "riscv_ntrace,callstack=8,src=4:$TMP/harts.bin" \
	--elf "$TMP/prog" >"$TMP/harts.jsonl" 2>"$TMP/harts.err" ||
	fail "two harts: decode: $(cat "$TMP/harts.err")"
for c in 1 2; do
	grep "\"cpu\":$c," "$TMP/harts.jsonl" >"$TMP/hart$c.jsonl"
	pcs "$TMP/hart$c.jsonl" >"$TMP/hart$c.pcs"
	expect_eq "two harts: cpu $c's PCs = qemu's" "$(cmp "$TMP/hart$c.pcs" "$TMP/want" 2>&1)" ""
done
expect_eq "two harts: elements on other CPUs" \
	"$(grep -v '"type":"header"' "$TMP/harts.jsonl" | grep -vc '"cpu":[12],')" 0
expect_contains "two harts: no gaps" "$(cat "$TMP/harts.err")" "($((2 * n)) instructions), "

# A FIFO overflow: messages lost, an Error message, a resync.
case_ drop "mode=htm callstack=8 repeat=1 drop=20,40" "callstack=8" \
	"Error TCODE[6]=8 ETYPE[4]=0x0 ECODE" "ProgTraceSync TCODE[6]=9 SYNC[4]=0x7"
expect_eq "drop: one overflow gap" "$(grep -c '"reason":"overflow"' "$TMP/drop.jsonl")" 1
expect_eq "drop: qemu's PCs with one run left out" "$(python3 - "$TMP/drop.pcs" "$TMP/want" <<'PY'
import sys
got, want = open(sys.argv[1]).read().split(), open(sys.argv[2]).read().split()
a = 0
while a < len(got) and got[a] == want[a]:
    a += 1
b = len(want) - (len(got) - a)
print("ok" if 0 < a < b < len(want) and got[a:] == want[b:] else
      "no: %d of %d match, then not" % (a, len(got)))
PY
)" ok

# Negative controls.
differs() {
	checks=$((checks + 1))
	cmp -s "$TMP/$1.pcs" "$TMP/want" && fail "$1: gave qemu's PCs"
}
"$HWTRACE" decode --format jsonl --no-symbols --raw "riscv_ntrace,callstack=4:$TMP/htm8.bin" \
	--elf "$TMP/prog" >"$TMP/neg1.jsonl" 2>/dev/null
pcs "$TMP/neg1.jsonl" >"$TMP/neg1.pcs"
differs neg1
"$HWTRACE" decode --format jsonl --no-symbols --raw "riscv_ntrace,callstack=8:$TMP/htm_src.bin" \
	--elf "$TMP/prog" >"$TMP/neg2.jsonl" 2>/dev/null
pcs "$TMP/neg2.jsonl" >"$TMP/neg2.pcs"
differs neg2
"$HWTRACE" decode --format jsonl --no-symbols --raw "riscv_ntrace,xlen=32,callstack=0:$TMP/btm0.bin" \
	--elf "$TMP/prog" >"$TMP/neg3.jsonl" 2>/dev/null
pcs "$TMP/neg3.jsonl" >"$TMP/neg3.pcs"
differs neg3
finish
