# hwtrace info on the real captures: backend, trace bytes per CPU, time
# span, threads, commands and missing binaries, as the testdata README and
# perf's dumps of the same files state them.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

PD="$HWT_TESTDATA/perf-data"
Q="$PD/quipper/perf.data.intel_pt-4.14"
S="$PD/simpleperf-etm/perf_etm.data"

# The earliest and latest sample time perf printed for the file.
perf_times() {
	grep -oE '^[0-9-]+ [0-9]+ 0x[0-9a-f]+ \[' "$1" | awk '$2 > 0 { print $2 }' | sort -n |
		sed -n '1p;$p' | tr '\n' ' '
}

"$HWTRACE" info "$Q" > "$TMP/q.txt"
expect_eq "quipper exit status" "$?" 0
q=$(cat "$TMP/q.txt")
# README: "2 AUXTRACE buffers (cpu0 12,240 B, cpu3 137,728 B)".
expect_contains "backend" "$q" "backend:     intel_pt (AUXTRACE_INFO type 1)"
expect_contains "cpu0 bytes" "$q" "cpu 0       12240 bytes in 1 buffers"
expect_contains "cpu3 bytes" "$q" "cpu 3       137728 bytes in 1 buffers"
expect_contains "total bytes" "$q" "trace:       149968 bytes in 2 AUXTRACE buffers"
# perf's aggregated stats: 257 events, none of them LOST.
expect_contains "records" "$q" "records:     257"
expect_contains "lost" "$q" "lost:        0 LOST records (0 events)"
set -- $(perf_times "$Q.perf-report-D.txt")
expect_contains "time span" "$q" "time:        $1 .. $2 "
# perf -D: "PERF_RECORD_COMM exec: echo:3174/3174".
expect_contains "traced command" "$q" "  3174/3174 echo"
expect_contains "commands" "$q" "commands:    perf echo"
expect_contains "cmdline" "$q" "cmdline:     /usr/bin/perf record -e cycles -e intel_pt//"
expect_contains "kernel" "$q" "[kernel.kallsyms]_text (the kernel"
expect_contains "missing libc" "$q" "  /lib64/libc-2.23.so MISSING"

"$HWTRACE" info "$S" > "$TMP/s.txt"
expect_eq "simpleperf exit status" "$?" 0
s=$(cat "$TMP/s.txt")
expect_contains "simpleperf file" "$s" "written by simpleperf"
expect_contains "backend" "$s" "backend:     cs_etm (AUXTRACE_INFO type 3)"
# README: "one formatted AUXTRACE buffer of 0x180 bytes"; perf -D: cpu 7.
expect_contains "cpu7 bytes" "$s" "cpu 7       384 bytes in 1 buffers"
expect_contains "thread" "$s" "  17235/17235 etm_test_loop"
set -- $(perf_times "$S.perf-report-D.txt")
expect_contains "time span" "$s" "time:        $1 .. $2 "
expect_contains "binary missing" "$s" "  /data/local/tmp/etm_test_loop MISSING"
expect_contains "missing count" "$s" "missing:     8 of 8 binaries"

# With the traced binary under --symfs, it is no longer missing.
mkdir -p "$TMP/symfs/data/local/tmp"
cp "$PD/simpleperf-etm/etm_test_loop" "$TMP/symfs/data/local/tmp/"
s=$("$HWTRACE" info --symfs "$TMP/symfs" "$S")
expect_contains "found under symfs" "$s" "$(printf '\n  /data/local/tmp/etm_test_loop\n')"
expect_contains "missing count with symfs" "$s" "missing:     7 of 8 binaries are not on this machine nor under $TMP/symfs"

# A capture cut short: the summary of what was read, then the error.
head -c $((0x7788 + 100)) "$Q" > "$TMP/cut.data"
"$HWTRACE" info "$TMP/cut.data" > "$TMP/cut.txt" 2> "$TMP/cut.err"
expect_eq "cut exit status" "$?" 1
expect_contains "cut summary" "$(cat "$TMP/cut.txt")" "cpu 0       12240 bytes in 1 buffers"
expect_contains "cut error" "$(cat "$TMP/cut.err")" "byte offset 30600"

"$HWTRACE" info --help > /dev/null
expect_eq "--help" "$?" 0
"$HWTRACE" info 2> /dev/null
expect_eq "no file" "$?" 2
"$HWTRACE" info --symfs 2> /dev/null
expect_eq "--symfs without DIR" "$?" 2
finish
