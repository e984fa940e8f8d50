# hwtrace record --aux-sample on an emulated Intel machine (the intel-client
# sysfs fixture) whose trace unit writes libipt's psb-tnt-psb stream (59
# bytes): the emulated cycles event counts trace bytes, so with period 8
# there are samples at 8, 16, ..., 56 bytes, each carrying all the bytes
# before it (less than the 64 asked for). hwtrace decodes every one,
# reporting the windows without a sync point; perf script reads the file
# and shows the same samples; BTS, whose PMU cannot serve AUX samples, is
# refused before anything is opened.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

FX="$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client"
PT="$HWT_TESTDATA/ptt/expected/psb-tnt-psb.pt"

"$HWTRACE" record --sysfs "$FX" --emulate-trace "$PT" -C 0 --aux-sample=64 \
	-e intel_pt// -e cycles/period=8/ -o "$TMP/s.data" 2> "$TMP/err"
expect_eq "record exit status" "$?" 0
# psb_period 0 (the fixture's default): a PSB every 2 KiB, and perf warns
# for sizes up to 2048 + 256.
expect_contains "PSB warning" "$(cat "$TMP/err")" \
	"AUX sample size 64 may be too small for the PSB period (2048 bytes"

if have_pt_decoder "decode of the sampled intel_pt windows"; then
"$HWTRACE" decode --format jsonl "$TMP/s.data" > "$TMP/out" 2> "$TMP/derr"
expect_eq "decode exit status" "$?" 0
expect_eq "samples" "$(grep -c '"type":"sample"' "$TMP/out")" 7
expect_eq "windows" "$(grep -o '"window":[0-9]*' "$TMP/out" | cut -d: -f2 | tr '\n' ' ')" \
	"8 16 24 32 40 48 56 "
# A fixed period is not sampled (perf sets PERIOD only for -F/-P): the
# samples carry none, and perf script shows the attribute's.
expect_eq "periods" "$(grep -c '"period"' "$TMP/out")" 0
# Every window starts at the stream's first byte, the PSB: the first
# three (8, 16, 24 bytes) end inside its 16-byte PSB or the PSB+ header
# that follows (PSBEND at bytes 25-26), so they cannot sync; the others
# sync at byte 0.
nosync=$(grep '"type":"gap"' "$TMP/out" | grep -c '"reason":"no_sync"')
expect_eq "windows without a sync point" "$nosync" 3
expect_eq "samples that synced at 0" "$(grep -c '"sync":0,' "$TMP/out")" 4

# Pipe mode (perf inject's output on standard input): the same samples,
# their payloads kept from the stream.
if command -v perf > /dev/null; then
	perf inject -i "$TMP/s.data" -o - 2> /dev/null |
		"$HWTRACE" decode --format jsonl - > "$TMP/pipe.out" 2> /dev/null
	expect_eq "pipe-mode samples" "$(grep '"type":"sample"' "$TMP/pipe.out")" \
		"$(grep '"type":"sample"' "$TMP/out")"
fi
fi

if ! command -v perf > /dev/null; then
	fail "perf (linux-perf) is not installed: it is the independent reader"
else
	perf script -i "$TMP/s.data" --itrace= -F event,cpu,period > "$TMP/perf" 2>&1
	expect_eq "perf script exit status" "$?" 0
	expect_eq "perf script samples" "$(grep -c 'cycles:' "$TMP/perf")" 7
	expect_eq "perf script periods and cpus" \
		"$(awk '/cycles:/ { print $1, $2 }' "$TMP/perf" | sort -u)" "[000] 8"
	expect_eq "perf script other lines" "$(grep -vc 'cycles:' "$TMP/perf")" 0
fi

"$HWTRACE" record --sysfs "$FX" --per-thread --emulate-trace "$PT" --aux-sample \
	-e intel_bts// -e cycles/period=8/ -o "$TMP/bts.data" 2> "$TMP/bts"
expect_eq "bts exit status" "$?" 1
expect_contains "bts refused" "$(cat "$TMP/bts")" \
	"intel_bts cannot serve AUX samples; use full or snapshot"
expect_eq "nothing written for bts" "$(test -e "$TMP/bts.data" && echo yes || echo no)" no

# The same from a profile: [session] mode = sample and the [sample]
# section (period 16: samples at 16, 32 and 48 bytes).
cat > "$TMP/s.ini" <<'INI'
[session]
backend = intel_pt
mode = sample
cpus = 0

[sample]
event = branch-misses
period = 16
aux_sample_size = 32
INI
"$HWTRACE" record --sysfs "$FX" --emulate-trace "$PT" -c "$TMP/s.ini" \
	-o "$TMP/ini.data" 2> "$TMP/ini.err"
expect_eq "profile record exit status" "$?" 0
if have_pt_decoder "decode of the profile's samples"; then
	"$HWTRACE" decode --format jsonl "$TMP/ini.data" > "$TMP/ini.out" 2> "$TMP/ini.derr"
	expect_eq "profile samples" \
		"$(grep -o '"window":[0-9]*' "$TMP/ini.out" | cut -d: -f2 | tr '\n' ' ')" "16 32 32 "
	expect_contains "decode summary" "$(cat "$TMP/ini.derr")" "3 AUX samples"
fi
if command -v perf > /dev/null; then
	expect_eq "perf names the event" \
		"$(perf script -i "$TMP/ini.data" --itrace= -F event 2>&1 | sort -u | tr -d ' ')" \
		"branch-misses:"
fi
"$HWTRACE" record --sysfs "$FX" --emulate-trace "$PT" -c "$TMP/s.ini" \
	-e cycles/freq=100,period=10/ --aux-sample -o "$TMP/pf.data" 2> "$TMP/pf"
expect_eq "period and freq: exit status" "$?" 2
expect_contains "period and freq" "$(cat "$TMP/pf")" "period and freq are both set"

# Replaying the quipper capture (cpu 0: 12,240 bytes, cpu 3: 137,728) with
# a sample every 8 KiB of trace, each carrying 8 KiB: 1 + 16 samples. A
# window syncs at its first PSB, per libipt's ptdump listing of the
# buffers; a window without one says so.
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
"$HWTRACE" record --emulate "$Q" --aux-sample=8192 -e cycles/period=8192/ \
	-o "$TMP/q.data" 2> "$TMP/q.err"
expect_eq "replay record exit status" "$?" 0
if have_pt_decoder "sync points of the replayed samples"; then
"$HWTRACE" decode --format jsonl "$TMP/q.data" > "$TMP/q.out" 2> /dev/null
want=""
for cpu in 0 3; do
	psbs=$(awk '$2 == "psb" { print $1 }' \
		"$HWT_TESTDATA/perf-data/quipper/aux-idx$cpu-cpu$cpu.bin.ptdump" |
		while read -r hex; do echo $((16#$hex)); done)
	len=$([ $cpu = 0 ] && echo 12240 || echo 137728)
	for ((end = 8192; end <= len; end += 8192)); do
		sync=none
		for p in $psbs; do
			if [ "$p" -ge $((end - 8192)) ] && [ $((p + 16)) -le "$end" ]; then
				sync=$((p - end + 8192))
				break
			fi
		done
		want="$want$cpu:$sync "
	done
done
got=$(grep '"type":"sample"' "$TMP/q.out" | sed -E \
	's/.*"cpu":([0-9]+).*"window":8192(,"sync":([0-9]+))?.*/\1:\3/; s/:$/:none/' |
	sort -s -t: -k1,1 | tr '\n' ' ')
expect_eq "replay sample sync points" "$got" "$want"
expect_contains "replay windows" "$want" "3:600 "
fi

# A sampling event needs --aux-sample (or its aux-sample-size term).
"$HWTRACE" record --sysfs "$FX" -C 0 --emulate-trace "$PT" \
	-e intel_pt// -e cycles/period=8/ -o "$TMP/x.data" 2> "$TMP/x"
expect_eq "sampling event alone: exit status" "$?" 2
expect_contains "sampling event alone" "$(cat "$TMP/x")" "needs --aux-sample"
"$HWTRACE" record --sysfs "$FX" -C 0 --emulate-trace "$PT" --aux-sample=70000 \
	-e intel_pt// -e cycles/period=8/ -o "$TMP/y.data" 2> "$TMP/y"
expect_eq "too big: exit status" "$?" 2
expect_contains "too big" "$(cat "$TMP/y")" "61440"

finish
