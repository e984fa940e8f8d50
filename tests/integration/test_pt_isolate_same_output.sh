# Intel PT decoded in a sandboxed worker (--isolate) writes what the
# in-process decode (--no-isolate, the oracle) writes. The worker may open
# no file, so the code of a --map must come from the image's memory, not
# from libipt's section cache (which opens the file by its path: the
# sandbox stopped every such worker before). On every libipt conformance
# stream whose code is in a file at its `org` address: jsonl (every
# field of every element), the same bytes on standard output and standard
# error, and the same exit; the streams together have ranges and
# branches, so neither side is empty.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

PTT=$HWT_TESTDATA/ptt/expected
branches=0
ranges=0
streams=0
for pt in "$PTT"/*.pt; do
	name=$(basename "$pt" .pt)
	src=$HWT_TESTDATA/ptt/src/$name.ptt
	[ -f "$PTT/$name.bin" ] && [ -f "$src" ] || continue
	org=$(sed -n 's/^org *\(0x[0-9a-fA-F]*\).*/\1/p' "$src" | head -n 1)
	[ -n "$org" ] || continue
	streams=$((streams + 1))
	for fmt in jsonl; do
		"$HWTRACE" decode --no-isolate --format $fmt --raw "intel_pt:$pt" \
			--map "$PTT/$name.bin@$org" >"$TMP/in.out" 2>"$TMP/in.err"
		in_rc=$?
		"$HWTRACE" decode --isolate --format $fmt --raw "intel_pt:$pt" \
			--map "$PTT/$name.bin@$org" >"$TMP/iso.out" 2>"$TMP/iso.err"
		expect_eq "$name $fmt exit" "$?" "$in_rc"
		cmp -s "$TMP/in.out" "$TMP/iso.out" ||
			fail "$name $fmt: isolated output differs"
		cmp -s "$TMP/in.err" "$TMP/iso.err" ||
			fail "$name $fmt: isolated standard error differs"
		checks=$((checks + 2))
	done
	branches=$((branches + $(grep -c '"type":"branch"' "$TMP/iso.out")))
	ranges=$((ranges + $(grep -c '"type":"range"' "$TMP/iso.out")))
done
[ "$streams" -ge 20 ] || fail "only $streams conformance streams with code found"
[ "$branches" -gt 0 ] && [ "$ranges" -gt 100 ] ||
	fail "$branches branches and $ranges ranges decoded in all streams"
echo "$streams streams, $ranges ranges, $branches branches"
finish
