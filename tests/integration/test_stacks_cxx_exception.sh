# A C++ exception thrown through four frames (tests/programs/exc_tree.cc,
# built here with g++): recorded with sw_branch, the four frames end
# without returning, when the unwinder jumps to main's landing pad, and
# main goes on in the same frame. libgcc's unwinder runs CET instructions
# (rdsspq) that Capstone 4 does not know: the decode has no gap.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
command -v g++ >/dev/null || { fail "g++ is not installed"; finish; exit 1; }
g++ -O1 -g -o "$TMP/exc_tree" "$HWT_SOURCE_DIR/tests/programs/exc_tree.cc" ||
	{ fail "g++"; finish; exit 1; }
"$HWTRACE" record -e sw_branch --start main --stop exc_done -o "$TMP/exc.data" \
	-- "$TMP/exc_tree" >"$TMP/program.txt" 2>"$TMP/record.err" ||
	{ fail "record: $(cat "$TMP/record.err")"; finish; exit 1; }
expect_eq "the program caught it" "$(cat "$TMP/program.txt")" "caught 1 depth 4"
"$HWTRACE" decode "$TMP/exc.data" --calls --format jsonl >"$TMP/calls.jsonl" 2>"$TMP/calls.err"
ends() { grep '"type":"return"' "$TMP/calls.jsonl" | grep "\"sym\":\"$1\"" | sed -n 's/.*"end":"\([a-z_]*\)".*/\1/p'; }
for f in f1 f2 f3 f4; do
	expect_eq "$f ends without returning" "$(ends "$f")" "no_return"
done
expect_eq "main runs on to the end of the trace" "$(ends main)" "trace_off"
expect_eq "one call each" "$(grep '"type":"call"' "$TMP/calls.jsonl" | grep -c '"sym":"f[1-4]"')" "4"
expect_contains "no gap in the decode" "$(tail -1 "$TMP/calls.err")" "0 errors, 0 gaps"
finish
