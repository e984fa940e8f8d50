# hwtrace record -S on an emulated intel_bts whose trace unit wraps as the
# hardware does: at the last whole 24-byte record, the last aux_size % 24
# bytes never written. 3000 records (72000 bytes) through an 8-page
# (32768-byte) buffer: the hardware wraps at 32760 (1365 records), so the
# snapshot at exit is the newest 1365 records, 1635..2999, and nothing of
# the unwritten tail. Record i is a branch from 0x401000 + 64 i + 16 to
# 16 bytes further, so record 1635 is 0x41a8d0 -> 0x41a8e0 and record
# 2999 is 0x42fdd0 -> 0x42fde0. perf report -D (perf's own BTS dump) and
# hwtrace decode both list exactly those.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client"

# bts_records DATA: the branches perf report -D dumps from DATA's Intel BTS
# data, one "from to" (hex, no 0x) a line.
bts_records() {
	perf report -D -i "$1" 2> /dev/null |
		awk '/Intel BTS data: size/ { on = 1; next }
		     on && / -> / { print $(NF - 3), $(NF - 1) }
		     on && !/ -> / { on = 0 }'
}

# replay_and_partial_snapshot: a full-trace capture replayed in snapshot
# mode, and a -Se1000 snapshot of whole records, each read by perf report -D.
replay_and_partial_snapshot() {
	# A full-trace capture of the same records replayed (--emulate) in
	# snapshot mode through the same buffer gives the same snapshot.
	"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$TMP/bts.bin" \
		-e intel_bts// --per-thread -m 4,32 -o "$TMP/full.data" 2> "$TMP/err"
	expect_eq "full-trace record status" "$?" 0
	expect_contains "full-trace size" "$(cat "$TMP/err")" "thread: 72000 bytes captured"
	"$HWTRACE" record --emulate "$TMP/full.data" -Se -m 4,8 -o "$TMP/replay.data" \
		2> "$TMP/err"
	expect_eq "replay status" "$?" 0
	expect_contains "replay size" "$(cat "$TMP/err")" \
		"thread: 32760 bytes captured in 1 chunks"
	bts_records "$TMP/replay.data" > "$TMP/perf2"
	expect_eq "replay: records" "$(wc -l < "$TMP/perf2")" 1365
	expect_eq "replay: first record" "$(head -n 1 "$TMP/perf2")" "41a8d0 41a8e0"
	expect_eq "replay: last record" "$(tail -n 1 "$TMP/perf2")" "42fdd0 42fde0"

	# A snapshot size that is not a whole number of records keeps whole
	# records: -Se1000 gives 1000 - 1000 % 24 = 984 bytes, records 2959..2999
	# (the first 0x401000 + 64 * 2959 + 16 = 0x42f3d0).
	"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$TMP/bts.bin" \
		-e intel_bts// --per-thread -Se1000 -m 4,8 -o "$TMP/small.data" 2> "$TMP/err"
	expect_eq "-Se1000 record status" "$?" 0
	expect_contains "-Se1000 size" "$(cat "$TMP/err")" \
		"thread: 984 bytes captured in 1 chunks"
	bts_records "$TMP/small.data" > "$TMP/perf"
	expect_eq "-Se1000: records" "$(wc -l < "$TMP/perf")" 41
	expect_eq "-Se1000: first record" "$(head -n 1 "$TMP/perf")" "42f3d0 42f3e0"
	expect_eq "-Se1000: last record" "$(tail -n 1 "$TMP/perf")" "42fdd0 42fde0"
}

if ! command -v perl > /dev/null || ! command -v perf > /dev/null; then
	fail "perl (to write the records) and perf (the independent reader) are needed"
	finish
	exit 1
fi
perl -e 'for $i (0..2999) {
	$f = 0x401000 + $i * 64 + 16;
	print pack("QQQ", $f, $f + 16, ($i % 3) ? 0x10 : 0);
}' > "$TMP/bts.bin"
expect_eq "source size" "$(stat -c %s "$TMP/bts.bin")" 72000

"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$TMP/bts.bin" \
	-e intel_bts// --per-thread -Se -m 4,8 -o "$TMP/snap.data" 2> "$TMP/err"
expect_eq "record status" "$?" 0
expect_contains "snapshot size" "$(cat "$TMP/err")" \
	"thread: 32760 bytes captured in 1 chunks"
expect_contains "snapshot wrapped" "$(cat "$TMP/err")" "1 snapshots (1 wrapped)"

bts_records "$TMP/snap.data" > "$TMP/perf"
expect_eq "perf: records" "$(wc -l < "$TMP/perf")" 1365
expect_eq "perf: first record" "$(head -n 1 "$TMP/perf")" "41a8d0 41a8e0"
expect_eq "perf: last record" "$(tail -n 1 "$TMP/perf")" "42fdd0 42fde0"

"$HWTRACE" decode --format jsonl "$TMP/snap.data" > "$TMP/out" 2> /dev/null
expect_eq "decode status" "$?" 0
grep '"type":"branch"' "$TMP/out" |
	sed 's/.*"from":"0x\([0-9a-f]*\)","to":"0x\([0-9a-f]*\)".*/\1 \2/' > "$TMP/ours"
expect_eq "hwtrace: the same records as perf" \
	"$(cmp -s "$TMP/perf" "$TMP/ours" && echo same)" same
expect_eq "hwtrace: no decode errors" \
	"$(grep -c '"decode_error"\|"type":"error"' "$TMP/out")" 0

replay_and_partial_snapshot

finish
