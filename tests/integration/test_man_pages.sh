# The man pages built from docs/man/*.scd (scdoc): there is one for hwtrace,
# one per subcommand of `hwtrace --help` and hwtrace-profile(5); each
# renders with `man --warnings -l` without a warning, names itself, and
# lists every long option its subcommand's --help lists. A page with a
# roff error is caught by the same check.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
MAN="$HWT_BUILD_DIR/man"
command -v man >/dev/null || { echo "FAIL: man is not installed (Debian: man-db)" >&2; exit 1; }

# Warnings of groff for one page, as man --warnings gives them.
warnings() { MANWIDTH=80 man --warnings -E UTF-8 -l "$1" 2>&1 >/dev/null; }

subcommands=$("$HWTRACE" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
expect_eq "subcommands in --help" "$(echo $subcommands)" "list config record decode dump info report annotate timeline view export units merge cluster"
pages="$MAN/man1/hwtrace.1 $MAN/man5/hwtrace-profile.5"
for c in $subcommands; do
	pages="$pages $MAN/man1/hwtrace-$c.1"
done
for page in $pages; do
	name=$(basename "$page")
	expect_eq "$name exists" "$([ -s "$page" ] && echo yes)" yes
	expect_eq "$name: man --warnings" "$(warnings "$page")" ""
	text=$(MANWIDTH=200 man -E UTF-8 -l "$page" 2>/dev/null | col -b)
	expect_contains "$name: NAME section" "$text" "${name%.*} - "
done
# Every long option of a subcommand's --help is in its page.
for c in $subcommands; do
	text=$(MANWIDTH=200 man -E UTF-8 -l "$MAN/man1/hwtrace-$c.1" 2>/dev/null | col -b)
	for opt in $("$HWTRACE" "$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		expect_contains "hwtrace-$c.1 documents $opt" "$text" "$opt"
	done
done
# The check can fail: an undefined macro is reported.
printf '.TH BAD 1\n.SH NAME\nbad\n.BADMACRO x\n' >"$TMP/bad.1"
expect_contains "a broken page warns" "$(warnings "$TMP/bad.1")" "BADMACRO"
finish
