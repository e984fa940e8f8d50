#!/bin/bash
# hwtrace decode from the command line: usage errors (exit 2), runtime
# errors (exit 1) naming what failed, raw decoding of a libipt ptt stream
# (its instruction addresses against ptxed's expectation), the packet
# listing against ptdump's, filters on the quipper capture, and damaged
# input decoded without a crash.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"

PTT=$HWT_TESTDATA/ptt/expected
DATA=$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14

out=$("$HWTRACE" decode --help); rc=$?
expect_eq "--help exit" "$rc" 0
expect_contains "--help text" "$out" "--raw BACKEND[,OPTS]:TRACE"

"$HWTRACE" decode >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "no input exit" "$rc" 2
expect_contains "no input message" "$(cat "$TMP/err")" "give one input"

"$HWTRACE" decode --format xml "$DATA" >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "bad format exit" "$rc" 2
expect_contains "bad format message" "$(cat "$TMP/err")" "--format xml"

"$HWTRACE" decode --cpu x "$DATA" >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "bad --cpu exit" "$rc" 2

"$HWTRACE" decode --map "$PTT/loop-tnt.bin" --raw intel_pt:"$PTT/loop-tnt.pt" \
	>/dev/null 2>"$TMP/err"; rc=$?
expect_eq "--map without @ADDR exit" "$rc" 2

"$HWTRACE" decode "$TMP/none.data" >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "missing file exit" "$rc" 1
expect_contains "missing file named" "$(cat "$TMP/err")" "$TMP/none.data"

"$HWTRACE" decode --raw nosuch:"$PTT/loop-tnt.pt" >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "unknown backend exit" "$rc" 1
expect_contains "unknown backend named" "$(cat "$TMP/err")" "unknown trace backend 'nosuch'"

"$HWTRACE" decode --raw intel_pt,bogus=1:"$PTT/loop-tnt.pt" >/dev/null 2>"$TMP/err"; rc=$?
expect_eq "unknown raw option exit (a usage error)" "$rc" 2
expect_contains "unknown raw option named" "$(cat "$TMP/err")" "bogus=1"

# Raw decode: one range per instruction, addresses as ptxed expects them
# (loop-tnt.ptt: org 0x100000).
"$HWTRACE" decode --raw intel_pt:"$PTT/loop-tnt.pt" --map "$PTT/loop-tnt.bin@0x100000" \
	--disasm --format jsonl -o "$TMP/loop.jsonl" 2>"$TMP/err"; rc=$?
expect_eq "raw decode exit" "$rc" 0
got=$(sed -n 's/.*"type":"range".*"start":"0x\([0-9a-f]*\)".*/\1/p' "$TMP/loop.jsonl" | tr '\n' ' ')
want=$(grep '^[0-9a-f]\{16\}$' "$PTT/loop-tnt-ptxed.exp" | sed 's/^0*//' | tr '\n' ' ')
expect_eq "loop-tnt instruction addresses" "$got" "$want"
expect_contains "loop-tnt summary" "$(cat "$TMP/err")" "10 ranges (10 instructions)"
# The loop's taken jle, twice (loop-tnt.lst: jle at 0x100011 to 0x100009).
expect_eq "loop-tnt taken conditional branches" \
	"$(grep -c '"from":"0x100011","to":"0x100009","kind":"cond"' "$TMP/loop.jsonl")" 2

# Without --disasm, a range runs from a branch target to the next branch
# that may be taken, whatever blocks libipt cut it into: its block cache,
# warm after the first pass, ends a block at the add at 0x100009, and
# libipt ends a block after 65535 instructions (linear-fup-tip_pgd: 100000
# instructions without a branch, org 0x100000).
"$HWTRACE" decode --raw intel_pt:"$PTT/loop-tnt.pt" --map "$PTT/loop-tnt.bin@0x100000" \
	--format jsonl 2>/dev/null | sed -n 's/.*"type":"range","start":"\([^"]*\)","end":"\([^"]*\)","insns":\([0-9]*\).*/\1-\2:\3/p' >"$TMP/ranges"
expect_eq "loop-tnt ranges" "$(tr '\n' ' ' <"$TMP/ranges")" \
	"0x100000-0x100009:2 0x10000d-0x100013:2 0x100009-0x100013:3 0x100009-0x100013:3 "
"$HWTRACE" decode --raw intel_pt:"$PTT/linear-fup-tip_pgd.pt" \
	--map "$PTT/linear-fup-tip_pgd.bin@0x100000" >/dev/null 2>"$TMP/err"
expect_contains "a range across libipt's 65535-instruction blocks" \
	"$(cat "$TMP/err")" "1 ranges (100000 instructions)"

# Without its code the stream is a gap naming the address, not a crash.
"$HWTRACE" decode --raw intel_pt:"$PTT/loop-tnt.pt" --format jsonl >"$TMP/nomap.jsonl" 2>/dev/null; rc=$?
expect_eq "no image exit" "$rc" 0
expect_contains "no image gap" "$(cat "$TMP/nomap.jsonl")" '"reason":"no_image"'
expect_contains "no image address" "$(cat "$TMP/nomap.jsonl")" "no code mapped at 0x100000"

# Packets, whitespace-normalised, against ptdump's expectation.
"$HWTRACE" decode --packets --raw intel_pt:"$PTT/loop-tnt.pt" | awk '{$1=$1; print}' >"$TMP/p.txt"
awk '{$1=$1; print}' "$PTT/loop-tnt-ptdump.exp" >"$TMP/p.exp"
expect_eq "loop-tnt packets" "$(cat "$TMP/p.txt")" "$(cat "$TMP/p.exp")"

# Filters on the real capture: the per-CPU queues are cpu 0 and cpu 3.
"$HWTRACE" decode --format jsonl --cpu 3 "$DATA" >"$TMP/cpu3.jsonl" 2>/dev/null; rc=$?
expect_eq "--cpu 3 exit" "$rc" 0
expect_eq "--cpu 3 keeps only cpu 3" "$(grep -v '"type":"header"' "$TMP/cpu3.jsonl" | grep -vc '"cpu":3,')" 0
[ -s "$TMP/cpu3.jsonl" ] || fail "--cpu 3 gave nothing"
"$HWTRACE" decode --format jsonl --tid 1760 "$DATA" >"$TMP/tid.jsonl" 2>/dev/null
expect_eq "--tid 1760 keeps tid 1760 and gaps" \
	"$(grep -v '"type":"gap"\|"type":"header"' "$TMP/tid.jsonl" | grep -vc '"tid":1760,')" 0
"$HWTRACE" decode --format jsonl --time 1,2 "$DATA" >"$TMP/time.jsonl" 2>/dev/null
expect_eq "--time outside the capture keeps only gaps" \
	"$(grep -v '"type":"header"' "$TMP/time.jsonl" | grep -vc '"type":"gap"')" 0

# Damaged input: a truncated capture and a stream of noise.
head -c 20000 "$DATA" >"$TMP/cut.data"
"$HWTRACE" decode "$TMP/cut.data" >/dev/null 2>"$TMP/err"; rc=$?
[ "$rc" -le 1 ] || fail "truncated capture: exit $rc"
checks=$((checks + 1))
head -c 65536 /dev/urandom >"$TMP/noise.pt"
"$HWTRACE" decode --raw intel_pt:"$TMP/noise.pt" --map "$PTT/loop-tnt.bin@0x100000" \
	>/dev/null 2>"$TMP/err"; rc=$?
expect_eq "noise exit" "$rc" 0
"$HWTRACE" decode --packets --raw intel_pt:"$TMP/noise.pt" >/dev/null 2>&1; rc=$?
expect_eq "noise packets exit" "$rc" 0

finish
