# perf interop: `perf script --itrace=b` on sw_branch captures of real
# programs gives the same branches, in the same order and of the same
# kinds, as `hwtrace decode`. perf classifies branches with its own
# instruction decoder, so the kinds are checked independently too.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROGS="$HWT_BUILD_DIR/tests/programs"
PERF=${PERF:-perf}
command -v "$PERF" >/dev/null || { echo "FAIL: perf is not installed (Debian: linux-perf)" >&2; exit 1; }

# hwtrace's elements as "KIND FROM TO" lines, addresses in perf's spelling.
hwtrace_branches() {
	"$HWTRACE" decode --format jsonl "$1" 2>"$TMP/decode.err" | sed -n \
		-e 's/.*"type":"branch".*"from":"0x\([0-9a-f]*\)","to":"0x\([0-9a-f]*\)","kind":"\([a-z]*\)".*/\3 \1 \2/p' \
		-e 's/.*"type":"trace_on".*"at":"0x\([0-9a-f]*\)".*/on 0 \1/p' \
		-e 's/.*"type":"trace_off".*"at":"0x\([0-9a-f]*\)".*/off \1 0/p' |
		sed -e 's/^indirect /jump /'
}

# perf's branch samples the same way.
perf_branches() {
	"$PERF" script -i "$1" --itrace=b -F flags,ip,addr 2>"$TMP/perf.err" | awk '
		$1 == "tr" { print ($2 == "strt" ? "on" : "off"), $3, $5; next }
		{ k = $1; if (k == "jcc") k = "cond"; else if (k == "jmp") k = "jump";
		  print k, $2, $4 }'
}

check_same() {
	local name=$1 file=$2 want_branches=$3
	hwtrace_branches "$file" >"$TMP/$name.hwt"
	perf_branches "$file" >"$TMP/$name.perf"
	expect_eq "$name: perf branches" "$(wc -l <"$TMP/$name.perf")" "$want_branches"
	expect_eq "$name: hwtrace branches" "$(wc -l <"$TMP/$name.hwt")" "$want_branches"
	if ! cmp -s "$TMP/$name.hwt" "$TMP/$name.perf"; then
		fail "$name: hwtrace decode and perf script differ:"
		diff "$TMP/$name.hwt" "$TMP/$name.perf" | head -20 >&2
		cat "$TMP/decode.err" "$TMP/perf.err" >&2
	fi
}

# known_path 5: 18 branches (5 calls, 3 taken odd tests, 5 returns, 4
# loop jumps, the call of kp_done) plus trace start and end.
"$PROGS/swb_record" -o "$TMP/kp.data" --quiet --start kp_run --stop kp_done \
	-- "$PROGS/known_path" 5 2>"$TMP/rec.err" || { cat "$TMP/rec.err"; fail "record known_path"; }
check_same known_path "$TMP/kp.data" 20
expect_eq "known_path kinds" "$(cut -d' ' -f1 "$TMP/known_path.perf" | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
	" 6 call; 7 cond; 1 off; 1 on; 5 return;"

# swb_demo from main into libc's exit: thousands of branches through
# printf, PLT and lazy binding.
"$PROGS/swb_record" -o "$TMP/demo.data" --quiet --start main --stop exit \
	-- "$PROGS/swb_demo" 200 2>"$TMP/rec.err" || { cat "$TMP/rec.err"; fail "record swb_demo"; }
n=$(sed -n 's/.* \([0-9]*\) branches.*/\1/p' "$TMP/rec.err")
check_same swb_demo "$TMP/demo.data" $((n + 2))
# threads_path: three threads, each its own AUXTRACE stream; perf orders
# the streams its own way, so each thread's branches are compared.
"$PROGS/swb_record" -o "$TMP/th.data" --quiet --start main --stop exit \
	-- "$PROGS/threads_path" 2>"$TMP/rec.err" || { cat "$TMP/rec.err"; fail "record threads_path"; }
"$HWTRACE" decode --format jsonl "$TMP/th.data" 2>/dev/null | sed -n \
	's/.*"type":"branch",.*"tid":\([0-9]*\),"from":"0x\([0-9a-f]*\)","to":"0x\([0-9a-f]*\)".*/\1 \2 \3/p' |
	sort -s -k1,1n >"$TMP/th.hwt"
"$PERF" script -i "$TMP/th.data" --itrace=b -F tid,ip,addr 2>/dev/null |
	awk '$2 != "0" && $4 != "0" { print $1, $2, $4 }' | sort -s -k1,1n >"$TMP/th.perf"
n=$(sed -n 's/.* \([0-9]*\) branches.*/\1/p' "$TMP/rec.err")
expect_eq "threads: perf branches" "$(wc -l <"$TMP/th.perf")" "$n"
expect_eq "threads: threads with branches" "$(cut -d' ' -f1 "$TMP/th.perf" | sort -u | wc -l)" 3
if ! cmp -s "$TMP/th.hwt" "$TMP/th.perf"; then
	fail "threads: hwtrace decode and perf script differ:"
	diff "$TMP/th.hwt" "$TMP/th.perf" | head -10 >&2
fi
finish
