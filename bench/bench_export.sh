#!/bin/bash
# Export throughput: on one capture, in the same run, CPU time of
# `hwtrace export --to sqlite` and `--to pprof` (symbols on, as a user
# runs them) against perf's own export-to-sqlite.py (`perf script
# --itrace=b -s export-to-sqlite.py DB branches calls`: the same samples,
# one per branch, and calls), the least of N interleaved runs each,
# per million branches. The goal: sqlite at least 20 times perf's speed.
# The per-binary profiles (--to autofdo, --to bolt-preagg) are timed
# beside them, against the same peer.
# usage: bench/bench_export.sh BUILD_DIR [CAPTURE] [N]
set -eu
build=${1:?usage: bench_export.sh BUILD_DIR [CAPTURE] [N]}
data=${2:-}
n=${3:-3}
hwtrace="$build/tools/hwtrace"
export_py=/usr/lib/perf-core/scripts/python/export-to-sqlite.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$data" ]; then
	data="$tmp/bench.data"
	"$build/tests/programs/swb_record" -o "$data" --quiet --start main --stop exit \
		-- "$build/tests/programs/swb_demo" 3000 >/dev/null 2>"$tmp/rec.err"
fi
branches=$("$hwtrace" decode --no-symbols --format jsonl "$data" 2>/dev/null |
	grep -c '"type":"branch"')

cpu_ms() {
	perf stat -x, -e task-clock "$@" 2>&1 >/dev/null |
		awk -F, '/task-clock/ { printf "%.1f\n", $1 }'
}
min() { awk 'NR == 1 || $1 < m { m = $1 } END { print m }'; }

for _ in $(seq 1 "$n"); do
	rm -f "$tmp/h.db" "$tmp/p.db"
	cpu_ms "$hwtrace" export "$data" --to sqlite -o "$tmp/h.db" >>"$tmp/sqlite"
	cpu_ms "$hwtrace" export "$data" --to pprof -o "$tmp/h.pb.gz" >>"$tmp/pprof"
	cpu_ms "$hwtrace" export "$data" --to autofdo -o "$tmp/h" >>"$tmp/autofdo"
	cpu_ms "$hwtrace" export "$data" --to bolt-preagg -o "$tmp/h" >>"$tmp/bolt-preagg"
	(cd "$tmp" && cpu_ms perf script -i "$data" --itrace=b -s "$export_py" \
		p.db branches calls) >>"$tmp/perf"
done
peer=$(min <"$tmp/perf")
echo "capture: $data, $branches branches; least CPU time of $n runs each"
for v in perf sqlite pprof autofdo bolt-preagg; do
	t=$(min <"$tmp/$v")
	printf "%-11s %9s ms  %8s ms per million branches  %6sx perf's speed\n" "$v" "$t" \
		"$(echo "scale=1; $t * 1000000 / $branches" | bc)" "$(echo "scale=1; $peer / $t" | bc)"
done
