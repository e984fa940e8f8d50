#!/bin/bash
# sw_branch records on x86-64 and is refused elsewhere (arm64) with the
# reason, before the output file is touched: an existing file keeps its
# bytes.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
arch=$(od -An -tu2 -j18 -N2 "$HWT_BUILD_DIR/tools/hwtrace" | tr -d ' ')
printf 'keep me\n' > "$TMP/old.data"
if [ "$arch" = 62 ]; then
	"$HWTRACE" record -e sw_branch --start main --stop exit \
		-o "$TMP/new.data" -- "$HWT_BUILD_DIR/tests/programs/known_path" 1 \
		> /dev/null 2> "$TMP/err"
	expect_eq "x86-64: record exit status" "$?" 0
	expect_eq "x86-64: capture written" "$([ -s "$TMP/new.data" ] && echo yes)" yes
else
	"$HWTRACE" record -e sw_branch -o "$TMP/old.data" -- /bin/true > /dev/null 2> "$TMP/err"
	expect_eq "arm64: record exit status" "$?" 1
	expect_contains "arm64: the reason" "$(cat "$TMP/err")" \
		"sw_branch is not supported on arm64: it steps x86-64 programs only"
	expect_eq "arm64: the existing file is untouched" "$(cat "$TMP/old.data")" "keep me"
	expect_contains "arm64: list says so" \
		"$("$HWTRACE" list --sysfs "$HWT_SOURCE_DIR/tests/fixtures/sysfs/no-trace" 2>&1)" \
		"sw_branch: software branch tracer: not supported on this architecture"
fi
finish
