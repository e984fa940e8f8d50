# hwtrace decode on CoreSight input: an OpenCSD snapshot directory
# (--snapshot), its packet layer (--packets), the real simpleperf ETM
# capture with --symfs, and clean failures on broken snapshots. Expected
# values come from OpenCSD's own listing (expected-1.3.3/a57_single_step)
# and simpleperf's golden perf_inject.data.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

SS="$HWT_TESTDATA/opencsd"
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"

# a57_single_step: trc_pkt_lister shows one A64 instruction at 0xfffeb448,
# a debug-halt exception (number 1) with return address 0xfffeb44c, EL2,
# and timestamp 0x2f150c0.
out=$("$HWTRACE" decode --snapshot "$SS/a57_single_step" --format jsonl 2>"$TMP/err")
expect_eq "a57 exit status" "$?" 0
expect_contains "a57 range" "$out" '"start":"0xfffeb448","end":"0xfffeb44c","insns":1,"isa":"a64"'
expect_contains "a57 exception" "$out" '"from":"0xfffeb44c"'
expect_contains "a57 exception number" "$out" '"kind":"exception","exception":1'
expect_contains "a57 context" "$out" '"el":2'
expect_contains "a57 timestamp" "$out" '"time":49369280'
expect_eq "a57 element count" "$(printf '%s\n' "$out" | grep -vc '"type":"header"')" 6

# The packet layer: the listing's first packet is an I_ASYNC at byte 0 on
# trace ID 0x10, and the exception packet sits at byte 37.
pk=$("$HWTRACE" decode --snapshot "$SS/a57_single_step" --packets 2>&1)
expect_eq "packets first line" "$(printf '%s\n' "$pk" | head -1 | cut -f1-3)" \
	"$(printf '0\tID:10\tI_ASYNC : Alignment Synchronisation.')"
expect_contains "packets exception" "$pk" "$(printf '37\tID:10\tI_EXCEPT')"

# The simpleperf capture: etm_test_loop under a --symfs tree. The golden
# ranges imply 944 instructions; its branch counts add up to 207.
mkdir -p "$TMP/symfs/data/local/tmp"
ln -s "$ETM/etm_test_loop" "$TMP/symfs/data/local/tmp/etm_test_loop"
"$HWTRACE" decode "$ETM/perf_etm.data" --symfs "$TMP/symfs" --format jsonl \
	>"$TMP/etm.jsonl" 2>"$TMP/etm.err"
expect_eq "etm exit status" "$?" 0
insns=$(grep '"type":"range"' "$TMP/etm.jsonl" | sed 's/.*"insns":\([0-9]*\).*/\1/' |
	awk '{ s += $1 } END { print s }')
expect_eq "etm instructions" "$insns" 944
expect_eq "etm branches" "$(grep -c '"type":"branch"' "$TMP/etm.jsonl")" 207
expect_eq "etm 1080->105c" "$(grep -c '"from":"0x582b2b1080","to":"0x582b2b105c","kind":"jump"' "$TMP/etm.jsonl")" 100
expect_eq "etm 106c->1074" "$(grep -c '"from":"0x582b2b106c","to":"0x582b2b1074","kind":"cond"' "$TMP/etm.jsonl")" 100
# The trace's own context packets name the thread (perf traced CONTEXTIDR,
# which Linux sets to the tid); its process comes from the COMM records.
expect_eq "etm tid from CONTEXTIDR" "$(grep -c '"type":"range","cpu":7,"pid":17235,"tid":17235' "$TMP/etm.jsonl")" 208

# The same trace as a raw formatted stream (the AUXTRACE payload at file
# offset 0x26a8 + 0x30, 0x180 bytes, per perf report -D) with the binary
# mapped by hand: etm_test_loop's offset 0 sits at 0x582b2b0000.
dd if="$ETM/perf_etm.data" of="$TMP/etm.bin" bs=1 skip=$((0x26a8 + 0x30)) \
	count=$((0x180)) 2>/dev/null
"$HWTRACE" decode --raw "cs_etm,etmv4,traceid=0x1e,configr=0x40:$TMP/etm.bin" \
	--map "$ETM/etm_test_loop@0x582b2b0000" --format jsonl >"$TMP/raw.jsonl" 2>"$TMP/raw.err"
expect_eq "raw exit status" "$?" 0
insns=$(grep '"type":"range"' "$TMP/raw.jsonl" | sed 's/.*"insns":\([0-9]*\).*/\1/' |
	awk '{ s += $1 } END { print s }')
expect_eq "raw instructions" "$insns" 944
expect_eq "raw branches" "$(grep -c '"type":"branch"' "$TMP/raw.jsonl")" 207
"$HWTRACE" decode --raw "cs_etm,etmv4,wrong=1:$TMP/etm.bin" >/dev/null 2>"$TMP/raw2.err"
expect_eq "raw bad option status (a usage error)" "$?" 2
expect_contains "raw bad option message" "$(cat "$TMP/raw2.err")" '"wrong"'

# Without the binary, the decode still ends cleanly and says what is missing.
mkdir -p "$TMP/nowhere" # an empty tree: a missing one is refused
"$HWTRACE" decode "$ETM/perf_etm.data" --symfs "$TMP/nowhere" --format jsonl \
	>"$TMP/noimg.jsonl" 2>"$TMP/noimg.err"
expect_eq "no image exit status" "$?" 0
expect_contains "no image gap" "$(cat "$TMP/noimg.jsonl")" '"reason":"no_image"'
expect_eq "no image ranges" "$(grep -c '"type":"range"' "$TMP/noimg.jsonl")" 0

# Broken snapshots fail with a message naming the file and key.
"$HWTRACE" decode --snapshot "$TMP/none" >/dev/null 2>"$TMP/e1"
expect_eq "missing dir status" "$?" 1
expect_contains "missing dir message" "$(cat "$TMP/e1")" "snapshot.ini"

mkdir -p "$TMP/bad"
printf '[snapshot]\nversion=1.0\n' >"$TMP/bad/snapshot.ini"
"$HWTRACE" decode --snapshot "$TMP/bad" >/dev/null 2>"$TMP/e2"
expect_eq "no device_list status" "$?" 1
expect_contains "no device_list message" "$(cat "$TMP/e2")" "[device_list]"

cp -r "$SS/a57_single_step" "$TMP/unknown_core"
sed -i 's/^type=Cortex-A57/type=Cortex-Z99/' "$TMP/unknown_core/device1.ini"
"$HWTRACE" decode --snapshot "$TMP/unknown_core" >/dev/null 2>"$TMP/e3"
expect_eq "unknown core status" "$?" 1
expect_contains "unknown core message" "$(cat "$TMP/e3")" "type=Cortex-Z99"

cp -r "$SS/a57_single_step" "$TMP/short_trace"
head -c 37 "$SS/a57_single_step/CSTMC_TRACE_FIFO.bin" >"$TMP/short_trace/CSTMC_TRACE_FIFO.bin"
"$HWTRACE" decode --snapshot "$TMP/short_trace" --format jsonl >/dev/null 2>"$TMP/e4"
expect_eq "truncated trace status" "$?" 0

finish
