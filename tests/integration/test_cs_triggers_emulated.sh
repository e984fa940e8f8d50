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

# aux_action on a CoreSight replay: the event opens paused, the entry
# probe resumes it, the return probe pauses it. The emulator cuts the
# sink's frames at the atoms of the call and of the return
# (core/emulator/emu_cs_cut.c): the recorded trace is an A-sync, the
# TraceInfo, Trace On and the address of count_loop with the context,
# then the loop's packets up to the return and its target's address. Its
# decode: trace on at count_loop (its first trace on), then exactly the
# branches perf decodes inside count_loop in the capture (the loop runs
# 100 times), the return last with no target (the trace ends there), and
# none outside it.
branches_in() { # FILE: "from to" of the decode's branches, counted
	"$HWTRACE" decode --symfs "$TMP/symfs" "$1" 2>/dev/null |
		awk '{ for (i = 2; i < NF; i++) if ($i == "->" && $(i - 2) == "branch") print $(i - 1), $(i + 1) }' |
		sort | uniq -c | awk '{ print $1, $2, $3 }' | tr '\n' ';'
}
perf_branches_in_count_loop() { # FILE: perf's "from to" inside count_loop, counted
	perf script -i "$1" --itrace=b -F ip,addr --symfs "$TMP/symfs" 2>/dev/null |
		awk '$1 >= "582b2b1054" && $1 < "582b2b108c" && $2 == "=>" { print "0x" $1, "0x" $3 }' |
		sort | uniq -c | awk '{ print $1, $2, $3 }' | tr '\n' ';'
}
"$HWTRACE" record --emulate "$ETM/perf_etm.data" -o "$TMP/paused.data" \
	--trigger "resume:count_loop@$BIN" --trigger "pause:count_loop%return@$BIN" \
	>"$TMP/paused.out" 2>&1
expect_eq "resume:/pause: exit status" "$?" 0
want=$(perf_branches_in_count_loop "$ETM/perf_etm.data")
expect_eq "perf: the branches inside count_loop" "$want" \
	"100 0x582b2b106c 0x582b2b1074;1 0x582b2b1070 0x582b2b1084;100 0x582b2b1080 0x582b2b105c;1 0x582b2b1088 0x582b2b10a4;"
expect_eq "resume:/pause: the branches decoded" "$(branches_in "$TMP/paused.data")" \
	"$(echo "$want" | sed 's/0x582b2b10a4;$/0x0;/')"
expect_eq "resume:/pause: the first trace on" \
	"$("$HWTRACE" decode --symfs "$TMP/symfs" "$TMP/paused.data" 2>/dev/null |
		awk '$2 == "trace" && $3 == "on" { print $5, $6; exit }')" "0x582b2b1054 count_loop+0x0"
expect_eq "resume:/pause: AUX bytes" "$("$HWTRACE" dump "$TMP/paused.data" 2>/dev/null |
	awk '$5 == "PERF_RECORD_AUXTRACE" { print $7 }')" "0x70"
# The cause before the effect: the resume's sample, the pause's, then
# one AUX record with the whole resumed region (from the restart to the
# cut at the return), as a sink reports the trace when the trace unit
# stops: perf decodes each AUX record of an ETM capture alone, from its
# own sync, and a region in two records would lose its second part.
expect_eq "resume:/pause: the probes' samples and the AUX records" \
	"$("$HWTRACE" dump "$TMP/paused.data" 2>/dev/null |
		awk '$5 == "PERF_RECORD_SAMPLE(IP," || $5 == "PERF_RECORD_AUX" { printf "%s ", $5 }')" \
	"PERF_RECORD_SAMPLE(IP, PERF_RECORD_SAMPLE(IP, PERF_RECORD_AUX "
# The 3-call capture (AUX record 4 written three times): three resumed
# regions, each count_loop's call, each with its trace on.
"$HWTRACE" record --emulate "$TMP/three.data" -o "$TMP/paused3.data" \
	--trigger "resume:count_loop@$BIN" --trigger "pause:count_loop%return@$BIN" \
	>"$TMP/paused3.out" 2>&1 || fail "resume:/pause: on the 3-call capture"
expect_eq "resume:/pause: the 3-call capture's branches" "$(branches_in "$TMP/paused3.data")" \
	"300 0x582b2b106c 0x582b2b1074;3 0x582b2b1070 0x582b2b1084;300 0x582b2b1080 0x582b2b105c;3 0x582b2b1088 0x0;"
expect_eq "resume:/pause: the 3-call capture's trace ons" \
	"$("$HWTRACE" decode --symfs "$TMP/symfs" "$TMP/paused3.data" 2>/dev/null |
		awk '{ for (i = 1; i + 3 <= NF; i++) if ($i == "trace" && $(i + 1) == "on") print $(i + 3) }' |
		tr '\n' ' ')" \
	"0x582b2b1054 0x582b2b1054 0x582b2b1054 "
# Each trace on names the resume probe that caused it (info's name for
# it); ETMv4 writes no trace off, so nothing names the pause. In jsonl
# each names its sample: perf's resume samples, IP and time, in order.
resume_name="probe:count_loop/aux-action=resume/"
grep -qx "event: *$resume_name (type [0-9]*, config 0x0)" <("$HWTRACE" info "$TMP/paused3.data" 2>&1) ||
	fail "info does not list $resume_name"
"$HWTRACE" decode --symfs "$TMP/symfs" "$TMP/paused3.data" 2>/dev/null | grep ' trace o[nf]' >"$TMP/on3.txt"
expect_eq "resume:/pause: trace ons naming the resume" \
	"$(grep -c " trace on  at 0x582b2b1054  count_loop+0x0 (/data/local/tmp/etm_test_loop) (resume: $resume_name)\$" "$TMP/on3.txt")" 3
expect_eq "resume:/pause: trace on/off lines" "$(wc -l <"$TMP/on3.txt")" 3
expect_eq "resume:/pause: the first trace on" "$(sed -n 1p "$TMP/on3.txt")" \
	"[007] trace on  at 0x582b2b1054  count_loop+0x0 (/data/local/tmp/etm_test_loop) (resume: $resume_name)"
"$HWTRACE" decode --format jsonl "$TMP/paused3.data" 2>/dev/null |
	sed -n 's/.*"type":"trace_on".*"cause":"\([^"]*\)","cause_time":\([0-9]*\),"cause_ip":"0x\([0-9a-f]*\)".*/\3 \2 \1/p' >"$TMP/causes3"
expect_eq "jsonl: the causes' events" "$(awk '{ print $3 }' "$TMP/causes3" | sort | uniq -c | awk '{ print $1, $2 }')" \
	"3 $resume_name"
perf script -i "$TMP/paused3.data" --no-itrace --ns -F time,ip 2>/dev/null |
	awk '$2 == "582b2b1054" { t = $1; sub(":", "", t); sub("\\.", "", t); sub("^0*", "", t); print $2, t }' >"$TMP/resumes.perf"
expect_eq "perf: resume samples" "$(wc -l <"$TMP/resumes.perf")" 3
if ! cmp -s <(awk '{ print $1, $2 }' "$TMP/causes3") "$TMP/resumes.perf"; then
	fail "the causes the decode names are not perf's resume samples (ip, time):"
	diff <(awk '{ print $1, $2 }' "$TMP/causes3") "$TMP/resumes.perf" | head -6 >&2
fi
# perf reads the files with the probes' events (their samples put the
# event id where the capture's own event does) and decodes the resumed
# regions to the loop's branches hwtrace decodes: 100 and 100 a call, the
# trace starting at count_loop each time.
perf_loop() { # FILE: perf's branches of the loop and its trace starts, counted
	perf script -i "$1" --itrace=b -F flags,ip,addr --symfs "$TMP/symfs" 2>/dev/null |
		awk '$1 == "jmp" || $1 == "jcc" || ($1 == "tr" && $2 == "strt") { print $1, $NF }' |
		sort | uniq -c | awk '{ print $1, $2, $3 }' | tr '\n' ';'
}
expect_eq "perf and the resumed region" "$(perf_loop "$TMP/paused.data")" \
	"100 jcc 582b2b1074;100 jmp 582b2b105c;1 jmp 582b2b1084;1 tr 582b2b1054;"
expect_eq "perf and the 3 resumed regions" "$(perf_loop "$TMP/paused3.data")" \
	"300 jcc 582b2b1074;300 jmp 582b2b105c;3 jmp 582b2b1084;3 tr 582b2b1054;"
# The -S snapshot with a symbol: trigger holds the whole capture. Its AUX
# records are the capture's 4 writes as a CoreSight sink reports them in
# overwrite mode: aux_offset the head after the write (the capture's
# offset + size), the probe's hit inside write 4 not splitting it (perf
# decodes each record's bytes alone, from its own sync).
aux_records() { # FILE: its PERF_RECORD_AUX records, offset/size/flags
	"$HWTRACE" dump "$1" 2>/dev/null | awk '$5 == "PERF_RECORD_AUX" { printf "%s/%s/%s ", $7, $9, $11 }'
}
ends=$("$HWTRACE" dump "$ETM/perf_etm.data" 2>/dev/null |
	awk "$AWK_HEX"'
		function h(s) { sub(/^0x/, "", s); return hex(s) }
		$5 == "PERF_RECORD_AUX" { printf "0x%x/%s/0x2 ", h($7) + h($9), $9 }')
expect_eq "the capture's writes, ended" "$ends" "0x50/0x50/0x2 0xa0/0x50/0x2 0xf0/0x50/0x2 0x180/0x90/0x2 "
expect_eq "the symbol: snapshot's AUX records" "$(aux_records "$TMP/sym.data")" "$ends"
# The same without probes (each write reported at once).
"$HWTRACE" record --emulate "$ETM/perf_etm.data" -S -o "$TMP/plain_s.data" >"$TMP/plain_s.out" 2>&1 ||
	fail "record -S without a trigger"
expect_eq "-S without a trigger: the AUX records" "$(aux_records "$TMP/plain_s.data")" "$ends"
# perf finds those bytes (aux_offset - aux_size) and decodes the snapshot
# as it decodes the capture: the loop's 100 turns and both trace starts.
expect_eq "perf and the symbol: snapshot" "$(perf_loop "$TMP/sym.data")" \
	"100 jcc 582b2b1074;1 jmp 582b2b100c;100 jmp 582b2b105c;1 jmp 582b2b1084;1 tr 582b2b1000;1 tr 582b2b108c;"
expect_eq "perf: the capture's loop" "$(perf_loop "$ETM/perf_etm.data")" "$(perf_loop "$TMP/sym.data")"
# Inside count_loop perf and hwtrace decode the same branches, those of
# the capture itself.
hwt_in_count_loop() { # FILE: hwtrace's "from to" inside count_loop, counted
	branches_in "$1" | tr ';' '\n' |
		awk '$2 >= "0x582b2b1054" && $2 < "0x582b2b108c" { print $1, $2, $3 }' | tr '\n' ';'
}
expect_eq "perf: the symbol: snapshot inside count_loop" "$(perf_branches_in_count_loop "$TMP/sym.data")" "$want"
expect_eq "hwtrace: the symbol: snapshot inside count_loop" "$(hwt_in_count_loop "$TMP/sym.data")" "$want"
# A crafted snapshot record whose size exceeds its offset (the first, its
# aux_offset 0x50 made 0x10) has no place in the stream: perf finds it no
# buffer, and the decode skips it, says so with the record's file offset,
# and decodes the loop as before.
at=$("$HWTRACE" dump "$TMP/sym.data" 2>/dev/null | awk '$5 == "PERF_RECORD_AUX" { print $3; exit }')
python3 - "$TMP/sym.data" "$TMP/under.data" "$at" <<'PY' || fail "crafting the underflow"
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
at = int(sys.argv[3], 16) + 8  # aux_offset, after the record's header
assert struct.unpack_from('<QQQ', d, at) == (0x50, 0x50, 2)
struct.pack_into('<Q', d, at, 0x10)
open(sys.argv[2], 'wb').write(d)
PY
expect_contains "an AUX record before the stream: the warning" \
	"$("$HWTRACE" decode --symfs "$TMP/symfs" "$TMP/under.data" 2>&1 >/dev/null)" \
	"under.data: 1 overwrite-mode PERF_RECORD_AUX record(s) report more bytes than their offset (the first at file offset $at): skipped, as perf skips them"
expect_eq "an AUX record before the stream: the branches" "$(hwt_in_count_loop "$TMP/under.data")" "$want"
expect_eq "the control: no warning" \
	"$("$HWTRACE" decode --symfs "$TMP/symfs" "$TMP/sym.data" 2>&1 >/dev/null | grep -c 'overwrite-mode')" 0
# The probes' samples, lines without a branch: 3 at the entry, 3 at the
# return's target (perf 6.1 does not name the uprobe PMU's events).
expect_eq "perf: the probes' samples" \
	"$(perf script -i "$TMP/paused3.data" --itrace=b -F ip,addr 2>/dev/null |
		awk '$2 != "=>" { print $NF }' | sort | uniq -c | awk '{ print $1, $2 }' | tr '\n' ';')" \
	"3 582b2b1054;3 582b2b10a4;"
"$HWTRACE" record --emulate "$ETM/perf_etm.data" -o "$TMP/plain.data" >"$TMP/plain.out" 2>&1 ||
	fail "record the plain replay"
expect_contains "perf 6.1 and the plain replay" \
	"$(perf script -i "$TMP/plain.data" --itrace=b -F flags,ip,addr --symfs "$TMP/symfs" 2>/dev/null | head -1)" "tr strt"
# Control: the plain replay's trace on (the trace's start) names no cause.
"$HWTRACE" decode --format jsonl "$TMP/plain.data" 2>/dev/null | grep '"type":"trace_on"' >"$TMP/plain.on"
[ -s "$TMP/plain.on" ] || fail "the plain replay has no trace on"
expect_eq "plain replay: trace ons with a cause" "$(grep -c '"cause"' "$TMP/plain.on")" 0

# Two cuts in one frame of the sink (both probes on the entry) are
# refused: the frame cannot be written both ways, which the message says
# (the emulator's reason, not the errno's list of possible ones).
"$HWTRACE" record --emulate "$ETM/perf_etm.data" -o "$TMP/onebranch.data" \
	--trigger "resume:count_loop@$BIN" --trigger "pause:count_loop@$BIN" \
	>"$TMP/onebranch.out" 2>&1
expect_eq "resume:/pause: on one branch: exit status" "$?" 1
expect_contains "resume:/pause: on one branch: why" "$(cat "$TMP/onebranch.out")" \
	"hwtrace: perf_event_open of probe:count_loop/aux-action=pause/ (cpu 7) refused: Operation not supported: two cuts of the trace would fall in one 16-byte frame of the sink (both probes on one branch, or a call shorter than a frame), which cannot be written both ways (docs/record.md \"Triggers in the kernel\")"
expect_eq "resume:/pause: on one branch: no file" "$([ -e "$TMP/onebranch.data" ] && echo written)" ""
finish
