# hwtrace record -e sw_branch on a real program: known_path 5 from kp_run to
# kp_done takes 41 instructions and 18 branches (the counts known_path.c
# derives from its assembly), and the capture decodes to exactly that.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/known_path"

"$HWTRACE" record -e sw_branch --start kp_run --stop kp_done -q -o "$TMP/kp.data" \
	-- "$PROG" 5 2>"$TMP/err"
expect_eq "record exit" "$?" 0
expect_contains "record report" "$(cat "$TMP/err")" "sw_branch: 41 instructions, 18 branches"
"$HWTRACE" decode --format jsonl "$TMP/kp.data" >"$TMP/kp.jsonl" 2>/dev/null
expect_eq "decoded instructions" \
	"$(sed -n 's/.*"insns":\([0-9]*\).*/\1/p' "$TMP/kp.jsonl" | awk '{ n += $1 } END { print n }')" 41
expect_eq "decoded branches" "$(grep -c '"type":"branch"' "$TMP/kp.jsonl")" 18
expect_eq "gaps" "$(grep -c '"type":"gap"' "$TMP/kp.jsonl")" 0

"$HWTRACE" record -e sw_branch --bogus -- "$PROG" 2>"$TMP/err"
expect_eq "bad option exit" "$?" 2
expect_contains "bad option named" "$(cat "$TMP/err")" "--bogus does not apply to -e sw_branch"
"$HWTRACE" record -e sw_branch --start no_such_symbol -o "$TMP/x.data" -- "$PROG" 2>"$TMP/err"
expect_eq "unknown symbol exit" "$?" 1
expect_contains "unknown symbol named" "$(cat "$TMP/err")" "symbol 'no_such_symbol'"
finish
