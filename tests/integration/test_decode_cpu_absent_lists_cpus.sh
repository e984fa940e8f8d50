# `--cpu N` naming no CPU of the input says which CPUs the input has, as
# ranges ("CPUs 0-3"), for every kind of input (the quipper capture's
# AUX queues are test_decode_filters_matching_nothing's):
# - branch-record samples (LBR): the CPUs of the samples, checked against
#   tests/tools/perf_sample_cpus.py, which reads the samples' cpu fields
#   from the file itself, and against perf script -F cpu where perf reads
#   the file (it does not read simpleperf's). The script's positive
#   controls: a capture perf records on CPUs 0-1 (cpu-clock, where perf
#   may record), and the emulated LBR capture, whose samples the emulator
#   writes on CPU 0 (a per-task event's), which perf script reads too;
# - the packet listing (--packets) of a perf.data capture: the quipper
#   capture's CPU 3 lists that CPU's AUX buffer alone, CPU 5 none and the
#   warning; a per-thread capture's queues are no CPU's (they were all
#   listed);
# - a CoreSight snapshot directory: the CPUs of its trace sources, cores
#   numbered in snapshot.ini's device order (Snowball: two cores, each
#   with a PTM; with a core that has no trace source put between them,
#   CPUs 0 and 2), the same CPUs the decoded elements carry;
# - a per-CPU Intel PT capture of 4 CPUs: "CPUs 0-3", where the list was
#   "0, 1, 2, 3".
# Each failed before: exit 0 and no word (LBR, packets, snapshot), or the
# CPUs one by one.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
SCRIPT="$HWT_SOURCE_DIR/tests/tools/perf_sample_cpus.py"
LBR="$HWT_TESTDATA/perf-data/simpleperf-lbr/perf_lbr.data"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
SNOW="$HWT_TESTDATA/opencsd/Snowball"
PROG="$HWT_BUILD_DIR/tests/programs/known_path"

# warned_cpus ERRFILE: the CPU list of the --cpu warning in ERRFILE.
warned_cpus() {
	sed -n 's/^hwtrace decode: warning: --cpu [0-9]* matches nothing: the [a-z]* has CPUs\{0,1\} //p' "$1"
}

# as_ranges: the CPU numbers on standard input ("[003]", "3") as ranges,
# by the script's formatter.
as_ranges() {
	python3 -c 'import re, sys
sys.path.insert(0, sys.argv[1])
import perf_sample_cpus
print(perf_sample_cpus.ranges({int(m) for m in re.findall(r"\d+", sys.stdin.read())}))' \
		"$HWT_SOURCE_DIR/tests/tools"
}

# decode_cpu WHAT WANT_LIST ARGS...: hwtrace decode ARGS exits 0 and warns
# that the --cpu in ARGS matches nothing, listing WANT_LIST.
decode_cpu() {
	local what=$1 want=$2
	shift 2
	"$HWTRACE" decode "$@" >"$TMP/out" 2>"$TMP/err"
	expect_eq "$what: exit" "$?" 0
	expect_eq "$what: the CPUs warned of" "$(warned_cpus "$TMP/err")" "$want"
}

# --- The script's positive controls.
"$HWTRACE" record -e sw_branch -q -o "$TMP/swb.data" -- "$PROG" 5 2>"$TMP/err" ||
	fail "sw_branch record: $(cat "$TMP/err")"
"$HWTRACE" record -b -c 32 --sysfs "$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-lbr" \
	--emulate-branches "$TMP/swb.data" -o "$TMP/lbr.data" 2>"$TMP/err" ||
	fail "emulated LBR record: $(cat "$TMP/err")"
expect_eq "script: emulated LBR capture" "$(python3 "$SCRIPT" --branch-stack "$TMP/lbr.data")" 0
if perf script -F cpu -i "$TMP/lbr.data" >"$TMP/perf.cpus" 2>/dev/null &&
	[ -s "$TMP/perf.cpus" ]; then
	expect_eq "perf script: emulated LBR capture" "$(as_ranges <"$TMP/perf.cpus")" 0
else
	echo "SKIP part: perf script cannot read the emulated LBR capture" >&2
	skipped_parts=$((skipped_parts + 1))
fi
if [ "$(nproc)" -ge 2 ] &&
	perf record -q -e cpu-clock -C 0-1 -o "$TMP/clock.data" -- sleep 0.2 \
		>/dev/null 2>&1; then
	expect_eq "script: perf's capture of CPUs 0-1" "$(python3 "$SCRIPT" "$TMP/clock.data")" "0-1"
	expect_eq "perf script: its capture of CPUs 0-1" \
		"$(perf script -F cpu -i "$TMP/clock.data" 2>/dev/null | as_ranges)" "0-1"
	expect_eq "script: no branch-stack samples in it" \
		"$(python3 "$SCRIPT" --branch-stack "$TMP/clock.data")" ""
else
	echo "SKIP part: perf cannot record cpu-clock on CPUs 0-1 here" >&2
	skipped_parts=$((skipped_parts + 1))
fi
python3 "$SCRIPT" "$HWT_SOURCE_DIR/CMakeLists.txt" >/dev/null 2>"$TMP/err"
expect_eq "script: not a perf.data file: exit" "$?" 1
expect_contains "script: not a perf.data file" "$(cat "$TMP/err")" "not a little-endian perf.data file"

# --- Branch-record samples.
want=$(python3 "$SCRIPT" --branch-stack "$LBR")
[ -n "$want" ] || fail "perf_sample_cpus.py found no CPU in $LBR"
decode_cpu "simpleperf LBR" "$want" --cpu 99 "$LBR"
first=${want%%[-,]*}
"$HWTRACE" decode --cpu "$first" --format jsonl "$LBR" >"$TMP/out" 2>"$TMP/err"
expect_eq "LBR --cpu $first: no --cpu warning" "$(grep -c -- '--cpu' "$TMP/err")" 0
"$HWTRACE" decode --format jsonl "$LBR" >"$TMP/all" 2>/dev/null
expect_eq "LBR --cpu $first: the branches of its samples" \
	"$(grep -c '"type":"branch"' "$TMP/out")" \
	"$(grep '"type":"branch"' "$TMP/all" | grep -c "\"cpu\":$first,")"
decode_cpu "emulated LBR" "0" --cpu 5 "$TMP/lbr.data"

# --- The packet listing of a perf.data capture.
decode_cpu "--packets --cpu 5" "0, 3" --packets --cpu 5 "$Q"
expect_eq "--packets --cpu 5: nothing listed" "$(wc -l <"$TMP/out")" 0
"$HWTRACE" decode --packets --cpu 3 "$Q" >"$TMP/out" 2>"$TMP/err"
expect_eq "--packets --cpu 3: its AUX buffer alone" \
	"$(grep '^# AUXTRACE' "$TMP/out" | awk '{print $6}' | sort | uniq -c | tr -s ' ')" " 1 3"
expect_eq "--packets --cpu 3: no warning" "$(grep -c warning "$TMP/err")" 0
"$HWTRACE" decode --packets "$Q" >"$TMP/out" 2>/dev/null
expect_eq "--packets: both AUX buffers" "$(grep -c '^# AUXTRACE' "$TMP/out")" 2
"$HWTRACE" decode --packets --cpu 0 "$TMP/swb.data" >"$TMP/out" 2>"$TMP/err"
expect_eq "per-thread --packets --cpu 0: nothing listed" "$(wc -l <"$TMP/out")" 0
expect_contains "per-thread --packets --cpu 0: the warning" "$(cat "$TMP/err")" \
	"--cpu 0 matches nothing: the capture traced threads, not CPUs"

# --- CoreSight snapshot directories.
"$HWTRACE" decode --snapshot "$SNOW" --format jsonl >"$TMP/all" 2>/dev/null
expect_eq "Snowball: its elements' CPUs" \
	"$(grep -o '"cpu":[0-9]*' "$TMP/all" | as_ranges)" "0-1"
decode_cpu "Snowball" "0-1" --snapshot "$SNOW" --cpu 7
decode_cpu "a57_single_step" "0" --snapshot "$HWT_TESTDATA/opencsd/a57_single_step" --cpu 7
expect_contains "one CPU: singular" "$(cat "$TMP/err")" "the snapshot has CPU 0"
cp -r "$SNOW" "$TMP/gap"
sed 's/^name=cpu_0/name=cpu_x/' "$SNOW/cpu_0.ini" >"$TMP/gap/cpu_x.ini"
sed -i 's/^device1=cpu_1.ini/device1=cpu_x.ini\ndevice4=cpu_1.ini/' "$TMP/gap/snapshot.ini"
"$HWTRACE" decode --snapshot "$TMP/gap" --format jsonl >"$TMP/all" 2>/dev/null
expect_eq "a core without trace between: its elements' CPUs" \
	"$(grep -o '"cpu":[0-9]*' "$TMP/all" | as_ranges)" "0, 2"
decode_cpu "a core without trace between" "0, 2" --snapshot "$TMP/gap" --cpu 1
"$HWTRACE" decode --snapshot "$TMP/gap" --cpu 2 --format jsonl >"$TMP/out" 2>"$TMP/err"
expect_eq "snapshot --cpu 2: no --cpu warning" "$(grep -c -- '--cpu' "$TMP/err")" 0
expect_eq "snapshot --cpu 2: CPU 2's elements" "$(grep -c '"cpu":2,' "$TMP/out")" \
	"$(grep -c '"cpu":2,' "$TMP/all")"

# --- A per-CPU Intel PT capture: its CPUs as one range.
if have_pt_decoder "a capture of 4 CPUs"; then
	mkdir -p "$TMP/cpus"
	"$HWT_PT_CPUS_CAPTURE" "$TMP/cpus" 1 4 || fail "pt_cpus_capture"
	decode_cpu "4 CPUs" "0-3" --cpu 9 "$TMP/cpus/perf.data"
	decode_cpu "4 CPUs, --packets" "0-3" --packets --cpu 9 "$TMP/cpus/perf.data"
fi
finish
