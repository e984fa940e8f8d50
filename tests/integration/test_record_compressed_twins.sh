# Compressed captures of the emulator: the real Intel PT (quipper) and
# CoreSight (simpleperf ETM) captures replayed with hwtrace record
# --emulate, and their compressed twins, rewritten record for record with
# the writer's compression (pd_compress: the same records, so the twins
# differ in the container only). A twin decodes exactly as its
# uncompressed original in hwtrace (elements; PT packets) and in Linux perf
# 6.1 (perf script --itrace=b); with the AUX trace compressed too
# (--compress-aux) hwtrace still decodes it the same, and perf finds no
# trace in it. `hwtrace record -z` itself: perf -D counts every record type
# as hwtrace does, the AUX bytes per CPU are the capture's, and the
# elements are those of the plain replay. Sizes are printed.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"
: "${HWT_PD_COMPRESS:?the pd_compress helper}"

PT="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"
mkdir -p "$TMP/symfs/data/local/tmp"
ln -s "$ETM/etm_test_loop" "$TMP/symfs/data/local/tmp/etm_test_loop"
command -v perf >/dev/null || { echo "FAIL: perf is not installed (Debian: linux-perf)" >&2; exit 1; }

dec() { "$HWTRACE" decode --format jsonl --symfs "$TMP/symfs" "$1" 2>/dev/null; }
perf_br() { perf script -i "$1" --itrace=b -F flags,ip,addr --symfs "$TMP/symfs" 2>/dev/null; }
same() { cmp -s "$1" "$2" && echo same; }
# "NAME COUNT" of every record type, from hwtrace dump and from perf -D.
hwt_counts() {
	"$HWTRACE" dump "$1" 2>/dev/null |
		awk '/^# records by type/ { on = 1; next } on && /^#   / { print $2, $3 }' | sort
}
# perf's CoreSight decoder adds ATTR events of its own for the samples it
# synthesises (file-mode files have none): they are left out of its TOTAL.
perf_counts() {
	perf report -D -i "$1" 2>/dev/null |
		awk '/^ *[A-Z_0-9]+ events: / && !seen[$1]++ { n[$1] = $3 }
		     END { for (t in n) if (t != "ATTR")
				print t, (t == "TOTAL" ? n[t] - n["ATTR"] : n[t]) }' | sort
}

twins() {
	local name=$1 capture=$2 want_lines=$3 u="$TMP/$1.u"
	"$HWTRACE" record --emulate "$capture" --emulate-lossless -o "$u" 2>/dev/null
	expect_eq "$name: record" "$?" 0
	"$HWT_PD_COMPRESS" "$u" "$TMP/$name.z" 1
	expect_eq "$name: compressed twin" "$?" 0
	"$HWT_PD_COMPRESS" "$u" "$TMP/$name.za" 9 aux
	expect_eq "$name: twin with compressed AUX" "$?" 0

	dec "$u" >"$TMP/$name.u.dec"
	expect_eq "$name: elements" "$(wc -l <"$TMP/$name.u.dec")" "$want_lines"
	for v in z za; do
		dec "$TMP/$name.$v" >"$TMP/$name.$v.dec"
		expect_eq "$name.$v: hwtrace decodes it as the original" \
			"$(same "$TMP/$name.u.dec" "$TMP/$name.$v.dec")" same
	done
	expect_eq "$name.z: perf counts every type as hwtrace" \
		"$(hwt_counts "$TMP/$name.z")" "$(perf_counts "$TMP/$name.z")"
	expect_eq "$name.z: compressed records" \
		"$(hwt_counts "$TMP/$name.z" | awk '$1 == "COMPRESSED" { print ($2 > 0) }')" 1

	perf_br "$u" >"$TMP/$name.u.perf"
	perf_br "$TMP/$name.z" >"$TMP/$name.z.perf"
	expect_eq "$name: perf finds branches" "$([ -s "$TMP/$name.u.perf" ] && echo yes)" yes
	checks=$((checks + 1))
	if ! cmp -s "$TMP/$name.u.perf" "$TMP/$name.z.perf"; then
		fail "$name.z: perf script differs from the original's:"
		diff "$TMP/$name.u.perf" "$TMP/$name.z.perf" | head -5 >&2
	fi
	# perf cannot find compressed AUX trace (and may crash looking).
	expect_eq "$name.za: perf finds no trace" "$(perf_br "$TMP/$name.za" | wc -l)" 0

	# hwtrace record -z and -z9 --compress-aux on the same capture.
	"$HWTRACE" record --emulate "$capture" --emulate-lossless -z -o "$TMP/$name.rz" 2>"$TMP/err"
	expect_eq "$name: record -z" "$?" 0
	expect_contains "$name: record -z reports" "$(cat "$TMP/err")" "hwtrace record: compressed "
	"$HWTRACE" record --emulate "$capture" --emulate-lossless -z9 --compress-aux \
		-o "$TMP/$name.rza" 2>/dev/null
	expect_eq "$name: record -z9 --compress-aux" "$?" 0
	expect_eq "$name.rz: perf counts every type as hwtrace" \
		"$(hwt_counts "$TMP/$name.rz")" "$(perf_counts "$TMP/$name.rz")"
	aux_bytes "$capture" | sort -s -k1,1n >"$TMP/$name.want.aux"
	for v in rz rza; do
		aux_bytes "$TMP/$name.$v" | sort -s -k1,1n >"$TMP/$name.$v.aux"
		expect_eq "$name.$v: AUX bytes per CPU are the capture's" \
			"$(same "$TMP/$name.want.aux" "$TMP/$name.$v.aux")" same
		dec "$TMP/$name.$v" >"$TMP/$name.$v.dec"
		expect_eq "$name.$v: elements as the plain replay's" \
			"$(same "$TMP/$name.u.dec" "$TMP/$name.$v.dec")" same
	done
	echo "$name bytes: plain $(stat -c %s "$u"), twin -z $(stat -c %s "$TMP/$name.z")," \
		"twin -z9 aux $(stat -c %s "$TMP/$name.za"); record -z $(stat -c %s "$TMP/$name.rz")," \
		"-z9 --compress-aux $(stat -c %s "$TMP/$name.rza")" >&2
}

# 629 elements (gaps, trace on/off and what the packets say without the
# code) and the jsonl header
twins pt "$PT" 630
twins etm "$ETM/perf_etm.data" 421   # 420 elements and the jsonl header

# PT packets too: every packet of both buffers, through compressed AUX.
"$HWTRACE" decode --packets "$TMP/pt.u" >"$TMP/pt.u.pk" 2>/dev/null
"$HWTRACE" decode --packets "$TMP/pt.za" >"$TMP/pt.za.pk" 2>/dev/null
expect_eq "pt: packet lines" "$(wc -l <"$TMP/pt.u.pk")" "$(wc -l <"$TMP/pt.za.pk")"
expect_eq "pt: over 80,000 packets" "$([ "$(wc -l <"$TMP/pt.u.pk")" -gt 80000 ] && echo yes)" yes
expect_eq "pt.za: packets as the original's" "$(same "$TMP/pt.u.pk" "$TMP/pt.za.pk")" same

expect_eq "bad: --compress-aux without -z" \
	"$("$HWTRACE" record --emulate "$PT" --compress-aux -o "$TMP/x" 2>/dev/null; echo $?)" 2
expect_eq "bad: -z0" \
	"$("$HWTRACE" record --emulate "$PT" -z0 -o "$TMP/x" 2>/dev/null; echo $?)" 2
finish
