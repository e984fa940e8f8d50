# The per-binary profiles (export --to autofdo, bolt, bolt-preagg), the
# pprof profile (export --to pprof) and the SQLite database (export --to
# sqlite) merged from partial results give the files of one export over
# all captures,
# byte for byte, on 20 captures: sw_branch recordings of six programs
# (known_path at five sizes, call_tree, threads_path, sig_path, dl_path,
# and pgo_loop at three loop counts), the real CoreSight capture of
# testdata (simpleperf ETMv4), its replay through the kernel emulator and
# an AUX-sample replay of it (period 64 bytes), the real Intel PT capture
# (quipper), its replay and two AUX-sample
# replays of it (periods 4096 and 16384), and simpleperf's real LBR
# capture. `export --partial` of each capture merged with `hwtrace merge
# --kind K` equals `export FILE... --to K` (every file, same names; for
# pprof also with the captures in reverse order, and Google's pprof,
# given the sw_branch captures' own profiles, shows the same functions
# with the same flat and cumulative instructions and branches as the
# merge of their partials); 50
# random trees of merges per kind (fixed seed) give the same partial; a
# part left out changes it. The database of all (also with -j 2, and with
# --columns all) holds, by sqlite3's reading with every id replaced by
# what it names, exactly the rows of the captures' own databases, and the
# merge of one part is its capture's export. The consumers read the merged profiles of
# pgo_loop's three runs (loop counts 10, 50 and 100, CALLS=10 calls of
# hot each): create_llvm_prof gives hot 3*CALLS head samples and
# CALLS*160 samples on its loop body line; llvm-bolt-15 -data gives hot
# an execution count of 3*CALLS; llvm-bolt-15 -pa runs hot's loop block
# CALLS*160 times. Partials of different binaries at one path, of
# another kind, or cut short, and damaged sqlite partials, fail naming
# the file.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
source "$HWT_SOURCE_DIR/tests/integration/merge_tree.sh"
source "$HWT_SOURCE_DIR/tests/integration/pgo_loop.sh"
source "$HWT_SOURCE_DIR/tests/integration/sqlite_content.sh"
P="$HWT_BUILD_DIR/tests/programs"
TD="$HWT_TESTDATA/perf-data"

for tool in clang create_llvm_prof llvm-profdata-15 llvm-bolt-15; do
	command -v "$tool" >/dev/null ||
		{ fail "$tool missing: install clang autofdo llvm-15 bolt-15 (make deps)"; finish; exit 1; }
done

rec() { # rec NAME PROGRAM ARGS...
	local name=$1
	shift
	"$HWTRACE" record -e sw_branch --start main -q -o "$TMP/$name.data" \
		-- "$@" >/dev/null 2>"$TMP/$name.rec.err" ||
		fail "record $name: $(tail -2 "$TMP/$name.rec.err")"
	caps+=("$TMP/$name.data")
}
caps=()
for n in 1 2 3 5 9; do rec "kp$n" "$P/known_path" "$n"; done
rec ct "$P/call_tree"
rec tp "$P/threads_path"
rec sp "$P/sig_path"
rec dl "$P/dl_path"
# pgo_loop, built for both consumers (DWARF 4 with profiling
# discriminators for create_llvm_prof, relocations for llvm-bolt).
PROG="$TMP/pgo_loop"
clang -O1 -gdwarf-4 -fdebug-info-for-profiling -Wl,--emit-relocs -o "$PROG" \
	"$HWT_SOURCE_DIR/tests/programs/pgo_loop.c" || fail "building pgo_loop"
CALLS=10
for n in 10 50 100; do rec "pl$n" "$PROG" "$n"; done

# CoreSight: the real capture (its binary under --symfs) and its replay.
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
# Intel PT: the real capture, its replay, AUX samples of the replay.
Q="$TD/quipper/perf.data.intel_pt-4.14"
if have_pt_decoder "Intel PT captures"; then
	caps+=("$Q")
	"$HWTRACE" record --emulate "$Q" -o "$TMP/qr.data" >/dev/null 2>&1 ||
		fail "record --emulate quipper"
	caps+=("$TMP/qr.data")
	for period in 4096 16384; do
		"$HWTRACE" record --emulate "$Q" --aux-sample=8192 \
			-e "cycles/period=$period/" -o "$TMP/qs$period.data" >/dev/null 2>&1 ||
			fail "record --emulate --aux-sample quipper"
		caps+=("$TMP/qs$period.data")
	done
fi
# Branch records (LBR): its binary is not here, placed by its mappings.
caps+=("$TD/simpleperf-lbr/perf_lbr.data")
if [ "${HWT_HAVE_LIBIPT:-1}" = 1 ]; then
	expect_eq "20 captures" "${#caps[@]}" 20
fi

# make_parts KIND: each capture's `export --to KIND --partial`, to
# $TMP/KIND.I.part, listed in $TMP/KIND.parts.
make_parts() {
	local k=$1 c i=0 parts=()
	for c in "${caps[@]}"; do
		i=$((i + 1))
		"$HWTRACE" export --symfs "$TMP/symfs" "$c" --to "$k" --partial \
			-o "$TMP/$k.$i.part" 2>"$TMP/err" ||
			fail "$k: export --partial $c: $(tail -2 "$TMP/err")"
		parts+=("$TMP/$k.$i.part")
	done
	expect_eq "$k: a partial's first line" "$(head -1 "${parts[0]}")" "hwtrace-partial 2 $k"
	echo "${parts[@]}" >"$TMP/$k.parts"
}

# --- each kind: merged partials = one export of all captures ---
for k in autofdo bolt bolt-preagg; do
	mkdir -p "$TMP/one.$k" "$TMP/merged.$k"
	"$HWTRACE" export --symfs "$TMP/symfs" "${caps[@]}" --to "$k" \
		-o "$TMP/one.$k" 2>"$TMP/err" || fail "$k: export of all: $(tail -2 "$TMP/err")"
	make_parts "$k"
	read -r -a parts <"$TMP/$k.parts"
	# Every capture but the AUX-sample ones contributes lines (the
	# export counts no sample's branch list, and the quipper samples'
	# code is not here anyway).
	empty=0
	for ((i = 1; i <= ${#caps[@]}; i++)); do
		case ${caps[i - 1]} in *etms.data | *qs*.data) continue ;; esac
		grep -qE '^(range|branch) ' "$TMP/$k.$i.part" || empty=$((empty + 1))
	done
	expect_eq "$k: every capture but the AUX-sample ones has counts" "$empty" 0
	"$HWTRACE" merge --kind "$k" "${parts[@]}" -o "$TMP/merged.$k" 2>"$TMP/merge.err"
	expect_eq "$k: merge exit" "$?" 0
	expect_eq "$k: merged files = one export of all" \
		"$(diff -r "$TMP/one.$k" "$TMP/merged.$k" 2>&1)" ""
	expect_eq "$k: the merge lists every file" \
		"$(grep -c '^  ' "$TMP/merge.err")" "$(find "$TMP/one.$k" -type f | wc -l)"
	# Positive control: the files hold the programs of every kind of
	# capture (sw_branch, CoreSight, LBR).
	for b in known_path call_tree pgo_loop etm_test_loop lbr_test_loop; do
		[ -s "$TMP/one.$k/$b.${k/bolt-preagg/preagg}" ] ||
			[ -s "$TMP/one.$k/$b.afdo.txt" ] || [ -s "$TMP/one.$k/$b.fdata" ] ||
			fail "$k: no profile of $b"
	done
done
expect_eq "fdata: hot's back edge taken CALLS*(9+49+99) times" \
	"$(awk '$2 == "hot" && $5 == "hot" && $3 != "0" && $6 != "0" { print $8 }' \
		"$TMP/merged.bolt/pgo_loop.fdata")" "$((CALLS * 157))"

# --- pprof: merged partials = one export of all captures, in any order ---
rev=()
for ((i = ${#caps[@]} - 1; i >= 0; i--)); do rev+=("${caps[i]}"); done
# in_any_order KIND EXT: one export of all the captures to $TMP/one.EXT,
# the same in reverse order, each capture's partial ($TMP/KIND.I.part,
# listed in $TMP/KIND.parts) and their merge into $TMP/merged.EXT: the
# same bytes, all four.
in_any_order() {
	local k=$1 ext=$2 parts
	"$HWTRACE" export --symfs "$TMP/symfs" "${caps[@]}" --to "$k" -o "$TMP/one.$ext" \
		2>"$TMP/err" || fail "$k: export of all: $(tail -2 "$TMP/err")"
	"$HWTRACE" export --symfs "$TMP/symfs" "${rev[@]}" --to "$k" -o "$TMP/rev.$ext" \
		2>"$TMP/err" || fail "$k: export of all, reversed: $(tail -2 "$TMP/err")"
	expect_eq "$k: the captures in reverse order give the same bytes" \
		"$(cmp "$TMP/one.$ext" "$TMP/rev.$ext" 2>&1)" ""
	make_parts "$k"
	read -r -a parts <"$TMP/$k.parts"
	"$HWTRACE" merge --kind "$k" "${parts[@]}" -o "$TMP/merged.$ext" 2>"$TMP/err" ||
		fail "$k: merge: $(tail -2 "$TMP/err")"
	expect_eq "$k: merged = one export of all" \
		"$(cmp "$TMP/one.$ext" "$TMP/merged.$ext" 2>&1)" ""
}
in_any_order pprof pb.gz
read -r -a pparts <"$TMP/pprof.parts"
# Oracle: Google's pprof merges the captures' own single exports (it
# takes several profiles of one sample type; the sw_branch ones, all
# with time) into the same functions, flat and cumulative, instructions
# and branches, as the merge of their partials exported alone.
pprof_build
singles=() sw_parts=()
for ((i = 0; i < 12; i++)); do
	"$HWTRACE" export "${caps[i]}" --to pprof -o "$TMP/single.$i.pb.gz" 2>/dev/null ||
		fail "pprof: export ${caps[i]}"
	singles+=("$TMP/single.$i.pb.gz")
	sw_parts+=("${pparts[i]}")
done
"$HWTRACE" merge --kind pprof "${sw_parts[@]}" -o "$TMP/sw.pb.gz" 2>/dev/null ||
	fail "pprof: merge of the sw_branch partials"
ptop() { # ptop SAMPLE_INDEX PROFILE...: "function flat cum", sorted
	local si=$1
	shift
	"$PPROF" -top -sample_index="$si" -nodefraction=0 -edgefraction=0 \
		-nodecount=1000000 "$@" 2>/dev/null |
		awk '$1 ~ /^[0-9]+$/ { print $NF, $1, $4 }' | sort
}
for si in instructions branches; do
	want=$(ptop "$si" "${singles[@]}")
	expect_eq "pprof -top $si: pprof's merge of 12 profiles has functions" \
		"$([ "$(echo "$want" | wc -l)" -gt 20 ] && echo yes)" yes
	expect_eq "pprof -top $si: our merge = pprof's merge of the 12" \
		"$(ptop "$si" "$TMP/sw.pb.gz")" "$want"
done
expect_eq "pprof -top: the merge of all 20 is read, known_path's main in it" \
	"$(ptop instructions "$TMP/merged.pb.gz" | awk '$1 == "main" { n++ } END { print (n > 0) }')" 1
gzip -dc "$TMP/merged.pb.gz" | protoc --proto_path="$HWT_SOURCE_DIR/analysis/export" \
	--decode=perftools.profiles.Profile profile.proto >"$TMP/merged.txt" 2>&1 ||
	fail "protoc --decode: $(head -3 "$TMP/merged.txt")"
expect_eq "protoc: string 0 is empty" \
	"$(grep -m1 '^string_table' "$TMP/merged.txt")" 'string_table: ""'

# --- the consumers read the merged profiles ---
create_llvm_prof --profiler text --profile "$TMP/merged.autofdo/pgo_loop.afdo.txt" \
	--binary "$PROG" --out "$TMP/pl.afdo" --format text >"$TMP/cllp.out" 2>&1 ||
	fail "create_llvm_prof: $(tail -3 "$TMP/cllp.out")"
llvm-profdata-15 show --sample --function=hot "$TMP/pl.afdo" >"$TMP/show.txt" 2>&1 ||
	fail "llvm-profdata-15 show: $(head -3 "$TMP/show.txt")"
expect_eq "llvm-profdata: hot's head samples = 3*CALLS" \
	"$(sed -n 's/^Function: hot: [0-9]*, \([0-9]*\),.*/\1/p' "$TMP/show.txt")" "$((3 * CALLS))"
SRC="$HWT_SOURCE_DIR/tests/programs/pgo_loop.c"
body=$(($(grep -n 'pgo_loop: body' "$SRC" | cut -d: -f1) - $(grep -n '^__attribute__((noinline)) unsigned hot' "$SRC" | cut -d: -f1)))
expect_eq "llvm-profdata: the loop body line ran CALLS*(10+50+100) times" \
	"$(awk -v l="$body" '$1 == l":" { print $2; exit }' "$TMP/show.txt")" "$((CALLS * 160))"
llvm-bolt-15 "$PROG" -o "$TMP/pl.bolt" -data="$TMP/merged.bolt/pgo_loop.fdata" \
	-print-profile-stats -print-cfg -print-only=hot >"$TMP/bolt.out" 2>&1 ||
	fail "llvm-bolt -data: $(grep -i error "$TMP/bolt.out" | head -3)"
expect_eq "llvm-bolt -data: no stale (mismatching) function profile" \
	"$(bolt_stale "$TMP/bolt.out")" "0"
expect_eq "llvm-bolt -data: hot executed 3*CALLS times" \
	"$(bolt_hot_count "$TMP/bolt.out")" \
	"$((3 * CALLS))"
llvm-bolt-15 "$PROG" -o "$TMP/pa.bolt" -pa -p "$TMP/merged.bolt-preagg/pgo_loop.preagg" \
	-print-cfg -print-only=hot >"$TMP/pa.out" 2>&1 ||
	fail "llvm-bolt -pa: $(grep -i error "$TMP/pa.out" | head -3)"
expect_eq "llvm-bolt -pa: hot's loop block runs CALLS*(10+50+100) times" \
	"$(bolt_hot_block_max "$TMP/pa.out")" \
	"$((CALLS * 160))"

# --- sqlite: merged partials = one export of all captures, in any order ---
in_any_order sqlite db
read -r -a sparts <"$TMP/sqlite.parts"
# The merge of one part is its capture's own export.
"$HWTRACE" export "${caps[0]}" --to sqlite -o "$TMP/single.1.db" 2>/dev/null ||
	fail "sqlite: export ${caps[0]}"
"$HWTRACE" merge --kind sqlite "${sparts[0]}" -o "$TMP/one-part.db" 2>"$TMP/err" ||
	fail "sqlite: merge of one part: $(tail -2 "$TMP/err")"
expect_eq "sqlite: the merge of one part = the export of its capture" \
	"$(cmp "$TMP/single.1.db" "$TMP/one-part.db" 2>&1)" ""
# Oracle: sqlite3 reads the rows of every capture's own database, each
# id replaced by what it names, and the rows of the one database of all
# are those of the 20 together.
for ((i = 2; i <= ${#caps[@]}; i++)); do
	"$HWTRACE" merge --kind sqlite "${sparts[i - 1]}" -o "$TMP/single.$i.db" 2>/dev/null ||
		fail "sqlite: merge of part $i"
done
for ((i = 1; i <= ${#caps[@]}; i++)); do sqlite_content "$TMP/single.$i.db"; done |
	sort >"$TMP/singles.rows"
sqlite_content "$TMP/one.db" | sort >"$TMP/one.rows"
expect_eq "sqlite: the database of all has every capture's rows, and no other" \
	"$(cmp "$TMP/singles.rows" "$TMP/one.rows" 2>&1)" ""
expect_eq "sqlite: its samples are the captures' added up" \
	"$(sqlite3 "$TMP/one.db" 'SELECT count(*) FROM samples WHERE id > 0')" \
	"$(for ((i = 1; i <= ${#caps[@]}; i++)); do
		sqlite3 "$TMP/single.$i.db" 'SELECT count(*) FROM samples WHERE id > 0'
	done | awk '{ n += $1 } END { print n }')"
# Positive control: the rows name the programs of every kind of capture
# (sw_branch, CoreSight, LBR) and carry threads and call paths.
for b in known_path call_tree etm_test_loop lbr_test_loop; do
	grep -q "^sample|.*/$b|" "$TMP/one.rows" || fail "sqlite: no sample in $b"
done
expect_eq "sqlite: calls with a call path of two or more functions" \
	"$(grep -c '^call|[^|]*|[^|]*|[^|]*|/[^|]*/' "$TMP/one.rows" | awk '{ print ($1 > 100) }')" 1
# The rows stored on a thread of their own (-j 2), each capture's in turn.
"$HWTRACE" export --symfs "$TMP/symfs" "${caps[@]}" --to sqlite -j 2 -o "$TMP/j2.db" \
	2>"$TMP/err" || fail "sqlite: export -j 2 of all: $(tail -2 "$TMP/err")"
expect_eq "sqlite: -j 2 gives the same bytes" "$(cmp "$TMP/one.db" "$TMP/j2.db" 2>&1)" ""
# perf's "all" columns: the export of two captures = the merge of theirs.
"$HWTRACE" export "${caps[0]}" "${caps[5]}" --to sqlite --columns all -o "$TMP/all.db" \
	2>"$TMP/err" || fail "sqlite: export --columns all: $(tail -2 "$TMP/err")"
for i in 0 5; do
	"$HWTRACE" export "${caps[i]}" --to sqlite --columns all --partial \
		-o "$TMP/all.$i.part" 2>/dev/null || fail "sqlite: export --columns all --partial"
done
"$HWTRACE" merge --kind sqlite "$TMP/all.5.part" "$TMP/all.0.part" -o "$TMP/all-merged.db" \
	2>"$TMP/err" || fail "sqlite: merge --columns all: $(tail -2 "$TMP/err")"
expect_eq "sqlite --columns all: merged = one export" \
	"$(cmp "$TMP/all.db" "$TMP/all-merged.db" 2>&1)" ""
expect_eq "sqlite --columns all: the samples have perf's period" \
	"$(sqlite3 "$TMP/all.db" 'SELECT count(*) FROM samples WHERE id > 0 AND period = 1')" \
	"$(sqlite3 "$TMP/all.db" 'SELECT count(*) FROM samples WHERE id > 0')"
"$HWTRACE" merge --kind sqlite "$TMP/all.0.part" "${sparts[1]}" -o "$TMP/x.db" 2>"$TMP/err"
expect_eq "sqlite: parts of both samples layouts: exit" "$?" 1
expect_contains "sqlite: parts of both samples layouts: said" "$(cat "$TMP/err")" \
	"the captures' samples have different columns (--columns all and branches)"

# --- order and grouping: 50 random trees of merges per kind ---
RANDOM=41
for k in autofdo bolt bolt-preagg pprof sqlite; do
	read -r -a parts <"$TMP/$k.parts"
	"$HWTRACE" merge --kind "$k" --partial "${parts[@]}" -o "$TMP/$k.ref"
	differ=0
	for t in $(seq 1 50); do
		merge_tree "$k" "$TMP/t.part" "$t" 5 "${parts[@]}"
		cmp -s "$TMP/t.part" "$TMP/$k.ref" || differ=$((differ + 1))
	done
	expect_eq "$k: 50 random merge trees give the same bytes" "$differ" 0
	"$HWTRACE" merge --kind "$k" --partial "${parts[@]:1}" -o "$TMP/less.part"
	expect_eq "$k: a part left out changes the bytes" \
		"$(cmp -s "$TMP/less.part" "$TMP/$k.ref"; echo $?)" 1
	"$HWTRACE" merge --kind "$k" --partial "$TMP/$k.ref" -o "$TMP/again.part"
	expect_eq "$k: a partial round trip" "$(cmp "$TMP/$k.ref" "$TMP/again.part" 2>&1)" ""
done

# --- failures name what failed ---
read -r -a parts <"$TMP/autofdo.parts"
sed '0,/^binary \(.*known_path\) [0-9a-f]* /s//binary \1 00ff /' "${parts[0]}" >"$TMP/other.part"
grep -q '^binary .*known_path 00ff ' "$TMP/other.part" || fail "no build id to change"
"$HWTRACE" merge --kind autofdo "${parts[1]}" "$TMP/other.part" -o "$TMP/x" 2>"$TMP/err"
expect_eq "different binaries at one path: exit" "$?" 1
expect_contains "different binaries at one path: named" "$(cat "$TMP/err")" \
	"other.part: $P/known_path: the parts hold different binaries at this path"
expect_eq "no files left behind" "$(ls "$TMP"/x* 2>/dev/null)" ""
"$HWTRACE" merge --kind bolt "${parts[0]}" -o "$TMP/x" 2>"$TMP/err"
expect_eq "a part of another kind: exit" "$?" 1
expect_contains "a part of another kind: named" "$(cat "$TMP/err")" \
	"${parts[0]}: a partial result of kind autofdo where bolt was asked for"
head -n 3 "${parts[0]}" >"$TMP/short.part"
"$HWTRACE" merge --kind autofdo "$TMP/short.part" -o "$TMP/x" 2>"$TMP/err"
expect_eq "a cut partial: exit" "$?" 1
expect_contains "a cut partial: named" "$(cat "$TMP/err")" "short.part: line 4: the file ends before its end line"
awk 'NR == 3 { l = $0; getline; print; print l; next } { print }' "${parts[0]}" >"$TMP/order.part"
"$HWTRACE" merge --kind autofdo "$TMP/order.part" -o "$TMP/x" 2>"$TMP/err"
expect_eq "lines out of order: exit" "$?" 1
expect_contains "lines out of order: named" "$(cat "$TMP/err")" "order.part: line 4: a range out of order or listed twice"
"$HWTRACE" merge --kind autofdo "${parts[0]}" 2>"$TMP/err"
expect_eq "merge --kind autofdo without -o: exit" "$?" 2
"$HWTRACE" export "${caps[0]}" --to postgresql --db dbname=x --partial 2>"$TMP/err"
expect_eq "export --to postgresql --partial: exit" "$?" 2
expect_contains "export --to postgresql --partial: says which have" "$(cat "$TMP/err")" \
	"only sqlite, autofdo, bolt, bolt-preagg and pprof have partial results"
"$HWTRACE" merge --kind pprof "${pparts[0]}" 2>"$TMP/err"
expect_eq "merge --kind pprof without -o: exit" "$?" 2
sed '0,/^sample /{/^sample /d}' "${pparts[0]}" >"$TMP/nosample.part"
"$HWTRACE" merge --kind pprof "$TMP/nosample.part" -o "$TMP/x.pb.gz" 2>"$TMP/err"
expect_eq "a pprof partial missing a line: exit" "$?" 1
expect_contains "a pprof partial missing a line: named" "$(cat "$TMP/err")" \
	"nosample.part: line $(wc -l <"$TMP/nosample.part"): the end line counts other entries"
awk '/^line / && !done { done = 1; next } { print }' "${pparts[0]}" >"$TMP/cut.part"
"$HWTRACE" merge --kind pprof "$TMP/cut.part" -o "$TMP/x.pb.gz" 2>"$TMP/err"
expect_eq "a location cut short: exit" "$?" 1
expect_contains "a location cut short: named" "$(cat "$TMP/err")" \
	"cut.part: line 4: a location's lines cut short"
expect_eq "no profile left behind" "$(ls "$TMP"/x* 2>/dev/null)" ""
cp "${caps[1]}" "$TMP/in.data"
sum=$(sha1sum <"$TMP/in.data")
"$HWTRACE" export "${caps[0]}" "$TMP/in.data" --to pprof -o "$TMP/in.data" 2>"$TMP/err"
expect_eq "pprof: the second capture as -o: exit" "$?" 2
expect_contains "pprof: the second capture as -o: named" "$(cat "$TMP/err")" \
	"is the input file"
expect_eq "pprof: the second capture as -o: unchanged" "$(sha1sum <"$TMP/in.data")" "$sum"
"$HWTRACE" export "${caps[0]}" "${caps[1]}" --to postgresql --db dbname=x 2>"$TMP/err"
expect_eq "export of several captures to postgresql: exit" "$?" 2
read -r -a sparts <"$TMP/sqlite.parts"
# merge_fails WHAT MESSAGE PART...: `merge --kind sqlite PART... -o x.db`
# exits 1 and its message has MESSAGE.
merge_fails() {
	local what=$1 message=$2
	shift 2
	"$HWTRACE" merge --kind sqlite "$@" -o "$TMP/x.db" 2>"$TMP/err"
	expect_eq "$what: exit" "$?" 1
	expect_contains "$what: said" "$(cat "$TMP/err")" "$message"
}
# A byte of a capture's packed database changed: its crc says so.
cp "${sparts[0]}" "$TMP/damaged.part"
printf 'X' | dd of="$TMP/damaged.part" bs=1 seek=200 conv=notrunc status=none
merge_fails "a damaged sqlite partial" "damaged.part: line 2: a capture's database whose crc is not its line's (the file is damaged)" \
	"$TMP/damaged.part"
# A digest changed (the bytes whole): the database written says so.
sed '2s/^\(capture [0-9]* \)[0-9a-f]\{16\}/\10123456789abcdef/' "${sparts[0]}" >"$TMP/digest.part"
grep -q '^capture [0-9]* 0123456789abcdef ' "$TMP/digest.part" || fail "no digest to change"
merge_fails "a wrong digest" \
	"the database of capture 0123456789abcdef does not have its digest (a damaged part)" \
	"$TMP/digest.part"
# The format as docs/scale-out.md gives it, written by Python: read back,
# its database is the one put in it; with a symbol's id past the rows
# (not an export's numbering) it is refused, naming what.
python3 "$HWT_SOURCE_DIR/tests/integration/sqlite_part.py" "$TMP/single.1.db" "$TMP/py.part"
"$HWTRACE" merge --kind sqlite "$TMP/py.part" -o "$TMP/py.db" 2>"$TMP/err" ||
	fail "sqlite: a partial written by Python: $(tail -2 "$TMP/err")"
expect_eq "sqlite: a partial written by Python gives its database" \
	"$(cmp "$TMP/single.1.db" "$TMP/py.db" 2>&1)" ""
cp "$TMP/single.1.db" "$TMP/ids.db"
sqlite3 "$TMP/ids.db" "UPDATE symbols SET id = 99999999 WHERE id = 3"
python3 "$HWT_SOURCE_DIR/tests/integration/sqlite_part.py" "$TMP/ids.db" "$TMP/ids.part"
merge_fails "sqlite: ids past the rows" "a capture's symbols has id 99999999 in" \
	"$TMP/ids.part" "${sparts[1]}"
head -c 5000 "${sparts[0]}" >"$TMP/cut.part"
merge_fails "a cut sqlite partial" "cut.part: line 2: the file ends inside a capture's database" \
	"$TMP/cut.part"
expect_eq "no database left behind" "$(ls "$TMP"/x* 2>/dev/null)" ""
"$HWTRACE" merge --kind sqlite "${sparts[0]}" 2>"$TMP/err"
expect_eq "merge --kind sqlite without -o: exit" "$?" 2
sum=$(sha1sum <"$TMP/one.db")
"$HWTRACE" merge --kind sqlite "${sparts[0]}" -o "$TMP/one.db" 2>"$TMP/err"
expect_eq "merge --kind sqlite onto a database: exit" "$?" 2
expect_contains "merge --kind sqlite onto a database: named" "$(cat "$TMP/err")" \
	"one.db exists: give another -o"
expect_eq "merge --kind sqlite onto a database: unchanged" "$(sha1sum <"$TMP/one.db")" "$sum"
"$HWTRACE" merge --kind pprof "${sparts[0]}" -o "$TMP/x.pb.gz" 2>"$TMP/err"
expect_eq "an sqlite part as pprof: exit" "$?" 1
expect_contains "an sqlite part as pprof: named" "$(cat "$TMP/err")" \
	"a partial result of kind sqlite where pprof was asked for"
finish
