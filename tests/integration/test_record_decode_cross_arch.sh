#!/bin/bash
# A capture made by one architecture's hwtrace decodes the same with the
# other's: this build and a peer build of another architecture
# (HWT_PEER_HWTRACE; make check-arm64 gives the arm64 run the x86-64
# build) each record --emulate the simpleperf CoreSight capture and the
# quipper Intel PT capture; both builds decode (and dump) both CoreSight
# files with identical output, and the Intel PT files, decoded by the build
# that has libipt, give the same elements as the original capture.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PEER=${HWT_PEER_HWTRACE:?a hwtrace build of another architecture}
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm/perf_etm.data"
PT="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
[ -x "$PEER" ] || { echo "FAIL: $PEER is not built" >&2; exit 1; }
[ -f "$ETM" ] && [ -f "$PT" ] || { echo "FAIL: captures missing (HWT_TESTDATA)" >&2; exit 1; }

# arch_of ELF: its e_machine (62 x86-64, 183 aarch64, 243 riscv64).
arch_of() {
	case $(od -An -tu2 -j18 -N2 "$1" | tr -d ' ') in
	62) echo x86-64 ;; 183) echo aarch64 ;; 243) echo riscv64 ;; *) echo unknown ;;
	esac
}
me=$(arch_of "$HWT_BUILD_DIR/tools/hwtrace")
peer=$(arch_of "$PEER")
expect_eq "the peer is another architecture ($me, $peer)" \
	"$([ "$me" != unknown ] && [ "$peer" != unknown ] && [ "$me" != "$peer" ] && echo yes)" yes

# CoreSight: recorded by each, decoded and dumped by each.
"$HWTRACE" record --emulate "$ETM" -o "$TMP/etm.me" 2> "$TMP/err"
expect_eq "record ($me)" "$?" 0
"$PEER" record --emulate "$ETM" -o "$TMP/etm.peer" 2> "$TMP/err"
expect_eq "record ($peer)" "$?" 0
"$HWTRACE" decode --format jsonl "$ETM" > "$TMP/etm.want" 2> /dev/null
expect_eq "the capture decodes to ranges" \
	"$(grep -c '"type":"range"' "$TMP/etm.want")" \
	"$("$PEER" decode --format jsonl "$ETM" 2> /dev/null | grep -c '"type":"range"')"
for f in me peer; do
	"$HWTRACE" decode --format jsonl "$TMP/etm.$f" > "$TMP/etm.$f.by-me" 2> "$TMP/err"
	expect_eq "decode of the $f recording ($me)" "$?" 0
	"$PEER" decode --format jsonl "$TMP/etm.$f" > "$TMP/etm.$f.by-peer" 2> "$TMP/err"
	expect_eq "decode of the $f recording ($peer)" "$?" 0
	expect_eq "the $f recording decodes to something" \
		"$([ -s "$TMP/etm.$f.by-me" ] && echo yes)" yes
	expect_eq "the $f recording decodes the same on $me and $peer" \
		"$(cmp -s "$TMP/etm.$f.by-me" "$TMP/etm.$f.by-peer" && echo same)" same
	expect_eq "the $f recording decodes as the capture does" \
		"$(cmp -s "$TMP/etm.want" "$TMP/etm.$f.by-me" && echo same)" same
	expect_eq "the $f recording dumps the same on $me and $peer" \
		"$(cmp -s <("$HWTRACE" dump "$TMP/etm.$f" 2>&1) <("$PEER" dump "$TMP/etm.$f" 2>&1) && echo same)" same
done

# Intel PT: recorded by each, decoded by whichever build has libipt.
"$HWTRACE" record --emulate "$PT" -o "$TMP/pt.me" 2> "$TMP/err"
expect_eq "record PT ($me)" "$?" 0
"$PEER" record --emulate "$PT" -o "$TMP/pt.peer" 2> "$TMP/err"
expect_eq "record PT ($peer)" "$?" 0
dec=""
if [ "${HWT_HAVE_LIBIPT:-1}" = 1 ]; then
	dec=$HWTRACE
elif "$PEER" list --sysfs "$HWT_SOURCE_DIR/tests/fixtures/sysfs/juno" |
	grep -q '^Decoders in this build: intel_pt'; then
	dec=$PEER
fi
if [ -z "$dec" ]; then
	fail "neither build decodes Intel PT"
else
	"$dec" decode --format jsonl "$PT" > "$TMP/pt.want" 2> /dev/null
	for f in me peer; do
		"$dec" decode --format jsonl "$TMP/pt.$f" > "$TMP/pt.$f.dec" 2> /dev/null
		expect_eq "the PT $f recording decodes as the capture does" \
			"$([ -s "$TMP/pt.want" ] && cmp -s "$TMP/pt.want" "$TMP/pt.$f.dec" && echo same)" same
	done
fi
finish
