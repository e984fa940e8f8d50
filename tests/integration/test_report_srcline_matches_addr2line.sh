# report --srcline counts instructions by source line: on a sw_branch
# capture of tests/programs/stacks/stk_inline.c (scale inlined into work,
# built here with gcc -O2), every "FUNCTION FILE:LINE" row of the table
# must hold exactly the executed instructions that addr2line -f -i puts
# at that line of that (innermost, inlined) function, taking each
# instruction's address from decode --disasm; the folded stacks end in
# the inlined function and the line; plain report stays by function.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
command -v addr2line >/dev/null || { fail "addr2line is not installed (binutils)"; finish; exit 1; }
prog="$TMP/stk_inline"
gcc -O2 -g -fno-pie -no-pie -o "$prog" "$HWT_SOURCE_DIR/tests/programs/stacks/stk_inline.c" ||
	{ fail "gcc"; finish; exit 1; }
"$HWTRACE" record -e sw_branch --start main --stop line_done -o "$TMP/l.data" \
	-- "$prog" >"$TMP/program.txt" 2>"$TMP/record.err" ||
	{ fail "record: $(tail -3 "$TMP/record.err")"; finish; exit 1; }
expect_eq "the program ran" "$(cat "$TMP/program.txt")" "30"
"$HWTRACE" report "$TMP/l.data" --srcline --top 0 >"$TMP/lines.txt" 2>"$TMP/report.err" ||
	fail "report --srcline: $(cat "$TMP/report.err")"
"$HWTRACE" report "$TMP/l.data" --srcline --collapsed -o "$TMP/lines.folded" 2>/dev/null
"$HWTRACE" report "$TMP/l.data" --top 0 >"$TMP/funcs.txt" 2>/dev/null

# The oracle: each executed instruction of the program (not of libc) at
# addr2line's innermost function and line.
"$HWTRACE" decode "$TMP/l.data" --disasm --format jsonl 2>/dev/null |
	grep '"type":"range"' | grep "\"dso\":\"$prog\"" |
	sed -n 's/.*"start":"\(0x[0-9a-f]*\)".*/\1/p' >"$TMP/addrs.txt"
expect_eq "the program's instructions, one range each" "$(wc -l <"$TMP/addrs.txt")" \
	"$(awk '$NF ~ /^(main|work|line_done)$/ { s += $1 } END { print s }' "$TMP/funcs.txt")"
# addr2line prints FUNCTION and FILE:LINE per frame, innermost first:
# the first pair of each address.
: >"$TMP/want.txt"
while read -r a; do
	addr2line -f -i -e "$prog" "$a" | head -2 | paste -sd ' ' |
		sed 's/ (discriminator [0-9]*)//' >>"$TMP/want.txt"
done <"$TMP/addrs.txt"
sort "$TMP/want.txt" | uniq -c | awk '{ print $2, $3, $1 }' | sort >"$TMP/want.rows"
awk '!/^#/ && $3 !~ /^\?\?:/ { print $3, $4, $1 }' "$TMP/lines.txt" | sort >"$TMP/got.rows"
grep -v '??' "$TMP/want.rows" >"$TMP/want.known" || true
expect_eq "rows by line = addr2line's" "$(awk '{ print $1, $2, $3 }' "$TMP/got.rows" | grep -v ' ??:')" \
	"$(cat "$TMP/want.known")"
expect_contains "the inlined function has rows of its own" "$(cat "$TMP/got.rows")" "scale $HWT_SOURCE_DIR/tests/programs/stacks/stk_inline.c:"
expect_eq "every instruction counted once" \
	"$(awk '!/^#/ { s += $1 } END { print s }' "$TMP/lines.txt")" \
	"$(awk '!/^#/ { s += $1 } END { print s }' "$TMP/funcs.txt")"
# Folded: the inlined function's lines under work, as a frame of its own.
expect_eq "folded: scale's instructions under work" \
	"$(awk '$1 ~ /^main;work;scale;[^;]*stk_inline.c:[0-9]+$/ { s += $2 } END { print s + 0 }' "$TMP/lines.folded")" \
	"$(awk '$1 == "scale" { s += $3 } END { print s + 0 }' "$TMP/got.rows")"
expect_eq "report without --srcline: by function" "$(grep -c 'stk_inline.c' "$TMP/funcs.txt")" "0"
finish
