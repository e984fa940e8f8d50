#!/bin/bash
# The real Intel PT capture from quipper (Skylake, kernel 4.14), read
# through hwtrace's perf.data reader: its packet listing against libipt's
# ptdump listings of the two AUXTRACE buffers, and a flow decode whose
# traced binaries are missing: each missing file named once, every gap
# ending where the next PSB starts (PSB offsets from ptdump), no crash.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"

Q=$HWT_TESTDATA/perf-data/quipper
DATA=$Q/perf.data.intel_pt-4.14

# --- packets ---
"$HWTRACE" decode --packets "$DATA" >"$TMP/packets.txt" 2>"$TMP/packets.err"
expect_eq "decode --packets exit status" "$?" 0

# Split our listing per AUXTRACE buffer, whitespace-normalised, without
# pad packets (the ptdump listings were made without them).
awk -v dir="$TMP" '
	/^# AUXTRACE idx/ { out = dir "/ours-idx" $4 ".txt"; next }
	{ $1 = $1; if ($2 != "pad") print > out }
' "$TMP/packets.txt"

total=0
for b in "0 0" "3 3"; do
	set -- $b
	ref=$Q/aux-idx$1-cpu$2.bin.ptdump
	awk '{ $1 = $1; print }' "$ref" >"$TMP/ref-idx$1.txt"
	n=$(wc -l <"$TMP/ref-idx$1.txt")
	total=$((total + n))
	if cmp -s "$TMP/ref-idx$1.txt" "$TMP/ours-idx$1.txt"; then
		expect_eq "idx$1 listing equals ptdump ($n packets)" same same
	else
		first=$(diff "$TMP/ref-idx$1.txt" "$TMP/ours-idx$1.txt" | head -4 | tr '\n' '|')
		expect_eq "idx$1 listing equals ptdump" "$first" ""
	fi
done
# The README counts 85,093 non-pad packets in the two listings.
expect_eq "packets compared" "$total" 85093

# --- flow decode without the traced binaries ---
"$HWTRACE" decode --format jsonl "$DATA" >"$TMP/flow.jsonl" 2>"$TMP/flow.err"
expect_eq "decode exit status" "$?" 0
expect_contains "summary on stderr" "$(cat "$TMP/flow.err")" "no_image"

# Each missing binary is named once, however many gaps it causes.
kernel=$(grep -c '"detail":"\[kernel.kallsyms\]_text not found' "$TMP/flow.jsonl")
ld=$(grep -c '"detail":"/lib64/ld-2.23.so not found' "$TMP/flow.jsonl")
expect_eq "kernel named once" "$kernel" 1
expect_eq "ld.so named once" "$ld" 1
gaps=$(grep -c '"reason":"no_image"' "$TMP/flow.jsonl")
[ "$gaps" -gt 2 ] || fail "expected more no_image gaps than missing files, got $gaps"
checks=$((checks + 1))

# Tasks from the sideband, by time (perf report -D of the capture): cpu 3
# traces 3174 from its ITRACE_START (641256844131); at 641257194938 cpu 3
# switches (OUT) to 3174 again, before the trace_on at 641257197713.
first3=$(grep '"cpu":3,' "$TMP/flow.jsonl" | head -n 1)
expect_contains "cpu 3 starts with 3174" "$first3" '"type":"trace_on","cpu":3,"pid":3174,"tid":3174'
expect_contains "3174 back on cpu 3" "$(grep '"time":641257197713' "$TMP/flow.jsonl" | head -n 1)" '"pid":3174,"tid":3174'
# Times are perf times from the TSC (TIME_CONV in AUXTRACE_INFO): the
# first TSC of the cpu 3 buffer is in perf's time range of the capture.
t=$(echo "$first3" | sed 's/.*"time":\([0-9]*\).*/\1/')
[ "$t" -gt 641256844131 ] && [ "$t" -lt 641257194938 ] ||
	fail "cpu 3 first time $t outside the sideband's window"
checks=$((checks + 1))

# Every gap ends at a PSB of its buffer (ptdump's offsets) or at the
# buffer's end (12,240 and 137,728 bytes, per the README).
psbs() { awk '$2 == "psb" { print $1 }' "$1" | while read -r h; do echo $((16#$h)); done; }
for b in "0 0 12240" "3 3 137728"; do
	set -- $b
	psbs "$Q/aux-idx$1-cpu$2.bin.ptdump" >"$TMP/psb$1.txt"
	echo "$3" >>"$TMP/psb$1.txt"
	grep '"reason":"no_image"' "$TMP/flow.jsonl" | grep "\"cpu\":$2," |
		sed 's/.*"bytes":\([0-9]*\),"offset":\([0-9]*\).*/\1 \2/' |
		while read -r bytes off; do
			end=$((bytes + off))
			grep -qx "$end" "$TMP/psb$1.txt" || echo "cpu$2 gap at $off ends at $end"
		done >"$TMP/bad$1.txt"
	expect_eq "cpu$2 gaps end at PSBs" "$(cat "$TMP/bad$1.txt")" ""
done

# Pipe mode: perf inject writes the capture to a pipe; the listing and the
# flow decode read from standard input equal those of the file. (perf
# inject replaces the cpuid feature with this machine's, so the traced
# CPU is given: the capture's cpuid feature says GenuineIntel,6,78,3.)
perf inject -i "$DATA" -o - 2>/dev/null >"$TMP/pipe.data" ||
	fail "perf inject could not write a pipe-mode copy (is linux-perf installed?)"
"$HWTRACE" decode --packets - <"$TMP/pipe.data" >"$TMP/pipe-packets.txt" 2>/dev/null
expect_eq "pipe-mode packet listing" "$(cmp -s "$TMP/packets.txt" "$TMP/pipe-packets.txt" && echo same)" same
"$HWTRACE" decode --format jsonl --cpu 6/78/3 - <"$TMP/pipe.data" >"$TMP/pipe-flow.jsonl" 2>/dev/null
expect_eq "pipe-mode flow decode" "$(cmp -s "$TMP/flow.jsonl" "$TMP/pipe-flow.jsonl" && echo same)" same

finish
