# Call triggers on a replayed CoreSight capture: the emulator finds where
# the ETM trace enters and leaves a function with the cs_etm decoder (in
# its isolated workers) and fires the probes there, at the time of the
# AUX write that brings the trace (the capture has no ETM timestamps).
#
# The capture is simpleperf's real ETMv4 trace of etm_test_loop: main
# (0x108c) calls the function at 0x1054 once, which loops 100 times and
# returns. The binary is stripped, so the test names that function
# count_loop in a copy of it (llvm-objcopy adds the symbol, the size is set
# in .symtab); the copy keeps the build id, by which the replay finds it
# among the capture's mappings (/data/local/tmp/etm_test_loop, not a path
# here). pd_aux_losses rewrites the capture twice: AUX record 4 (the one
# that carries the call) written 3 times, 100 us apart, for 3 calls at 3
# times; and record 4 split after 64 bytes (between the frame with the
# call's atom and the one with its return's address), its rest reported
# 100 us later, for a call that lasts 100 us. The oracles: perf script
# --itrace=b and hwtrace decode --calls count the calls and returns; the
# AUX records' times are those hwtrace dump prints.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"
: "${HWT_PD_AUX_LOSSES:?the pd_aux_losses helper}"
# llvm-15's objcopy is the one make deps installs; llvm's unversioned name
# is taken where it is the only one.
OBJCOPY=$(command -v llvm-objcopy-15 || command -v llvm-objcopy) ||
	{ fail "llvm-objcopy is not installed (Debian: llvm-15)"; finish; exit 1; }
for t in python3 perf; do
	command -v $t >/dev/null || { fail "$t is not installed (Debian: python3, linux-perf)"; finish; exit 1; }
done

ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"
BIN="$TMP/etm_test_loop"
"$OBJCOPY" --add-symbol count_loop=.text:0x54,function,global "$ETM/etm_test_loop" "$BIN" ||
	{ fail "$OBJCOPY --add-symbol"; finish; exit 1; }
# Elf64_Sym.st_size of count_loop: its 14 instructions, 0x1054..0x108c.
python3 - "$BIN" <<'PY' || fail "setting count_loop's size"
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28)
shentsize, shnum = struct.unpack_from('<HH', d, 0x3a)
secs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
for s in (s for s in secs if s[1] == 2):  # SHT_SYMTAB
    strs = secs[s[6]][4]
    for off in range(s[4], s[4] + s[5], 24):
        name = strs + struct.unpack_from('<I', d, off)[0]
        if d[name:d.index(0, name)] == b'count_loop':
            struct.pack_into('<Q', d, off + 16, 0x38)
open(sys.argv[1], 'wb').write(d)
PY
expect_eq "the copy's symbol" "$(nm -S "$BIN" 2>/dev/null | awk '$4 == "count_loop" { print $1, $2 }')" \
	"0000000000001054 0000000000000038"
mkdir -p "$TMP/symfs/data/local/tmp"
cp "$BIN" "$TMP/symfs/data/local/tmp/etm_test_loop"

${HWT_TARGET_RUN:-} "$HWT_PD_AUX_LOSSES" "$ETM/perf_etm.data" "$TMP/three.data" '4*3+100000' || fail "pd_aux_losses 4*3"
${HWT_TARGET_RUN:-} "$HWT_PD_AUX_LOSSES" "$ETM/perf_etm.data" "$TMP/split.data" '4/64+100000' || fail "pd_aux_losses 4/64"

# The oracles. count_loop runs at 0x582b2b1054; its return goes back to
# main at 0x582b2b10a4.
perf_calls() {
	perf script -i "$1" --itrace=b -F flags,ip,addr --symfs "$TMP/symfs" 2>/dev/null |
		grep -c 'call .*=> *582b2b1054$'
}
hwt_calls() { # CAPTURE: entries and returns of count_loop, hwtrace decode --calls
	"$HWTRACE" decode --calls --symfs "$TMP/symfs" "$1" 2>/dev/null >"$TMP/calls.txt"
	echo "$(grep -c -- '-> count_loop$' "$TMP/calls.txt") $(grep -c -- '<- count_loop ' "$TMP/calls.txt")"
}
expect_eq "perf: calls in the capture" "$(perf_calls "$ETM/perf_etm.data")" 1
expect_eq "perf: calls in the 3-call capture" "$(perf_calls "$TMP/three.data")" 3
expect_eq "decode --calls: the capture" "$(hwt_calls "$ETM/perf_etm.data")" "1 1"
expect_eq "decode --calls: the 3-call capture" "$(hwt_calls "$TMP/three.data")" "3 3"
expect_eq "decode --calls: the split capture" "$(hwt_calls "$TMP/split.data")" "1 1"
aux_times() { "$HWTRACE" dump "$1" 2>/dev/null | awk '$5 == "PERF_RECORD_AUX" { printf "%s ", $2 }'; }
read -r -a orig_t <<<"$(aux_times "$ETM/perf_etm.data")"
read -r -a three_t <<<"$(aux_times "$TMP/three.data")"
read -r -a split_t <<<"$(aux_times "$TMP/split.data")"
expect_eq "AUX records" "${#orig_t[@]} ${#three_t[@]} ${#split_t[@]}" "4 6 5"
expect_eq "the copies' times" "$((three_t[4] - three_t[3])) $((three_t[5] - three_t[3]))" "100000 200000"

info_field() { "$HWTRACE" info "$1" 2>&1 | sed -n "s/^  $2: //p" | tr '\n' ' '; }
record() { # NAME CAPTURE TRIGGER...: record --emulate -S into $TMP/NAME.data
	local name=$1 capture=$2
	shift 2
	local args=()
	for t in "$@"; do args+=(--trigger "$t"); done
	"$HWTRACE" record --emulate "$capture" -S -o "$TMP/$name.data" "${args[@]}" \
		>"$TMP/$name.out" 2>&1 || { cat "$TMP/$name.out" >&2; fail "record $name"; }
}
summary() { sed -n 's/.*trigger [^ ]*: //p' "$TMP/$1.out"; }

# symbol: one call, fired once, at the time of the write with its frame.
record sym "$ETM/perf_etm.data" "symbol:count_loop@$BIN"
expect_eq "symbol: summary" "$(summary sym)" "1 entries, 0 calls returned, 1 fired, in 1 windows"
expect_eq "symbol: entries" "$(info_field "$TMP/sym.data" entry)" "1 "
expect_eq "symbol: time" "$(info_field "$TMP/sym.data" time)" "${orig_t[3]} "
expect_eq "symbol: tid" "$(info_field "$TMP/sym.data" tid)" "17235 "
# The window is the whole buffer: it decodes to the capture's call.
expect_eq "symbol: the window's calls" "$(hwt_calls "$TMP/sym.data")" "1 1"

# Three calls: three fires at the three writes' times; --trigger-count 2
# stops after two.
record thrice "$TMP/three.data" "symbol:count_loop@$BIN"
expect_eq "3 calls: summary" "$(summary thrice | sed 's/, in .*//')" "3 entries, 0 calls returned, 3 fired"
expect_eq "3 calls: entries" "$(info_field "$TMP/thrice.data" entry)" "1 2 3 "
expect_eq "3 calls: times" "$(info_field "$TMP/thrice.data" time)" "${three_t[3]} ${three_t[4]} ${three_t[5]} "
"$HWTRACE" record --emulate "$TMP/three.data" -S -o "$TMP/two.data" \
	--trigger "symbol:count_loop@$BIN" --trigger-count 2 >"$TMP/two.out" 2>&1 || fail "record --trigger-count 2"
expect_eq "--trigger-count 2: entries" "$(info_field "$TMP/two.data" entry)" "1 2 "
expect_contains "--trigger-count 2: summary" "$(cat "$TMP/two.out")" "3 entries, 0 calls returned, 2 fired"

# latency: the split capture's call lasts from its write to the next,
# 100 us; a threshold 1 ns below fires, the threshold itself does not.
record slow "$TMP/split.data" "latency:count_loop@$BIN>99999ns"
expect_eq "latency: summary" "$(summary slow)" "1 entries, 1 calls returned, 1 fired, in 1 windows"
expect_eq "latency: duration" "$(info_field "$TMP/slow.data" duration_ns)" "100000 "
expect_eq "latency: call start" "$(info_field "$TMP/slow.data" call_start)" "${split_t[3]} "
expect_eq "latency: fire time (the return)" "$(info_field "$TMP/slow.data" time)" "${split_t[4]} "
record fast "$TMP/split.data" "latency:count_loop@$BIN>100us"
expect_eq "latency at the duration: summary" "$(summary fast)" "1 entries, 1 calls returned, 0 fired, in 0 windows"
# In the original capture the call and its return come in one write: at
# the capture's resolution it takes no time, and never fires.
record same "$ETM/perf_etm.data" "latency:count_loop@$BIN>0ns"
expect_eq "latency in one write: summary" "$(summary same)" "1 entries, 1 calls returned, 0 fired, in 0 windows"

# A binary with another build id is not the capture's: its probe never
# fires (the control for finding the binary by its build id).
cp "$BIN" "$TMP/other"
python3 - "$TMP/other" <<'PY' || fail "changing the build id"
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
at = d.find(bytes.fromhex('0c9a20bf9c009d0e4e8bbf9fad0300ae'))
assert at > 0
d[at] ^= 0xff
open(sys.argv[1], 'wb').write(d)
PY
record other "$ETM/perf_etm.data" "symbol:count_loop@$TMP/other"
expect_eq "another build id: summary" "$(summary other)" "0 entries, 0 calls returned, 0 fired, in 0 windows"

# aux_action on a CoreSight replay: the trace unit's trace-on/off is not
# emulated, so the probes are refused, as a driver without it refuses.
"$HWTRACE" record --emulate "$ETM/perf_etm.data" -o "$TMP/paused.data" \
	--trigger "resume:count_loop@$BIN" --trigger "pause:count_loop%return@$BIN" \
	>"$TMP/paused.out" 2>&1
expect_eq "resume:/pause: exit status" "$?" 1
expect_contains "resume:/pause: why" "$(cat "$TMP/paused.out")" \
	"probe:count_loop/aux-action=resume/ (cpu 7) refused: Operation not supported. The trace event cannot be paused or resumed"
expect_eq "resume:/pause: no file" "$([ -e "$TMP/paused.data" ] && echo written)" ""
finish
