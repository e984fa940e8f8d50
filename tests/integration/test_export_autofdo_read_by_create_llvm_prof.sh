# hwtrace export --to autofdo read by AutoFDO's create_llvm_prof (Debian
# autofdo) and the profile it makes read by llvm-profdata-15, on a
# sw_branch capture of pgo_loop (main calls hot() CALLS=10 times, hot's
# loop runs N=100 times a call; built with clang -gdwarf-4
# -fdebug-info-for-profiling, since autofdo 0.19 reads DWARF 4):
# - one file per binary, named from -o, each listed on stderr;
# - the text's own numbers: the ranges inside hot hold, by objdump's
#   instruction addresses, exactly the instructions `hwtrace report`
#   gives hot (self), and its loop's back edge was taken CALLS*(N-1)
#   times, hot entered CALLS times;
# - create_llvm_prof --profiler text turns it into a profile whose hot
#   has head samples CALLS and CALLS*N samples on the loop body line;
# - a stripped binary (found through --symfs): named once on stderr, the
#   same file (addresses kept); an unwritable -o: refused before the
#   decode, nothing written; no room to write: exit 1, the files there
#   before untouched; --no-symbols: a usage error.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
source "$HWT_SOURCE_DIR/tests/integration/pgo_loop.sh"
pgo_loop_capture "clang create_llvm_prof llvm-profdata-15 objdump" \
	"clang autofdo llvm-15 binutils" -gdwarf-4 -fdebug-info-for-profiling

"$HWTRACE" export "$data" --to autofdo -o "$TMP/p" 2>"$TMP/export.err" ||
	fail "export: $(cat "$TMP/export.err")"
txt="$TMP/p.pgo_loop.afdo.txt"
expect_eq "one file for pgo_loop, named from -o" "$([ -s "$txt" ] && echo yes)" "yes"
expect_contains "stderr lists the file and its binary" "$(cat "$TMP/export.err")" \
	"  $txt ($PROG)"
nfiles=$(sed -n 's/.* in \([0-9]*\) files, one per binary.*/\1/p' "$TMP/export.err")
expect_eq "a file per binary listed" "$(grep -c '^  .*\.afdo\.txt (' "$TMP/export.err")" "$nfiles"
expect_contains "stderr: what was skipped" "$(cat "$TMP/export.err")" "skipped: 0 gaps"

# The layout: N ranges "start-last:count", 0 addresses, M branches
# "from->to:count" (what AutoFDO's text reader scans).
expect_eq "layout: counts head their sections" "$(awk '
	state == 0 { n = $1; state = 1; next }
	state == 1 && n > 0 { if ($0 !~ /^[0-9a-f]+-[0-9a-f]+:[0-9]+$/) bad++; n--; next }
	state == 1 { if ($1 != 0) bad++; state = 2; next }
	state == 2 { n = $1; state = 3; next }
	state == 3 && n > 0 { if ($0 !~ /^[0-9a-f]+->[0-9a-f]+:[0-9]+$/) bad++; n--; next }
	state == 3 { if ($0 !~ /^\/\//) bad++ }
	END { print bad + 0, n + 0 }' "$txt")" "0 0"

# hot's addresses (pgo_loop is PIE: its first segment is at 0, so the
# profile's addresses are the binary's).
read -r hot size <<<"$(nm -S "$PROG" | awk '$4 == "hot" { print $1, $2 }')"
hot=$((16#$hot)); end=$((hot + 16#$size))
expect_eq "PIE: first loadable segment at 0" \
	"$(readelf -lW "$PROG" | awk '$1 == "LOAD" { print $3; exit }')" "0x0000000000000000"
# Instructions objdump lists in hot, each counted by the ranges holding it.
objdump -d --no-show-raw-insn "$PROG" | awk -F: '/^ +[0-9a-f]+:/ { print $1 }' |
	tr -d ' ' >"$TMP/insns.txt"
insns=$(awk -v lo="$hot" -v hi="$end" "$AWK_HEX"'
	FNR == NR { a[NR] = hex($1); na = NR; next }
	/^[0-9a-f]+-[0-9a-f]+:/ {
		split($0, p, /[-:]/); s = hex(p[1]); l = hex(p[2])
		if (s < lo || s >= hi) next
		for (i = 1; i <= na; i++) if (a[i] >= s && a[i] <= l) t += p[3]
	}
	END { print t + 0 }' "$TMP/insns.txt" "$txt")
"$HWTRACE" report "$data" --top 0 >"$TMP/report.txt" 2>/dev/null || fail "report"
expect_eq "ranges in hot = report's self instructions of hot" "$insns" \
	"$(awk '$NF == "hot" { print $1 }' "$TMP/report.txt")"
expect_eq "hot's loop back edge taken CALLS*(N-1) times" "$(awk -v lo="$hot" -v hi="$end" "$AWK_HEX"'
	/->/ { split($0, p, /->|:/); f = hex(p[1]); t = hex(p[2])
	       if (f >= lo && f < hi && t >= lo && t < f) print p[3] }' "$txt")" \
	"$((CALLS * (N - 1)))"
expect_eq "branches into hot's entry: CALLS" "$(awk -v lo="$hot" "$AWK_HEX"'
	/->/ { split($0, p, /->|:/); if (hex(p[2]) == lo) n += p[3] }
	END { print n + 0 }' "$txt")" "$CALLS"

# create_llvm_prof reads it; llvm-profdata shows hot's counts.
create_llvm_prof --profiler text --profile "$txt" --binary "$PROG" \
	--out "$TMP/pl.afdo" --format text >"$TMP/cllp.out" 2>&1 ||
	fail "create_llvm_prof: $(tail -3 "$TMP/cllp.out")"
llvm-profdata-15 show --sample --function=hot "$TMP/pl.afdo" >"$TMP/show.txt" 2>&1 ||
	fail "llvm-profdata-15 show: $(head -3 "$TMP/show.txt")"
expect_eq "llvm-profdata: hot's head samples = CALLS" \
	"$(sed -n 's/^Function: hot: [0-9]*, \([0-9]*\),.*/\1/p' "$TMP/show.txt")" "$CALLS"
body=$(($(grep -n 'pgo_loop: body' "$SRC" | cut -d: -f1) - $(grep -n '^__attribute__((noinline)) unsigned hot' "$SRC" | cut -d: -f1)))
expect_eq "llvm-profdata: the loop body line ran CALLS*N times" \
	"$(awk -v l="$body" '$1 == l ":" { print $2 }' "$TMP/show.txt")" "$((CALLS * N))"

# Bad input: the binary stripped (found through --symfs): said once,
# the addresses kept, the same file.
mkdir -p "$TMP/symfs$(dirname "$PROG")"
strip -o "$TMP/symfs$PROG" "$PROG"
"$HWTRACE" export "$data" --to autofdo --symfs "$TMP/symfs" -o "$TMP/s" 2>"$TMP/strip.err" ||
	fail "export (stripped): $(cat "$TMP/strip.err")"
expect_eq "stripped: the binary named once on stderr" \
	"$(grep -c "$PROG: no symbols" "$TMP/strip.err")" "1"
expect_eq "stripped: the same profile (addresses kept)" \
	"$(cksum <"$TMP/s.pgo_loop.afdo.txt")" "$(cksum <"$txt")"

# An unwritable place is refused before the decode; nothing is left.
if [ "$(id -u)" = 0 ]; then ro="/proc/hwtrace-pgo"; else
	mkdir "$TMP/ro" && chmod 555 "$TMP/ro" && ro="$TMP/ro/p"; fi
"$HWTRACE" export "$data" --to autofdo -o "$ro" 2>"$TMP/ro.err"
expect_eq "unwritable output: exit 1" "$?" "1"
expect_contains "unwritable output: names it" "$(cat "$TMP/ro.err")" "$(dirname "$ro")"
expect_eq "unwritable output: refused before the decode" \
	"$(grep -c 'ranges (' "$TMP/ro.err")" "0"
# No room to write (a file size limit, as a full disk): exit 1, the
# files of the earlier export untouched, no temporary file left.
before=$(cat "$TMP"/p.*.afdo.txt | cksum)
(ulimit -f 4; trap '' XFSZ; exec "$HWTRACE" export "$data" --per-cpu --to autofdo \
	-o "$TMP/p") 2>"$TMP/full.err"
expect_eq "no room: exit 1" "$?" "1"
expect_contains "no room: says which file" "$(cat "$TMP/full.err")" "writing $TMP/p."
expect_eq "no room: the earlier files untouched" "$(cat "$TMP"/p.*.afdo.txt | cksum)" "$before"
expect_eq "no room: no temporary file left" "$(ls "$TMP" | grep -c '\.tmp')" "0"
"$HWTRACE" export "$data" --to autofdo --no-symbols -o "$TMP/n" 2>"$TMP/ns.err"
expect_eq "--no-symbols: usage error" "$?" "2"
expect_eq "--no-symbols: nothing written" "$(ls "$TMP" | grep -c '^n\.')" "0"
finish
