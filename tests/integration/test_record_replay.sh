# hwtrace record --emulate: the real captures' trace and sideband go
# through the kernel emulator and the normal capture path; the new file's
# AUX bytes per CPU equal the original's, and when the reader cannot keep
# up the lost bytes are counted exactly.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

PT="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm/perf_etm.data"

aux_bytes "$PT" > "$TMP/pt.want"
# The capture's two buffers: cpu0 12,240 B and cpu3 137,728 B (README).
expect_eq "bytes of cpu 0 in the capture" "$(grep -c '^0 ' "$TMP/pt.want")" 12240
expect_eq "bytes of cpu 3 in the capture" "$(grep -c '^3 ' "$TMP/pt.want")" 137728

# Default rings, then a 64 KiB AUX ring the stream wraps twice (its reads
# around the end become two AUXTRACE records with consecutive offsets);
# there the trace unit waits for the reader, so a busy machine (a parallel
# sanitizer run) cannot make it lose bytes.
# decodes_as WHAT CAPTURE OUT NOTE: OUT (a replay of CAPTURE) decodes to
# exactly what CAPTURE decodes to, and that is not nothing.
decodes_as() {
	"$HWTRACE" decode --format jsonl "$2" > "$TMP/capture.dec" 2>/dev/null
	"$HWTRACE" decode --format jsonl "$3" > "$TMP/out.dec" 2>/dev/null
	expect_eq "the ${1}capture decodes to something" \
		"$([ -s "$TMP/capture.dec" ] && echo yes)" yes
	expect_eq "${1}OUT decodes as CAPTURE does$4" \
		"$(cmp -s "$TMP/capture.dec" "$TMP/out.dec" && echo same)" same
}

for rate in "" "--emulate-rate 2 --emulate-lossless -m 4,16"; do
	# shellcheck disable=SC2086
	"$HWTRACE" record --emulate "$PT" $rate -o "$TMP/pt.out" 2> "$TMP/err"
	expect_eq "record --emulate $rate exit status" "$?" 0
	aux_bytes "$TMP/pt.out" > "$TMP/pt.got"
	for cpu in 0 3; do
		expect_eq "AUX bytes of cpu $cpu equal the capture's ($rate)" \
			"$(cmp -s <(grep "^$cpu " "$TMP/pt.want") \
				<(grep "^$cpu " "$TMP/pt.got") && echo same)" same
	done
	expect_contains "stats" "$(cat "$TMP/err")" "cpu 3: 137728 bytes captured"
	expect_contains "stats" "$(cat "$TMP/err")" "0 trace bytes dropped (of 137728 produced)"
	# The replay decodes to exactly what the capture decodes to.
	if have_pt_decoder "decode of the intel_pt replay ($rate)"; then
		decodes_as "" "$PT" "$TMP/pt.out" " ($rate)"
	else
		"$HWTRACE" decode "$TMP/pt.out" > /dev/null 2> "$TMP/derr"
		expect_contains "decode names the missing decoder" \
			"$(cat "$TMP/derr")" "built without libipt"
	fi
done


# The sideband records keep their sample ids (cpu, time) as written.
sids() {
	"$HWTRACE" dump "$1" | awk '/^[0-9]+ [0-9]+ 0x[0-9a-f]+ \[/ &&
		$5 ~ /PERF_RECORD_(MMAP2?|COMM|EXIT|SWITCH|ITRACE_START|SAMPLE)/ {
			print $1, $2, $5 }' | sort
}
for f in "$PT" "$ETM"; do
	"$HWTRACE" record --emulate "$f" -o "$TMP/sid.out" 2>/dev/null
	sids "$f" > "$TMP/sid.want"
	sids "$TMP/sid.out" > "$TMP/sid.got"
	expect_eq "sideband sample ids kept ($(basename "$f"))" \
		"$([ -s "$TMP/sid.want" ] && cmp -s "$TMP/sid.want" "$TMP/sid.got" && echo same)" same
done

# perf reads the new file: the same sideband as the original.
sideband() {
	perf script -D -i "$1" 2>/dev/null | grep -oE 'PERF_RECORD_(MMAP2?|COMM|EXIT|SWITCH_CPU_WIDE|ITRACE_START|SAMPLE)' | sort | uniq -c
}
expect_eq "perf sees the same sideband" "$(sideband "$TMP/pt.out")" "$(sideband "$PT")"
expect_eq "perf reads the file to its end" \
	"$(perf script -D -i "$TMP/pt.out" 2>&1 >/dev/null | grep -ci 'error\|invalid\|corrupt')" 0

# An 8 KiB AUX buffer and an emulated trace unit faster than the reader:
# captured + dropped == produced == the capture's bytes, for each CPU.
"$HWTRACE" record --emulate "$PT" -m 4,2 -o "$TMP/lossy.out" 2> "$TMP/err"
expect_eq "lossy replay exit status" "$?" 0
for cpu in 0 3; do
	line=$(grep -A1 "cpu $cpu:" "$TMP/err" | tr '\n' ' ')
	got=$(echo "$line" | sed -E 's/.*cpu [0-9]+: ([0-9]+) bytes captured.*/\1/')
	dropped=$(echo "$line" | sed -E 's/.* ([0-9]+) trace bytes dropped.*/\1/')
	produced=$(echo "$line" | sed -E 's/.*of ([0-9]+) produced.*/\1/')
	want=$(grep -c "^$cpu " "$TMP/pt.want")
	expect_eq "cpu $cpu produced" "$produced" "$want"
	expect_eq "cpu $cpu captured + dropped" "$((got + dropped))" "$want"
	# Only the last chunk may end off an 8-byte boundary; like perf, the
	# file pads it to 8.
	expect_eq "cpu $cpu bytes in the file" \
		"$(aux_bytes "$TMP/lossy.out" | grep -c "^$cpu ")" \
		"$((got + (8 - got % 8) % 8))"
done

# The same 8 KiB buffer with a trace unit that waits for the reader: every
# byte arrives, in order.
"$HWTRACE" record --emulate "$PT" --emulate-lossless -m 4,2 -o "$TMP/paced.out" 2> "$TMP/err"
expect_eq "lossless replay exit status" "$?" 0
expect_contains "lossless stats" "$(cat "$TMP/err")" "0 trace bytes dropped (of 137728 produced)"
aux_bytes "$TMP/paced.out" > "$TMP/paced.got"
for cpu in 0 3; do
	expect_eq "lossless AUX bytes of cpu $cpu equal the capture's" \
		"$(cmp -s <(grep "^$cpu " "$TMP/pt.want") \
			<(grep "^$cpu " "$TMP/paced.got") && echo same)" same
done

# The simpleperf CoreSight capture: one 0x180-byte buffer (README).
aux_bytes "$ETM" > "$TMP/etm.want"
expect_eq "ETM capture bytes" "$(wc -l < "$TMP/etm.want")" 384
"$HWTRACE" record --emulate "$ETM" -o "$TMP/etm.out" 2> "$TMP/err"
expect_eq "ETM replay exit status" "$?" 0
aux_bytes "$TMP/etm.out" > "$TMP/etm.got"
expect_eq "ETM AUX bytes equal" "$(cmp -s "$TMP/etm.want" "$TMP/etm.got" && echo same)" same
decodes_as "ETM " "$ETM" "$TMP/etm.out" ""

# Usage errors exit 2, --help 0, a missing capture 1 with its name.
"$HWTRACE" record > /dev/null 2>&1
expect_eq "no arguments" "$?" 2
"$HWTRACE" record --help > "$TMP/help"
expect_eq "--help" "$?" 0
expect_contains "help" "$(cat "$TMP/help")" "--emulate CAPTURE"
"$HWTRACE" record --emulate "$TMP/nonexistent.data" -o "$TMP/x" 2> "$TMP/err"
expect_eq "missing capture" "$?" 1
expect_contains "missing capture message" "$(cat "$TMP/err")" "nonexistent.data"

# Without an intel_pt PMU a real capture is refused with the reason,
# before anything runs; with one, it captures.
"$HWTRACE" record -e intel_pt//u -o "$TMP/real.data" -- true 2> "$TMP/err"
rc=$?
if [ -e /sys/bus/event_source/devices/intel_pt ]; then
	expect_eq "record with intel_pt" "$rc" 0
else
	expect_eq "record without the PMU" "$rc" 1
	expect_contains "record without the PMU says which" "$(cat "$TMP/err")" \
		"PMU intel_pt is not present"
fi

finish
