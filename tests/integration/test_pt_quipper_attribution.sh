#!/bin/bash
# Which task ran each element of the quipper capture (perf record -e
# intel_pt// -- echo: per-task, kernel traced, per-CPU buffers naming 3174).
# On CPU 3 the trace-off at 641257183253 follows the switch-out record of
# 641257181481 that names 1760 as the next task; 1760 never started the
# trace and 3174 did not fork it, so the trace-off is 3174's (the AUX record
# of 641257183818 that follows it carries 3174 too). Every element is
# checked against perf script's own attribution of the branches at the same
# CPU and time: they agree everywhere except at perf's switch-window
# elements, each of which lies between a switch-out record of 3174 and the
# switch-in after it, where perf takes the next task by time.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"

Q=$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14
cp "$Q" "$TMP/q.data"

"$HWTRACE" decode --format jsonl "$TMP/q.data" >"$TMP/flow.jsonl" 2>"$TMP/flow.err"
expect_eq "decode exit status" "$?" 0

off=$(grep '"type":"trace_off"' "$TMP/flow.jsonl" | grep '"time":641257183253')
expect_contains "the trace-off goes to 3174" "$off" '"type":"trace_off","cpu":3,"pid":3174,"tid":3174'

# Every element with a CPU (629: the 10 gaps, trace_on/off and what the
# packets say without the code, test_pt_packets_without_code) is 3174's;
# none is ambiguous, and nothing warns about ambiguity.
all=$(grep -c '"cpu":' "$TMP/flow.jsonl")
ours=$(grep -c '"cpu":[0-9]*,"pid":3174,"tid":3174,' "$TMP/flow.jsonl")
expect_eq "elements with a cpu" "$all" 629
expect_eq "elements of 3174" "$ours" 629
expect_eq "ambiguous elements" "$(grep -c '"task":"ambiguous"' "$TMP/flow.jsonl")" 0
expect_eq "no ambiguity warning" "$(grep -c ambiguous "$TMP/flow.err")" 0

# The same capture said to be CPU-wide (perf record -a: its buffers name no
# task): then 1760, or anyone the switch records name, may have run a
# span. The spans of 513 elements hold a switch (their times are far apart
# because the gaps hide most of the trace, and the packets read without
# the code give only TSC times), so those are ambiguous rather than
# guessed, and the warning counts them; the other 116 fall between
# switches, and the switch records name 3174 there, as the per-thread
# buffers do.
cpu_wide_copy "$Q" "$TMP/cw.data"
"$HWTRACE" decode --format jsonl "$TMP/cw.data" >"$TMP/cw.jsonl" 2>"$TMP/cw.err"
expect_eq "cpu-wide: decode exit status" "$?" 0
expect_eq "cpu-wide: ambiguous elements" "$(grep -c '"task":"ambiguous"' "$TMP/cw.jsonl")" 513
expect_eq "cpu-wide: elements with a pid" "$(grep -c '"pid":' "$TMP/cw.jsonl")" 116
expect_eq "cpu-wide: all of them 3174" "$(grep -c '"pid":3174,"tid":3174' "$TMP/cw.jsonl")" 116
expect_contains "cpu-wide: the trace-off" "$(grep '"time":641257183253' "$TMP/cw.jsonl" | grep trace_off)" \
	'"type":"trace_off","cpu":3,"task":"ambiguous","at":"0xffffffffb960d300"'
expect_contains "cpu-wide: warning" "$(cat "$TMP/cw.err")" \
	"warning: 513 elements ran across a context switch"

command -v perf >/dev/null || { fail "perf (linux-perf) is not installed: the perf side cannot be checked"; finish; exit 1; }

# perf's branches (trace starts and ends decode without the binaries) and
# its switch records, as "cpu time-ns pid/tid".
perf script -i "$TMP/q.data" --itrace=be -F pid,tid,cpu,time --ns 2>/dev/null |
	awk '$2 ~ /^\[/ { c = $2; gsub(/[][]/, "", c); t = $3; sub(/:$/, "", t); sub(/\./, "", t);
		print c + 0, t, $1 }' >"$TMP/perf-branches.txt"
perf script -i "$TMP/q.data" --no-itrace --show-switch-events -F pid,tid,cpu,time --ns 2>/dev/null |
	awk '/PERF_RECORD_SWITCH_CPU_WIDE/ { c = $2; gsub(/[][]/, "", c); t = $3; sub(/:$/, "", t); sub(/\./, "", t);
		print c + 0, t, $1, $5 }' >"$TMP/perf-switches.txt"
expect_eq "perf branches" "$(wc -l <"$TMP/perf-branches.txt")" 634
expect_eq "perf switch records" "$(wc -l <"$TMP/perf-switches.txt")" 152

# Each of our timed elements against perf's branches at its CPU and time.
sed -n 's/.*"type":"\([a-z_]*\)","cpu":\([0-9]*\),"pid":\([0-9]*\),"tid":\([0-9]*\),.*"time":\([0-9]*\)}$/\2 \5 \1 \3\/\4/p' \
	"$TMP/flow.jsonl" >"$TMP/ours.txt"
awk 'NR == FNR { perf[$1 " " $2] = perf[$1 " " $2] " " $3; next }
	($1 " " $2) in perf {
		n = split(perf[$1 " " $2], p, " ")
		for (i = 1; i <= n; i++)
			if (p[i] == $4) agree++; else print "differ", $1, $2, $3, $4, "perf", p[i]
	}
	END { print "agree", agree + 0 }' "$TMP/perf-branches.txt" "$TMP/ours.txt" >"$TMP/cmp.txt"
# 119 of our 629 elements have perf branches at the same CPU and time.
expect_eq "elements where perf agrees" "$(awk '$1 == "agree" { print $2 }' "$TMP/cmp.txt")" 119
expect_eq "elements where perf differs" "$(grep '^differ' "$TMP/cmp.txt")" \
	"differ 3 641257183253 trace_off 3174/3174 perf 1760/1760"

# perf's branches of a task other than 3174 (9) all lie in a switch window
# that 3174 opened: the last switch record of their CPU before them is a
# switch-out written by 3174.
sort -k1,1n -k2,2n "$TMP/perf-switches.txt" >"$TMP/sw.txt"
awk '$3 != "3174/3174"' "$TMP/perf-branches.txt" >"$TMP/others.txt"
expect_eq "perf branches of other tasks" "$(wc -l <"$TMP/others.txt")" 9
awk 'NR == FNR { c[NR] = $1; t[NR] = $2; who[NR] = $3; dir[NR] = $4; n = NR; next }
	{
		last = 0
		for (i = 1; i <= n; i++)
			if (c[i] == $1 && t[i] <= $2) last = i
		if (!last || dir[last] != "OUT" || who[last] != "3174/3174")
			print "outside a 3174 switch-out window:", $0
	}' "$TMP/sw.txt" "$TMP/others.txt" >"$TMP/outside.txt"
expect_eq "perf's other-task branches all in 3174's switch windows" "$(cat "$TMP/outside.txt")" ""

finish
