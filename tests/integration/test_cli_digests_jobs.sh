# tests/tools/cli_digests.sh, the before/after check of the reading
# commands' output on every capture in the test data: its digests are
# the same at -j 1 and -j 3 (the commands' output does not depend on
# -j), every capture is there with each of its commands, and a build
# whose `info` prints one byte more differs in exactly the info lines
# (so a change in output is seen).
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

DIG="$HWT_SOURCE_DIR/tests/tools/cli_digests.sh"
"$DIG" "$HWTRACE" "$HWT_TESTDATA" "$TMP/j1" 1 || fail "cli_digests.sh -j 1 failed"
"$DIG" "$HWTRACE" "$HWT_TESTDATA" "$TMP/j3" 3 || fail "cli_digests.sh -j 3 failed"
checks=$((checks + 1))
cmp -s "$TMP/j1" "$TMP/j3" || { fail "-j 1 and -j 3 differ:"; diff "$TMP/j1" "$TMP/j3" | head -20 >&2; }

# Each line: NAME STATUS and three digests (or - for no file written).
expect_eq "malformed lines" "$(awk 'function sha(s) {
		return length(s) == 64 && s !~ /[^0-9a-f]/ }
	NF != 5 || $2 ~ /[^0-9]/ || !sha($3) || !sha($4) ||
	($5 != "-" && !sha($5))' "$TMP/j1" | wc -l)" 0
# Every capture of the test data, with every command of its kind.
count() { grep -c "^$1:" "$TMP/j1"; }
for f in "$HWT_TESTDATA"/perf-data/quipper/perf.data.intel_pt-4.14 \
	"$HWT_TESTDATA"/perf-data/simpleperf-etm/perf_etm.data \
	"$HWT_TESTDATA"/perf-data/simpleperf-lbr/perf_lbr.data; do
	expect_eq "commands on ${f#"$HWT_TESTDATA"/}" "$(count "${f#"$HWT_TESTDATA"/}")" 20
done
for d in "$HWT_TESTDATA"/opencsd/*/snapshot.ini; do
	d=${d%/snapshot.ini}
	expect_eq "commands on ${d#"$HWT_TESTDATA"/}" "$(count "${d#"$HWT_TESTDATA"/}")" 4
done
expect_eq "commands on the N-Trace stream" "$(count riscv-ntrace/t1)" 3
# The timelines, the view and pprof wrote their files.
# Two of them are the Intel PT capture's: a build without libipt cannot
# decode it (the PT lines then record its refusal).
want_timelines=6
have_pt_decoder "the Intel PT capture's timelines" || want_timelines=4
expect_eq "timelines written" "$(awk '$1 ~ /:timeline-/ && $2 == 0 && $5 != "-"' "$TMP/j1" | wc -l)" "$want_timelines"

# Positive control: a build whose info prints one more byte, on the PT
# capture alone (in a folder laid out as the test data).
Q=perf-data/quipper/perf.data.intel_pt-4.14
mkdir -p "$TMP/td/${Q%/*}"
ln -s "$HWT_TESTDATA/$Q" "$TMP/td/$Q"
cat >"$TMP/hwtrace" <<EOS
#!/bin/sh
if [ "\$1" = info ]; then "$HWTRACE" "\$@"; s=\$?; echo; exit \$s; fi
exec "$HWTRACE" "\$@"
EOS
chmod +x "$TMP/hwtrace"
"$DIG" "$TMP/hwtrace" "$TMP/td" "$TMP/changed" 1 || fail "cli_digests.sh on the changed build failed"
grep "^$Q:" "$TMP/j1" >"$TMP/q1"
expect_eq "commands on the one capture" "$(wc -l <"$TMP/changed")" 20
expect_eq "lines that differ" "$(diff "$TMP/q1" "$TMP/changed" | grep '^>' | awk '{print $2}')" "$Q:info"

# Usage: three or four arguments, an executable, a folder.
"$DIG" "$HWTRACE" 2>/dev/null
expect_eq "too few arguments" "$?" 2
"$DIG" "$HWT_TESTDATA" "$HWT_TESTDATA" "$TMP/x" 2>/dev/null
expect_eq "not an executable" "$?" 2
expect_eq "no output on a usage error" "$([ -e "$TMP/x" ] && echo yes || echo no)" no

finish
