#!/bin/bash
# hwtrace cluster on this host: a fleet of FILES generated Intel PT
# captures (bench_pt_decode --write, TRACE_KIB each, copied under other
# names) reported (--to report --top 0) by a local Dask cluster of one
# worker and of two, against one process, `hwtrace report -j 1` of all
# of them (the peer; the bytes are checked equal first). Each command
# runs N times (default 3), the commands interleaved, in the same run:
# the median and spread of the wall-clock time of the whole run (cluster
# start, planning, decode and merge included), then the ratios of the
# medians. Needs python3-distributed and the hwtrace Python package
# (PYTHONPATH=python-package-dir) for the cluster rows.
#
# usage: bench/bench_cluster.sh BUILD_DIR [FILES] [TRACE_KIB] [N]
set -eu
build=${1:?usage: bench_cluster.sh BUILD_DIR [FILES] [TRACE_KIB] [N]}
files=${2:-4}
kib=${3:-1024}
n=${4:-3}
hwtrace="$build/tools/hwtrace"
gen="$build/bench/bench_pt_decode"
[ -x "$gen" ] || { echo "no $gen: configure with -DHWT_BENCH=ON" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" --write "$tmp" "$kib" >/dev/null
fleet=()
for i in $(seq 1 "$files"); do
	cp "$tmp/perf.data" "$tmp/host$i.data"
	fleet+=("$tmp/host$i.data")
done

names=(one_process cluster_1 cluster_2)
run() {
	case $1 in
	one_process) "$hwtrace" report -j 1 --top 0 "${fleet[@]}" -o "$tmp/$1.out" ;;
	cluster_1) "$hwtrace" cluster --local 1 --to report --top 0 "${fleet[@]}" -o "$tmp/$1.out" ;;
	cluster_2) "$hwtrace" cluster --local 2 --to report --top 0 "${fleet[@]}" -o "$tmp/$1.out" ;;
	esac
}
for c in "${names[@]}"; do
	run "$c" 2>"$tmp/$c.err" || { echo "$c failed: $(tail -3 "$tmp/$c.err")" >&2; exit 1; }
done
cmp "$tmp/one_process.out" "$tmp/cluster_1.out"
cmp "$tmp/one_process.out" "$tmp/cluster_2.out"

TIMEFORMAT='%R'
for _ in $(seq 1 "$n"); do
	for c in "${names[@]}"; do
		{ time run "$c" 2>/dev/null; } 2>>"$tmp/$c.times"
	done
done
# The median, least and most of the numbers in file @1.
stats() {
	sort -n "$1" | awk '{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.3f %.3f %.3f", m, v[1], v[NR] }'
}
declare -A median
echo "$files captures of $kib KiB of trace; $n runs each, wall s: median (least..most)"
for c in "${names[@]}"; do
	read -r m l h <<<"$(stats "$tmp/$c.times")"
	median[$c]=$m
	printf "  %-12s %8s (%s..%s)\n" "$c" "$m" "$l" "$h"
done
awk -v a="${median[cluster_1]}" -v b="${median[cluster_2]}" -v p="${median[one_process]}" 'BEGIN {
	printf "  2 workers vs 1: %.2fx faster\n", a / b
	printf "  1 worker vs one process: %.2fx the time\n", a / p }'
