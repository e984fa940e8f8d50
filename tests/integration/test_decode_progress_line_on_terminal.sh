#!/bin/bash
# hwtrace decode's progress line: run on a pseudo-terminal (script(1)),
# with HWTRACE_PROGRESS_AFTER=0 so that the quipper capture's short decode
# counts as long, standard error shows "X of Y MB of trace decoded" and
# erases it before the summary; the elements written are the same as
# without a terminal. No line when standard error is a file, with
# --quiet, when the elements go to the terminal, or (at the default two
# seconds) for a decode that short.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"

DATA=$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14
# The capture's two AUX buffers hold 149018 bytes: 0.1 MB.
LINE="hwtrace decode: 0.0 of 0.1 MB of trace decoded (0%)"
ESC=$(printf '\033')
CR=$(printf '\r')

# on_tty ENV... -- ARGS: hwtrace decode ARGS on a pseudo-terminal, its
# terminal's bytes (stdout and stderr) in $TMP/tty.
on_tty() {
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	local cmd
	cmd=$(printf '%q ' env "${env[@]}" "$HWTRACE" decode "$@")
	script -q -e -c "$cmd" "$TMP/typescript" </dev/null >"$TMP/tty" 2>&1
}

"$HWTRACE" decode "$DATA" -o "$TMP/plain.txt" 2>"$TMP/plain.err"
expect_eq "decode without a terminal exit" "$?" 0

on_tty HWTRACE_PROGRESS_AFTER=0 -- "$DATA" -o "$TMP/tty.txt"
expect_eq "decode on a terminal exit" "$?" 0
tty_out=$(cat "$TMP/tty")
expect_contains "progress line on the terminal" "$tty_out" "${CR}${ESC}[K$LINE"
# The line is erased, then the next message (the symbol warnings of the
# user code the packets name) is written where it was; the summary comes
# on a line of its own, not after a progress line.
expect_contains "line erased before the next message" "$tty_out" \
	"left${CR}${ESC}[Khwtrace decode: /lib64/ld-2.23.so: not found"
expect_contains "the summary on a line of its own" "$tty_out" \
	"no symbols${CR}
hwtrace decode: 0 ranges"
cmp -s "$TMP/plain.txt" "$TMP/tty.txt"
expect_eq "elements the same with the progress line" "$?" 0

on_tty HWTRACE_PROGRESS_AFTER=0 -- --quiet "$DATA" -o "$TMP/q.txt"
expect_eq "--quiet exit" "$?" 0
case $(cat "$TMP/tty") in
*"of trace decoded"*) fail "--quiet shows a progress line" ;;
*) checks=$((checks + 1)) ;;
esac
cmp -s "$TMP/plain.txt" "$TMP/q.txt"
expect_eq "elements the same with --quiet" "$?" 0

# Elements to the terminal: they show the progress themselves.
on_tty HWTRACE_PROGRESS_AFTER=0 -- "$DATA"
case $(cat "$TMP/tty") in
*"of trace decoded"*) fail "progress line among elements on the terminal" ;;
*) checks=$((checks + 1)) ;;
esac

# The default: a decode this short never shows a line.
on_tty -- "$DATA" -o "$TMP/d.txt"
case $(cat "$TMP/tty") in
*"of trace decoded"*) fail "a 0.03 s decode shows a progress line" ;;
*) checks=$((checks + 1)) ;;
esac

# Standard error a file: never, whatever the delay.
HWTRACE_PROGRESS_AFTER=0 "$HWTRACE" decode "$DATA" -o "$TMP/f.txt" 2>"$TMP/f.err"
expect_eq "stderr to a file exit" "$?" 0
expect_eq "stderr to a file: the same messages as without the variable" \
	"$(cat "$TMP/f.err")" "$(cat "$TMP/plain.err")"

finish
