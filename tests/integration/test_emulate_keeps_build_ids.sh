# record --emulate keeps the original capture's build ids and its
# machine's description: for the quipper Intel PT capture (Linux perf,
# kernel 4.14, cpuid GenuineIntel,6,78,3) and the simpleperf ETM capture
# (no cpuid feature), perf buildid-list and perf report --header-only's
# cpuid, arch, os release and CPU count of the replay equal the original's.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
command -v perf >/dev/null || { fail "perf (linux-perf) is not installed"; finish; exit 1; }

header() {
	perf report --header-only -i "$1" 2>/dev/null |
		grep -E '^# (cpuid|arch|os release|nrcpus|hostname|cpudesc|total memory) :'
}
for cap in perf-data/quipper/perf.data.intel_pt-4.14 perf-data/simpleperf-etm/perf_etm.data; do
	orig="$HWT_TESTDATA/$cap"
	out="$TMP/$(basename "$cap").replay"
	"$HWTRACE" record --emulate "$orig" -o "$out" >/dev/null 2>&1
	expect_eq "$cap: replay exit" "$?" 0
	ids=$(perf buildid-list -i "$orig" 2>/dev/null)
	expect_eq "$cap: build ids" "$(perf buildid-list -i "$out" 2>/dev/null)" "$ids"
	expect_eq "$cap: cpuid" "$(header "$out" | grep cpuid)" "$(header "$orig" | grep cpuid)"
	expect_eq "$cap: header" "$(header "$out")" "$(header "$orig")"
done
expect_eq "quipper build ids listed" \
	"$(perf buildid-list -i "$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14" 2>/dev/null | grep -c '\[kernel.kallsyms\]')" 1
expect_eq "quipper cpuid" \
	"$(header "$TMP/perf.data.intel_pt-4.14.replay" | grep cpuid)" "# cpuid : GenuineIntel,6,78,3"
finish
