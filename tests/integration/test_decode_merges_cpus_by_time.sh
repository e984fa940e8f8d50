# decode's default order merges a capture's CPUs by time: on the quipper
# PT capture (CPUs 0 and 3) and on its replay through the emulator, the
# merged jsonl holds exactly the elements of the --per-cpu output (the
# same lines, as multisets, and per CPU), in non-decreasing time. CPU 0's
# queue comes first in the file, but its trace starts after all of CPU
# 3's: merged, CPU 3 comes first.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"

check_merge() {
	local name=$1 file=$2
	"$HWTRACE" decode "$file" --format jsonl --no-symbols >"$TMP/$name.merged" 2>"$TMP/$name.err" ||
		fail "$name: decode: $(cat "$TMP/$name.err")"
	"$HWTRACE" decode "$file" --format jsonl --no-symbols --per-cpu >"$TMP/$name.percpu" 2>/dev/null ||
		fail "$name: decode --per-cpu"
	expect_eq "$name: same elements" "$(sort "$TMP/$name.merged" | md5sum)" \
		"$(sort "$TMP/$name.percpu" | md5sum)"
	for cpu in 0 3; do
		expect_eq "$name: cpu $cpu in file order" \
			"$(grep "\"cpu\":$cpu," "$TMP/$name.merged" | md5sum)" \
			"$(grep "\"cpu\":$cpu," "$TMP/$name.percpu" | md5sum)"
	done
	expect_eq "$name: time never goes back" "$(sed -n 's/.*"time":\([0-9]*\).*/\1/p' "$TMP/$name.merged" |
		awk 'NR > 1 && $1 < last { bad++ } { last = $1 } END { print bad + 0 }')" "0"
	expect_eq "$name: per-CPU order starts with CPU 0" \
		"$(grep -m1 -v '"type":"header"' "$TMP/$name.percpu" | sed -n 's/.*"cpu":\([0-9]*\),.*/\1/p')" "0"
	expect_eq "$name: merged order starts with CPU 3" \
		"$(grep -m1 -v '"type":"header"' "$TMP/$name.merged" | sed -n 's/.*"cpu":\([0-9]*\),.*/\1/p')" "3"
}

check_merge quipper "$Q"
"$HWTRACE" record --emulate "$Q" -o "$TMP/replay.data" >/dev/null 2>&1 || fail "record --emulate"
check_merge replay "$TMP/replay.data"
finish
