# hwtrace record -e sw_branch -p PID: attached to a running program (two
# threads taking turns to print numbered lines), traced for about a
# second, detached on Ctrl-C. The program goes on: it prints every line,
# in order, and exits 0, as it does untraced; the capture holds both
# threads' calls of tick(), and decodes without errors or gaps.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
TICKER="$HWT_BUILD_DIR/tests/programs/ticker"

# wait_lines FILE N: until FILE has N lines (at most 10 s).
wait_lines() {
	for _ in $(seq 100); do
		[ "$(wc -l <"$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# The line numbers the program printed, on one line.
numbers() {
	awk '{ printf "%s ", $2 }' "$1"
}

"$TICKER" 150 >"$TMP/untraced.out"
expect_eq "untraced exit" "$?" 0
want=$(numbers "$TMP/untraced.out")
expect_eq "untraced: 150 lines in order" "$want" "$(seq -s ' ' 1 150) "

# --- the whole capture, on a stop request ---
"$TICKER" 150 >"$TMP/full.out" &
tp=$!
wait_lines "$TMP/full.out" 5
tids=$(ls /proc/$tp/task | sort -n | tr '\n' ' ')
"$HWTRACE" record -e sw_branch -p "$tp" -o "$TMP/full.data" 2>"$TMP/full.err" &
hp=$!
sleep 1
kill -INT "$hp"
wait "$hp"
expect_eq "record exit" "$?" 0
wait "$tp"
expect_eq "the program's exit after detach" "$?" 0
expect_eq "its output unchanged" "$(numbers "$TMP/full.out")" "$want"
expect_contains "detached, said so" "$(cat "$TMP/full.err")" \
	"detached from process $tp: it runs on"
"$HWTRACE" decode --format jsonl "$TMP/full.data" >"$TMP/full.jsonl" 2>/dev/null
expect_eq "both threads traced" \
	"$(sed -n 's/.*"tid":\([0-9]*\).*/\1/p' "$TMP/full.jsonl" | sort -nu | tr '\n' ' ')" "$tids"
for t in $tids; do
	expect_eq "thread $t calls tick" "$(grep "\"tid\":$t," "$TMP/full.jsonl" |
		grep '"kind":"call"' | grep -c '"to_sym":"tick"' | awk '{ print ($1 > 0) }')" 1
done
expect_eq "no errors" "$(grep -c '"type":"error"' "$TMP/full.jsonl")" 0
expect_eq "no gaps" "$(grep -c '"type":"gap"' "$TMP/full.jsonl")" 0

# --- the flight recorder attached: a window at tick's entry, then detach ---
"$TICKER" 150 >"$TMP/snap.out" &
tp=$!
wait_lines "$TMP/snap.out" 5
"$HWTRACE" record -e sw_branch -p "$tp" --snapshot --trigger symbol:tick \
	-o "$TMP/snap" 2>"$TMP/snap.err"
expect_eq "snapshot record exit" "$?" 0
wait "$tp"
expect_eq "the program's exit after the window" "$?" 0
expect_eq "its output unchanged" "$(numbers "$TMP/snap.out")" "$want"
expect_eq "one window" "$(ls "$TMP" | grep -c '^snap\.[0-9]')" 1
expect_eq "the window ends entering tick" \
	"$("$HWTRACE" decode --format jsonl "$TMP/snap.1" 2>/dev/null |
	   grep '"type":"branch"' | tail -1 | grep -c '"kind":"call".*"to_sym":"tick"')" 1

# --- one thread: --tid ---
"$TICKER" 150 >"$TMP/tid.out" &
tp=$!
wait_lines "$TMP/tid.out" 5
second=$(ls /proc/$tp/task | sort -n | sed -n 2p)
"$HWTRACE" record -e sw_branch --tid "$second" -o "$TMP/tid.data" 2>"$TMP/tid.err" &
hp=$!
sleep 0.5
kill -INT "$hp"
wait "$hp"
expect_eq "--tid record exit" "$?" 0
wait "$tp"
expect_eq "--tid: the program's exit" "$?" 0
expect_eq "--tid: its output unchanged" "$(numbers "$TMP/tid.out")" "$want"
expect_eq "--tid: that thread alone" \
	"$("$HWTRACE" decode --format jsonl "$TMP/tid.data" 2>/dev/null |
	   sed -n 's/.*"tid":\([0-9]*\).*/\1/p' | sort -nu | tr '\n' ' ')" "$second "

# --- errors ---
"$HWTRACE" record -e sw_branch -p 12ab -o "$TMP/x.data" 2>"$TMP/err"
expect_eq "bad pid exit" "$?" 2
"$HWTRACE" record -e sw_branch -p 4194304 -o "$TMP/x.data" 2>"$TMP/err"
expect_eq "no such process exit" "$?" 1
expect_contains "no such process named" "$(cat "$TMP/err")" "no process 4194304"
"$HWTRACE" record -e sw_branch -p $$ -o "$TMP/x.data" -- "$TICKER" 2>"$TMP/err"
expect_eq "-p and a command exit" "$?" 2
# (refused before anything is attached: this shell is never stopped)
"$HWTRACE" record -e sw_branch -p $$ --start main -o "$TMP/x.data" 2>"$TMP/err"
expect_eq "-p with --start exit" "$?" 2
expect_contains "-p with --start" "$(cat "$TMP/err")" "--start and 'filter' do not apply"
expect_eq "nothing written on errors" "$(ls "$TMP" | grep -c '^x\.data')" 0
finish
