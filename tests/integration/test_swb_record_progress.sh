# hwtrace record -e sw_branch shows its progress on a terminal: a line of
# instructions stepped, branches and rate, rewritten in place at most four
# times a second and cleared before the summary; nothing of it when
# standard error is not a terminal, or with -q. The terminal is a pty
# (script from bsdutils).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
DEMO="$HWT_BUILD_DIR/tests/programs/swb_demo"
cd "$TMP" || exit 1
LINE="hwtrace record: sw_branch: [0-9]* instructions stepped, [0-9]* branches, [0-9]* instructions/s"

timeout 120 script -qec "'$HWTRACE' record -e sw_branch --start main -o tty.data -- '$DEMO' 3000" \
	/dev/null > tty.txt 2>&1
expect_eq "on a pty: exit" "$?" 0
# One progress report per \r-separated piece.
tr '\r' '\n' < tty.txt > pieces.txt
n=$(grep -c "^$(printf '\033')\[K$LINE\$" pieces.txt)
expect_eq "on a pty: progress shown" "$([ "$n" -ge 2 ] && echo yes)" yes
secs=$(sed -n 's/.* branches in \([0-9.]*\) s .*/\1/p' pieces.txt)
expect_eq "on a pty: at most 4 refreshes a second ($n in $secs s)" \
	"$(awk -v n="$n" -v s="$secs" 'BEGIN { print (n <= int(s * 4) + 1) ? "yes" : "no" }')" yes
# The counts only grow, and the last shown is below the final count.
grep "$LINE" pieces.txt | sed 's/.*: \([0-9]*\) instructions stepped.*/\1/' > counts.txt
expect_eq "on a pty: counts grow" "$(sort -n -c counts.txt 2>&1 && echo sorted)" sorted
total=$(sed -n 's/.*sw_branch: \([0-9]*\) instructions, .*/\1/p' pieces.txt)
expect_eq "on a pty: last shown <= total" "$([ "$(tail -1 counts.txt)" -le "$total" ] && echo yes)" yes
# Cleared: the summary starts on a line the clear sequence emptied.
expect_eq "on a pty: line cleared before the summary" \
	"$(grep -c "^$(printf '\033')\[Khwtrace record: per thread:\$" pieces.txt)" 1

"$HWTRACE" record -e sw_branch --start main --max 60000 -o file.data -- "$DEMO" 3000 \
	> /dev/null 2> err.txt
expect_eq "stderr a file: exit" "$?" 0
expect_eq "stderr a file: no progress" "$(grep -c 'instructions stepped' err.txt)" 0
expect_eq "stderr a file: no control characters" "$(tr -d '\n[:print:]' < err.txt | wc -c)" 0

timeout 120 script -qec "'$HWTRACE' record -e sw_branch -q --start main --max 60000 -o q.data -- '$DEMO' 3000" \
	/dev/null > q.txt 2>&1
expect_eq "-q on a pty: exit" "$?" 0
expect_eq "-q on a pty: no progress" "$(grep -c 'instructions stepped' q.txt)" 0
finish
