# hwtrace view's page, opened from file:// in headless Chromium and used
# as a person would (tests/integration/view_page.mjs), on a real sw_branch
# capture of call_tree and on a generated one of 1,000,008 calls:
# - no console error (and a page whose data is broken does log one: the
#   check can fail), nothing fetched (no src= or URL in the page);
# - every frame of the flame graph is a stack prefix of `hwtrace report
#   --collapsed` with its summed count as value and its width in
#   proportion; every prefix of a pixel or more is drawn, and the frames
#   added up below a pixel are exactly the rest, as the page says;
# - clicking main;fib zooms: it and its callers span the graph, its
#   callees are as wide as their share of it (the DOM's widths);
# - searching "leaf" highlights exactly the frames named so, and the
#   matched count is the report's stacks through leaf;
# - the functions table is `report --top 0`'s; worker's callers and
#   callees are the call counts the program printed for itself;
# - the timeline's marks are the decode's trace on/off and gap elements;
# - the 1 M-call page is drawn in under 3 s of page time, and says how
#   many calls it added up;
# - a capture without time draws without a timeline, and its facts list
#   the decode's gaps by reason.
# The screenshots stay in the build directory: tests/view-call_tree.png
# and tests/view-1m-calls.png.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
source "$HWT_SOURCE_DIR/tests/integration/chromium.sh"
PROG="$HWT_BUILD_DIR/tests/programs/call_tree"
PAGE_JS="$HWT_SOURCE_DIR/tests/integration/view_page.mjs"
SHOTS="$HWT_BUILD_DIR/tests"
trap 'chromium_stop; rm -rf "$TMP"' EXIT
need() { fail "$1"; finish; exit 1; }
# N with a comma every three digits, as the page writes numbers.
commas() {
	echo "$1" | awk '{ n = $1; s = ""
		while (length(n) > 3) { s = "," substr(n, length(n) - 2) s; n = substr(n, 1, length(n) - 3) }
		print n s }'
}
chromium_need

data="$TMP/ct.data"
"$HWTRACE" record -e sw_branch --start main --stop tree_done -o "$data" \
	-- "$PROG" >"$TMP/program.txt" 2>"$TMP/record.err" ||
	{ cat "$TMP/record.err" >&2; need "record"; }
"$HWTRACE" view "$data" -o "$TMP/ct.html" 2>"$TMP/view.err" ||
	need "view: $(cat "$TMP/view.err")"
"$HWTRACE" report "$data" --collapsed -o "$TMP/ct.folded" 2>/dev/null || need "report --collapsed"
"$HWTRACE" report "$data" --top 0 -o "$TMP/ct.report" 2>/dev/null || need "report"
"$HWTRACE" decode "$data" --format jsonl -o "$TMP/ct.jsonl" 2>/dev/null || need "decode"

# The same page for every number of decode threads (as the man page says).
"$HWTRACE" view "$data" -j 1 -o "$TMP/ct-j1.html" 2>/dev/null || need "view -j 1"
"$HWTRACE" view "$data" -j 3 -o "$TMP/ct-j3.html" 2>/dev/null || need "view -j 3"
expect_eq "view -j 1 and -j 3 write the same page" \
	"$(cmp "$TMP/ct-j1.html" "$TMP/ct-j3.html" && cmp "$TMP/ct-j1.html" "$TMP/ct.html" && echo same)" "same"

# Self-contained: no script, style, image or font from anywhere else.
expect_eq "page loads nothing from elsewhere" \
	"$(grep -ciE 'src=|href=|https?://|url\(' "$TMP/ct.html")" "0"
expect_contains "page forbids fetching" "$(cat "$TMP/ct.html")" "default-src 'none'"

chromium_start 1600,1200
open_page() { # PAGE SHOT CLICK SEARCH PICK [SECONDS]: the page's facts, one a line
	timeout 90 "${NODE[@]}" "$PAGE_JS" "$devtools" "file://$1" "$2" "${6:-30}" \
		"$3" "$4" "$5" 2>"$TMP/page.err" ||
		fail "reading the page $1: $(tail -3 "$TMP/page.err")"
}
open_page "$TMP/ct.html" "$SHOTS/view-call_tree.png" "main;fib" leaf worker >"$TMP/page.tsv"
field() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$TMP/page.tsv"; }
expect_eq "page drawn" "$(field state)" "ready"
expect_eq "no console errors" "$(field console)" ""
expect_eq "screenshot saved" "$(head -c 4 "$SHOTS/view-call_tree.png" | tail -c 3)" "PNG"

# The report's folded stacks as every prefix and its sum ("" is all).
awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); p = ""
	all += n
	for (i = 1; i <= k; i++) { p = (i > 1 ? p ";" : "") f[i]; s[p] += n }
} END { print "\t" all; for (p in s) print p "\t" s[p] }' "$TMP/ct.folded" |
	sort >"$TMP/prefixes.tsv"
W=$(field width)
# Drawn frames against the prefixes: value, width in proportion (to a
# hundredth of a pixel), and whether it is a pixel wide.
awk -F'\t' -v W="$W" -v kind=frame '
	FNR == NR { s[$1] = $2; if ($1 == "") all = $2; next }
	$1 == kind { drawn[$2] = 1
		if (!($2 in s)) print "not a stack: " $2
		else if ($3 != s[$2]) print "value of " $2 ": " $3 " != " s[$2]
		else if ((d = $5 - s[$2] / all * W) > 0.01 || d < -0.01) print "width of " $2 ": " $5
	}
	$1 == "agg" { agg += $2 }
	END {
		for (p in s) {
			wide = s[p] / all * W >= 1
			if (wide && !(p in drawn)) print "a pixel wide, not drawn: " p
			if (!wide && (p in drawn)) print "narrower than a pixel, drawn: " p
			narrow += !wide
		}
		if (agg != narrow) print "added up: " agg " frames, not " narrow
		print "narrow " narrow
	}' "$TMP/prefixes.tsv" "$TMP/page.tsv" >"$TMP/frames.check"
expect_eq "flame graph frames are the report's stacks" "$(grep -v '^narrow ' "$TMP/frames.check")" ""
narrow=$(sed -n 's/^narrow //p' "$TMP/frames.check")
expect_eq "some frames are narrower than a pixel (the case is tested)" "$([ "$narrow" -gt 0 ] && echo yes)" "yes"
expect_contains "the page says what it added up" "$(field note)" \
	"Added up below a pixel: $narrow frames"
expect_eq "frames drawn" "$([ "$(field frame | wc -l)" -gt 30 ] && echo many)" "many"

# Zoomed into main;fib: it and its callers span the graph; below it,
# each frame has its share of main;fib.
expect_eq "click zooms to the frame" "$(field focus)" "main;fib"
awk -F'\t' -v W="$W" '
	FNR == NR { s[$1] = $2; next }
	$1 == "zoom" { n++
		if ($2 == "" || $2 == "main" || $2 == "main;fib") want = W
		else if (index($2, "main;fib;") == 1) want = s[$2] / s["main;fib"] * W
		else { print "outside the zoom: " $2; next }
		if ((d = $5 - want) > 0.01 || d < -0.01) print "zoomed width of " $2 ": " $5 " != " want
	}
	END { if (n < 12) print "only " n " frames after the zoom" }' \
	"$TMP/prefixes.tsv" "$TMP/page.tsv" >"$TMP/zoom.check"
expect_eq "zoomed frames" "$(cat "$TMP/zoom.check")" ""

# Search: the frames named leaf, and the instructions of the stacks
# through leaf.
expect_eq "search highlights leaf's frames" "$(field match | sort)" \
	"$(field frame | awk -F';' '$NF ~ /leaf/' | sort)"
expect_eq "search found some" "$([ -n "$(field match)" ] && echo yes)" "yes"
through_leaf=$(awk '{ n = $NF; sub(/ [0-9]+$/, ""); if ($0 ~ /(^|;)[^;]*leaf[^;]*(;|$)/) s += n }
	END { print s + 0 }' "$TMP/ct.folded")
expect_contains "matched instructions" "$(field found)" \
	"matched: $(commas "$through_leaf") insns"

# The functions table is the report's table: the binary, calls, self
# and total (report's last two columns are dso and function).
awk '!/^#/ && NF >= 8 { print $NF "\t" $(NF - 1) "\t" $5 "\t" $1 "\t" $3 }' "$TMP/ct.report" | sort >"$TMP/report.rows"
awk -F'\t' '$1 == "func" { print $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 }' "$TMP/page.tsv" | sort >"$TMP/page.rows"
expect_eq "functions table rows" "$(wc -l <"$TMP/page.rows")" \
	"$(awk 'END { print (NR < 100 ? NR : 100) }' "$TMP/report.rows")"
expect_eq "functions table is report's" "$(comm -13 "$TMP/report.rows" "$TMP/page.rows")" ""
# worker is the program's own code: its row names the program's binary.
expect_eq "worker's binary" "$(awk -F'\t' '$1 == "func" && $2 == "worker" { print $3 }' "$TMP/page.tsv")" \
	"$(basename "$PROG")"
# worker's caller and callee, with the calls the program counted.
expect_eq "worker's callers" "$(awk -F'\t' '$1 == "caller" { print $2, $3 }' "$TMP/page.tsv")" \
	"$(awk '$2 == "worker" { print $1, $3 }' "$TMP/program.txt")"
expect_eq "worker's callees" "$(awk -F'\t' '$1 == "callee" { print $2, $3 }' "$TMP/page.tsv")" \
	"$(awk '$1 == "worker" { print $2, $3 }' "$TMP/program.txt")"

# Marks: the decode's timed trace on/off and gap elements, per thread.
marks_of_decode() { # JSONL: "tid kind" per timed element
	grep -E '"type":"(trace_on|trace_off|gap)"' "$1" | jq -r 'select(.time != null) | select(.type == "trace_on" or .type == "trace_off" or .type == "gap")
		| "\(.tid) \({"trace_on": "on", "trace_off": "off", "gap": "gap"}[.type])"' | sort
}
expect_eq "timeline marks are the decode's" \
	"$(awk -F'\t' '$1 == "mark" { print $2, $3 }' "$TMP/page.tsv" | sort)" "$(marks_of_decode "$TMP/ct.jsonl")"
expect_contains "timeline says what it added up" "$(field tnote)" "Added up below a pixel:"

# The positive control of the console check: a page whose data does not
# parse logs the exception.
sed 's/{"title":/{"title":,/' "$TMP/ct.html" >"$TMP/broken.html"
open_page "$TMP/broken.html" "$TMP/broken.png" "main" x x 3 >"$TMP/page.tsv"
expect_eq "broken page: not drawn" "$(field state)" "timeout"
expect_contains "broken page: the console has its error" "$(field console)" "SyntaxError"

# 1,000,008 calls: drawn in under 3 s of page time, the calls too short
# for a pixel added up and counted, gap and trace off/on marked.
"$HWT_CALLS_CAPTURE" "$TMP" 41667 >"$TMP/calls.count" || need "calls_capture"
expect_eq "generated calls" "$(cat "$TMP/calls.count")" "1000008"
"$HWTRACE" view "$TMP/calls.data" -o "$TMP/calls.html" 2>"$TMP/view.err" ||
	need "view of 1 M calls: $(cat "$TMP/view.err")"
"$HWTRACE" decode "$TMP/calls.data" --format jsonl -o "$TMP/calls.jsonl" 2>/dev/null || need "decode"
open_page "$TMP/calls.html" "$SHOTS/view-1m-calls.png" "calls-code.bin+0x0;calls-code.bin+0x400" \
	calls-code.bin+0x800 calls-code.bin+0x400 >"$TMP/page.tsv"
expect_eq "1 M calls: page drawn" "$(field state)" "ready"
expect_eq "1 M calls: no console errors" "$(field console)" ""
ms=$(field ready)
expect_eq "1 M calls: drawn in under 3 s of page time (${ms} ms)" "$([ "${ms:-99999}" -lt 3000 ] && echo yes)" "yes"
# The timeline adds up calls shorter than a pixel: here every one.
short=$(sed -n 's/.* \([0-9]*\) shorter than a pixel added up.*/\1/p' "$TMP/view.err")
expect_eq "1 M calls: view added up every call" "$short" "1000008"
expect_contains "1 M calls: the page says so" "$(field tnote)" "Added up below a pixel: 1,000,008 calls"
expect_eq "1 M calls: marks are the decode's" \
	"$(awk -F'\t' '$1 == "mark" { print $2, $3 }' "$TMP/page.tsv" | sort)" "$(marks_of_decode "$TMP/calls.jsonl")"
expect_eq "1 M calls: a loss is marked" "$(awk -F'\t' '$1 == "mark" && $3 == "gap"' "$TMP/page.tsv" | wc -l)" "1"
# Each even call site's function calls its own: 41667 calls an edge. The
# code is a raw file without symbols: its functions are named by file
# offset (mapped at 0x400000).
expect_eq "1 M calls: callees of calls-code.bin+0x400" \
	"$(awk -F'\t' '$1 == "callee" { print $2, $3 }' "$TMP/page.tsv")" "calls-code.bin+0x800 41667"
expect_eq "1 M calls: zoomed" "$(field focus)" "calls-code.bin+0x0;calls-code.bin+0x400"

# A capture without time (generated Intel BTS records, with lost trace,
# code no file maps and walks that fail): the flame graph and the facts
# without a timeline; the gaps are the decode's, by reason (in the
# order of their kinds, as the page lists them).
"$HWT_BTS_CAPTURE" "$TMP" 1 >/dev/null || need "bts_capture"
"$HWTRACE" view "$TMP/bts.data" -o "$TMP/bts.html" 2>"$TMP/view.err" ||
	need "view of the untimed capture: $(cat "$TMP/view.err")"
"$HWTRACE" decode "$TMP/bts.data" --format jsonl -o "$TMP/bts.jsonl" 2>/dev/null || need "decode"
open_page "$TMP/bts.html" "$TMP/bts.png" x x x >"$TMP/page.tsv"
expect_eq "untimed: page drawn" "$(field state)" "ready"
expect_eq "untimed: no console errors" "$(field console)" ""
expect_eq "untimed: no timeline, said" "$(field tnote)" "The capture has no time: there is no timeline to draw."
expect_eq "untimed: the decode's gaps" \
	"$(awk -F'\t' '$1 == "fact" && $2 == "gaps in the decode" { print $3 }' "$TMP/page.tsv")" \
	"$(grep '"type":"gap"' "$TMP/bts.jsonl" | jq -r .reason | awk '{ n[$1]++ } END {
		split("truncated collision lost overflow decode_error no_sync no_image", order, " ")
		for (i = 1; i <= 7; i++) if (n[order[i]]) {
			c = n[order[i]] ""; s = ""
			while (length(c) > 3) { s = "," substr(c, length(c) - 2) s; c = substr(c, 1, length(c) - 3) }
			printf "%s%s %s", (out++ ? ", " : ""), c s, order[i]
		} }')"
expect_eq "untimed: flame graph drawn" "$([ "$(field frame | wc -l)" -gt 3 ] && echo yes)" "yes"

# Output safety, as the other commands: never over the capture, never
# through a symbolic link; -o is required.
cp "$data" "$TMP/keep.data"
"$HWTRACE" view "$data" -o "$data" 2>/dev/null
expect_eq "view -o its own capture: usage error" "$?" "2"
expect_eq "the capture is untouched" "$(cmp -s "$data" "$TMP/keep.data" && echo same)" "same"
ln -s "$TMP/elsewhere.html" "$TMP/link.html"
"$HWTRACE" view "$data" -o "$TMP/link.html" 2>/dev/null
expect_eq "view -o a symbolic link: usage error" "$?" "2"
expect_eq "nothing written through the link" "$([ -e "$TMP/elsewhere.html" ] && echo written)" ""
"$HWTRACE" view "$data" 2>/dev/null
expect_eq "view without -o: usage error" "$?" "2"
finish
