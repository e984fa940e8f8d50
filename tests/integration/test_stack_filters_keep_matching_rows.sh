# report, timeline and export --comm/--dso/--sym rebuild the stacks from
# all the trace and keep the matching frames: a filtered output is the
# unfiltered output's matching part, computed here from the unfiltered
# output of the same capture (the oracle), on a sw_branch recording of
# tests/programs/dl_path (its code in dl_path, ld.so, libc and the libm it
# dlopens) and on simpleperf's ETM capture (testdata, its binary beside
# it). Rows are compared whole: counts and percentages are unchanged
# (spaces squeezed: the dso column is as wide as the widest binary shown).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/dl_path"
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm"
cd "$TMP" || exit 1

"$HWTRACE" record -e sw_branch -q -o t.data -- "$PROG" >/dev/null 2>record.err ||
	{ fail "record: $(tail -3 record.err)"; finish; }
"$HWTRACE" report t.data --top 0 >all.txt 2>/dev/null || fail "report failed"

# rows FILE: the table's rows (no header), spaces squeezed.
rows() { grep -v '^#' "$1" | tr -s ' '; }
# strcmp_calls: the calls of the strcmp rows (ld.so's and libc's).
strcmp_calls() { rows all.txt | awk '$NF == "strcmp" { s += $5 } END { print s + 0 }'; }
# total FILE: the instructions of the table's first header line.
total() { awk 'NR == 1 { print $2 }' "$1"; }

# --sym: exactly the unfiltered rows of those functions.
syms="do_lookup_x,strcmp,cos"
"$HWTRACE" report t.data --top 0 --sym "$syms" >sym.txt 2>/dev/null || fail "report --sym failed"
expect_eq "report --sym: the unfiltered rows of those functions" \
	"$(rows sym.txt)" "$(rows all.txt | awk -v s=",$syms," 'index(s, "," $NF ",")')"
expect_eq "report --sym: every listed function ran (positive control)" \
	"$(rows sym.txt | awk '{ print $NF }' | sort -u | paste -sd,)" "cos,do_lookup_x,strcmp"
read -r kept hidden whole < <(awk 'NR == 1 { k = $2 } /^# filtered:/ { h = $3; w = $NF } END { print k, h, w }' sym.txt)
expect_eq "report --sym: kept + hidden instructions are the whole trace's" \
	"$((kept + hidden)) $whole" "$(total all.txt) $(total all.txt)"

# --dso: the functions decode -F sym,dso shows running in libm, and the
# rows of the names no other binary has are the unfiltered rows.
"$HWTRACE" decode t.data -F ip,sym,dso 2>/dev/null |
	awk 'NF == 3 { d = $3; gsub(/[()]/, "", d); n = split(d, p, "/"); print $2, p[n] }' |
	sort -u >sym_dso.txt
awk '$2 == "libm.so.6" && $1 !~ /\+0x/ { print $1 }' sym_dso.txt | sort -u >libm_names.txt
awk '{ print $1 }' sym_dso.txt | sort | uniq -d >shared_names.txt
"$HWTRACE" report t.data --top 0 --dso libm.so.6 >dso.txt 2>/dev/null || fail "report --dso failed"
expect_eq "report --dso libm.so.6: the functions decode shows in libm" \
	"$(rows dso.txt | awk '$NF !~ /\+0x/ { print $NF }' | sort)" "$(cat libm_names.txt)"
expect_eq "report --dso libm.so.6: cos among them (positive control)" \
	"$(grep -cx cos libm_names.txt)" "1"
expect_eq "report --dso: a function only libm has keeps its unfiltered row" \
	"$(rows dso.txt | awk '$NF !~ /\+0x/' | grep -vwFf shared_names.txt)" \
	"$(rows all.txt | awk 'NR == FNR { l[$1]; next } ($NF in l)' libm_names.txt - | grep -vwFf shared_names.txt)"
"$HWTRACE" report t.data --top 0 --dso "$(readlink -f "$PROG")" >path.txt 2>/dev/null
expect_eq "report --dso by path: main is there" "$(rows path.txt | awk '$NF == "main"' | wc -l)" "1"

# --comm: the one thread's name keeps all; another name nothing, all hidden.
"$HWTRACE" report t.data --top 0 --comm dl_path >comm.txt 2>/dev/null
expect_eq "report --comm dl_path: the whole report" "$(cat comm.txt)" "$(cat all.txt)"
"$HWTRACE" report t.data --top 0 --comm nosuch >none.txt 2>/dev/null
expect_eq "report --comm nosuch: no rows" "$(rows none.txt | wc -l)" "0"
expect_eq "report --comm nosuch: all hidden" \
	"$(awk '/^# filtered:/ { print $3 }' none.txt)" "$(total all.txt)"

# Folded stacks: cos's instructions are those of every unfiltered stack
# ending in cos.
"$HWTRACE" report t.data --collapsed >all.folded 2>/dev/null
"$HWTRACE" report t.data --collapsed --sym cos >cos.folded 2>/dev/null
expect_eq "report --collapsed --sym cos: cos's instructions" \
	"$(awk '{ s += $NF } END { print s + 0 }' cos.folded)" \
	"$(awk '$1 ~ /(^|;)cos$/ { s += $NF } END { print s + 0 }' all.folded)"

# timeline: the call slices of the listed functions, unchanged.
slices() {
	python3 -c 'import json, sys
keep = set(sys.argv[2].split(",")) if len(sys.argv) > 2 else None
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e.get("ph") == "X" and (keep is None or e["name"] in keep):
        print(json.dumps(e, sort_keys=True))' "$@"
}
"$HWTRACE" timeline t.data --format chrome -o all.json 2>/dev/null || fail "timeline failed"
"$HWTRACE" timeline t.data --format chrome --sym "$syms" -o sym.json 2>/dev/null ||
	fail "timeline --sym failed"
expect_eq "timeline --sym: the unfiltered slices of those functions" \
	"$(slices sym.json)" "$(slices all.json "$syms")"
expect_eq "timeline --sym: strcmp's slices (positive control)" \
	"$(slices sym.json strcmp | wc -l)" "$(strcmp_calls)"

# export sqlite: the calls and the branch samples of the listed functions.
"$HWTRACE" export t.data --to sqlite -o all.db 2>/dev/null || fail "export failed"
"$HWTRACE" export t.data --to sqlite --sym strcmp -o sym.db 2>/dev/null ||
	fail "export --sym failed"
db() {
	python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
# (id 0: the "unknown" row of each table, as in perf export)
w = " where x.id != 0" if sys.argv[2] == "*" else " where s.name = ?"
a = () if sys.argv[2] == "*" else (sys.argv[2],)
print(c.execute("select count(*), sum(x.insn_count) from calls x join call_paths p on x.call_path_id = p.id join symbols s on p.symbol_id = s.id" + w, a).fetchone(),
      c.execute("select count(*) from samples x join symbols s on x.symbol_id = s.id" + w, a).fetchone())' "$@"
}
expect_eq "export --sym strcmp: its calls and branches, all of them" \
	"$(db sym.db '*')" "$(db all.db strcmp)"
expect_eq "export --sym strcmp: as many calls as report counts" \
	"$(db sym.db '*' | tr -d '(),' | awk '{ print $1 }')" \
	"$(strcmp_calls)"

# A testdata capture: simpleperf's ETM trace of etm_test_loop.
mkdir -p symfs/data/local/tmp
cp "$ETM/etm_test_loop" symfs/data/local/tmp/
"$HWTRACE" report "$ETM/perf_etm.data" --symfs symfs --top 0 >etm.txt 2>/dev/null ||
	fail "report of the ETM capture failed"
"$HWTRACE" report "$ETM/perf_etm.data" --symfs symfs --top 0 --sym __libc_init@plt \
	>etm_sym.txt 2>/dev/null
expect_eq "ETM capture: report --sym: the unfiltered row" \
	"$(rows etm_sym.txt)" "$(rows etm.txt | awk '$NF == "__libc_init@plt"')"
expect_eq "ETM capture: the row is there (positive control)" "$(rows etm_sym.txt | wc -l)" "1"
"$HWTRACE" report "$ETM/perf_etm.data" --symfs symfs --top 0 --dso etm_test_loop \
	>etm_dso.txt 2>/dev/null
expect_eq "ETM capture: report --dso etm_test_loop: all its code" \
	"$(cat etm_dso.txt)" "$(cat etm.txt)"

# Bad values are usage errors naming the option, in every command.
for cmd in "report" "timeline -o x.json" "export --to sqlite -o x.db"; do
	for bad in "--comm=" "--dso=a,,b" "--sym=,x"; do
		$HWTRACE $cmd t.data "$bad" >/dev/null 2>err.txt
		expect_eq "$cmd $bad: exit" "$?" "2"
		expect_contains "$cmd $bad: names the option" "$(cat err.txt)" "${bad%%=*} '${bad#*=}'"
	done
	$HWTRACE $cmd t.data --sym cos --no-symbols >/dev/null 2>err.txt
	expect_eq "$cmd --sym with --no-symbols: exit" "$?" "2"
	expect_contains "$cmd --sym with --no-symbols" "$(cat err.txt)" "--dso and --sym need symbols"
done
expect_eq "no output left by the refused runs" "$(ls x.json x.db 2>/dev/null)" ""
finish
