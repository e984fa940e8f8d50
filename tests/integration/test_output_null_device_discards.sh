# Text written to -o /dev/null is discarded, as users time a decode; no
# other device, and no link to /dev/null, is written through (exit 2, the
# path named), and a database is never written to a device.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PT="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
cd "$TMP" || exit 1
cp "$PT" pt.data

"$HWTRACE" decode pt.data -o /dev/null >out 2>err
expect_eq "decode -o /dev/null exit" "$?" 0
expect_eq "decode -o /dev/null prints no element" "$(wc -c <out)" 0
expect_contains "decode -o /dev/null summary" "$(cat err)" "branches"
"$HWTRACE" decode pt.data --format jsonl -o /dev/null 2>/dev/null
expect_eq "jsonl -o /dev/null exit" "$?" 0
"$HWTRACE" report pt.data -o /dev/null 2>/dev/null
expect_eq "report -o /dev/null exit" "$?" 0
expect_eq "/dev/null still the null device" "$(stat -c '%F %t:%T' /dev/null)" \
	"character special file 1:3"

ln -s /dev/null null-link
"$HWTRACE" decode pt.data -o null-link 2>err
expect_eq "link to /dev/null exit" "$?" 2
expect_contains "link to /dev/null named" "$(cat err)" "output null-link is a symbolic link"
"$HWTRACE" decode pt.data -o /dev/zero 2>err
expect_eq "other device exit" "$?" 2
expect_contains "other device named" "$(cat err)" "output /dev/zero is a character device"
"$HWTRACE" export pt.data --to sqlite --replace -o /dev/null 2>err
expect_eq "sqlite to /dev/null exit" "$?" 2
expect_contains "sqlite to /dev/null named" "$(cat err)" "output /dev/null is a character device"
finish
