# Code that changes at one address while the program runs, recorded with
# sw_branch and decoded: every range and branch is read and named from the
# file that was mapped there at its time.
# 1. dl_swap dlcloses libswap_lib_a.so and dlopens libswap_lib_b.so, which
#    the loader maps at the same address (the program prints both load
#    addresses; the test fails loudly if they differ).
# 2. exec_path execs exec_target; both are position-dependent, so both
#    run at the same fixed addresses.
# The oracle is independent of hwtrace: which file was mapped when comes
# from perf script's MMAP2 and COMM exec records (nanosecond times), the
# names and addresses of functions from nm.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"
for t in perf perl nm; do
	command -v $t >/dev/null || { echo "FAIL: $t is not installed" >&2; exit 1; }
done

# check WHAT DATA PHASES: PHASES is "TIME FILE BASE" lines, oldest first:
# from TIME on, FILE is mapped at load bias BASE. Prints one line per
# range in the files' functions: "ok NAME" when hwtrace names it as nm
# does from the file of its phase, "bad ..." otherwise (in code of the
# file outside its sized functions, _start or the PLT, only the file is
# compared: "in FILE"); and "call FILE NAME"
# for each call into a function of them (target address from nm).
check() {
	"$HWTRACE" decode --format jsonl "$2" 2>"$TMP/$1.err" >"$TMP/$1.jsonl" ||
		fail "$1: decode: $(cat "$TMP/$1.err")"
	PHASES=$3 perl -e '
		my @ph;
		for (split /\n/, $ENV{PHASES}) {
			my ($t, $f, $b) = split;
			my @syms;
			open(my $nm, "-|", "nm", "-S", "--defined-only", $f) or die;
			while (<$nm>) {
				# unsized symbols (size 0) only mark the code of the file
				next unless /^([0-9a-f]+) (?:([0-9a-f]+) )?[tTW] (\S+)$/;
				push @syms, [hex($1) + hex($b), hex($2 // "0"), $3];
			}
			push @ph, [$t, $f, \@syms];
		}
		sub phase { my $t = shift; my $p;
			for (@ph) { $p = $_ if $t >= $_->[0] } return $p }
		sub func { my ($p, $a) = @_;
			for (@{$p->[2]}) { return $_ if $a >= $_->[0] && $a < $_->[0] + $_->[1] }
			return undef }
		sub inany { my $a = shift;
			for my $p (@ph) { for (@{$p->[2]}) {
				return 1 if $a >= $_->[0] && $a < $_->[0] + 0x1000 } }
			return 0 }
		while (<STDIN>) {
			my ($t) = /"time":(\d+)/ or next;
			my $p = phase($t) or next;
			if (/"type":"range".*"start":"0x([0-9a-f]+)"/) {
				my $a = hex($1);
				next unless inany($a);
				my $f = func($p, $a);
				my ($sym) = /"sym":"([^"]*)"/;
				my ($dso) = /"dso":"([^"]*)"/;
				$sym //= "-"; $dso //= "-";
				if ($f && $sym eq $f->[2] && $dso eq $p->[1]) {
					print "ok $p->[1] $f->[2]\n";
				} elsif (!$f && $dso eq $p->[1]) {
					print "in $p->[1]\n";
				} else {
					printf "bad %x at %d: hwtrace %s %s, nm %s %s\n", $a, $t,
						$sym, $dso, $f ? $f->[2] : "(none)", $p->[1];
				}
			} elsif (/"kind":"call"/ && /"to":"0x([0-9a-f]+)"/) {
				my $a = hex($1);
				for (@{$p->[2]}) {
					print "call $p->[1] $_->[2]\n" if $_->[0] == $a;
				}
			}
		}' <"$TMP/$1.jsonl" >"$TMP/$1.check"
}

# expect_checked NAME WHAT CALLS WANT: every range of check NAME is named
# from the file of its time, and its call lines matching CALLS (grep -E)
# are WANT, counted.
expect_checked() {
	expect_eq "$2: every range named from the file mapped then" \
		"$(grep -c '^bad' "$TMP/$1.check")" "0"
	grep -m5 '^bad' "$TMP/$1.check" >&2
	expect_eq "$2: calls into each file's functions, by nm's addresses" \
		"$(grep -E "$3" "$TMP/$1.check" | sort | uniq -c | sed "s/^ *//" | paste -sd" ")" "$4"
}

# --- dlclose + dlopen at the same address
liba="$PROGS/libswap_lib_a.so"
libb="$PROGS/libswap_lib_b.so"
"$PROGS/swb_record" -o "$TMP/dl.data" -- "$PROGS/dl_swap" "$liba" "$libb" \
	>"$TMP/dl.out" 2>"$TMP/dl.rec" || { cat "$TMP/dl.rec" "$TMP/dl.out" >&2; fail "record dl_swap"; }
read -r _ a _ b <"$TMP/dl.out"
[ -n "$a" ] && [ "$a" = "$b" ] ||
	fail "the loader did not map libswap_lib_b.so where libswap_lib_a.so was ('$(cat "$TMP/dl.out")'): the test cannot show anything"
# first_time DATA OPTION AWK-CONDITION [FILE]: the time (ns) of the first
# record perf script (with OPTION) shows that matches; FILE is $NF.
first_time() {
	perf script --ns "$2" -i "$1" 2>/dev/null |
		awk -v f="${4:-}" "$3"' { t = $4; sub(":", "", t); split(t, p, ".");
			printf "%d%09d\n", p[1], p[2]; exit }'
}
# When each library was mapped, by perf's reading of the sideband.
maptime() {
	first_time "$TMP/dl.data" --show-mmap-events '/PERF_RECORD_MMAP2/ && $NF == f && /r-xp/' "$1"
}
ta=$(maptime "$liba")
tb=$(maptime "$libb")
[ -n "$ta" ] && [ -n "$tb" ] && [ "$ta" -lt "$tb" ] || fail "perf script shows no MMAP2 of both libraries ($ta, $tb)"
check dl "$TMP/dl.data" "$ta $liba $a
$tb $libb $b"
# The program's calls: work(5) in A calls swap_a_inner 3 times; work(6)
# in B calls swap_b_twice(7), which calls swap_b_step twice.
expect_checked dl dl_swap '^call .* swap_' \
	"3 call $liba swap_a_inner 1 call $liba swap_work 2 call $libb swap_b_step 1 call $libb swap_b_twice 1 call $libb swap_work"
for f in "$liba swap_a_inner" "$libb swap_b_step"; do
	expect_eq "dl_swap: ranges named $f" "$(grep -c "^ok $f\$" "$TMP/dl.check")" \
		"$(case $f in *a_inner) echo 3;; *) echo 2;; esac)"
done
expect_eq "dl_swap: no decode errors or missing code" \
	"$(grep -c '"type":"gap"\|"type":"error"' "$TMP/dl.jsonl")" "0"

# --- exec: another program at the same addresses
"$PROGS/swb_record" -o "$TMP/ex.data" -- "$PROGS/exec_path" "$PROGS/exec_target" \
	>"$TMP/ex.out" 2>"$TMP/ex.rec" || { cat "$TMP/ex.rec" >&2; fail "record exec_path"; }
expect_eq "exec_target ran" "$(cat "$TMP/ex.out")" "exec_target 9"
texec=$(first_time "$TMP/ex.data" --show-task-events '/PERF_RECORD_COMM exec:/')
[ -n "$texec" ] || fail "perf script shows no COMM exec record"
check ex "$TMP/ex.data" "0 $PROGS/exec_path 0
$texec $PROGS/exec_target 0"
expect_checked ex exec '^call .*(before_exec|target_step|main)$' \
	"1 call $PROGS/exec_path before_exec 1 call $PROGS/exec_path main 1 call $PROGS/exec_target main 3 call $PROGS/exec_target target_step"
# target_step is one straight-line block: one range per call.
expect_eq "exec: ranges named target_step" \
	"$(grep -c "^ok $PROGS/exec_target target_step\$" "$TMP/ex.check")" "3"
for f in exec_path exec_target; do
	n=$(grep -c "^ok $PROGS/$f " "$TMP/ex.check")
	[ "$n" -ge 5 ] || fail "exec: only $n ranges of $f checked"
done
finish
