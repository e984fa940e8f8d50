# The kernel's AUX pause/resume (aux_action) on the emulator's fake PMU:
# a sw_branch capture of swb_demo N (whose main calls is_prime exactly N
# times, once per loop turn) replayed with `--trigger resume:is_prime
# --trigger pause:is_prime%return` holds trace only inside those N calls.
# perf script is the oracle for the branches and the probes' samples, nm
# for is_prime's place and size.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "FAIL: perf is not installed (Debian: linux-perf)" >&2; exit 1; }
DEMO="$PROGS/swb_demo"
CALLS=50

${HWT_TARGET_RUN:-} "$PROGS/swb_record" -o "$TMP/orig.data" --quiet --start main --stop exit \
	-- "$DEMO" $CALLS 2>"$TMP/rec.err" || { cat "$TMP/rec.err" >&2; fail "swb_record"; finish; }
"$HWTRACE" record --emulate "$TMP/orig.data" -o "$TMP/paused.data" \
	--trigger "resume:is_prime@$DEMO" --trigger "pause:is_prime%return@$DEMO" \
	>"$TMP/replay.out" 2>&1 || { cat "$TMP/replay.out" >&2; fail "record --trigger"; finish; }
"$HWTRACE" record --emulate "$TMP/orig.data" -o "$TMP/plain.data" \
	>"$TMP/plain.out" 2>&1 || { cat "$TMP/plain.out" >&2; fail "record (control)"; }

# Run-time addresses: the capture starts at main (--start main), which
# perf names, so the load base is that address less main's in nm.
sym() { nm -S "$DEMO" | awk -v s="$1" '$4 == s { print $1, $2 }'; }
read -r main_off _ <<<"$(sym main)"
read -r prime_off prime_size <<<"$(sym is_prime)"
main_at=$("$PERF" script -i "$TMP/orig.data" --itrace=b -F ip,addr 2>/dev/null |
	awk 'NR == 1 { print $NF }')
base=$(( 0x$main_at - 0x$main_off ))
lo=$(( base + 0x$prime_off )); hi=$(( lo + 0x$prime_size ))

# perf's branches: "FROM TO" in hex (not the trace on/off, 0 => TO, FROM => 0).
branches() {
	"$PERF" script -i "$1" --itrace=b -F ip,addr 2>/dev/null | awk '/=>/ && $1 != "0" && $NF != "0" { print $1, $NF }'
}
outside() { # branches whose source is not in is_prime
	local n=0 from to
	while read -r from to; do
		(( 0x$from >= lo && 0x$from < hi )) || n=$((n + 1))
	done
	echo $n
}
branches "$TMP/paused.data" >"$TMP/paused.br"
branches "$TMP/plain.data" >"$TMP/plain.br"
[ -s "$TMP/paused.br" ] || fail "perf finds no branches in the paused replay"
expect_eq "branches from outside is_prime, paused" "$(outside <"$TMP/paused.br")" 0
# Positive control: the same replay without triggers has main's too.
[ "$(outside <"$TMP/plain.br")" -gt 100 ] || fail "the control replay has no branches outside is_prime"
# Each call's return (is_prime back into main) is traced, one per call:
# counted in hwtrace's branches (perf 6.1's intel_bts decoder leaves out
# a buffer's last record, here the last return), against nm's range.
"$HWTRACE" decode --format jsonl "$TMP/paused.data" 2>/dev/null | sed -n \
	's/.*"type":"branch".*"from":"0x\([0-9a-f]*\)","to":"0x\([0-9a-f]*\)".*/\1 \2/p' >"$TMP/hwt.br"
returns=0
while read -r from to; do
	(( 0x$to >= lo && 0x$to < hi )) || returns=$((returns + 1))
done <"$TMP/hwt.br"
expect_eq "returns from is_prime traced" "$returns" $CALLS
expect_eq "hwtrace branches from outside is_prime" "$(outside <"$TMP/hwt.br")" 0

# The probes' samples (perf prints them without "=>"), in file order: a
# resume at is_prime's first instruction, then a pause at the return
# site, for each call.
"$PERF" script -i "$TMP/paused.data" --itrace=b -F ip,addr 2>/dev/null |
	awk '!/=>/ { print $NF }' >"$TMP/samples" || true
expect_eq "probe samples" "$(wc -l <"$TMP/samples")" $((2 * CALLS))
at_entry=$(printf '%x' $lo)
expect_eq "resumes at is_prime's entry" "$(awk 'NR % 2 == 1' "$TMP/samples" | grep -cx "$at_entry")" $CALLS
expect_eq "pauses elsewhere (the return site)" "$(awk 'NR % 2 == 0' "$TMP/samples" | sort -u | grep -vcx "$at_entry")" 1

# hwtrace's own view: ranges only in is_prime, and the trace says where
# it stopped and started: a trace_on at is_prime's entry and a trace_off
# at the return site for each call, no decode gaps.
"$HWTRACE" decode --format jsonl "$TMP/paused.data" >"$TMP/paused.jsonl" 2>/dev/null
expect_eq "ranges outside is_prime" "$(grep '"type":"range"' "$TMP/paused.jsonl" | grep -vc '"sym":"is_prime"')" 0
expect_eq "gaps" "$(grep -c '"type":"gap"' "$TMP/paused.jsonl")" 0
expect_eq "trace_on at is_prime's entry" "$(grep '"type":"trace_on"' "$TMP/paused.jsonl" | grep -c "\"at\":\"0x$at_entry\"")" $CALLS
expect_eq "trace_off" "$(grep -c '"type":"trace_off"' "$TMP/paused.jsonl")" $CALLS
# The cause of each: the probe sample perf shows at the same time and
# address (perf --ns prints seconds.nanoseconds), in the same order.
"$PERF" script -i "$TMP/paused.data" --no-itrace --ns -F time,ip 2>/dev/null |
	awk '{ t = $1; sub(":", "", t); sub("\\.", "", t); sub("^0*", "", t); print t, $2 }' >"$TMP/causes.perf"
sed -n 's/.*"type":"trace_o[nf]*","tid":[0-9]*,"at":"0x\([0-9a-f]*\)","time":\([0-9]*\).*/\2 \1/p' \
	"$TMP/paused.jsonl" >"$TMP/causes.hwt"
expect_eq "trace on/off events" "$(wc -l <"$TMP/causes.hwt")" $((2 * CALLS))
if ! cmp -s "$TMP/causes.perf" "$TMP/causes.hwt"; then
	fail "trace on/off and the probes' samples differ (time, address):"
	diff "$TMP/causes.perf" "$TMP/causes.hwt" | head -6 >&2
fi
# The decode names them: in jsonl each trace on/off's cause is that
# sample (perf's time and address), the resume probe's for a trace on,
# the pause probe's for a trace off; text lines end with it.
sed -n 's/.*"type":"trace_\(o[nf]*\)".*"cause":"\([^"]*\)","cause_time":\([0-9]*\),"cause_ip":"0x\([0-9a-f]*\)".*/\3 \4 \1 \2/p' \
	"$TMP/paused.jsonl" >"$TMP/causes.named"
if ! cmp -s "$TMP/causes.perf" <(awk '{ print $1, $2 }' "$TMP/causes.named"); then
	fail "the causes the decode names are not the probes' samples (time, address):"
	diff "$TMP/causes.perf" <(awk '{ print $1, $2 }' "$TMP/causes.named") | head -6 >&2
fi
expect_eq "causes by kind" "$(awk '{ print $3, $4 }' "$TMP/causes.named" | sort | uniq -c | awk '{ print $1, $2, $3 }' | tr '\n' ';')" \
	"$CALLS off probe:is_prime__return/aux-action=pause/;$CALLS on probe:is_prime/aux-action=resume/;"
expect_contains "the first trace on line" "$("$HWTRACE" decode "$TMP/paused.data" 2>/dev/null | grep -m1 ' trace on ')" \
	" trace on  at 0x$at_entry  is_prime+0x0 (resume: probe:is_prime/aux-action=resume/)"
"$HWTRACE" info "$TMP/paused.data" >"$TMP/info" 2>&1
# One write per resumed run and the two trace on/off records of each.
expect_eq "AUX records" "$(sed -n 's/^aux: *\([0-9]*\) AUX records.*/\1/p' "$TMP/info")" $((3 * CALLS))
grep -q 'probe:is_prime/aux-action=resume/' "$TMP/info" || fail "info does not name the resume probe"
# The probes are members of the AUX event's group and run when it does
# (perf evlist -v prints "disabled: 1" for an event opened disabled): a
# probe that waited for its own enable after the trace had started would
# miss the first calls, and the paused trace would never resume.
"$PERF" evlist -v -i "$TMP/paused.data" 2>/dev/null | grep "config2" >"$TMP/probe.attrs"
expect_eq "probe attrs in the file" "$(wc -l <"$TMP/probe.attrs")" 2
expect_eq "probe attrs opened disabled" "$(grep -c 'disabled: 1' "$TMP/probe.attrs")" 0
grep -q 'probe:is_prime__return/aux-action=pause/' "$TMP/info" || fail "info does not name the pause probe"

# Errors (usage errors, exit 2): a missing symbol is named; a sw_branch
# trigger on a PMU is refused.
"$HWTRACE" record --emulate "$TMP/orig.data" -o "$TMP/bad.data" \
	--trigger "resume:no_such_fn@$DEMO" >"$TMP/bad.out" 2>&1
expect_eq "exit status, unknown symbol" $? 2
grep -q no_such_fn "$TMP/bad.out" || fail "the error does not name the symbol: $(cat "$TMP/bad.out")"
grep -q "did you mean" "$TMP/bad.out" && fail "a guess for no_such_fn: $(cat "$TMP/bad.out")"
[ -e "$TMP/bad.data" ] && fail "a failed record left $TMP/bad.data"
# A typo of a function the binary has (nm lists is_prime) is answered
# with that function; a name like none of them gets no guess.
nm "$DEMO" | grep -qw is_prime || fail "nm does not list is_prime"
"$HWTRACE" record --emulate "$TMP/orig.data" -o "$TMP/bad.data" \
	--trigger "resume:is_prim@$DEMO" >"$TMP/bad.out" 2>&1
expect_eq "exit status, a typo" $? 2
grep -q "did you mean is_prime?" "$TMP/bad.out" || fail "no suggestion for is_prim: $(cat "$TMP/bad.out")"
"$HWTRACE" record --emulate "$TMP/orig.data" -o "$TMP/bad.data" \
	--trigger "symbol:is_prime" >"$TMP/bad.out" 2>&1
expect_eq "exit status, symbol: on a PMU" $? 2
finish
