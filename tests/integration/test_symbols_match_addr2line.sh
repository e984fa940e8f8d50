# Symbols of real programs (built here with -g -O0 and -g -O2, recorded
# with sw_branch) against independent tools: every branch source and
# target in the program is named as binutils' `addr2line -f -i` and
# elfutils' `eu-addr2line -f -i` name the function holding it (their last,
# outermost frame: the code's own function; the frames before it are
# inlined ones), source lines and inline chains of ranges equal
# `eu-addr2line -i`'s, and calls per function equal perf script's on the
# same file.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"
for t in gcc addr2line eu-addr2line perf perl; do
	command -v $t >/dev/null || { echo "FAIL: $t is not installed" >&2; exit 1; }
done

# "ADDR" lines -> one "NAME|SRCLINE|CHAIN" per address from TOOL -f -i,
# where NAME is the outermost function, SRCLINE the innermost line
# (column dropped) and CHAIN every "name@file:line", innermost first.
frames() {
	local tool=$1 prog=$2
	shift 2
	"$tool" -f -i -a -e "$prog" "$@" | perl -ne '
		chomp;
		if (/^0x[0-9a-f]+$/) { print_one() if @f; @f = (); next }
		if (!defined $name) { ($name) = split / /; next }
		s/:(\d+):\d+$/:$1/; s/ \(discriminator \d+\)//;
		push @f, [$name, $_]; undef $name;
		sub print_one { print join("|", $f[-1][0], $f[0][1],
			join(";", map { "$_->[0]\@$_->[1]" } @f)), "\n" }
		END { print_one() if @f }'
}

check_build() {
	local opt=$1 prog="$TMP/sym_path_$1"
	gcc -g -$opt -o "$prog" "$HWT_SOURCE_DIR/tests/programs/sym_path.c" ||
		{ fail "$opt: gcc"; return; }
	"$PROGS/swb_record" -o "$TMP/$opt.data" --quiet --start sp_walk --stop sp_done \
		-- "$prog" 7 >/dev/null 2>"$TMP/rec.err" || { cat "$TMP/rec.err" >&2; fail "$opt: record"; return; }
	"$HWTRACE" decode --format jsonl --srcline "$TMP/$opt.data" >"$TMP/$opt.jsonl" 2>"$TMP/$opt.err" ||
		{ cat "$TMP/$opt.err" >&2; fail "$opt: decode"; return; }
	# Where the program's code was mapped: ELF address = ADDR - START + PGOFF.
	local map start pgoff
	map=$(perf script -i "$TMP/$opt.data" --show-mmap-events 2>/dev/null |
		grep "r-xp $prog\$" | head -1)
	start=$(sed 's/.*\[\(0x[0-9a-f]*\)(.*/\1/' <<<"$map")
	pgoff=$(sed 's/.*) @ \(0x[0-9a-f]*\) .*/\1/' <<<"$map")
	# Branch ends in the program: "ELFADDR SYM SRCLINE".
	PROG=$prog START=$start PGOFF=$pgoff perl -ne '
		my $dso = quotemeta($ENV{PROG});
		next unless /"type":"branch"/;
		for my $s ("from", "to") {
			next unless /"${s}_dso":"$dso"/;
			my ($a) = /"$s":"0x([0-9a-f]+)"/;
			my ($sym) = /"${s}_sym":"([^"]*)"/;
			my ($src) = /"${s}_srcline":"([^"]*)"/;
			printf "0x%x %s %s\n", hex($a) - hex($ENV{START}) + hex($ENV{PGOFF}),
				$sym // "?", $src // "?";
		}' "$TMP/$opt.jsonl" | sort -u >"$TMP/$opt.ends"
	# PLT stubs have no DWARF and no symbol of their own: addr2line
	# names none of them (hwtrace names them as perf does: `x@plt`, and
	# the header before them after the symbol before .plt).
	addr2line -f -e "$prog" $(cut -d' ' -f1 "$TMP/$opt.ends") | sed -n 'p;n' |
		paste -d' ' - "$TMP/$opt.ends" | awk '$1 != "??"' | cut -d' ' -f2- >"$TMP/$opt.code"
	expect_eq "$opt: branch ends in the PLT" \
		"$(grep -v -c -F -f <(cut -d' ' -f1 "$TMP/$opt.code") "$TMP/$opt.ends")" \
		"$(grep -c -e '@plt ' -e ' _init ' "$TMP/$opt.ends")"
	local n
	n=$(wc -l <"$TMP/$opt.code")
	[ "$n" -ge 10 ] || fail "$opt: only $n distinct branch ends in the program"
	cut -d' ' -f1 "$TMP/$opt.code" >"$TMP/$opt.addrs"
	frames addr2line "$prog" $(cat "$TMP/$opt.addrs") >"$TMP/$opt.a2l"
	frames eu-addr2line "$prog" $(cat "$TMP/$opt.addrs") >"$TMP/$opt.eu"
	expect_eq "$opt: addr2line answers" "$(wc -l <"$TMP/$opt.a2l")" "$n"
	expect_eq "$opt: eu-addr2line answers" "$(wc -l <"$TMP/$opt.eu")" "$n"
	expect_eq "$opt: symbols = addr2line -f" "$(cut -d' ' -f2 "$TMP/$opt.code")" "$(cut -d'|' -f1 "$TMP/$opt.a2l")"
	expect_eq "$opt: symbols = eu-addr2line -f" "$(cut -d' ' -f2 "$TMP/$opt.code")" "$(cut -d'|' -f1 "$TMP/$opt.eu")"
	expect_eq "$opt: source lines = eu-addr2line" "$(cut -d' ' -f3 "$TMP/$opt.code")" "$(cut -d'|' -f2 "$TMP/$opt.eu")"

	# Ranges in the program: inline chains as eu-addr2line -i gives them.
	PROG=$prog START=$start PGOFF=$pgoff perl -ne '
		my $dso = quotemeta($ENV{PROG});
		next unless /"type":"range".*"dso":"$dso"/;
		my ($a) = /"start":"0x([0-9a-f]+)"/;
		my ($src) = /"srcline":"([^"]*)"/;
		my @m = /\{"sym":"([^"]*)","srcline":"([^"]*)"\}/g;
		my $chain = join(";", map { "$m[2 * $_]\@$m[2 * $_ + 1]" } 0 .. @m / 2 - 1);
		next unless defined $src;
		$chain = ($1 // "?") . "\@$src" if !$chain && /"sym":"([^"]*)"/;
		printf "0x%x %s\n", hex($a) - hex($ENV{START}) + hex($ENV{PGOFF}), $chain;
		' "$TMP/$opt.jsonl" | grep -v '@plt@' | sort -u >"$TMP/$opt.ranges"
	frames eu-addr2line "$prog" $(cut -d' ' -f1 "$TMP/$opt.ranges") |
		cut -d'|' -f3 >"$TMP/$opt.euchains"
	expect_eq "$opt: inline chains = eu-addr2line -i" "$(cut -d' ' -f2 "$TMP/$opt.ranges")" "$(cat "$TMP/$opt.euchains")"
	local inlined
	inlined=$(grep -c ';' "$TMP/$opt.ranges")
	if [ "$opt" = O2 ]; then
		[ "$inlined" -gt 0 ] || fail "O2: no range with inlined frames"
	else
		expect_eq "O0: ranges with inlined frames" "$inlined" 0
	fi

	# Calls per function of the program, against perf (PLT stubs aside:
	# perf 6.1 names some of them after the symbol before .plt; library
	# functions aside: perf picks other aliases and adds symbol versions).
	PROG=$prog perl -ne 'my $d = quotemeta($ENV{PROG});
		print "$1\n" if /"kind":"call".*"to_sym":"([^"]*)","to_symoff":\d+,"to_dso":"$d"/' \
		"$TMP/$opt.jsonl" | grep -v '@plt$' | sort | uniq -c >"$TMP/$opt.calls"
	perf script -i "$TMP/$opt.data" --itrace=b -F flags,ip,sym,symoff,addr,dso 2>/dev/null |
		PROG=$prog perl -ne 'my $d = quotemeta($ENV{PROG});
		print "$1\n" if /^\s*call\s.*=>\s+[0-9a-f]+ (\S+)\+0x[0-9a-f]+ \($d\)$/' |
		grep -v -e '^_init$' -e '@plt$' | sort | uniq -c >"$TMP/$opt.perfcalls"
	expect_eq "$opt: calls per function = perf script" "$(cat "$TMP/$opt.calls")" "$(cat "$TMP/$opt.perfcalls")"
	expect_eq "$opt: sp_leaf calls" "$(awk '$2 == "sp_leaf" { print $1 }' "$TMP/$opt.calls")" 7
}

check_build O0
check_build O2
finish
