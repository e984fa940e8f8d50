# Filters and inputs that match nothing say so on standard error, where
# they once gave an empty output and exit 0 without a word: --cpu of a CPU
# the capture has no trace of (the quipper capture has CPUs 0 and 3), --cpu
# on a per-thread capture, --time on a capture without timestamps, a --time
# range outside the capture's span (the docs' old 641256.03,641256.2 was in
# ms where seconds were meant), --tid of no thread; a perf.data given as a
# raw stream is refused; random bytes as raw BTS are 170 branches no --map
# covers; a capture cut short, which has lost its cpuid feature, points at
# --cpu-model (with the traced CPU's 6/78/3 the error goes away); config
# check refuses a directory and a key set twice; a missing --symfs or
# --vmlinux path is an error.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
PROG="$HWT_BUILD_DIR/tests/programs/known_path"

# decode_warns WHAT WARNING -- ARGS: exit 0 and the warning on stderr.
decode_warns() {
	local what=$1 want=$2
	shift 3
	"$HWTRACE" decode "$@" >"$TMP/out" 2>"$TMP/err"
	expect_eq "$what: exit" "$?" 0
	expect_contains "$what: warning" "$(cat "$TMP/err")" "hwtrace decode: warning: $want"
}

decode_warns "--cpu 5" "--cpu 5 matches nothing: the capture has CPUs 0, 3" -- --cpu 5 "$Q"
"$HWTRACE" decode --cpu 3 "$Q" >/dev/null 2>"$TMP/err"
expect_eq "--cpu 3 matches: no warning" "$(grep -c warning "$TMP/err")" 0
decode_warns "--time in ms" \
	"--time 641256.030000000,641256.200000000 matches nothing: the capture's elements span 641.256845844 to 641.257928663 s" \
	-- --time 641256.03,641256.2 "$Q"
"$HWTRACE" decode --time 641.2568,641.2580 --format jsonl "$Q" >"$TMP/out" 2>"$TMP/err"
expect_eq "--time in s: no warning" "$(grep -c warning "$TMP/err")" 0
# (137: the 10 TIP.PGE and the FUPs read from the packets without the code)
expect_eq "--time in s: all 137 trace_on" "$(grep -c '"type":"trace_on"' "$TMP/out")" 137

"$HWTRACE" record -e sw_branch --start kp_run --stop kp_done -q -o "$TMP/swb.data" \
	-- "$PROG" 5 2>"$TMP/err" || fail "sw_branch record: $(cat "$TMP/err")"
decode_warns "--cpu on per-thread" \
	"--cpu 0 matches nothing: the capture traced threads, not CPUs" -- --cpu 0 "$TMP/swb.data"
# (simpleperf's ETM capture has no timestamps; sw_branch captures carry
# the tracer's clock.)
decode_warns "--time without timestamps" \
	"--time matches nothing: none of the capture's 4 elements carries a timestamp" \
	-- --time 1,2 "$HWT_TESTDATA/perf-data/simpleperf-etm/perf_etm.data"
decode_warns "--tid 5" "--tid 5 matches nothing" -- --tid 5 "$TMP/swb.data"

cp "$Q" "$TMP/prog.data"
"$HWTRACE" decode --raw "intel_pt:$TMP/prog.data" >/dev/null 2>"$TMP/err"
expect_eq "perf.data as raw: exit" "$?" 1
expect_contains "perf.data as raw: refused" "$(cat "$TMP/err")" \
	"$TMP/prog.data is a perf.data file, not a raw intel_pt trace stream: decode it without --raw"

# 4080 bytes = 170 records; the bytes are fixed so the count is too.
python3 -c 'import random, sys; random.seed(18); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(4080)))' \
	>"$TMP/random.data"
decode_warns "random BTS" \
	"170 of the 170 BTS branch records lead from or to addresses that no --map covers" \
	-- --raw "intel_bts:$TMP/random.data" --map "$PROG@0x400000"

head -c 100000 "$Q" >"$TMP/cut.data"
"$HWTRACE" decode "$TMP/cut.data" >"$TMP/out" 2>"$TMP/err"
expect_contains "cut: the error" "$(cat "$TMP/out")" "unexpected packet context"
expect_contains "cut: the hint" "$(cat "$TMP/err")" \
	"cut.data names no CPU (it has no cpuid feature: the file is cut short before its feature sections), so no errata workarounds were applied, and the decode gave 1 errors: give --cpu-model FAMILY/MODEL/STEPPING"
"$HWTRACE" decode --cpu-model 6/78/3 "$TMP/cut.data" >"$TMP/out" 2>"$TMP/err"
expect_eq "cut with the CPU: no error" "$(grep -c 'error' "$TMP/out")" 0
expect_eq "cut with the CPU: no hint" "$(grep -c 'warning' "$TMP/err")" 0
"$HWTRACE" decode "$Q" >/dev/null 2>"$TMP/err"
expect_eq "whole capture: no hint" "$(grep -c 'warning' "$TMP/err")" 0

"$HWTRACE" config check "$HWT_SOURCE_DIR/configs" >"$TMP/out" 2>"$TMP/err"
expect_eq "config check of a directory: exit" "$?" 1
expect_contains "config check of a directory" "$(cat "$TMP/err")" "configs is a directory, not a regular file"
expect_eq "config check of a directory: not valid" "$(grep -c 'OK' "$TMP/out")" 0
printf '[session]\nbackend = intel_pt\n[intel_pt]\ncyc = 1\nCYC = 0\n' >"$TMP/dup.ini"
"$HWTRACE" config check "$TMP/dup.ini" --sysfs "$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client" \
	>/dev/null 2>"$TMP/err"
expect_eq "duplicate key: exit" "$?" 1
expect_contains "duplicate key" "$(cat "$TMP/err")" "dup.ini:5: [intel_pt] CYC is set twice (first at line 4)"

"$HWTRACE" decode --symfs "$TMP/nowhere" "$Q" >/dev/null 2>"$TMP/err"
expect_eq "missing --symfs: exit" "$?" 2
expect_contains "missing --symfs" "$(cat "$TMP/err")" "--symfs $TMP/nowhere: the directory does not exist"
"$HWTRACE" decode --vmlinux "$TMP/vmlinux" "$Q" >/dev/null 2>"$TMP/err"
expect_eq "missing --vmlinux: exit" "$?" 2
expect_contains "missing --vmlinux" "$(cat "$TMP/err")" "--vmlinux $TMP/vmlinux: the file does not exist"
finish
