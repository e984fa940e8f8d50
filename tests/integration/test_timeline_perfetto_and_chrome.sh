# hwtrace timeline on a real sw_branch capture of call_tree: the Perfetto
# file decodes with protoc against the tree's .proto (Perfetto's field
# numbers), with one process track, one thread track per traced thread
# under it, and one slice (a begin and an end on the thread's track) per
# call that `decode --calls` shows; the Chrome JSON has the same slices as
# complete events; --max-depth and --min-duration leave out what they say.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/call_tree"
PROTO_DIR="$HWT_SOURCE_DIR/analysis/timeline"
command -v protoc >/dev/null || { fail "protoc is not installed (Debian: protobuf-compiler)"; finish; exit 1; }
data="$TMP/ct.data"
"$HWTRACE" record -e sw_branch --start main --stop tree_done -o "$data" \
	-- "$PROG" >/dev/null 2>"$TMP/record.err" ||
	{ fail "record: $(cat "$TMP/record.err")"; finish; exit 1; }

# The frames, per function, as decode --calls reports them.
"$HWTRACE" decode "$data" --calls --format jsonl 2>/dev/null |
	sed -n 's/.*"type":"call".*"sym":"\([^"]*\)".*/\1/p' | sort | uniq -c |
	awk '{ print $2, $1 }' >"$TMP/calls.count"
frames=$(awk '{ s += $2 } END { print s }' "$TMP/calls.count")
expect_eq "fib frames" "$(awk '$1 == "fib" { print $2 }' "$TMP/calls.count")" "465"

"$HWTRACE" timeline "$data" -o "$TMP/t.pftrace" 2>"$TMP/tl.err" ||
	fail "timeline: $(cat "$TMP/tl.err")"
expect_contains "summary" "$(cat "$TMP/tl.err")" "wrote $TMP/t.pftrace: $frames slices on 3 threads of 1 processes"
protoc --decode=perfetto.protos.Trace --proto_path="$PROTO_DIR" \
	"$PROTO_DIR/perfetto_trace.proto" <"$TMP/t.pftrace" >"$TMP/t.txt" 2>"$TMP/protoc.err"
expect_eq "protoc decodes it" "$?:$(cat "$TMP/protoc.err")" "0:"
expect_eq "one process track" "$(grep -c '^    process {' "$TMP/t.txt")" "1"
expect_eq "a thread track per thread" "$(grep -c '^    thread {' "$TMP/t.txt")" "3"
expect_eq "thread tracks under the process" \
	"$(grep -c '^    parent_uuid: ' "$TMP/t.txt")" "3"
expect_eq "slice begins" "$(grep -c 'type: TYPE_SLICE_BEGIN' "$TMP/t.txt")" "$frames"
expect_eq "slice ends" "$(grep -c 'type: TYPE_SLICE_END' "$TMP/t.txt")" "$frames"
# Begins named per function equal the frames per function.
awk '/type: TYPE_SLICE_BEGIN/ { b = 1; next }
     b && /^    name: / { gsub(/"/, "", $2); print $2; b = 0 }' "$TMP/t.txt" |
	sort | uniq -c | awk '{ print $2, $1 }' >"$TMP/pf.count"
expect_eq "slices per function" "$(cat "$TMP/pf.count")" "$(cat "$TMP/calls.count")"
expect_contains "process named from COMM" "$(cat "$TMP/t.txt")" 'process_name: "call_tree"'

"$HWTRACE" timeline "$data" -o "$TMP/t.json" --format chrome 2>/dev/null || fail "chrome"
python3 - "$TMP/t.json" >"$TMP/chrome.count" <<'PY' || fail "chrome JSON does not parse"
import collections, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
c = collections.Counter(e["name"] for e in ev if e["ph"] == "X")
for name in sorted(c):
    print(name, c[name])
PY
expect_eq "chrome: complete events per function" "$(cat "$TMP/chrome.count")" "$(cat "$TMP/calls.count")"
# Each slice carries its instructions as args: the same, call by call,
# as decode --calls gives each frame (both sorted).
python3 - "$TMP/t.json" <<'PY' | sort >"$TMP/chrome.insns" || fail "chrome args"
import json, sys
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e["ph"] == "X":
        print(e["name"], e["args"]["insns"], e["args"]["insns_self"])
PY
"$HWTRACE" decode "$data" --calls --format jsonl 2>/dev/null |
	sed -n 's/.*"type":"return".*"sym":"\([^"]*\)".*"insns":\([0-9]*\),"insns_self":\([0-9]*\).*/\1 \2 \3/p' |
	sort >"$TMP/calls.insns"
expect_eq "chrome: args are each call's instructions" "$(cat "$TMP/chrome.insns")" "$(cat "$TMP/calls.insns")"
"$HWTRACE" timeline "$data" -o "$TMP/s.json" --format speedscope 2>/dev/null || fail "speedscope"
expect_eq "speedscope flavour: the same events without args" \
	"$(sed 's/,"args":{"insns":[0-9]*,"insns_self":[0-9]*}//' "$TMP/t.json")" "$(cat "$TMP/s.json")"

# --max-depth 1: only each thread's outermost frames (fib's first call is
# at depth 1 under main, so no fib); --min-duration beyond every call: none.
"$HWTRACE" timeline "$data" -o "$TMP/d.json" --format chrome --max-depth 1 2>/dev/null
expect_eq "--max-depth 1 keeps no fib" "$(grep -c '"name":"fib"' "$TMP/d.json")" "0"
expect_contains "--max-depth 1 keeps main" "$(cat "$TMP/d.json")" '"name":"main"'
"$HWTRACE" timeline "$data" -o "$TMP/m.json" --format chrome --min-duration 100000000000 2>/dev/null
expect_eq "--min-duration 100 s keeps nothing" "$(grep -c '"ph":"X"' "$TMP/m.json")" "0"
# Usage errors.
"$HWTRACE" timeline "$data" --format svg -o "$TMP/x" 2>/dev/null
expect_eq "bad --format" "$?" "2"
"$HWTRACE" timeline "$data" 2>/dev/null
expect_eq "no -o" "$?" "2"
finish
