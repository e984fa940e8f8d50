# perf record -z files (zstd-compressed records) made here with software
# events, in file and pipe mode: hwtrace reads the same number of records
# of every type as `perf report -D` counts. Damaged compressed data stops
# with an error naming the file, the compressed record's byte offset (the
# offset perf -D gives its records) and what is wrong; never a crash.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "FAIL: perf is not installed (Debian: linux-perf)" >&2; exit 1; }

WORK='for i in 1 2 3 4 5 6; do ls -R /usr/share/doc >/dev/null; done'

# "NAME COUNT" lines from perf report -D's statistics, sorted.
perf_counts() {
	"$PERF" report -D -i "$1" 2>/dev/null |
		awk '/^ *[A-Z_0-9]+ events: / && !seen[$1]++ { print $1, $3 }' | sort
}
# The same from hwtrace dump's "records by type" table.
hwt_counts() {
	"$HWTRACE" dump "$1" 2>"$TMP/dump.err" |
		awk '/^# records by type/ { on = 1; next } on && /^#   / { print $2, $3 }' | sort
}

check_counts() {
	local name=$1 file=$2
	perf_counts "$file" >"$TMP/$name.perf"
	hwt_counts "$file" >"$TMP/$name.hwt"
	expect_eq "$name: perf saw compressed records" \
		"$(grep -c '^COMPRESSED ' "$TMP/$name.perf")" 1
	expect_eq "$name: every type, as perf counts" "$(cat "$TMP/$name.hwt")" \
		"$(cat "$TMP/$name.perf")"
	echo "$name: $(tr '\n' ' ' <"$TMP/$name.hwt")" >&2
}

"$PERF" record -q -z -e dummy -e cpu-clock -c 100000 -o "$TMP/file.data" \
	-- sh -c "$WORK" 2>"$TMP/rec.err" || { cat "$TMP/rec.err" >&2; exit 1; }
check_counts file "$TMP/file.data"

"$PERF" record -q -z=3 -e dummy -e cpu-clock -c 100000 -o - \
	-- sh -c "$WORK" >"$TMP/pipe.data" 2>"$TMP/rec.err" || { cat "$TMP/rec.err" >&2; exit 1; }
check_counts pipe "$TMP/pipe.data"
# The same stream through standard input.
"$HWTRACE" dump - <"$TMP/pipe.data" 2>/dev/null |
	awk '/^# records by type/ { on = 1; next } on && /^#   / { print $2, $3 }' | sort >"$TMP/stdin.hwt"
expect_eq "pipe on stdin: every type" "$(cat "$TMP/stdin.hwt")" "$(cat "$TMP/pipe.perf")"

# The first compressed record: perf -D labels the records it holds with its
# offset, the first offset that repeats.
first=$("$PERF" report -D -i "$TMP/file.data" 2>/dev/null |
	awk -F@ '/^0x[0-9a-f]+@/ { if (seen[$1]++) { print $1; exit } }')
off=$((first))
# Its zstd frame header (4-byte magic after the 8-byte record header) ruined.
cp "$TMP/file.data" "$TMP/bad.data"
printf '\x00\x11\x22\x33' | dd of="$TMP/bad.data" bs=1 seek=$((off + 8)) conv=notrunc status=none
"$HWTRACE" dump "$TMP/bad.data" >/dev/null 2>"$TMP/bad.err"
expect_eq "corrupt frame: exit status" "$?" 1
expect_contains "corrupt frame: message" "$(cat "$TMP/bad.err")" \
	"$TMP/bad.data: record COMPRESSED (81) at byte offset $off: its zstd data is corrupt"
"$HWTRACE" decode "$TMP/bad.data" >/dev/null 2>"$TMP/bad.err"
expect_eq "corrupt frame, decode: exit status" "$?" 1
expect_contains "corrupt frame, decode: message" "$(cat "$TMP/bad.err")" \
	"record COMPRESSED (81) at byte offset $off"

# Cut inside the compressed record: truncated, named.
head -c $((off + 40)) "$TMP/file.data" >"$TMP/cut.data"
"$HWTRACE" dump "$TMP/cut.data" >/dev/null 2>"$TMP/cut.err"
expect_eq "cut compressed record: exit status" "$?" 1
expect_contains "cut compressed record: message" "$(cat "$TMP/cut.err")" \
	"record COMPRESSED (81) at byte offset $off"

# Bytes spread over the first compressed payload flipped in turn: an
# error or the records, never a signal.
size=$(od -An -tu2 -j $((off + 6)) -N2 "$TMP/file.data" | tr -d ' ')
crashes=0
for at in $(seq $((off + 8)) $(((size - 8) / 40 + 1)) $((off + size - 1))); do
	cp "$TMP/file.data" "$TMP/flip.data"
	printf '\xff' | dd of="$TMP/flip.data" bs=1 seek="$at" conv=notrunc status=none
	"$HWTRACE" dump "$TMP/flip.data" >/dev/null 2>&1
	[ $? -ge 128 ] && crashes=$((crashes + 1))
done
expect_eq "flipped payload bytes: crashes" "$crashes" 0
finish
