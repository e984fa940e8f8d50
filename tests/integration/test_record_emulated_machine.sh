# hwtrace record --sysfs DIR: the whole capture path (PMU scan, profile ->
# event plan, the backend's AUXTRACE_INFO, session, perf.data writer) on
# the kernel emulator, over the fixture machines. A raw Intel PT stream
# written by the emulated trace unit comes back out of `hwtrace decode
# --packets` as libipt's ptdump lists it.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs"
PTT="$HWT_TESTDATA/ptt/expected"
DAP="$PTT/dump-all-packets.pt"   # 314 bytes, every PT packet kind

file_bytes() { od -An -tx1 -v "$1" | tr -s ' ' '\n' | grep -v '^$'; }

# One CPU: the packets equal libipt's ptdump of the stream (spacing
# aside). Offsets from 314 on are the 8-byte padding of the last record.
"$HWTRACE" record --sysfs "$FIX/intel-client" --emulate-trace "$DAP" \
	-e intel_pt// -C 0 -o "$TMP/pt.data" 2> "$TMP/err"
expect_eq "intel_pt record status" "$?" 0
expect_contains "stats" "$(cat "$TMP/err")" "cpu 0: 314 bytes captured"
expect_contains "AUXTRACE_INFO" "$("$HWTRACE" dump "$TMP/pt.data")" \
	"PERF_RECORD_AUXTRACE_INFO type: 1"
if have_pt_decoder "intel_pt packets against ptdump"; then
	"$HWTRACE" decode --packets "$TMP/pt.data" > "$TMP/pk" 2>&1
	expect_eq "decode --packets status" "$?" 0
	grep -v '^#' "$TMP/pk" | awk '$1 < "000000000000013a"' | tr -s ' ' > "$TMP/got"
	grep -v '^#' "$PTT/dump-all-packets-ptdump.exp" | tr -s ' ' > "$TMP/want"
	expect_eq "packets equal ptdump's ($(wc -l < "$TMP/want") lines)" \
		"$(cmp -s "$TMP/want" "$TMP/got" && echo same)" same
fi
perf script -D -i "$TMP/pt.data" > /dev/null 2>&1
expect_eq "perf reads it" "$?" 0

# Every online CPU of the fixture (0-3), each with the stream.
"$HWTRACE" record --sysfs "$FIX/intel-client" --emulate-trace "$DAP" \
	-e intel_pt// -o "$TMP/all.data" 2> "$TMP/err"
expect_eq "all CPUs status" "$?" 0
aux_bytes "$TMP/all.data" > "$TMP/all"
file_bytes "$DAP" > "$TMP/dap"
for cpu in 0 1 2 3; do
	expect_contains "cpu $cpu stats" "$(cat "$TMP/err")" "cpu $cpu: 314 bytes captured"
	expect_eq "cpu $cpu bytes" \
		"$(cmp -s "$TMP/dap" <(grep "^$cpu " "$TMP/all" | head -n 314 | cut -d' ' -f2) && echo same)" same
done

# BTS traces per thread.
"$HWTRACE" record --sysfs "$FIX/intel-client" --emulate-trace "$DAP" \
	-e intel_bts// --per-thread -o "$TMP/bts.data" 2> "$TMP/err"
expect_eq "intel_bts record status" "$?" 0
expect_contains "bts stats" "$(cat "$TMP/err")" "thread: 314 bytes captured"
expect_contains "bts AUXTRACE_INFO" "$("$HWTRACE" dump "$TMP/bts.data")" \
	"PERF_RECORD_AUXTRACE_INFO type: 2"

# CoreSight boards: the cs_etm backend's AUXTRACE_INFO from the fixture's
# trace units, read back by perf.
for board in juno armv9-ete-trbe; do
	"$HWTRACE" record --sysfs "$FIX/$board" -e cs_etm// -o "$TMP/cs.data" 2> "$TMP/err"
	expect_eq "$board record status" "$?" 0
	expect_contains "$board AUXTRACE_INFO" "$("$HWTRACE" dump "$TMP/cs.data")" \
		"PERF_RECORD_AUXTRACE_INFO type: 3"
	perf script -D -i "$TMP/cs.data" > /dev/null 2>&1
	expect_eq "perf reads the $board file" "$?" 0
done

# Snapshot mode: 1000 copies of the stream (314,000 bytes) through a
# 64 KiB buffer; -Se keeps the newest 65,536 bytes.
for _ in $(seq 1000); do cat "$DAP"; done > "$TMP/big.pt"
"$HWTRACE" record --sysfs "$FIX/intel-client" --emulate-trace "$TMP/big.pt" \
	-e intel_pt// -C 1 -Se -m 4,16 -o "$TMP/snap.data" 2> "$TMP/err"
expect_eq "snapshot status" "$?" 0
expect_contains "snapshot stats" "$(cat "$TMP/err")" \
	"cpu 1: 65536 bytes captured in 1 chunks"
expect_contains "snapshot wrapped" "$(cat "$TMP/err")" "1 snapshots (1 wrapped)"
expect_eq "snapshot is the newest 64 KiB" \
	"$(cmp -s <(file_bytes "$TMP/big.pt" | tail -n 65536) \
		<(aux_bytes "$TMP/snap.data" | cut -d' ' -f2) && echo same)" same

# A machine without trace PMUs, and misuse.
"$HWTRACE" record --sysfs "$FIX/no-trace" -e intel_pt// -o "$TMP/x" 2> "$TMP/err"
expect_eq "no-trace status" "$?" 1
expect_contains "no-trace message" "$(cat "$TMP/err")" "PMU intel_pt is not present"
"$HWTRACE" record --sysfs "$FIX/intel-client" -e intel_pt// -o "$TMP/x" -- true 2> /dev/null
expect_eq "--sysfs with a command" "$?" 2
"$HWTRACE" record --emulate-trace "$DAP" -e intel_pt// -a -o "$TMP/x" 2> /dev/null
expect_eq "--emulate-trace without --sysfs" "$?" 2

finish
