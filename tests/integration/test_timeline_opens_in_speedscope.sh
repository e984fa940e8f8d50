# The Chrome JSON timeline (--format speedscope: without per-call args)
# of a real sw_branch capture of call_tree opens
# in speedscope (the npm package, served from 127.0.0.1) in headless
# Chromium: the flame chart draws, one profile per thread named after the
# capture's process and threads (perf's task events are the oracle), and
# the sandwich view's total and self times of fib, dive, main, worker and
# leaf are hwtrace report's on the same capture, as speedscope prints them.
# A truncated file gets speedscope's import error. Set SPEEDSCOPE_SHOTS to a
# folder to keep the screenshots.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
source "$HWT_SOURCE_DIR/tests/integration/chromium.sh"
PROG="$HWT_BUILD_DIR/tests/programs/call_tree"
PERF=${PERF:-perf}
SPEEDSCOPE=${SPEEDSCOPE_DIR:-$HWT_SOURCE_DIR/build/npm/node_modules/speedscope}
PAGE_JS="$HWT_SOURCE_DIR/tests/integration/speedscope_page.mjs"

server_pid=""
stop_all() {
	chromium_stop
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
	if [ -n "${SPEEDSCOPE_SHOTS:-}" ]; then
		mkdir -p "$SPEEDSCOPE_SHOTS" && cp "$TMP"/*.png "$SPEEDSCOPE_SHOTS"/ 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap stop_all EXIT
need() { fail "$1"; finish; exit 1; }

[ -f "$SPEEDSCOPE/dist/release/index.html" ] ||
	need "speedscope is not installed in $SPEEDSCOPE (make deps)"
command -v "$PERF" >/dev/null || need "perf is not installed (Debian: linux-perf)"
chromium_need

data="$TMP/ct.data"
"$HWTRACE" record -e sw_branch --start main --stop tree_done -o "$data" \
	-- "$PROG" >"$TMP/program.txt" 2>"$TMP/record.err" ||
	{ cat "$TMP/record.err" >&2; need "record"; }
mkdir -p "$TMP/www"
"$HWTRACE" timeline "$data" --format speedscope -o "$TMP/www/ct.json" \
	2>"$TMP/timeline.err" || need "timeline: $(cat "$TMP/timeline.err")"
# A cut file: speedscope must say it cannot read it.
head -c 20000 "$TMP/www/ct.json" >"$TMP/www/cut.json"
cp -r "$SPEEDSCOPE/dist/release" "$TMP/www/speedscope"

# The server picks a free port and says which.
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$TMP/www" \
	>"$TMP/server.log" 2>&1 &
server_pid=$!
# A wide window: the short frames' labels (jump_outer, dive, below) need
# room, and how wide those frames are depends on how fast the program ran
# under the tracer. At 1400 pixels, dive was once left unlabelled.
chromium_start 2800,900
port=""
for _ in $(seq 100); do
	port=$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$TMP/server.log")
	[ -n "$port" ] && break
	sleep 0.2
done
[ -n "$port" ] || need "http.server did not start: $(cat "$TMP/server.log")"

open_page() { # FILE SCREENSHOT: speedscope's view of FILE, one fact a line
	timeout 60 "${NODE[@]}" "$PAGE_JS" "$devtools" \
		"http://127.0.0.1:$port/speedscope/index.html#profileURL=/$1" \
		"$TMP/$2" 25 2>"$TMP/page.err" ||
		fail "reading speedscope's page for $1: $(tail -3 "$TMP/page.err")"
}
open_page ct.json flamechart.png >"$TMP/page.tsv"
field() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$TMP/page.tsv"; }
expect_eq "speedscope loaded the timeline" "$(field state)" "loaded"
expect_eq "no import error" "$(field dialog)" ""
expect_eq "screenshot taken" "$(head -c 4 "$TMP/flamechart.png" | tail -c 3)" "PNG"

# The flame chart (a canvas) drew these frames with their whole names.
for f in main fib; do
	expect_eq "flame chart label $f" "$(field drawn | grep -cx "$f")" "1"
done
# Short frames: how wide they are depends on how fast the program ran
# under the tracer, and speedscope shortens a name that does not fit by
# putting an ellipsis in its middle ("d…e"). Drawn whole or so.
named_label() { # NAME: how many labels drawn are NAME, whole or shortened
	field drawn | awk -v f="$1" '
	$0 == f { n++; next }
	{
		i = index($0, "…")
		if (i < 2) next
		p = substr($0, 1, i - 1); s = substr($0, i + length("…"))
		if (s != "" && length(p) + length(s) < length(f) &&
		    substr(f, 1, length(p)) == p &&
		    substr(f, length(f) - length(s) + 1) == s) n++
	}
	END { print n + 0 }'
}
for f in jump_outer dive; do
	n=$(named_label "$f")
	expect_eq "flame chart label $f, whole or shortened" "$([ "$n" -ge 1 ] && echo drawn || echo "not drawn")" "drawn"
done

# One profile per thread: the process and its two threads, as perf's
# task events name them (threads take their parent's name). speedscope
# lists them by pid, then tid, as numbers; perf's FORK records of two
# threads started together may come in either order.
"$PERF" script -i "$data" --show-task-events 2>/dev/null >"$TMP/tasks.txt"
pid=$(sed -n 's/.*PERF_RECORD_COMM: call_tree:\([0-9]*\)\/\1$/\1/p' "$TMP/tasks.txt" | head -n 1)
threads=$(sed -n "s/.*PERF_RECORD_FORK($pid:\\([0-9]*\\)):($pid:$pid).*/\\1/p" "$TMP/tasks.txt" | grep -vx "$pid" | sort -n)
expect_eq "perf sees two threads" "$(echo "$threads" | wc -l)" "2"
name_of() { echo "call_tree (pid $pid), call_tree (tid $1)"; }
expect_eq "profiles" "$(awk -F'\t' '$1 == "profile" { print $3 }' "$TMP/page.tsv")" \
	"$(for t in $pid $threads; do name_of "$t"; done)"

# speedscope's time and percent formats (its TimeFormatter and
# formatPercent) of hwtrace report's nanoseconds. The file's times are
# within half a nanosecond of the capture's (see timeline_chrome.c), so a
# time speedscope adds up from N of them may be off by up to N ns: the
# text shown must be what some time that close prints as. Prints GOT when
# it is, else the text of the exact time.
as_speedscope() { # NS TOLERANCE_NS ALL_NS GOT
	awk -v ns="$1" -v tol="$2" -v all="$3" -v got="$4" '
	function t(ns, s) {
		s = ns / 1e9
		if (s >= 60) return sprintf("%.1fmin", s / 60)
		if (s >= 1) return sprintf("%.2fs", s)
		if (s >= 1e-3) return sprintf("%.2fms", s * 1e3)
		if (s >= 1e-6) return sprintf("%.2fµs", s * 1e6)
		return sprintf("%.2fns", s * 1e9)
	}
	function pct(p) {
		p = 100 * p / all
		if (p == 100) return "100%"
		if (p > 99) return ">99%"
		if (p < 0.01) return "<0.01%"
		if (p < 1) return sprintf("%.2f%%", p)
		if (p < 10) return sprintf("%.1f%%", p)
		return sprintf("%.0f%%", p)
	}
	BEGIN {
		for (x = ns - tol; x <= ns + tol; x++)
			if (x >= 0 && t(x) " (" pct(x) ")" == got) { print got; exit }
		print t(ns) " (" pct(ns) ")"
	}'
}
for t in $pid $threads; do
	"$HWTRACE" report "$data" --tid "$t" --top 0 >"$TMP/report-$t.txt" 2>/dev/null ||
		fail "report --tid $t"
	"$HWTRACE" report "$data" --tid "$t" --collapsed --weight calls \
		-o "$TMP/calls-$t.folded" 2>/dev/null || fail "report --collapsed --tid $t"
	# A thread's profile spans its outermost frame: the largest total.
	# Printed whole: mawk prints a number past 2^31 as %.6g (2.80012e+09),
	# and a thread traced for more than 2.15 s came out a little short.
	all=$(awk '!/^#/ && $7 > m { m = $7 } END { printf "%.0f\n", m }' "$TMP/report-$t.txt")
	shown=$(awk -F'\t' -v n="$(name_of "$t")" '$1 == "profile" && $3 == n { print $4 }' "$TMP/page.tsv")
	expect_eq "profile of $t: its time" "$shown (100%)" \
		"$(as_speedscope "$all" 1 "$all" "$shown (100%)")"
	if [ "$t" = "$pid" ]; then funcs="main fib dive"; else funcs="worker leaf"; fi
	for f in $funcs; do
		read -r calls self total <<<"$(awk -v f="$f" '$NF == f { print $5, $6, $7 }' "$TMP/report-$t.txt")"
		# Its calls, and the calls it made: the times its self time is cut by.
		cuts=$(awk -v f="$f" '{ n = split($1, a, ";"); if (n > 1 && a[n - 1] == f) s += $2 }
			END { print s + 0 }' "$TMP/calls-$t.folded")
		row=$(awk -F'\t' -v n="$(name_of "$t")" -v f="$f" \
			'$1 == "row" && $2 == n && $5 == f { print $3 "\t" $4 }' "$TMP/page.tsv")
		expect_eq "sandwich $f in $t: total" "${row%%$'\t'*}" \
			"$(as_speedscope "$total" $((calls + 1)) "$all" "${row%%$'\t'*}")"
		expect_eq "sandwich $f in $t: self" "${row#*$'\t'}" \
			"$(as_speedscope "$self" $((calls + cuts + 1)) "$all" "${row#*$'\t'}")"
	done
done
# fib: one row (every call one function), its 465 calls all in it.
expect_eq "fib's rows" "$(awk -F'\t' '$1 == "row" && $5 ~ /^fib/' "$TMP/page.tsv" | wc -l)" "1"
expect_eq "report: fib's calls" \
	"$(awk '$NF == "fib" { print $5 }' "$TMP/report-$pid.txt")" "465"

# The negative: a cut file is refused with speedscope's import error.
open_page cut.json cut.png >"$TMP/page.tsv"
expect_eq "cut file: page state" "$(field state)" "error"
expect_eq "cut file: import error" "$(field dialog)" \
	"Unrecognized format! See documentation about supported formats."
finish
