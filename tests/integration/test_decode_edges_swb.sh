# decode --edges on a sw_branch capture of a real program (known_path 5,
# from kp_run to kp_done: 18 branches, as test_swb_record_cli shows), which
# goes through the element path (the backend has no edges op): the edges
# and counts are the (from, to) pairs of the full decode's branch
# elements, counted; text and jsonl agree; the total is 18; -j 1 and -j 3
# agree.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/known_path"

"$HWTRACE" record -e sw_branch --start kp_run --stop kp_done -q -o "$TMP/kp.data" \
	-- "$PROG" 5 2>"$TMP/err"
expect_eq "record exit" "$?" 0
"$HWTRACE" decode --format jsonl --no-symbols "$TMP/kp.data" >"$TMP/kp.jsonl" 2>/dev/null
expect_eq "full decode's branches" "$(grep -c '"type":"branch"' "$TMP/kp.jsonl")" 18
sed -n 's/.*"type":"branch".*"from":"\([^"]*\)","to":"\([^"]*\)".*/\1->\2/p' \
	"$TMP/kp.jsonl" | sort | uniq -c | awk '{ print $2, $1 }' >"$TMP/want"

"$HWTRACE" decode --edges "$TMP/kp.data" >"$TMP/edges" 2>"$TMP/edges.err"
expect_eq "edges exit" "$?" 0
expect_eq "edges equal the full decode's branches" "$(sort "$TMP/edges")" "$(cat "$TMP/want")"
# The program's addresses all have the same number of digits, so the
# byte order of the lines is the numeric order of (from, to).
expect_eq "addresses of one width" \
	"$(grep -o '0x[0-9a-f]*' "$TMP/edges" | awk '{ print length }' | sort -u | wc -l)" 1
expect_eq "edges sorted by from, then to" "$(cat "$TMP/edges")" \
	"$(LC_ALL=C sort "$TMP/edges")"
expect_contains "summary" "$(cat "$TMP/edges.err")" \
	"$(wc -l <"$TMP/want") edges (18 taken branches), 0 overflows, 0 errors"

# One thread and three give the same edges and summary.
for j in 1 3; do
	"$HWTRACE" decode --edges -j $j "$TMP/kp.data" >"$TMP/edges.j$j" 2>"$TMP/edges.j$j.err"
	expect_eq "edges -j $j" "$(cat "$TMP/edges.j$j")" "$(cat "$TMP/edges")"
	expect_eq "summary -j $j" "$(cat "$TMP/edges.j$j.err")" "$(cat "$TMP/edges.err")"
done

"$HWTRACE" decode --edges --format jsonl "$TMP/kp.data" 2>/dev/null |
	sed -n 's/{"type":"edge","from":"\([^"]*\)","to":"\([^"]*\)","count":\([0-9]*\)}/\1->\2 \3/p' >"$TMP/jsonl"
expect_eq "jsonl edges equal the text ones" "$(cat "$TMP/jsonl")" "$(cat "$TMP/edges")"
finish
