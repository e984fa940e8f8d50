# Symbols in the other outputs: --branch-profile's two name columns
# count the same symbol pairs as the jsonl branches of the same decode;
# --disasm prints objdump's "ADDR <sym>:" line at every entry into a
# function (sp_leaf: once per call, at the call's target address);
# --srcline text shows file:line after the symbol.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"
prog="$TMP/sym_path"
gcc -g -O0 -o "$prog" "$HWT_SOURCE_DIR/tests/programs/sym_path.c" || fail gcc
"$PROGS/swb_record" -o "$TMP/s.data" --quiet --start sp_walk --stop sp_done -- "$prog" 7 \
	>/dev/null 2>"$TMP/rec.err" || { cat "$TMP/rec.err" >&2; fail record; }

"$HWTRACE" decode --format jsonl "$TMP/s.data" 2>/dev/null | perl -ne '
	next unless /"type":"branch"/;
	my ($f, $fo) = /"from_sym":"([^"]*)"(?:,"from_symoff":(\d+))?/;
	my ($t, $to) = /"to_sym":"([^"]*)"(?:,"to_symoff":(\d+))?/;
	# A sym without symoff is code no symbol covers, named FILE+0xOFF
	# in both; a known binary without even that is "[unknown]".
	my $fu = /"from_dso"/ ? "[unknown]" : "?";
	my $tu = /"to_dso"/ ? "[unknown]" : "?";
	sub name { my ($s, $o, $u) = @_;
		return $u unless defined $s;
		return defined $o ? sprintf("%s+0x%x", $s, $o) : $s }
	printf "%s %s\n", name($f, $fo, $fu), name($t, $to, $tu)' | sort | uniq -c | sort >"$TMP/pairs.jsonl"
"$HWTRACE" decode --branch-profile "$TMP/s.data" 2>/dev/null |
	awk '{ n[$3 " " $4] += $2 } END { for (k in n) printf "%7d %s\n", n[k], k }' | sort >"$TMP/pairs.profile"
expect_eq "profile name columns = jsonl branch symbols" "$(cat "$TMP/pairs.profile")" "$(cat "$TMP/pairs.jsonl")"
[ "$(wc -l <"$TMP/pairs.profile")" -gt 20 ] || fail "only $(wc -l <"$TMP/pairs.profile") symbol pairs"

"$HWTRACE" decode --disasm "$TMP/s.data" 2>/dev/null >"$TMP/dis.txt"
calls=$("$HWTRACE" decode --format jsonl "$TMP/s.data" 2>/dev/null |
	sed -n 's/.*"to":"0x\([0-9a-f]*\)","kind":"call".*"to_sym":"sp_leaf","to_symoff":0,.*/\1/p')
expect_eq "disasm: sp_leaf headers" "$(grep -c '^[0-9a-f]\{16\} <sp_leaf>:$' "$TMP/dis.txt")" 7
expect_eq "disasm: header addresses are the call targets" \
	"$(sed -n 's/^0*\([0-9a-f]*\) <sp_leaf>:$/\1/p' "$TMP/dis.txt" | sort -u)" "$(sort -u <<<"$calls")"
expect_eq "disasm: the header precedes sp_leaf's first instruction" \
	"$(grep -A1 '<sp_leaf>:$' "$TMP/dis.txt" | grep -c 'sp_leaf+0x0$')" 7

# Text --srcline: the range's function, then file:line as eu-addr2line
# gives it for the same address (the jsonl srcline, checked there).
line=$("$HWTRACE" decode --srcline "$TMP/s.data" 2>/dev/null | grep -m1 ' range .*  sp_leaf+0x0 ')
src=$("$HWTRACE" decode --format jsonl --srcline "$TMP/s.data" 2>/dev/null |
	grep -m1 '"type":"range".*"sym":"sp_leaf","symoff":0,' | sed 's/.*"srcline":"\([^"]*\)".*/\1/')
expect_contains "text srcline" "$line" "  sp_leaf+0x0 $src"
expect_contains "text srcline: the source file" "$src" "tests/programs/sym_path.c:"
finish
