# Address filters from the command line and the profile reach the kernel:
# hwtrace record --filter on the emulated intel-client machine (intel_pt,
# nr_addr_filters 2) resolves the symbol of a real program, the emulated
# kernel reports the string its PERF_EVENT_IOC_SET_FILTER received, and
# the file's AUXTRACE_INFO carries it as perf report -D prints it. The
# expected address and size are nm -S's, moved to a file offset with
# readelf -S's section columns.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client"
DAP="$HWT_TESTDATA/ptt/expected/dump-all-packets.pt"
PROG=$(realpath "$HWT_BUILD_DIR/tests/programs/filter_twins")

# nm -S's value and size of SYM, the value as a file offset.
sym_filter() {
	local v s addr off len
	read -r v s < <(nm -S "$PROG" | awk -v n="$1" '$4 == n { print $1, $2; exit }')
	while read -r addr off len; do
		if (( 0x$addr && 0x$v >= 0x$addr && 0x$v < 0x$addr + 0x$len )); then
			printf '0x%x/0x%x' $((0x$v - 0x$addr + 0x$off)) $((0x$s))
			return
		fi
	done < <(readelf -SW "$PROG" | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		 awk '{ print $3, $4, $5 }')
}
WORK=$(sym_filter filtered_work)
MAIN=$(sym_filter main)
expect_contains "filtered_work has a size" "$WORK" "/0x"
WANT="filter $WORK@$PROG"

"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$DAP" -e intel_pt//u -C 0,1 \
	--filter "filter filtered_work @ $PROG" -o "$TMP/f.data" 2> "$TMP/err"
expect_eq "record --filter status" "$?" 0
expect_eq "emulated kernel's SET_FILTER on cpu 0 and 1" \
	"$(grep -c "emulated kernel's address filters: $WANT\$" "$TMP/err")" 2
perf report -D --force -i "$TMP/f.data" > "$TMP/dump" 2>&1
expect_eq "perf report -D status" "$?" 0
expect_eq "perf's AUXTRACE_INFO filter" \
	"$(sed -n 's/^ *Filter string   *//p' "$TMP/dump")" "$WANT"
expect_eq "perf's AUXTRACE_INFO filter length" \
	"$(sed -n 's/^ *Filter string len\. *//p' "$TMP/dump")" "${#WANT}"

# The profile's key, two filters (start/stop), newline-free INI value.
cat > "$TMP/pt.ini" <<INI
[session]
backend = intel_pt
cpus = 0
[intel_pt]
filter = start main @ $PROG, tracestop filtered_work @ $PROG
INI
WANT2="start ${MAIN%/*}@$PROG,stop $WORK@$PROG"
"$HWTRACE" record -c "$TMP/pt.ini" --sysfs "$FIX" --emulate-trace "$DAP" \
	-o "$TMP/g.data" 2> "$TMP/err"
expect_eq "record -c status" "$?" 0
expect_contains "profile's filters reach the emulated kernel" \
	"$(cat "$TMP/err")" "emulated kernel's address filters: $WANT2"
perf report -D --force -i "$TMP/g.data" > "$TMP/dump" 2>&1
expect_eq "perf's AUXTRACE_INFO filter (profile)" \
	"$(sed -n 's/^ *Filter string   *//p' "$TMP/dump")" "$WANT2"

# config check prints them as given and as the kernel takes them.
out=$("$HWTRACE" config check "$TMP/pt.ini" --sysfs "$FIX")
expect_eq "config check status" "$?" 0
expect_contains "config check filters" "$out" \
	"address filters (2): start main @ $PROG, tracestop filtered_work @ $PROG
  as the kernel takes them: $WANT2"
out=$("$HWTRACE" config check --sysfs "$FIX" -e intel_pt//u \
	--filter "filter filtered_work @ $PROG")
expect_contains "config check --filter" "$out" "as the kernel takes them: $WANT"

# Errors: an unknown symbol, an ambiguous one, more filters than the PMU
# has, --filter on a replay.
"$HWTRACE" record --sysfs "$FIX" -e intel_pt//u -C 0 \
	--filter "filter no_such_fn @ $PROG" -o "$TMP/h.data" 2> "$TMP/err"
expect_eq "unknown symbol status" "$?" 2
expect_eq "unknown symbol message" "$(cat "$TMP/err")" \
	"hwtrace: filter \"filter no_such_fn @ $PROG\": no symbol no_such_fn in $PROG (list its symbols with: nm $PROG)"
"$HWTRACE" config check --sysfs "$FIX" -e intel_pt//u \
	--filter "filter twin @ $PROG" > /dev/null 2> "$TMP/err"
expect_eq "ambiguous symbol status" "$?" 1
expect_contains "ambiguous symbol message" "$(cat "$TMP/err")" \
	"symbol twin is ambiguous: 2 symbols of that name in $PROG"
"$HWTRACE" config check --sysfs "$FIX" -e intel_pt//u \
	--filter "filter main @ $PROG, filter twin_b @ $PROG, stop 0x10 @ $PROG" \
	> /dev/null 2> "$TMP/err"
expect_eq "three filters status" "$?" 1
expect_eq "three filters message" "$(cat "$TMP/err")" \
	"hwtrace: --filter: [intel_pt] filter has 3 address filters but intel_pt supports 2 (nr_addr_filters); remove 1"
"$HWTRACE" record --emulate "$TMP/f.data" --filter "filter main" \
	-o "$TMP/i.data" 2> "$TMP/err"
expect_eq "--emulate --filter status" "$?" 2
finish
