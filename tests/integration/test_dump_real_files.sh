# hwtrace dump on the real captures prints every record line exactly as
# `perf report -D` did (the dumps beside the captures), reads perf's pipe
# mode (made here by `perf inject -o -`), and fails cleanly on damage.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

PD="$HWT_TESTDATA/perf-data"
RECORD_LINE='^([0-9-]+ [0-9]+ )?0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_'

for f in quipper/perf.data.intel_pt-4.14 simpleperf-etm/perf_etm.data; do
	"$HWTRACE" dump "$PD/$f" > "$TMP/dump.txt"
	expect_eq "dump $f exit status" "$?" 0
	grep -E "$RECORD_LINE" "$PD/$f.perf-report-D.txt" | sort > "$TMP/perf.lines"
	grep -E "$RECORD_LINE" "$TMP/dump.txt" | sort > "$TMP/ours.lines"
	expect_eq "$f: record lines equal perf's" \
		"$(diff "$TMP/perf.lines" "$TMP/ours.lines" | head -5)" ""
	# perf's own totals: 257 records; 70 in the simpleperf file (perf
	# adds 2 ATTR events of its own).
	case $f in
	quipper/*) want=257 ;;
	*) want=70 ;;
	esac
	expect_eq "$f: record lines" "$(wc -l < "$TMP/ours.lines")" "$want"
	expect_contains "$f: total" "$(grep '#   TOTAL' "$TMP/dump.txt")" " $want"
done

# --raw: every byte of every record of the quipper file, in perf's layout,
# equals perf's "raw event" dump (grouped by record offset, as perf prints
# kernel records in time order). The simpleperf reference has stderr
# interleaved into its raw lines, so it cannot serve here.
RAW_GROUP='
function pad(h) { return substr("0000000000000000", 1, 16 - length(h)) h }
/^0x[0-9a-f]+@/ { split($1, a, "@"); off = pad(substr(a[1], 3)); n = 0; next }
/^\.  [0-9a-f][0-9a-f][0-9a-f][0-9a-f]: / { printf "%s %06d %s\n", off, n++, $0 }'
Q="$PD/quipper/perf.data.intel_pt-4.14"
awk "$RAW_GROUP" "$Q.perf-report-D.txt" | sort > "$TMP/perf.raw"
"$HWTRACE" dump --raw "$Q" | awk "$RAW_GROUP" | sort > "$TMP/ours.raw"
expect_eq "raw lines" "$(wc -l < "$TMP/ours.raw")" "$(wc -l < "$TMP/perf.raw")"
expect_eq "raw bytes equal perf's" "$(diff "$TMP/perf.raw" "$TMP/ours.raw" | head -3)" ""
expect_eq "raw covers every record" "$(cut -d' ' -f1 "$TMP/ours.raw" | sort -u | wc -l)" 257

# The simpleperf header as the file's bytes state it (xxd of the header:
# attrs at 0xa8, data at 0x138 of 0x2720 bytes) and its features.
"$HWTRACE" dump --header-only "$PD/simpleperf-etm/perf_etm.data" > "$TMP/h.txt"
expect_contains "simpleperf noticed" "$(head -1 "$TMP/h.txt")" "written by simpleperf"
expect_contains "data section" "$(cat "$TMP/h.txt")" "# data at 0x138, 10016 bytes"
expect_contains "cmdline" "$(cat "$TMP/h.txt")" \
	"cmdline) at 0x2c70, 480 bytes: /data/local/tmp/simpleperf64 record -e cs-etm:u"
expect_eq "header only has no records" "$(grep -cE "$RECORD_LINE" "$TMP/h.txt")" 0

# The summary of the ETM buffer: its size and first bytes, as the file holds
# them after the record perf shows at 0x26a8.
want=$(od -An -tx1 -j $((0x26a8 + 0x30)) -N16 "$PD/simpleperf-etm/perf_etm.data" | tr -s ' \n' ' ')
"$HWTRACE" dump "$PD/simpleperf-etm/perf_etm.data" > "$TMP/s.txt"
expect_eq "AUX summary" "$(grep '^\. \.\.\. AUX data' "$TMP/s.txt")" \
	". ... AUX data: 384 bytes:${want}..."

# --hex: the first bytes of the cpu0 buffer are a PSB (ptdump: psb at 0).
"$HWTRACE" dump --hex "$PD/quipper/perf.data.intel_pt-4.14" > "$TMP/hex.txt"
expect_contains "hex payload" "$(grep -A1 'PERF_RECORD_AUXTRACE size: 0x2fd0' "$TMP/hex.txt")" \
	".  0000:  02 82 02 82 02 82 02 82 02 82 02 82 02 82 02 82"

# Pipe mode, written by perf itself: the same records as the file, plus the
# 4 ATTR and 13 FEATURE records pipe mode carries them in.
if perf inject -i "$PD/quipper/perf.data.intel_pt-4.14" -o - > "$TMP/q.pipe" 2>/dev/null; then
	"$HWTRACE" dump - < "$TMP/q.pipe" > "$TMP/pipe.txt"
	expect_eq "pipe dump exit status" "$?" 0
	expect_contains "pipe mode" "$(head -1 "$TMP/pipe.txt")" "pipe mode"
	strip() { grep -E "$RECORD_LINE" "$1" | sed -E 's/^.*\]: //' | sort; }
	strip "$TMP/dump.txt" > /dev/null
	"$HWTRACE" dump "$PD/quipper/perf.data.intel_pt-4.14" > "$TMP/file.txt"
	expect_eq "pipe records equal the file's" \
		"$(diff <(strip "$TMP/file.txt") <(strip "$TMP/pipe.txt" | grep -v '^PERF_RECORD_\(ATTR\|FEATURE\)') | head -5)" ""
	expect_eq "ATTR records" "$(grep -c ']: PERF_RECORD_ATTR$' "$TMP/pipe.txt")" 4
	expect_eq "FEATURE records" "$(grep -c ']: PERF_RECORD_FEATURE' "$TMP/pipe.txt")" 13
	"$HWTRACE" dump "$TMP/q.pipe" > "$TMP/pipe2.txt"
	expect_eq "pipe mode from a file" \
		"$(diff <(tail -n +2 "$TMP/pipe.txt") <(tail -n +2 "$TMP/pipe2.txt") | head -3)" ""
else
	fail "perf inject could not make pipe-mode data (is linux-perf installed?)"
fi

# Damage: cut inside the record at 0x7788 (an AUXTRACE of 0x21a00 bytes).
head -c $((0x7788 + 100)) "$PD/quipper/perf.data.intel_pt-4.14" > "$TMP/cut.data"
"$HWTRACE" dump "$TMP/cut.data" > "$TMP/cut.txt" 2> "$TMP/cut.err"
expect_eq "cut file exit status" "$?" 1
expect_contains "cut file message" "$(cat "$TMP/cut.err")" \
	"record AUXTRACE (71) at byte offset 30600 is cut short"
before=0
for off in $(grep -E "$RECORD_LINE" "$PD/quipper/perf.data.intel_pt-4.14.perf-report-D.txt" |
	     grep -oE '0x[0-9a-f]+ \[' | tr -d ' ['); do
	[ $((off)) -lt $((0x7788)) ] && before=$((before + 1))
done
expect_eq "records before the cut (perf's records below 0x7788)" \
	"$(grep -cE "$RECORD_LINE" "$TMP/cut.txt")" "$before"

# Usage.
"$HWTRACE" dump --help > "$TMP/help.txt"
expect_eq "--help exit status" "$?" 0
expect_contains "--help text" "$(cat "$TMP/help.txt")" "usage: hwtrace dump"
"$HWTRACE" dump 2> /dev/null
expect_eq "no file" "$?" 2
"$HWTRACE" dump --bogus x 2> /dev/null
expect_eq "bad option" "$?" 2
"$HWTRACE" dump "$TMP/nonexistent" 2> "$TMP/err.txt"
expect_eq "missing file" "$?" 1
expect_contains "missing file message" "$(cat "$TMP/err.txt")" "$TMP/nonexistent does not exist"

finish
