# report's time columns carry their unit and the header says what the
# time is for the capture's trace: Intel PT's (the quipper capture: perf
# time from TSC packets), none for a capture without time (simpleperf's
# ETM capture: no time columns, no such line). sw_branch's stepping time
# is checked on every capture of test_stacks_match_program.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"
"$HWTRACE" report "$ETM/perf_etm.data" >"$TMP/etm.txt" 2>/dev/null || fail "report etm"
expect_eq "ETM without time: no time line" "$(grep -c '^# time:' "$TMP/etm.txt")" "0"
expect_eq "ETM without time: no time columns" "$(grep -c ' ns ' "$TMP/etm.txt")" "0"
if have_pt_decoder "report on the quipper Intel PT capture"; then
	"$HWTRACE" report "$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14" \
		>"$TMP/pt.txt" 2>"$TMP/pt.err" || fail "report pt: $(cat "$TMP/pt.err")"
	expect_eq "PT: what the time is" "$(sed -n 2p "$TMP/pt.txt")" \
		"# time: ns of perf time, from the trace's TSC packets (converted through the capture's TIME_CONV)"
	expect_contains "PT: columns in ns" "$(sed -n 3p "$TMP/pt.txt")" \
		"     self ns     total ns       avg ns       max ns  dso              function"
fi
finish
