#!/bin/bash
# The analysis path's cost: on one capture, in the same run, CPU time of
# `hwtrace decode --per-cpu -o /dev/null` (decode and text output, the
# peer), `decode` (plus the time-ordered merge), `report` (merge + stacks +
# report), `timeline` (Perfetto and Chrome JSON), all without symbols,
# the least of N interleaved runs each. Prints each as a ratio to the
# peer and per million elements. The goal for stacks + timeline: at most
# 1.30 of decode alone.
# usage: bench/bench_analysis.sh BUILD_DIR [CAPTURE] [N]
set -eu
build=${1:?usage: bench_analysis.sh BUILD_DIR [CAPTURE] [N]}
data=${2:-}
n=${3:-5}
hwtrace="$build/tools/hwtrace"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$data" ]; then
	data="$tmp/bench.data"
	"$build/tests/programs/swb_record" -o "$data" --quiet --start main --stop exit \
		-- "$build/tests/programs/swb_demo" 3000 >/dev/null 2>"$tmp/rec.err"
fi
elems=$("$hwtrace" decode --no-symbols --format jsonl --per-cpu "$data" 2>/dev/null | wc -l)

cpu_ms() {
	perf stat -x, -e task-clock "$hwtrace" "$@" 2>&1 >/dev/null |
		awk -F, '/task-clock/ { printf "%.1f\n", $1 }'
}
min() { awk 'NR == 1 || $1 < m { m = $1 } END { print m }'; }

names="decode_per_cpu decode_merged report timeline_perfetto timeline_chrome"
for _ in $(seq 1 "$n"); do
	cpu_ms decode --no-symbols --per-cpu -o "$tmp/o" "$data" >>"$tmp/decode_per_cpu"
	cpu_ms decode --no-symbols -o "$tmp/o" "$data" >>"$tmp/decode_merged"
	cpu_ms report --no-symbols -o "$tmp/o" "$data" >>"$tmp/report"
	cpu_ms timeline --no-symbols -o "$tmp/o" "$data" >>"$tmp/timeline_perfetto"
	cpu_ms timeline --no-symbols --format chrome -o "$tmp/o" "$data" >>"$tmp/timeline_chrome"
done
peer=$(min <"$tmp/decode_per_cpu")
echo "capture: $data, $elems elements; least CPU time of $n runs each"
for v in $names; do
	t=$(min <"$tmp/$v")
	printf "%-18s %9s ms  ratio %5s  %7s ms per million elements\n" "$v" "$t" \
		"$(echo "scale=2; $t / $peer" | bc)" "$(echo "scale=1; $t * 1000000 / $elems" | bc)"
done
