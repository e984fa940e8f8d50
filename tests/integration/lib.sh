# Shared helpers for the integration tests (sourced, not run).
set -u
: "${HWTRACE:?the hwtrace binary}" "${HWT_SOURCE_DIR:?}" "${HWT_TESTDATA:?}"
failures=0
checks=0
skipped_parts=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# An awk function hex(S): the value of hex digits S (no 0x, lower case),
# for scripts that give it to awk (mawk has no strtonum).
AWK_HEX='function hex(s,  i, n) { n = 0; for (i = 1; i <= length(s); i++)
	n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }'

# expect_eq WHAT GOT WANT
expect_eq() {
	checks=$((checks + 1))
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# expect_contains WHAT TEXT FRAGMENT
expect_contains() {
	checks=$((checks + 1))
	case "$2" in *"$3"*) ;; *) fail "$1: '$2' does not contain '$3'" ;; esac
}

# The AUX payload bytes of a perf.data file as "cpu byte" lines (bytes in
# hex), in file order, from hwtrace dump --hex.
aux_bytes() {
	"$HWTRACE" dump --hex "$1" | awk '
		/PERF_RECORD_AUXTRACE / { cpu = $NF; inaux = 1; next }
		/^\.  [0-9a-f]+:/ && inaux {
			n = split(substr($0, 11, 48), b, " ")
			for (i = 1; i <= n; i++) print cpu, b[i]
			next
		}
		{ inaux = 0 }'
}

# cpu_wide_copy SRC DST: DST is SRC with every AUXTRACE record's tid set to
# -1, as a CPU-wide (perf record -a) capture has it; SRC's AUXTRACE records
# are found at the file offsets hwtrace dump prints.
cpu_wide_copy() {
	cp "$1" "$2"
	"$HWTRACE" dump "$1" | awk '/PERF_RECORD_AUXTRACE / { print $3 }' |
		while read -r off; do
			printf '\377\377\377\377' |
				dd of="$2" bs=1 seek=$(($off + 36)) conv=notrunc status=none
		done
}

# have_pt_decoder PART: whether this build decodes Intel PT. In a build
# without libipt it says that PART is left out and why, checks that decode
# names the missing decoder instead, and counts the part for finish.
have_pt_decoder() {
	[ "${HWT_HAVE_LIBIPT:-1}" = 1 ] && return 0
	echo "SKIP part: $1: built without libipt (no Intel PT decoder)" >&2
	skipped_parts=$((skipped_parts + 1))
	return 1
}

# perf_db_calls DB CALLER CALLEE: the calls of CALLEE from CALLER ('*':
# from anywhere) in the calls table of a database perf's
# export-to-sqlite.py (or hwtrace export) wrote.
perf_db_calls() {
	python3 - "$1" "$2" "$3" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
q = '''select count(*) from calls c
       join call_paths cp on c.call_path_id = cp.id
       join symbols s on cp.symbol_id = s.id
       join call_paths pp on cp.parent_id = pp.id
       join symbols p on pp.symbol_id = p.id
       where s.name = ? and (? = '*' or p.name = ?)'''
print(db.execute(q, (sys.argv[3], sys.argv[2], sys.argv[2])).fetchone()[0])
PY
}

# pprof_build: sets PPROF to Google's pprof, built offline from Debian's
# sources (golang-go, golang-github-google-pprof-dev) into the build
# tree once; on failure it says why and exits.
pprof_build() {
	PPROF="$HWT_BUILD_DIR/pprof-go/pprof"
	[ -x "$PPROF" ] && return 0
	command -v go >/dev/null && [ -d /usr/share/gocode/src/github.com/google/pprof ] ||
		{ fail "pprof cannot be built: install golang-go golang-github-google-pprof-dev"; finish; exit 1; }
	mkdir -p "$HWT_BUILD_DIR/pprof-go"
	(cd "$TMP" && GO111MODULE=off GOPATH=/usr/share/gocode \
		GOCACHE="$HWT_BUILD_DIR/pprof-go/cache" \
		go build -o "$PPROF.tmp.$$" github.com/google/pprof) >"$TMP/go.out" 2>&1 &&
		mv "$PPROF.tmp.$$" "$PPROF" ||
		{ fail "building pprof: $(tail -3 "$TMP/go.out")"; finish; exit 1; }
}

finish() {
	echo "$checks checks, $failures failed, $skipped_parts parts skipped" >&2
	[ "$failures" -eq 0 ]
}
