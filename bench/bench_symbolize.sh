#!/bin/bash
# Symbolizing's cost: `hwtrace decode` of one capture with symbols (and
# with --srcline) against the same decode with --no-symbols, in the same
# run, N runs each (CPU time). Prints the ratios; the budget is 1.20.
# usage: bench/bench_symbolize.sh BUILD_DIR [CAPTURE] [N]
set -eu
build=${1:?usage: bench_symbolize.sh BUILD_DIR [CAPTURE] [N]}
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

# CPU time (perf stat's task-clock, mean of N runs) rather than wall
# time: the machine is shared, and waiting is not work.
best() { # ms of: hwtrace decode ARGS
	perf stat -x, -e task-clock -r "$n" "$hwtrace" decode "$@" "$data" 2>&1 >/dev/null |
		awk -F, '/task-clock/ { printf "%.1f", $1 }'
}

for fmt in text jsonl; do
	plain=$(best --format $fmt --no-symbols)
	sym=$(best --format $fmt)
	src=$(best --format $fmt --srcline)
	echo "$fmt: no symbols ${plain} ms, symbols ${sym} ms (ratio $(echo "scale=2; $sym / $plain" | bc)), srcline ${src} ms (ratio $(echo "scale=2; $src / $plain" | bc))"
done
echo "capture: $data ($("$hwtrace" decode --no-symbols "$data" 2>&1 >/dev/null | tail -1))"
