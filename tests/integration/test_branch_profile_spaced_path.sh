# decode --branch-profile --format jsonl of a program whose path has a
# space (known_path copied to "a dir/"): every line is a branch_count whose
# "from" and "to" are the whole FILE+0xOFFSET, the counts are the text
# listing's, and each name's offset is the address less the start nm
# gives its function (the jsonl lines come from the profile's records,
# not from splitting the text at spaces).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
mkdir -p "$TMP/a dir"
PROG="$TMP/a dir/known_path"
cp "$HWT_BUILD_DIR/tests/programs/known_path" "$PROG"
"$HWTRACE" record -e sw_branch --start kp_run --stop kp_done -q -o "$TMP/kp.data" \
	-- "$PROG" 5 2>"$TMP/err" || { fail "record: $(cat "$TMP/err")"; finish; exit 1; }
"$HWTRACE" decode -q --branch-profile --format jsonl "$TMP/kp.data" >"$TMP/p.jsonl" \
	2>"$TMP/err" || fail "decode jsonl: $(cat "$TMP/err")"
"$HWTRACE" decode -q --branch-profile "$TMP/kp.data" >"$TMP/p.txt" 2>"$TMP/err" ||
	fail "decode text: $(cat "$TMP/err")"
nm "$PROG" | awk '$2 ~ /^[tT]$/ { print $1, $3 }' >"$TMP/nm.txt"
python3 - "$TMP/p.jsonl" "$TMP/p.txt" "$TMP/nm.txt" "$PROG" >"$TMP/check" <<'PY' ||
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])][1:]
text = [l.rstrip("\n") for l in open(sys.argv[2])]
syms = {n: int(a, 16) for a, n in (l.split() for l in open(sys.argv[3]))}
prog = sys.argv[4]
bad = []
for o, t in zip(objs, text):
    if o["type"] != "branch_count":
        bad.append("not a branch_count: %r" % o)
        continue
    if not t.startswith("%s->%s %d " % (o["from"], o["to"], o["count"])):
        bad.append("text %r differs from %r" % (t, o))
    for end in ("from", "to"):
        path, _, off = o[end].rpartition("+0x")
        name, _, symoff = o.get(end + "_sym", "?+0x0").rpartition("+0x")
        if path != prog:
            bad.append("%s path %r" % (end, path))
        elif name not in syms or int(off, 16) - syms[name] != int(symoff, 16):
            bad.append("%s %s is not %s+0x%s by nm" % (end, o[end], name, symoff))
print(len(objs), len(text), sum(o.get("count", 0) for o in objs))
print("\n".join(bad) or "ok")
PY
	fail "jsonl does not parse"
# known_path 5: 18 branches, of 5 distinct edges (test_jsonl_schema's count).
expect_eq "lines and branches" "$(head -1 "$TMP/check")" "5 5 18"
expect_eq "paths whole, names where nm puts them" "$(tail -n +2 "$TMP/check")" ok
finish
