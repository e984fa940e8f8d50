# docs/jsonl.md tells the truth about what decode --format jsonl writes:
# on a real sw_branch capture of call_tree, with symbols and --srcline,
# and on its --calls listing, every field name of every line is
# documented there (as `name`), every call/return `start` and `end`
# value the stacks give is, and every sw_branch element carries a time,
# as the doc now says.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
DOC="$HWT_SOURCE_DIR/docs/jsonl.md"
"$HWTRACE" record -e sw_branch --start main --stop tree_done -o "$TMP/ct.data" \
	-- "$HWT_BUILD_DIR/tests/programs/call_tree" >/dev/null 2>"$TMP/record.err" ||
	{ fail "record: $(tail -3 "$TMP/record.err")"; finish; exit 1; }
"$HWTRACE" decode "$TMP/ct.data" --format jsonl --srcline >"$TMP/e.jsonl" 2>/dev/null ||
	fail "decode"
"$HWTRACE" decode "$TMP/ct.data" --calls --format jsonl >"$TMP/c.jsonl" 2>/dev/null ||
	fail "decode --calls"
python3 - "$TMP/e.jsonl" "$TMP/c.jsonl" >"$TMP/fields.txt" <<'PY' || fail "jsonl does not parse"
import json, sys
keys, values = set(), set()
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            keys.add(k)
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
for path in sys.argv[1:]:
    for line in open(path):
        o = json.loads(line)
        walk(o)
        if o["type"] == "call":
            values.add(o["start"])
        if o["type"] == "return":
            values.add(o["end"])
for k in sorted(keys):
    print("field", k)
for v in sorted(values):
    print("value", v)
PY
expect_eq "the capture has symbol, srcline and calls fields" \
	"$(grep -c -x -e 'field sym' -e 'field to_sym' -e 'field srcline' -e 'field depth' -e 'field insns_self' "$TMP/fields.txt")" "5"
expect_eq "docs/jsonl.md names every field and value written" \
	"$(while read -r what name; do
		grep -qF "\`$name\`" "$DOC" || echo "$what $name"
	done <"$TMP/fields.txt")" ""
expect_eq "every sw_branch element has a time" \
	"$(grep -v '"type":"header"' "$TMP/e.jsonl" | grep -vc '"time":')" "0"
expect_eq "docs/jsonl.md: sw_branch elements carry time" \
	"$(grep -c 'and on every sw_branch element' "$DOC")" "1"
finish
