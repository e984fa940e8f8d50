#!/bin/bash
# The known_path test program of this build's architecture (x86-64, or its
# A64 or RV64 twin) runs the path its comment describes: kp_run(n) makes n
# calls of which n/2 are even. For A64 and RV64 (4-byte instructions) the
# straight-line lengths the instruction-count formula is built from are
# checked against the symbol table: A64 4 before the first call, add+tbnz
# before the leaf's branch, subs before the loop branch; RV64 5, addiw+andi
# +bnez, addiw.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/known_path"
[ -x "$PROG" ] || { echo "FAIL: $PROG is not built" >&2; exit 1; }
# shellcheck disable=SC2086
run() { ${HWT_TARGET_RUN:-} "$PROG" "$@"; }
expect_eq "n = 5" "$(run 5)" "5 calls, 2 even"
expect_eq "n = 60" "$(run 60)" "60 calls, 30 even"

sym() { printf '%d' "0x$(nm "$PROG" | awk -v s="$1" '$3 == s { print $1 }')"; }
machine=$(od -An -tu2 -j18 -N2 "$PROG" | tr -d ' ')
if [ "$machine" = 183 ]; then
	expect_eq "A64: instructions before the first call" \
		$(( ($(sym kp_call_site) - $(sym kp_run)) / 4 )) 4
	expect_eq "A64: leaf instructions up to its branch" \
		$(( ($(sym kp_leaf_fall) - $(sym kp_leaf)) / 4 )) 2
	expect_eq "A64: leaf fall-through to its return" \
		$(( ($(sym kp_leaf_ret) - $(sym kp_leaf_fall)) / 4 )) 1
	expect_eq "A64: instructions from the return to the loop branch" \
		$(( ($(sym kp_after_jcc) - $(sym kp_after_call)) / 4 )) 2
	expect_eq "A64: kp_done_call is the loop's exit" "$(sym kp_done_call)" "$(sym kp_after_jcc)"
elif [ "$machine" = 243 ]; then
	expect_eq "RV64: instructions before the first call" \
		$(( ($(sym kp_call_site) - $(sym kp_run)) / 4 )) 5
	expect_eq "RV64: leaf instructions up to its branch" \
		$(( ($(sym kp_leaf_fall) - $(sym kp_leaf)) / 4 )) 3
	expect_eq "RV64: leaf fall-through to its return" \
		$(( ($(sym kp_leaf_ret) - $(sym kp_leaf_fall)) / 4 )) 1
	expect_eq "RV64: instructions from the return to the loop branch" \
		$(( ($(sym kp_after_jcc) - $(sym kp_after_call)) / 4 )) 2
	expect_eq "RV64: kp_done_call is the loop's exit" "$(sym kp_done_call)" "$(sym kp_after_jcc)"
	expect_eq "RV64: no compressed instruction (kp_done is one ret)" \
		$(( $(sym kp_done) - $(sym kp_leaf_ret) )) 4
fi
finish
