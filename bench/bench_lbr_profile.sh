#!/bin/bash
# Profiles from branch records: one LBR capture through `hwtrace export
# --to autofdo` against create_llvm_prof (Debian autofdo) and through
# `hwtrace export --to bolt` against perf2bolt-15 (Debian bolt-15), both
# peers reading the same perf.data themselves, the commands alternated
# run after run (bench_times.sh), medians, and the ratios peer / hwtrace.
#
# The capture is made here, as every LBR capture of the tests: pgo_loop
# (tests/programs/pgo_loop.c, built with clang -O1 -g) recorded with
# sw_branch from main, then sampled by the kernel emulator's branch-record
# producer as a 32-record Intel LBR (tests/fixtures/sysfs/intel-lbr)
# sampling after every second taken branch (-j any,u -c 2; a period of 1
# on the `branches` event is Intel BTS to the kernel and to perf, whose
# script then prints no branch stacks, so perf2bolt finds no LBR): each
# sample about 840 bytes. LOOPS sets the program's loop count and so the
# size: about 10 branches a loop, 5 samples, 4 KB. sw_branch steps the
# program at some 4,500 branches a second here, so LOOPS 55000 (about
# 230 MB) takes two minutes to record and 1 GB (LOOPS 240000) nine:
# with KEEP=DIR the program, the ground truth and the capture are made
# in DIR, a new directory, and left there; CAPTURE_DIR times them again.
#
# usage: bench/bench_lbr_profile.sh BUILD_DIR [LOOPS] [RUNS] [CAPTURE_DIR]
#   LOOPS default 55000, RUNS default 3; CAPTURE_DIR: a directory of an
#   earlier run (lbr.data and pgo_loop in it) to time instead of making one.
set -eu
build=${1:?usage: bench_lbr_profile.sh BUILD_DIR [LOOPS] [RUNS] [CAPTURE_DIR]}
loops=${2:-55000}
runs=${3:-3}
reuse=${4:-}
src=$(cd "$(dirname "$0")/.." && pwd)
hwtrace="$build/tools/hwtrace"
for tool in clang create_llvm_prof perf2bolt-15; do
	command -v "$tool" >/dev/null ||
		{ echo "$tool missing: install clang, autofdo and bolt-15" >&2; exit 2; }
done
[ -x "$hwtrace" ] || { echo "no $hwtrace: build first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/bench_times.sh
source "$src/bench/bench_times.sh"

if [ -n "$reuse" ]; then
	dir=$reuse
else
	dir=$tmp
	if [ -n "${KEEP:-}" ]; then
		mkdir "$KEEP" || { echo "KEEP=$KEEP: give a new directory" >&2; exit 2; }
		dir=$KEEP
	fi
	clang -O1 -g -o "$dir/pgo_loop" "$src/tests/programs/pgo_loop.c"
	"$hwtrace" record -e sw_branch --start main -q -o "$dir/truth.data" \
		-- "$dir/pgo_loop" "$loops" >/dev/null 2>"$tmp/truth.err" ||
		{ cat "$tmp/truth.err" >&2; exit 1; }
	"$hwtrace" record -j any,u -c 2 --sysfs "$src/tests/fixtures/sysfs/intel-lbr" \
		--emulate-branches "$dir/truth.data" -o "$dir/lbr.data" 2>"$tmp/lbr.err" ||
		{ cat "$tmp/lbr.err" >&2; exit 1; }
fi
data=$dir/lbr.data
prog=$dir/pgo_loop
echo "capture: $(du -m "$data" | cut -f1) MB, $(perf script -F ip -i "$data" 2>/dev/null | wc -l) samples of 32 records"

names=(afdo clp bolt p2b)
labels=("hwtrace export --to autofdo" "create_llvm_prof"
	"hwtrace export --to bolt" "perf2bolt-15")
run() {
	case $1 in
	afdo) "$hwtrace" export "$data" --to autofdo -o "$tmp/h" ;;
	clp) create_llvm_prof --binary="$prog" --profile="$data" --out="$tmp/c.afdo" ;;
	bolt) "$hwtrace" export "$data" --to bolt -o "$tmp/b" ;;
	p2b) perf2bolt-15 -aggregate-only -p "$data" -o "$tmp/p.fdata" "$prog" ;;
	esac
}
for ((i = 0; i < runs; i++)); do
	for c in "${names[@]}"; do
		time_run "$c" run "$c" || { cat "$tmp/$c.err" >&2; exit 1; }
	done
done
declare -A wall cpu
table "$runs" afdo "${labels[0]}" clp "${labels[1]}" bolt "${labels[2]}" p2b "${labels[3]}"
echo "create_llvm_prof / hwtrace --to autofdo: wall $(ratio "${wall[clp]}" "${wall[afdo]}")x, CPU $(ratio "${cpu[clp]}" "${cpu[afdo]}")x"
echo "perf2bolt-15 / hwtrace --to bolt: wall $(ratio "${wall[p2b]}" "${wall[bolt]}")x, CPU $(ratio "${cpu[p2b]}" "${cpu[bolt]}")x"
