# Partial results merged give the single process's bytes. Six sw_branch
# recordings of four programs (known_path at three sizes, call_tree,
# threads_path with its three threads, sig_path): `report --partial` of
# each capture, merged with `hwtrace merge`, is byte-identical to one
# `hwtrace report` over all six (table, and folded stacks by every
# weight); `decode --edges --partial --unit N` of every unit `hwtrace
# units` lists, merged, is byte-identical to `decode --edges` of each
# capture, and over all captures equals the per-capture outputs added up
# (awk). The real CoreSight capture of testdata (simpleperf ETMv4)
# merges the same way, and its 944 instructions twice are 1888; parts of
# other clocks do not merge. The merge does not depend on order or
# grouping (50 random trees of merges, fixed seed). A corrupt capture fails naming its unit;
# a corrupt or cut partial fails naming the file and line.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
source "$HWT_SOURCE_DIR/tests/integration/merge_tree.sh"
P="$HWT_BUILD_DIR/tests/programs"

rec() { # rec NAME START PROGRAM ARGS...
	local name=$1 start=$2
	shift 2
	"$HWTRACE" record -e sw_branch --start "$start" -q -o "$TMP/$name.data" \
		-- "$@" >/dev/null 2>"$TMP/$name.rec.err" ||
		fail "record $name: $(tail -2 "$TMP/$name.rec.err")"
}
rec kp2 main "$P/known_path" 2
rec kp5 main "$P/known_path" 5
rec kp9 kp_run "$P/known_path" 9
rec ct main "$P/call_tree"
rec tp main "$P/threads_path"
rec sp main "$P/sig_path"
caps="kp2 kp5 kp9 ct tp sp"
files=""
for c in $caps; do files="$files $TMP/$c.data"; done

# --- report and folded stacks: one partial per capture ---
for c in $caps; do
	"$HWTRACE" report "$TMP/$c.data" --partial -o "$TMP/$c.part" 2>"$TMP/err" ||
		fail "report --partial $c: $(cat "$TMP/err")"
done
expect_eq "a partial's first line" "$(head -1 "$TMP/kp5.part")" "hwtrace-partial 2 report"
# shellcheck disable=SC2086
"$HWTRACE" report $files --top 0 >"$TMP/whole.txt" 2>"$TMP/err"
expect_eq "report of all captures exit" "$?" 0
parts=""
for c in $caps; do parts="$parts $TMP/$c.part"; done
# shellcheck disable=SC2086
"$HWTRACE" merge --kind report --top 0 $parts -o "$TMP/merged.txt"
expect_eq "merged report exit" "$?" 0
expect_eq "merged report = one report of all" "$(cmp "$TMP/whole.txt" "$TMP/merged.txt" 2>&1)" ""
# Positive control: the table has every capture's functions (kp_run
# from known_path, tree_done from call_tree) and the sum of their
# instructions.
want_insns=0
for c in $caps; do
	n=$("$HWTRACE" report "$TMP/$c.data" 2>/dev/null | head -1 | awk '{ print $2 }')
	want_insns=$((want_insns + n))
done
expect_eq "merged instructions are the captures' sum" \
	"$(head -1 "$TMP/merged.txt" | awk '{ print $2 }')" "$want_insns"
expect_contains "known_path's functions in the table" "$(cat "$TMP/merged.txt")" " kp_run"
expect_contains "call_tree's functions in the table" "$(cat "$TMP/merged.txt")" " tree_done"
for w in insns time calls; do
	# shellcheck disable=SC2086
	"$HWTRACE" report $files --collapsed --weight $w >"$TMP/whole.$w" 2>/dev/null
	# shellcheck disable=SC2086
	"$HWTRACE" merge --kind collapsed --weight $w $parts -o "$TMP/merged.$w"
	expect_eq "merged folded stacks ($w) = one report of all" \
		"$(cmp "$TMP/whole.$w" "$TMP/merged.$w" 2>&1)" ""
	# The stacks of all captures added up by awk, from each capture's
	# own report --collapsed.
	for c in $caps; do
		"$HWTRACE" report "$TMP/$c.data" --collapsed --weight $w 2>/dev/null
	done | awk '{ n = $NF; $NF = ""; s[$0] += n } END { for (k in s) print k s[k] }' |
		LC_ALL=C sort >"$TMP/sum.$w"
	expect_eq "merged folded stacks ($w) = the captures' added up" \
		"$(LC_ALL=C sort "$TMP/merged.$w")" "$(cat "$TMP/sum.$w")"
done
expect_eq "folded stacks are sorted" "$(cat "$TMP/merged.insns")" \
	"$(LC_ALL=C sort "$TMP/merged.insns")"

# --- edges: one partial per unit ---
# shellcheck disable=SC2086
"$HWTRACE" units $files >"$TMP/units.jsonl"
expect_eq "units exit" "$?" 0
nunits=$(wc -l <"$TMP/units.jsonl")
[ "$nunits" -gt 6 ] || fail "only $nunits units in 6 captures: no capture was cut"
sed 's/^{"file":"\([^"]*\)","unit":\([0-9]*\),.*/\1 \2/' "$TMP/units.jsonl" >"$TMP/units.txt"
i=0
while read -r f u; do
	i=$((i + 1))
	"$HWTRACE" decode --edges --partial --unit "$u" "$f" -o "$TMP/e$i.epart" \
		2>"$TMP/err" || fail "edges of $f unit $u: $(cat "$TMP/err")"
	echo "$TMP/e$i.epart" >>"$TMP/parts.$(basename "$f")"
done <"$TMP/units.txt"
for c in $caps; do
	"$HWTRACE" decode --edges "$TMP/$c.data" >"$TMP/$c.edges" 2>/dev/null
	# shellcheck disable=SC2046
	"$HWTRACE" merge --kind edges $(cat "$TMP/parts.$c.data") -o "$TMP/$c.medges"
	expect_eq "$c: merged units' edges = decode --edges" \
		"$(cmp "$TMP/$c.edges" "$TMP/$c.medges" 2>&1)" ""
done
"$HWTRACE" decode --edges --format jsonl "$TMP/ct.data" >"$TMP/ct.jedges" 2>/dev/null
# shellcheck disable=SC2046
"$HWTRACE" merge --kind edges --format jsonl $(cat "$TMP/parts.ct.data") -o "$TMP/ct.mjedges"
expect_eq "ct: merged units' edges = decode --edges --format jsonl" \
	"$(cmp "$TMP/ct.jedges" "$TMP/ct.mjedges" 2>&1)" ""
expect_eq "call_tree has several units" "$(grep -c . "$TMP/parts.ct.data")" \
	"$(grep -c '"file":"[^"]*/ct.data"' "$TMP/units.jsonl")"
[ "$(grep -c . "$TMP/parts.ct.data")" -gt 1 ] || fail "call_tree is one unit: nothing cut"
# shellcheck disable=SC2046
"$HWTRACE" merge --kind edges $(cat "$TMP"/parts.*) -o "$TMP/all.medges"
for c in $caps; do cat "$TMP/$c.edges"; done |
	awk '{ s[$1] += $2 } END { for (k in s) print k, s[k] }' | LC_ALL=C sort >"$TMP/all.sum"
expect_eq "all units' edges = the captures' added up" \
	"$(LC_ALL=C sort "$TMP/all.medges")" "$(cat "$TMP/all.sum")"

# --- order and grouping: 50 random trees of merges ---
RANDOM=41
# shellcheck disable=SC2086
"$HWTRACE" merge --kind report --partial $parts -o "$TMP/ref.part"
# shellcheck disable=SC2046
"$HWTRACE" merge --kind edges --partial $(cat "$TMP"/parts.*) -o "$TMP/ref.epart"
mapfile -t eparts < <(cat "$TMP"/parts.*)
read -r -a rparts <<<"$parts"
differ=0
for t in $(seq 1 25); do
	merge_tree report "$TMP/t.part" "$t" 3 "${rparts[@]}"
	cmp -s "$TMP/t.part" "$TMP/ref.part" || differ=$((differ + 1))
	merge_tree edges "$TMP/t.epart" "e$t" 3 "${eparts[@]}"
	cmp -s "$TMP/t.epart" "$TMP/ref.epart" || differ=$((differ + 1))
done
expect_eq "50 random merge trees give the same bytes" "$differ" 0
# Positive control: a tree that leaves one part out differs.
# shellcheck disable=SC2086
"$HWTRACE" merge --kind report --partial ${parts% *} -o "$TMP/less.part"
expect_eq "a part left out changes the bytes" \
	"$(cmp -s "$TMP/less.part" "$TMP/ref.part"; echo $?)" 1
# A partial read and written again is the same bytes.
"$HWTRACE" merge --kind report --partial "$TMP/ref.part" -o "$TMP/again.part"
expect_eq "a partial round trip" "$(cmp "$TMP/ref.part" "$TMP/again.part" 2>&1)" ""

# --- a real CoreSight capture (testdata, simpleperf ETMv4, no time) ---
etm="$HWT_TESTDATA/perf-data/simpleperf-etm/perf_etm.data"
mkdir -p "$TMP/symfs/data/local/tmp"
cp "$HWT_TESTDATA/perf-data/simpleperf-etm/etm_test_loop" "$TMP/symfs/data/local/tmp/"
"$HWTRACE" report --symfs "$TMP/symfs" "$etm" --partial -o "$TMP/etm.part" 2>/dev/null
expect_eq "etm: report --partial exit" "$?" 0
"$HWTRACE" report --symfs "$TMP/symfs" "$etm" "$etm" --top 0 >"$TMP/etm2.txt" 2>/dev/null
"$HWTRACE" merge --kind report --top 0 "$TMP/etm.part" "$TMP/etm.part" -o "$TMP/etm2.merged"
expect_eq "etm: the capture twice, merged = reported twice" \
	"$(cmp "$TMP/etm2.txt" "$TMP/etm2.merged" 2>&1)" ""
# perf script --itrace=i1i counts 944 instructions (testdata README).
expect_contains "etm: twice 944 instructions" "$(head -1 "$TMP/etm2.merged")" "# 1888 instructions"
"$HWTRACE" decode --edges --symfs "$TMP/symfs" "$etm" >"$TMP/etm.edges" 2>/dev/null
"$HWTRACE" decode --edges --partial --unit 1 --symfs "$TMP/symfs" "$etm" -o "$TMP/etm.epart" 2>/dev/null
"$HWTRACE" merge --kind edges "$TMP/etm.epart" -o "$TMP/etm.medges"
expect_eq "etm: its unit's edges = decode --edges" "$(cmp "$TMP/etm.edges" "$TMP/etm.medges" 2>&1)" ""
[ -s "$TMP/etm.edges" ] || fail "etm: no edges decoded"
"$HWTRACE" merge --kind report "$TMP/etm.part" "$TMP/kp5.part" -o "$TMP/x" 2>"$TMP/err"
expect_eq "parts of other clocks: exit" "$?" 1
expect_contains "parts of other clocks: named" "$(cat "$TMP/err")" "kp5.part: the parts' times are of different clocks"

# --- failures name what failed ---
head -c 3000 "$TMP/ct.data" >"$TMP/cut.data"
"$HWTRACE" decode --edges --partial --unit 2 "$TMP/cut.data" -o "$TMP/x" 2>"$TMP/err"
expect_eq "a cut capture's unit: exit" "$?" 1
expect_contains "a cut capture's unit: named" "$(cat "$TMP/err")" "cut.data, unit 2:"
"$HWTRACE" report --partial --unit 9999 "$TMP/kp5.data" -o "$TMP/x" 2>"$TMP/err"
expect_eq "a unit the capture has not: exit" "$?" 1
expect_contains "a unit the capture has not: named" "$(cat "$TMP/err")" "kp5.data, unit 9999: no such unit"
expect_eq "no output left behind" "$(ls "$TMP/x" 2>/dev/null)" ""
head -n 5 "$TMP/kp5.part" >"$TMP/short.part"
"$HWTRACE" merge --kind report "$TMP/kp2.part" "$TMP/short.part" -o "$TMP/x" 2>"$TMP/err"
expect_eq "a cut partial: exit" "$?" 1
expect_contains "a cut partial: named" "$(cat "$TMP/err")" "short.part: line 6: the file ends before its end line"
sed '4s/ [0-9]* / x /' "$TMP/kp5.part" >"$TMP/bad.part"
"$HWTRACE" merge --kind report "$TMP/bad.part" -o "$TMP/x" 2>"$TMP/err"
expect_eq "a malformed partial: exit" "$?" 1
expect_contains "a malformed partial: named" "$(cat "$TMP/err")" "bad.part: line 4: a malformed number"
"$HWTRACE" merge --kind edges "$TMP/kp5.part" -o "$TMP/x" 2>"$TMP/err"
expect_eq "a partial of another kind: exit" "$?" 1
expect_contains "a partial of another kind: named" "$(cat "$TMP/err")" "kp5.part: a partial result of kind report where edges"
"$HWTRACE" merge "$TMP/kp5.part" 2>/dev/null
expect_eq "merge without --kind: usage" "$?" 2
"$HWTRACE" report --unit 1 "$TMP/kp5.data" 2>/dev/null
expect_eq "--unit without --partial: usage" "$?" 2
finish
