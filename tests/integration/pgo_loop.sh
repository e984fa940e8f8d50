# Shared by the AutoFDO and BOLT export tests (sourced after lib.sh, not
# a test itself): checks the consumer's tools are here, builds
# tests/programs/pgo_loop.c with clang and the flags given, and records it
# with sw_branch from main. Sets CALLS, N (its loop counts), SRC, PROG and
# data (the capture); on failure it says why and exits.
# usage: pgo_loop_capture "TOOLS" "PACKAGES" CLANG_FLAGS...
pgo_loop_capture() {
	local tool
	for tool in $1; do
		command -v "$tool" >/dev/null ||
			{ fail "$tool missing: install $2 (make deps)"; finish; exit 1; }
	done
	shift 2
	CALLS=10
	N=100
	SRC="$HWT_SOURCE_DIR/tests/programs/pgo_loop.c"
	PROG="$TMP/pgo_loop"
	clang -O1 "$@" -o "$PROG" "$SRC" || { fail "building pgo_loop"; finish; exit 1; }
	data="$TMP/pl.data"
	"$HWTRACE" record -e sw_branch --start main -o "$data" -- "$PROG" "$N" \
		>"$TMP/program.txt" 2>"$TMP/record.err" ||
		{ cat "$TMP/record.err" >&2; fail "record"; finish; exit 1; }
}

# The capture's ground truth, its branches as lines "FROM TO KIND TIME"
# in $TMP/truth.txt (the sw_branch decode is exact: every branch the
# program took).
pgo_loop_truth() {
	"$HWTRACE" decode --format jsonl "$data" >"$TMP/truth.jsonl" 2>/dev/null ||
		{ fail "decode the ground truth"; finish; exit 1; }
	python3 - "$TMP/truth.jsonl" >"$TMP/truth.txt" <<'PY'
import json, sys
for e in map(json.loads, open(sys.argv[1])):
    if e["type"] == "branch":
        print(e["from"], e["to"], e["kind"], e["time"])
PY
}

# What llvm-bolt-15 says of hot in OUT, its output with -print-cfg
# -print-only=hot: bolt_hot_count OUT, hot's execution count;
# bolt_hot_block_max OUT, the largest count of its blocks (its loop's);
# bolt_stale OUT, how many function profiles BOLT found stale.
bolt_hot_count() {
	sed -n '/^Binary Function "hot"/,/^}/p' "$1" | awk '/^  Exec Count  :/ { print $NF; exit }'
}
bolt_hot_block_max() {
	sed -n '/^Binary Function "hot"/,/End of Function/p' "$1" |
		awk '/^  Exec Count :/ { print $NF }' | sort -n | tail -1
}
bolt_stale() {
	grep -c 'invalid (possibly stale) profile' "$1"
}
