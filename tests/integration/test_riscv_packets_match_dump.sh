# `hwtrace decode --packets` on the RISC-V Nexus Trace TG's t1 stream
# agrees with the reference tool's dump (test-DUMP.txt) message for
# message: TCODE, and every field's name, width in MDO bits and value,
# in order. The dump is read here on its own terms (its byte column must
# also be test-NEX.bin byte for byte, so it is the dump of this file).
# Negative control: read with a 2-bit SRC field, as a stream of several
# harts would be, the listing no longer agrees.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
T="$HWT_TESTDATA/riscv-ntrace/t1"
command -v python3 >/dev/null || { echo "FAIL: python3 is needed" >&2; exit 1; }

# The dump: "0xBB MDO_MS: FIELD[bits]=0xV ..." lines, a message starting
# at its "TCODE[6]=N (MSG #k) - Name" line. Writes "TCODE N FIELD bits V
# ..." per message to OUT and the bytes to OUT.bin.
python3 - "$T/test-DUMP.txt" "$TMP/dump" <<'PY'
import re, sys
msgs, data = [], bytearray()
for line in open(sys.argv[1]):
    m = re.match(r"^0x([0-9A-F]{2}) [01]{6}_[01]{2}:(.*)$", line.rstrip("\r\n"))
    if not m:
        continue
    data.append(int(m.group(1), 16))
    for name, bits, val in re.findall(r"(\w+)\[(\d+)\]=(0x[0-9A-F]+|\d+)", m.group(2)):
        if name == "TCODE":
            msgs.append(["TCODE", str(int(val, 0))])
        else:
            msgs[-1] += [name, bits, "%x" % int(val, 16)]
open(sys.argv[2], "w").write("".join(" ".join(m) + "\n" for m in msgs))
open(sys.argv[2] + ".bin", "wb").write(data)
PY
expect_eq "dump bytes are test-NEX.bin" "$(cmp "$TMP/dump.bin" "$T/test-NEX.bin" 2>&1)" ""
expect_eq "messages in the dump" "$(wc -l <"$TMP/dump")" 367

# hwtrace's listing in the same shape.
listing() {
	"$HWTRACE" decode --packets --raw "riscv_ntrace,$1:$T/test-NEX.bin" \
		>"$TMP/packets" 2>"$TMP/err" || fail "--packets $1: $(cat "$TMP/err")"
	sed -n 's/^  [0-9a-f]*: [A-Za-z]* TCODE\[6\]=//p' "$TMP/packets" |
		sed -e 's/ -> 0x[0-9a-f]*$//' -e 's/^\([0-9]*\)/TCODE \1/' \
		    -e 's/ \([A-Z]*\)\[\([0-9]*\)\]=0x\([0-9a-f]*\)/ \1 \2 \3/g'
}
listing xlen=32 >"$TMP/got"
expect_eq "listing = dump, message for message" \
	"$(diff "$TMP/dump" "$TMP/got" | head -5)" ""
expect_eq "lines of the listing" "$(grep -c '^  ' "$TMP/packets")" 367
expect_eq "first message" "$(sed -n 2p "$TMP/packets")" \
	"  00000000: ProgTraceSync TCODE[6]=9 SYNC[4]=0x1 ICNT[2]=0x0 FADDR[30]=0x10008291 -> 0x20010522"
expect_eq "last message" "$(tail -1 "$TMP/packets")" \
	"  00000a25: ProgTraceCorrelation TCODE[6]=33 EVCODE[4]=0x0 CDF[2]=0x1 ICNT[24]=0x45eea HIST[6]=0x2d"

listing xlen=32,src=2 >"$TMP/src2"
checks=$((checks + 1))
cmp -s "$TMP/dump" "$TMP/src2" && fail "with src=2 the listing still agrees"
finish
