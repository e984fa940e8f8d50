# Shared helpers for the integration tests (sourced, not run).
set -u
: "${HWTRACE:?the hwtrace binary}" "${HWT_SOURCE_DIR:?}" "${HWT_TESTDATA:?}"
failures=0
checks=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

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

finish() {
	echo "$checks checks, $failures failed" >&2
	[ "$failures" -eq 0 ]
}
