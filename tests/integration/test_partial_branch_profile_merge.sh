# The branch profile (decode --branch-profile) as a partial result, on 13
# captures: sw_branch recordings of four programs (known_path at three
# sizes, call_tree and threads_path, cut into several units each,
# sig_path), the real CoreSight capture of testdata (simpleperf ETMv4,
# its binary under --symfs), its replay through the kernel emulator and
# an AUX-sample replay of it, the real Intel PT capture (quipper), its
# replay (nine units) and an AUX-sample replay, and simpleperf's real LBR
# capture. For each capture, the merge of the partials of its units (or
# of the whole capture, where `hwtrace units` gives unit 0) is
# byte-identical to `decode --branch-profile` of it, as text and as
# jsonl. Over all captures the merge equals each capture's own decode
# output added up per FROM->TO line (awk), most taken first; known_path
# loads at other addresses in each run, and its branches add up by
# FILE+0xOFFSET. 50 random trees of merges (fixed seed) give the same
# partial; a part left out changes it. Options that make no sense are
# usage errors; partials of another kind, or with names and without, do
# not merge.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
source "$HWT_SOURCE_DIR/tests/integration/merge_tree.sh"
P="$HWT_BUILD_DIR/tests/programs"
TD="$HWT_TESTDATA/perf-data"

caps=()
rec() { # rec NAME START PROGRAM ARGS...
	local name=$1 start=$2
	shift 2
	"$HWTRACE" record -e sw_branch --start "$start" -q -o "$TMP/$name.data" \
		-- "$@" >/dev/null 2>"$TMP/$name.rec.err" ||
		fail "record $name: $(tail -2 "$TMP/$name.rec.err")"
	caps+=("$TMP/$name.data")
}
rec kp2 main "$P/known_path" 2
rec kp5 main "$P/known_path" 5
rec kp9 kp_run "$P/known_path" 9
rec ct main "$P/call_tree"
rec tp main "$P/threads_path"
rec sp main "$P/sig_path"
mkdir -p "$TMP/symfs/data/local/tmp"
cp "$TD/simpleperf-etm/etm_test_loop" "$TMP/symfs/data/local/tmp/"
caps+=("$TD/simpleperf-etm/perf_etm.data")
"$HWTRACE" record --emulate "$TD/simpleperf-etm/perf_etm.data" -o "$TMP/etmr.data" \
	>/dev/null 2>&1 || fail "record --emulate perf_etm.data"
caps+=("$TMP/etmr.data")
"$HWTRACE" record --emulate "$TD/simpleperf-etm/perf_etm.data" --aux-sample=64 \
	-e cycles/period=64/ -o "$TMP/etms.data" >/dev/null 2>&1 ||
	fail "record --emulate --aux-sample perf_etm.data"
caps+=("$TMP/etms.data")
Q="$TD/quipper/perf.data.intel_pt-4.14"
if have_pt_decoder "Intel PT captures"; then
	caps+=("$Q")
	"$HWTRACE" record --emulate "$Q" -o "$TMP/qr.data" >/dev/null 2>&1 ||
		fail "record --emulate quipper"
	caps+=("$TMP/qr.data")
	"$HWTRACE" record --emulate "$Q" --aux-sample=8192 \
		-e cycles/period=4096/ -o "$TMP/qs.data" >/dev/null 2>&1 ||
		fail "record --emulate --aux-sample quipper"
	caps+=("$TMP/qs.data")
fi
caps+=("$TD/simpleperf-lbr/perf_lbr.data")
if [ "${HWT_HAVE_LIBIPT:-1}" = 1 ]; then
	expect_eq "13 captures" "${#caps[@]}" 13
fi
dec() { "$HWTRACE" decode --symfs "$TMP/symfs" --branch-profile "$@"; }

# --- each capture: its parts merged = its decode ---
"$HWTRACE" units "${caps[@]}" >"$TMP/units.jsonl" || fail "units"
sed 's/^{"file":"\([^"]*\)","unit":\([0-9]*\),.*/\1 \2/' "$TMP/units.jsonl" >"$TMP/units.txt"
i=0
while read -r f u; do
	i=$((i + 1))
	unit=()
	[ "$u" = 0 ] || unit=(--unit "$u")
	dec --partial "${unit[@]}" "$f" -o "$TMP/p$i.part" 2>"$TMP/err" ||
		fail "branch-profile --partial $f unit $u: $(tail -2 "$TMP/err")"
	echo "$TMP/p$i.part" >>"$TMP/parts.$(basename "$f")"
done <"$TMP/units.txt"
for c in "${caps[@]}"; do
	b=$(basename "$c")
	[ -f "$TMP/parts.$b" ] && continue
	i=$((i + 1))
	dec --partial "$c" -o "$TMP/p$i.part" 2>"$TMP/err" ||
		fail "branch-profile --partial $c: $(tail -2 "$TMP/err")"
	echo "$TMP/p$i.part" >"$TMP/parts.$b"
done
expect_eq "a partial's first line" "$(head -1 "$TMP/p1.part")" "hwtrace-partial 2 branch-profile"
[ "$(grep -c . "$TMP/parts.ct.data")" -gt 1 ] || fail "call_tree is one unit: nothing cut"
if [ -f "$TMP/parts.qr.data" ]; then
	expect_eq "the Intel PT replay's units" "$(grep -c . "$TMP/parts.qr.data")" 9
fi
nonempty=0
for c in "${caps[@]}"; do
	b=$(basename "$c")
	dec "$c" >"$TMP/$b.bp" 2>/dev/null || fail "decode --branch-profile $b"
	dec --format jsonl "$c" >"$TMP/$b.bpj" 2>/dev/null
	mapfile -t cparts <"$TMP/parts.$b"
	"$HWTRACE" merge --kind branch-profile "${cparts[@]}" -o "$TMP/$b.m" ||
		fail "merge $b"
	expect_eq "$b: merged parts = decode --branch-profile" \
		"$(cmp "$TMP/$b.bp" "$TMP/$b.m" 2>&1)" ""
	"$HWTRACE" merge --kind branch-profile --format jsonl "${cparts[@]}" \
		-o "$TMP/$b.mj" || fail "merge --format jsonl $b"
	expect_eq "$b: merged parts = decode --branch-profile --format jsonl" \
		"$(cmp "$TMP/$b.bpj" "$TMP/$b.mj" 2>&1)" ""
	[ -s "$TMP/$b.bp" ] && nonempty=$((nonempty + 1))
done
# Positive control: the captures do have branches (the CoreSight AUX
# samples' windows give none), known_path's functions by name.
[ "$nonempty" -ge 12 ] || fail "only $nonempty captures have branches"
expect_contains "known_path's branches named" "$(cat "$TMP/kp5.data.bp")" " kp_run+"
expect_contains "the ETM binary's offsets" "$(cat "$TMP/perf_etm.data.bp")" "etm_test_loop+0x"

# --- all captures: the merge = their decodes added up ---
mapfile -t all < <(cat "$TMP"/parts.*)
"$HWTRACE" merge --kind branch-profile "${all[@]}" -o "$TMP/all.m" || fail "merge all"
for c in "${caps[@]}"; do cat "$TMP/$(basename "$c").bp"; done |
	awk '{ n = $2; $2 = ""; s[$0] += n } END { for (k in s) print k, s[k] }' |
	LC_ALL=C sort >"$TMP/all.sum"
awk '{ n = $2; $2 = ""; print $0, n }' "$TMP/all.m" | LC_ALL=C sort >"$TMP/all.m.keyed"
expect_eq "all captures merged = their decodes added up" \
	"$(cat "$TMP/all.m.keyed")" "$(cat "$TMP/all.sum")"
expect_eq "merged most taken first" "$(awk '{ print $2 }' "$TMP/all.m")" \
	"$(awk '{ print $2 }' "$TMP/all.m" | sort -s -n -r)"
# known_path ran at other addresses in each run: one FILE+0xOFFSET line,
# three captures' counts.
line=$(grep -m1 '/known_path+0x[0-9a-f]*->[^ ]*/known_path+' "$TMP/kp2.data.bp")
key=${line%% *}
n2=$(awk -v k="$key" '$1 == k { print $2 }' "$TMP/kp2.data.bp")
n5=$(awk -v k="$key" '$1 == k { print $2 }' "$TMP/kp5.data.bp")
n9=$(awk -v k="$key" '$1 == k { print $2 }' "$TMP/kp9.data.bp")
expect_eq "$key: the three runs' counts" \
	"$(awk -v k="$key" '$1 == k { print $2 }' "$TMP/all.m")" \
	"$((${n2:-0} + ${n5:-0} + ${n9:-0}))"
addr() { grep -m1 "/known_path+0x" "$1" | awk '{ print $NF }'; }
mapfile -t kp2parts <"$TMP/parts.kp2.data"
mapfile -t kp5parts <"$TMP/parts.kp5.data"
[ "$(addr "${kp2parts[0]}")" != "$(addr "${kp5parts[0]}")" ] ||
	fail "known_path at the same address in two runs: nothing shows the merge by offset"

# --- order and grouping: 50 random trees ---
RANDOM=41
"$HWTRACE" merge --kind branch-profile --partial "${all[@]}" -o "$TMP/ref.part"
differ=0
for t in $(seq 1 50); do
	merge_tree branch-profile "$TMP/t.part" "$t" 4 "${all[@]}"
	cmp -s "$TMP/t.part" "$TMP/ref.part" || differ=$((differ + 1))
done
expect_eq "50 random merge trees give the same bytes" "$differ" 0
"$HWTRACE" merge --kind branch-profile --partial "${all[@]:1}" -o "$TMP/less.part"
expect_eq "a part left out changes the bytes" \
	"$(cmp -s "$TMP/less.part" "$TMP/ref.part"; echo $?)" 1
"$HWTRACE" merge --kind branch-profile "$TMP/ref.part" -o "$TMP/ref.m"
expect_eq "the tree's partial gives the merge" "$(cmp "$TMP/ref.m" "$TMP/all.m" 2>&1)" ""

# --- refusals ---
dec --partial --format jsonl "$TMP/kp5.data" -o "$TMP/x" 2>"$TMP/err"
expect_eq "--partial --format jsonl: usage" "$?" 2
expect_contains "--partial --format jsonl: said" "$(cat "$TMP/err")" "--partial goes with --edges or --branch-profile"
dec --unit 1 "$TMP/kp5.data" -o "$TMP/x" 2>"$TMP/err"
expect_eq "--unit without --partial: usage" "$?" 2
dec --partial --packets "$TMP/kp5.data" -o "$TMP/x" 2>/dev/null
expect_eq "--partial --packets: usage" "$?" 2
dec --partial --unit 9999 "$TMP/kp5.data" -o "$TMP/x" 2>"$TMP/err"
expect_eq "a unit the capture has not: exit" "$?" 1
expect_contains "a unit the capture has not: named" "$(cat "$TMP/err")" "kp5.data, unit 9999: no such unit"
dec --partial --unit 1 "$TMP/etms.data" -o "$TMP/x" 2>"$TMP/err"
expect_eq "a unit of AUX samples: exit" "$?" 1
expect_eq "no output left behind" "$(ls "$TMP/x" 2>/dev/null)" ""
"$HWTRACE" decode --edges --partial "$TMP/kp5.data" -o "$TMP/kp5.epart" 2>/dev/null
"$HWTRACE" merge --kind branch-profile "$TMP/kp5.epart" -o "$TMP/x" 2>"$TMP/err"
expect_eq "an edges partial: exit" "$?" 1
expect_contains "an edges partial: named" "$(cat "$TMP/err")" "kp5.epart: a partial result of kind edges where branch-profile"
dec --no-symbols --partial "$TMP/kp5.data" -o "$TMP/plain.part" 2>/dev/null
expect_eq "a partial without names: its line" "$(sed -n 2p "$TMP/plain.part")" "named 0"
"$HWTRACE" merge --kind branch-profile "${kp5parts[0]}" "$TMP/plain.part" -o "$TMP/x" 2>"$TMP/err"
expect_eq "names and none: exit" "$?" 1
expect_contains "names and none: named" "$(cat "$TMP/err")" "plain.part: a branch profile with names and one without"
finish
