#!/bin/bash
# A capture without time stamps (two threads' Intel BTS records) goes out
# in stream order, and hwtrace decode -j N reads the merge back in slices
# that are runs of one stream's blocks (core/merge/merge_read.c): at
# 3 MiB a thread (about 400,000 elements a stream, several slices each),
# -j 2, 3 and 8 write the bytes -j 1 writes, in text and jsonl, with the
# same standard error; and that is each thread's stream whole, one after
# the other, as --per-cpu writes it without the merge. Also run in the
# ThreadSanitizer build, where a race between lanes fails the decode.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"

branches=$(${HWT_TARGET_RUN:-} "$HWT_BTS_CAPTURE" "$TMP" 3) || fail "bts_capture"
C=$TMP/bts.data

for format in text jsonl; do
	"$HWTRACE" decode -j 1 --format "$format" "$C" >"$TMP/one" 2>"$TMP/one.err"
	expect_eq "-j 1 $format exit" "$?" 0
	for j in 2 3 8; do
		"$HWTRACE" decode -j "$j" --format "$format" "$C" >"$TMP/many" 2>"$TMP/many.err"
		expect_eq "-j $j $format exit" "$?" 0
		cmp -s "$TMP/one" "$TMP/many" ||
			fail "-j $j $format: output differs from -j 1"
		cmp -s "$TMP/one.err" "$TMP/many.err" ||
			fail "-j $j $format: standard error differs from -j 1"
	done
done

"$HWTRACE" decode -j 2 "$C" >"$TMP/merged" 2>"$TMP/err"
expect_contains "stream order" "$(cat "$TMP/err")" \
	"the capture has no timestamps: its 2 streams are in stream order"
expect_contains "branches" "$(cat "$TMP/err")" " $branches branches,"
"$HWTRACE" decode -j 1 --per-cpu "$C" >"$TMP/streams" 2>/dev/null
expect_eq "--per-cpu exit" "$?" 0
cmp -s "$TMP/merged" "$TMP/streams" ||
	fail "merged output is not the streams one after the other"
expect_eq "lines" "$(wc -l <"$TMP/merged")" "$(wc -l <"$TMP/streams")"
finish
