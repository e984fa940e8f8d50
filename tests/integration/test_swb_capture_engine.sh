# hwtrace record -e sw_branch goes through the capture engine: the stepper
# feeds an emulated intel_bts PMU whose rings a capture session reads, so
# the record prints the session's per-thread counters, every
# PERF_RECORD_AUX the emulated driver wrote is matched by AUXTRACE bytes,
# and a small AUX ring (-m 4,2: 8 KiB, written 4080 bytes at a time) wraps
# many times without losing a byte, the paced trace unit waiting for the
# reader.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/known_path"
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "FAIL: perf is not installed (Debian: linux-perf)" >&2; exit 1; }

"$HWTRACE" record -e sw_branch -m 4,2 --start main --stop exit -q \
	-o "$TMP/kp.data" -- "$PROG" 1000 2>"$TMP/err"
expect_eq "record exit" "$?" 0
err=$(cat "$TMP/err")
expect_contains "per-thread counters" "$err" "hwtrace record: per thread:"
expect_eq "one ring" "$(grep -c '^  thread: ' "$TMP/err")" 1
captured=$(sed -n 's/^  thread: \([0-9]*\) bytes captured in \([0-9]*\) chunks.*/\1/p' "$TMP/err")
chunks=$(sed -n 's/^  thread: \([0-9]*\) bytes captured in \([0-9]*\) chunks.*/\2/p' "$TMP/err")
# Nothing was lost, so the event was never disabled and never enabled
# again: the engine re-enables on a TRUNCATED record, or on a ring with no
# room left whose event the (emulated) kernel reports disabled, not on a
# ring merely found nearly full (the old rule, three quarters full, counted
# about 10 re-enables here).
expect_contains "nothing lost, no re-enables" "$err" \
	"lost: 0 truncated (buffer full, 0 re-enabled)"
expect_contains "no LOST records" "$err" "0 collisions, 0 partial, 0 records in 0 LOST events, 0 trace bytes dropped (of $captured produced)"
case "$err" in *unmatched*) fail "AUX records unmatched: $err" ;; esac
branches=$(sed -n 's/.*sw_branch: [0-9]* instructions, \([0-9]*\) branches.*/\1/p' "$TMP/err")
insns=$(sed -n 's/.*sw_branch: \([0-9]*\) instructions.*/\1/p' "$TMP/err")
# The ring wrapped: more than 8 KiB went through it, read in several chunks.
[ "${captured:-0}" -gt $((4 * 8192)) ] || fail "captured $captured bytes, want > 32768"
[ "${chunks:-0}" -gt 8 ] || fail "captured in $chunks chunks, want > 8"

# Every AUX write reported in the data ring is matched by AUXTRACE bytes:
# the reports, the payloads and the session's count agree, each write is
# whole 24-byte records (a padding record last), and the offsets run on
# without a hole.
"$HWTRACE" dump "$TMP/kp.data" >"$TMP/dump" 2>&1
expect_eq "dump exit" "$?" 0
# "OFFSET SIZE" in decimal.
sed -n 's/.*PERF_RECORD_AUX offset: \(0x[0-9a-f]*\|0\) size: \(0x[0-9a-f]*\|0\) .*/\1 \2/p' "$TMP/dump" |
	while read -r off size; do echo $((off)) $((size)); done >"$TMP/aux"
sed -n 's/.*PERF_RECORD_AUXTRACE size: \(0x[0-9a-f]*\|0\)  offset: \(0x[0-9a-f]*\|0\) .*/\2 \1/p' "$TMP/dump" |
	while read -r off size; do echo $((off)) $((size)); done >"$TMP/auxtrace"
expect_eq "AUX bytes reported" "$(awk '{ n += $2 } END { print n }' "$TMP/aux")" "$captured"
expect_eq "AUXTRACE bytes" "$(awk '{ n += $2 } END { print n }' "$TMP/auxtrace")" "$captured"
expect_eq "AUXTRACE records" "$(wc -l <"$TMP/auxtrace")" "$chunks"
expect_eq "AUX writes of whole records" "$(awk '$2 % 24' "$TMP/aux" | wc -l)" 0
expect_eq "AUX reports contiguous" "$(awk 'NR > 1 && $1 != next_off { bad++ } { next_off = $1 + $2 } END { print bad + 0 }' "$TMP/aux")" 0
expect_eq "AUXTRACE contiguous" "$(awk 'NR > 1 && $1 != next_off { bad++ } { next_off = $1 + $2 } END { print bad + 0 }' "$TMP/auxtrace")" 0
expect_eq "the emulated driver's ITRACE_START" "$(grep -c 'PERF_RECORD_ITRACE_START' "$TMP/dump")" 1
expect_eq "no LOST" "$(grep -c 'PERF_RECORD_LOST' "$TMP/dump")" 0

# Nothing was lost on the way: the decode has every instruction and branch
# the stepper counted, and perf reads as many branches.
"$HWTRACE" decode --format jsonl "$TMP/kp.data" >"$TMP/kp.jsonl" 2>/dev/null
expect_eq "decoded instructions" \
	"$(sed -n 's/.*"insns":\([0-9]*\).*/\1/p' "$TMP/kp.jsonl" | awk '{ n += $1 } END { print n }')" "$insns"
expect_eq "decoded branches" "$(grep -c '"type":"branch"' "$TMP/kp.jsonl")" "$branches"
expect_eq "gaps" "$(grep -c '"type":"gap"' "$TMP/kp.jsonl")" 0
expect_eq "perf branches" "$("$PERF" script -i "$TMP/kp.data" --itrace=b -F ip,addr 2>/dev/null | grep -c .)" \
	"$(grep -c '"type":"branch"\|"type":"trace_on"\|"type":"trace_off"' "$TMP/kp.jsonl")"

# A ring too small for one write: the trace unit writes half the ring.
"$HWTRACE" record -e sw_branch -m 4,1 --start kp_run --stop kp_done -q \
	-o "$TMP/one.data" -- "$PROG" 5 2>"$TMP/err"
expect_eq "one-page ring exit" "$?" 0
expect_contains "one-page ring" "$(cat "$TMP/err")" "sw_branch: 41 instructions, 18 branches"
finish
