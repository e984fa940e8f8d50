# The table rows of the output-safety tests (sourced after lib.sh, with
# $W the work directory): a command, its exit status and message, and
# that nothing that was there changed or was left behind.

# sums: the checksum of every file under $W, one line each.
sums() { (cd "$W" && find . -type f -print0 | sort -z | xargs -0 -r sha1sum); }

# row NAME RC FRAGMENT CMD...: runs CMD in $W (its standard output in
# $TMP/out, its standard error in $TMP/err) and checks RC, FRAGMENT, that
# every file that was there is byte for byte as it was and that no
# temporary file is left.
row() {
	local name=$1 want_rc=$2 frag=$3 rc
	shift 3
	sums > "$TMP/before"
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	expect_eq "$name: exit status" "$rc" "$want_rc"
	expect_contains "$name: message" "$(cat "$TMP/err")" "$frag"
	(cd "$W" && sha1sum -c --quiet "$TMP/before" 2>&1) > "$TMP/changed"
	expect_eq "$name: no file that was there changed" "$(cat "$TMP/changed")" ""
	expect_eq "$name: no temporary left" "$(find "$W" -name '*.tmp.*' | wc -l)" 0
}
