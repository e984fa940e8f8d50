# decode -F against perf script --itrace=b -F on the same sw_branch
# capture (tests/programs/stacks/stk_tree.c, gcc -O2: calls, returns,
# tail calls, signals, longjmp, qsort callbacks into libc), line by line:
# - comm,tid,pid,cpu,flags,ip,addr: byte for byte;
# - ip,sym,symoff,dso,addr,insn: every address, binary and instruction's
#   bytes the same; symbol names the same wherever the code is the
#   program's own (libc's aliases, such as longjmp and __libc_siglongjmp
#   at one address, and PLT stubs are named by another rule: each
#   symbolizer picks one of the names);
# - srcline: where both give FILE:LINE (LINE > 0), the same;
# - time (perf cannot print it: sw_branch samples have no time): the
#   seconds.nanoseconds of each branch's time in decode's jsonl;
# - --comm, --dso, --sym against perf script's --comms, --dsos, --symbols.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
command -v perf >/dev/null || { fail "perf is not installed (Debian: linux-perf)"; finish; exit 1; }
cd "$TMP" || exit 1
gcc -O2 -g -o prog "$HWT_SOURCE_DIR/tests/programs/stacks/stk_tree.c" 2>cc.err ||
	{ fail "gcc: $(cat cc.err)"; finish; exit 1; }
"$HWTRACE" record -e sw_branch --start main --stop tree_done -o t.data -- ./prog \
	>/dev/null 2>rec.err || { fail "record: $(tail -3 rec.err)"; finish; exit 1; }

fields() { "$HWTRACE" decode t.data -F "$1" 2>/dev/null >"h.$2"; perf script -i t.data --itrace=b -F "$1" 2>/dev/null >"p.$2"; }

fields comm,tid,pid,cpu,flags,ip,addr task
expect_eq "as many lines as perf script" "$(wc -l <h.task)" "$(wc -l <p.task)"
expect_eq "a line per branch, trace start and end" "$(wc -l <h.task)" \
	"$(( $("$HWTRACE" decode t.data --format jsonl 2>/dev/null | grep -c '"type":"\(branch\|trace_on\|trace_off\)"') ))"
expect_eq "comm,tid,pid,cpu,flags,ip,addr byte for byte" "$(cmp h.task p.task 2>&1)" ""
expect_contains "the comm column names the program" "$(head -1 h.task)" "            prog "

fields ip,sym,symoff,dso,addr,insn sym
python3 - "$TMP/prog" h.sym p.sym >sym.out <<'PY' || fail "symbols: $(cat sym.out)"
import re, sys
prog, hf, pf = sys.argv[1:]
# " IP SYM (DSO) =>  ADDR SYM (DSO) insn: .."; names hold no " (".
end = r'\s*([0-9a-f]+) (.*?) \((.*?)\)'
line = re.compile(end + r' =>' + end + r'(?: insn:((?: [0-9a-f]{2})+))?$')
h = open(hf).read().splitlines()
p = open(pf).read().splitlines()
bad, named = [], 0
for n, (a, b) in enumerate(zip(h, p), 1):
    x, y = line.match(a), line.match(b)
    if not x or not y:
        bad.append(f"line {n}: not parsed: {a!r} / {b!r}")
        continue
    # ip, dso, addr, dso, insn: the same everywhere.
    for i in (1, 3, 4, 6, 7):
        if x.group(i) != y.group(i):
            bad.append(f"line {n}: {a!r} / {b!r}")
    for i in (2, 5):
        if x.group(i + 1) == prog and '@plt' not in x.group(i):
            named += 1
            if x.group(i) != y.group(i):
                bad.append(f"line {n}: symbol {x.group(i)} / {y.group(i)}")
if len(h) != len(p):
    bad.append(f"{len(h)} lines, perf {len(p)}")
print("\n".join(bad[:5]) if bad else f"{named} names compared")
sys.exit(1 if bad or named < 500 else 0)
PY
expect_contains "ip,sym,symoff,dso,addr,insn" "$(cat sym.out)" " names compared"

fields ip,srcline src
python3 - h.src p.src >src.out <<'PY' || fail "srcline: $(cat src.out)"
import re, sys
def read(f):
    # IP -> its srcline line (or None), in order.
    # A srcline line is two spaces and the line; an ip line is wider.
    src = re.compile(r'^  \S')
    out, lines = [], open(f).read().splitlines()
    for i, l in enumerate(lines):
        if not src.match(l):
            nxt = lines[i + 1] if i + 1 < len(lines) and src.match(lines[i + 1]) else None
            out.append((l.strip(), nxt.strip() if nxt else None))
    return out
h, p = read(sys.argv[1]), read(sys.argv[2])
fl = re.compile(r'^[^\[\]]+:([1-9][0-9]*)$')
bad, same = [], 0
for (ip1, s1), (ip2, s2) in zip(h, p):
    if ip1 != ip2:
        bad.append(f"ip {ip1} / {ip2}")
    elif (s1 and fl.match(s1)) or (s2 and fl.match(s2)):
        if s1 != s2:
            bad.append(f"{ip1}: {s1} / {s2}")
        else:
            same += 1
if len(h) != len(p):
    bad.append(f"{len(h)} events, perf {len(p)}")
print("\n".join(bad[:5]) if bad else f"{same} lines compared")
sys.exit(1 if bad or same < 500 else 0)
PY
expect_contains "srcline" "$(cat src.out)" " lines compared"

"$HWTRACE" decode t.data -F time,ip 2>/dev/null | awk '{ print $1 }' >h.time
"$HWTRACE" decode t.data --format jsonl 2>/dev/null |
	grep '"type":"\(branch\|trace_on\|trace_off\)"' |
	sed 's/.*"time":\([0-9]*\).*/\1/' |
	awk '{ printf "%d.%09d:\n", substr($1, 1, length($1) - 9), substr($1, length($1) - 8) }' >j.time
expect_eq "time = jsonl's time, as seconds.nanoseconds" "$(cmp h.time j.time 2>&1)" ""
expect_eq "time lines" "$(wc -l <h.time)" "$(wc -l <h.task)"

# The filters, against perf script's --comms, --dsos and --symbols:
# the same lines byte for byte (a binary by its file name or path).
for f in "--sym fib|--symbols=fib" "--dso libc.so.6|--dsos=libc.so.6" \
	"--comm prog|--comms=prog" "--comm nosuch|--comms=nosuch" \
	"--sym main,cmp --dso prog|--symbols=main,cmp --dsos=prog" \
	"--dso $TMP/prog --comm prog|--dsos=$TMP/prog --comms=prog"; do
	# shellcheck disable=SC2086
	"$HWTRACE" decode t.data -F comm,tid,ip,dso,addr ${f%%|*} >h.filter 2>/dev/null
	# shellcheck disable=SC2086
	perf script -i t.data --itrace=b -F comm,tid,ip,dso,addr ${f##*|} >p.filter 2>/dev/null
	expect_eq "${f%%|*} = perf script ${f##*|}" "$(cmp h.filter p.filter 2>&1)" ""
	case $f in *nosuch*) ;; *) expect_eq "${f%%|*} keeps some lines" "$([ -s h.filter ] && echo yes)" yes ;; esac
done
expect_eq "--sym fib keeps fib's ranges and branches only" \
	"$("$HWTRACE" decode t.data --sym fib 2>/dev/null | awk '$3 == "range" || $3 == "branch"' | grep -vc '  fib+0x')" "0"
expect_eq "--sym fib keeps every range of fib" \
	"$("$HWTRACE" decode t.data --sym fib --format jsonl 2>/dev/null | grep -c '"type":"range"')" \
	"$("$HWTRACE" decode t.data --format jsonl 2>/dev/null | grep '"type":"range"' | grep -c '"sym":"fib","symoff"')"

expect_eq "an unknown field is a usage error naming it" \
	"$("$HWTRACE" decode t.data -F ip,nosuch 2>&1 >/dev/null; echo "rc=$?")" \
	"hwtrace decode: -F: 'nosuch' is not a field; fields are comm, tid, pid, cpu, time, flags, ip, sym, symoff, dso, addr, insn, srcline
Run 'hwtrace decode --help' for usage.
rc=2"
expect_eq "-F with --format jsonl is a usage error" \
	"$("$HWTRACE" decode t.data -F ip --format jsonl >/dev/null 2>&1; echo $?)" "2"
finish
