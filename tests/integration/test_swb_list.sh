# `hwtrace list` names sw_branch on a machine without trace hardware and
# says plainly that it is slow, with the measured rate.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
out=$("$HWTRACE" list --sysfs "$HWT_SOURCE_DIR/tests/fixtures/sysfs/no-trace"); rc=$?
expect_eq "list exit" "$rc" 0
expect_contains "sw_branch listed" "$out" "  - sw_branch: software branch tracer (ptrace single-step, Intel BTS records)"
expect_contains "slow, with the rate" "$out" "slow: every instruction traps, 80,000 to 145,000 instructions/s measured"
finish
