#!/bin/bash
# The Python package against the peers a user would reach for, in the
# same run, commands interleaved run after run (N runs, default 3):
#  - per-element iteration: a script counting the branches with
#    cap.elements() (with symbols, as by default, and without; and
#    with types="branch", only the branches made, as --itrace=b gives
#    perf's script only those), against
#    `perf script --itrace=b -s` with a Python script counting its
#    branch samples, on a generated Intel PT capture (bench_pt_decode
#    --write, perf decodes its code from the build id cache the script
#    fills) and a sw_branch capture (tests' bts_capture, SWB_MIB MiB:
#    the default, 16, is large enough that neither side's fixed costs,
#    the interpreters' start and the reading of /proc/kallsyms for the
#    capture's kernel addresses, make most of the time); perf's decode
#    without its Python, `perf script --itrace=b -F ip`, is timed too;
#  - element_batches: a script counting the elements of NumPy batches
#    (it prints its own elements/s: open and decode, not the start of
#    the interpreter and NumPy's import), against
#    `hwtrace decode -j 1 -o /dev/null` on the PT capture, and the
#    CLI's own jsonl decode of the sw_branch capture, with symbols as
#    elements() has them and without.
# Each figure is the whole process, the interpreter's start and imports
# included. Run with Debian's /usr/bin/python3 (docs/python.md).
#
# Before and after a change, in the same run: with BASE_BUILD naming an
# older build (and BASE_PYTHON its python/ folder, default this tree's),
# the Python commands and the CLI's decode are also run on it, interleaved
# with the others run after run, and their ratios printed.
#
# usage: bench/bench_python.sh BUILD_DIR [TRACE_KIB] [N] [SWB_MIB]
#        (TRACE_KIB default 256: about 1.5 M branches; SWB_MIB default
#        16: about 1.5 M branches)
set -eu
build=${1:?usage: bench_python.sh BUILD_DIR [TRACE_KIB] [N] [SWB_MIB]}
kib=${2:-256}
n=${3:-3}
swb_mib=${4:-16}
src=$(cd "$(dirname "$0")/.." && pwd)
hwtrace="$build/tools/hwtrace"
python=/usr/bin/python3
for p in "$build/bench/bench_pt_decode" "$build/tests/bts_capture"; do
	[ -x "$p" ] || { echo "no $p: build with -DHWT_BENCH=ON" >&2; exit 2; }
done
command -v perf >/dev/null || { echo "perf is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/pt" "$tmp/swb"
"$build/bench/bench_pt_decode" --write "$tmp/pt" "$kib" >/dev/null
"$build/tests/bts_capture" "$tmp/swb" "$swb_mib" swb >/dev/null
pt="$tmp/pt/perf.data" swb="$tmp/swb/bts.data"
export HWTRACE_LIB="$build/libhwtrace.so.0" PYTHONPATH="$src/python"

cat >"$tmp/elements.py" <<'PY'
import sys, warnings
import hwtrace
warnings.simplefilter("ignore", hwtrace.HwtraceWarning)
n = 0
with hwtrace.open(sys.argv[1]) as cap:
    for e in cap.elements(symbols=sys.argv[2] == "symbols"):
        if e["type"] == "branch":
            n += 1
print(n, "branches")
PY
cat >"$tmp/branches.py" <<'PY'
import sys, warnings
import hwtrace
warnings.simplefilter("ignore", hwtrace.HwtraceWarning)
n = 0
with hwtrace.open(sys.argv[1]) as cap:
    for e in cap.elements(types="branch"):
        n += 1
print(n, "branches")
PY
cat >"$tmp/batches.py" <<'PY'
import sys, time, warnings
import numpy  # imported before the clock starts: its import is not the decode
import hwtrace
warnings.simplefilter("ignore", hwtrace.HwtraceWarning)
t, n = time.perf_counter(), 0
with hwtrace.open(sys.argv[1]) as cap:
    for batch in cap.element_batches(65536):
        n += len(batch)
t = time.perf_counter() - t
print(n, "elements", round(n / t / 1e6, 1), "M elements/s")
PY
cat >"$tmp/perf_count.py" <<'PY'
n = 0
def process_event(param_dict):
    global n
    n += 1
def trace_end():
    print(n, "branches")
PY

names=() labels=()
add() { names+=("$1"); labels+=("$2"); }
add py_pt "elements() with symbols, PT"
add py_pt_nosym "elements(symbols=False), PT"
add py_pt_branch "elements(types=\"branch\"), PT"
add perf_pt "perf script --itrace=b -s, PT"
add py_swb "elements() with symbols, sw_branch"
add py_swb_nosym "elements(symbols=False), sw_branch"
add py_swb_branch "elements(types=\"branch\"), sw_branch"
add perf_swb "perf script --itrace=b -s, sw_branch"
add perf_swb_text "perf script --itrace=b -F ip, sw_branch"
add decode_swb "hwtrace decode -j 1 --format jsonl, sw_branch"
add decode_swb_nosym "hwtrace decode --no-symbols --format jsonl, sw_branch"
add batches "element_batches(65536), PT"
add decode "hwtrace decode -j 1 -o /dev/null, PT"
base=${BASE_BUILD:-}
base_py=${BASE_PYTHON:-$src/python}
if [ -n "$base" ]; then
	[ -e "$base/libhwtrace.so.0" ] || { echo "BASE_BUILD=$base: no libhwtrace.so.0 there" >&2; exit 2; }
	for c in py_pt py_pt_branch py_swb py_swb_branch batches decode; do
		for i in "${!names[@]}"; do
			[ "${names[$i]}" = "$c" ] && add "${c}_base" "${labels[$i]} (BASE_BUILD)"
		done
	done
fi
run() {
	case $1 in
	*_base)
		HWTRACE_LIB="$base/libhwtrace.so.0" PYTHONPATH="$base_py" \
			hwtrace="$base/tools/hwtrace" run "${1%_base}" ;;
	py_pt) "$python" "$tmp/elements.py" "$pt" symbols ;;
	py_pt_nosym) "$python" "$tmp/elements.py" "$pt" none ;;
	py_pt_branch) "$python" "$tmp/branches.py" "$pt" ;;
	perf_pt) perf script -i "$pt" --itrace=b -s "$tmp/perf_count.py" ;;
	py_swb) "$python" "$tmp/elements.py" "$swb" symbols ;;
	py_swb_nosym) "$python" "$tmp/elements.py" "$swb" none ;;
	py_swb_branch) "$python" "$tmp/branches.py" "$swb" ;;
	perf_swb) perf script -i "$swb" --itrace=b -s "$tmp/perf_count.py" ;;
	perf_swb_text) perf script -i "$swb" --itrace=b -F ip ;;
	decode_swb) "$hwtrace" decode -q -j 1 --format jsonl -o /dev/null "$swb" ;;
	decode_swb_nosym) "$hwtrace" decode -q -j 1 --no-symbols --format jsonl -o /dev/null "$swb" ;;
	batches) "$python" "$tmp/batches.py" "$pt" ;;
	decode) "$hwtrace" decode -q -j 1 -o /dev/null "$pt" ;;
	*) echo "bench_python.sh: no command $1" >&2; return 2 ;;
	esac
}
# What each counted, once (the same branches, or it says so).
for c in py_pt py_pt_branch perf_pt py_swb py_swb_branch perf_swb batches; do
	echo "$c: $(run $c 2>/dev/null | tail -1)"
done

source "$src/bench/bench_times.sh"
declare -A wall cpu
bench_all "$n"
echo "ratios of the medians (wall / CPU):"
echo "  perf script -s / elements(), PT:               $(ratio "${wall[perf_pt]}" "${wall[py_pt]}") / $(ratio "${cpu[perf_pt]}" "${cpu[py_pt]}")  (goal >= 10)"
echo "  perf script -s / elements(types=branch), PT:  $(ratio "${wall[perf_pt]}" "${wall[py_pt_branch]}") / $(ratio "${cpu[perf_pt]}" "${cpu[py_pt_branch]}")  (goal >= 10)"
echo "  perf script -s / elements(), sw_branch:        $(ratio "${wall[perf_swb]}" "${wall[py_swb]}") / $(ratio "${cpu[perf_swb]}" "${cpu[py_swb]}")  (goal >= 10)"
echo "  perf script -s / elements(types=branch), sw_branch: $(ratio "${wall[perf_swb]}" "${wall[py_swb_branch]}") / $(ratio "${cpu[perf_swb]}" "${cpu[py_swb_branch]}")  (goal >= 10)"
echo "  perf script -F ip / perf script -s, sw_branch: $(ratio "${wall[perf_swb_text]}" "${wall[perf_swb]}") / $(ratio "${cpu[perf_swb_text]}" "${cpu[perf_swb]}")  (perf's share outside its Python)"
echo "  elements() / hwtrace decode --format jsonl, sw_branch: $(ratio "${wall[py_swb]}" "${wall[decode_swb]}") / $(ratio "${cpu[py_swb]}" "${cpu[decode_swb]}")"
echo "  element_batches / hwtrace decode -o /dev/null: $(ratio "${wall[batches]}" "${wall[decode]}") / $(ratio "${cpu[batches]}" "${cpu[decode]}")  (goal <= 1.5)"
# per_run A B LABEL: A's CPU over B's, run by run (A and B were timed
# next to each other in each run: on a loaded machine the pairs' ratios
# say more than the medians of each side).
per_run() {
	printf "  %-44s" "$3:"
	paste -d' ' "$tmp/$1.times" "$tmp/$2.times" |
		awk '{ printf " %.2f", ($4 > 0 ? $2 / $4 : 0) } END { print "" }'
}
echo "ratios run by run (CPU):"
per_run perf_pt py_pt "perf script -s / elements(), PT"
per_run perf_swb py_swb "perf script -s / elements(), sw_branch"
per_run batches decode "element_batches / decode -o /dev/null, PT"
if [ -n "$base" ]; then
	per_run perf_pt py_pt_base "perf script -s / elements(), PT, BASE"
	per_run perf_swb py_swb_base "perf script -s / elements(), sw_branch, BASE"
	per_run batches_base decode_base "element_batches / decode, PT, BASE"
	per_run py_pt py_pt_base "elements() PT, this / BASE"
	per_run py_swb py_swb_base "elements() sw_branch, this / BASE"
	per_run batches batches_base "element_batches, this / BASE"
fi
if [ -n "$base" ]; then
	echo "this build / BASE_BUILD, CPU (wall):"
	for c in py_pt py_pt_branch py_swb py_swb_branch batches decode; do
		echo "  $c: $(ratio "${cpu[$c]}" "${cpu[${c}_base]}") ($(ratio "${wall[$c]}" "${wall[${c}_base]}"))"
	done
	echo "  element_batches / hwtrace decode -o /dev/null, BASE_BUILD: $(ratio "${cpu[batches_base]}" "${cpu[decode_base]}")"
fi
