# hwtrace annotate's counts are exact: tests/programs/annotate_loops.c has
# loops of known trip counts (7; 13 iterations with a branch true 5
# times), built with gcc -O0 and -Og and recorded with sw_branch. (Not
# clang: this machine's elfutils reads no lines from clang 14's DWARF,
# eu-addr2line neither.)
# Every instruction of each marked line ran exactly as often as the
# marker says; each loop's conditional branch was taken and not taken as
# the trip count says; the function lists every instruction objdump -d
# shows for it; its total is report's self instructions of it (counted by
# the call stacks, another path); the lines add up to the total; text and
# jsonl say the same.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
SRC="$HWT_SOURCE_DIR/tests/programs/annotate_loops.c"
line_of() { grep -n "$1\$" "$SRC" | grep -o '^[0-9]*' | head -1; }
# the marker lines
SEVEN=$(line_of 'SEVEN \*/') FIVE=$(line_of 'FIVE \*/') IF=$(line_of 'IF \*/') HEAD=$(line_of 'HEAD \*/')
FIRST=$((SEVEN - 1)) # the first loop's for line

for build in "gcc -O0" "gcc -Og"; do
	set -- $build
	cc=$1 opt=$2
	out="$TMP/$cc$opt"
	mkdir -p "$out"
	command -v $cc >/dev/null || { fail "$cc is not installed"; continue; }
	$cc $opt -g -o "$out/prog" "$SRC" 2>"$out/cc.err" || { fail "$cc: $(cat "$out/cc.err")"; continue; }
	"$HWTRACE" record -e sw_branch --start loops --stop tree_done -o "$out/t.data" \
		-- "$out/prog" >/dev/null 2>"$out/rec.err" || { fail "$cc: record: $(tail -3 "$out/rec.err")"; continue; }
	"$HWTRACE" annotate loops "$out/t.data" --format jsonl >"$out/a.jsonl" 2>"$out/a.err" ||
		{ fail "$cc: annotate: $(cat "$out/a.err")"; continue; }
	"$HWTRACE" annotate loops "$out/t.data" >"$out/a.txt" 2>/dev/null
	objdump -d --no-show-raw-insn "$out/prog" |
		awk '/^[0-9a-f]+ <loops>:/ { on = 1; next } on && /^$/ { exit } on && /^ +[0-9a-f]+:/ { n++ } END { print n }' >"$out/objdump.n"
	"$HWTRACE" report "$out/t.data" --top 0 2>/dev/null | awk '!/^#/ && $NF == "loops" { print $1 }' >"$out/report.n"
	python3 - "$out" "$SEVEN" "$FIVE" "$IF" "$HEAD" "$FIRST" >"$out/check.out" <<'PY' || fail "$build: $(cat "$out/check.out")"
import json, sys
d = sys.argv[1]
seven, five, iff, head, first = map(int, sys.argv[2:])
rows = [json.loads(l) for l in open(d + "/a.jsonl")][1:]
insns = [r for r in rows if r["type"] == "insn"]
funcs = [r for r in rows if r["type"] == "function"]
lines = [r for r in rows if r["type"] == "line"]
bad = []
def check(what, got, want):
    if got != want:
        bad.append(f"{what}: got {got}, want {want}")
def at(line):
    return [r for r in insns if r.get("srcline", "").endswith(f":{line}")]
check("one function", [f["sym"] for f in funcs], ["loops"])
for line, n in ((seven, 7), (five, 5), (iff, 13)):
    got = sorted({r["count"] for r in at(line)})
    check(f"counts of line {line}", got, [n])
# The conditional branches: (taken, not taken) as the trip counts say,
# whichever way the compiler turned each test.
def conds(line):
    return sorted(sorted((r["taken"], r["not_taken"])) for r in at(line) if "taken" in r)
check("the if's branch", conds(iff), [[5, 8]])
check("the 13-iteration loop's branch", conds(head), [[1, 13]])
check("the 7-iteration loop's branch", conds(first), [[1, 7]])
check("instructions = objdump's", len(insns), int(open(d + "/objdump.n").read()))
total = funcs[0]["insns"]
check("total = report's self instructions", total, int(open(d + "/report.n").read()))
check("instructions add up to the total", sum(r["count"] for r in insns), total)
check("lines add up to the total", sum(r["count"] for r in lines), total)
# text: the same counts in the same order.
text = [l.split() for l in open(d + "/a.txt") if l.startswith("  ") and ":  " in l]
check("text rows", [int(t[0]) for t in text], [r["count"] for r in insns])
print("\n".join(bad) if bad else f"{len(insns)} instructions checked")
sys.exit(1 if bad else 0)
PY
	expect_contains "$build: annotate checks" "$(cat "$out/check.out")" "instructions checked"
	expect_eq "$build: text says the if's branch counts" \
		"$(grep -c '\[taken \(5, not taken 8\|8, not taken 5\)\]' "$out/a.txt")" "1"
done
expect_eq "an unknown function is an error naming it" \
	"$("$HWTRACE" annotate nosuch "$out/t.data" 2>&1 >/dev/null; echo "rc=$?")" \
	"hwtrace: no instruction of a function named nosuch ran in this trace (\`hwtrace report FILE --top 0\` lists the functions that ran)
rc=1"
finish
