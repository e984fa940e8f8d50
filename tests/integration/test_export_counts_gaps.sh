# Exports of a capture whose trace is mostly lost (quipper's Intel PT
# file: its binaries are not on this machine, so every stretch of trace
# is a no_image gap): each export says how many gaps and how many trace
# bytes they lost, the same as the decode's gap elements, and invents
# nothing across them. What the packets say without the code is all
# there is: trace begin/end samples (the trace on/off elements, and the
# targets whose source the trace does not give, which perf's export has
# as trace begins too), and the 4 interrupts (FUP to TIP) from user code
# into the kernel, each a trap frame under the root it left: 619 samples
# in all, perf script --itrace=b's count. Both files are still valid for
# their readers. The per-binary profiles (autofdo, bolt-preagg) count the
# same gaps and hold only those 4 branches, in the 3 binaries (not here)
# the interrupts left.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
DATA=$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14

"$HWTRACE" decode "$DATA" --format jsonl >"$TMP/d.jsonl" 2>/dev/null ||
	fail "decode"
gaps=$(grep -c '"type":"gap"' "$TMP/d.jsonl")
bytes=$(grep '"type":"gap"' "$TMP/d.jsonl" | sed -n 's/.*"bytes":\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
marks=$(grep -c '"type":"trace_o[nf]f*"' "$TMP/d.jsonl")
nofrom=$(grep '"type":"branch"' "$TMP/d.jsonl" | grep -vc '"from"')
irqs=$(grep -c '"kind":"interrupt"' "$TMP/d.jsonl")
expect_eq "the packets' elements (decode)" "$marks $nofrom $irqs" "138 477 4"
expect_eq "the capture's gaps (decode)" "$gaps" "10"
expect_eq "the capture's lost bytes (decode)" "$bytes" "149018"

"$HWTRACE" export "$DATA" --to sqlite -o "$TMP/q.db" 2>"$TMP/sqlite.err" ||
	fail "sqlite export: $(cat "$TMP/sqlite.err")"
expect_contains "sqlite: gaps and bytes on stderr" "$(cat "$TMP/sqlite.err")" \
	"skipped: $gaps gaps and decode errors ($bytes trace bytes lost"
expect_contains "sqlite: unnamed samples counted" "$(cat "$TMP/sqlite.err")" \
	"; $((marks + nofrom + irqs)) samples in code no symbol names"
q() { python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$@"; }
expect_eq "sqlite: perf's 619 samples" \
	"$(q "$TMP/q.db" 'select count(*) from samples where id > 0')" "619"
expect_eq "sqlite: trace begin/end" \
	"$(q "$TMP/q.db" 'select count(*) from samples where branch_type in (257, 513)')" "$((marks + nofrom))"
expect_eq "sqlite: the interrupts' calls: 4 roots, 4 traps" \
	"$(q "$TMP/q.db" 'select count(*) from calls where id > 0')" "8"

"$HWTRACE" export "$DATA" --to pprof -o "$TMP/q.pb.gz" 2>"$TMP/pprof.err" ||
	fail "pprof export: $(cat "$TMP/pprof.err")"
expect_contains "pprof: gaps and bytes on stderr" "$(cat "$TMP/pprof.err")" \
	"skipped: $gaps gaps and decode errors ($bytes trace bytes lost"
gzip -dc "$TMP/q.pb.gz" | protoc --proto_path="$HWT_SOURCE_DIR/analysis/export" \
	--decode=perftools.profiles.Profile profile.proto >"$TMP/q.txt" 2>&1 ||
	fail "protoc --decode: $(head -3 "$TMP/q.txt")"
expect_eq "pprof: only the interrupts' stacks" "$(grep -c '^sample {' "$TMP/q.txt")" "7"
expect_eq "pprof: its sample types" "$(grep -c '^sample_type' "$TMP/q.txt")" "3"

for f in autofdo bolt-preagg; do
	"$HWTRACE" export "$DATA" --to "$f" -o "$TMP/pgo" 2>"$TMP/$f.err" ||
		fail "$f export: $(cat "$TMP/$f.err")"
	expect_contains "$f: gaps and bytes on stderr" "$(cat "$TMP/$f.err")" \
		"skipped: $gaps gaps and decode errors ($bytes trace bytes lost"
	expect_contains "$f: nothing invented" "$(cat "$TMP/$f.err")" \
		" 0 ranges (0 ended without a taken branch) and 4 taken branches; 0 distinct ranges and 4 distinct branches in 3 files"
	expect_eq "$f: the interrupts' binaries" "$(ls "$TMP" | grep -c '^pgo\.')" "3"
	rm -f "$TMP"/pgo.*
done
finish
