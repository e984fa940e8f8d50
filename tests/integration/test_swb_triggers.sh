# The sw_branch flight recorder's triggers on real programs, against what
# the programs say of themselves: slow_calls prints which 7 of its 1000
# calls of slow() sleep, crash_chain dies of SIGSEGV in inner() called
# from main -> outer -> middle, and each window is a capture of its own
# that hwtrace decode (and perf, where it is installed) reads.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"

# info_value FILE KEY: the value of KEY in the window's trigger lines.
info_value() {
	"$HWTRACE" info "$1" | sed -n "s/^  $2: //p"
}

# The call stack at the end of a window's jsonl decode: each call pushes
# its target, each return pops (a return past the window's start is
# left out), printed innermost last.
last_stack() {
	"$HWTRACE" decode --format jsonl "$1" 2>/dev/null | awk '
		/"type":"branch"/ && /"kind":"call"/ {
			s = $0; sub(/.*"to_sym":"/, "", s); sub(/".*/, "", s)
			stack[++n] = s
		}
		/"type":"branch"/ && /"kind":"return"/ { if (n) n-- }
		END { for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), stack[i] }'
}

# --- latency: exactly the calls the program says are slow. ---
cd "$TMP"
"$HWTRACE" record -e sw_branch --snapshot --trigger 'latency:slow>5ms' \
	--start main -o "$TMP/lat" -- "$PROGS/slow_calls" >"$TMP/lat.out" 2>"$TMP/lat.err"
expect_eq "latency record exit" "$?" 0
expect_contains "calls seen and fired" "$(cat "$TMP/lat.err")" \
	"trigger latency:slow>5ms: 1000 calls seen, 7 fired"
want=$(sed -n 's/^slow call //p' "$TMP/lat.out" | tr '\n' ' ')
expect_eq "the program's slow calls" "$(echo "$want" | wc -w)" 7
got=""
for i in 1 2 3 4 5 6 7; do
	f="$TMP/lat.$i"
	got="$got$(info_value "$f" entry) "
	expect_eq "window $i: its number" "$(info_value "$f" window)" "$i"
	expect_eq "window $i: whole call" "$(info_value "$f" whole_call)" yes
	d=$(info_value "$f" duration_ns)
	expect_eq "window $i: longer than 5 ms ($d ns)" "$([ "${d:-0}" -gt 5000000 ] && echo yes)" yes
	# The window holds the call: the last entry of slow, then its return
	# (the window's last branch, where the trigger fired), and the sleep
	# between them.
	"$HWTRACE" decode --format jsonl "$f" >"$TMP/lat.jsonl" 2>/dev/null
	expect_eq "window $i: ends with slow's return" \
		"$(grep '"type":"branch"' "$TMP/lat.jsonl" | tail -1 |
		   grep -c '"kind":"return".*"from_sym":"slow"')" 1
	expect_eq "window $i: slow's entry, the sleep, then its return" \
		"$(grep '"type":"branch"' "$TMP/lat.jsonl" | awk '
			/"kind":"call"/ && /"to_sym":"slow"/ { state = 1 }
			state == 1 && /"to_sym":"(__)?nanosleep/ { state = 2 }
			state == 2 && /"kind":"return"/ && /"from_sym":"slow"/ { state = 3 }
			END { print state }')" 3
	expect_eq "window $i: no gaps" "$(grep -c '"type":"gap"' "$TMP/lat.jsonl")" 0
done
expect_eq "the windows' calls are the slow ones" "$got" "$want"
expect_eq "no eighth window" "$(ls "$TMP"/lat.* | grep -c 'lat\.[0-9]*$')" 7
if command -v perf >/dev/null 2>&1; then
	# perf shows the stream's first record {0, main} as a branch from 0;
	# hwtrace decode, as the trace's start (trace_on).
	expect_eq "perf script reads a window: as many branches as decode" \
		"$(perf script --itrace=b -i "$TMP/lat.4" 2>/dev/null | grep 'branches' |
		   grep -vc ' 0 \[unknown\]')" \
		"$("$HWTRACE" decode --format jsonl "$TMP/lat.4" 2>/dev/null | grep -c '"type":"branch"')"
else
	echo "SKIP part: perf script on a window: perf is not installed" >&2
	skipped_parts=$((skipped_parts + 1))
fi

# --- symbol: three windows, each ending at one more entry of slow. ---
"$HWTRACE" record -e sw_branch --snapshot --trigger symbol:slow --trigger-count 3 \
	--start main -q -o "$TMP/sym" -- "$PROGS/slow_calls" 2>"$TMP/sym.err"
expect_eq "symbol record exit" "$?" 0
expect_contains "entries and windows" "$(cat "$TMP/sym.err")" \
	"trigger symbol:slow: 3 entries seen, 3 fired"
expect_eq "three windows" "$(ls "$TMP"/sym.* | grep -c 'sym\.[0-9]*$')" 3
for i in 1 2 3; do
	f="$TMP/sym.$i"
	expect_eq "window $i: entry" "$(info_value "$f" entry)" "$i"
	"$HWTRACE" decode --format jsonl "$f" >"$TMP/sym.jsonl" 2>/dev/null
	expect_eq "window $i: its last branch enters slow" \
		"$(grep '"type":"branch"' "$TMP/sym.jsonl" | tail -1 |
		   grep -c '"kind":"call".*"to_sym":"slow","to_symoff":0')" 1
	expect_eq "window $i: $i calls of slow" \
		"$(grep '"type":"branch"' "$TMP/sym.jsonl" | grep '"kind":"call"' |
		   grep -c '"to_sym":"slow"')" "$i"
done

# --- --trigger-after: no window in the first 300 ms of tracing (the
# symbol windows above, without it, fire at the first entry). ---
"$HWTRACE" record -e sw_branch --snapshot --trigger symbol:slow --trigger-after 300ms \
	--start main -q -o "$TMP/late" -- "$PROGS/slow_calls" 2>/dev/null
fired_at=$(info_value "$TMP/late.1" time)
began=$("$HWTRACE" decode --format jsonl "$TMP/late.1" 2>/dev/null |
	sed -n '/"type":"trace_on"/{s/.*"time":\([0-9]*\).*/\1/p;q}')
expect_eq "--trigger-after: a later entry ($(info_value "$TMP/late.1" entry))" \
	"$([ "$(info_value "$TMP/late.1" entry)" -gt 1 ] && echo yes)" yes
expect_eq "--trigger-after: 300 ms after tracing began ($((fired_at - began)) ns)" \
	"$([ $((fired_at - began)) -ge 300000000 ] && echo yes)" yes
"$HWTRACE" record -e sw_branch --snapshot --trigger symbol:slow --trigger-after 5 \
	-- "$PROGS/slow_calls" 2>"$TMP/err"
expect_eq "--trigger-after without a unit exit" "$?" 2

# --- how much is kept: N records (--snapshot=N, [snapshot] size in
# bytes), each window one AUXTRACE buffer of N records and the padding
# record; the profile gives trigger and count too. ---
per_thread() {
	"$HWTRACE" info "$1" | sed -n 's/^  per-thread: \([0-9]*\) bytes in 1 buffers$/\1/p'
}
"$HWTRACE" record -e sw_branch --snapshot=10 --trigger symbol:slow --trigger-count 3 \
	--start main -q -o "$TMP/ten" -- "$PROGS/slow_calls" 2>/dev/null
expect_eq "--snapshot=10: 10 records and the padding" "$(per_thread "$TMP/ten.3")" $((11 * 24))
# (by the 20th entry of slow, main has made more than 42 branches)
"$HWTRACE" record -e sw_branch --snapshot=1K --trigger symbol:slow --trigger-count 20 \
	--start main -q -o "$TMP/kib" -- "$PROGS/slow_calls" 2>/dev/null
expect_eq "--snapshot=1K: 42 whole records" "$(per_thread "$TMP/kib.20")" $((43 * 24))
printf '[snapshot]\ntrigger = symbol:slow\ntrigger_count = 3\nsize = 240\n' >"$TMP/fr.ini"
"$HWTRACE" record -e sw_branch -c "$TMP/fr.ini" --start main -q -o "$TMP/ini" \
	-- "$PROGS/slow_calls" 2>"$TMP/ini.err"
expect_contains "the profile's trigger and count" "$(cat "$TMP/ini.err")" \
	"trigger symbol:slow: 3 entries seen, 3 fired"
expect_eq "the profile's size: 10 records" "$(per_thread "$TMP/ini.3")" $((11 * 24))
printf '[snapshot]\ntrigger = latency:slow\n' >"$TMP/bad.ini"
"$HWTRACE" record -e sw_branch -c "$TMP/bad.ini" -q -o "$TMP/bad" -- "$PROGS/slow_calls" \
	2>"$TMP/err"
expect_eq "a bad profile trigger exit" "$?" 2
expect_contains "a bad profile trigger named" "$(cat "$TMP/err")" \
	"bad.ini: [snapshot] trigger: "

# --- signal: the last window before the crash, then the crash. ---
( "$PROGS/crash_chain" ) >/dev/null 2>&1
untraced=$?
"$HWTRACE" record -e sw_branch --snapshot --trigger signal:SIGSEGV,SIGABRT \
	--start main -q -o "$TMP/crash" -- "$PROGS/crash_chain" 2>"$TMP/crash.err"
expect_eq "signal record exit" "$?" 0
expect_eq "untraced, the program dies of SIGSEGV" "$untraced" $((128 + 11))
expect_contains "traced, it dies of SIGSEGV too" "$(cat "$TMP/crash.err")" \
	"the program was killed by signal 11"
expect_eq "one window" "$(ls "$TMP"/crash.* | grep -c 'crash\.[0-9]*$')" 1
expect_eq "the window names the signal" "$(info_value "$TMP/crash.1" signal)" SIGSEGV
expect_eq "the window's last call stack" "$(last_stack "$TMP/crash.1")" \
	"outer middle inner"
"$HWTRACE" record -e sw_branch --snapshot --trigger signal:SIGABRT \
	--start main -q -o "$TMP/nocrash" -- "$PROGS/crash_chain" 2>"$TMP/nocrash.err"
expect_contains "another signal: no window" "$(cat "$TMP/nocrash.err")" \
	"no window written"
expect_eq "another signal: no file" "$(ls "$TMP" | grep -c '^nocrash\.[0-9]')" 0

# --- errors ---
"$HWTRACE" record -e sw_branch --snapshot --trigger symbol:slwo --start main \
	-o "$TMP/typo" -- "$PROGS/slow_calls" >/dev/null 2>"$TMP/err"
expect_eq "missing symbol exit" "$?" 1
expect_contains "missing symbol named, with did you mean" "$(cat "$TMP/err")" \
	"symbol 'slwo' is in neither"
expect_contains "did you mean" "$(cat "$TMP/err")" "did you mean 'slow'?"
"$HWTRACE" record -e sw_branch --snapshot --trigger 'latency:slow>5' \
	-- "$PROGS/slow_calls" 2>"$TMP/err"
expect_eq "duration without unit exit" "$?" 2
expect_contains "duration without unit" "$(cat "$TMP/err")" "with a unit"
"$HWTRACE" record -e sw_branch --snapshot --trigger signal:SIGCHLD \
	-- "$PROGS/slow_calls" 2>"$TMP/err"
expect_eq "non-fatal signal exit" "$?" 2
"$HWTRACE" record -e sw_branch --snapshot -- "$PROGS/slow_calls" 2>"$TMP/err"
expect_eq "--snapshot without --trigger exit" "$?" 2
"$HWTRACE" record -e sw_branch --trigger symbol:slow -- "$PROGS/slow_calls" 2>"$TMP/err"
expect_eq "--trigger without --snapshot exit" "$?" 2

# --- Ctrl-C while waiting: the windows written stay, nothing else. ---
# ticker calls tick() every 20 ms for 20 s; the first window is written
# at its first entry, the later ones (one per entry) until the stop.
"$HWTRACE" record -e sw_branch --snapshot --trigger symbol:tick \
	--trigger-count 1000 --start main -q -o "$TMP/int" -- "$PROGS/ticker" 1000 \
	2>"$TMP/int.err" &
hp=$!
for _ in $(seq 100); do
	[ -e "$TMP/int.2" ] && break
	sleep 0.1
done
kill -INT "$hp"
wait "$hp"
expect_eq "interrupted record exit" "$?" 0
n=$(ls "$TMP" | grep -c '^int\.[0-9]*$')
expect_eq "windows before the stop ($n)" "$([ "$n" -ge 2 ] && echo yes)" yes
expect_eq "no temporary left" "$(ls "$TMP" | grep -c '^int.*tmp')" 0
ok=0
for f in "$TMP"/int.[0-9]*; do
	"$HWTRACE" info "$f" >/dev/null 2>&1 && ! "$HWTRACE" info "$f" | grep -q 'cut short' &&
		ok=$((ok + 1))
done
expect_eq "every window complete" "$ok" "$n"
"$HWTRACE" record -e sw_branch --snapshot --trigger 'latency:tick>60s' \
	--start main -q -o "$TMP/none" -- "$PROGS/ticker" 1000 2>"$TMP/none.err" &
hp=$!
sleep 1
kill -INT "$hp"
wait "$hp"
expect_eq "interrupted before any window: exit" "$?" 0
expect_contains "says so" "$(cat "$TMP/none.err")" "no window written"
expect_eq "interrupted before any window: no file" "$(ls "$TMP" | grep -c '^none\.[0-9]')" 0
finish
