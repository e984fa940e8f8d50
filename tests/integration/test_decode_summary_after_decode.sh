# hwtrace decode prints its closing counts only for a decode that ran: a
# missing file, a file that is no capture or a missing raw trace fails with
# its error alone (once "0 ranges (0 instructions), ..." came first), and a
# capture cut short still counts what was decoded before the cut.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"

head -c 100 /dev/zero >"$TMP/zero.data"
for input in "$TMP/missing.data" "$TMP/zero.data" "--raw intel_pt:$TMP/missing.pt"; do
	"$HWTRACE" decode $input >/dev/null 2>"$TMP/err"
	expect_eq "$input: exit" "$?" 1
	expect_eq "$input: one line, the error" "$(wc -l <"$TMP/err")" 1
	expect_eq "$input: no summary" "$(grep -c 'hwtrace decode: .* ranges' "$TMP/err")" 0
done
expect_contains "not a capture" "$(cat "$TMP/err")" "missing.pt"

head -c 100000 "$Q" >"$TMP/cut.data"
"$HWTRACE" decode "$TMP/cut.data" >/dev/null 2>"$TMP/err"
expect_eq "cut capture: exit" "$?" 1
expect_eq "cut capture: counts of the decoded part" \
	"$(grep '^hwtrace decode: [0-9]' "$TMP/err")" \
	"hwtrace decode: 0 ranges (0 instructions), 0 branches, 1 errors, 1 gaps (1 decode_error; 12144 bytes of trace skipped)"
expect_contains "cut capture: the cut named" "$(cat "$TMP/err")" "is cut short"
finish
