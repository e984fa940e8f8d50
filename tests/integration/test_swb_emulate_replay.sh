# A sw_branch capture replayed through the kernel emulator and the normal
# capture path (`hwtrace record --emulate`) decodes to the same ranges and
# branches as the original: the BTS records survive the AUX ring, its
# wrap-around and the perf.data writer unchanged.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"

"$PROGS/swb_record" -o "$TMP/orig.data" --quiet --start main --stop exit \
	-- "$PROGS/swb_demo" 50 2>"$TMP/rec.err" || { cat "$TMP/rec.err" >&2; fail "swb_record"; }
"$HWTRACE" record --emulate "$TMP/orig.data" -o "$TMP/replay.data" \
	>"$TMP/replay.out" 2>&1 || { cat "$TMP/replay.out" >&2; fail "record --emulate"; }

# Elements without the fields a replay may renumber (offsets, times, and
# the thread id: the emulator serves the per-thread stream to the task the
# replay opens).
elements() {
	"$HWTRACE" decode --format jsonl "$1" 2>/dev/null |
		sed -e 's/,"offset":[0-9]*//' -e 's/,"time":[0-9]*//' -e 's/,"tid":[0-9]*//' -e 's/,"pid":[0-9]*//'
}
elements "$TMP/orig.data" >"$TMP/orig.jsonl"
elements "$TMP/replay.data" >"$TMP/replay.jsonl"
n=$(sed -n 's/.* \([0-9]*\) branches.*/\1/p' "$TMP/rec.err")
expect_eq "branches in the original" "$(grep -c '"type":"branch"' "$TMP/orig.jsonl")" "$n"
expect_eq "gaps in the original" "$(grep -c '"type":"gap"' "$TMP/orig.jsonl")" 0
if ! cmp -s "$TMP/orig.jsonl" "$TMP/replay.jsonl"; then
	fail "the replay decodes differently:"
	diff "$TMP/orig.jsonl" "$TMP/replay.jsonl" | head -10 >&2
fi
finish
