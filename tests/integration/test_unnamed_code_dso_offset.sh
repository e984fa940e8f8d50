# Code in a known binary that no symbol covers is named FILE+0xOFF (the
# binary's file name and the code's offset in that file) in decode's text
# and jsonl, --calls, report, report --collapsed, the Chrome timeline and
# pprof. The program and its library (tests/programs/unnamed/) are
# stripped, so their static functions have no symbol; the oracle is the
# unstripped copies: nm gives each function's address, readelf the
# segment that maps it, hence its file offset, and the program's loops
# give the calls (hidden 5, lib_hidden 3). The unstripped build, recorded
# the same way, names the same code by its symbols (positive control).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
SRC="$HWT_SOURCE_DIR/tests/programs/unnamed"

# file_offset BINARY SYMBOL: the file offset of SYMBOL's first byte.
file_offset() {
	local vaddr
	vaddr=$(nm "$1" | awk -v s="$2" '$3 == s { print $1; exit }')
	readelf -lW "$1" | awk -v v="$vaddr" "$AWK_HEX"'
		$1 == "LOAD" {
			off = hex(substr($2, 3)); va = hex(substr($3, 3)); sz = hex(substr($6, 3))
			if (hex(v) >= va && hex(v) < va + sz) { printf "0x%x\n", hex(v) - va + off; exit }
		}'
}

cd "$TMP" || exit 1
mkdir -p full strip
gcc -O0 -g -shared -fPIC -o full/libunnamed.so "$SRC/unnamed_lib.c" 2>cc.err &&
	gcc -O0 -g -o full/unnamed "$SRC/unnamed_main.c" -Lfull -lunnamed \
		-Wl,-z,now -Wl,-rpath,"$TMP/full" 2>>cc.err &&
	gcc -O0 -g -o strip/unnamed "$SRC/unnamed_main.c" -Lfull -lunnamed \
		-Wl,-z,now -Wl,-rpath,"$TMP/strip" 2>>cc.err &&
	cp full/libunnamed.so strip/ && strip -s strip/libunnamed.so &&
	strip -s -K main -K tree_done strip/unnamed ||
	{ fail "build: $(cat cc.err)"; finish; }
expect_eq "the stripped program has no hidden symbol" "$(nm strip/unnamed | grep -c hidden)" "0"
expect_eq "the stripped library has no lib_hidden symbol" \
	"$(nm -D strip/libunnamed.so | grep -c lib_hidden)" "0"

main_off=$(file_offset full/unnamed hidden)
lib_off=$(file_offset full/libunnamed.so lib_hidden)
main_name="unnamed+$main_off"
lib_name="libunnamed.so+$lib_off"
expect_eq "addr2line names the main program's offset hidden" \
	"$(addr2line -f -e full/unnamed "$main_off" | head -1)" "hidden"

for v in full strip; do
	"$HWTRACE" record -e sw_branch --start main --stop tree_done -o $v.data \
		-- ./$v/unnamed >$v.out 2>$v.err || fail "record $v: $(tail -3 $v.err)"
	"$HWTRACE" report $v.data --top 0 >$v.report 2>/dev/null || fail "report $v"
done
# report_calls NAME FILE: the calls column of NAME's row.
report_calls() { awk -v f="$1" '!/^#/ && $NF == f { print $5 }' "$2"; }

expect_eq "control: hidden named by its symbol" "$(report_calls hidden full.report)" "5"
expect_eq "control: lib_hidden named by its symbol" "$(report_calls lib_hidden full.report)" "3"

expect_eq "report: the program's unnamed code" "$(report_calls "$main_name" strip.report)" "5"
expect_eq "report: the library's unnamed code" "$(report_calls "$lib_name" strip.report)" "3"
expect_eq "report: no bare address as a function" \
	"$(awk '!/^#/ && $NF ~ /^0x/' strip.report)" ""

"$HWTRACE" report strip.data --collapsed --weight calls -o strip.folded 2>/dev/null
expect_eq "collapsed: the program's unnamed code under main" \
	"$(awk -v f="main;$main_name" '$1 == f { print $2 }' strip.folded)" "5"
expect_eq "collapsed: the library's unnamed code under lib_entry" \
	"$(awk -v f="main;lib_entry;$lib_name" '$1 == f { print $2 }' strip.folded)" "3"

"$HWTRACE" decode strip.data >strip.txt 2>/dev/null
# Ranges that start at the unnamed functions, in text: the main program
# without its path, the library with it.
expect_eq "decode text: ranges in the program's unnamed code" \
	"$(grep -c " range .*  $main_name\$" strip.txt)" "5"
expect_eq "decode text: ranges in the library's unnamed code" \
	"$(grep -c " range .*  $lib_name ($TMP/strip/libunnamed.so)\$" strip.txt)" "3"
expect_eq "decode text: calls to the program's unnamed code" \
	"$(grep -c " call  main+0x[0-9a-f]* -> $main_name\$" strip.txt)" "5"
expect_eq "decode text: no [unknown] where the binary is known" \
	"$(grep -c '\[unknown\]' strip.txt)" "0"

"$HWTRACE" decode strip.data --format jsonl >strip.jsonl 2>/dev/null
expect_eq "jsonl: ranges named by binary and offset, no symoff" \
	"$(grep '"type":"range"' strip.jsonl | grep -c "\"sym\":\"$main_name\",\"dso\":\"$TMP/strip/unnamed\"")" "5"
expect_eq "jsonl: branch targets named the same" \
	"$(grep -c "\"to_sym\":\"$lib_name\",\"to_dso\"" strip.jsonl)" "3"

"$HWTRACE" decode strip.data --calls --format jsonl >calls.jsonl 2>/dev/null
expect_eq "--calls: calls of the program's unnamed code" \
	"$(grep '"type":"call"' calls.jsonl | grep -c "\"sym\":\"$main_name\"")" "5"

"$HWTRACE" timeline strip.data --format chrome -o tl.json 2>/dev/null
expect_eq "Chrome timeline: slices of the library's unnamed code" \
	"$(python3 -c 'import json,sys; print(sum(1 for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("name") == sys.argv[2] and e.get("ph") in ("X", "B")))' tl.json "$lib_name")" "3"

pprof_build
"$HWTRACE" export strip.data --to pprof -o p.pb.gz 2>/dev/null
expect_eq "pprof -top: the program's unnamed code, report's self instructions" \
	"$("$PPROF" -top -nodecount=100 p.pb.gz 2>/dev/null | awk -v f="$main_name" '$NF == f { print $1 }')" \
	"$(awk -v f="$main_name" '!/^#/ && $NF == f { print $1 }' strip.report)"
finish
