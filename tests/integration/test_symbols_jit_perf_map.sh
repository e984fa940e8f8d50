# JIT code named from perf's perf-PID.map: a program copies two tiny
# functions into an anonymous executable mapping and describes them in
# a map file (with two damaged lines), then calls them. hwtrace names the
# calls into them as `perf script` does from the same map in /tmp, skips
# the damaged lines with one message, and reads maps from --perf-map DIR.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"
command -v perf >/dev/null || { echo "FAIL: perf is not installed" >&2; exit 1; }

"$PROGS/swb_record" -o "$TMP/jit.data" --quiet --start jit_run --stop jit_done \
	-- "$PROGS/jit_path" /tmp 5 >/dev/null 2>"$TMP/rec.err" || { cat "$TMP/rec.err" >&2; fail "record"; }
pid=$(sed -n 's/^sw_branch: pid \([0-9]*\),.*/\1/p' "$TMP/rec.err")
map="/tmp/perf-$pid.map"
trap 'rm -f "$map"; rm -rf "$TMP"' EXIT
[ -f "$map" ] || fail "the program wrote no $map"

"$HWTRACE" decode --format jsonl "$TMP/jit.data" >"$TMP/j.jsonl" 2>"$TMP/j.err"
calls() {
	DSO=$1 perl -ne 'my $d = quotemeta($ENV{DSO});
		print "$1\n" if /"kind":"call".*"to_sym":"([^"]*)","to_symoff":0,"to_dso":"$d"/' "$2" |
		sort | uniq -c
}
expect_eq "calls into JIT code" "$(calls "$map" "$TMP/j.jsonl")" "$(printf '      1 Script::hot(int) [tier 2]\n      5 jit_add_one')"
perf script -i "$TMP/jit.data" --itrace=b -F flags,ip,sym,addr 2>/dev/null |
	perl -ne 'next unless /^\s*call\s.*=>\s+[0-9a-f]+ (.*?)\s*$/; my $s = $1;
		print "$s\n" if $s =~ /jit_add_one|Script/' |
	sort | uniq -c >"$TMP/perf.calls"
expect_eq "calls into JIT code = perf script" "$(calls "$map" "$TMP/j.jsonl")" "$(cat "$TMP/perf.calls")"
expect_eq "damaged lines: one message" "$(grep -c "$map: 2 lines are not \"START SIZE NAME\" and were skipped" "$TMP/j.err")" 1
expect_eq "returns from JIT code named" \
	"$(grep -c '"from_sym":"jit_add_one","from_symoff":3,' "$TMP/j.jsonl")" 5

# --perf-map DIR: the map elsewhere.
mkdir -p "$TMP/maps"
mv "$map" "$TMP/maps/"
"$HWTRACE" decode --format jsonl "$TMP/jit.data" 2>/dev/null >"$TMP/none.jsonl"
expect_eq "no map: JIT code unnamed" "$(grep -c 'jit_add_one' "$TMP/none.jsonl")" 0
"$HWTRACE" decode --format jsonl --perf-map "$TMP/maps" "$TMP/jit.data" >"$TMP/d.jsonl" 2>/dev/null
expect_eq "--perf-map DIR" "$(calls "$TMP/maps/perf-$pid.map" "$TMP/d.jsonl")" "$(printf '      1 Script::hot(int) [tier 2]\n      5 jit_add_one')"
finish
