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

source "$(dirname "$0")/bench_times.sh"
declare -A wall cpu
bench_all "$n"
echo "ratios of the medians (wall / CPU):"
echo "  perf script --itrace=b / hwtrace text:             $(ratio "${wall[perf_plain]}" "${wall[text]}") / $(ratio "${cpu[perf_plain]}" "${cpu[text]}")  (goal >= 5)"
echo "  perf script --itrace=b -F ip,addr / hwtrace text:  $(ratio "${wall[perf_ip_addr]}" "${wall[text]}") / $(ratio "${cpu[perf_ip_addr]}" "${cpu[text]}")"
echo "  hwtrace jsonl / hwtrace text:                      $(ratio "${wall[jsonl]}" "${wall[text]}") / $(ratio "${cpu[jsonl]}" "${cpu[text]}")  (goal <= 1.3)"
echo "hwtrace: $(tail -1 "$tmp/text.err")"
if awk -v t="${cpu[text]}" 'BEGIN { exit !(t < 2) }'; then
	echo "note: hwtrace text took under 2 s of CPU: give a larger TRACE_KIB"
fi
