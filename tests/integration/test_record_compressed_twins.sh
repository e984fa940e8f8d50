# hwtrace record -z: an emulated replay of the real Intel PT (quipper) and
# CoreSight (simpleperf ETM) captures, written compressed, decodes exactly
# as its uncompressed twin does, in hwtrace (elements, and PT packets) and
# in Linux perf 6.1 (perf script --itrace=b). Its AUX trace stays
# uncompressed and indexed; --compress-aux compresses it too, which
# hwtrace decodes the same and perf cannot read. The ratios are printed.
# The emulated trace units wait for the reader (--emulate-lossless), so a
# busy machine cannot make one twin lose trace the other kept.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

PT="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"
mkdir -p "$TMP/symfs/data/local/tmp"
ln -s "$ETM/etm_test_loop" "$TMP/symfs/data/local/tmp/etm_test_loop"
command -v perf >/dev/null || { echo "FAIL: perf is not installed (Debian: linux-perf)" >&2; exit 1; }

dec() { "$HWTRACE" decode --format jsonl --symfs "$TMP/symfs" "$1" 2>/dev/null; }
rec_count() { "$HWTRACE" dump "$1" | awk -v t="$2" '$1 == "#" && $2 == t { print $3 }'; }

twins() {
	local name=$1 capture=$2 want_lines=$3
	"$HWTRACE" record --emulate "$capture" --emulate-lossless -o "$TMP/$name.u" 2>"$TMP/err"
	expect_eq "$name: plain record" "$?" 0
	"$HWTRACE" record --emulate "$capture" --emulate-lossless -z -o "$TMP/$name.z" 2>"$TMP/err"
	expect_eq "$name: -z record" "$?" 0
	expect_contains "$name: -z reports" "$(cat "$TMP/err")" "compressed "
	"$HWTRACE" record --emulate "$capture" --emulate-lossless -z9 --compress-aux -o "$TMP/$name.za" 2>"$TMP/err.za"
	expect_eq "$name: -z9 --compress-aux record" "$?" 0

	dec "$TMP/$name.u" >"$TMP/$name.u.dec"
	expect_eq "$name: plain decode lines" "$(wc -l <"$TMP/$name.u.dec")" "$want_lines"
	for v in z za; do
		dec "$TMP/$name.$v" >"$TMP/$name.$v.dec"
		expect_eq "$name.$v decodes as its plain twin" \
			"$(cmp -s "$TMP/$name.u.dec" "$TMP/$name.$v.dec" && echo same)" same
	done
	expect_eq "$name.z: COMPRESSED records" "$( [ "$(rec_count "$TMP/$name.z" COMPRESSED)" -gt 0 ] && echo some)" some
	expect_eq "$name.z: AUXTRACE records as the plain file" \
		"$(rec_count "$TMP/$name.z" AUXTRACE)" "$(rec_count "$TMP/$name.u" AUXTRACE)"

	# perf: the -z twin reads as the plain one.
	perf script -i "$TMP/$name.u" --itrace=b -F flags,ip,addr --symfs "$TMP/symfs" >"$TMP/$name.u.perf" 2>"$TMP/$name.u.perferr"
	perf script -i "$TMP/$name.z" --itrace=b -F flags,ip,addr --symfs "$TMP/symfs" >"$TMP/$name.z.perf" 2>"$TMP/$name.z.perferr"
	expect_eq "$name: perf sees branches" "$( [ -s "$TMP/$name.u.perf" ] && echo yes)" yes
	checks=$((checks + 1))
	if ! cmp -s "$TMP/$name.u.perf" "$TMP/$name.z.perf"; then
		fail "$name.z: perf script differs from the plain twin's:"
		diff "$TMP/$name.u.perf" "$TMP/$name.z.perf" | head -5 >&2
		cat "$TMP/$name.z.perferr" >&2
	fi
	echo "$name sizes: plain $(stat -c %s "$TMP/$name.u") -z $(stat -c %s "$TMP/$name.z") -z9 --compress-aux $(stat -c %s "$TMP/$name.za")" >&2
}

twins pt "$PT" 14
twins etm "$ETM/perf_etm.data" 421

# PT packets too: every packet of both buffers.
"$HWTRACE" decode --packets "$TMP/pt.u" >"$TMP/pt.u.pk" 2>/dev/null
"$HWTRACE" decode --packets "$TMP/pt.za" >"$TMP/pt.za.pk" 2>/dev/null
expect_eq "pt: packet lines" "$( [ "$(wc -l <"$TMP/pt.u.pk")" -gt 80000 ] && echo many)" many
expect_eq "pt.za: packets as the plain twin" \
	"$(cmp -s "$TMP/pt.u.pk" "$TMP/pt.za.pk" && echo same)" same

# perf cannot find compressed AUX trace: no branches from the --compress-aux file.
perf script -i "$TMP/pt.za" --itrace=b >"$TMP/pt.za.perf" 2>/dev/null
expect_eq "pt.za: perf finds no trace" "$(wc -l <"$TMP/pt.za.perf")" 0

expect_eq "bad: --compress-aux without -z" \
	"$("$HWTRACE" record --emulate "$PT" --compress-aux -o "$TMP/x" 2>/dev/null; echo $?)" 2
expect_eq "bad: -z0" \
	"$("$HWTRACE" record --emulate "$PT" -z0 -o "$TMP/x" 2>/dev/null; echo $?)" 2
finish
