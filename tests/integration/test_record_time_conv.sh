# hwtrace record hands the backend's AUXTRACE_INFO writer the session's
# facts (struct hwt_record_info_ctx): the time conversion of the AUX
# event's user page, and how context switches reach the file. On the
# emulated Intel machine with --emulate-tsc the kernel emulator's user
# pages say cap_user_time_zero with a 2 GHz TSC that started 5 s before
# CLOCK_MONOTONIC's zero (include/hwtrace/emulator.h), so by hand:
#   time_shift 31, time_mult = 2^31 * 1e9 / 2e9 = 1073741824,
#   time_zero = 2^64 - 5e9 = 18446744068709551616.
# perf report -D, the independent reader, prints them from both the
# AUXTRACE_INFO (intel_pt and intel_bts layouts) and TIME_CONV. perf 6.1
# spells "Muliplier" so.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client"
DAP="$HWT_TESTDATA/ptt/expected/dump-all-packets.pt"
SHIFT=31
MULT=1073741824
ZERO=18446744068709551616

if ! command -v perf > /dev/null; then
	fail "perf (linux-perf) is not installed: it is the independent reader"
	finish
fi

# The AUXTRACE_INFO block of perf report -D, spacing squeezed.
info_block() {
	perf report -D -i "$1" 2> /dev/null |
		awk '/PERF_RECORD_AUXTRACE_INFO/ { on = 1; next }
		     on && /^$/ { exit }
		     on' | tr -s ' '
}
conv_block() {
	perf report -D -i "$1" 2> /dev/null |
		awk '/PERF_RECORD_TIME_CONV/ { on = 1; next }
		     on && /^:/ { exit }
		     on' | tr -s ' '
}

# intel_pt on CPU 0, every task: CPU-wide switch records (3).
"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$DAP" --emulate-tsc \
	-e intel_pt// -C 0 -o "$TMP/pt.data" 2> "$TMP/err"
expect_eq "intel_pt record status" "$?" 0
info=$(info_block "$TMP/pt.data")
expect_contains "pt Time Shift" "$info" " Time Shift $SHIFT
"
expect_contains "pt Time Muliplier" "$info" " Time Muliplier $MULT
"
expect_contains "pt Time Zero" "$info" " Time Zero $ZERO
"
expect_contains "pt Cap Time Zero" "$info" " Cap Time Zero 1
"
expect_contains "pt Have sched_switch" "$info" " Have sched_switch 3
"
conv=$(conv_block "$TMP/pt.data")
expect_contains "TIME_CONV shift" "$conv" "... Time Shift $SHIFT"
expect_contains "TIME_CONV mult" "$conv" "... Time Muliplier $MULT"
expect_contains "TIME_CONV zero" "$conv" "... Time Zero $ZERO"

# intel_pt per thread: the thread's own switch records (2).
"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$DAP" --emulate-tsc \
	-e intel_pt// --per-thread -o "$TMP/ptt.data" 2> "$TMP/err"
expect_eq "per-thread record status" "$?" 0
info=$(info_block "$TMP/ptt.data")
expect_contains "per-thread Have sched_switch" "$info" " Have sched_switch 2
"
expect_contains "per-thread Time Zero" "$info" " Time Zero $ZERO
"

# intel_bts's layout (pmu type, shift, mult, zero, cap, snapshot).
"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$DAP" --emulate-tsc \
	-e intel_bts// --per-thread -o "$TMP/bts.data" 2> "$TMP/err"
expect_eq "intel_bts record status" "$?" 0
info=$(info_block "$TMP/bts.data")
expect_contains "bts Time Shift" "$info" " Time Shift $SHIFT
"
expect_contains "bts Time Muliplier" "$info" " Time Muliplier $MULT
"
expect_contains "bts Time Zero" "$info" " Time Zero $ZERO
"
expect_contains "bts Cap Time Zero" "$info" " Cap Time Zero 1
"

# Without --emulate-tsc the user page has no conversion: none is claimed
# and no TIME_CONV is written.
"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$DAP" \
	-e intel_pt// -C 0 -o "$TMP/none.data" 2> "$TMP/err"
expect_eq "no-TSC record status" "$?" 0
info=$(info_block "$TMP/none.data")
expect_contains "no-TSC Cap Time Zero" "$info" " Cap Time Zero 0
"
expect_contains "no-TSC Time Muliplier" "$info" " Time Muliplier 0
"
expect_eq "no-TSC TIME_CONV records" \
	"$(perf report -D -i "$TMP/none.data" 2> /dev/null | grep -c 'PERF_RECORD_TIME_CONV')" 0

"$HWTRACE" record --emulate-tsc -e intel_pt// -a -o "$TMP/x" 2> /dev/null
expect_eq "--emulate-tsc without --sysfs" "$?" 2

finish
