# The typed fields of Intel PT packet records (hwtrace/listing.h, through
# hwt_decode_opts.packet_sink; tests/tools/packet_fields.c prints them)
# are the values perf's own packet decoder prints for the same packets
# (`perf report -D` on the quipper capture): TSC, TMA's CTC and FC, CBR,
# MTC, every TNT's taken/not-taken bits, the IP of TIP, TIP.PGE, TIP.PGD
# and FUP (perf shows the bytes the packet holds: up to 48 bits), PIP's
# CR3 (perf shows CR3 >> 5), MODE.Exec's IF bit and width, MODE.TSX's
# bits; matched packet by packet by buffer and offset.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
[ -f "$Q" ] || { echo "FAIL: $Q is missing" >&2; exit 1; }
have_pt_decoder "packet fields" || { finish; exit $?; }
command -v perf >/dev/null || { fail "perf (linux-perf) is not installed"; finish; exit 1; }

perf report -D -i "$Q" >"$TMP/perf.txt" 2>/dev/null || fail "perf report -D failed"
${HWT_TARGET_RUN:-} "$HWT_PACKET_FIELDS" "$Q" >"$TMP/ours.txt" 2>"$TMP/err" ||
	fail "packet_fields: $(cat "$TMP/err")"
python3 - "$TMP/perf.txt" "$TMP/ours.txt" >"$TMP/check" <<'PY' || fail "comparison failed"
import re, sys
# perf: ".  OFFSET:  BYTES  NAME ARGS" after each "PERF_RECORD_AUXTRACE ... idx: N".
perf, idx = {}, None
for line in open(sys.argv[1]):
    m = re.search(r"PERF_RECORD_AUXTRACE size: .* idx: (\d+)", line)
    if m:
        idx = int(m.group(1))
        continue
    m = re.match(r"\.  ([0-9a-f]{8}):  (?:[0-9a-f]{2} )+ +(\S.*)$", line)
    if m and idx is not None:
        perf[(idx, int(m.group(1), 16))] = m.group(2).strip()

def want(kind, f):
    """What perf prints for our record, or None for a kind not compared."""
    if kind == "tsc":
        return "TSC 0x%x" % f["tsc"]
    if kind == "tma":
        return "TMA CTC 0x%x FC 0x%x" % (f["ctc"], f["fc"])
    if kind == "cbr":
        return "CBR 0x%x" % f["ratio"]
    if kind == "mtc":
        return "MTC 0x%x" % f["ctc"]
    if kind in ("tnt.8", "tnt.64"):
        n = f["bits"]
        bits = "".join("T" if f["payload"] >> (n - 1 - i) & 1 else "N"
                       for i in range(n))
        return "TNT %s (%d)" % (bits, n)
    if kind in ("tip", "tip.pge", "tip.pgd", "fup"):
        name = kind.upper()
        if f["ipc"] == 0:
            return None  # no IP: perf's wording differs ("no ip")
        return "%s 0x%x" % (name, f["ip"] & ((1 << 48) - 1))
    if kind == "pip":
        return "PIP 0x%x (NR=%d)" % (f["cr3"] >> 5, f["nr"])
    if kind == "mode.exec":
        width = 64 if f["csl"] else 32 if f["csd"] else 16
        return "MODE.Exec IF:%d %d" % (f.get("if", 0), width)
    if kind == "mode.tsx":
        return "MODE.TSX TXAbort:%d InTX:%d" % (f["abrt"], f["intx"])
    return None

starts, compared, bad = {}, {}, []
for line in open(sys.argv[2]):
    idx, off, kind, *fields = line.split()
    idx, off = int(idx), int(off, 16)
    f = {k: int(v, 16) for k, v in (x.split("=") for x in fields)}
    w = want(kind, f)
    if w is None:
        continue
    compared[kind] = compared.get(kind, 0) + 1
    got = perf.get((idx, off))
    if got != w:
        bad.append("%d %x %s: perf %r, ours %r" % (idx, off, kind, got, w))
print(" ".join("%s=%d" % kv for kv in sorted(compared.items())))
print("\n".join(bad[:5]) or "ok")
PY
# Each kind as often as perf's dump has it (grep -c of its lines: 24
# TSC, TMA and CBR, 2802 MTC, 441 PIP, 69516 TNT, 12039 TIP, 149 FUP, 10
# TIP.PGE, 18 MODE.Exec, 16 MODE.TSX; its 10 TIP.PGD hold no IP).
expect_eq "packets compared" "$(head -1 "$TMP/check")" \
	"cbr=24 fup=149 mode.exec=18 mode.tsx=16 mtc=2802 pip=441 tip=12039 tip.pge=10 tma=24 tnt.8=69516 tsc=24"
expect_eq "every record's fields are perf's values" "$(tail -n +2 "$TMP/check")" ok
finish
