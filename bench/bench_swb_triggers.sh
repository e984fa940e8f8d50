#!/bin/bash
# What sw_branch's flight recorder costs against recording everything:
# tests/programs/slow_calls from main (1000 calls of slow(), 7 of them
# sleeping 30 ms), stepped with `--snapshot --trigger latency:slow>5ms`
# (7 windows) and with `--snapshot --trigger symbol:slow --trigger-count
# 1000` (a window at every entry: the cost of writing windows), each
# against the plain capture of the same run (the yardstick), the three
# commands interleaved run after run (bench_times.sh), medians.
#
# usage: bench/bench_swb_triggers.sh BUILD_DIR [RUNS]   (RUNS default 5)
set -eu
build=${1:?usage: bench_swb_triggers.sh BUILD_DIR [RUNS]}
runs=${2:-5}
src=$(cd "$(dirname "$0")/.." && pwd)
hwtrace="$build/tools/hwtrace"
prog="$build/tests/programs/slow_calls"
[ -x "$prog" ] || { echo "no $prog: build the tests first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

names=(plain latency symbol)
labels=("plain capture" "latency:slow>5ms (7 windows)"
	"symbol:slow, 1000 windows")
run() {
	case $1 in
	plain) "$hwtrace" record -e sw_branch --start main -q -o "$tmp/full.data" -- "$prog" ;;
	latency) "$hwtrace" record -e sw_branch --snapshot --trigger 'latency:slow>5ms' \
			--start main -q -o "$tmp/lat" -- "$prog" ;;
	symbol) "$hwtrace" record -e sw_branch --snapshot --trigger symbol:slow \
			--trigger-count 1000 --start main -q -o "$tmp/sym" -- "$prog" ;;
	esac
	rm -f "$tmp"/full.data "$tmp"/lat.* "$tmp"/sym.*
}
source "$src/bench/bench_times.sh"
declare -A wall cpu
bench_all "$runs"
echo "ratios of the medians to the plain capture (wall / CPU):"
echo "  latency trigger: $(ratio "${wall[latency]}" "${wall[plain]}") / $(ratio "${cpu[latency]}" "${cpu[plain]}")"
echo "  symbol trigger:  $(ratio "${wall[symbol]}" "${wall[plain]}") / $(ratio "${cpu[symbol]}" "${cpu[plain]}")"
