# Intel PT without the binaries: the real quipper capture (Skylake, kernel
# 4.14; none of its code is here) decodes to what its packets say where
# the code cannot be walked, and to the branches perf finds in it. The
# oracle is perf itself: `perf script --itrace=b` gives 619 branch samples
# (cpu 0: 31, cpu 3: 588): 614 "tr strt" (0 => the IP a TIP, TIP.PGE or
# FUP gives once the walk is lost), 4 "hw int" (a FUP's IP => its TIP's)
# and 1 "tr end async". hwtrace's packet elements, per CPU in file order,
# equal them one for one: a "tr strt" is a trace_on or a branch without
# its source, a "hw int" an interrupt branch, a "tr end" a trace_off. The
# gaps stay (the instructions are still unknown).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
[ -f "$Q" ] || { echo "FAIL: $Q is missing" >&2; exit 1; }
have_pt_decoder "packets without code" || { finish; exit $?; }
command -v perf >/dev/null || { fail "perf (linux-perf) is not installed"; finish; exit 1; }

perf script -i "$Q" --itrace=b -F cpu,event,flags,ip,addr >"$TMP/perf.txt" 2>"$TMP/perf.err" ||
	fail "perf script: $(cat "$TMP/perf.err")"
"$HWTRACE" decode --per-cpu --format jsonl "$Q" >"$TMP/ours.jsonl" 2>"$TMP/ours.err" ||
	fail "decode: $(cat "$TMP/ours.err")"

python3 - "$TMP/perf.txt" "$TMP/ours.jsonl" >"$TMP/cmp.txt" <<'PY'
import json, re, sys
perf, ours = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r'\s*\[(\d+)\]\s+branches:\s+(.*?)\s+([0-9a-f]+) =>\s+([0-9a-f]+)\s*$', line)
    if not m:
        continue
    cpu, flags = int(m.group(1)), m.group(2).strip()
    frm, to = int(m.group(3), 16), int(m.group(4), 16)
    if flags == 'tr strt':
        k = ('start', to)
    elif flags == 'hw int':
        k = ('interrupt', frm, to)
    elif flags.startswith('tr end'):
        k = ('end', frm)
    else:
        k = (flags, frm, to)
    perf.setdefault(cpu, []).append(k)
for line in open(sys.argv[2]):
    e = json.loads(line)
    t = e['type']
    if t == 'trace_on':
        k = ('start', int(e['at'], 16))
    elif t == 'trace_off':
        k = ('end', int(e['at'], 16))
    elif t == 'branch' and 'from' not in e:
        assert 'kind' not in e, line
        k = ('start', int(e['to'], 16))
    elif t == 'branch':
        k = (e.get('kind'), int(e['from'], 16), int(e['to'], 16))
    else:
        continue
    assert 'time' in e, line
    ours.setdefault(e['cpu'], []).append(k)
def kinds(seqs):
    n = {}
    for s in seqs.values():
        for k in s:
            n[k[0]] = n.get(k[0], 0) + 1
    return ' '.join('%s=%d' % kv for kv in sorted(n.items()))
print('perf', kinds(perf))
print('ours', kinds(ours))
for cpu in sorted(set(perf) | set(ours)):
    a, b = perf.get(cpu, []), ours.get(cpu, [])
    print('cpu %d: perf %d, ours %d' % (cpu, len(a), len(b)))
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print('cpu %d: element %d differs: perf %s, ours %s' % (cpu, i, x, y))
            break
PY
expect_eq "perf's kinds" "$(sed -n 1p "$TMP/cmp.txt")" "perf end=1 interrupt=4 start=614"
expect_eq "hwtrace's kinds" "$(sed -n 2p "$TMP/cmp.txt")" "ours end=1 interrupt=4 start=614"
expect_eq "the same, in order, per CPU" "$(sed -n '3,$p' "$TMP/cmp.txt")" \
	"cpu 0: perf 31, ours 31
cpu 3: perf 588, ours 588"

# The gaps still say where the instructions are unknown; the summary
# counts the branches without a source apart.
expect_eq "no_image gaps" "$(grep -c '"reason":"no_image"' "$TMP/ours.jsonl")" 10
nofrom=$(grep '"type":"branch"' "$TMP/ours.jsonl" | grep -vc '"from"')
expect_eq "branches without their source" "$nofrom" 477
expect_contains "summary" "$(cat "$TMP/ours.err")" \
	"481 branches ($nofrom without their source, read from the packets where the code was missing)"
# Text: an unknown source is a '?', not an address.
"$HWTRACE" decode --per-cpu "$Q" 2>/dev/null >"$TMP/ours.txt"
expect_contains "text" "$(grep -m1 'branch ' "$TMP/ours.txt")" \
	"branch    ? -> 0x7fb36c93113b ?"
expect_contains "text: the interrupt" "$(grep -m1 'interrupt' "$TMP/ours.txt")" \
	"branch    0x7fb36d296300 -> 0xffffffffba001340 interrupt"
finish
