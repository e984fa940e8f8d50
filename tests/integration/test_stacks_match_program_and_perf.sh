# Call stacks rebuilt from a real sw_branch capture of call_tree, a program
# that prints its own call tree: recursion (fib(12): 465 calls, 12 deep),
# longjmp out of 5 frames, a tail call, a signal handler, two threads and
# an untraced fork. hwtrace's caller->callee call counts (from
# `report --collapsed --weight calls`) must equal the program's, and the
# calls perf's export-to-sqlite.py finds on the same file, except where
# perf's heuristics differ: each such case is named below.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/call_tree"
PERF=${PERF:-perf}
EXPORT=/usr/lib/perf-core/scripts/python/export-to-sqlite.py
data="$TMP/ct.data"

"$HWTRACE" record -e sw_branch --start main --stop tree_done -o "$data" \
	-- "$PROG" >"$TMP/program.txt" 2>"$TMP/record.err" ||
	{ cat "$TMP/record.err" >&2; fail "record"; finish; exit 1; }
# The program's own counts: "CALLER CALLEE COUNT".
want() { awk -v c="$1" -v e="$2" '$1 == c && $2 == e { print $3 }' "$TMP/program.txt"; }
expect_eq "program ran to the end" "$(want unwound dive)" "5"

"$HWTRACE" report "$data" --collapsed --weight calls -o "$TMP/calls.folded" \
	2>"$TMP/report.err" || fail "report --collapsed: $(cat "$TMP/report.err")"
# hwtrace's edges: the last two frames of each folded stack, summed.
got() {
	awk -v c="$1" -v e="$2" '{
		n = split($1, f, ";")
		if (n >= 2 && f[n - 1] == c && f[n] == e) s += $2
	} END { print s + 0 }' "$TMP/calls.folded"
}
for edge in "main fib" "fib fib" "main jump_outer" "jump_outer dive" \
	"dive dive" "main tail_caller" "thread_main worker" "worker leaf"; do
	set -- $edge
	expect_eq "calls $1 -> $2 equal the program's" "$(got "$1" "$2")" \
		"$(want "$1" "$2")"
done
# The tail call: tail_caller jumps to tail_target, which replaces it and
# returns to main, so tail_target's caller is main (the program counts
# the call in tail_caller).
expect_eq "tail_target entered by the tail call from tail_caller's place" \
	"$(got main tail_target)" "$(want tail_caller tail_target)"
expect_eq "tail_caller calls nothing" "$(got tail_caller tail_target)" "0"
# The signal handler nests under the code it interrupted (raise).
expect_eq "on_signal under raise" \
	"$(grep -c ';raise;.*;on_signal ' "$TMP/calls.folded")" \
	"$(want signal on_signal)"
# The forked child is not traced.
expect_eq "child_work not in the trace" "$(grep -c 'child_work' "$TMP/calls.folded")" \
	"$(want child child_work)"
# fib: 465 calls in all, 12 deep.
expect_eq "fib's deepest stack" "$(awk '{ n = gsub(/fib/, "&", $1); if (n > m) m = n } END { print m }' "$TMP/calls.folded")" "12"
"$HWTRACE" report "$data" --top 0 >"$TMP/report.txt" 2>/dev/null
expect_eq "report: fib's calls" "$(awk '$NF == "fib" { print $5 }' "$TMP/report.txt")" "465"

# longjmp: the five dive frames end without returning, as the program says.
"$HWTRACE" decode "$data" --calls --format jsonl >"$TMP/calls.jsonl" 2>/dev/null
expect_eq "dive frames unwound by longjmp" \
	"$(grep '"type":"return"' "$TMP/calls.jsonl" | grep '"sym":"dive"' | grep -c '"end":"no_return"')" \
	"$(want unwound dive)"
expect_eq "every call line has a return line" \
	"$(grep -c '"type":"call"' "$TMP/calls.jsonl")" \
	"$(grep -c '"type":"return"' "$TMP/calls.jsonl")"
# With more than one thread the stacks are built beside the merge's
# read-back: the same calls, stacks and summary as one thread gives.
for j in 1 3; do
	"$HWTRACE" decode -j $j "$data" --calls --format jsonl \
		>"$TMP/calls-j$j.jsonl" 2>"$TMP/calls-j$j.err"
	"$HWTRACE" report -j $j "$data" --collapsed --weight calls \
		-o "$TMP/calls-j$j.folded" 2>/dev/null
done
expect_eq "--calls -j 3 equals -j 1" \
	"$(cmp -s "$TMP/calls-j1.jsonl" "$TMP/calls-j3.jsonl" && echo same)" same
expect_eq "--calls summary -j 3 equals -j 1" \
	"$(cmp -s "$TMP/calls-j1.err" "$TMP/calls-j3.err" && echo same)" same
expect_eq "--calls -j 1 equals the default" \
	"$(cmp -s "$TMP/calls-j1.jsonl" "$TMP/calls.jsonl" && echo same)" same
expect_eq "report -j 3 equals -j 1" \
	"$(cmp -s "$TMP/calls-j1.folded" "$TMP/calls-j3.folded" && echo same)" same
# The threads' frames end where their trace stopped, in time order with
# the other threads' events (not at the end of the trace, after them).
"$HWTRACE" decode "$data" --calls >"$TMP/calls.txt" 2>"$TMP/calls-text.err"
expect_eq "--calls: time never goes back across threads" \
	"$(awk 'NR > 1 && $1 < prev { n++ } { prev = $1 } END { print n + 0 }' "$TMP/calls.txt")" "0"
expect_eq "the threads' frames end at their exit" \
	"$(grep -c '<- start_thread .*\[trace_off\]' "$TMP/calls.txt")" "2"
# Text --calls indents by depth: fib(12)'s innermost call is 12 deeper.
expect_contains "--calls text" "$("$HWTRACE" decode "$data" --calls 2>/dev/null | grep -m1 -- '-> fib')" "-> fib"

# perf's calls table on the same file.
command -v "$PERF" >/dev/null || { fail "perf is not installed (Debian: linux-perf)"; finish; exit 1; }
(cd "$TMP" && "$PERF" script -i "$data" -s "$EXPORT" perf.db branches calls \
	>"$TMP/export.out" 2>&1) || fail "perf export-to-sqlite: $(tail -3 "$TMP/export.out")"
perf_calls() { perf_db_calls "$TMP/perf.db" "$1" "$2"; }
# Calls per callee: the same in both.
for f in fib dive jump_outer tail_caller worker leaf; do
	expect_eq "calls of $f: hwtrace = perf" \
		"$(awk -v e="$f" '{ n = split($1, a, ";"); if (a[n] == e) s += $2 } END { print s + 0 }' "$TMP/calls.folded")" \
		"$(perf_calls '*' "$f")"
done
# Caller -> callee where perf's stack is intact.
for edge in "main fib" "fib fib" "dive dive" "thread_main worker"; do
	set -- $edge
	expect_eq "calls $1 -> $2: hwtrace = perf" "$(got "$1" "$2")" "$(perf_calls "$1" "$2")"
done
# Where they differ, by perf's rules:
# - perf has no tail calls: the jump to tail_target is a plain branch.
expect_eq "perf: no call of tail_target" "$(perf_calls '*' tail_target)" "0"
# - a signal delivery is no call in perf; hwtrace nests the handler.
expect_eq "perf: no call of on_signal" "$(perf_calls '*' on_signal)" "0"
# - the trace starts inside main: perf makes it a call from "unknown",
#   hwtrace an inferred frame (not a call).
expect_eq "perf: main called once by unknown" "$(perf_calls unknown main)" "1"
expect_eq "hwtrace: main is no call" "$(awk '$NF == "main" { print $5 }' "$TMP/report.txt")" "0"
# - in the two threads perf ends leaf's first call without its return
#   (calls.flags 2, "no return") and nests the next two calls under it:
#   worker -> leaf once and leaf -> leaf twice per thread, where hwtrace
#   matches each return to its call as the program counts (worker -> leaf
#   three times per thread). The totals per callee agree (above).
expect_eq "perf: worker -> leaf once per thread" "$(perf_calls worker leaf)" "2"
expect_eq "perf: leaf -> leaf twice per thread" "$(perf_calls leaf leaf)" "4"
expect_eq "hwtrace: leaf never calls leaf" "$(got leaf leaf)" "0"
finish
