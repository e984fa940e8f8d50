#!/bin/bash
# hwtrace decode -j N writes the same bytes (standard output and standard
# error, text and jsonl, merged by time and --per-cpu) for N = 1, 2, 3 and
# 8 on every input in the test data that decodes: the quipper Intel PT
# capture (two CPUs: two units decoded in parallel), its emulated replay,
# the simpleperf ETM capture with its binary, every OpenCSD snapshot, and
# (-j 8 against -j 1, jsonl) every ptt stream, --raw with its code where
# the .ptt names an org (--raw and --snapshot decode on one thread: the
# option must not change them). Out-of-range thread counts are usage errors naming the option.
# test_decode_lanes_same_output does the same on a capture large enough
# for the merge's read-back in slices.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"

PTT=$HWT_TESTDATA/ptt
Q=$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14
ETM=$HWT_TESTDATA/perf-data/simpleperf-etm

for bad in 0 257 x 1.5; do
	"$HWTRACE" decode -j "$bad" "$Q" >/dev/null 2>"$TMP/err"
	expect_eq "-j $bad exit" "$?" 2
	expect_contains "-j $bad message" "$(cat "$TMP/err")" "--jobs"
done
"$HWTRACE" decode --jobs 300 "$Q" >/dev/null 2>"$TMP/err"
expect_eq "--jobs 300 exit" "$?" 2
expect_contains "--jobs range" "$(cat "$TMP/err")" "1 to 256"

# same LABEL ARGS...: every -j in $JOBS and format in $FORMATS against
# -j 1.
JOBS="2 3 8"
FORMATS="text jsonl"
same() {
	local label=$1
	shift
	local j fmt
	for fmt in $FORMATS; do
		"$HWTRACE" decode -j 1 --format "$fmt" "$@" >"$TMP/one" 2>"$TMP/one.err"
		echo "rc=$?" >>"$TMP/one"
		for j in $JOBS; do
			"$HWTRACE" decode -j "$j" --format "$fmt" "$@" >"$TMP/many" 2>"$TMP/many.err"
			echo "rc=$?" >>"$TMP/many"
			cmp -s "$TMP/one" "$TMP/many" ||
				fail "$label -j $j $fmt: output differs from -j 1"
			cmp -s "$TMP/one.err" "$TMP/many.err" ||
				fail "$label -j $j $fmt: standard error differs from -j 1"
		done
	done
}

same quipper "$Q"
same "quipper per-cpu" --per-cpu "$Q"
# The capture has content: 2 CPUs decoded, with gaps for its missing code.
"$HWTRACE" decode -j 2 --format jsonl --per-cpu "$Q" >"$TMP/q.jsonl" 2>/dev/null
expect_eq "quipper cpus" "$(grep -o '"cpu":[0-9]*' "$TMP/q.jsonl" | sort -u | tr '\n' ' ')" \
	'"cpu":0 "cpu":3 '

"$HWTRACE" record --emulate "$Q" -o "$TMP/replay.data" >/dev/null 2>&1 ||
	fail "record --emulate"
same "emulated replay" "$TMP/replay.data"

mkdir -p "$TMP/symfs/data/local/tmp"
ln -s "$ETM/etm_test_loop" "$TMP/symfs/data/local/tmp/etm_test_loop"
same "simpleperf etm" --symfs "$TMP/symfs" "$ETM/perf_etm.data"

for snap in "$HWT_TESTDATA"/opencsd/*/; do
	[ -f "$snap/snapshot.ini" ] || continue
	same "snapshot $(basename "$snap")" --snapshot "$snap"
done

# Raw streams decode on one thread whatever -j says: one comparison each
# keeps the test short.
JOBS=8
FORMATS=jsonl
n=0
for pt in "$PTT"/expected/*.pt; do
	name=$(basename "$pt" .pt)
	org=$(sed -n 's/^org \(0x[0-9a-fA-F]*\).*/\1/p' "$PTT/src/$name.ptt" 2>/dev/null | head -1)
	if [ -n "$org" ] && [ -f "$PTT/expected/$name.bin" ]; then
		same "ptt $name" --raw "intel_pt:$pt" --map "$PTT/expected/$name.bin@$org"
	else
		same "ptt $name" --raw "intel_pt:$pt"
	fi
	n=$((n + 1))
done
expect_eq "ptt streams compared" "$([ "$n" -ge 200 ] && echo yes)" yes

finish
