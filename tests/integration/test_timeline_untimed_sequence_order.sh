# A timeline of a capture without timestamps (simpleperf's ETM capture:
# ETMv4 without TS) is laid out in sequence order, and says so: the
# calls nest as decode --calls nests them, each call and return one step
# (1 us) after the one before, with their instructions as args (the
# outermost frame's 944 are the instructions perf script --itrace=i1i
# counts on this capture, testdata's README); the Chrome file's otherData
# and an instant on the Perfetto thread track name the clock.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"
PROTO_DIR="$HWT_SOURCE_DIR/analysis/timeline"
mkdir -p "$TMP/symfs/data/local/tmp"
ln -s "$ETM/etm_test_loop" "$TMP/symfs/data/local/tmp/etm_test_loop"
"$HWTRACE" timeline "$ETM/perf_etm.data" --symfs "$TMP/symfs" --format chrome \
	-o "$TMP/t.json" 2>"$TMP/tl.err" || fail "timeline: $(cat "$TMP/tl.err")"
expect_contains "summary: every call a slice" "$(cat "$TMP/tl.err")" "wrote $TMP/t.json: 3 slices on 1 threads of 1 processes"
expect_contains "summary: sequence order" "$(cat "$TMP/tl.err")" "the capture has no timestamps: its slices are in sequence order"
python3 - "$TMP/t.json" >"$TMP/slices.txt" <<'PY' || fail "the Chrome JSON does not parse"
import json, sys
doc = json.load(open(sys.argv[1]))
print("clock", doc["otherData"]["clock"])
for e in sorted((e for e in doc["traceEvents"] if e["ph"] == "X"), key=lambda e: e["ts"]):
    print(e["name"], e["ts"], e["dur"], e["args"]["insns"], e["args"]["insns_self"])
PY
# decode --calls: 0x582b2b1000 -> __libc_init@plt -> 0x582b2b1054, and
# their returns: steps 1 to 6. The code no symbol covers is named by its
# binary and file offset (the binary is mapped at 0x582b2b0000, its code
# segment at file offset and address 0x1000: readelf -l).
expect_eq "slices in sequence order, nested, with instructions" "$(cat "$TMP/slices.txt")" \
"clock sequence
etm_test_loop+0x1000 1 5 944 20
__libc_init@plt 2 3 924 14
etm_test_loop+0x1054 3 1 910 910"
"$HWTRACE" decode "$ETM/perf_etm.data" --symfs "$TMP/symfs" --calls --format jsonl 2>/dev/null |
	sed -n 's/.*"type":"return".*"sym":"\([^"]*\)".*"insns":\([0-9]*\),"insns_self":\([0-9]*\).*/\1 \2 \3/p' |
	sort >"$TMP/calls.txt"
expect_eq "the same frames as decode --calls" \
	"$(awk 'NR > 1 { print $1, $4, $5 }' "$TMP/slices.txt" | sort)" "$(cat "$TMP/calls.txt")"
"$HWTRACE" timeline "$ETM/perf_etm.data" --symfs "$TMP/symfs" -o "$TMP/t.pftrace" 2>/dev/null ||
	fail "timeline perfetto"
protoc --decode=perfetto.protos.Trace --proto_path="$PROTO_DIR" \
	"$PROTO_DIR/perfetto_trace.proto" <"$TMP/t.pftrace" >"$TMP/t.txt" 2>"$TMP/protoc.err"
expect_eq "protoc decodes it" "$?:$(cat "$TMP/protoc.err")" "0:"
expect_eq "perfetto: three slices" "$(grep -c 'type: TYPE_SLICE_BEGIN' "$TMP/t.txt")" "3"
expect_contains "perfetto: the clock named on the track" "$(cat "$TMP/t.txt")" \
	'name: "the capture has no timestamps: slices are in sequence order'
finish
