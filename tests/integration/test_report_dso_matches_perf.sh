# report's dso column and --sort against perf report --sort dso,sym on the
# same sw_branch capture of tests/programs/dl_path (its code in dl_path,
# ld.so, libc and the libm it dlopens; crtstuff's frame_dummy, _init and
# register_tm_clones in both the program and libm, strcmp in ld.so and
# libc).
# perf names a function's binary as hwtrace must (basename); perf's rows
# come from branch samples, hwtrace's from the frames of the rebuilt
# stacks, and the two pick different names among a function's aliases
# (memcmp/bcmp, fstat64/fstat), so functions are compared where both
# tools name them in one binary each, and the binaries as a set.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
P="$HWT_BUILD_DIR/tests/programs"
cd "$TMP" || exit 1

"$HWTRACE" record -e sw_branch -q -o dl.data -- "$P/dl_path" >/dev/null 2>record.err ||
	{ fail "record: $(tail -3 record.err)"; finish; exit 1; }
"$HWTRACE" report dl.data --top 0 >all.txt 2>report.err ||
	fail "report: $(cat report.err)"
# "DSO<TAB>SYM" of the table's rows, as they come.
pairs() { grep -v '^#' "$1" | awk '{ print $(NF - 1) "\t" $NF }'; }
pairs all.txt | LC_ALL=C sort -u >hwt.pairs
expect_eq "one row per binary and function" "$(pairs all.txt | sort | uniq -d)" ""

command -v perf >/dev/null || { fail "perf is not installed (Debian: linux-perf)"; finish; exit 1; }
perf report -i dl.data --force --no-children --sort dso,sym --stdio \
	-t '|' 2>perf.err >perf.txt || fail "perf report: $(tail -3 perf.err)"
# perf's rows: "  SELF%|DSO|[.] SYM"; its [unknown] row is the branch
# sample from address 0 (the kernel's entry into the program), no code.
grep -v '^#' perf.txt | grep . | awk -F'|' '{
	d = $2; s = $3; gsub(/^ +| +$/, "", d); sub(/^ *\[.\] /, "", s)
	sub(/ +$/, "", s); print d "\t" s }' |
	grep -v '^\[unknown\]	0*$' | LC_ALL=C sort -u >perf.pairs
expect_eq "perf report read the capture (positive control)" \
	"$(awk -F'\t' '$2 == "main" { print $1 }' perf.pairs)" "dl_path"
expect_eq "the binaries: perf's set" "$(cut -f1 hwt.pairs | sort -u)" \
	"$(cut -f1 perf.pairs | sort -u)"
# Names each tool shows in exactly one binary: the same binary.
awk -F'\t' 'NR == FNR { p[$2] = $1; pn[$2]++; next }
	{ h[$2] = $1; hn[$2]++ }
	END { for (k in h) if (pn[k] == 1 && hn[k] == 1) print k "\t" p[k] "\t" h[k] }' \
	perf.pairs hwt.pairs | LC_ALL=C sort >both.txt
expect_eq "functions both name once: the same binary" \
	"$(awk -F'\t' '$2 != $3' both.txt)" ""
expect_eq "the program's and the library's own functions among them" \
	"$(awk -F'\t' '$1 == "main" || $1 == "__cos_fma" || $1 == "_dl_start" { print $1, $3 }' both.txt)" \
	"$(printf '%s\n' "__cos_fma libm.so.6" "_dl_start ld-linux-x86-64.so.2" "main dl_path")"
# A name in two binaries is two rows, in both tools.
for f in frame_dummy:dl_path:libm.so.6 register_tm_clones:dl_path:libm.so.6 \
	_init:dl_path:libm.so.6 strcmp:ld-linux-x86-64.so.2:libc.so.6; do
	IFS=: read -r f d1 d2 <<<"$f"
	expect_eq "$f: a row per binary" "$(awk -F'\t' -v f="$f" '$2 == f { print $1 }' hwt.pairs)" \
		"$(printf '%s\n' "$d1" "$d2")"
	expect_eq "$f: perf's binaries" "$(awk -F'\t' -v f="$f" '$2 == f { print $1 }' hwt.pairs)" \
		"$(awk -F'\t' -v f="$f" '$2 == f { print $1 }' perf.pairs)"
done

# --sort: the rows in the keys' order, checked by sort(1).
"$HWTRACE" report dl.data --top 0 --sort dso,sym >ds.txt 2>/dev/null || fail "--sort dso,sym"
expect_eq "--sort dso,sym: the same rows" "$(pairs ds.txt | LC_ALL=C sort)" "$(pairs all.txt | LC_ALL=C sort)"
expect_eq "--sort dso,sym: by binary, then name" \
	"$(pairs ds.txt | LC_ALL=C sort -c -t "$(printf '\t')" -k1,1 -k2,2 2>&1)" ""
"$HWTRACE" report dl.data --top 0 --sort calls,sym >cs.txt 2>/dev/null || fail "--sort calls,sym"
expect_eq "--sort calls,sym: most calls first, then name" \
	"$(grep -v '^#' cs.txt | awk '{ print $5 "\t" $NF }' | LC_ALL=C sort -c -t "$(printf '\t')" -k1,1nr -k2,2 2>&1)" ""
expect_eq "--sort calls: the first row is the most called" \
	"$(grep -v '^#' cs.txt | awk 'NR == 1 { print $5 }')" \
	"$(grep -v '^#' all.txt | awk '$5 > m { m = $5 } END { print m }')"
"$HWTRACE" report dl.data --top 0 --sort total >t.txt 2>/dev/null || fail "--sort total"
"$HWTRACE" report dl.data --top 0 --children >c.txt 2>/dev/null || fail "--children"
expect_eq "--sort total is --children's order" "$(cmp t.txt c.txt 2>&1)" ""
"$HWTRACE" report dl.data --top 0 --sort self >s.txt 2>/dev/null || fail "--sort self"
expect_eq "--sort self is the default order" "$(cmp s.txt all.txt 2>&1)" ""
expect_eq "--sort children = total" \
	"$("$HWTRACE" report dl.data --top 0 --sort children 2>/dev/null | cmp - t.txt 2>&1)" ""

# Usage errors: exit 2, naming the key.
for bad in bogus "dso," "" srcline,sym; do
	"$HWTRACE" report dl.data --sort "$bad" >/dev/null 2>err.txt
	expect_eq "--sort '$bad': usage error" "$?" "2"
done
expect_contains "--sort bogus: names the keys" "$(
	"$HWTRACE" report dl.data --sort bogus 2>&1 >/dev/null)" "no key 'bogus' (keys: self, total"
"$HWTRACE" report dl.data --top 0 --sort comm,dso,sym >/dev/null 2>&1
expect_eq "--sort comm,dso,sym: a key now" "$?" "0"
"$HWTRACE" report dl.data --sort sym --collapsed >/dev/null 2>&1
expect_eq "--sort with --collapsed: usage error" "$?" "2"
finish
