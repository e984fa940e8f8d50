# Snapshot mode through the kernel emulator: at exit (-Se), on a period,
# on SIGUSR2 and on the control FIFO's `snapshot` (acknowledged as perf
# does), and `stop`/Ctrl-C end the capture with a complete file.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

PT="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"

snapshots() { # FILE CPU
	grep "cpu $2:" "$1" | sed -E 's/.* ([0-9]+) snapshots.*/\1/'
}

aux_bytes "$PT" > "$TMP/want"

# Waits for a background capture; kills it (and fails) after 15 s.
wait_capture() {
	for _ in $(seq 75); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -9 "$1"
		fail "the capture did not end"
	fi
	wait "$1"
}

# -Se: one snapshot when the replay ends. cpu 0's 12,240 bytes fit the
# 64 KiB (16-page) buffer; cpu 3's 137,728 wrapped it, so the snapshot is
# the newest 65,536 bytes of its stream.
"$HWTRACE" record --emulate "$PT" -Se -o "$TMP/se.data" 2> "$TMP/err"
expect_eq "-Se exit status" "$?" 0
expect_contains "-Se cpu 0" "$(cat "$TMP/err")" "cpu 0: 12240 bytes captured in 1 chunks"
expect_contains "-Se cpu 3" "$(cat "$TMP/err")" "cpu 3: 65536 bytes captured in 1 chunks"
expect_contains "-Se cpu 3 wrapped" "$(cat "$TMP/err")" "1 snapshots (1 wrapped)"
aux_bytes "$TMP/se.data" > "$TMP/got"
expect_eq "cpu 0 snapshot is the whole stream" \
	"$(cmp -s <(grep '^0 ' "$TMP/want") <(grep '^0 ' "$TMP/got") && echo same)" same
expect_eq "cpu 3 snapshot is the newest 64 KiB" \
	"$(cmp -s <(grep '^3 ' "$TMP/want" | tail -n 65536) <(grep '^3 ' "$TMP/got") && echo same)" same

# -Se4096: the same, keeping the newest 4096 bytes of each copy.
"$HWTRACE" record --emulate "$PT" -Se4096 -o "$TMP/se4k.data" 2> "$TMP/err"
expect_eq "-Se4096 exit status" "$?" 0
expect_contains "-Se4096 cpu 3" "$(cat "$TMP/err")" "cpu 3: 4096 bytes captured in 1 chunks"
aux_bytes "$TMP/se4k.data" > "$TMP/got"
expect_eq "cpu 3 snapshot is the newest 4096 bytes" \
	"$(cmp -s <(grep '^3 ' "$TMP/want" | tail -n 4096) <(grep '^3 ' "$TMP/got") && echo same)" same

# A period: 137,728 bytes at 0.3 MB/s last about 0.46 s: several snapshots.
"$HWTRACE" record --emulate "$PT" -S --snapshot-interval 100 \
	--emulate-rate 0.3 -o "$TMP/iv.data" 2> "$TMP/err"
expect_eq "interval exit status" "$?" 0
n=$(snapshots "$TMP/err" 3)
expect_eq "several periodic snapshots ($n)" "$([ "$n" -ge 2 ] && echo yes)" yes

# SIGUSR2, then Ctrl-C (SIGINT) before the replay (about 1.4 s) ends.
"$HWTRACE" record --emulate "$PT" -S --emulate-rate 0.1 -o "$TMP/sig.data" \
	2> "$TMP/err" &
pid=$!
# Time from when the capture opened its file, not from the start of the
# process (a slow start, as under qemu-user, would otherwise eat the 0.4 s).
# (It is written beside its name and renamed into place at the end.)
for _ in $(seq 100); do
	ls "$TMP"/sig.data.tmp.* >/dev/null 2>&1 && break
	sleep 0.1
done
sleep 0.4
kill -USR2 $pid
sleep 0.3
kill -INT $pid
wait_capture $pid
expect_eq "SIGUSR2/SIGINT exit status" "$?" 0
expect_eq "one snapshot on SIGUSR2" "$(snapshots "$TMP/err" 3)" 1
expect_contains "file written" "$(cat "$TMP/err")" "wrote $TMP/sig.data"
expect_eq "perf reads the file" \
	"$(perf script -D -i "$TMP/sig.data" 2>/dev/null | grep -c 'PERF_RECORD_AUXTRACE ')" 2

# The control FIFO: snapshot, ack, stop, ack.
mkfifo "$TMP/ctl" "$TMP/ack"
"$HWTRACE" record --emulate "$PT" -S --emulate-rate 0.1 \
	--control "fifo:$TMP/ctl,$TMP/ack" -o "$TMP/fifo.data" 2> "$TMP/err" &
pid=$!
exec 7<>"$TMP/ack"
sleep 0.3
# A FIFO write blocks until there is a reader: never wait forever.
send() { timeout 5 sh -c "echo $1 > '$TMP/ctl'" || fail "could not send $1"; }
a1= a2=
send snapshot
read -r -t 5 a1 <&7
send stop
read -r -t 5 a2 <&7
wait_capture $pid
expect_eq "control exit status" "$?" 0
expect_eq "ack after snapshot" "$a1" ack
expect_eq "ack after stop" "$a2" ack
expect_eq "one snapshot by the FIFO" "$(snapshots "$TMP/err" 3)" 1
exec 7<&-

"$HWTRACE" record --emulate "$PT" --control "pipe:x" -o "$TMP/x" 2> "$TMP/err"
expect_eq "bad --control" "$?" 2
expect_contains "bad --control message" "$(cat "$TMP/err")" "expected fifo:CTL[,ACK]"

finish
