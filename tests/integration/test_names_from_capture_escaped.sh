# Names a capture holds are bytes the traced machine chose. A program and
# a library under a directory whose name holds an ESC sequence, a BEL,
# quotes, a backslash and ill-formed UTF-8 (0xff, 0xfe, the overlong
# C0 AF, a cut-short C3) are traced with sw_branch; then:
# - every jsonl line, every --calls jsonl line, the Chrome timeline and
#   the data of view's page pass a strict parser (Python's json on strict UTF-8), and the binary's
#   name in them is Python's bytes.decode("utf-8", errors="replace") of
#   the recorded path (docs/jsonl.md);
# - decode's text, --calls, report, info, dump and every message on standard
#   error hold no raw ESC, no C1 CSI and no ill-formed UTF-8, and info
#   shows the path with \xHH escapes;
# - a program whose path holds a newline (the "\012" of /proc/PID/maps)
#   records with --start main and decodes with its symbols;
# - a capture that names a FIFO as a binary decodes without blocking.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
for t in gcc python3; do
	command -v $t >/dev/null || { echo "FAIL: $t is not installed" >&2; exit 1; }
done
cd "$TMP" || exit 1

W="$TMP/$(printf 'd\377\033[31m\303(')"
P="$(printf 'p\376\033]0;t\007\300\257"q\\')"
mkdir -p "$W"
cat >lib.c <<'EOF'
int wlib_step(int x) { return x * 3 + 1; }
EOF
cat >prog.c <<'EOF'
int wlib_step(int x);
int main(int argc, char **argv)
{
	int v = argc;
	for (int i = 0; i < 50; i++)
		v = wlib_step(v) & 0xffff;
	(void)argv;
	return v == 12345;
}
EOF
gcc -O1 -g -shared -fPIC -o "$W/libw.so" lib.c || fail "building the library"
gcc -O1 -g -o "$W/$P" prog.c -L"$W" -lw || fail "building the program"
LD_LIBRARY_PATH="$W" "$HWTRACE" record -e sw_branch --start main -q -o w.data -- "$W/$P" \
	>/dev/null 2>rec.err
expect_eq "record exit" "$?" 0

# The oracle: the path as Python reads bytes with errors="replace".
want_lib=$(python3 -c 'import sys; print(sys.argv[1].encode("utf-8", "surrogateescape").decode("utf-8", "replace"))' "$W/libw.so")
strict_json_lines() {
	python3 - "$1" <<'EOF'
import json, sys
bad = n = 0
for raw in open(sys.argv[1], "rb"):
    n += 1
    try:
        json.loads(raw.decode("utf-8", "strict"))
    except ValueError:
        bad += 1
print(n, bad)
EOF
}
"$HWTRACE" decode --format jsonl w.data >w.jsonl 2>dec.err
expect_eq "decode jsonl exit" "$?" 0
read -r n bad <<<"$(strict_json_lines w.jsonl)"
expect_eq "jsonl: lines failing a strict parser (of $n)" "$bad" 0
nlib=$(python3 - w.jsonl "$want_lib" <<'EOF'
import json, sys
print(sum(1 for l in open(sys.argv[1], encoding="utf-8")
          if json.loads(l).get("dso") == sys.argv[2]))
EOF
)
[ "$nlib" -gt 0 ] || fail "jsonl: no element names the library as '$want_lib'"
expect_eq "jsonl: wlib_step is found in the library" \
	"$(grep -c '"sym":"wlib_step"' w.jsonl | awk '$1 >= 50 { print "yes" }')" yes

"$HWTRACE" decode --calls --format jsonl w.data >c.jsonl 2>>dec.err
read -r n bad <<<"$(strict_json_lines c.jsonl)"
expect_eq "--calls jsonl: lines failing a strict parser (of $n)" "$bad" 0
"$HWTRACE" timeline --format chrome -o t.json w.data 2>>dec.err
expect_eq "timeline exit" "$?" 0
python3 - t.json "$(printf '%s' "$P" | head -c 15)" <<'EOF' || fail "Chrome JSON: strict parse or thread name"
import json, sys
doc = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
comm = sys.argv[2].encode("utf-8", "surrogateescape").decode("utf-8", "replace")
names = [e["args"]["name"] for e in doc["traceEvents"] if e.get("ph") == "M"]
assert any(comm in n for n in names), (comm, names)
EOF
"$HWTRACE" view -o v.html w.data 2>>dec.err
expect_eq "view exit" "$?" 0
python3 - v.html "$(printf '%s' "$P" | head -c 15)" <<'EOF' || fail "view page: strict parse or thread name"
import json, sys
page = open(sys.argv[1], "rb").read().decode("utf-8", "strict")
# Two elements end "</script>": the data's and the script's; no name
# from the capture ends one early.
assert page.count("</script") == 2, page.count("</script")
head = '<script type="application/json" id="hwt-data">'
data = page[page.index(head) + len(head):page.index("</script>")]
doc = json.loads(data)
comm = sys.argv[2].encode("utf-8", "surrogateescape").decode("utf-8", "replace")
names = [t["name"] for t in doc["timeline"]["threads"]]
assert any(comm in n for n in names), (comm, names)
EOF

# Text: nothing that drives a terminal, nothing that is not UTF-8.
"$HWTRACE" decode w.data >d.txt 2>>dec.err
"$HWTRACE" decode --calls w.data >c.txt 2>>dec.err
"$HWTRACE" report w.data >r.txt 2>>dec.err
LD_LIBRARY_PATH="$W" "$HWTRACE" info w.data >i.txt 2>>dec.err
"$HWTRACE" dump w.data >u.txt 2>>dec.err
for f in d.txt c.txt r.txt i.txt u.txt dec.err rec.err; do
	python3 - "$f" <<'EOF' || fail "$f: raw control bytes or ill-formed UTF-8"
import sys
b = open(sys.argv[1], "rb").read()
b.decode("utf-8", "strict")
assert b"\x1b" not in b and b"\x07" not in b and "\x9b" not in b.decode()
EOF
done
expect_contains "info: the library, escaped" "$(cat i.txt)" \
	"$TMP/d\\xff\\x1b[31m\\xc3(/libw.so"
expect_contains "dump: the command, escaped" "$(cat u.txt)" \
	"PERF_RECORD_COMM: p\\xfe\\x1b]0;t\\x07\\xc0\\xaf\"q\\:"
expect_contains "decode text: the library's function, with its binary escaped" \
	"$(cat d.txt)" "wlib_step+0x0 ($TMP/d\\xff\\x1b[31m\\xc3(/libw.so)"

# A newline in the program's path: /proc/PID/maps writes it as \012.
NL="$TMP/$(printf 'a\nb')"
mkdir -p "$NL"
cp "$HWT_BUILD_DIR/tests/programs/known_path" "$NL/prog"
"$HWTRACE" record -e sw_branch --start main -q -o nl.data -- "$NL/prog" 3 \
	>/dev/null 2>nl.err
expect_eq "newline path: record exit" "$?" 0
"$HWTRACE" decode --format jsonl nl.data >nl.jsonl 2>>nl.err
expect_eq "newline path: decode exit" "$?" 0
expect_eq "newline path: main found in the program" \
	"$(python3 - nl.jsonl "$NL/prog" <<'EOF'
import json, sys
print(any(json.loads(l).get("sym") == "main" and json.loads(l).get("dso") == sys.argv[2]
          for l in open(sys.argv[1], encoding="utf-8")))
EOF
)" True
expect_eq "newline path: no image gaps" "$(grep -c '"reason":"no_image"' nl.jsonl)" 0
expect_eq "newline path: info misses nothing" \
	"$("$HWTRACE" info nl.data 2>/dev/null | grep -c MISSING)" 0

# The capture names the library; it is a FIFO now. The decode must not
# block on it: the library's code is missing, and its gaps say why.
rm "$W/libw.so" && mkfifo "$W/libw.so"
timeout 60 "$HWTRACE" decode --format jsonl w.data >fifo.jsonl 2>fifo.err
rc=$?
[ "$rc" = 124 ] && fail "a capture naming a FIFO as a binary: the decode hung"
expect_eq "FIFO binary: decode exit" "$rc" 0
expect_contains "FIFO binary: the gaps name it" "$(grep -m1 '"reason":"no_image"' fifo.jsonl)" \
	"libw.so is a FIFO, not a regular file\""
finish
