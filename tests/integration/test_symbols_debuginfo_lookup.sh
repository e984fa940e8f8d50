# Debug info for a stripped binary: found through .gnu_debuglink, under a
# build-id directory (perf's ~/.debug layout, --buildid-dir), served by a real debuginfod
# (started here on 127.0.0.1, scanning a directory that holds the debug
# file), refused when its build id does not match, and, when nowhere,
# the binary is named once as lacking it. Names and lines found through
# each route equal those of the unstripped binary.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"
for t in gcc objcopy strip debuginfod; do
	command -v $t >/dev/null || { echo "FAIL: $t is not installed (Debian: binutils, debuginfod)" >&2; exit 1; }
done
export DEBUGINFOD_CACHE_PATH="$TMP/cache" DEBUGINFOD_TIMEOUT=5
unset DEBUGINFOD_URLS

prog="$TMP/bin/sym_path"
mkdir -p "$TMP/bin" "$TMP/dbg" "$TMP/served"
gcc -g -O2 -Wl,--build-id -o "$TMP/full" "$HWT_SOURCE_DIR/tests/programs/sym_path.c"
objcopy --only-keep-debug "$TMP/full" "$TMP/sym_path.debug"
id=$(readelf -n "$TMP/full" | sed -n 's/.*Build ID: \([0-9a-f]*\)/\1/p')
[ ${#id} -eq 40 ] || fail "no build id in the stripped binary"
# Recorded from the full binary (the recorder finds --start in its
# symbol table), then stripped in place: decoding sees the stripped one.
cp "$TMP/full" "$prog"
"$PROGS/swb_record" -o "$TMP/s.data" --quiet --start sp_walk --stop sp_done -- "$prog" 7 \
	>/dev/null 2>"$TMP/rec.err" || fail "record: $(cat "$TMP/rec.err")"
strip --strip-all -o "$prog" "$TMP/full"

# The reference: what the unstripped binary gives (same code, same path).
ranges() { grep '"type":"range"' | sed 's/.*"sym"/"sym"/' | sort | uniq -c; }
cp "$prog" "$TMP/stripped"; cp "$TMP/full" "$prog"
"$HWTRACE" decode --format jsonl --srcline "$TMP/s.data" 2>/dev/null | ranges >"$TMP/want"
cp "$TMP/stripped" "$prog"
grep -q '"sym":"sp_leaf".*"srcline":".*sym_path.c:' "$TMP/want" || fail "the unstripped binary gives no sp_leaf lines"

# Nowhere: named once, with what was tried.
"$HWTRACE" decode --format jsonl --srcline "$TMP/s.data" >"$TMP/none.jsonl" 2>"$TMP/none.err"
expect_eq "no debug info: warnings naming the binary" "$(grep -c "$prog" "$TMP/none.err")" 1
expect_contains "no debug info: message" "$(cat "$TMP/none.err")" "$prog: no symbols and no debug info (tried the binary"
expect_eq "no debug info: no sp_leaf" "$(grep -c '"sym":"sp_leaf"' "$TMP/none.jsonl")" 0

# perf's build-id cache layout.
mkdir -p "$TMP/buildid/.build-id/${id:0:2}/${id:2}"
cp "$TMP/sym_path.debug" "$TMP/buildid/.build-id/${id:0:2}/${id:2}/debug"
"$HWTRACE" decode --format jsonl --srcline --buildid-dir "$TMP/buildid" "$TMP/s.data" \
	2>"$TMP/bid.err" | ranges >"$TMP/bid"
expect_eq "--buildid-dir: same names and lines as unstripped" "$(cat "$TMP/bid")" "$(cat "$TMP/want")"
expect_eq "--buildid-dir: no warning about the binary" "$(grep -c "$prog" "$TMP/bid.err")" 0

# .gnu_debuglink: the debug file next to the binary, named by its link.
objcopy --add-gnu-debuglink="$TMP/sym_path.debug" "$prog" "$TMP/linked"
cp "$TMP/linked" "$prog"
cp "$TMP/sym_path.debug" "$TMP/bin/"
"$HWTRACE" decode --format jsonl --srcline "$TMP/s.data" 2>"$TMP/link.err" | ranges >"$TMP/link"
expect_eq "debuglink: same names and lines as unstripped" "$(cat "$TMP/link")" "$(cat "$TMP/want")"
expect_contains "debuglink: info says so" "$("$HWTRACE" info "$TMP/s.data" 2>&1)" \
	"debug info: $TMP/bin/sym_path.debug (from the debuglink)"
rm "$TMP/bin/sym_path.debug"
cp "$TMP/stripped" "$prog"

# A debug file of another build is refused, with a message.
gcc -g -O0 -Wl,--build-id -o "$TMP/other" "$HWT_SOURCE_DIR/tests/programs/sym_path.c"
objcopy --only-keep-debug "$TMP/other" "$TMP/buildid/.build-id/${id:0:2}/${id:2}/debug"
"$HWTRACE" decode --format jsonl --srcline --buildid-dir "$TMP/buildid" "$TMP/s.data" \
	>"$TMP/bad.jsonl" 2>"$TMP/bad.err"
expect_contains "mismatched build id: refused" "$(cat "$TMP/bad.err")" \
	"debug file $TMP/buildid/.build-id/${id:0:2}/${id:2}/debug is for another build (its build id differs): not used"
expect_eq "mismatched build id: no sp_leaf" "$(grep -c '"sym":"sp_leaf"' "$TMP/bad.jsonl")" 0

# A real debuginfod serving the debug file.
cp "$TMP/sym_path.debug" "$TMP/served/"
port=$(perl -MIO::Socket::INET -e 'my $s = IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1:0") or die; print $s->sockport')
debuginfod -F -p "$port" -d "$TMP/db.sqlite" -t 1 "$TMP/served" >"$TMP/dfd.log" 2>&1 &
dfd=$!
trap 'kill $dfd 2>/dev/null; wait $dfd 2>/dev/null; rm -rf "$TMP"' EXIT
for i in $(seq 1 100); do
	curl -sf "http://127.0.0.1:$port/buildid/$id/debuginfo" -o /dev/null && break
	sleep 0.2
done
DEBUGINFOD_URLS="http://127.0.0.1:$port" "$HWTRACE" decode --format jsonl --srcline "$TMP/s.data" \
	2>"$TMP/dfd.err" | ranges >"$TMP/dfd"
expect_eq "debuginfod: same names and lines as unstripped" "$(cat "$TMP/dfd")" "$(cat "$TMP/want")"
# (Each lookup says it is fetching, naming the binary: that is no warning.)
warnings() { grep -v 'fetching debug info for' "$1" | grep -c "$prog"; }
expect_eq "debuginfod: no warning about the binary" "$(warnings "$TMP/dfd.err")" 0
expect_eq "debuginfod: the lookup was said" \
	"$(grep -c "fetching debug info for $prog (build id $id) from http://127.0.0.1:$port" "$TMP/dfd.err")" 1
# --debuginfod URL does the same (a fresh cache: really asked again).
DEBUGINFOD_CACHE_PATH="$TMP/cache2" "$HWTRACE" decode --format jsonl --srcline \
	--debuginfod "http://127.0.0.1:$port" "$TMP/s.data" 2>/dev/null | ranges >"$TMP/dfd2"
expect_eq "--debuginfod URL: same names and lines" "$(cat "$TMP/dfd2")" "$(cat "$TMP/want")"
# hwtrace info: per binary, where the debug info came from, or what was
# tried.
DEBUGINFOD_URLS="http://127.0.0.1:$port" DEBUGINFOD_CACHE_PATH="$TMP/cache4" \
	"$HWTRACE" info "$TMP/s.data" >"$TMP/info" 2>&1
# Functions: the debug file's FUNC symbols (distinct addresses) and the
# binary's PLT slots, as readelf lists them.
nfuncs=$(( $(readelf -sW "$TMP/sym_path.debug" 2>/dev/null |
	awk '$4 == "FUNC" && $2 !~ /^0+$/ && $7 != "UND" { print $2 }' | sort -u | wc -l) +
	$(readelf -rW "$TMP/full" | grep -c JUMP_SLOT) ))
expect_eq "info with debuginfod: the stripped binary" \
	"$(grep -A2 "^  $prog\$" "$TMP/info" | tail -2 | sed 's/  */ /g')" \
	"$(printf ' symbols: %d functions from debug file\n debug info: %s (from the debuginfod)' \
		"$nfuncs" "$TMP/cache4/$id/debuginfo")"
kill $dfd; wait $dfd 2>/dev/null
"$HWTRACE" info "$TMP/s.data" >"$TMP/info" 2>"$TMP/info.err"
expect_contains "info without: symbols missing" "$(grep -A2 "^  $prog\$" "$TMP/info")" \
	"symbols:    missing ("
expect_contains "info without: what was tried" "$(grep -A2 "^  $prog\$" "$TMP/info")" \
	"debug info: missing (tried the binary, /usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug)"

# A server that accepts and never answers: a timeout, named once, and
# the decode goes on.
perl -MIO::Socket::INET -e 'my $s = IO::Socket::INET->new(Listen => 5, LocalAddr => "127.0.0.1:0") or die;
	print $s->sockport, "\n"; $| = 1; my @c; while (my $c = $s->accept) { push @c, $c }' >"$TMP/port" &
mute=$!
trap 'kill $mute 2>/dev/null; rm -rf "$TMP"' EXIT
for i in $(seq 1 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
DEBUGINFOD_TIMEOUT=2 DEBUGINFOD_CACHE_PATH="$TMP/cache3" DEBUGINFOD_URLS="http://127.0.0.1:$(cat "$TMP/port")" \
	"$HWTRACE" decode --format jsonl --srcline "$TMP/s.data" >"$TMP/mute.jsonl" 2>"$TMP/mute.err"
expect_eq "silent debuginfod: decode still succeeds" "$?" 0
expect_eq "silent debuginfod: warnings naming the binary" "$(warnings "$TMP/mute.err")" 1
expect_contains "silent debuginfod: says what failed" "$(cat "$TMP/mute.err")" "debuginfod (http://127.0.0.1:"
expect_eq "silent debuginfod: ranges still decoded" "$(grep -c '"type":"range"' "$TMP/mute.jsonl")" \
	"$(grep -c '"type":"range"' "$TMP/none.jsonl")"
kill $mute
finish
