# What the CLI says about itself holds: `hwtrace help decode` is decode's
# help (it was the top-level help); `record --help` names sw_branch and its
# options; `config check --sysfs DIR` says the profile is valid for the
# machine of DIR, not "for this machine"; a snapshot replay's summary says
# how much the snapshots kept and how much was overwritten (it said
# "0 trace bytes dropped (of 137728 produced)" when 65,536 were kept); and
# the decode speed table names what it measures (the library into a
# counting sink), not the hwtrace decode command.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"

expect_eq "help decode" "$("$HWTRACE" help decode | head -1)" "usage: hwtrace decode FILE [options]"
expect_eq "help decode = decode --help" "$("$HWTRACE" help decode | md5sum)" \
	"$("$HWTRACE" decode --help | md5sum)"
"$HWTRACE" help nosuch 2>"$TMP/err" >/dev/null
expect_eq "help of an unknown command: exit" "$?" 2
expect_contains "help of an unknown command" "$(cat "$TMP/err")" "unknown command 'nosuch'"

help=$("$HWTRACE" record --help)
for word in "hwtrace record -e sw_branch" "--start SYM" "--stop SYM" "--max N" "-q, --quiet"; do
	expect_contains "record --help names $word" "$help" "$word"
done

out=$("$HWTRACE" config check "$HWT_SOURCE_DIR/configs/intel_pt_full.ini" \
	--sysfs "$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client" 2>&1)
expect_contains "config check of another tree" "$out" \
	"OK: the profile is valid for the machine whose sysfs tree is $HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client"
expect_eq "config check of another tree: not 'this machine'" \
	"$(printf '%s\n' "$out" | grep -c 'valid for this machine')" 0

cp "$Q" "$TMP/q.data"
"$HWTRACE" record --emulate "$TMP/q.data" -Se -o "$TMP/snap.data" 2>"$TMP/err"
expect_eq "snapshot replay exit" "$?" 0
expect_contains "cpu 3: kept and overwritten" "$(cat "$TMP/err")" \
	"of 137728 trace bytes produced, 65536 kept by the snapshots, 72192 overwritten before one, 0 dropped"
expect_contains "cpu 0: all kept" "$(cat "$TMP/err")" \
	"of 12240 trace bytes produced, 12240 kept by the snapshots, 0 overwritten before one, 0 dropped"
expect_eq "kept = what the file holds" \
	"$("$HWTRACE" info "$TMP/snap.data" | sed -n 's/^trace: *\([0-9]*\) bytes.*/\1/p')" $((12240 + 65536))

expect_eq "speed rows name the library and its sink" \
	"$(grep -c '^| library, `hwt_decode_[a-z]*`, counting sink |' "$HWT_SOURCE_DIR/docs/decode.md")" 2
expect_eq "no speed row claims the command" \
	"$(grep -c '^| hwtrace decode' "$HWT_SOURCE_DIR/docs/decode.md")" 0
finish
