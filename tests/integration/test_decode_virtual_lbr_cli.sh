# decode, report and export --virtual-lbr N: the value is checked (1 to
# 1024, as perf's itrace l/L sizes) with a usage error, exit 2, on each
# command; a capture without AUX samples is decoded as it is, with a
# warning saying so; and on an AUX-sampling capture of the emulator
# (libipt's psb-tnt-psb stream, no code mapped, sampled every 8 bytes:
# test_sample_record_cli has its 7 windows, 3 without a sync point and
# 4 without code) the summary says all 7 stacks are short, none of them
# with a branch. test_sample_virtual_lbr compares the records with perf's.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

FX="$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client"
PT="$HWT_TESTDATA/ptt/expected/psb-tnt-psb.pt"
LBR="$HWT_TESTDATA/perf-data/simpleperf-lbr/perf_lbr.data"

for cmd in decode report export; do
	for n in 0 1025 x -1; do
		out=$("$HWTRACE" $cmd --virtual-lbr "$n" "$LBR" 2>&1 >/dev/null)
		expect_eq "$cmd --virtual-lbr $n: exit status" "$?" 2
		expect_contains "$cmd --virtual-lbr $n: message" "$out" \
			"hwtrace $cmd: --virtual-lbr $n:"
		expect_contains "$cmd --virtual-lbr $n: the range" "$out" "1 to 1024"
	done
done

# Branch records without AUX samples: said, and decoded as without the
# option (the same 386 records).
"$HWTRACE" decode --virtual-lbr 8 "$LBR" > "$TMP/v.txt" 2> "$TMP/v.err"
expect_eq "no AUX samples: exit status" "$?" 0
expect_contains "no AUX samples: warning" "$(cat "$TMP/v.err")" \
	"--virtual-lbr: $LBR has no AUX samples"
"$HWTRACE" decode "$LBR" > "$TMP/p.txt" 2> /dev/null
expect_eq "no AUX samples: the same output" "$(cmp -s "$TMP/v.txt" "$TMP/p.txt"; echo $?)" 0

"$HWTRACE" record --sysfs "$FX" --emulate-trace "$PT" -C 0 --aux-sample=64 \
	-e intel_pt// -e cycles/period=8/ -o "$TMP/s.data" 2> /dev/null
expect_eq "record exit status" "$?" 0
if have_pt_decoder "virtual LBR of the sampled intel_pt windows"; then
"$HWTRACE" decode --virtual-lbr 8 --format jsonl "$TMP/s.data" \
	> "$TMP/out" 2> "$TMP/err"
expect_eq "decode exit status" "$?" 0
expect_contains "short stacks" "$(cat "$TMP/err")" \
	"virtual LBR: 7 of the 7 AUX samples have fewer than 8 taken branches in their window (7 of them none"
expect_eq "no sample elements" "$(grep -c '"type":"sample"' "$TMP/out")" 0
expect_eq "the windows' gaps" "$(grep -c '"type":"gap"' "$TMP/out")" 7
fi
finish
