#!/bin/bash
# Symbolizing's cost: `hwtrace decode` of one capture with symbols (and
# with --srcline) against the same decode with --no-symbols, in the same
# run, the least CPU time of N runs each. Prints the ratios; the budget
# for symbols is 1.20.
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

# CPU time (perf stat's task-clock), the least of N runs, the variants
# interleaved: the machine is shared, and waiting is not work.
cpu_ms() {
	perf stat -x, -e task-clock "$hwtrace" decode "$@" "$data" 2>&1 >/dev/null |
		awk -F, '/task-clock/ { printf "%.1f", $1 }'
}
min() { awk 'NR == 1 || $1 < m { m = $1 } END { print m }'; }

for fmt in text jsonl; do
	: >"$tmp/plain" ; : >"$tmp/sym"; : >"$tmp/src"
	for _ in $(seq 1 "$n"); do
		cpu_ms --format $fmt --no-symbols >>"$tmp/plain"; echo >>"$tmp/plain"
		cpu_ms --format $fmt >>"$tmp/sym"; echo >>"$tmp/sym"
		cpu_ms --format $fmt --srcline >>"$tmp/src"; echo >>"$tmp/src"
	done
	plain=$(min <"$tmp/plain") sym=$(min <"$tmp/sym") src=$(min <"$tmp/src")
	echo "$fmt: no symbols $plain ms, symbols $sym ms (ratio $(echo "scale=2; $sym / $plain" | bc)), srcline $src ms (ratio $(echo "scale=2; $src / $plain" | bc))"
done
echo "capture: $data ($("$hwtrace" decode --no-symbols "$data" 2>&1 >/dev/null | tail -1))"
