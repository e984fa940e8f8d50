# hwtrace export --to pprof read by Google's pprof, built offline from
# Debian's sources (golang-go, golang-github-google-pprof-dev; cached in
# the build tree), on a sw_branch capture of call_tree: for every function
# `pprof -top` shows exactly the self (flat) and total (cum) instructions
# `hwtrace report` gives; the branches and time sample types add up to
# the decode's branches and report's time; -traces shows fib(12)'s
# deepest stack, 12 fib frames under main, labelled with pid, tid and
# comm; --no-labels drops the labels and not a count. The file is also
# decoded by protoc against the tree's profile.proto.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/call_tree"
data="$TMP/ct.data"

pprof_build

"$HWTRACE" record -e sw_branch --start main --stop tree_done -o "$data" \
	-- "$PROG" >"$TMP/program.txt" 2>"$TMP/record.err" ||
	{ cat "$TMP/record.err" >&2; fail "record"; finish; exit 1; }
"$HWTRACE" export "$data" --to pprof -o "$TMP/ct.pb.gz" 2>"$TMP/export.err" ||
	fail "export: $(cat "$TMP/export.err")"
"$HWTRACE" report "$data" --top 0 >"$TMP/report.txt" 2>/dev/null ||
	fail "report"

# "function self total" for every function with instructions.
top() {
	"$PPROF" -top -nodefraction=0 -edgefraction=0 -nodecount=1000000 "$@" 2>/dev/null |
		awk '$1 ~ /^[0-9]+$/ { print $NF, $1, $4 }' | sort
}
want=$(awk '!/^#/ && $3 > 0 { print $NF, $1, $3 }' "$TMP/report.txt" | sort)
got=$(top "$TMP/ct.pb.gz")
expect_eq "functions in pprof -top = report's" "$(echo "$got" | wc -l)" "$(echo "$want" | wc -l)"
expect_eq "pprof -top flat/cum instructions = report's self/total" "$got" "$want"
expect_eq "fib: 5341 instructions in report and pprof" \
	"$(echo "$got" | awk '$1 == "fib" { print $2 }')" \
	"$(awk '$NF == "fib" { print $1 }' "$TMP/report.txt")"
expect_eq "pprof: instructions are the default type" \
	"$("$PPROF" -top "$TMP/ct.pb.gz" 2>/dev/null | sed -n 's/^Type: //p')" "instructions"
insns=$(sed -n 's/^# \([0-9]*\) instructions.*/\1/p' "$TMP/report.txt")
expect_contains "pprof: total instructions = report's" \
	"$("$PPROF" -top "$TMP/ct.pb.gz" 2>/dev/null | grep '^Showing')" "of $insns total"
branches=$("$HWTRACE" decode "$data" --format jsonl 2>/dev/null | grep -c '"type":"branch"')
expect_contains "pprof: total branches = decode's" \
	"$("$PPROF" -top -sample_index=branches "$TMP/ct.pb.gz" 2>/dev/null | grep '^Showing')" \
	"of $branches total"
expect_eq "pprof: fib's time (ns) = report's self time" \
	"$("$PPROF" -top -sample_index=time -unit=ns "$TMP/ct.pb.gz" 2>/dev/null | awk '$NF == "fib" { sub("ns", "", $1); print $1 }')" \
	"$(awk '$NF == "fib" { print $6 }' "$TMP/report.txt")"

# Mappings name the binary and its build id (readelf's).
bid=$(readelf -n "$PROG" | sed -n 's/.*Build ID: //p')
expect_contains "pprof -raw: call_tree's mapping with its build id" \
	"$("$PPROF" -raw "$TMP/ct.pb.gz" 2>/dev/null | grep " $PROG ")" "$PROG $bid"

# -traces: one sample per distinct stack, labelled.
"$PPROF" -traces "$TMP/ct.pb.gz" >"$TMP/traces.txt" 2>/dev/null
deepest=$(awk '/^-+\+/ { if (n > m) m = n; n = 0; next } $NF == "fib" { n++ } END { if (n > m) m = n; print m }' "$TMP/traces.txt")
expect_eq "pprof -traces: fib 12 deep" "$deepest" "12"
expect_contains "pprof -traces: comm label" "$(cat "$TMP/traces.txt")" "comm:  call_tree"
tids=$(awk '$1 == "tid:" { print $2 }' "$TMP/traces.txt" | sort -u | wc -l)
expect_eq "pprof -traces: the three traced threads" "$tids" "3"
# pprof puts a separator line before each sample and after the last.
nsamples=$(($(grep -c '^-----' "$TMP/traces.txt") - 1))
expect_eq "samples = distinct stacks (stderr)" "$nsamples" \
	"$(sed -n 's/.* \([0-9]*\) samples (distinct stacks).*/\1/p' "$TMP/export.err")"
expect_contains "stderr: what was skipped" "$(cat "$TMP/export.err")" "skipped: 0 gaps"

# The tree's .proto decodes the same file.
gzip -dc "$TMP/ct.pb.gz" | protoc --proto_path="$HWT_SOURCE_DIR/analysis/export" \
	--decode=perftools.profiles.Profile profile.proto >"$TMP/decoded.txt" 2>&1 ||
	fail "protoc --decode: $(head -3 "$TMP/decoded.txt")"
expect_eq "protoc: sample types" "$(grep -c '^sample_type' "$TMP/decoded.txt")" "3"
expect_eq "protoc: samples = pprof's" "$(grep -c '^sample {' "$TMP/decoded.txt")" \
	"$nsamples"

# --no-labels: the same counts, no labels.
"$HWTRACE" export "$data" --to pprof --no-labels -o "$TMP/nl.pb.gz" 2>/dev/null ||
	fail "export --no-labels"
expect_eq "--no-labels: same flat/cum" "$(top "$TMP/nl.pb.gz")" "$want"
expect_eq "--no-labels: no labels" "$("$PPROF" -traces "$TMP/nl.pb.gz" 2>/dev/null | grep -c 'tid:')" "0"

# Without symbols every function is its address, with report's counts.
"$HWTRACE" export "$data" --to pprof --no-symbols -o "$TMP/ns.pb.gz" 2>"$TMP/ns.err" ||
	fail "export --no-symbols"
want_ns=$("$HWTRACE" report "$data" --no-symbols --top 0 2>/dev/null |
	awk '!/^#/ && $3 > 0 { print $NF, $1, $3 }' | sort)
expect_eq "--no-symbols: pprof -top = report --no-symbols (addresses)" \
	"$(top "$TMP/ns.pb.gz")" "$want_ns"
expect_contains "--no-symbols: functions are addresses" "$(top "$TMP/ns.pb.gz" | head -1)" "0x"
nloc=$(gzip -dc "$TMP/ns.pb.gz" | protoc --proto_path="$HWT_SOURCE_DIR/analysis/export" \
	--decode=perftools.profiles.Profile profile.proto 2>/dev/null | grep -c '^location {')
expect_contains "--no-symbols: every location counted as unnamed" "$(cat "$TMP/ns.err")" \
	"; $nloc locations in code no symbol names"

# No room to write (a file size limit, as a full disk): exit 1, the old
# profile kept, no temporary file left.
before=$(cksum <"$TMP/ct.pb.gz")
(ulimit -f 2; trap '' XFSZ; exec "$HWTRACE" export "$data" --per-cpu --to pprof \
	-o "$TMP/ct.pb.gz") 2>"$TMP/full.err"
expect_eq "no room: exit 1" "$?" "1"
expect_contains "no room: says so" "$(cat "$TMP/full.err")" "writing $TMP/ct.pb.gz failed"
expect_eq "no room: profile untouched" "$(cksum <"$TMP/ct.pb.gz")" "$before"
expect_eq "no room: no temporary file left" "$(ls "$TMP" | grep -c 'ct.pb.gz.tmp')" "0"

# Bad input: an unwritable output is refused and nothing is left there.
if [ "$(id -u)" = 0 ]; then ro="/proc/hwtrace-export.pb.gz"; else
	mkdir "$TMP/ro" && chmod 555 "$TMP/ro" && ro="$TMP/ro/x.pb.gz"; fi
"$HWTRACE" export "$data" --to pprof -o "$ro" 2>"$TMP/ro.err"
expect_eq "unwritable output: refused" "$([ $? -ne 0 ] && echo yes)" "yes"
expect_contains "unwritable output: names it" "$(cat "$TMP/ro.err")" "$ro"
"$HWTRACE" export "$data" -o "$TMP/x" 2>"$TMP/noto.err"
expect_eq "no --to: usage error" "$?" "2"
finish
