# report --callers / --callees / --call-graph against a program that
# prints its own call tree (tests/programs/stacks/stk_tree.c: "CALLER
# CALLEE CALLS" lines, and "insns F SELF TOTAL" for its assembly
# functions, whose instruction counts are known), built with gcc -O2 and
# clang -O0 and recorded with sw_branch: every edge between the program's
# own functions has the program's calls, from both ends, merged and per
# thread; the assembly functions' self and total instructions are exact;
# --children orders the table by total instructions.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
SRC="$HWT_SOURCE_DIR/tests/programs/stacks"

want() { awk -v a="$1" -v b="$2" '$1 == a && $2 == b { print $3; exit }' "$out/program.txt"; }
# peek_col FILE NAME N: column N of NAME's row (the last column) in a
# --callers/--callees table.
peek_col() { awk -v f="$2" -v n="$3" '!/^#/ && $NF == f { print $n }' "$1"; }

check() {
	local name=$1 e c f
	"$HWTRACE" record -e sw_branch --start main --stop tree_done \
		-o "$out/t.data" -- "$out/prog" >"$out/program.txt" 2>"$out/record.err" ||
		{ fail "$name: record: $(tail -3 "$out/record.err")"; return; }
	# The edges between the program's own functions (tail_target is
	# entered in tail_caller's place, so main is its caller).
	for e in main:fib fib:fib main:jump_outer jump_outer:dive dive:dive \
		main:tail_caller main:sorter main:insn_outer insn_outer:insn_leaf \
		main:tail_target; do
		c=${e%%:*} f=${e##*:}
		local n
		n=$(want "$c" "$f")
		[ "$f" = tail_target ] && n=$(want tail_caller tail_target)
		"$HWTRACE" report "$out/t.data" --callers "$f" >"$out/callers" 2>/dev/null ||
			fail "$name: --callers $f failed"
		"$HWTRACE" report "$out/t.data" --callees "$c" >"$out/callees" 2>/dev/null ||
			fail "$name: --callees $c failed"
		expect_eq "$name: --callers $f: calls from $c" "$(peek_col "$out/callers" "$c" 1)" "$n"
		expect_eq "$name: --callees $c: calls of $f" "$(peek_col "$out/callees" "$f" 1)" "$n"
	done
	expect_eq "$name: tail_caller calls nothing" \
		"$("$HWTRACE" report "$out/t.data" --callees tail_caller 2>&1 >/dev/null)" \
		"hwtrace: no function named tail_caller called anything in this trace (\`hwtrace report FILE --top 0\` lists the functions that ran, by the names used here)"
	# The assembly functions: instructions exactly, self and total.
	local self total
	read -r self total < <(awk '$1 == "insns" && $2 == "insn_leaf" { print $3, $4 }' "$out/program.txt")
	"$HWTRACE" report "$out/t.data" --callers insn_leaf >"$out/leaf" 2>/dev/null
	expect_eq "$name: insn_leaf self instructions from insn_outer" "$(peek_col "$out/leaf" insn_outer 2)" "$self"
	expect_eq "$name: insn_leaf total instructions from insn_outer" "$(peek_col "$out/leaf" insn_outer 3)" "$total"
	expect_eq "$name: a leaf's total time is its self time" \
		"$(peek_col "$out/leaf" insn_outer 4)" "$(peek_col "$out/leaf" insn_outer 5)"
	read -r self total < <(awk '$1 == "insns" && $2 == "insn_outer" { print $3, $4 }' "$out/program.txt")
	"$HWTRACE" report "$out/t.data" --callers insn_outer >"$out/outer" 2>/dev/null
	expect_eq "$name: insn_outer self/total instructions from main" \
		"$(peek_col "$out/outer" main 2) $(peek_col "$out/outer" main 3)" "$self $total"
	expect_contains "$name: time columns with their unit" "$(sed -n 2p "$out/outer")" "self ns     total ns"
	# Per thread: the one thread, the program's pid, the same numbers.
	"$HWTRACE" report "$out/t.data" --callers insn_outer --per-thread >"$out/outer.tid" 2>/dev/null
	local pid
	pid=$("$HWTRACE" decode "$out/t.data" --format jsonl 2>/dev/null | sed -n 's/.*"tid":\([0-9]*\).*/\1/p' | sort -u)
	expect_eq "$name: per thread: tid and instructions" \
		"$(awk '!/^#/ && $NF == "main" { print $6, $2, $3 }' "$out/outer.tid")" "$pid $self $total"
	# The call graph: insn_leaf's block is its caller, itself, nothing.
	"$HWTRACE" report "$out/t.data" --call-graph --top 0 >"$out/graph" 2>/dev/null
	expect_eq "$name: --call-graph block of insn_leaf" \
		"$(awk -v RS= -v FS='\n' '{ for (i = 1; i <= NF; i++) if ($i ~ /^  / && $i ~ /  insn_leaf$/) print }' "$out/graph" | awk '{ print $1, $2, $NF }')" \
		"<- $(want insn_outer insn_leaf) insn_outer
$(want insn_outer insn_leaf) $(awk '$1 == "insns" && $2 == "insn_leaf" { print $3 }' "$out/program.txt") insn_leaf"
	# --children: the table by total instructions, main (everything) first.
	"$HWTRACE" report "$out/t.data" --children --top 0 >"$out/children" 2>/dev/null
	expect_eq "$name: --children puts main first" \
		"$(awk '!/^#/ { print $NF; exit }' "$out/children")" "main"
	expect_eq "$name: --children orders by total instructions" \
		"$(awk '!/^#/ { if (seen && $3 > prev) bad++; prev = $3; seen = 1 } END { print bad + 0 }' "$out/children")" "0"
	"$HWTRACE" report "$out/t.data" --no-children --top 0 >"$out/self" 2>/dev/null
	expect_eq "$name: --no-children orders by self instructions" \
		"$(awk '!/^#/ { if (seen && $1 > prev) bad++; prev = $1; seen = 1 } END { print bad + 0 }' "$out/self")" "0"
	expect_eq "$name: the same rows either way" "$(sort "$out/self")" "$(sort "$out/children")"
}

for b in "gcc -O2" "clang -O0"; do
	out="$TMP/${b// /}"
	mkdir -p "$out"
	set -- $b
	command -v "$1" >/dev/null || { fail "$1 is not installed"; continue; }
	"$1" "$2" -g -o "$out/prog" "$SRC/stk_tree.c" 2>"$out/cc.err" ||
		{ fail "$b: $(cat "$out/cc.err")"; continue; }
	check "$b"
done
expect_eq "views are exclusive (usage error)" \
	"$("$HWTRACE" report "$out/t.data" --callers fib --collapsed >/dev/null 2>&1; echo $?)" "2"
expect_eq "--per-thread alone is a usage error" \
	"$("$HWTRACE" report "$out/t.data" --per-thread >/dev/null 2>&1; echo $?)" "2"
finish
