#!/bin/bash
# How far decoding is from the capture rate: for each backend's capture
# (those the other benches generate), the CPU seconds that one thread of
# `hwtrace decode` spends per second of one core's trace.
#
# A second of one core's trace is a number of bytes: the capture's own
# bytes of trace per instruction (trace bytes / instructions decoded)
# times the instructions one core retires in a second (IPS, default
# 2e9: a 3 GHz core at an IPC of about 0.7); and, for Intel PT, also
# 500 MB, the rate the Intel PT patch series gives for one core. The
# figure is then CPU seconds x rate / trace bytes: 1 means one core can
# decode as fast as one core traces, 10 that ten cores are needed.
#
# Each capture is decoded with -j 1 as text to /dev/null, as jsonl, as
# `report` (perf.data only: report does not read raw streams) and with
# `--edges`; `perf script --itrace=b` (text to /dev/null) runs in the
# same run where perf decodes the capture. All commands run N times
# (default 3), interleaved run after run; the table has CPU time
# (user + system) medians and their spread.
#
# Then the serial fraction: `hwtrace decode -j 2` of each perf.data
# capture and the raw ETE stream under `perf record -e cpu-clock` (a
# software event: no trace hardware needed), the calling thread's share
# of all samples of the command's threads and processes, the largest
# single thread's share, and Amdahl's speed-up 1 / (s + (1 - s) / n)
# that the calling thread's share s allows on 8, 16 and 64 cores.
#
# usage: bench/bench_capture_rate.sh BUILD_DIR [N]
#   env: IPS (instructions per second of one core, default 2e9),
#        HWT_TESTDATA (default: ../shared/testdata beside the source tree)
set -eu
build=${1:?usage: bench_capture_rate.sh BUILD_DIR [N]}
n=${2:-3}
ips=${IPS:-2e9}
src=$(cd "$(dirname "$0")/.." && pwd)
export HWT_TESTDATA=${HWT_TESTDATA:-$src/../shared/testdata}
hwtrace="$build/tools/hwtrace"
for p in "$hwtrace" "$build/bench/bench_pt_decode" "$build/bench/bench_decode_jobs" \
	"$build/bench/bench_cs_decode" "$build/tests/bts_capture"; do
	[ -x "$p" ] || { echo "no $p: build with -DHWT_BENCH=ON" >&2; exit 2; }
done
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The captures, each about a second of one thread's text decode.
mkdir "$tmp/pt" "$tmp/cpus" "$tmp/cs" "$tmp/bts"
"$build/bench/bench_pt_decode" --write "$tmp/pt" 2048 >/dev/null
"$build/bench/bench_decode_jobs" --write "$tmp/cpus" 1 >/dev/null
"$build/bench/bench_cs_decode" --write "$tmp/cs" 16384 2048 >/dev/null
"$build/tests/bts_capture" "$tmp/bts" 8 >/dev/null
t1="$HWT_TESTDATA/riscv-ntrace/t1"
for _ in $(seq 1024); do cat "$t1/test-NEX.bin"; done >"$tmp/t1.bin"

# capture names, labels, the arguments that name the input, and whether
# perf script decodes it (its arguments, or nothing).
caps=(pt cpus etm ete bts rv)
declare -A what input perf_in
what[pt]="Intel PT, one thread (bench_pt_decode 2048)"
what[cpus]="Intel PT, 4 CPUs, timed (bench_decode_jobs 1)"
what[etm]="CoreSight ETMv4 perf.data (bench_cs_decode 16384)"
what[ete]="CoreSight ETE raw stream (ete_mem x2048)"
what[bts]="Intel BTS, two threads (bts_capture 8)"
what[rv]="RISC-V N-Trace raw (t1 x1024)"
input[pt]="'$tmp/pt/perf.data'"
input[cpus]="'$tmp/cpus/perf.data'"
input[etm]="'$tmp/cs/perf.data' --symfs '$tmp/cs/symfs'"
input[ete]=$(cat "$tmp/cs/ete.args")
input[bts]="'$tmp/bts/bts.data'"
input[rv]="--raw 'riscv_ntrace,xlen=32,callstack=8:$tmp/t1.bin' --elf '$t1/test.elf'"
perf_in[pt]="-i '$tmp/pt/perf.data'"
perf_in[etm]="-i '$tmp/cs/perf.data' --symfs '$tmp/cs/symfs'"
perf_in[bts]="-i '$tmp/bts/bts.data'"
is_raw() { [ "$1" = ete ] || [ "$1" = rv ]; }

# Trace bytes: what `hwtrace info` counts in the AUXTRACE buffers of a
# perf.data, the stream's file size for a raw one.
trace_bytes() {
	case $1 in
	ete) stat -c %s "$tmp/cs/ete_mem/session1.bin" ;;
	rv) stat -c %s "$tmp/t1.bin" ;;
	*) eval "$hwtrace" info "${input[$1]}" 2>/dev/null |
		awk '$1 == "trace:" { print $2; exit }' ;;
	esac
}

names=() labels=()
for c in "${caps[@]}"; do
	for k in text jsonl report edges perf; do
		[ "$k" = report ] && is_raw "$c" && continue
		[ "$k" = perf ] && [ -z "${perf_in[$c]:-}" ] && continue
		names+=("$c.$k")
		labels+=("$c: $k")
	done
done
run() {
	local c=${1%.*} k=${1#*.}
	case $k in
	text) eval "$hwtrace" decode -j 1 --quiet "${input[$c]}" -o /dev/null ;;
	jsonl) eval "$hwtrace" decode -j 1 --quiet --format jsonl "${input[$c]}" -o /dev/null ;;
	report) eval "$hwtrace" report -j 1 "${input[$c]}" -o /dev/null ;;
	edges) eval "$hwtrace" decode -j 1 --quiet --edges "${input[$c]}" -o /dev/null ;;
	perf) eval perf script "${perf_in[$c]}" --itrace=b ;;
	esac
}

source "$(dirname "$0")/bench_times.sh"
declare -A wall cpu
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
bench_all "$n"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# per_second CPU BYTES RATE: CPU seconds per second of trace at RATE bytes/s.
per_second() { awk -v t="$1" -v b="$2" -v r="$3" 'BEGIN { printf "%.2f", t * r / b }'; }
echo "CPU seconds of decode (-j 1) per second of one core's trace, at IPS=$ips instructions/s"
printf "%-6s %-7s %12s %10s %12s %9s %11s %11s %9s\n" capture command "trace bytes" \
	instr "bytes/instr" "MB/s" "at capture" "at 500MB/s" "perf/this"
for c in "${caps[@]}"; do
	bytes=$(trace_bytes "$c")
	insns=$(sed -n 's/.* ranges (\([0-9]*\) instructions).*/\1/p' "$tmp/$c.text.err" | tail -1)
	[ -n "$insns" ] && [ "$insns" -gt 0 ] || { echo "$c: no instruction count in $tmp/$c.text.err" >&2; exit 1; }
	rate=$(awk -v b="$bytes" -v i="$insns" -v s="$ips" 'BEGIN { printf "%.0f", b / i * s }')
	for k in text jsonl report edges perf; do
		[ -n "${cpu[$c.$k]:-}" ] || continue
		at500=-
		case $c in pt | cpus) at500=$(per_second "${cpu[$c.$k]}" "$bytes" 500e6) ;; esac
		vs=-
		[ -n "${cpu[$c.perf]:-}" ] && [ "$k" != perf ] && vs=$(ratio "${cpu[$c.perf]}" "${cpu[$c.$k]}")
		printf "%-6s %-7s %12s %10s %12s %9s %11s %11s %9s\n" "$c" "$k" "$bytes" "$insns" \
			"$(awk -v b="$bytes" -v i="$insns" 'BEGIN { printf "%.4f", b / i }')" \
			"$(awk -v r="$rate" 'BEGIN { printf "%.0f", r / 1e6 }')" \
			"$(per_second "${cpu[$c.$k]}" "$bytes" "$rate")" "$at500" "$vs"
	done
done
for c in "${caps[@]}"; do echo "  $c: ${what[$c]}"; done
echo

# The serial fraction at -j 2. The command runs under a shell that writes
# its process id first, so the calling thread is the thread whose id is
# that process id. A merged capture's read-back runs on lanes, the calling
# thread one of them (docs/decode.md, "The output lanes"): a thread whose
# first sample comes after the last of every thread started before it is
# such a lane, and the calling thread's samples from the first lane's
# start on are its share of that parallel work. "before read-back" is
# the calling thread's share up to there: the work no other thread can do.
echo "serial fraction at -j 2 (perf record -e cpu-clock samples; Amdahl's speed-up on 8, 16, 64 cores):"
printf "%-6s %8s %8s %10s %20s %17s %20s\n" capture samples threads "calling %" \
	"8 / 16 / 64" "before read-back %" "8 / 16 / 64"
for c in pt cpus etm ete bts; do
	eval "set -- ${input[$c]}"
	# shellcheck disable=SC2016
	perf record -q -e cpu-clock -F 4000 -o "$tmp/$c.prof" -- \
		sh -c 'echo $$ >"$0"; exec "$@"' "$tmp/$c.pid" \
		"$hwtrace" decode -j 2 --quiet "$@" -o /dev/null 2>"$tmp/$c.rec.err" ||
		{ echo "$c: perf record failed: $(tail -1 "$tmp/$c.rec.err")" >&2; continue; }
	perf script -i "$tmp/$c.prof" -F tid,time 2>/dev/null | tr -d : |
		awk -v main="$(cat "$tmp/$c.pid")" -v name="$c" '
		function amdahl(s, i, out) {
			for (i = 8; i <= 64; i *= (i == 8 ? 2 : 4))
				out = out sprintf("%s%.2f", out == "" ? "" : " / ", 1 / (s + (1 - s) / i))
			return out
		}
		{
			t = $2 + 0
			if (!($1 in n)) first[$1] = t
			last[$1] = t; n[$1]++; all++
			if ($1 == main) mt[++m] = t
		}
		END {
			lane = -1
			for (a in n) {
				if (a == main) continue
				later = 1
				for (b in n)
					if (b != main && b != a && first[b] < first[a] && last[b] >= first[a])
						later = 0
				for (b in n)
					if (b != main && first[b] < first[a]) earlier = 1
				if (later && earlier && (lane < 0 || first[a] < lane)) lane = first[a]
				earlier = 0
			}
			before = 0
			for (i = 1; i <= m; i++) if (lane < 0 || mt[i] < lane) before++
			for (a in n) k++
			printf "%-6s %8d %8d %9.1f%% %20s %16.1f%% %20s\n", name, all, k,
				100 * m / all, amdahl(m / all), 100 * before / all, amdahl(before / all)
		}'
done
