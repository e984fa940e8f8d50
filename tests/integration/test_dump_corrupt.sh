# hwtrace dump and info on damaged copies of the real captures: records
# cut, sizes and types overwritten. Each run ends with status 0 or 1, never
# a crash or a sanitizer report (this test also runs in the ASan build).
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

PD="$HWT_TESTDATA/perf-data"

# check NAME FILE: dump and info exit 0 or 1, stderr free of sanitizer
# reports.
check() {
	for cmd in dump info; do
		"$HWTRACE" "$cmd" "$2" > /dev/null 2> "$TMP/err"
		status=$?
		checks=$((checks + 1))
		case $status in
		0|1) ;;
		*) fail "$cmd $1: exit status $status" ;;
		esac
		if grep -q 'Sanitizer\|runtime error' "$TMP/err"; then
			fail "$cmd $1: $(head -3 "$TMP/err")"
		fi
	done
}

# poke FILE OFFSET HEXBYTES: overwrite bytes in place.
poke() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

for f in simpleperf-etm/perf_etm.data quipper/perf.data.intel_pt-4.14; do
	src="$PD/$f"
	size=$(stat -c %s "$src")
	# The first 40 record offsets as perf printed them.
	offsets=$(grep -oE '^0x[0-9a-f]+@' "$src.perf-report-D.txt" | tr -d '@' | head -40)
	[ -n "$offsets" ] || fail "no record offsets in $src.perf-report-D.txt"
	for off in $offsets; do
		o=$((off))
		for cut in $o $((o + 3)) $((o + 9)); do
			head -c "$cut" "$src" > "$TMP/x.data"
			check "$f cut at $cut" "$TMP/x.data"
		done
		cp "$src" "$TMP/x.data"; chmod u+w "$TMP/x.data"
		poke "$TMP/x.data" $((o + 6)) '\xff\xff'
		check "$f size 0xffff at $o" "$TMP/x.data"
		cp "$src" "$TMP/x.data"
		poke "$TMP/x.data" $((o + 6)) '\x03\x00'
		check "$f size 3 at $o" "$TMP/x.data"
		cp "$src" "$TMP/x.data"
		poke "$TMP/x.data" "$o" '\x47\x00\x00\x00'
		check "$f type AUXTRACE at $o" "$TMP/x.data"
		cp "$src" "$TMP/x.data"
		poke "$TMP/x.data" "$o" '\x0a\x00\x00\x00'
		check "$f type MMAP2 at $o" "$TMP/x.data"
	done
	# Header fields: sizes and offsets pointing nowhere.
	for field in 16 24 32 40 48 72; do
		cp "$src" "$TMP/x.data"
		poke "$TMP/x.data" "$field" '\xff\xff\xff\xff\xff\xff\xff\x7f'
		check "$f header field $field" "$TMP/x.data"
	done
	expect_eq "$f size" "$((size > 0))" 1
done
finish
