# sw_branch captures carry the build ids of the binaries they traced, and
# decode refuses a program rebuilt after recording: perf buildid-list lists
# the program with the build id readelf -n gives, and so does its MMAP2
# record; after a rebuild with
# other code at the same path, decode names the program once on stderr
# with both build ids and shows gaps naming it (not decode errors asking
# whether a record is missing); --ignore-build-ids decodes it as before.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
CC=${CC:-cc}
command -v "$CC" >/dev/null || { fail "no C compiler ($CC) to build the traced program"; finish; exit 1; }
command -v perf >/dev/null || { fail "perf (linux-perf) is not installed"; finish; exit 1; }

cat >"$TMP/prog.c" <<'C'
#include <stdlib.h>
static volatile int sink;
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	for (int i = 0; i < n; i++)
#ifdef OTHER
		sink += i * 3;
#else
		sink += i;
#endif
	return 0;
}
C
"$CC" -O0 -Wl,--build-id -o "$TMP/prog" "$TMP/prog.c" || fail "cannot build the program"
id=$(readelf -n "$TMP/prog" | sed -n 's/.*Build ID: //p')

"$HWTRACE" record -e sw_branch -q -o "$TMP/s.data" -- "$TMP/prog" 20 2>/dev/null
expect_eq "record exit" "$?" 0
expect_eq "perf buildid-list: the program" \
	"$(perf buildid-list -i "$TMP/s.data" 2>/dev/null | grep " $TMP/prog\$")" "$id $TMP/prog"
libc=$(perf buildid-list -i "$TMP/s.data" 2>/dev/null | awk '/\/libc\.so/ { print $2 }')
expect_contains "perf buildid-list: libc listed" "$libc" "/libc.so"
expect_eq "perf buildid-list: libc" \
	"$(perf buildid-list -i "$TMP/s.data" 2>/dev/null | awk '/\/libc\.so/ { print $1 }')" \
	"$(readelf -n "${libc:-/nonexistent}" 2>/dev/null | sed -n 's/.*Build ID: //p')"
expect_contains "perf script: the program's MMAP2 build id" \
	"$(perf script -i "$TMP/s.data" --show-mmap-events 2>/dev/null | grep 'PERF_RECORD_MMAP2' | grep " $TMP/prog\$")" \
	"<$id>]: r-xp $TMP/prog"
"$HWTRACE" decode "$TMP/s.data" >"$TMP/before.txt" 2>"$TMP/before.err"
expect_eq "decode before the rebuild: gaps" "$(grep -c ' gap ' "$TMP/before.txt")" 0

"$CC" -O0 -DOTHER -Wl,--build-id -o "$TMP/prog" "$TMP/prog.c" || fail "cannot rebuild"
new=$(readelf -n "$TMP/prog" | sed -n 's/.*Build ID: //p')
"$HWTRACE" decode "$TMP/s.data" >"$TMP/after.txt" 2>"$TMP/after.err"
expect_eq "rebuilt program named once" "$(grep -c "$TMP/prog" "$TMP/after.err")" 1
expect_contains "rebuilt program message" "$(cat "$TMP/after.err")" \
	"$TMP/prog has build id $new, the capture's is $id: not used"
expect_eq "gaps name the program" \
	"$(grep ' gap ' "$TMP/after.txt" | grep -vc "no_image: $TMP/prog has build id $new")" 0
expect_eq "gaps" "$(grep -c ' gap ' "$TMP/after.txt" | awk '{ print ($1 > 0) }')" 1
expect_eq "no decode errors" "$(grep -c 'is a record missing' "$TMP/after.txt")" 0

"$HWTRACE" decode --ignore-build-ids "$TMP/s.data" >"$TMP/ign.txt" 2>"$TMP/ign.err"
expect_contains "override said" "$(cat "$TMP/ign.err")" "used anyway (--ignore-build-ids)"
expect_eq "overridden: no missing-binary gaps" "$(grep -c 'no_image' "$TMP/ign.txt")" 0
finish
