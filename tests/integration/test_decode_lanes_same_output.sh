#!/bin/bash
# hwtrace decode -j N merged by time reads the merge back in slices, one
# lane a thread, each formatting its own slices (tools/decode_lanes.c):
# on four CPUs of generated Intel PT, 12 KiB each (about 570,000 elements,
# times interleaved and tied across CPUs, so the merge cuts several
# slices), -j 2, 3 and 8 write the bytes -j 1 writes, in text, jsonl and
# with --disasm (whose instruction lines the annotator heads itself), and
# the same summary. Also run in the ThreadSanitizer build, where a race
# between lanes fails the decode.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"

mkdir -p "$TMP/cpus"
"$HWT_PT_CPUS_CAPTURE" "$TMP/cpus" 12 4 || fail "pt_cpus_capture"
C=$TMP/cpus/perf.data

for args in "--format text" "--format jsonl" "--disasm"; do
	# shellcheck disable=SC2086
	"$HWTRACE" decode -j 1 $args "$C" >"$TMP/one" 2>"$TMP/one.err"
	expect_eq "-j 1 $args exit" "$?" 0
	for j in 2 3 8; do
		# shellcheck disable=SC2086
		"$HWTRACE" decode -j "$j" $args "$C" >"$TMP/many" 2>"$TMP/many.err"
		expect_eq "-j $j $args exit" "$?" 0
		cmp -s "$TMP/one" "$TMP/many" ||
			fail "-j $j $args: output differs from -j 1"
		cmp -s "$TMP/one.err" "$TMP/many.err" ||
			fail "-j $j $args: standard error differs from -j 1"
	done
done

# The merged lines are the per-CPU lines ordered by time, then by CPU
# (ties: CPUs 2 and 3 share their time stamps), the order of each CPU's
# own kept: three time stamps a CPU, so twelve runs of one CPU's lines.
"$HWTRACE" decode -j 2 "$C" >"$TMP/text" 2>"$TMP/err"
expect_contains "summary" "$(cat "$TMP/err")" "284820 ranges (569640 instructions), 284820 branches"
"$HWTRACE" decode -j 1 --per-cpu "$C" 2>/dev/null | LC_ALL=C sort -s -k2,2n -k1,1 >"$TMP/sorted"
cmp -s "$TMP/text" "$TMP/sorted" || fail "merged lines are not the per-CPU lines by time, then CPU"
expect_eq "cpu runs" "$(cut -c1-11 "$TMP/text" | uniq | tr '\n' '|')" \
	"[000] 1100:|[001] 1130:|[002] 1160:|[003] 1160:|[000] 1200:|[001] 1230:|[002] 1260:|[003] 1260:|[000] 1300:|[001] 1330:|[002] 1360:|[003] 1360:|"
finish
