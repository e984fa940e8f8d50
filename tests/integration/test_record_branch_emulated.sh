# hwtrace record -b / -j on the kernel emulator: branch records sampled
# through the capture engine from a sw_branch capture of pgo_loop (main
# calls hot() CALLS=10 times, hot's loop runs N=100 times a call: its
# back edge is taken CALLS x (N - 1) times), on the sysfs fixtures of
# each kind of hardware. The oracles: the ground truth (every taken
# branch, in order), sampled by hand below (after every PERIOD-th branch
# the last DEPTH the filter keeps, newest first), and perf 6.1, which
# reads every file: `perf script -F ip,period,brstack` prints exactly the
# windows of the truth, and hwtrace's own decode gives perf's records.
# - Intel LBR 32 (intel-lbr), 16 (intel-lbr16), 8 (intel-lbr8), AMD BRS
#   16 (amd-brs) and LBRv2 16 (amd-lbrv2, filtered to calls), Arm BRBE
#   64 (arm-brbe): no stack deeper than the
#   hardware's; with PERIOD = DEPTH = 32 the records tile the stream and
#   hot's back edge is counted as often as in the covered truth;
# - filters (-j any_call, any_ret, cond, with save_type: the want()
#   lines of a filter carry the types): the last DEPTH
#   branches of those kinds, the period still counting every branch;
# - -F: a sample once per 1/FREQ seconds of the branches' own times;
# - hw_index: perf reads the layout with hw_idx;
# - Intel Arch LBR 32 (intel-archlbr): every record carries its type
#   without save_type (perf names them), hw_idx is -1 in every sample
#   (no top-of-stack; read from the file's bytes by the layout of
#   perf_event.h, against legacy LBR's ring index), and hwtrace's decode
#   gives perf's records with those kinds;
# - branch counters (intel-lbr-counters, -j counter): each record's
#   counter word, read from the file's bytes, is the truth's branches
#   since the filter's previous kept one, saturating at 2 bits; hwtrace's
#   decode gives the same; perf 6.1 (older than the counters) warns and
#   still reads the records, and prints the fixture's caps/ files from
#   the file's CPU_PMU_CAPS;
# - a profile's [branch] section gives the file the options give;
# - errors: an unknown filter (exit 2, perf's words), BRS with a filter
#   and a machine without branch records (exit 1, perf's words), the
#   emulated one's and this one's (`-- CMD` on this kernel: where the CPU
#   has branch records, perf reads the file instead); no output file is
#   left behind.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
# tests/tools/branch_samples.py: a decode's branch records by sample.
export PYTHONPATH="$HWT_SOURCE_DIR/tests/tools${PYTHONPATH:+:$PYTHONPATH}"
source "$HWT_SOURCE_DIR/tests/integration/pgo_loop.sh"
pgo_loop_capture "clang perf" "clang linux-perf"
FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs"

pgo_loop_truth
# Direct or indirect calls: objdump at each call's source says.
python3 "$HWT_SOURCE_DIR/tests/tools/indirect_calls.py" "$data" "$TMP/truth.txt" \
	>"$TMP/indirect.txt" || fail "objdump reads the truth's calls"
awk 'NR == FNR { ind[$1] = 1; next } $3 == "call" && ind[$1] { $3 = "ind_call" } 1' \
	"$TMP/indirect.txt" "$TMP/truth.txt" >"$TMP/truth.kinds" &&
	mv "$TMP/truth.kinds" "$TMP/truth.txt"
expect_eq "the truth has direct calls" "$(($(awk '$3 == "call"' "$TMP/truth.txt" | wc -l) > 0))" 1
expect_eq "the truth has indirect calls (printf's, in libc)" "$(($(wc -l <"$TMP/indirect.txt") > 0))" 1
nbr=$(wc -l <"$TMP/truth.txt")
expect_eq "the truth: hot's back edge CALLS x (N - 1) times" \
	"$(awk '{ c[$1 " " $2]++ } END { for (k in c) if (c[k] == 990) n++; print n }' "$TMP/truth.txt")" 1

# want PERIOD DEPTH FILTER [FREQ]: perf script -F ip,period,brstack's
# lines for the truth sampled by hand (FILTER: any, or kinds joined by +;
# with FREQ the period is the branches since the last sample). With
# WANT_COUNTERS=WIDTH, each sample's branch_words line instead: each
# record's count of the truth's branches since the filter's previous kept
# one, itself included, saturating at WIDTH bits.
want() {
	python3 - "$TMP/truth.txt" "$@" <<'PY'
import os, sys
b = [l.split() for l in open(sys.argv[1])]
period, depth, kinds = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
freq = int(sys.argv[5]) if len(sys.argv) > 5 else 0
types = {"call": "CALL", "ind_call": "IND_CALL", "return": "RET",
         "jump": "UNCOND", "cond": "COND", "indirect": "IND",
         "syscall": "SYSCALL", "sysret": "SYSRET"}
keep = lambda k: kinds == "any" or k in kinds.split("+")
width = int(os.environ.get("WANT_COUNTERS") or 0)
count, last = [0] * len(b), -1
for j, x in enumerate(b):
    if keep(x[2]):
        count[j], last = min(j - last, (1 << width) - 1), j
since, next_t = 0, 0
for i, (f, t, k, tm) in enumerate(b):
    since += 1
    if freq:
        step = 10**9 // freq
        if not next_t:
            next_t = int(tm) + step
        due = int(tm) >= next_t
        while due and next_t <= int(tm):
            next_t += step
    else:
        due = since == period
    if not due:
        continue
    at = [j for j in range(i, -1, -1) if keep(b[j][2])][:depth]
    stack = [b[j] for j in at]
    if width:
        print(len(at), "-", *(count[j] for j in at))
        since = 0
        continue
    # WANT_TYPES=1: the hardware saves every record's type (Arch LBR).
    typed = kinds != "any" or os.environ.get("WANT_TYPES") == "1"
    sfx = lambda x: types.get(x[2], "") if typed else ""
    recs = ["%s/%s/-/-/-/0/%s" % (x[0], x[1], sfx(x)) for x in stack]
    print(since, "%x" % int(t, 16), *recs)
    since = 0
PY
}
# got FILE: perf's lines, blanks squeezed.
got() { perf script -F period,ip,brstack -i "$1" 2>"$TMP/perf.err" | awk 'NF { $1 = $1; print }'; }
# rec NAME FIXTURE ARGS...: records into $TMP/NAME.data.
# brstack JSONL [types]: hwtrace's sampled branches of a decode as perf
# script -F brstack prints them, a stack a line from entry 0 (with
# "types", each record's branch type as perf names it, else none; a call
# is IND_CALL where objdump says so: hwtrace's kinds have one call).
brstack() {
	python3 - "$TMP/indirect.txt" "$@" <<'PY'
import json, sys
from branch_samples import branch_samples
types = {"call": "CALL", "return": "RET", "jump": "UNCOND", "cond": "COND",
         "indirect": "IND", "syscall": "SYSCALL", "sysret": "SYSRET"}
ind = set(open(sys.argv.pop(1)).read().split())
with_types = len(sys.argv) > 2 and sys.argv[2] == "types"
name = lambda e: "IND_CALL" if e["kind"] == "call" and e["from"] in ind \
    else types[e["kind"]]
for recs in branch_samples(sys.argv[1]):
    print(" ".join("%s/%s/-/-/-/0/%s" % (e["from"], e["to"],
                                         name(e) if with_types else "")
                   for e in recs))
PY
}
# sample_values JSONL counters|counts: each sample's branch records of a
# decode (a sample's records share its time), "N - V..." with V each
# record's counters word or the first of its counts, from entry 0: the
# layout of branch_words' lines of a capture without hw_index, so that
# they compare.
sample_values() {
	python3 - "$1" "$2" <<'PY'
import json, sys
from branch_samples import branch_samples
value = {"counters": lambda e: e["counters"],
         "counts": lambda e: e["counts"][0]}[sys.argv[2]]
for recs in branch_samples(sys.argv[1]):
    print(len(recs), "-", *(value(e) for e in recs))
PY
}
rec() {
	local name=$1 fix=$2
	shift 2
	"$HWTRACE" record "$@" --sysfs "$FIX/$fix" --emulate-branches "$data" \
		-o "$TMP/$name.data" 2>"$TMP/$name.err" || fail "record $name: $(cat "$TMP/$name.err")"
}
# check NAME PERIOD DEPTH FILTER [FREQ]: perf reads the truth's windows.
check() {
	local name=$1
	shift
	got "$TMP/$name.data" >"$TMP/$name.got"
	want "$@" >"$TMP/$name.want"
	expect_eq "$name: perf script gives the truth's windows" \
		"$(md5sum <"$TMP/$name.got")" "$(md5sum <"$TMP/$name.want")"
	expect_eq "$name: samples" "$(wc -l <"$TMP/$name.got")" "$(wc -l <"$TMP/$name.want")"
	expect_eq "$name: no stack deeper than $2" \
		"$(awk -v d="$2" 'NF - 2 > d' "$TMP/$name.got" | wc -l)" 0
}

rec l32 intel-lbr -b -c 32
check l32 32 32 any
expect_eq "l32: floor(branches / 32) samples, all 32 deep" \
	"$(awk 'NF == 34' "$TMP/l32.got" | wc -l)" "$((nbr / 32))"
expect_contains "l32: the record says what it sampled" "$(cat "$TMP/l32.err")" \
	"$((nbr / 32)) samples of cpu's 32-record branch stacks (LBR), 0 records lost"
# hwtrace's decode: perf's records, and hot's back edge as in the truth
# it covers (the first samples x 32 branches).
"$HWTRACE" decode --format jsonl "$TMP/l32.data" >"$TMP/l32.jsonl" 2>/dev/null || fail "decode l32"
expect_eq "l32: hwtrace's records are perf's" "$(brstack "$TMP/l32.jsonl" | md5sum)" \
	"$(cut -d' ' -f3- "$TMP/l32.got" | md5sum)"
expect_eq "l32: hot's back edge, as often as in the covered truth" \
	"$(python3 -c '
import collections, json, sys
c = collections.Counter((e["from"], e["to"]) for e in map(json.loads, open(sys.argv[1])) if e["type"] == "branch")
print(max(c.values()))' "$TMP/l32.jsonl")" \
	"$(head -n $((nbr / 32 * 32)) "$TMP/truth.txt" | awk '{ c[$1 " " $2]++ } END { for (k in c) if (c[k] > m) m = c[k]; print m }')"

rec l16 intel-lbr16 -j any,u -c 50
check l16 50 16 any
rec l8 intel-lbr8 -j any -c 7
check l8 7 8 any
rec brs amd-brs -j any,u -c 50
check brs 50 16 any
rec lv2 amd-lbrv2 -j any_call,u,save_type -c 40
check lv2 40 16 call+ind_call+syscall
rec brbe arm-brbe -j any,u -c 100
check brbe 100 64 any
expect_eq "brbe: stacks 64 deep" "$(awk 'NF - 2 == 64' "$TMP/brbe.got" | wc -l)" "$((nbr / 100))"

# Filters, with the type saved: perf names each record's type.
rec calls arm-brbe -j any_call,u,save_type -c 20
check calls 20 64 call+ind_call+syscall
rec rets intel-lbr -j any_ret,u,save_type -c 20
check rets 20 32 return+sysret
rec conds intel-lbr16 -j cond,save_type -c 30
check conds 30 16 cond
# -j call and -j ind_call: the calls objdump reads as direct, and as
# indirect (a filter perf 6.1 names in each record: CALL, IND_CALL).
rec dcall intel-lbr -j call,u,save_type -c 20
check dcall 20 32 call
rec icall intel-lbr -j ind_call,u,save_type -c 20
check icall 20 32 ind_call
expect_eq "icall: records kept" "$(($(tr ' ' '\n' <"$TMP/icall.got" | grep -c /IND_CALL$) > 0))" 1
expect_eq "icall: every record an indirect call" \
	"$(tr ' ' '\n' <"$TMP/icall.got" | grep / | grep -vc /IND_CALL$)" 0
expect_eq "dcall: every record a direct call" \
	"$(tr ' ' '\n' <"$TMP/dcall.got" | grep / | grep -vc /CALL$)" 0

# A frequency: the sample times are the branches' own.
rec freq intel-lbr -b -F 20000
check freq 0 32 any 20000

# hw_index: a word more in each sample; perf reads past it.
rec hwi intel-lbr8 -j any,u,hw_index -c 32
check hwi 32 8 any

# Intel Arch LBR: the types without save_type, no top-of-stack index.
rec alb intel-archlbr -j any,u,hw_index -c 32
WANT_TYPES=1 check alb 32 32 any
expect_contains "alb: the records have types" "$(head -1 "$TMP/alb.got")" "/0/CALL"
# branch_words FILE: each sample's branch-stack words, read from the
# file by the layout of linux/perf_event.h (the branch event's
# sample_type fields before the branch stack; every sample of these files
# is that event's): "NR HW_IDX C0 C1 ...", HW_IDX in hex or - without
# PERF_SAMPLE_BRANCH_HW_INDEX, then the counter word of each record with
# PERF_SAMPLE_BRANCH_COUNTERS (after the records).
branch_words() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
attr_size, = struct.unpack_from("<Q", d, 16)
a_off, a_size, d_off, d_size = struct.unpack_from("<4Q", d, 24)
st = None
for at in range(a_off, a_off + a_size, attr_size):  # attr, then its ids section
    t, = struct.unpack_from("<Q", d, at + 24)
    if t & (1 << 11):                       # PERF_SAMPLE_BRANCH_STACK
        st, bst = t, struct.unpack_from("<Q", d, at + 72)[0]
assert st is not None
has_idx, has_cntr = bst & (1 << 17), bst & (1 << 19)  # HW_INDEX, COUNTERS
# IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD: a word each.
words = sum(1 for bit in (16, 0, 1, 2, 3, 6, 9, 7, 8) if st & (1 << bit))
assert not st & ((1 << 4) | (1 << 5) | (1 << 10))  # no READ, CALLCHAIN, RAW
at = d_off
while at < d_off + d_size:
    typ, misc, size = struct.unpack_from("<IHH", d, at)
    if typ == 9:                            # PERF_RECORD_SAMPLE
        p = at + 8 + 8 * words
        nr, = struct.unpack_from("<Q", d, p)
        idx = "%x" % struct.unpack_from("<Q", d, p + 8)[0] if has_idx else "-"
        p += 8 + (8 if has_idx else 0) + 24 * nr
        cntr = struct.unpack_from("<%dQ" % nr, d, p) if has_cntr else ()
        assert p + 8 * len(cntr) == at + size
        print(nr, idx, *cntr)
    at += size
PY
}
hw_idx() { branch_words "$1" | cut -d' ' -f1,2; }
hw_idx "$TMP/alb.data" >"$TMP/alb.idx"
expect_eq "alb: hw_idx -1 in every sample" \
	"$(awk '$2 == "ffffffffffffffff"' "$TMP/alb.idx" | wc -l)" "$(wc -l <"$TMP/alb.got")"
rec lbh intel-lbr -j any,u,hw_index -c 32
expect_eq "legacy LBR (control): hw_idx the ring's top, 31 after 32 records" \
	"$(hw_idx "$TMP/lbh.data" | sort -u)" "32 1f"
"$HWTRACE" decode --format jsonl "$TMP/alb.data" >"$TMP/alb.jsonl" 2>/dev/null || fail "decode alb"
expect_eq "alb: hwtrace's records and kinds are perf's" \
	"$(brstack "$TMP/alb.jsonl" types | md5sum)" "$(cut -d' ' -f3- "$TMP/alb.got" | md5sum)"

# Branch counters (-j counter) on intel-lbr-counters (Arch LBR, 4
# counters of 2 bits): the counter word after the records, the group's one
# event (branches) in its low 2 bits, is the truth's branches since the
# filter's previous kept one, saturating at 3; hwtrace's decode gives the
# file's words. perf 6.1 predates PERF_SAMPLE_BRANCH_COUNTERS (Linux
# 6.8): it warns of the unknown bit and still reads every sample's
# records (the counters come last in these samples).
rec cnt intel-lbr-counters -j any_call,any_ret,u,counter -c 20
check cnt 20 32 call+ind_call+syscall+return+sysret
expect_contains "cnt: perf 6.1 does not know the counters bit" "$(cat "$TMP/perf.err")" \
	"Unknown branch sample type (0x80031)"
branch_words "$TMP/cnt.data" >"$TMP/cnt.words"
WANT_COUNTERS=2 want 20 32 call+ind_call+syscall+return+sysret >"$TMP/cnt.wantw"
expect_eq "cnt: the counters are the truth's branches since the last kept" \
	"$(md5sum <"$TMP/cnt.words")" "$(md5sum <"$TMP/cnt.wantw")"
expect_eq "cnt: counts of 1, 2 and 3 (saturated) all occur" \
	"$(cut -d' ' -f3- "$TMP/cnt.words" | tr ' ' '\n' | sort -u | tr '\n' ' ')" "1 2 3 "
"$HWTRACE" decode --format jsonl "$TMP/cnt.data" >"$TMP/cnt.jsonl" 2>/dev/null || fail "decode cnt"
expect_eq "cnt: hwtrace's records' counters are the file's" \
	"$(sample_values "$TMP/cnt.jsonl" counters | md5sum)" \
	"$(md5sum <"$TMP/cnt.words")"
expect_eq "cnt: the text listing's counters are the jsonl's" \
	"$("$HWTRACE" decode "$TMP/cnt.data" 2>/dev/null | grep -o ' counters [0-9]*' | md5sum)" \
	"$(grep -o '"counters":[0-9]*' "$TMP/cnt.jsonl" | sed 's/"counters":/ counters /' | md5sum)"
# Split by event (the file's CPU_PMU_CAPS width, 2, and its one event
# with counters): each record's counts are one count, the truth's.
expect_eq "cnt: every record's counts are one count (the group is branches alone)" \
	"$(python3 -c '
import json, sys
print(sorted({len(e.get("counts", [])) for e in map(json.loads, open(sys.argv[1]))
              if e["type"] == "branch"}))' "$TMP/cnt.jsonl")" "[1]"
expect_eq "cnt: hwtrace's counts are the truth's branches since the last kept" \
	"$(sample_values "$TMP/cnt.jsonl" counts | md5sum)" \
	"$(md5sum <"$TMP/cnt.wantw")"
expect_eq "cnt: the text listing's counts are the jsonl's" \
	"$("$HWTRACE" decode "$TMP/cnt.data" 2>/dev/null | grep -o ' counts [0-9,]*' | md5sum)" \
	"$(grep -o '"counts":\[[0-9,]*' "$TMP/cnt.jsonl" | sed 's/"counts":\[/ counts /' | md5sum)"
# The file's CPU_PMU_CAPS (perf 6.8 reads the counters' number and width
# there): the fixture's caps/ files, as perf 6.1 prints them.
expect_eq "cnt: perf reads the PMU's caps from the file" \
	"$(perf report --header-only -i "$TMP/cnt.data" 2>/dev/null |
		sed -n 's/^# cpu pmu capabilities: //p' | tr -d ' ' | tr ',' '\n' | LC_ALL=C sort)" \
	"$(cd "$FIX/intel-lbr-counters/bus/event_source/devices/cpu/caps" &&
		for f in *; do echo "$f=$(cat "$f")"; done | LC_ALL=C sort)"
expect_eq "no counters field without -j counter" "$(grep -c '"counters"' "$TMP/l32.jsonl")" 0
rec cntany intel-lbr-counters -j any,u,counter -c 32
expect_eq "cntany: -j any: every record counts its own branch, 1" \
	"$(branch_words "$TMP/cntany.data" | cut -d' ' -f3- | tr ' ' '\n' | sort -u)" 1
"$HWTRACE" record -j any,counter -c 5 --sysfs "$FIX/intel-lbr" --emulate-branches "$data" \
	-o "$TMP/bad7.data" 2>"$TMP/bad7.err"
expect_eq "-j counter without caps/branch_counter_nr: exit 1" "$?" 1
expect_contains "-j counter without caps/branch_counter_nr: why" "$(cat "$TMP/bad7.err")" \
	"has no caps/branch_counter_nr"

# The profile's [branch] section: the same file as the options.
printf '[branch]\nfilter = any_ret,u,save_type\nperiod = 20\n' >"$TMP/b.ini"
rec prof intel-lbr -c "$TMP/b.ini"
expect_eq "profile: the records of -j any_ret,u,save_type -c 20" \
	"$(got "$TMP/prof.data" | md5sum)" "$(got "$TMP/rets.data" | md5sum)"
printf '[branch]\nfilter = any,bogus\n' >"$TMP/bad.ini"
"$HWTRACE" record --config "$TMP/bad.ini" --sysfs "$FIX/intel-lbr" --emulate-branches "$data" \
	-o "$TMP/bad1.data" 2>"$TMP/bad1.err"
expect_eq "profile: an unknown filter is a usage error" "$?" 2
expect_contains "profile: perf's words, the file named" "$(cat "$TMP/bad1.err")" \
	"[branch] filter = ($TMP/bad.ini): any,bogus: unknown branch filter bogus, check man page"

# Errors.
"$HWTRACE" record -j any,bogus -c 5 --sysfs "$FIX/intel-lbr" --emulate-branches "$data" \
	-o "$TMP/bad2.data" 2>"$TMP/bad2.err"
expect_eq "-j bogus: exit 2" "$?" 2
expect_contains "-j bogus: perf's words" "$(cat "$TMP/bad2.err")" \
	"-j any,bogus: unknown branch filter bogus, check man page"
"$HWTRACE" record -j any_call -c 5 --sysfs "$FIX/amd-brs" --emulate-branches "$data" \
	-o "$TMP/bad3.data" 2>"$TMP/bad3.err"
expect_eq "BRS with a filter: exit 1" "$?" 1
expect_contains "BRS with a filter: why" "$(cat "$TMP/bad3.err")" \
	"AMD BRS can only capture all branches: use -j any"
"$HWTRACE" record -b -c 5 --sysfs "$FIX/no-trace" --emulate-branches "$data" \
	-o "$TMP/bad4.data" 2>"$TMP/bad4.err"
expect_eq "no branch records: exit 1" "$?" 1
expect_contains "no branch records: perf's words" "$(cat "$TMP/bad4.err")" \
	"PMU Hardware or event type doesn't support branch stack sampling."
"$HWTRACE" record -b -c 5 -F 10 --sysfs "$FIX/intel-lbr" --emulate-branches "$data" \
	-o "$TMP/bad5.data" 2>"$TMP/bad5.err"
expect_eq "-c and -F: exit 2" "$?" 2

# This machine's kernel: a command sampled with cycles where the CPU has
# branch records (perf reads the file); refused in perf's words where it
# has none (this VM).
if "$HWTRACE" list 2>/dev/null | grep -q "^Branch records (perf record -b): none"; then
	"$HWTRACE" record -b -c 100000 -o "$TMP/bad6.data" -- "$PROG" "$N" >/dev/null 2>"$TMP/bad6.err"
	expect_eq "here, no branch records: exit 1" "$?" 1
	expect_contains "here, no branch records: perf's words" "$(cat "$TMP/bad6.err")" \
		"cycles: PMU Hardware or event type doesn't support branch stack sampling."
else
	"$HWTRACE" record -j any,u -c 10007 -o "$TMP/here.data" -- "$PROG" 100000 \
		>/dev/null 2>"$TMP/here.err" || fail "record here: $(cat "$TMP/here.err")"
	expect_eq "here: perf reads branch stacks" \
		"$(perf script -F brstack -i "$TMP/here.data" 2>/dev/null | grep -c /)" \
		"$(perf script -F brstack -i "$TMP/here.data" 2>/dev/null | grep -c .)"
fi
expect_eq "no output file after an error" "$(ls "$TMP"/bad*.data 2>/dev/null | wc -l)" 0
finish
