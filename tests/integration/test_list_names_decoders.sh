#!/bin/bash
# `hwtrace list` and `hwtrace info` name the decoders this build has, and
# the line is true: cs_etm and intel_pt decode a real capture when named,
# and intel_pt, when said missing (no libipt, as on arm64), refuses with
# the reason. Expected lines per build: HWT_HAVE_LIBIPT.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
E="$HWT_TESTDATA/perf-data/simpleperf-etm/perf_etm.data"

if [ "${HWT_HAVE_LIBIPT:-1}" = 1 ]; then
	want="Decoders in this build: intel_pt, intel_bts, cs_etm, sw_branch, riscv_ntrace"
	want_info="decoders:    intel_pt, intel_bts, cs_etm, sw_branch, riscv_ntrace"
else
	want="Decoders in this build: intel_bts, cs_etm, sw_branch, riscv_ntrace"
	want_info="decoders:    intel_bts, cs_etm, sw_branch, riscv_ntrace"
fi
missing="  intel_pt: no decoder: hwtrace was built without libipt (rebuild with libipt-dev installed and HWT_WITH_LIBIPT=ON)"

for board in juno intel-client; do
	out=$("$HWTRACE" list --sysfs "$FIX/$board"); rc=$?
	expect_eq "$board list exit" "$rc" 0
	expect_eq "$board decoders line" "$(grep '^Decoders in this build:' <<<"$out")" "$want"
	if [ "${HWT_HAVE_LIBIPT:-1}" = 1 ]; then
		expect_eq "$board: no decoder missing" "$(grep -c 'no decoder:' <<<"$out")" 0
	else
		expect_eq "$board: intel_pt missing" "$(grep 'no decoder:' <<<"$out")" "$missing"
	fi
done

out=$("$HWTRACE" info "$E"); rc=$?
expect_eq "info exit" "$rc" 0
expect_eq "info decoders line" "$(grep '^decoders:' <<<"$out")" "$want_info"

# The line against what decode does.
T1="$HWT_TESTDATA/riscv-ntrace/t1"
"$HWTRACE" decode --raw "riscv_ntrace,xlen=32,callstack=8:$T1/test-NEX.bin" \
	--elf "$T1/test.elf" >/dev/null 2>"$TMP/rv.err"
expect_eq "riscv_ntrace decodes" "$?" 0
"$HWTRACE" decode "$E" > /dev/null 2> "$TMP/etm.err"
expect_eq "cs_etm decodes" "$?" 0
"$HWTRACE" decode "$Q" > /dev/null 2> "$TMP/pt.err"; rc=$?
if [ "${HWT_HAVE_LIBIPT:-1}" = 1 ]; then
	expect_eq "intel_pt decodes" "$rc" 0
else
	expect_eq "intel_pt decode refused" "$rc" 1
	expect_contains "intel_pt refusal names the reason" "$(cat "$TMP/pt.err")" \
		"hwtrace was built without libipt"
fi
finish
