#!/bin/bash
# skip_report.sh LASTTEST_LOG: after a ctest run, print every skipped test
# and every skipped part of a test with its reason (the "SKIP:" and "SKIP
# part:" lines the tests print), and their counts, so that a run that
# leaves something out says what and why.
log=${1:?usage: skip_report.sh Testing/Temporary/LastTest.log}
[ -r "$log" ] || { echo "skip_report: $log: no ctest log" >&2; exit 1; }
tests=$(grep -E '^SKIP: ' "$log" | sort -u)
parts=$(grep -E '^SKIP part: ' "$log" | sort -u)
ntests=$(grep -c . <<<"$tests")
nparts=$(grep -c . <<<"$parts")
echo "== skipped on this run: $ntests tests, $nparts parts of tests =="
[ -n "$tests" ] && sed 's/^SKIP: /  test /' <<<"$tests"
[ -n "$parts" ] && sed 's/^SKIP part: /  part /' <<<"$parts"
echo "== by reason =="
{ sed -E 's/^SKIP: [^:]*: //' <<<"$tests"; } | grep . | sort | uniq -c | sed 's/^ */  /'
exit 0
