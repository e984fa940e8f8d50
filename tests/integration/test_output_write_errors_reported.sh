# Output that cannot be written is an error: every command that writes to
# standard output exits 1 when it is /dev/full (ENOSPC) or closed (EBADF),
# and says "writing standard output failed" with the errno text, once.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PT="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
CFG="$HWT_SOURCE_DIR/configs"
FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs"

check() { # NAME ARGS...: to /dev/full, then to a closed stdout
	local name=$1
	shift
	"$HWTRACE" "$@" > /dev/full 2> "$TMP/err"
	expect_eq "$name > /dev/full exit" "$?" 1
	expect_contains "$name > /dev/full says so" "$(cat "$TMP/err")" \
		"writing standard output failed: No space left on device"
	expect_eq "$name > /dev/full said once" \
		"$(grep -c 'writing standard output failed' "$TMP/err")" 1
	"$HWTRACE" "$@" >&- 2> "$TMP/err"
	expect_eq "$name >&- exit" "$?" 1
	expect_contains "$name >&- says so" "$(cat "$TMP/err")" \
		"writing standard output failed: Bad file descriptor"
	"$HWTRACE" "$@" > /dev/null 2> "$TMP/err"
	expect_eq "$name > /dev/null exit" "$?" 0
}

check dump dump "$PT"
check info info "$PT"
check list list --sysfs "$FIX/intel-client"
check "config check" config check "$CFG/intel_pt_full.ini" --sysfs "$FIX/intel-client"
check "decode text" decode "$PT"
check "decode jsonl" decode --format jsonl "$PT"
check "decode --packets" decode --packets "$PT"
check "--help" --help
finish
