# hwtrace export --to autofdo on the real ETM capture
# (perf-data/simpleperf-etm/perf_etm.data, the binary beside it found
# through --symfs) equals simpleperf's own AutoFDO text of it
# (perf_inject.data): the same 10 ranges with the same counts, and the
# same 9 branches with the same counts but one: the return at 0x1088,
# whose target OpenCSD reports in a later address packet (0x10a4, as
# `perf script` shows it) and simpleperf writes as 0. The ranges imply
# the 944 instructions the decode counts. Ranges cut by a not-taken
# branch (105c-106c, then 1070-1070) stay two ranges, as simpleperf has
# them; BOLT's pre-aggregated form joins them into one trace.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
src="$HWT_TESTDATA/perf-data/simpleperf-etm"
mkdir -p "$TMP/symfs/data/local/tmp"
cp "$src/etm_test_loop" "$TMP/symfs/data/local/tmp/"
cp "$src/perf_etm.data" "$TMP/"
"$HWTRACE" export "$TMP/perf_etm.data" --symfs "$TMP/symfs" --to autofdo \
	-o "$TMP/etm" 2>"$TMP/export.err" || fail "export: $(cat "$TMP/export.err")"
txt="$TMP/etm.etm_test_loop.afdo.txt"
golden="$src/perf_inject.data"
# The three sections (the comment and blank lines after them are not
# read).
sections() { sed '/^\/\//d; /^$/d' "$1"; }
expect_eq "ranges: simpleperf's" "$(sections "$txt" | sed -n '1,/^0$/p')" \
	"$(sections "$golden" | sed -n '1,/^0$/p')"
expect_eq "branches: simpleperf's but the return whose target came later" \
	"$(sections "$txt" | sed -n '/^0$/,$p' | sed 's/^1088->10a4:1$/1088->0:1/')" \
	"$(sections "$golden" | sed -n '/^0$/,$p')"
expect_eq "the one different branch: 1088->10a4 (perf script's target)" \
	"$(diff <(sections "$txt") <(sections "$golden") | grep '^[<>]' | tr '\n' ' ')" \
	"< 1088->10a4:1 > 1088->0:1 "
expect_contains "perf script: that return goes to 0x...10a4" \
	"$(grep ' 582b2b1088 ' "$src/perf_etm.data.perf-script-itrace-b.txt")" "582b2b10a4"
# Instructions the ranges hold (A64: 4 bytes each) = the decode's count.
"$HWTRACE" decode "$TMP/perf_etm.data" --symfs "$TMP/symfs" >/dev/null 2>"$TMP/decode.err"
insns=$(sed -n 's/.* ranges (\([0-9]*\) instructions).*/\1/p' "$TMP/decode.err")
expect_eq "ranges hold the decode's 944 instructions" "$(awk "$AWK_HEX"'
	/^[0-9a-f]+-[0-9a-f]+:/ { split($0, p, /[-:]/); t += p[3] * ((hex(p[2]) - hex(p[1])) / 4 + 1) }
	END { print t }' "$txt")" "$insns"
expect_eq "that is 944" "$insns" "944"
expect_contains "stderr: ranges and branches counted" "$(cat "$TMP/export.err")" \
	"208 ranges (1 ended without a taken branch) and 207 taken branches; 10 distinct ranges and 9 distinct branches in 1 files"
expect_contains "the build id from the capture" "$(cat "$txt")" \
	"// build_id: 0x0c9a20bf9c009d0e4e8bbf9fad0300ae"

# BOLT's pre-aggregated form of the same capture joins the range cut by
# the not-taken branch with the one it ran on into (a fall-through trace
# ends at a taken branch): F 105c 1070 once, the loop's 99 others end at
# 106c, and no trace 1070-1070; its branches are the AutoFDO file's.
"$HWTRACE" export "$TMP/perf_etm.data" --symfs "$TMP/symfs" --to bolt-preagg \
	-o "$TMP/etm" 2>/dev/null || fail "export --to bolt-preagg"
pa="$TMP/etm.etm_test_loop.preagg"
expect_eq "preagg: the loop's traces" "$(grep '^F 105c ' "$pa" | tr '\n' ' ')" \
	"F 105c 106c 99 F 105c 1070 1 "
expect_eq "preagg: no trace starts at the not-taken branch's successor" \
	"$(grep -c '^F 1070 ' "$pa")" "0"
expect_eq "preagg: 10 traces, 9 branches" "$(grep -c '^F' "$pa") $(grep -c '^B' "$pa")" "10 9"
expect_eq "preagg: the branches of the AutoFDO file" \
	"$(awk '$1 == "B" { print $2 "->" $3 ":" $4 }' "$pa")" \
	"$(sections "$txt" | grep -- '->')"
finish
