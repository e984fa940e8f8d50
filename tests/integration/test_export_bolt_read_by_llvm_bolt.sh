# hwtrace export --to bolt (fdata) and --to bolt-preagg (pre-aggregated
# B/F records) read by llvm-bolt-15 (Debian bolt-15), on a sw_branch
# capture of pgo_loop (main calls hot() CALLS=10 times, hot's loop runs
# N=100 times a call; built with -Wl,--emit-relocs as BOLT wants):
# - fdata: hot's back edge "1 hot OFF 1 hot OFF 0 CALLS*(N-1)" and
#   main's calls of it and of the static mix ("mix/1", as BOLT names
#   file-local functions); llvm-bolt accepts it with no stale (mismatching)
#   function, gives hot an execution count of CALLS and ranks it first
#   by executed instructions, and mix has its profile;
# - pre-aggregated (-o a directory: the same file there as DIR/NAME.preagg):
#   llvm-bolt -pa accepts it; hot's loop block runs
#   CALLS*N times, and the instructions BOLT counts in hot equal
#   `hwtrace report`'s self instructions of hot; the traces in pgo_loop's
#   own functions (hot, main) mismatch nothing;
# - a stripped binary (through --symfs): fdata gives addresses, counted
#   on stderr; the pre-aggregated file is the same (addresses kept).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
source "$HWT_SOURCE_DIR/tests/integration/pgo_loop.sh"
pgo_loop_capture "clang llvm-bolt-15 nm" "clang bolt-15 binutils" -g -Wl,--emit-relocs

# fdata
"$HWTRACE" export "$data" --to bolt -o "$TMP/p" 2>"$TMP/fdata.err" ||
	fail "export --to bolt: $(cat "$TMP/fdata.err")"
fdata="$TMP/p.pgo_loop.fdata"
expect_contains "stderr lists the fdata file" "$(cat "$TMP/fdata.err")" "  $fdata ($PROG)"
expect_eq "fdata: every line is 'K NAME OFF K NAME OFF 0 COUNT'" \
	"$(grep -cvE '^[01] [^ ]+ [0-9a-f]+ [01] [^ ]+ [0-9a-f]+ 0 [0-9]+$' "$fdata")" "0"
expect_eq "fdata: hot's back edge taken CALLS*(N-1) times" \
	"$(awk '$2 == "hot" && $5 == "hot" && $3 != "0" && $6 != "0" { print $8 }' "$fdata")" \
	"$((CALLS * (N - 1)))"
expect_eq "fdata: main calls hot CALLS times" \
	"$(awk '$2 == "main" && $5 == "hot" && $6 == "0" { print $8 }' "$fdata")" "$CALLS"
expect_eq "fdata: and the static mix, named mix/1 as BOLT names it, CALLS times" \
	"$(awk '$2 == "main" && $5 == "mix/1" && $6 == "0" { print $8 }' "$fdata")" "$CALLS"
llvm-bolt-15 "$PROG" -o "$TMP/pl.bolt" -data="$fdata" -print-profile-stats \
	-report-stale -print-cfg -print-only=hot \
	-print-sorted-by=executed-instructions >"$TMP/bolt.out" 2>&1 ||
	fail "llvm-bolt -data: $(grep -i error "$TMP/bolt.out" | head -3)"
expect_eq "llvm-bolt -data: no stale (mismatching) function profile" \
	"$(bolt_stale "$TMP/bolt.out")" "0"
expect_eq "llvm-bolt -data: hot executed CALLS times" \
	"$(bolt_hot_count "$TMP/bolt.out")" \
	"$CALLS"
expect_contains "llvm-bolt -data: the static mix has its profile" \
	"$(sed -n '/top functions sorted by (executed instructions)/,/^BOLT/p' "$TMP/bolt.out")" \
	"  mix/1"
expect_eq "llvm-bolt -data: hot first by executed instructions" \
	"$(sed -n '/top functions sorted by (executed instructions)/{n;p;q}' "$TMP/bolt.out" | awk '{ print $1 }')" "hot"

# pre-aggregated
"$HWTRACE" export "$data" --to bolt-preagg -o "$TMP/p" 2>"$TMP/preagg.err" ||
	fail "export --to bolt-preagg: $(cat "$TMP/preagg.err")"
pa="$TMP/p.pgo_loop.preagg"
expect_eq "preagg: every line is 'B FROM TO COUNT 0' or 'F START END COUNT'" \
	"$(grep -cvE '^(B [0-9a-f]+ [0-9a-f]+ [0-9]+ 0|F [0-9a-f]+ [0-9a-f]+ [0-9]+)$' "$pa")" "0"
mkdir "$TMP/dir"
"$HWTRACE" export "$data" --to bolt-preagg -o "$TMP/dir" 2>/dev/null ||
	fail "export --to bolt-preagg -o DIR"
expect_eq "-o DIR: DIR/NAME.preagg, the same file" \
	"$(cksum <"$TMP/dir/pgo_loop.preagg" 2>&1)" "$(cksum <"$pa")"
llvm-bolt-15 "$PROG" -o "$TMP/pa.bolt" -pa -p "$pa" -print-cfg -print-only=hot \
	-print-sorted-by=executed-instructions >"$TMP/pa.out" 2>&1 ||
	fail "llvm-bolt -pa: $(grep -i error "$TMP/pa.out" | head -3)"
"$HWTRACE" report "$data" --top 0 >"$TMP/report.txt" 2>/dev/null || fail "report"
expect_eq "llvm-bolt -pa: hot's instructions = report's self instructions" \
	"$(sed -n 's/^  hot (executed-instructions=\([0-9]*\))$/\1/p' "$TMP/pa.out")" \
	"$(awk '$NF == "hot" { print $1 }' "$TMP/report.txt")"
expect_eq "llvm-bolt -pa: hot's loop block runs CALLS*N times" \
	"$(bolt_hot_block_max "$TMP/pa.out")" \
	"$((CALLS * N))"
# The program's own functions (crt code and the PLT, which BOLT builds
# no CFG for, are left out): no trace mismatches their code.
range() { nm -S "$PROG" | awk -v f="$1" "$AWK_HEX"'$4 == f { print hex($1), hex($1) + hex($2) }'; }
read -r hlo hhi <<<"$(range hot)"
read -r mlo mhi <<<"$(range main)"
awk -v hlo="$hlo" -v hhi="$hhi" -v mlo="$mlo" -v mhi="$mhi" "$AWK_HEX"'
	function ours(a) { return (a >= hlo && a < hhi) || (a >= mlo && a < mhi) }
	ours(hex($2)) && ours(hex($3))' "$pa" >"$TMP/own.preagg"
expect_eq "preagg: hot and main have traces" "$([ -s "$TMP/own.preagg" ] && echo yes)" "yes"
llvm-bolt-15 "$PROG" -o "$TMP/own.bolt" -pa -p "$TMP/own.preagg" >"$TMP/own.out" 2>&1 ||
	fail "llvm-bolt -pa (hot, main): $(grep -i error "$TMP/own.out" | head -3)"
expect_contains "llvm-bolt -pa: no trace mismatches hot's and main's code" \
	"$(cat "$TMP/own.out")" "traces mismatching disassembled function contents: 0"

# A stripped binary: fdata keeps addresses (counted), preagg the same.
mkdir -p "$TMP/symfs$(dirname "$PROG")"
strip -o "$TMP/symfs$PROG" "$PROG"
"$HWTRACE" export "$data" --to bolt --symfs "$TMP/symfs" -o "$TMP/s" 2>"$TMP/sf.err" ||
	fail "export --to bolt (stripped): $(cat "$TMP/sf.err")"
expect_eq "stripped fdata: no names in pgo_loop but its PLT's" \
	"$(grep '^1 \| 1 [^ ]* [0-9a-f]* 0 [0-9]*$' "$TMP/s.pgo_loop.fdata" | grep -vc '@plt')" "0"
unnamed=$(awk '{ n += ($1 == 0 && $3 != "0") + ($4 == 0 && $6 != "0") } END { print n }' \
	"$TMP/s.pgo_loop.fdata" "$TMP"/s.lib*.fdata "$TMP"/s.ld*.fdata)
expect_contains "stripped fdata: the addresses counted on stderr" \
	"$(cat "$TMP/sf.err")" "; $unnamed branch ends in code no symbol names"
expect_eq "stripped fdata: the binary named once" "$(grep -c "$PROG: no symbols" "$TMP/sf.err")" "1"
"$HWTRACE" export "$data" --to bolt-preagg --symfs "$TMP/symfs" -o "$TMP/s" 2>/dev/null ||
	fail "export --to bolt-preagg (stripped)"
expect_eq "stripped preagg: the same file" "$(cksum <"$TMP/s.pgo_loop.preagg")" "$(cksum <"$pa")"
finish
