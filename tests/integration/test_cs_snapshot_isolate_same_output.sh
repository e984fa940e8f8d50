# `decode --snapshot` isolated (the default for cs_etm: each trace buffer
# decoded by OpenCSD in a sandboxed worker) writes what the in-process
# decode (--no-isolate, the oracle) writes, on every OpenCSD snapshot of
# the shared test data: text, jsonl and --disasm, the --cpu filter and its
# "matches nothing" warning, --isolate too; the same bytes on standard
# output and standard error and the same exit status. The elements are
# those test_cs_snapshot_matches_opencsd checks against trc_pkt_lister;
# the positive control is their count, 11865 lines of text in all.
# Then the worker itself: while hwtrace waits on a full pipe, its child is
# there and under a seccomp filter (Seccomp: 2); with --no-isolate there
# is no child. And a worker that says nothing for --isolate-timeout:
# ete_mem with 64 MB of zeros as its buffer, which OpenCSD reads for
# 0.6 s of CPU without an element to send (one no_sync gap at its end, as
# --no-isolate shows), costs that buffer and the decode exits 1.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

SS="$HWT_TESTDATA/opencsd"
snapshots="Snowball a57_single_step ete-ite-instr ete_mem ete_spec_1
init-short-addr q_elem src_addr tme_simple trace_cov_a15 ts_marker"

# same NAME ARGS...: --no-isolate against the default and --isolate.
same() {
	local name=$1
	shift
	"$HWTRACE" decode --no-isolate "$@" >"$TMP/in.out" 2>"$TMP/in.err"
	rc_in=$?
	for how in default --isolate; do
		local opt=()
		[ $how = default ] || opt=("$how")
		"$HWTRACE" decode "${opt[@]}" "$@" >"$TMP/iso.out" 2>"$TMP/iso.err"
		expect_eq "$name ($how) exit" "$?" "$rc_in"
		checks=$((checks + 2))
		cmp -s "$TMP/in.out" "$TMP/iso.out" ||
			fail "$name ($how): isolated output differs"
		cmp -s "$TMP/in.err" "$TMP/iso.err" ||
			fail "$name ($how): isolated standard error differs"
	done
}

total=0
for s in $snapshots; do
	same "$s text" --snapshot "$SS/$s"
	expect_eq "$s exit" "$rc_in" 0
	total=$((total + $(wc -l <"$TMP/iso.out")))
	same "$s jsonl" --format jsonl --snapshot "$SS/$s"
	same "$s --disasm" --disasm --snapshot "$SS/$s"
done
expect_eq "text lines of the eleven snapshots" "$total" 11865

# Snowball traces cpu 0 and cpu 1 in one buffer.
same "Snowball --cpu 1" --cpu 1 --snapshot "$SS/Snowball"
expect_contains "Snowball --cpu 1 summary" "$(cat "$TMP/iso.err")" \
	"569 ranges (3577 instructions), 376 branches"
same "Snowball --cpu 5" --cpu 5 --snapshot "$SS/Snowball"
expect_contains "Snowball --cpu 5 warning" "$(cat "$TMP/iso.err")" \
	"--cpu 5 matches nothing: the snapshot has CPUs 0-1"

# worker_of ARGS...: decodes Snowball with --disasm (900 KB of text) into
# a pipe that is not read until hwtrace has written 60 KB and blocks; then
# prints its children's "Seccomp:" values (none: no line).
worker_of() {
	mkfifo "$TMP/fifo.$1"
	"$HWTRACE" decode "$@" --disasm --snapshot "$SS/Snowball" \
		>"$TMP/fifo.$1" 2>/dev/null &
	local pid=$! i written=0
	exec 3<"$TMP/fifo.$1"
	for i in $(seq 200); do
		written=$(awk '/^wchar:/ { print $2 }' /proc/$pid/io 2>/dev/null)
		[ "${written:-0}" -ge 60000 ] && break
		sleep 0.05
	done
	for child in $(ps -o pid= --ppid $pid); do
		awk '/^Seccomp:/ { print $2 }' /proc/$child/status
	done
	cat <&3 >/dev/null
	exec 3<&-
	wait $pid
	echo "exit $?"
}
expect_eq "isolated: the worker and its filter" "$(worker_of --isolate | tr '\n' ' ')" \
	"2 exit 0 "
expect_eq "--no-isolate: no worker" "$(worker_of --no-isolate | tr '\n' ' ')" \
	"exit 0 "

mkdir "$TMP/zeros"
for f in "$SS/ete_mem"/*; do ln -s "$f" "$TMP/zeros/"; done
rm "$TMP/zeros/session1.bin"
head -c $((64 << 20)) /dev/zero >"$TMP/zeros/session1.bin"
"$HWTRACE" decode --no-isolate --snapshot "$TMP/zeros" >/dev/null 2>"$TMP/z.err"
expect_eq "64 MB of zeros --no-isolate exit" "$?" 0
expect_contains "64 MB of zeros --no-isolate summary" "$(cat "$TMP/z.err")" \
	"0 ranges (0 instructions), 0 branches, 0 errors, 1 gaps (1 no_sync;"
# --isolate -j 1: an AddressSanitizer build isolates by default only on
# one thread (docs/decode.md, "Isolated decoders").
"$HWTRACE" decode --isolate -j 1 --isolate-timeout 0.05 --format jsonl \
	--snapshot "$TMP/zeros" >"$TMP/z.out" 2>"$TMP/z.err"
expect_eq "64 MB of zeros, timed out: exit" "$?" 1
lost="cs_etm decoder's worker process did not answer for 50 ms (it was \
stopped) while it decoded the snapshot's buffer ETB_1 ($TMP/zeros/session1.bin), \
bytes 0x0-0x4000000: those bytes are not decoded, the rest of the trace is \
(docs/decode.md, \\\"Isolated decoders\\\")"
expect_eq "64 MB of zeros, timed out: the element" "$(grep -v '"type":"header"' "$TMP/z.out")" \
	"{\"type\":\"error\",\"offset\":0,\"message\":\"$lost\"}"
expect_contains "64 MB of zeros, timed out: the summary" "$(cat "$TMP/z.err")" \
	"hwtrace: 1 part of the trace could not be decoded: the cs_etm decoder's \
worker process crashed or stopped answering (the error elements name each \
stream and byte range; the first: ${lost//\\\"/\"})"
finish
