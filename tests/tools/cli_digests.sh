#!/bin/bash
# cli_digests.sh HWTRACE TESTDATA OUT [JOBS]
#
# Runs the reading commands of HWTRACE (decode, report, info, dump,
# timeline, export) on every capture in TESTDATA (../shared/testdata: its
# perf.data files, OpenCSD snapshot directories and the RISC-V N-Trace
# stream) and writes to OUT one line per command line:
#   NAME STATUS SHA256(stdout) SHA256(stderr) SHA256(file written)
# so that two builds (before and after a change) or two -j values can be
# compared with cmp. The paths of the output file, the temporary folder
# and TESTDATA are replaced by fixed words first (in the output, the
# standard error and the file written), so that a copy of the test data
# elsewhere gives the same digests. JOBS (default
# 1) is the -j every decoding command gets.
set -u
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: $0 HWTRACE TESTDATA OUT [JOBS]" >&2
	exit 2
fi
HW=$1 TD=$2 OUT=$3 JOBS=${4:-1}
{ [ -f "$HW" ] && [ -x "$HW" ]; } || { echo "$0: $HW: not an executable" >&2; exit 2; }
[ -d "$TD" ] || { echo "$0: $TD: not a folder" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
: >"$TMP/digests"

digest() { sha256sum "$1" | cut -c1-64; }

# run NAME ARGS...: one line for `hwtrace ARGS`; "@OUT" in ARGS is the
# file the command writes (its digest is the line's last field).
run() {
	local name=$1 a args=() status
	shift
	rm -f "$TMP/out.file.raw"
	for a in "$@"; do
		args+=("${a//@OUT/$TMP/out.file.raw}")
	done
	"$HW" "${args[@]}" >"$TMP/stdout.raw" 2>"$TMP/stderr.raw" </dev/null
	status=$?
	local s file=-
	for s in stdout stderr out.file; do
		[ -f "$TMP/$s.raw" ] || continue
		LC_ALL=C sed -e "s#$TMP/out.file.raw#OUT#g" -e "s#$TMP#TMP#g" \
			-e "s#$TD#TESTDATA#g" "$TMP/$s.raw" >"$TMP/$s"
	done
	[ -f "$TMP/out.file.raw" ] && file=$(digest "$TMP/out.file")
	printf '%s %s %s %s %s\n' "$name" "$status" "$(digest "$TMP/stdout")" \
		"$(digest "$TMP/stderr")" "$file" >>"$TMP/digests"
}

J=(-j "$JOBS")
for f in "$TD"/perf-data/*/*.data "$TD"/perf-data/*/perf.data.*; do
	# Text beside the captures: goldens and dumps.
	case $f in *.txt|*.ptdump|*.pb_text|*.buildids|*inject*) continue ;; esac
	[ -f "$f" ] || continue
	n=${f#"$TD"/}
	run "$n:info" info "$f"
	run "$n:dump" dump "$f"
	run "$n:dump-hex" dump --hex "$f"
	run "$n:decode-text" decode -q "${J[@]}" "$f"
	run "$n:decode-jsonl" decode -q "${J[@]}" --format jsonl "$f"
	run "$n:decode-per-cpu" decode -q "${J[@]}" --per-cpu --format jsonl "$f"
	run "$n:decode-packets" decode -q --packets "$f"
	run "$n:decode-calls" decode -q "${J[@]}" --calls "$f"
	run "$n:decode-edges" decode -q "${J[@]}" --edges "$f"
	run "$n:decode-profile" decode -q "${J[@]}" --branch-profile "$f"
	run "$n:report" report "${J[@]}" "$f"
	run "$n:report-collapsed" report "${J[@]}" --collapsed "$f"
	run "$n:report-call-graph" report "${J[@]}" --call-graph "$f"
	run "$n:report-srcline" report "${J[@]}" --srcline "$f"
	run "$n:report-partial" report "${J[@]}" --partial "$f"
	run "$n:timeline-chrome" timeline "${J[@]}" --format chrome -o @OUT "$f"
	run "$n:timeline-perfetto" timeline "${J[@]}" -o @OUT "$f"
	run "$n:export-pprof" export "${J[@]}" --to pprof -o @OUT "$f"
	run "$n:annotate" annotate "$f"
	run "$n:view" view "${J[@]}" -o @OUT "$f"
done

for d in "$TD"/opencsd/*/; do
	d=${d%/}
	[ -f "$d/snapshot.ini" ] || continue
	n=${d#"$TD"/}
	run "$n:decode-text" decode -q "${J[@]}" --snapshot "$d"
	run "$n:decode-jsonl" decode -q "${J[@]}" --format jsonl --snapshot "$d"
	run "$n:decode-packets" decode -q --packets --snapshot "$d"
	run "$n:decode-edges" decode -q "${J[@]}" --edges --snapshot "$d"
done

RV="$TD/riscv-ntrace/t1"
if [ -f "$RV/test-NEX.bin" ]; then
	RAW=(--raw "riscv_ntrace,xlen=32,callstack=8:$RV/test-NEX.bin" --elf "$RV/test.elf")
	run "riscv-ntrace/t1:decode-jsonl" decode -q "${J[@]}" --format jsonl "${RAW[@]}"
	run "riscv-ntrace/t1:decode-packets" decode -q --packets "${RAW[@]}"
	run "riscv-ntrace/t1:decode-edges" decode -q "${J[@]}" --edges "${RAW[@]}"
fi

# Written whole only at the end: a run cut short leaves no OUT to compare.
cp "$TMP/digests" "$OUT"
