# The real ETM capture replayed through the kernel emulator and hwtrace's
# normal capture path (hwtrace record --emulate) gives a perf.data that
# both hwtrace and Linux perf 6.1 decode to the capture's branches: 944
# instructions and 207 branches for hwtrace (simpleperf's golden ranges and
# branch counts), and for `perf script --itrace=b` the 206 branches plus 2
# trace starts it reports for the original file
# (perf_etm.data.perf-script-itrace-b.txt).
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"
mkdir -p "$TMP/symfs/data/local/tmp"
ln -s "$ETM/etm_test_loop" "$TMP/symfs/data/local/tmp/etm_test_loop"

"$HWTRACE" record --emulate "$ETM/perf_etm.data" -o "$TMP/emu.data" \
	>"$TMP/rec.out" 2>"$TMP/rec.err"
expect_eq "record --emulate status" "$?" 0
expect_contains "record --emulate bytes" "$(cat "$TMP/rec.err" "$TMP/rec.out")" "384 bytes captured"

"$HWTRACE" decode "$TMP/emu.data" --symfs "$TMP/symfs" --format jsonl \
	>"$TMP/ours.jsonl" 2>"$TMP/ours.err"
expect_eq "hwtrace decode status" "$?" 0
insns=$(grep '"type":"range"' "$TMP/ours.jsonl" | sed 's/.*"insns":\([0-9]*\).*/\1/' |
	awk '{ s += $1 } END { print s }')
expect_eq "hwtrace instructions" "$insns" 944
expect_eq "hwtrace branches" "$(grep -c '"type":"branch"' "$TMP/ours.jsonl")" 207

command -v perf >/dev/null || fail "perf (linux-perf) is not installed: the perf side cannot be checked"
perf script -i "$TMP/emu.data" --itrace=b -F flags,ip,addr --symfs "$TMP/symfs" \
	>"$TMP/perf.txt" 2>"$TMP/perf.err"
expect_eq "perf script status" "$?" 0
expect_eq "perf script lines" "$(grep -c '=>' "$TMP/perf.txt")" 208
expect_eq "perf script trace starts" "$(grep -c 'tr strt' "$TMP/perf.txt")" 2

# Branch by branch: perf's "FROM => TO" (trace starts left out) against
# hwtrace's branches; hwtrace adds the one at the end of the buffer whose
# target the trace never reached (0x10b0 -> 0), which perf drops.
grep '=>' "$TMP/perf.txt" | grep -v 'tr strt' |
	sed 's/.* \([0-9a-f]*\) =>  *\([0-9a-f]*\)$/\1 \2/' >"$TMP/perf.br"
grep '"type":"branch"' "$TMP/ours.jsonl" |
	sed 's/.*"from":"0x\([0-9a-f]*\)","to":"0x\([0-9a-f]*\)".*/\1 \2/' >"$TMP/ours.br"
expect_eq "perf branches equal hwtrace's" "$(head -n 206 "$TMP/ours.br" | cmp - "$TMP/perf.br" && echo same)" same
expect_eq "hwtrace's last branch" "$(tail -n 1 "$TMP/ours.br")" "582b2b10b0 0"
if [ "$failures" -ne 0 ]; then
	echo "perf script said:" >&2
	head -5 "$TMP/perf.err" >&2
fi

finish
