# Branch-stack captures with the binary at hand, made from ground truth:
# a sw_branch capture of pgo_loop (every taken branch; main calls hot()
# CALLS=10 times, hot's loop runs N=100 times a call) sampled as an LBR
# would (tests/tools/lbr_from_branches: after every PERIOD-th branch, the
# last DEPTH, newest first).
# - PERIOD = DEPTH = 32 (Skylake's depth): the samples tile the stream,
#   so the records' branch counts equal the ground truth's over the
#   branches the samples cover, hot's back edge among them;
# - PERIOD 50, DEPTH 16 (AMD BRS's depth): 16 records a sample, and the
#   counts are those of the ground truth's 16-branch windows; filtered to
#   calls (-j any_call), the truth's last 16 calls, and no range at all;
# - perf 6.1 reads the capture: perf script -F brstack gives hwtrace's
#   records, and with the type saved its type names are hwtrace's kinds
#   (the ground truth's);
# - the code is found: between two records a range element, from the
#   older one's target to just after the newer one's branch, for every
#   pair of a stack; AutoFDO's text counts them as the records pair up;
# - report and report --collapsed take each stack as a window of its own:
#   hot's instructions are the ground truth's between two records;
# - pprof -top gives hot those instructions, the sampling named in the
#   profile's comment and as its period_type and period (pprof -raw); SQLite has a sample row per record;
# - the profiles are read by their consumers: create_llvm_prof makes a
#   profile with hot in it, llvm-bolt-15 takes the fdata with no stale
#   function, and perf2bolt-15, reading the same perf.data itself, gives
#   every branch line hwtrace gives in pgo_loop's functions, with the
#   same counts; its other lines there are the fall-throughs it adds
#   (from a not-taken branch to the instruction after it).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
# tests/tools/branch_samples.py: a decode's branch records by sample.
export PYTHONPATH="$HWT_SOURCE_DIR/tests/tools${PYTHONPATH:+:$PYTHONPATH}"
source "$HWT_SOURCE_DIR/tests/integration/pgo_loop.sh"
: "${HWT_LBR_FROM_BRANCHES:?the lbr_from_branches helper}"
pgo_loop_capture "clang create_llvm_prof llvm-bolt-15 perf2bolt-15 perf objdump" \
	"clang autofdo bolt-15 linux-perf binutils" \
	-gdwarf-4 -fdebug-info-for-profiling -Wl,--emit-relocs

"$HWTRACE" decode --format jsonl "$data" >"$TMP/truth.jsonl" 2>/dev/null || fail "decode the ground truth"

# branch_counts JSONL [FIRST]: "from to count" of its branch elements
# (only the FIRST ones when given), sorted.
branch_counts() {
	python3 - "$@" <<'PY'
import collections, json, sys
first = int(sys.argv[2]) if len(sys.argv) > 2 else None
n, c = 0, collections.Counter()
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["type"] != "branch":
        continue
    n += 1
    if first is not None and n > first:
        break
    c[(e["from"], e["to"])] += 1
for (f, t), k in sorted(c.items()):
    print(f, t, k)
PY
}

# PERIOD = DEPTH = 32.
out=$(${HWT_TARGET_RUN:-} "$HWT_LBR_FROM_BRANCHES" "$data" "$TMP/l32.data" 32 32) || fail "lbr_from_branches 32 32"
read -r samples _ records _ <<<"$out"
"$HWTRACE" decode --format jsonl "$TMP/l32.data" >"$TMP/l32.jsonl" 2>"$TMP/l32.err" ||
	fail "decode: $(cat "$TMP/l32.err")"
expect_eq "32/32: records = samples x 32" "$records" "$((samples * 32))"
expect_eq "32/32: the branch counts of the ground truth's first samples x 32 branches" \
	"$(branch_counts "$TMP/l32.jsonl" | md5sum)" \
	"$(branch_counts "$TMP/truth.jsonl" "$records" | md5sum)"
hot=$(nm "$PROG" | awk '$3 == "hot" { print $1 }')
expect_eq "32/32: hot's back edge, as often as in the covered truth" \
	"$(branch_counts "$TMP/l32.jsonl" | awk '$3 > 100 { print $3 }')" \
	"$(branch_counts "$TMP/truth.jsonl" "$records" | awk '$3 > 100 { print $3 }')"
expect_eq "32/32: every record sampled with weight 32" \
	"$(grep '"type":"branch"' "$TMP/l32.jsonl" | grep -vc '"weight":32,')" 0

# PERIOD 50, DEPTH 16: the ground truth's windows, by their own count.
${HWT_TARGET_RUN:-} "$HWT_LBR_FROM_BRANCHES" "$data" "$TMP/l16.data" 50 16 >/dev/null || fail "lbr_from_branches 50 16"
"$HWTRACE" decode --format jsonl "$TMP/l16.data" >"$TMP/l16.jsonl" 2>/dev/null || fail "decode 50/16"
expect_eq "50/16: every stack 16 records deep (depths 0-15)" \
	"$(python3 -c '
import json, sys
d = [json.loads(l).get("depth") for l in open(sys.argv[1]) if "\"branch\"" in l]
print(len(d) % 16, max(d), sorted(set(d)) == list(range(16)))' "$TMP/l16.jsonl")" "0 15 True"
expect_eq "50/16: the counts of the truth's windows (branches 35-50, 85-100, ...)" \
	"$(branch_counts "$TMP/l16.jsonl" | md5sum)" "$(python3 - "$TMP/truth.jsonl" <<'PY' | md5sum
import collections, json, sys
b = [(e["from"], e["to"]) for e in map(json.loads, open(sys.argv[1])) if e["type"] == "branch"]
c = collections.Counter()
for k in range(50, len(b) + 1, 50):
    c.update(b[k - 16:k])
for (f, t), n in sorted(c.items()):
    print(f, t, n)
PY
)"

# A filtered stack (-j any_call,u): calls only, the truth's last 16
# calls before each sample; no range between two records (the code
# between them is not straight), none counted by the AutoFDO text.
${HWT_TARGET_RUN:-} "$HWT_LBR_FROM_BRANCHES" "$data" "$TMP/lc.data" 50 16 filter=any_call,u \
	>/dev/null || fail "lbr_from_branches filter=any_call,u"
"$HWTRACE" decode --format jsonl "$TMP/lc.data" >"$TMP/lc.jsonl" 2>/dev/null || fail "decode any_call"
expect_eq "any_call: the counts of the truth's last 16 calls before each sample" \
	"$(branch_counts "$TMP/lc.jsonl" | md5sum)" "$(python3 - "$TMP/truth.jsonl" <<'PY' | md5sum
import collections, json, sys
b = [e for e in map(json.loads, open(sys.argv[1])) if e["type"] == "branch"]
c = collections.Counter()
for k in range(50, len(b) + 1, 50):
    calls = [(e["from"], e["to"]) for e in b[:k] if e["kind"] in ("call", "syscall")]
    c.update(calls[-16:])
for (f, t), n in sorted(c.items()):
    print(f, t, n)
PY
)"
expect_eq "any_call: no range elements" "$(grep -c '"type":"range"' "$TMP/lc.jsonl")" 0
"$HWTRACE" export "$TMP/lc.data" --to autofdo -o "$TMP/lc" 2>"$TMP/lc.err" || fail "export any_call"
expect_contains "any_call: the AutoFDO text counts no range" "$(cat "$TMP/lc.err")" \
	"hwtrace export: 0 ranges (0 ended without a taken branch)"

# perf reads it.
perf script -F brstack -i "$TMP/l32.data" >"$TMP/perf.txt" 2>"$TMP/perf.err" ||
	fail "perf script: $(cat "$TMP/perf.err")"
expect_eq "perf script: hwtrace's records, newest first" \
	"$(awk 'NF { $1 = $1; print }' "$TMP/perf.txt" | md5sum)" "$(python3 - "$TMP/l32.jsonl" <<'PY' | md5sum
import json, sys
from branch_samples import branch_samples
for recs in branch_samples(sys.argv[1]):
    print(" ".join("%s/%s/-/-/-/0/" % (e["from"], e["to"]) for e in recs))
PY
)"

# With the branch type and privilege saved (-j any,u,save_type,priv):
# perf script names every record's type as hwtrace names its kind, which
# is the ground truth's kind, and every record is user code.
${HWT_TARGET_RUN:-} "$HWT_LBR_FROM_BRANCHES" "$data" "$TMP/lt.data" 32 32 save_type >/dev/null ||
	fail "lbr_from_branches save_type"
"$HWTRACE" decode --format jsonl "$TMP/lt.data" >"$TMP/lt.jsonl" 2>/dev/null || fail "decode save_type"
perf script -F brstack -i "$TMP/lt.data" >"$TMP/lt.perf" 2>/dev/null || fail "perf script save_type"
expect_eq "save_type: perf's type of every record is hwtrace's kind" \
	"$(awk '{ for (i = 1; i <= NF; i++) { n = split($i, f, "/"); print f[n] } }' "$TMP/lt.perf" | md5sum)" \
	"$(python3 - "$TMP/lt.jsonl" <<'PY' | md5sum
import json, sys
from branch_samples import branch_samples
names = {"cond": "COND", "call": "CALL", "return": "RET", "jump": "UNCOND",
         "indirect": "IND", "syscall": "SYSCALL", "sysret": "SYSRET"}
for recs in branch_samples(sys.argv[1]):
    for e in recs:
        print(names[e["kind"]])
PY
)"
expect_eq "save_type: the kinds are the ground truth's" \
	"$(python3 -c '
import json, sys
k = lambda f: [(e["from"], e["to"], e["kind"]) for e in map(json.loads, open(f)) if e["type"] == "branch"]
truth = {(f, t): kind for f, t, kind in k(sys.argv[1])}
print(sum(truth[(f, t)] != kind for f, t, kind in k(sys.argv[2])))' "$TMP/truth.jsonl" "$TMP/lt.jsonl")" 0
expect_eq "save_type: every record user code" \
	"$(grep '"type":"branch"' "$TMP/lt.jsonl" | grep -vc '"priv":"user"')" 0

# Ranges: one per pair of records, from the older one's target to the
# newer one's branch instruction and past it.
expect_eq "ranges: one per pair of a stack's records" \
	"$(grep -c '"type":"range"' "$TMP/l32.jsonl")" "$((records - samples))"
expect_eq "ranges: each from the record before's target to after the next branch" \
	"$(python3 - "$TMP/l32.jsonl" <<'PY'
import json, sys
bad, prev, rng = 0, None, None
for e in map(json.loads, open(sys.argv[1])):
    if e["type"] == "range":
        rng = e
    elif e["type"] == "branch":
        if prev is not None and prev["time"] == e["time"]:
            f = int(e["from"], 16)
            if not (rng and rng["start"] == prev["to"] and
                    int(rng["start"], 16) <= f < int(rng["end"], 16) <= f + 15):
                bad += 1
        prev, rng = e, None
print(bad)
PY
)" 0
"$HWTRACE" export "$TMP/l32.data" --to autofdo -o "$TMP/a" 2>"$TMP/afdo.err" ||
	fail "export --to autofdo: $(cat "$TMP/afdo.err")"
afdo="$TMP/a.pgo_loop.afdo.txt"
# Where pgo_loop (PIE: its first segment at 0) was loaded: its lowest
# mapping, less its file offset.
base=$("$HWTRACE" dump "$TMP/l32.data" | python3 -c '
import re, sys
b = min(int(m.group(1), 16) - int(m.group(2), 16) for m in
        (re.search(r"\[0x([0-9a-f]+)\(0x[0-9a-f]+\) @ (?:0x)?([0-9a-f]+) .*\]: \S+ (.*)$", l)
         for l in sys.stdin if "MMAP2" in l) if m and m.group(3) == sys.argv[1])
print("%x" % b)' "$PROG")
expect_eq "autofdo: the ranges of the records' pairs in pgo_loop" \
	"$(sed -n '2,/^0$/p' "$afdo" | sed '$d' | md5sum)" "$(python3 - "$TMP/l32.jsonl" "$PROG" "$base" <<'PY' | md5sum
import collections, json, sys
from branch_samples import branch_samples
c = collections.Counter()
for recs in branch_samples(sys.argv[1]):
    recs.reverse()  # oldest first
    for older, newer in zip(recs, recs[1:]):
        if older.get("to_dso") == sys.argv[2] and newer.get("from_dso") == sys.argv[2]:
            c[(older["to"], newer["from"])] += 1
base = int(sys.argv[3], 16)
for (s, l), n in sorted(c.items(), key=lambda x: (int(x[0][0], 16), int(x[0][1], 16))):
    print("%x-%x:%d" % (int(s, 16) - base, int(l, 16) - base, n))
PY
)"

# report on the records: each stack a window of its own, hot's
# instructions those of the ground truth's ranges in hot that lie
# between two records of one sample (every range but the one before a
# sample's oldest record, and those after the last sample).
want_hot=$(python3 - "$TMP/truth.jsonl" "$records" <<'PY'
import json, sys
n, last, t = 0, int(sys.argv[2]), 0
pending = 0
for e in map(json.loads, open(sys.argv[1])):
    if e["type"] == "range":
        pending += e["insns"] if e.get("sym") == "hot" else 0
    elif e["type"] == "branch":
        if n % 32 and n < last:
            t += pending
        pending = 0
        n += 1
print(t)
PY
)
expect_eq "range elements in hot: the ground truth's instructions there" \
	"$(python3 -c '
import json, sys
print(sum(e["insns"] for e in map(json.loads, open(sys.argv[1]))
          if e["type"] == "range" and e.get("sym") == "hot"))' "$TMP/l32.jsonl")" "$want_hot"
"$HWTRACE" report "$TMP/l32.data" --top 0 >"$TMP/report.txt" 2>"$TMP/report.err" ||
	fail "report: $(cat "$TMP/report.err")"
expect_eq "report: hot's self instructions, 10 calls" \
	"$(awk '$NF == "hot" { print $1, $5 }' "$TMP/report.txt")" "$want_hot 10"
expect_contains "report: no frame cut by lost trace" "$(cat "$TMP/report.err")" \
	"0 frames ended by lost trace"
"$HWTRACE" report --collapsed "$TMP/l32.data" >"$TMP/folded.txt" 2>/dev/null ||
	fail "report --collapsed"
expect_eq "report --collapsed: hot's instructions in its stacks" \
	"$(awk '{ n = split($1, f, ";"); if (f[n] == "hot") t += $2 } END { print t }' "$TMP/folded.txt")" \
	"$want_hot"

# pprof: the same instructions, the sampling named in a comment; SQLite
# (perf's export schema): a sample row per record.
pprof_build
"$HWTRACE" export "$TMP/l32.data" --to pprof -o "$TMP/l32.pb.gz" 2>/dev/null || fail "export --to pprof"
expect_eq "pprof -top: hot's flat instructions" \
	"$("$PPROF" -top "$TMP/l32.pb.gz" 2>/dev/null | awk '$NF == "hot" { print $1 }')" "$want_hot"
expect_contains "pprof -comments: the sampling" "$("$PPROF" -comments "$TMP/l32.pb.gz" 2>&1)" \
	"$records records; instructions and branches are counted from the records, one sample in every 32 events"
# pprof's period: counts stay record counts (pprof does not multiply by
# the period), the sampling is the profile's period_type and period, as
# pprof -raw shows them: 32 from lbr_from_branches' PERIOD; the full
# trace it was made from keeps one instruction a period (the control).
raw_period() { "$PPROF" -raw "$1" 2>/dev/null | grep -E '^Period(Type)?:' | tr '\n' ';'; }
expect_eq "pprof -raw: the records' sampling period" \
	"$(raw_period "$TMP/l32.pb.gz")" "PeriodType: events count;Period: 32;"
"$HWTRACE" export "$TMP/l16.data" --to pprof -o "$TMP/l16.pb.gz" 2>/dev/null || fail "export --to pprof 50/16"
expect_eq "pprof -raw: period 50 of the 50/16 capture" \
	"$(raw_period "$TMP/l16.pb.gz")" "PeriodType: events count;Period: 50;"
"$HWTRACE" export "$data" --to pprof -o "$TMP/truth.pb.gz" 2>/dev/null || fail "export --to pprof, the full trace"
expect_eq "pprof -raw: a full trace is not sampled" \
	"$(raw_period "$TMP/truth.pb.gz")" "PeriodType: instructions count;Period: 1;"
"$HWTRACE" export "$TMP/l32.data" --to sqlite -o "$TMP/l32.db" 2>/dev/null || fail "export --to sqlite"
expect_eq "sqlite: a branch sample per record" \
	"$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("select count(*) from samples where branch_type != 0").fetchone()[0])' "$TMP/l32.db")" "$records"

# The consumers.
create_llvm_prof --profiler text --profile "$afdo" --binary "$PROG" \
	--out "$TMP/p.afdo" >"$TMP/clp.out" 2>&1 || fail "create_llvm_prof: $(tail -3 "$TMP/clp.out")"
expect_contains "create_llvm_prof: hot has a profile" \
	"$(llvm-profdata-15 show --sample --function=hot "$TMP/p.afdo" 2>&1)" "Function: hot"
"$HWTRACE" export "$TMP/l32.data" --to bolt -o "$TMP/b" 2>/dev/null || fail "export --to bolt"
fdata="$TMP/b.pgo_loop.fdata"
llvm-bolt-15 "$PROG" -o "$TMP/pl.bolt" -data="$fdata" -report-stale >"$TMP/bolt.out" 2>&1 ||
	fail "llvm-bolt -data: $(grep -i error "$TMP/bolt.out" | head -3)"
expect_eq "llvm-bolt: no stale function profile" \
	"$(grep -c 'invalid (possibly stale) profile' "$TMP/bolt.out")" 0
perf2bolt-15 -aggregate-only -p "$TMP/l32.data" -o "$TMP/p2b.fdata" "$PROG" \
	>"$TMP/p2b.out" 2>&1 || fail "perf2bolt: $(tail -3 "$TMP/p2b.out")"
expect_contains "perf2bolt read every sample and record" "$(cat "$TMP/p2b.out")" \
	"read $samples samples and $records LBR entries"
own() { awk '($2 == "hot" || $2 == "main" || $2 == "mix/1") &&
	($5 == "hot" || $5 == "main" || $5 == "mix/1")' "$1" | sort; }
expect_eq "perf2bolt: hwtrace's branch lines in pgo_loop's functions, same counts" \
	"$(comm -23 <(own "$fdata") <(own "$TMP/p2b.fdata"))" ""
expect_eq "perf2bolt: a branch line in hot and main at least" \
	"$(own "$fdata" | awk '{ print $2 }' | sort -u | tr '\n' ' ')" "hot main mix/1 "
# perf2bolt's own lines more: each to the instruction after a branch.
objdump -d --no-show-raw-insn "$PROG" | awk '/^[0-9a-f]+ <.*>:$/ { f = substr($2, 2, length($2) - 3); b = $1 }
	/^ +[0-9a-f]+:/ { sub(":", "", $1); print f, $1 }' >"$TMP/insns.txt"
expect_eq "perf2bolt: its other lines there are fall-throughs" "$(comm -13 <(own "$fdata") <(own "$TMP/p2b.fdata") |
	python3 -c '
import sys
ins = {}
start = {}
for l in open(sys.argv[1]):
    f, a = l.split()
    a = int(a, 16)
    start.setdefault(f, a)
    ins.setdefault(f, []).append(a - start[f])
bad = 0
for l in sys.stdin:
    p = l.split()
    offs = ins.get(p[1], [])
    f, t = int(p[2], 16), int(p[5], 16)
    if p[1] != p[4] or f not in offs or offs.index(f) + 1 >= len(offs) or offs[offs.index(f) + 1] != t:
        bad += 1
print(bad)' "$TMP/insns.txt")" 0
finish
