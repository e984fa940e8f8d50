# hwtrace units: one line per unit of an AUX capture, and one line with
# unit 0 (decode it whole, its file size as cost) for a capture with
# nothing to cut. perf is the oracle of what the files hold: simpleperf's
# ETMv4 capture has one AUXTRACE record (CPU 7, 0x180 bytes at offset 0),
# its LBR capture none.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"

ETM="$HWT_TESTDATA/perf-data/simpleperf-etm/perf_etm.data"
LBR="$HWT_TESTDATA/perf-data/simpleperf-lbr/perf_lbr.data"

aux_records() {
	perf report -D -i "$1" 2>/dev/null | grep -c 'PERF_RECORD_AUXTRACE size:'
}
command -v perf >/dev/null ||
	{ fail "perf is not installed (Debian: linux-perf)"; finish; exit 1; }
expect_eq "perf: AUXTRACE records of the ETM capture" "$(aux_records "$ETM")" 1
expect_eq "perf: AUXTRACE size and CPU" \
	"$(perf report -D -i "$ETM" 2>/dev/null |
	   sed -n 's/.*PERF_RECORD_AUXTRACE size: \(0x[0-9a-f]*\)  offset: \(0x[0-9a-f]*\|0\) .* cpu: \([0-9]*\)$/\1 \2 \3/p')" \
	"0x180 0 7"
expect_eq "perf: AUXTRACE records of the LBR capture" "$(aux_records "$LBR")" 0

"$HWTRACE" units "$ETM" >"$TMP/etm.jsonl"
expect_eq "units of the ETM capture: exit" "$?" 0
expect_eq "units of the ETM capture" "$(cat "$TMP/etm.jsonl")" \
	"{\"file\":\"$ETM\",\"unit\":1,\"units\":1,\"queue\":0,\"cpu\":7,\"tid\":0,\"offset\":0,\"size\":384,\"time_from\":1118687117325,\"time_until\":1118693749982,\"cost\":384}"

"$HWTRACE" units "$LBR" >"$TMP/lbr.jsonl"
expect_eq "units of the LBR capture: exit" "$?" 0
expect_eq "units of the LBR capture: one line, unit 0, decoded whole" \
	"$(cat "$TMP/lbr.jsonl")" \
	"{\"file\":\"$LBR\",\"unit\":0,\"units\":0,\"cost\":$(stat -c %s "$LBR")}"

# Both in one call: one line each, in argv's order.
"$HWTRACE" units "$LBR" "$ETM" >"$TMP/both.jsonl"
expect_eq "units of both: their lines in order" "$(cat "$TMP/both.jsonl")" \
	"$(cat "$TMP/lbr.jsonl" "$TMP/etm.jsonl")"
finish
