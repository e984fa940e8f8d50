# hwt_recorder's call triggers on a replayed capture (record --emulate
# -S --trigger symbol:/latency:): the emulator's probes fire at the
# capture's calls of slow() and the recorder takes a snapshot for each
# fire, naming it in the file's trigger feature. slow_calls calls slow()
# 1000 times (its source); which calls took longer than the threshold is
# the ground truth of the replayed capture itself: its branch records'
# times, from the call into slow to the return out of it (stepping makes
# some fast calls slow too, so the program's own list of 7 sleeping calls
# is only a lower bound, checked as such).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"
BIN="$PROGS/slow_calls"
TH=20000000  # 20 ms; the sleeping calls take 30 ms

${HWT_TARGET_RUN:-} "$PROGS/swb_record" -o "$TMP/orig.data" --quiet --start main --stop exit \
	-- "$BIN" 2>"$TMP/rec.err" || { cat "$TMP/rec.err" >&2; fail "swb_record"; finish; }
${HWT_TARGET_RUN:-} "$BIN" | sed 's/^slow call //' >"$TMP/sleepers"

# The capture's slow calls: entry N is the Nth branch into slow+0; its
# return is the next return out of slow (slow is a leaf but for
# nanosleep, whose returns land inside slow).
"$HWTRACE" decode --format jsonl "$TMP/orig.data" 2>/dev/null | awk -v th=$TH '
	function t() { match($0, /"time":[0-9]+/); return substr($0, RSTART + 7, RLENGTH - 7) + 0 }
	/"type":"branch"/ && /"to_sym":"slow","to_symoff":0,/ { n++; t0 = t(); open = 1; next }
	open && /"type":"branch"/ && /"kind":"return"/ && /"from_sym":"slow",/ {
		open = 0; if (t() - t0 > th) print n }' >"$TMP/want"
expect_eq "entries of slow in the capture" "$("$HWTRACE" decode --format jsonl "$TMP/orig.data" 2>/dev/null | grep '"type":"branch"' | grep -c '"to_sym":"slow","to_symoff":0,')" 1000
missing=$(comm -23 <(sort "$TMP/sleepers") <(sort "$TMP/want") | wc -l)
expect_eq "sleeping calls that the capture shows slow" "$missing" 0

entries() { "$HWTRACE" info "$1" 2>&1 | sed -n 's/^  entry: //p'; }

# latency: one fire for each slow call, in order.
"$HWTRACE" record --emulate "$TMP/orig.data" --emulate-rate 0.05 -S -o "$TMP/lat.data" \
	--trigger "latency:slow@$BIN>20ms" >"$TMP/lat.out" 2>&1 || { cat "$TMP/lat.out" >&2; fail "record latency:"; }
entries "$TMP/lat.data" >"$TMP/lat.got"
if ! cmp -s "$TMP/want" "$TMP/lat.got"; then
	fail "latency: fired at other calls than the capture's slow ones:"
	diff "$TMP/want" "$TMP/lat.got" | head >&2
fi
grep -q "1000 entries, 1000 calls returned, $(wc -l <"$TMP/want") fired" "$TMP/lat.out" ||
	fail "latency: summary: $(grep trigger "$TMP/lat.out")"
expect_eq "latency: trigger named in info" "$("$HWTRACE" info "$TMP/lat.data" | grep -c "^trigger: *latency:slow@$BIN>20ms")" "$(wc -l <"$TMP/want")"
# The windows decode (a gap between two windows is where one ends).
expect_eq "latency: windows decode without errors" "$("$HWTRACE" decode "$TMP/lat.data" 2>&1 | grep -c ' 0 errors, ')" 1

# symbol: with --trigger-count 3, the first three entries.
"$HWTRACE" record --emulate "$TMP/orig.data" -S -o "$TMP/sym.data" \
	--trigger "symbol:slow@$BIN" --trigger-count 3 >"$TMP/sym.out" 2>&1 || { cat "$TMP/sym.out" >&2; fail "record symbol:"; }
expect_eq "symbol: entries fired" "$(entries "$TMP/sym.data" | tr '\n' ' ')" "1 2 3 "
grep -q "1000 entries, 0 calls returned, 3 fired" "$TMP/sym.out" || fail "symbol: summary: $(grep trigger "$TMP/sym.out")"

# Usage errors: a call trigger needs -S; an unknown function is named.
"$HWTRACE" record --emulate "$TMP/orig.data" -o "$TMP/bad.data" --trigger "symbol:slow@$BIN" >"$TMP/bad.out" 2>&1
expect_eq "exit status without -S" $? 2
"$HWTRACE" record --emulate "$TMP/orig.data" -S -o "$TMP/bad.data" --trigger "symbol:slwo@$BIN" >"$TMP/bad.out" 2>&1
expect_eq "exit status, unknown function" $? 2
grep -q slwo "$TMP/bad.out" || fail "the error does not name slwo: $(cat "$TMP/bad.out")"
[ -e "$TMP/bad.data" ] && fail "a refused record left $TMP/bad.data"
finish
