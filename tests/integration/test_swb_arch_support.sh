#!/bin/bash
# sw_branch records on x86-64 and is refused elsewhere (arm64, riscv64)
# with the reason and what to record with instead, before the output file
# is touched: an existing file keeps its bytes.
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
	# ELF e_machine: 183 AArch64, 243 RISC-V.
	case "$arch" in
	183) name=arm64 instead="on an Arm board record with cs_etm (CoreSight)" ;;
	243) name=riscv64 instead="on a RISC-V board record with rvtrace (N-Trace)" ;;
	*) echo "FAIL: no expectation for ELF machine $arch" >&2; exit 1 ;;
	esac
	"$HWTRACE" record -e sw_branch -o "$TMP/old.data" -- /bin/true > /dev/null 2> "$TMP/err"
	expect_eq "$name: record exit status" "$?" 1
	expect_contains "$name: the reason" "$(cat "$TMP/err")" \
		"sw_branch is not supported on $name: it steps x86-64 programs only; $instead"
	expect_eq "$name: the existing file is untouched" "$(cat "$TMP/old.data")" "keep me"
	expect_contains "$name: list says so" \
		"$("$HWTRACE" list --sysfs "$HWT_SOURCE_DIR/tests/fixtures/sysfs/no-trace" 2>&1)" \
		"sw_branch: software branch tracer: not supported on this architecture"
fi
finish
