# Call triggers and AUX pause/resume on a replayed Intel PT capture: the
# emulator finds where the trace enters and leaves work() with the PT
# decoder and fires the probes there. The capture is pt_calls_capture's
# trace of tests/programs/pt_calls (main calls work() 40 times); the
# tool prints each call's entry and return time, the schedule its TSC
# packets carry, which is the ground truth for times. perf script
# --itrace=b of the same capture is the oracle for the branches: how
# many calls there are, and which branches run inside work().
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
have_pt_decoder "PT triggers" || finish
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "FAIL: perf is not installed (Debian: linux-perf)" >&2; exit 1; }
BIN="$HWT_BUILD_DIR/tests/programs/pt_calls"

${HWT_TARGET_RUN:-} "$HWT_PT_CALLS_CAPTURE" "$BIN" "$TMP/orig.data" >"$TMP/calls" ||
	{ fail "pt_calls_capture"; finish; }
# Run-time addresses from nm and the capture's mapping (perf names main).
sym() { nm "$BIN" | awk -v s="$1" '$3 == s { print $1 }'; }
main_at=$("$PERF" script -i "$TMP/orig.data" --itrace=b -F ip,addr,sym 2>/dev/null |
	awk '$NF == "main" && $1 == "0" { print $4; exit }')
[ -n "$main_at" ] || { fail "perf does not decode the capture"; finish; }
base=$(( 0x$main_at - 0x$(sym main) ))
work=$(printf '%x' $(( base + 0x$(sym work) )))
back=$(printf '%x' $(( base + 0x$(sym pt_calls_back) )))

# perf's calls into work in the capture: as many as the program makes.
perf_br() { "$PERF" script -i "$1" --itrace=b -F flags,ip,addr 2>/dev/null; }
perf_br "$TMP/orig.data" >"$TMP/orig.perf"
calls=$(grep -c "call .* => *$work\$" "$TMP/orig.perf")
expect_eq "perf: calls of work" "$calls" "$(wc -l <"$TMP/calls")"
expect_eq "perf: returns from work" "$(grep -c "return *$work => *$back\$" "$TMP/orig.perf")" "$calls"

info_field() { "$HWTRACE" info "$1" 2>&1 | sed -n "s/^  $2: //p" | tr '\n' ' '; }

# symbol: with --trigger-count 3: the first three entries, at the times
# the program's schedule gives them. Replayed slowly (500 bytes/s, a
# call every 100 ms or so) each fire gets a window of its own, which
# ends where its call was made.
"$HWTRACE" record --emulate "$TMP/orig.data" --emulate-rate 0.0005 -S -o "$TMP/sym.data" \
	--trigger "symbol:work@$BIN" --trigger-count 3 >"$TMP/sym.out" 2>&1 ||
	{ cat "$TMP/sym.out" >&2; fail "record symbol:"; }
expect_eq "symbol: entries fired" "$(info_field "$TMP/sym.data" entry)" "1 2 3 "
expect_eq "symbol: fire times" "$(info_field "$TMP/sym.data" time)" \
	"$(awk 'NR <= 3 { printf "%s ", $3 }' "$TMP/calls")"
grep -q "$calls entries, 0 calls returned, 3 fired" "$TMP/sym.out" ||
	fail "symbol: summary: $(grep trigger "$TMP/sym.out")"
expect_eq "symbol: the windows decode" "$("$HWTRACE" decode "$TMP/sym.data" 2>&1 | grep -c ' 0 errors, ')" 1
# Where each call is made, in perf's packet dump of the capture: before
# the TSC that follows the TIP.PGE into main or a jnz's TNT (that TSC
# times work's return); and where perf finds each window's bytes.
dump_packets() { "$PERF" report -D -i "$1" 2>/dev/null | awk '$1 == "." && $2 ~ /^[0-9a-f]+:$/ {
	name = ""; for (i = 3; i <= NF; i++) if ($i ~ /^[A-Z]/) { name = $i; break }
	print substr($2, 1, length($2) - 1), name }'; }
dump_packets "$TMP/orig.data" | awk '
	prev ~ /^(TIP.PGE|TNT)$/ && $2 == "TSC" { print $1 } { prev = $2 }' |
	while read -r h; do echo $((16#$h)); done | head -3 >"$TMP/entry.at"
"$PERF" report -D -i "$TMP/sym.data" 2>/dev/null |
	sed -n 's/.*PERF_RECORD_AUXTRACE size: 0x\([0-9a-f]*\) *offset: 0x\([0-9a-f]*\).*/\2 \1/p;
		s/.*PERF_RECORD_AUXTRACE size: 0x\([0-9a-f]*\) *offset: 0 .*/0 \1/p' |
	while read -r off size; do echo $((16#$off)) $((16#$size)); done >"$TMP/windows"
if grep -q " 3 fired, in 3 windows" "$TMP/sym.out"; then
	# Window k + 1 starts where call k was made; the last one ends there
	# (its size rounded up to 8 bytes, as perf pads AUXTRACE data).
	expect_eq "symbol: windows start at the calls" "$(awk '{ printf "%s ", $1 }' "$TMP/windows")" \
		"0 $(head -2 "$TMP/entry.at" | tr '\n' ' ')"
	read -r last_off last_size < <(tail -1 "$TMP/windows")
	third=$(sed -n 3p "$TMP/entry.at")
	expect_eq "symbol: the last window ends at the 3rd call" "$last_size" $(( (third - last_off + 7) / 8 * 8 ))
else
	echo "SKIP part: windows: the machine was too slow for one window a fire: $(grep fired "$TMP/sym.out")" >&2
	skipped_parts=$((skipped_parts + 1))
fi

# latency: exactly the calls that took longer than 1 ms, each with its
# duration.
"$HWTRACE" record --emulate "$TMP/orig.data" -S -o "$TMP/lat.data" \
	--trigger "latency:work@$BIN>1ms" >"$TMP/lat.out" 2>&1 ||
	{ cat "$TMP/lat.out" >&2; fail "record latency:"; }
awk '$4 - $3 > 1000000 { printf "%s ", $2 }' "$TMP/calls" >"$TMP/slow"
[ -s "$TMP/slow" ] || fail "the program has no slow call"
expect_eq "latency: entries fired" "$(info_field "$TMP/lat.data" entry)" "$(cat "$TMP/slow")"
expect_eq "latency: durations" "$(info_field "$TMP/lat.data" duration_ns)" \
	"$(awk '$4 - $3 > 1000000 { printf "%d ", $4 - $3 }' "$TMP/calls")"
grep -q "$calls entries, $calls calls returned, $(wc -w <"$TMP/slow") fired" "$TMP/lat.out" ||
	fail "latency: summary: $(grep trigger "$TMP/lat.out")"

# resume:/pause: the trace only inside work's calls. perf decodes the
# paused replay into the same branches as hwtrace, and those are perf's
# branches of the capture from inside work (the returns), in order;
# perf shows each region's start and end as "tr strt" (TIP.PGE) and "tr
# end async" (FUP, TIP.PGD).
"$HWTRACE" record --emulate "$TMP/orig.data" -o "$TMP/paused.data" \
	--trigger "resume:work@$BIN" --trigger "pause:work%return@$BIN" \
	>"$TMP/paused.out" 2>&1 || { cat "$TMP/paused.out" >&2; fail "record resume:/pause:"; finish; }
"$HWTRACE" decode --format jsonl "$TMP/paused.data" >"$TMP/paused.jsonl" 2>/dev/null
sed -n 's/.*"type":"branch".*"from":"0x\([0-9a-f]*\)","to":"0x\([0-9a-f]*\)".*/\1 \2/p' \
	"$TMP/paused.jsonl" >"$TMP/paused.br"
"$PERF" script -i "$TMP/paused.data" --itrace=b -F event,flags,ip,addr 2>/dev/null |
	grep '^ *branches' >"$TMP/paused.perf"
awk '!/tr strt|tr end/ { print $(NF - 2), $NF }' "$TMP/paused.perf" >"$TMP/paused.perf.br"
[ -s "$TMP/paused.perf.br" ] || fail "perf finds no branches in the paused replay"
if ! cmp -s "$TMP/paused.perf.br" "$TMP/paused.br"; then
	fail "hwtrace's branches of the paused replay are not perf's:"
	diff "$TMP/paused.perf.br" "$TMP/paused.br" | head -6 >&2
fi
awk -v w="$work" '$1 != "tr" && $(NF - 2) == w { print $(NF - 2), $NF }' "$TMP/orig.perf" >"$TMP/inside.br"
expect_eq "perf: returns from work in the capture" "$(wc -l <"$TMP/inside.br")" "$calls"
if ! cmp -s "$TMP/inside.br" "$TMP/paused.br"; then
	fail "the paused replay's branches are not the capture's from inside work:"
	diff "$TMP/inside.br" "$TMP/paused.br" | head -6 >&2
fi
expect_eq "perf: trace starts at work" "$(grep -c "tr strt  *0 => *$work\$" "$TMP/paused.perf")" "$calls"
expect_eq "perf: trace ends at the return site" "$(grep -c "tr end  *async  *$back => *0\$" "$TMP/paused.perf")" "$calls"
expect_eq "ranges outside work" "$(grep '"type":"range"' "$TMP/paused.jsonl" | grep -vc '"sym":"work"')" 0
expect_eq "gaps and errors" "$(grep -c '"type":"gap"\|"type":"error"' "$TMP/paused.jsonl")" 0
# Positive control: the replay without triggers has main's branches too.
"$HWTRACE" record --emulate "$TMP/orig.data" -o "$TMP/plain.data" >"$TMP/plain.out" 2>&1 ||
	fail "record (control)"
expect_eq "control: branches" "$("$HWTRACE" decode --format jsonl "$TMP/plain.data" 2>/dev/null | grep -c '"type":"branch"')" \
	"$(grep -vc 'tr strt\|tr end' "$TMP/orig.perf")"

# The trace says where it stopped and started, with the cause: a
# trace_on at work's entry at each call's entry time (the resume
# probe's sample, as perf prints it), a trace_off at the return site at
# each return time (the pause probe's).
sed -n 's/.*"type":"trace_\(o[nf]*\)",.*"at":"0x\([0-9a-f]*\)","time":\([0-9]*\).*/\1 \2 \3/p' \
	"$TMP/paused.jsonl" >"$TMP/onoff.hwt"
awk -v w="$work" -v b="$back" '{ print "on", w, $3; print "off", b, $4 }' "$TMP/calls" >"$TMP/onoff.want"
if ! cmp -s "$TMP/onoff.want" "$TMP/onoff.hwt"; then
	fail "trace on/off are not at each call's entry and return:"
	diff "$TMP/onoff.want" "$TMP/onoff.hwt" | head -6 >&2
fi
"$PERF" script -i "$TMP/paused.data" --no-itrace --ns -F time,ip 2>/dev/null |
	awk '{ t = $1; sub(":", "", t); sub("\\.", "", t); sub("^0*", "", t); print $2, t }' >"$TMP/samples.perf"
awk '{ print $2, $3 }' "$TMP/onoff.hwt" >"$TMP/samples.want"
if ! cmp -s "$TMP/samples.want" "$TMP/samples.perf"; then
	fail "the probes' samples (perf) are not the trace's on/off points:"
	diff "$TMP/samples.want" "$TMP/samples.perf" | head -6 >&2
fi

# The decode names the cause of each: every trace on the resume probe,
# every trace off the pause probe, by the names info lists, and in jsonl
# the sample each came from, which are perf's samples (IP and time), in
# perf's order.
resume_name="probe:work/aux-action=resume/"
pause_name="probe:work__return/aux-action=pause/"
grep -qx "event: *$resume_name (type [0-9]*, config 0x0)" <("$HWTRACE" info "$TMP/paused.data" 2>&1) ||
	fail "info does not list $resume_name"
"$HWTRACE" decode "$TMP/paused.data" 2>/dev/null | grep ' trace o[nf]' >"$TMP/onoff.txt"
expect_eq "trace on lines naming the resume" \
	"$(grep -c "trace on  at 0x$work  work+0x0 (resume: $resume_name)\$" "$TMP/onoff.txt")" "$calls"
expect_eq "trace off lines naming the pause" \
	"$(grep -c "trace off at 0x$back  main+0x[0-9a-f]* (pause: $pause_name)\$" "$TMP/onoff.txt")" "$calls"
expect_eq "trace on/off lines" "$(wc -l <"$TMP/onoff.txt")" $((2 * calls))
# The first of each exactly, its thread and times as perf prints them.
read -r tid0 _ < <("$PERF" script -i "$TMP/paused.data" --no-itrace -F tid,ip 2>/dev/null)
read -r _ _ t_on t_off < <(head -1 "$TMP/calls")
off_at=$(( 0x$back - base - 0x$(sym main) ))
expect_eq "the first trace on line" "$(sed -n 1p "$TMP/onoff.txt")" \
	"[000]   $tid0 $t_on: trace on  at 0x$work  work+0x0 (resume: $resume_name)"
expect_eq "the first trace off line" "$(sed -n 2p "$TMP/onoff.txt")" \
	"[000]   $tid0 $t_off: trace off at 0x$back  main+$(printf '0x%x' $off_at) (pause: $pause_name)"
sed -n 's/.*"type":"trace_o[nf]*".*"cause":"\([^"]*\)","cause_time":\([0-9]*\),"cause_ip":"0x\([0-9a-f]*\)".*/\3 \2 \1/p' \
	"$TMP/paused.jsonl" >"$TMP/causes.jsonl"
expect_eq "jsonl: causes of trace on/off" "$(wc -l <"$TMP/causes.jsonl")" $((2 * calls))
expect_eq "jsonl: the causes' events" "$(awk '{ print $3 }' "$TMP/causes.jsonl" | sort | uniq -c | awk '{ print $1, $2 }' | tr '\n' ';')" \
	"$calls $resume_name;$calls $pause_name;"
if ! cmp -s <(awk '{ print $1, $2 }' "$TMP/causes.jsonl") "$TMP/samples.perf"; then
	fail "the causes the decode names are not perf's probe samples (ip, time):"
	diff <(awk '{ print $1, $2 }' "$TMP/causes.jsonl") "$TMP/samples.perf" | head -6 >&2
fi
# The lines with causes are of the documented schema (docs/jsonl.schema.json).
if python3 -c 'import jsonschema' 2>/dev/null; then
	python3 - "$HWT_SOURCE_DIR/docs/jsonl.schema.json" "$TMP/paused.jsonl" <<'PY' ||
import json, sys
import jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
lines = [line for line in open(sys.argv[2]) if '"cause"' in line]
bad = [n for n, line in enumerate(lines, 1) if not v.is_valid(json.loads(line))]
sys.exit("no line with a cause" if not lines else
         "lines %s do not validate" % bad[:5] if bad else 0)
PY
		fail "jsonl with causes does not validate against the schema"
else
	echo "SKIP part: python3-jsonschema is not installed" >&2
	skipped_parts=$((skipped_parts + 1))
fi
# Positive control: with the pause probe alone the trace runs from its
# start, whose trace on no probe caused: no cause, while the trace off at
# the first return names the pause (its later samples cause nothing).
"$HWTRACE" record --emulate "$TMP/orig.data" -o "$TMP/ponly.data" --trigger "pause:work%return@$BIN" \
	>"$TMP/ponly.out" 2>&1 || { cat "$TMP/ponly.out" >&2; fail "record pause: alone"; }
"$HWTRACE" decode "$TMP/ponly.data" 2>/dev/null | grep ' trace o[nf]' >"$TMP/ponly.txt"
# The start is the plain replay's first trace on, at main.
plain_on=$("$HWTRACE" decode "$TMP/plain.data" 2>/dev/null | grep -m1 ' trace on ')
expect_contains "the plain replay's start" "$plain_on" \
	"trace on  at 0x$(printf '%x' $(( base + 0x$(sym main) )))  main+0x0"
expect_eq "pause alone: the trace's start" "$(sed -n 1p "$TMP/ponly.txt")" "$plain_on"
expect_eq "pause alone: trace on/off lines" "$(wc -l <"$TMP/ponly.txt")" 2
expect_contains "pause alone: the trace off" "$(sed -n 2p "$TMP/ponly.txt")" \
	"$t_off: trace off at 0x$back  main+$(printf '0x%x' $off_at) (pause: $pause_name)"
expect_eq "pause alone: perf's pause samples" \
	"$("$PERF" script -i "$TMP/ponly.data" --no-itrace -F ip 2>/dev/null | grep -cx " *$back")" "$calls"
expect_eq "plain replay: trace ons with a cause" \
	"$("$HWTRACE" decode --format jsonl "$TMP/plain.data" 2>/dev/null | grep '"type":"trace_on"' | grep -c '"cause"')" 0
finish
