# What a command writes never destroys what the user had, for the cases
# that need a program traced by sw_branch (ptrace): the binary a capture
# names, which decode and export read, and a JIT's perf map, are refused
# as their -o, by identity; SIGHUP ends record -e sw_branch as SIGTERM does, with its
# summary and a complete file, and no temporary; a program that ignores
# SIGTERM is waited for, saying so, then killed after the grace period.
# Each case checks its exit status, its message, and that every file that
# was there is byte for byte as it was (test_output_safety.sh has the
# others).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
source "$HWT_SOURCE_DIR/tests/integration/output_rows.sh"
W="$TMP/w"
mkdir "$W" && cd "$W" || exit 1
cp "$HWT_BUILD_DIR/tests/programs/swb_demo" prog
STUBBORN="$HWT_BUILD_DIR/tests/programs/term_ignored"

row "record the program" 0 "wrote p.data" \
	"$HWTRACE" record -e sw_branch --start main --max 2000 -q -o p.data -- ./prog 10
# Positive control: the decode reads ./prog (it names main).
row "decode names the program's code" 0 "" "$HWTRACE" decode p.data -o d.txt
expect_contains "decode: symbols from ./prog" "$(cat d.txt)" "main"
rm -f d.txt
row "decode CAPTURE -o the program it names" 2 \
	"output prog is the input file $W/prog, which this command reads" \
	"$HWTRACE" decode p.data -o prog
row "export --replace -o the program" 2 "output prog is the input file" \
	"$HWTRACE" export --to sqlite --replace p.data -o prog
ln prog prog-link
row "decode -o a hard link to the program" 2 "output prog-link is the input file" \
	"$HWTRACE" decode p.data -o prog-link

# A JIT's perf-PID.map, read from --perf-map DIR: refused as -o too.
row "record the JIT program" 0 "wrote jit.data" \
	"$HWTRACE" record -e sw_branch --start jit_run --stop jit_done -q -o jit.data \
	-- "$HWT_BUILD_DIR/tests/programs/jit_path" "$W" 5
map=$(cd "$W" && ls perf-*.map 2>/dev/null | head -1)
expect_eq "the JIT program wrote its map" "$([ -n "$map" ] && echo yes)" yes
row "decode --perf-map DIR names the JIT code" 0 "" \
	"$HWTRACE" decode --perf-map "$W" jit.data -o jit.txt
expect_contains "decode: JIT symbols from the map" "$(cat jit.txt)" "jit_add_one"
rm -f jit.txt
row "decode --perf-map DIR -o the map" 2 "output $map is the input file" \
	"$HWTRACE" decode --perf-map "$W" jit.data -o "$map"

# start_record OUT PROG ARGS: hwtrace record in the background, once its
# program is stepped (hp: hwtrace's pid).
start_record() {
	local out=$1 i
	shift
	"$HWTRACE" record -e sw_branch --start main -o "$out" -- "$@" > /dev/null 2> "$TMP/rec.err" &
	hp=$!
	# Stepping has begun once the tracer (hwtrace's child) has a child.
	for ((i = 0; i < 100; i++)); do
		[ -n "$(pgrep -P "$(pgrep -P "$hp" | head -1)" 2>/dev/null)" ] && break
		sleep 0.1
	done
	sleep 1
}

# SIGHUP (the terminal went away) stops the capture as SIGTERM does.
echo "an older capture" > hup.data
start_record hup.data "$HWT_BUILD_DIR/tests/programs/swb_demo" 10000000
kill -HUP "$hp"
wait "$hp"
expect_eq "SIGHUP: exit status" "$?" 0
expect_contains "SIGHUP: summary" "$(cat "$TMP/rec.err")" "stopped by a signal"
expect_contains "SIGHUP: wrote" "$(cat "$TMP/rec.err")" "hwtrace record: wrote hup.data"
"$HWTRACE" info hup.data > /dev/null 2>&1
expect_eq "SIGHUP: the capture is complete" "$?" 0
expect_eq "SIGHUP: no temporary left" "$(find "$W" -name '*.tmp.*' | wc -l)" 0

# One SIGTERM to a program that ignores it: hwtrace says it waits, kills
# it after the grace period (HWT_TERM_GRACE_MS, 2 s), and writes the
# capture.
start_record stubborn.data "$STUBBORN"
t0=$(date +%s%N)
kill -TERM "$hp"
for ((i = 0; i < 300; i++)); do
	[ -d "/proc/$hp" ] || break
	sleep 0.1
done
if [ -d "/proc/$hp" ]; then
	rc="still running after 30 s"
	for p in $(pgrep -P "$hp"); do
		pkill -KILL -P "$p"
		kill -KILL "$p"
	done
	kill -KILL "$hp"
	wait "$hp"
else
	wait "$hp"
	rc=$?
fi
ms=$((($(date +%s%N) - t0) / 1000000))
expect_eq "one SIGTERM, program ignores it: exit status" "$rc" 0
expect_contains "says it waits" "$(cat "$TMP/rec.err")" "waiting for program"
expect_contains "says it killed" "$(cat "$TMP/rec.err")" "killed with SIGKILL"
expect_eq "ended after the grace period, within 10 s" \
	"$([ "$ms" -ge 2000 ] && [ "$ms" -lt 10000 ] && echo yes)" yes
"$HWTRACE" info stubborn.data > /dev/null 2>&1
expect_eq "the stubborn program's capture reads" "$?" 0
expect_eq "no temporary left" "$(find "$W" -name '*.tmp.*' | wc -l)" 0
finish
