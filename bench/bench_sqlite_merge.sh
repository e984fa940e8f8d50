#!/bin/bash
# The SQLite database of several captures: in the same run, CPU and wall
# time of one `hwtrace export C1 C2 ... --to sqlite -j 1` (each capture's
# database, then the writer that numbers them into one), of the same
# captures exported one by one (each its own database: what the writer
# adds is the difference), of their `export --to sqlite --partial` one by
# one, and of `hwtrace merge --kind sqlite` of those partials (the last
# step of a cluster's run). The commands run in turn, run after run; the
# table gives each one's median and spread. The captures: COUNT sw_branch
# recordings of swb_demo LOOPS (about 8 MB and 350,000 branches each at
# the default 20000).
# usage: bench/bench_sqlite_merge.sh BUILD_DIR [COUNT] [LOOPS] [RUNS]
set -eu
build=${1:?usage: bench_sqlite_merge.sh BUILD_DIR [COUNT] [LOOPS] [RUNS]}
count=${2:-2}
loops=${3:-20000}
runs=${4:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
hwtrace="$build/tools/hwtrace"
[ -x "$hwtrace" ] || { echo "no $hwtrace: build first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=bench/bench_times.sh
source "$src/bench/bench_times.sh"

caps=()
for ((i = 1; i <= count; i++)); do
	"$hwtrace" record -e sw_branch --start main -q -o "$tmp/c$i.data" \
		-- "$build/tests/programs/swb_demo" "$loops" >/dev/null 2>"$tmp/rec.err" ||
		{ cat "$tmp/rec.err" >&2; exit 1; }
	caps+=("$tmp/c$i.data")
done
for ((i = 1; i <= count; i++)); do
	"$hwtrace" export "${caps[i - 1]}" --to sqlite --partial -o "$tmp/c$i.part" 2>/dev/null
done
echo "captures: $count of $(du -k "${caps[0]}" | cut -f1) KiB; partials: $(du -ck "$tmp"/c*.part | tail -1 | cut -f1) KiB"

names=(one apart partials merge)
labels=("export of all --to sqlite -j 1" "each exported alone, -j 1"
	"each export --partial, -j 1" "merge --kind sqlite of the partials")
run() {
	rm -f "$tmp"/out*.db
	case $1 in
	one) "$hwtrace" export "${caps[@]}" --to sqlite -j 1 -o "$tmp/out.db" ;;
	apart) for ((i = 1; i <= count; i++)); do
			"$hwtrace" export "${caps[i - 1]}" --to sqlite -j 1 -o "$tmp/out$i.db" || return
		done ;;
	partials) for ((i = 1; i <= count; i++)); do
			"$hwtrace" export "${caps[i - 1]}" --to sqlite --partial -j 1 \
				-o "$tmp/p$i.part" || return
		done ;;
	merge) "$hwtrace" merge --kind sqlite "$tmp"/c*.part -o "$tmp/out.db" ;;
	esac
}
# The bytes first: the merge is the export of all.
run one 2>/dev/null && mv "$tmp/out.db" "$tmp/one.db"
run merge && cmp "$tmp/one.db" "$tmp/out.db" || { echo "the merge differs" >&2; exit 1; }
declare -A wall cpu
bench_all "$runs"
echo "export of all / each alone: wall $(ratio "${wall[one]}" "${wall[apart]}")x, CPU $(ratio "${cpu[one]}" "${cpu[apart]}")x"
echo "merge / export of all: wall $(ratio "${wall[merge]}" "${wall[one]}")x, CPU $(ratio "${cpu[merge]}" "${cpu[one]}")x"
