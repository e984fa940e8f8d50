# Damaged binaries under a capture: a library whose contents were cut
# (its section headers gone), an ELF file of another architecture in
# its place, a file shorter than its ELF header says. Each is named once
# with what is wrong; nothing crashes; decoding goes on and the healthy
# binary keeps its names.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"
ARM="$HWT_TESTDATA/perf-data/simpleperf-etm/etm_test_loop"
prog="$TMP/sym_cxx"
lib="$TMP/libsymdl.so"
g++ -g -O1 -o "$prog" "$HWT_SOURCE_DIR/tests/programs/sym_cxx.cpp" -ldl || fail "g++"
gcc -O1 -shared -fPIC -o "$lib" "$HWT_SOURCE_DIR/tests/programs/sym_dl_lib.c" || fail "gcc -shared"
"$PROGS/swb_record" -o "$TMP/cx.data" --quiet --start cxx_run --stop cxx_done \
	-- "$prog" "$lib" >/dev/null 2>"$TMP/rec.err" || { cat "$TMP/rec.err" >&2; fail "record"; }
size=$(stat -c %s "$lib")
cp "$lib" "$TMP/good.so"

decode() {
	"$HWTRACE" decode --format jsonl "$TMP/cx.data" >"$TMP/out.jsonl" 2>"$TMP/out.err"
	echo $?
}
check_goes_on() {
	expect_eq "$1: geo::area still named" "$(grep -c '"kind":"call".*"to_sym":"geo::area"' "$TMP/out.jsonl")" 4
	expect_eq "$1: the program's ranges decoded and named" "$(prog_ranges)" "$ranges"
}
prog_ranges() { grep '"type":"range"' "$TMP/out.jsonl" | grep -c -F "\"dso\":\"$prog\""; }
expect_eq "healthy: exit" "$(decode)" 0
ranges=$(prog_ranges)
[ "$ranges" -gt 30 ] || fail "healthy: only $ranges ranges in the program"
expect_eq "healthy: dl_twice named" "$(grep -c '"kind":"call".*"to_sym":"dl_twice"' "$TMP/out.jsonl")" 2

# Cut: the first 1 KiB (ELF header, program headers) kept, the rest zero.
head -c 1024 "$TMP/good.so" >"$lib"
truncate -s "$size" "$lib"
expect_eq "cut ELF: exit" "$(decode)" 0
expect_eq "cut ELF: named once" "$(grep -c "$lib" "$TMP/out.err")" 1
expect_contains "cut ELF: message" "$(cat "$TMP/out.err")" "$lib: no symbols and no debug info (tried the binary"
expect_eq "cut ELF: dl_twice unnamed" "$(grep -c '"to_sym":"dl_twice"' "$TMP/out.jsonl")" 0
check_goes_on "cut ELF"

# Another architecture (an AArch64 program, padded to the mapped size).
cp "$ARM" "$lib"
truncate -s "$size" "$lib"
[ "$(stat -c %s "$ARM")" -le "$size" ] || fail "the AArch64 file is larger than the library"
expect_eq "other arch: exit" "$(decode)" 0
expect_eq "other arch: named once" "$(grep -c "$lib" "$TMP/out.err")" 1
expect_contains "other arch: message" "$(cat "$TMP/out.err")" \
	"$lib holds AArch64 code, the trace is of x86: not used, its code is treated as missing"
check_goes_on "other arch"

# Not ELF at all (as raw code is): libelf reads it and has no error to
# tell, so the message says what the bytes are not.
head -c "$size" /dev/zero | tr '\0' '\220' >"$lib"
expect_eq "not ELF: exit" "$(decode)" 0
expect_contains "not ELF: message" "$(cat "$TMP/out.err")" \
	"$lib is not a readable ELF file (its bytes are not ELF: raw code, or another format)"
expect_eq "not ELF: no libelf non-error" "$(grep -c 'no error' "$TMP/out.err")" 0
check_goes_on "not ELF"

# Shorter than mapped: the image keeps it as missing; info reads what
# there is.
head -c 40 "$TMP/good.so" >"$lib"
expect_eq "short file: exit" "$(decode)" 0
expect_eq "short file: named once" "$(grep -c "$lib" "$TMP/out.err")" 1
check_goes_on "short file"
"$HWTRACE" info "$TMP/cx.data" >"$TMP/info" 2>"$TMP/info.err"
expect_contains "info: short file" "$(cat "$TMP/info.err")" "$lib is not a readable ELF file"
expect_contains "info: program's symbols" "$(cat "$TMP/info")" "      debug info: $prog (from the binary)"
finish
