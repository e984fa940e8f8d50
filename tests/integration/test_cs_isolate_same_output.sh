# The isolated OpenCSD decode (the default) writes what the in-process one
# (--no-isolate, the oracle) writes, on the CoreSight captures that decode
# through AUX chunks: the real simpleperf ETMv4 perf.data under --symfs,
# its AUXTRACE payload as a raw formatted stream, and ete_mem's ETE
# buffer 16 times over as a raw (TRBE) stream, cut at its sync points on
# several threads; text, jsonl and --edges, -j 1 and -j 2: the same bytes
# on standard output and standard error, and exit 0. The element counts
# are those test_cs_decode_cli and test_cs_decode_jobs_same_output check
# against perf script and trc_pkt_lister, so neither side is empty.
# --isolate-timeout is checked as an option.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"
mkdir -p "$TMP/symfs/data/local/tmp"
ln -s "$ETM/etm_test_loop" "$TMP/symfs/data/local/tmp/etm_test_loop"
dd if="$ETM/perf_etm.data" of="$TMP/etm.bin" bs=1 skip=$((0x26a8 + 0x30)) \
	count=$((0x180)) 2>/dev/null

SS="$HWT_TESTDATA/opencsd/ete_mem"
for i in $(seq 16); do cat "$SS/session1.bin"; done >"$TMP/x16.bin"
ETE="cs_etm,ete,traceid=0x2,configr=0x1,idr0=0x2801cea1,idr1=0x4100fff0"
ETE="$ETE,idr2=0xd0001088,idr8=0x0,devarch=0x47705a13"
ete_maps=()
while read -r file addr; do
	ete_maps+=(--map "$SS/$file@$addr")
done < <(awk -F= '/^file=/ { f = $2 } /^address=/ { print f, $2 }' "$SS/cpu_0.ini")

# same NAME BRANCHES ARGS...: isolated and not, in each mode and -j.
same() {
	local name=$1 want=$2
	shift 2
	for mode in text jsonl edges; do
		case $mode in
		edges) margs=(--edges) ;;
		*) margs=(--format "$mode") ;;
		esac
		for j in 1 2; do
			"$HWTRACE" decode --no-isolate -j $j "${margs[@]}" "$@" \
				>"$TMP/in.out" 2>"$TMP/in.err"
			expect_eq "$name $mode -j $j in-process exit" "$?" 0
			"$HWTRACE" decode -j $j "${margs[@]}" "$@" \
				>"$TMP/iso.out" 2>"$TMP/iso.err"
			expect_eq "$name $mode -j $j isolated exit" "$?" 0
			checks=$((checks + 2))
			cmp -s "$TMP/in.out" "$TMP/iso.out" ||
				fail "$name $mode -j $j: isolated output differs"
			cmp -s "$TMP/in.err" "$TMP/iso.err" ||
				fail "$name $mode -j $j: isolated standard error differs"
			if [ $mode = jsonl ]; then
				expect_eq "$name branches" \
					"$(grep -c '"type":"branch"' "$TMP/iso.out")" "$want"
			fi
		done
	done
}

same "simpleperf perf.data" 207 "$ETM/perf_etm.data" --symfs "$TMP/symfs"
same "simpleperf raw" 207 --raw "cs_etm,etmv4,traceid=0x1e,configr=0x40:$TMP/etm.bin" \
	--map "$ETM/etm_test_loop@0x582b2b0000"
same "ete_mem x16 raw" $((16 * 1273)) --raw "$ETE:$TMP/x16.bin" "${ete_maps[@]}"

# --isolate-timeout takes seconds in (0, 3600]; anything else is a
# usage error naming the option.
for bad in 0 -1 x 3601; do
	"$HWTRACE" decode --isolate-timeout "$bad" "$ETM/perf_etm.data" \
		>/dev/null 2>"$TMP/bad.err"
	expect_eq "--isolate-timeout $bad exit" "$?" 2
	expect_contains "--isolate-timeout $bad message" "$(cat "$TMP/bad.err")" \
		"--isolate-timeout"
done
"$HWTRACE" decode --isolate-timeout 0.5 --format jsonl "$ETM/perf_etm.data" \
	--symfs "$TMP/symfs" >"$TMP/t.out" 2>/dev/null
expect_eq "--isolate-timeout 0.5 exit" "$?" 0
expect_eq "--isolate-timeout 0.5 branches" \
	"$(grep -c '"type":"branch"' "$TMP/t.out")" 207
finish
