# hwtrace record --emulate replays each PERF_RECORD_AUX of a capture as
# one AUX write of the same size with the same flags, so the replay has
# the original's record structure: Linux perf (which resets its CoreSight
# decoder at every AUX record) dumps the same packets from both, hwtrace
# decodes both alike, and the capture's losses stay losses in the replay,
# counted apart from the replay's own.
#
# Captures: the real simpleperf ETM capture (4 AUX records), the real
# quipper Intel PT capture (1 + 9 AUX records), and the ETM capture with
# the structure of a lossy one (pd_aux_losses): records 2 and 3 TRUNCATED
# with the ETR driver's barrier packet at their start, record 4 reported
# as two writes of 0x20 and 0x70 bytes. Replayed as a byte stream (4 KiB
# writes, no flags), perf dumps 23 packets from that one instead of 5 and
# hwtrace finds no truncation in it. Last, the PT capture through an 8 KiB
# AUX ring: the replay's own losses are counted as the replay's, and that
# lossy file replayed again keeps them, counted as the capture's.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"
: "${HWT_PD_AUX_LOSSES:?the pd_aux_losses helper}"
command -v perf >/dev/null || fail "perf (linux-perf) is not installed: the perf side cannot be checked"

ETM="$HWT_TESTDATA/perf-data/simpleperf-etm/perf_etm.data"
PT="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
cp "$ETM" "$PT" "$TMP/"
${HWT_TARGET_RUN:-} "$HWT_PD_AUX_LOSSES" "$TMP/perf_etm.data" "$TMP/etm_lossy.data" 2 3 4/32
expect_eq "pd_aux_losses status" "$?" 0

# "cpu offset size flags" of every PERF_RECORD_AUX, sorted.
aux_records() {
	perf report -D -i "$1" 2>/dev/null |
		sed -n 's/^\([0-9]*\) [0-9]* 0x[0-9a-f]* \[0x[0-9a-f]*\]: PERF_RECORD_AUX offset: \([0-9a-fx]*\) size: \([0-9a-fx]*\) flags: \([0-9a-fx]*\) .*/\1 \2 \3 \4/p' |
		sort
}
# perf's packet dump: CoreSight "Idx:" lines (perf dumps each AUX record
# apart, at its stream offset), Intel PT packet lines (perf dumps each
# AUXTRACE buffer apart, at offsets in it; made stream offsets here, so
# that how the reader cut the stream into buffers does not matter).
packets() {
	perf report -D -i "$1" 2>/dev/null | awk '
		function hex(s,    n, i) {
			sub(/^0x/, "", s)
			n = 0
			for (i = 1; i <= length(s); i++)
				n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		/PERF_RECORD_AUXTRACE size:/ {
			for (i = 1; i <= NF; i++)
				if ($i == "offset:")
					base = hex($(i + 1))
			cpu = $NF
			next
		}
		/^	Idx:/ { print; next }
		/^\.  [0-9a-f]+:/ && length($2) == 9 {
			off = hex(substr($2, 1, 8))
			$1 = ""
			$2 = ""
			printf "cpu %s at %d:%s\n", cpu, base + off, $0
		}' | sort
}

# replay NAME CAPTURE AUX_RECORDS PACKETS TRUNCATED
replay() {
	"$HWTRACE" record --emulate "$2" -o "$TMP/$1.out" 2>"$TMP/$1.err"
	expect_eq "$1: record --emulate status" "$?" 0
	aux_records "$2" >"$TMP/$1.aux.want"
	aux_records "$TMP/$1.out" >"$TMP/$1.aux.got"
	expect_eq "$1: AUX records in the capture" "$(wc -l <"$TMP/$1.aux.want")" "$3"
	expect_eq "$1: the replay's AUX records (cpu, offset, size, flags) are the capture's" \
		"$(cmp -s "$TMP/$1.aux.want" "$TMP/$1.aux.got" && echo same)" same
	packets "$2" >"$TMP/$1.pk.want"
	packets "$TMP/$1.out" >"$TMP/$1.pk.got"
	expect_eq "$1: perf's packets in the capture" "$(wc -l <"$TMP/$1.pk.want")" "$4"
	expect_eq "$1: perf dumps the same packets from the replay" \
		"$(cmp -s "$TMP/$1.pk.want" "$TMP/$1.pk.got" && echo same)" same
	expect_contains "$1: the summary counts the capture's losses" \
		"$(cat "$TMP/$1.err")" "the capture's losses $5 truncated, 0 collisions, 0 partial; the replay's 0 truncated, 0 disabled with no room, 0 barrier packets inserted"
}

# hwtrace decodes the replay as it decodes the capture.
decodes_alike() {
	"$HWTRACE" decode --format jsonl "$2" >"$TMP/$1.dec.want" 2>/dev/null
	"$HWTRACE" decode --format jsonl "$TMP/$1.out" >"$TMP/$1.dec.got" 2>/dev/null
	expect_eq "$1: the capture decodes to something" \
		"$([ -s "$TMP/$1.dec.want" ] && echo yes)" yes
	expect_eq "$1: hwtrace decodes the replay as the capture" \
		"$(cmp -s "$TMP/$1.dec.want" "$TMP/$1.dec.got" && echo same)" same
}

replay etm "$TMP/perf_etm.data" 4 27 0
decodes_alike etm "$TMP/perf_etm.data"

replay pt "$TMP/perf.data.intel_pt-4.14" 10 86631 0
if have_pt_decoder "decode of the intel_pt replay"; then
	decodes_alike pt "$TMP/perf.data.intel_pt-4.14"
fi

replay etm_lossy "$TMP/etm_lossy.data" 5 5 2
decodes_alike etm_lossy "$TMP/etm_lossy.data"
err=$(cat "$TMP/etm_lossy.err")
# Each TRUNCATED record disabled the event and the capture engine enabled
# it again, as perf did in the original.
expect_contains "etm_lossy: two losses, two re-enables" "$err" \
	"lost: 2 truncated (buffer full, 2 re-enabled)"
expect_contains "etm_lossy: every byte replayed" "$err" \
	"0 trace bytes dropped (of 384 produced)"
expect_eq "etm_lossy: hwtrace finds both truncations" \
	"$(grep -c '"reason":"truncated"' "$TMP/etm_lossy.dec.got")" 2

# The ETM capture without its second AUX record, as if a full data ring
# had lost it: the bytes it reported are replayed as a write of their own
# at their place, so the replay has the original's four records again.
${HWT_TARGET_RUN:-} "$HWT_PD_AUX_LOSSES" "$TMP/perf_etm.data" "$TMP/etm_unreported.data" 2-
expect_eq "pd_aux_losses 2- status" "$?" 0
"$HWTRACE" record --emulate "$TMP/etm_unreported.data" -o "$TMP/etm_unreported.out" \
	2>"$TMP/etm_unreported.err"
expect_eq "etm_unreported: record --emulate status" "$?" 0
expect_eq "etm_unreported: AUX records in the capture" \
	"$(aux_records "$TMP/etm_unreported.data" | wc -l)" 3
expect_eq "etm_unreported: the replay has the original's four records" \
	"$(aux_records "$TMP/etm_unreported.out")" "$(aux_records "$TMP/perf_etm.data")"
expect_eq "etm_unreported: every byte replayed" \
	"$(aux_bytes "$TMP/etm_unreported.out" | md5sum)" "$(aux_bytes "$TMP/perf_etm.data" | md5sum)"

# A reader slower than the emulated trace unit (8 KiB AUX ring, records up
# to 28 KiB): the replay loses trace of its own, as TRUNCATED writes, and
# the summary tells them from the capture's (none here).
"$HWTRACE" record --emulate "$TMP/perf.data.intel_pt-4.14" -m 4,2 \
	-o "$TMP/pt_lossy.out" 2>"$TMP/pt_lossy.err"
expect_eq "pt_lossy: record --emulate status" "$?" 0
got=$(grep -A2 'cpu 3:' "$TMP/pt_lossy.err" | tr '\n' ' ')
session=$(echo "$got" | sed -E 's/.*lost: ([0-9]+) truncated.*/\1/')
capture=$(echo "$got" | sed -E "s/.*the capture's losses ([0-9]+) truncated.*/\1/")
own=$(echo "$got" | sed -E "s/.*the replay's ([0-9]+) truncated.*/\1/")
expect_eq "pt_lossy: the capture's losses" "$capture" 0
expect_eq "pt_lossy: every truncation counted is the replay's" "$own" "$session"
[ "${own:-0}" -gt 0 ] || fail "pt_lossy: the 8 KiB ring lost nothing: $got"

# That lossy file replayed in turn: its truncations are now the capture's
# losses, kept record for record, and the replay loses nothing more.
# (Its packets are not compared: its truncated writes end anywhere, so the
# reader's 8-byte reads cut packets differently from one run to the next.)
"$HWTRACE" record --emulate "$TMP/pt_lossy.out" -o "$TMP/pt_relossy.out" \
	2>"$TMP/pt_relossy.err"
expect_eq "pt_relossy: record --emulate status" "$?" 0
aux_records "$TMP/pt_lossy.out" >"$TMP/pl.aux.want"
aux_records "$TMP/pt_relossy.out" >"$TMP/pl.aux.got"
expect_eq "pt_relossy: the replay's AUX records are the capture's" \
	"$([ -s "$TMP/pl.aux.want" ] && cmp -s "$TMP/pl.aux.want" "$TMP/pl.aux.got" && echo same)" same
err=$(grep -A2 'cpu 3:' "$TMP/pt_relossy.err")
expect_contains "pt_relossy: the first replay's losses, re-enabled" "$err" \
	"lost: $own truncated (buffer full, $own re-enabled)"
expect_contains "pt_relossy: counted as the capture's" "$err" \
	"the capture's losses $own truncated, 0 collisions, 0 partial; the replay's 0 truncated, 0 disabled with no room"

finish
