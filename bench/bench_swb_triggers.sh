#!/bin/bash
# What sw_branch's flight recorder costs against recording everything:
# tests/programs/slow_calls from main (1000 calls of slow(), 7 of them
# sleeping 30 ms), stepped with `--snapshot --trigger latency:slow>5ms`
# (7 windows) and with `--snapshot --trigger symbol:slow --trigger-count
# 1000` (a window at every entry: the cost of writing windows), each
# against the plain capture of the same run (the yardstick), through
# farm-bench: A B A B pairs, medians.
#
# usage: bench/bench_swb_triggers.sh BUILD_DIR [RUNS]   (RUNS default 5)
set -eu
build=${1:?usage: bench_swb_triggers.sh BUILD_DIR [RUNS]}
runs=${2:-5}
hwtrace="$build/tools/hwtrace"
prog="$build/tests/programs/slow_calls"
command -v farm-bench >/dev/null || { echo "farm-bench is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plain="$hwtrace record -e sw_branch --start main -q -o $tmp/full.data -- $prog"
echo "== latency:slow>5ms (7 windows) against the plain capture"
farm-bench -n "$runs" --timeout 600 --vs "$plain" -- \
	"$hwtrace" record -e sw_branch --snapshot --trigger 'latency:slow>5ms' \
	--start main -q -o "$tmp/lat" -- "$prog"
echo "== symbol:slow --trigger-count 1000 (1000 windows) against the plain capture"
farm-bench -n "$runs" --timeout 600 --vs "$plain" -- \
	"$hwtrace" record -e sw_branch --snapshot --trigger symbol:slow \
	--trigger-count 1000 --start main -q -o "$tmp/sym" -- "$prog"
