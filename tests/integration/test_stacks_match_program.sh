# The call-stack corpus: programs that print their own call tree
# (tests/programs/stacks/: C with recursion, longjmp, a tail call, a
# signal handler entered twice (once with a nested signal), qsort
# callbacks and functions in assembly whose instruction counts are
# known; C++ with exceptions thrown through
# frames and through gcc's split-off .cold code), each built with gcc and
# clang at -O0, -O2 and -O3 and recorded with sw_branch. For every build,
# decode --calls, report (calls; self and total instructions of the
# assembly functions) and report --collapsed must agree with the
# program's own tree exactly.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
SRC="$HWT_SOURCE_DIR/tests/programs/stacks"

# want CALLER CALLEE / want unwound F / want insns F: the program's numbers.
want() { awk -v a="$1" -v b="$2" '$1 == a && $2 == b { print $3; exit }' "$out/program.txt"; }
want_total() { awk -v a="$1" -v b="$2" '$1 == a && $2 == b { print $4; exit }' "$out/program.txt"; }
# edge CALLER CALLEE: calls of CALLEE straight from CALLER, from the
# folded stacks weighted by calls.
edge() {
	awk -v c="$1" -v e="$2" '{
		n = split($1, f, ";")
		if (n >= 2 && f[n - 1] == c && f[n] == e) s += $2
	} END { print s + 0 }' "$out/calls.folded"
}
# callee F: calls of F from anywhere, in the folded stacks.
callee() { awk -v e="$1" '{ n = split($1, f, ";"); if (f[n] == e) s += $2 } END { print s + 0 }' "$out/calls.folded"; }
# report_col F N: column N of F's row in the report table.
report_col() { awk -v f="$1" -v n="$2" '!/^#/ && $NF == f { print $n }' "$out/report.txt"; }
# calls_of F / ends_of F END: --calls records of F.
calls_of() { grep '"type":"call"' "$out/calls.jsonl" | grep -c "\"sym\":\"$1\"" ; }
ends_of() { grep '"type":"return"' "$out/calls.jsonl" | grep "\"sym\":\"$1\"" | grep -c "\"end\":\"$2\""; }

# check_edges NAME EDGE...: each "CALLER:CALLEE" edge as the program counts
# it, in the folded stacks, in report's calls column and in --calls.
check_edges() {
	local name=$1 e c f
	shift
	for e in "$@"; do
		c=${e%%:*} f=${e##*:}
		expect_eq "$name: calls $c -> $f" "$(edge "$c" "$f")" "$(want "$c" "$f")"
	done
}
check_callee() {
	local name=$1 f=$2 n=$3
	expect_eq "$name: calls of $f (folded)" "$(callee "$f")" "$n"
	expect_eq "$name: calls of $f (report)" "$(report_col "$f" 5)" "$n"
	expect_eq "$name: calls of $f (--calls)" "$(calls_of "$f")" "$n"
}

# run NAME: records $out/prog and decodes it every way the checks read.
run() {
	"$HWTRACE" record -e sw_branch --start main --stop tree_done \
		-o "$out/t.data" -- "$out/prog" >"$out/program.txt" 2>"$out/record.err" ||
		{ fail "$1: record: $(tail -3 "$out/record.err")"; return 1; }
	"$HWTRACE" report "$out/t.data" --collapsed --weight calls \
		-o "$out/calls.folded" 2>"$out/report.err" &&
	"$HWTRACE" report "$out/t.data" --collapsed -o "$out/insns.folded" 2>>"$out/report.err" &&
	"$HWTRACE" report "$out/t.data" --top 0 >"$out/report.txt" 2>>"$out/report.err" &&
	"$HWTRACE" decode "$out/t.data" --calls --format jsonl >"$out/calls.jsonl" \
		2>"$out/decode.err" ||
		{ fail "$1: decode: $(cat "$out/report.err" "$out/decode.err")"; return 1; }
	# One root: every stack starts in main (the trace starts there), and
	# no split-off part of a function shows as a frame of its own.
	expect_eq "$1: every stack starts in main" \
		"$(awk '$1 !~ /^main(;|$)/' "$out/calls.folded" "$out/insns.folded" | head -3)" ""
	expect_eq "$1: no .cold frame" "$(grep -c '\.cold[;. ]' "$out/calls.folded")" "0"
	expect_eq "$1: every call line has a return line" \
		"$(grep -c '"type":"call"' "$out/calls.jsonl")" \
		"$(grep -c '"type":"return"' "$out/calls.jsonl")"
	expect_contains "$1: no gap in the decode" "$(tail -1 "$out/decode.err")" "0 errors, 0 gaps"
	# One count of calls: report's header and every summary say the
	# same number, tail calls and the signal entries included; frames
	# still open at --stop ended where tracing stopped, not by lost
	# trace (there is none).
	local calls
	calls=$(grep -c '"type":"call".*"start":"\(called\|tail\|trap\)"' "$out/calls.jsonl")
	expect_contains "$1: report's header counts every call" \
		"$(head -1 "$out/report.txt")" " $calls calls (tail calls and signal/trap entries included)"
	expect_contains "$1: the --calls summary counts the same calls" \
		"$(grep 'returns in' "$out/decode.err")" "decode: $calls calls ("
	expect_contains "$1: the report summary counts the same calls" \
		"$(grep 'returns in' "$out/report.err" | head -1)" "report: $calls calls ("
	# Time columns with their unit, and what the time is under sw_branch.
	expect_contains "$1: report's time columns in ns, then dso and function" \
		"$(sed -n 3p "$out/report.txt" | tr -s ' ')" \
		" self ns total ns avg ns max ns dso function"
	expect_contains "$1: report says what the time measures" "$(sed -n 2p "$out/report.txt")" \
		"# time: ns of the tracer's clock while it single-steps the program (sw_branch): it measures the stepping"
	expect_eq "$1: all folded calls" "$(awk '{ s += $2 } END { print s }' "$out/calls.folded")" "$calls"
	expect_contains "$1: no frame ended by lost trace" \
		"$(grep 'returns in' "$out/decode.err")" " 0 frames ended by lost trace, $(grep -c '"end":"trace_off"' "$out/calls.jsonl") where tracing stopped"
}

# check_past_main NAME: traced on after main returns (no --stop), main's
# caller is found by that return: --calls names it before main's return,
# at that return's time (time never goes back), and in the folded stacks
# it is main's parent, under every stack, not a root beside main.
check_past_main() {
	"$HWTRACE" record -e sw_branch --start main -o "$out/past.data" \
		-- "$out/prog" >/dev/null 2>"$out/past.err" ||
		{ fail "$1: record past main: $(tail -3 "$out/past.err")"; return; }
	"$HWTRACE" decode "$out/past.data" --calls >"$out/past.txt" 2>/dev/null
	expect_eq "$1: main's caller named just before main returns" \
		"$(grep -A1 -- '-> __libc_start_call_main \[inferred\]' "$out/past.txt" | awk '{ print $1 == prev, $3, $4; prev = $1 }' | tail -1)" \
		"1 <- main"
	expect_eq "$1: --calls times never go back" \
		"$(awk 'NR > 1 && $1 < prev { n++ } { prev = $1 } END { print n + 0 }' "$out/past.txt")" "0"
	"$HWTRACE" report "$out/past.data" --collapsed -o "$out/past.folded" 2>/dev/null
	expect_eq "$1: one root, main's caller" \
		"$(awk '{ split($1, f, ";"); print f[1] }' "$out/past.folded" | sort -u)" \
		"__libc_start_call_main"
	expect_eq "$1: main under its caller" \
		"$(grep -c '^__libc_start_call_main;main;fib ' "$out/past.folded")" "1"
}

check_c() {
	local name=$1
	run "$name" || return
	expect_eq "$name: the program ran to its end" "$(want unwound dive)" "5"
	check_edges "$name" main:fib fib:fib main:jump_outer jump_outer:dive \
		dive:dive main:tail_caller main:sorter main:insn_outer \
		insn_outer:insn_leaf
	local f
	for f in fib dive sorter insn_outer insn_leaf; do
		check_callee "$name" "$f" "$(awk -v f="$f" '$1 != "unwound" && $1 != "insns" && $2 == f { s += $3 } END { print s }' "$out/program.txt")"
	done
	# The tail call: tail_target replaces tail_caller and returns to
	# main, so its caller is main; it counts as a call.
	expect_eq "$name: tail_target called from tail_caller's place" \
		"$(edge main tail_target)" "$(want tail_caller tail_target)"
	expect_eq "$name: tail_caller calls nothing" "$(edge tail_caller tail_target)" "0"
	check_callee "$name" tail_target "$(want tail_caller tail_target)"
	# The signal handler, entered twice, nests under raise; the signal
	# it raises the first time nests in it.
	check_callee "$name" on_outer "$(want signal on_outer)"
	expect_eq "$name: on_outer under raise" \
		"$(awk '$1 ~ /^main;raise;.*on_outer$/ { s += $2 } END { print s + 0 }' "$out/calls.folded")" \
		"$(want signal on_outer)"
	check_callee "$name" on_nested "$(want on_outer on_nested)"
	expect_eq "$name: the nested signal's handler under the first" \
		"$(awk '$1 ~ /^main;raise;.*;on_outer;raise;.*on_nested$/ { s += $2 } END { print s + 0 }' "$out/calls.folded")" \
		"$(want on_outer on_nested)"
	# qsort's callback, called from inside libc under sorter.
	check_callee "$name" cmp "$(want qsort cmp)"
	expect_eq "$name: cmp under sorter's qsort" \
		"$(awk '$1 ~ /^main;sorter;qsort.*;cmp$/ { s += $2 } END { print s + 0 }' "$out/calls.folded")" \
		"$(want qsort cmp)"
	# longjmp ends the five dive frames without their returns.
	expect_eq "$name: dive frames unwound by longjmp" "$(ends_of dive no_return)" \
		"$(want unwound dive)"
	# The assembly functions: instructions exactly.
	for f in insn_outer insn_leaf; do
		expect_eq "$name: self instructions of $f" "$(report_col "$f" 1)" "$(want insns "$f")"
		expect_eq "$name: total instructions of $f" "$(report_col "$f" 3)" "$(want_total insns "$f")"
	done
	check_past_main "$name"
	expect_eq "$name: folded instructions of insn_leaf" \
		"$(awk '$1 == "main;insn_outer;insn_leaf" { print $2 }' "$out/insns.folded")" \
		"$(want insns insn_leaf)"
}

check_cxx() {
	local name=$1
	run "$name" || return
	expect_eq "$name: the program caught every throw" "$(want caught 3)" ""
	expect_eq "$name: three throws caught" "$(awk '$1 == "caught" { print $2 }' "$out/program.txt")" "3"
	check_edges "$name" main:level1 level1:level2 level2:level3 \
		main:cold_frame cold_frame:thrower
	local f
	for f in level1 level2 level3 cold_frame thrower; do
		check_callee "$name" "$f" "$(awk -v f="$f" '$1 != "unwound" && $2 == f { s += $3 } END { print s }' "$out/program.txt")"
		expect_eq "$name: $f frames unwound by the exception" \
			"$(ends_of "$f" no_return)" "$(want unwound "$f")"
		expect_eq "$name: $f frames that returned" "$(ends_of "$f" returned)" "0"
	done
	# Nothing the exceptions left behind stays open under them: after
	# the last throw, tree_done is main's callee.
	expect_eq "$name: tree_done called from main" "$(edge main tree_done)" "1"
}

# build_and_check LANG COMPILER -ON SOURCE CHECK: builds SOURCE into its
# own directory ($out) and runs CHECK on it.
build_and_check() {
	out="$TMP/$2$3"
	mkdir -p "$out"
	if "$2" "$3" -g -o "$out/prog" "$SRC/$4" 2>"$out/cc.err"; then
		"$5" "$1 $2 $3"
	else
		fail "$1 $2 $3: $(cat "$out/cc.err")"
	fi
}

for cc in gcc clang; do
	command -v "$cc" >/dev/null || { fail "$cc is not installed"; continue; }
	cxx=g++
	[ "$cc" = clang ] && cxx=clang++
	for o in -O0 -O2 -O3; do
		build_and_check C "$cc" $o stk_tree.c check_c
		build_and_check C++ "$cxx" $o stk_exc.cc check_cxx
	done
done
# perf's calls table (export-to-sqlite.py) on the g++ -O2 capture, the
# hot/cold one: perf counts each function's calls as the program does,
# but its stacks do not unwind at the unwinder's jump to a landing pad,
# so what main calls after the first catch nests under the frame that
# was open there (on this libc _int_free, freeing the exception): perf
# has main call level1 once (the program: twice) and cold_frame and
# tree_done not at all, where hwtrace has the program's edges (above).
perf_calls() { perf_db_calls "$TMP/perf.db" "$1" "$2"; }
EXPORT=/usr/lib/perf-core/scripts/python/export-to-sqlite.py
out="$TMP/g++-O2"
if ! command -v perf >/dev/null; then
	fail "perf is not installed (Debian: linux-perf)"
elif (cd "$TMP" && perf script -i "$out/t.data" -s "$EXPORT" perf.db branches calls \
	>"$TMP/export.out" 2>&1); then
	for f in level1 level2 level3 cold_frame thrower; do
		expect_eq "g++ -O2: calls of $f: perf = the program" "$(perf_calls '*' "$f")" \
			"$(awk -v f="$f" '$1 != "unwound" && $2 == f { s += $3 } END { print s }' "$out/program.txt")"
	done
	expect_eq "g++ -O2: perf: main -> level1 once" "$(perf_calls main level1)" "1"
	expect_eq "g++ -O2: perf: main -> cold_frame never" "$(perf_calls main cold_frame)" "0"
else
	fail "perf export-to-sqlite: $(tail -3 "$TMP/export.out")"
fi
# gcc -O2 splits C++ code into hot and cold parts: the corpus has them.
expect_contains "g++ -O2 made main.cold" "$(nm "$TMP/g++-O2/prog")" " main.cold"
finish
