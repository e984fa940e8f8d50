#!/bin/bash
# The command line users time: `hwtrace decode FILE` (text, then jsonl)
# against `perf script --itrace=b -F ip,addr` and plain `perf script
# --itrace=b`, all writing to /dev/null, on one generated Intel PT
# perf.data (bench_pt_decode --write: a loop with a conditional, a call
# and a compressed return, PSB+ every 4 KiB, one per-thread AUX stream).
# Each command runs N times (default 3), the commands interleaved, in
# the same run. For each: the median and the spread (least..most) of
# the wall-clock time and of the CPU time (user + system); then the
# ratios of the medians. On a shared machine the CPU time is the fairer
# of the two: waiting for a core is not work.
#
# usage: bench/bench_cli_decode.sh BUILD_DIR [TRACE_KIB] [N]
#        (TRACE_KIB default 2048: about 2.5 s of single-threaded decode)
set -eu
build=${1:?usage: bench_cli_decode.sh BUILD_DIR [TRACE_KIB] [N]}
kib=${2:-2048}
n=${3:-3}
hwtrace="$build/tools/hwtrace"
gen="$build/bench/bench_pt_decode"
[ -x "$gen" ] || { echo "no $gen: configure with -DHWT_BENCH=ON" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" --write "$tmp" "$kib"
data="$tmp/perf.data"

names=(text jsonl perf_ip_addr perf_plain)
labels=("hwtrace decode (text)" "hwtrace decode --format jsonl"
	"perf script --itrace=b -F ip,addr" "perf script --itrace=b")
run() {
	case $1 in
	text) "$hwtrace" decode --quiet "$data" ;;
	jsonl) "$hwtrace" decode --quiet --format jsonl "$data" ;;
	perf_ip_addr) perf script -i "$data" --itrace=b -F ip,addr ;;
	perf_plain) perf script -i "$data" --itrace=b ;;
	esac
}

# One line per run: wall user+system, in seconds.
TIMEFORMAT='%R %U %S'
for _ in $(seq 1 "$n"); do
	for c in "${names[@]}"; do
		{ time run "$c" >/dev/null 2>"$tmp/$c.err"; } 2>"$tmp/t"
		awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$tmp/t" >>"$tmp/$c.times"
	done
done

# The median and the least and most of column @2 of file @1.
stats() {
	sort -n -k"$2" "$1" | awk -v k="$2" '{ v[NR] = $k }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.3f %.3f %.3f", m, v[1], v[NR] }'
}
declare -A wall cpu
printf "%-36s %22s %22s\n" "$n runs each, median (least..most)" "wall s" "CPU s"
for i in "${!names[@]}"; do
	c=${names[$i]}
	read -r wm wl wh <<<"$(stats "$tmp/$c.times" 1)"
	read -r cm cl ch <<<"$(stats "$tmp/$c.times" 2)"
	wall[$c]=$wm cpu[$c]=$cm
	printf "%-36s %7.3f (%.3f..%.3f) %7.3f (%.3f..%.3f)\n" "${labels[$i]}" \
		"$wm" "$wl" "$wh" "$cm" "$cl" "$ch"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
echo "ratios of the medians (wall / CPU):"
echo "  perf script --itrace=b / hwtrace text:             $(ratio "${wall[perf_plain]}" "${wall[text]}") / $(ratio "${cpu[perf_plain]}" "${cpu[text]}")  (goal >= 5)"
echo "  perf script --itrace=b -F ip,addr / hwtrace text:  $(ratio "${wall[perf_ip_addr]}" "${wall[text]}") / $(ratio "${cpu[perf_ip_addr]}" "${cpu[text]}")"
echo "  hwtrace jsonl / hwtrace text:                      $(ratio "${wall[jsonl]}" "${wall[text]}") / $(ratio "${cpu[jsonl]}" "${cpu[text]}")  (goal <= 1.3)"
echo "hwtrace: $(tail -1 "$tmp/text.err")"
if awk -v t="${cpu[text]}" 'BEGIN { exit !(t < 2) }'; then
	echo "note: hwtrace text took under 2 s of CPU: give a larger TRACE_KIB"
fi
