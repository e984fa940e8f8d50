# Every function of the public headers has a comment (ownership, errors):
# tests/tools/check_api_docs.sh passes on include/ and names the function
# when a copy has one comment taken away.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
CHECK="$HWT_SOURCE_DIR/tests/tools/check_api_docs.sh"

expect_eq "undocumented functions" "$(sh "$CHECK" "$HWT_SOURCE_DIR/include" 2>&1)" ""
expect_eq "exit status" "$(sh "$CHECK" "$HWT_SOURCE_DIR/include" >/dev/null 2>&1; echo $?)" 0

mkdir -p "$TMP/inc"
cp -r "$HWT_SOURCE_DIR/include/hwtrace" "$TMP/inc/"
# Drop the comment above hwt_pd_writer_flush.
awk '/^\/\* Writes the buffered records/ { skip = 1 } skip && /\*\/$/ { skip = 0; next } !skip' \
	"$HWT_SOURCE_DIR/include/hwtrace/perfdata.h" >"$TMP/inc/hwtrace/perfdata.h"
out=$(sh "$CHECK" "$TMP/inc" 2>&1)
expect_eq "a planted omission fails" "$(sh "$CHECK" "$TMP/inc" >/dev/null 2>&1; echo $?)" 1
expect_contains "and is named" "$out" "perfdata.h:"
expect_contains "by function" "$out" "hwt_pd_writer_flush has no comment"
finish
