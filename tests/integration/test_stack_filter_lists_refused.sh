# report, timeline and export refuse a --comm, --dso or --sym list with
# an empty name in it (hwt_filter_list_check) as a usage error, exit 2,
# naming the command, the option and the list; the same lists without the
# slip are taken and filter.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
[ -f "$Q" ] || { echo "FAIL: $Q is missing" >&2; exit 1; }

for cmd in report timeline export; do
	for opt in --comm --dso --sym; do
		for list in "" ",echo" "echo," "echo,,ls"; do
			"$HWTRACE" $cmd $opt "$list" -o "$TMP/out" "$Q" >"$TMP/o" 2>"$TMP/e"
			expect_eq "$cmd $opt '$list': exit status" "$?" 2
			expect_eq "$cmd $opt '$list': message" "$(head -1 "$TMP/e")" \
				"hwtrace $cmd: $opt '$list': expected NAME[,NAME...] without empty names"
			expect_eq "$cmd $opt '$list': nothing written" "$([ -e "$TMP/out" ] && echo yes)" ""
		done
	done
done
# The capture has one thread, echo's (perf report --header-only:
# "cmdline : ... -- echo Hello, World!"): --comm echo,ls keeps every row,
# --comm ls none.
"$HWTRACE" report --no-symbols "$Q" >"$TMP/all" 2>/dev/null
expect_eq "report: unfiltered" "$?" 0
"$HWTRACE" report --comm echo,ls --no-symbols "$Q" >"$TMP/echo" 2>/dev/null
expect_eq "report --comm echo,ls: taken" "$?" 0
expect_eq "report --comm echo,ls: every row" "$(grep -vc '^#' "$TMP/echo")" "$(grep -vc '^#' "$TMP/all")"
expect_eq "report: rows to keep (positive control)" "$(grep -vc '^#' "$TMP/all")" 5
"$HWTRACE" report --comm ls --no-symbols "$Q" >"$TMP/ls" 2>/dev/null
expect_eq "report --comm ls: no row" "$(grep -vc '^#' "$TMP/ls")" 0
finish
