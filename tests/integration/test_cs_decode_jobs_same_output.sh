# hwtrace decode --raw on a raw ETE stream long enough to be cut at its
# sync points (ete_mem's buffer 64 times over, 121,984 bytes: eight
# segments at the default 16 KiB): -j 2, 3 and 8 write the bytes and the
# standard error of -j 1 in text, jsonl and --edges, and the edges add up
# to the branches the jsonl lists (64 x 1,273). Also run in the
# ThreadSanitizer build.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

SS="$HWT_TESTDATA/opencsd/ete_mem"
for i in $(seq 64); do cat "$SS/session1.bin"; done >"$TMP/x64.bin"
expect_eq "stream size" "$(wc -c <"$TMP/x64.bin")" 121984

# The trace unit of ETE_0_s1.ini and the memory of cpu_0.ini.
OPT="cs_etm,ete,traceid=0x2,configr=0x1,idr0=0x2801cea1,idr1=0x4100fff0"
OPT="$OPT,idr2=0xd0001088,idr8=0x0,devarch=0x47705a13"
maps=()
while read -r file addr; do
	maps+=(--map "$SS/$file@$addr")
done < <(awk -F= '/^file=/ { f = $2 } /^address=/ { print f, $2 }' "$SS/cpu_0.ini")
expect_eq "memory dumps" "${#maps[@]}" 24

decode() {
	"$HWTRACE" decode --raw "$OPT:$TMP/x64.bin" "${maps[@]}" "$@"
}

for mode in text jsonl edges; do
	case $mode in
	edges) args=(--edges) ;;
	*) args=(--format "$mode") ;;
	esac
	decode -j 1 "${args[@]}" >"$TMP/one" 2>"$TMP/one.err"
	expect_eq "-j 1 $mode exit" "$?" 0
	for j in 2 3 8; do
		decode -j "$j" "${args[@]}" >"$TMP/many" 2>"$TMP/many.err"
		expect_eq "-j $j $mode exit" "$?" 0
		cmp -s "$TMP/one" "$TMP/many" ||
			fail "-j $j $mode: output differs from -j 1"
		cmp -s "$TMP/one.err" "$TMP/many.err" ||
			fail "-j $j $mode: standard error differs from -j 1"
	done
	cp "$TMP/one" "$TMP/$mode.out"
	cp "$TMP/one.err" "$TMP/$mode.err"
done

# The edges against the branch elements.
branches=$(grep -c '"type":"branch"' "$TMP/jsonl.out")
expect_eq "branches" "$branches" $((64 * 1273))
expect_contains "edges summary" "$(cat "$TMP/edges.err")" \
	"($branches taken branches)"
edge_sum=$(awk '{ n += $2 } END { print n }' "$TMP/edges.out")
expect_eq "edge counts add up" "$edge_sum" "$branches"
finish
