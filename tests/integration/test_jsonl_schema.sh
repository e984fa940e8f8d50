# Every backend's `decode --format jsonl` output, and the --packets,
# --branch-profile and --edges listings in jsonl, validate line by line against the
# documented schema (docs/jsonl.schema.json, described in docs/jsonl.md):
# the Intel PT quipper capture, the simpleperf ETM and LBR captures, an Intel BTS
# capture of the emulated machine, and a sw_branch capture. Each output
# starts with the version-4 header; warnings go to standard error, never
# into the output; sw_branch elements name their process, and sw_branch's
# records, which no branch predictor made, list as "unknown", not "miss".
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
SCHEMA="$HWT_SOURCE_DIR/docs/jsonl.schema.json"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"
PROG="$HWT_BUILD_DIR/tests/programs/known_path"
python3 -c 'import jsonschema' 2>/dev/null ||
	{ echo "FAIL: python3-jsonschema is needed (make deps)" >&2; exit 1; }

# validate NAME FILE: every line is one object of the schema; prints the
# number of lines and of each type.
validate() {
	python3 - "$SCHEMA" "$2" <<'PY'
import collections, json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
# One validator per record type (the schema's oneOf alternative for it):
# the same verdicts as the whole schema's, at a tenth of the cost.
v = {}
for alt in schema["oneOf"]:
    t = alt["properties"]["type"]
    sub = dict(alt, **{"$defs": schema["$defs"]})
    for name in t.get("enum", [t.get("const")]):
        v[name] = jsonschema.Draft202012Validator(sub)
whole = jsonschema.Draft202012Validator(schema)
types = collections.Counter()
bad = 0
for n, line in enumerate(open(sys.argv[2]), 1):
    try:
        obj = json.loads(line)
    except ValueError as e:
        print(f"line {n}: not JSON: {e}", file=sys.stderr); bad += 1; continue
    check = v.get(obj.get("type") if isinstance(obj, dict) else None, whole)
    errs = list(check.iter_errors(obj))
    if errs or (n == 1) != (obj.get("type") == "header"):
        print(f"line {n}: {line.strip()[:200]}: "
              f"{errs[0].message if errs else 'header misplaced'}", file=sys.stderr)
        bad += 1
    types[obj.get("type")] += 1
print("bad", bad, " ".join(f"{k}={types[k]}" for k in sorted(types)))
PY
}

# check NAME WANT -- DECODE ARGS: decodes, validates, compares the counts.
check() {
	local name=$1 want=$2
	shift 3
	"$HWTRACE" decode --format jsonl "$@" >"$TMP/$name.jsonl" 2>"$TMP/$name.err"
	expect_eq "$name: exit" "$?" 0
	expect_eq "$name: lines of the schema" "$(validate "$name" "$TMP/$name.jsonl")" "$want"
}

# Without the binaries: the gaps and what the packets say (branches
# without their source among them).
check pt "bad 0 branch=481 gap=10 header=1 trace_off=1 trace_on=137" -- "$Q"
# Said to be CPU-wide, its elements' tasks are ambiguous ("task").
cpu_wide_copy "$Q" "$TMP/cw.data"
check pt-cpu-wide "bad 0 branch=481 gap=10 header=1 trace_off=1 trace_on=137" -- "$TMP/cw.data"
expect_eq "pt-cpu-wide: ambiguous" "$(grep -c '"task":"ambiguous"' "$TMP/pt-cpu-wide.jsonl")" 513
check pt-packets "bad 0 aux_buffer=2 header=1 packet=105109" -- --packets "$Q"
expect_eq "pt packets: libipt's count of non-pad packets" \
	"$(grep '"type":"packet"' "$TMP/pt-packets.jsonl" | grep -vc '  pad"')" 85093

# Branch records (simpleperf LBR capture, binary not found): no kind,
# the record's own fields.
check lbr "bad 0 branch=386 header=1" -- "$HWT_TESTDATA/perf-data/simpleperf-lbr/perf_lbr.data"
expect_eq "lbr: records without a kind" "$(grep -c '"kind"' "$TMP/lbr.jsonl")" 0

mkdir -p "$TMP/symfs/data/local/tmp"
ln -s "$ETM/etm_test_loop" "$TMP/symfs/data/local/tmp/etm_test_loop"
check etm "bad 0 branch=207 context=2 gap=1 header=1 range=208 trace_on=2" -- \
	--symfs "$TMP/symfs" "$ETM/perf_etm.data"
expect_contains "etm: the no-switch warning on stderr" "$(cat "$TMP/etm.err")" \
	"hwtrace decode: warning: per-CPU trace without context-switch records"
expect_eq "etm: no warning in the output" "$(grep -c '"type":"error"' "$TMP/etm.jsonl")" 0
# OpenCSD's TRACE_ON has no address: each trace_on carries where the next
# range starts.
expect_eq "etm: every trace_on at the next range's start" "$(python3 - "$TMP/etm.jsonl" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ok = bad = 0
for i, e in enumerate(lines):
    if e["type"] != "trace_on":
        continue
    nxt = next((x for x in lines[i + 1:] if x["type"] == "range"), None)
    if nxt and e.get("at") == nxt["start"]:
        ok += 1
    else:
        bad += 1
print(ok, bad)
PY
)" "2 0"
check etm-profile "bad 0 branch_count=9 header=1" -- --branch-profile --symfs "$TMP/symfs" \
	"$ETM/perf_etm.data"
expect_contains "etm profile: the golden's first edge" "$(cat "$TMP/etm-profile.jsonl")" \
	'"from":"/data/local/tmp/etm_test_loop+0x106c","to":"/data/local/tmp/etm_test_loop+0x1074","count":100'
check etm-packets "bad 0 aux_buffer=1 header=1 packet=27" -- --packets "$ETM/perf_etm.data"
# --edges on CoreSight (the element path): the 207 branches as 9 edges,
# with the golden's count for its first edge (perf_inject.data: 106c->1074:100).
check etm-edges "bad 0 edge=9 header=1" -- --edges --symfs "$TMP/symfs" "$ETM/perf_etm.data"
expect_contains "etm edges: the golden's first edge" "$(cat "$TMP/etm-edges.jsonl")" \
	'{"type":"edge","from":"0x582b2b106c","to":"0x582b2b1074","count":100}'


# sw_branch: known_path 5 from kp_run to kp_done, 41 instructions, 18 branches.
"$HWTRACE" record -e sw_branch --start kp_run --stop kp_done -q -o "$TMP/swb.data" \
	-- "$PROG" 5 2>"$TMP/err" || fail "sw_branch record: $(cat "$TMP/err")"
check swb "bad 0 branch=18 header=1 range=18 trace_off=1 trace_on=1" -- "$TMP/swb.data"
expect_eq "swb: every element names the process" \
	"$(grep -v '"type":"header"' "$TMP/swb.jsonl" | grep -vc '"pid":[0-9]')" 0
check swb-packets "bad 0 aux_buffer=1 header=1 packet=22" -- --packets "$TMP/swb.data"
expect_eq "swb packets: prediction unknown" "$(grep -c ' unknown"' "$TMP/swb-packets.jsonl")" 21
expect_eq "swb packets: never miss" "$(grep -c ' miss"' "$TMP/swb-packets.jsonl")" 0
check swb-profile "bad 0 branch_count=5 header=1" -- --branch-profile "$TMP/swb.data"
check swb-edges "bad 0 edge=5 header=1" -- --edges "$TMP/swb.data"
# Its 18 branches sampled as an LBR with branch counters (-j counter):
# a sample every 6th, all the branches so far (6, 12, 18 records), each
# with its counters (-j any: 1, its own branch) and their counts (one
# event, the same 1), and the straight code
# between two records as a range.
"$HWTRACE" record -j any,u,counter -c 6 --sysfs "$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-lbr-counters" \
	--emulate-branches "$TMP/swb.data" -o "$TMP/cnt.data" 2>"$TMP/err" ||
	fail "record -j counter: $(cat "$TMP/err")"
check cnt "bad 0 branch=36 header=1 range=33" -- "$TMP/cnt.data"
expect_eq "cnt: every record's counters" "$(grep -c '"counters":1,' "$TMP/cnt.jsonl")" 36
expect_eq "cnt: every record's counts (one event, branches)" \
	"$(grep -c '"counters":1,"counts":\[1\]' "$TMP/cnt.jsonl")" 36

# Intel BTS through the emulated machine: the sw_branch capture's records as
# the trace unit's bytes, known_path mapped at its run's address.
python3 - "$TMP/swb-packets.jsonl" "$TMP/trace.bts" <<'PY'
import json, struct, sys
out = open(sys.argv[2], "wb")
for line in open(sys.argv[1]):
    t = json.loads(line).get("text", "")
    if "->" in t:
        f, _, rest = t.split(":", 1)[1].strip().partition(" -> ")
        out.write(struct.pack("<QQQ", int(f, 16), int(rest.split()[0], 16), 0x10))
PY
"$HWTRACE" record --sysfs "$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client" --per-thread \
	-e intel_bts// --emulate-trace "$TMP/trace.bts" -o "$TMP/bts.data" 2>"$TMP/err" ||
	fail "bts record: $(cat "$TMP/err")"
check bts "bad 0 branch=18 gap=18 header=1 trace_off=1 trace_on=1" -- "$TMP/bts.data"
branches() { grep '"type":"branch"' "$1" | sed 's/.*\("from":"[^"]*","to":"[^"]*"\).*/\1/'; }
expect_eq "bts: the branches sw_branch recorded (kinds need the image)" "$(branches "$TMP/bts.jsonl")" \
	"$(branches "$TMP/swb.jsonl")"
check bts-packets "bad 0 aux_buffer=1 header=1 packet=22" -- --packets "$TMP/bts.data"
expect_eq "bts packets: the predicted bit shows" "$(grep -c ' pred"' "$TMP/bts-packets.jsonl")" 21

# RISC-V N-Trace (raw, with its ELF): ranges of isa rv32.
T1="$HWT_TESTDATA/riscv-ntrace/t1"
check rvt "bad 0 branch=8606 header=1 range=8606 trace_off=1 trace_on=1" -- \
	--raw "riscv_ntrace,xlen=32,callstack=8:$T1/test-NEX.bin" --elf "$T1/test.elf"
expect_eq "rvt: every range is rv32" "$(grep -c '"isa":"rv32"' "$TMP/rvt.jsonl")" 8606
check rvt-packets "bad 0 header=1 packet=368" -- --packets \
	--raw "riscv_ntrace,xlen=32:$T1/test-NEX.bin"
finish
