#!/bin/bash
# hwtrace list on each sysfs fixture: the PMUs, caps, sinks, trace units and
# sink path, or, with none, why and what still works. Values: see
# tests/fixtures/sysfs/README.md.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs"

out=$("$HWTRACE" list --sysfs "$FIX/intel-client"); rc=$?
expect_eq "intel list exit" "$rc" 0
expect_contains "intel_pt line" "$out" "intel_pt: type 6, Intel Processor Trace, supported"
expect_contains "intel_bts line" "$out" "intel_bts: type 7,"
expect_contains "intel_bts per thread" "$out" "records per thread only"
expect_contains "psb_period format" "$out" "psb_period=config:24-27"
expect_contains "notnt format" "$out" "notnt=config:55"
expect_contains "psb_periods cap" "$out" "psb_periods=3f"
expect_contains "mtc_periods cap" "$out" "mtc_periods=249"
expect_contains "address filters" "$out" "address filters: 2"

out=$("$HWTRACE" list --sysfs "$FIX/juno"); rc=$?
expect_eq "juno list exit" "$rc" 0
expect_contains "cs_etm line" "$out" "cs_etm: type 8,"
expect_contains "sinks" "$out" "sinks: tmc_etf0 (id 0x97979549), tmc_etr0 (id 0xa6509eae), tpiu0 (id 0x17c22d63)"
expect_contains "cpu0 unit" "$out" "cpu0   ETMv4  trcauthstatus=0xcc trcidr0=0x8000ca1 trcidr1=0x4200f410 trcidr2=0x20001088"
expect_contains "cpu5 unit" "$out" "cpu5   ETMv4"
expect_eq "six units" "$(grep -c 'ETMv4' <<<"$out")" 6
expect_contains "sink path" "$out" "sink path: ETR tmc_etr0 (CPU 0-5 have no TRBE)"

out=$("$HWTRACE" list --sysfs "$FIX/armv9-ete-trbe"); rc=$?
expect_eq "armv9 list exit" "$rc" 0
expect_contains "ete unit" "$out" "cpu1   ETE    trcdevarch=0x47705a13 trcidr0=0x2801cea1"
expect_contains "trbe mark" "$out" "trcidr8=0  TRBE"
expect_contains "cc_threshold" "$out" "cc_threshold=config3:0-11"
expect_contains "trbe path" "$out" "sink path: TRBE (every CPU has one"

# Branch records: Skylake's LBR, AMD BRS, Arm BRBE, AMD LBRv2, none.
expect_contains "intel-lbr: branch records" "$("$HWTRACE" list --sysfs "$FIX/intel-lbr")" \
	"Branch records (perf record -b, -j): LBR on cpu, 32 records a sample"
expect_contains "intel-lbr-counters: branch records and counters" \
	"$("$HWTRACE" list --sysfs "$FIX/intel-lbr-counters")" \
	"Branch records (perf record -b, -j): LBR on cpu, 32 records a sample, 4 branch counters of 2 bits (-j counter);"
expect_contains "amd-brs: branch records" "$("$HWTRACE" list --sysfs "$FIX/amd-brs")" \
	"Branch records (perf record -b, -j): AMD BRS on cpu, 16 records a sample"
expect_contains "arm-brbe: branch records" "$("$HWTRACE" list --sysfs "$FIX/arm-brbe")" \
	"Branch records (perf record -b, -j): Arm BRBE on armv8_pmuv3_0, 64 records a sample"
expect_contains "amd-lbrv2: branch records" "$("$HWTRACE" list --sysfs "$FIX/amd-lbrv2")" \
	"Branch records (perf record -b, -j): LBR on cpu, 16 records a sample"
expect_contains "intel-client: no branch records in the fixture" \
	"$("$HWTRACE" list --sysfs "$FIX/intel-client")" \
	"Branch records (perf record -b): none (the cpu PMU has no caps/branches or events/branch-brs)"

out=$("$HWTRACE" list --sysfs "$FIX/no-trace"); rc=$?
vendor=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -1)
expect_eq "no-trace list exit" "$rc" 0
expect_contains "none" "$out" "No trace PMU on this machine."
if [ "$vendor" = GenuineIntel ]; then
	expect_contains "intel why" "$out" "although this is an Intel CPU"
else
	expect_contains "vendor why" "$out" "no intel_pt or intel_bts PMU: this CPU's vendor is ${vendor:-unknown}; Intel PT and BTS exist only on Intel CPUs"
fi
expect_contains "coresight why" "$out" "no cs_etm PMU and no /sys/bus/coresight/devices"
expect_contains "pmus present" "$out" "PMUs present (none of them traces): breakpoint, cpu, msr, software, tracepoint, uprobe"
expect_contains "what works" "$out" "hwtrace decode / info / dump"
expect_contains "emulator" "$out" "hwtrace record --emulate"

out=$("$HWTRACE" list --help); rc=$?
expect_eq "help exit" "$rc" 0
expect_contains "help" "$out" "usage: hwtrace list [--sysfs DIR]"
"$HWTRACE" list --bogus >/dev/null 2>&1; rc=$?
expect_eq "usage error exit" "$rc" 2
"$HWTRACE" list --sysfs >/dev/null 2>&1; rc=$?
expect_eq "missing dir exit" "$rc" 2

# A malformed type file is a clean runtime error naming the file.
mkdir -p "$TMP/bad/bus/event_source/devices/intel_pt"
echo "six" > "$TMP/bad/bus/event_source/devices/intel_pt/type"
err=$("$HWTRACE" list --sysfs "$TMP/bad" 2>&1 >/dev/null); rc=$?
expect_eq "bad type exit" "$rc" 1
expect_eq "bad type message" "$err" 'hwtrace: sysfs/bus/event_source/devices/intel_pt/type: expected a number, found "six"'
# A folder that is not a sysfs tree is an error, not an empty machine.
err=$("$HWTRACE" list --sysfs "$TMP/empty" 2>&1 >/dev/null); rc=$?
expect_eq "not sysfs exit" "$rc" 1
expect_eq "not sysfs message" "$err" "hwtrace: $TMP/empty/bus/event_source/devices is missing or empty: is $TMP/empty a sysfs tree (like /sys)?"
finish
