# A signal stops hwtrace record -e sw_branch cleanly: SIGTERM (and Ctrl-C on
# a terminal) ends stepping, the program gets SIGTERM, the capture is
# written complete with its summary, and neither the tracer nor the traced
# program outlives hwtrace. A program that ignores SIGTERM is killed by a
# second request; SIGKILL of hwtrace takes its tracer and program along
# and leaves -o untouched. Every wait is bounded.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
DEMO="$HWT_BUILD_DIR/tests/programs/swb_demo"
STUBBORN="$HWT_BUILD_DIR/tests/programs/term_ignored"
cd "$TMP" || exit 1
pids_to_reap=""
cleanup() { for p in $pids_to_reap; do kill -9 "$p" 2>/dev/null; done; rm -rf "$TMP"; }
trap cleanup EXIT

# wait_gone PID SECONDS: 0 once PID has ended (a zombie counts as ended).
wait_gone() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[ -d "/proc/$1" ] || return 0
		[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ] && return 0
		sleep 0.1
	done
	return 1
}

# start_record OUT PROG ARGS: runs hwtrace (with $START's options) in the
# background and waits for its tracer and the traced program; sets hp,
# tracer, tracee.
START=""
start_record() {
	local out=$1 i
	shift
	"$HWTRACE" record -e sw_branch $START -o "$out" -- "$@" > /dev/null 2> "$out.err" &
	hp=$!
	tracer="" tracee=""
	for ((i = 0; i < 100; i++)); do
		[ -n "$tracee" ] && break
		sleep 0.1
		tracer=$(pgrep -P "$hp" | head -1)
		[ -n "$tracer" ] && tracee=$(pgrep -P "$tracer" | head -1)
	done
	pids_to_reap="$pids_to_reap $hp $tracer $tracee"
	sleep 2 # stepping
}

# wait_exit: sets rc to hwtrace's exit status, or "still running" after
# 30 s.
wait_exit() {
	if wait_gone "$hp" 30; then
		wait "$hp"
		rc=$?
	else
		rc="still running"
	fi
}

# The command of the report: SIGTERM while stepping.
start_record term.data "$DEMO" 10000000
expect_eq "tracer and program started" "$([ -n "$tracer" ] && [ -n "$tracee" ] && echo yes)" yes
kill -TERM "$hp"
wait_exit
expect_eq "SIGTERM: hwtrace exit" "$rc" 0
wait_gone "$tracer" 5
expect_eq "SIGTERM: tracer $tracer gone" "$?" 0
wait_gone "$tracee" 5
expect_eq "SIGTERM: traced program $tracee gone" "$?" 0
expect_contains "SIGTERM: summary" "$(cat term.data.err)" "stopped by a signal"
expect_contains "SIGTERM: per-thread counters" "$(cat term.data.err)" "bytes captured in"
expect_contains "SIGTERM: wrote" "$(cat term.data.err)" "hwtrace record: wrote term.data"
"$HWTRACE" info term.data > info.txt 2>&1
expect_eq "SIGTERM: hwtrace info reads it" "$?" 0
expect_contains "SIGTERM: feature sections written" "$(cat info.txt)" "cmdline:     $DEMO 10000000"
perf report -D -i term.data > report.txt 2>&1
expect_eq "SIGTERM: perf report -D reads it" "$?" 0
expect_contains "SIGTERM: perf sees the trace" "$(cat report.txt)" "PERF_RECORD_AUXTRACE size"
"$HWTRACE" decode term.data > /dev/null 2> decode.txt
expect_eq "SIGTERM: it decodes" "$?" 0

# A program that ignores SIGTERM: the first request ends tracing and the
# program runs on; the second kills it at once.
START="--start main" start_record stubborn.data "$STUBBORN"
kill -TERM "$hp"
sleep 1
expect_eq "one request: hwtrace waits for the program" "$([ -d "/proc/$hp" ] && echo running)" running
kill -TERM "$hp"
wait_exit
expect_eq "second request: hwtrace exit" "$rc" 0
wait_gone "$tracee" 5
expect_eq "second request: program $tracee gone" "$?" 0
wait_gone "$tracer" 5
expect_eq "second request: tracer $tracer gone" "$?" 0
"$HWTRACE" info stubborn.data > /dev/null 2>&1
expect_eq "second request: the capture reads" "$?" 0

# Ctrl-C on a terminal: the whole foreground group gets SIGINT.
(sleep 3; printf '\003'; sleep 10) | timeout 40 script -qec \
	"'$HWTRACE' record -e sw_branch -o int.data -- '$DEMO' 10000000" /dev/null > tty.txt 2>&1
expect_contains "Ctrl-C: summary" "$(cat tty.txt)" "hwtrace record: wrote int.data"
"$HWTRACE" info int.data > /dev/null 2>&1
expect_eq "Ctrl-C: the capture reads" "$?" 0
expect_eq "Ctrl-C: no traced program left" "$(pgrep -f "$DEMO 10000000" | wc -l)" 0

# The emulated machine (--emulate at 0.05 MB/s: seconds of replay) stops
# the same way.
"$HWTRACE" record --emulate "$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14" \
	--emulate-rate 0.05 -o emu.data 2> emu.err &
hp=$!
pids_to_reap="$pids_to_reap $hp"
sleep 1
kill -TERM "$hp"
wait_exit
expect_eq "--emulate SIGTERM: exit" "$rc" 0
expect_contains "--emulate SIGTERM: summary" "$(cat emu.err)" "hwtrace record: per CPU:"
expect_contains "--emulate SIGTERM: wrote" "$(cat emu.err)" "hwtrace record: wrote emu.data"
perf report -D -i emu.data > /dev/null 2>&1
expect_eq "--emulate SIGTERM: perf report -D reads it" "$?" 0

# SIGKILL: nothing to write, nothing left running, -o untouched.
echo "old" > kill.data
start_record kill.data "$DEMO" 10000000
kill -KILL "$hp"
wait "$hp" 2>/dev/null
wait_gone "$tracer" 5
expect_eq "SIGKILL: tracer $tracer gone" "$?" 0
wait_gone "$tracee" 5
expect_eq "SIGKILL: traced program $tracee gone" "$?" 0
expect_eq "SIGKILL: -o untouched" "$(head -c 16 kill.data | tr -cd '[:print:]')" "old"
finish
